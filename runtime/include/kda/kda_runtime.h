/*===- kda_runtime.h - the kda runtime C API ------------------------------===*
 *
 * Loads a bundle written by kda-compile (manifest.json + code objects) and
 * launches its kernels on a caller-given stream. No LLVM inside; the GPU
 * backends are loaded with dlopen (libamdhip64 for hip, libcuda for cuda),
 * the emulator backend runs the host objects of the `emu`, `emu950` and
 * `emu32` targets.
 *
 * The runtime never synchronises and never reads device memory: batch
 * descriptors carry host copies of cu_seqlens and the slot indices (an engine
 * has them: vLLM keeps both on the host before copying them over), and every
 * descriptor is validated before anything launches. A rejected descriptor
 * returns an error code, kda_last_error() says why, and nothing is written.
 *
 * One kernel ABI. Each kernel's argument list - name, element type, role
 * (input, output, inout, workspace) in parameter order - is stated once, by
 * the compiler's kernel builder, and written to the manifest ("args"). The
 * runtime packs launch arguments from that list by name: kda_launch_recurrent
 * maps each name to a kda_batch field (q, k, v, g, beta, a_log, dt_bias,
 * cu_seqlens, slots, has_initial_state, state, out; an argument of role
 * workspace gets kda_batch.workspace), kda_launch_named takes the names from
 * the caller. A bundle whose recurrent kernel names an argument the runtime
 * does not know, lacks one it needs, or gives one another element type or
 * role is refused at kda_bundle_open (KDA_ERROR_BAD_BUNDLE) with a message
 * naming the argument and the kernel.
 *
 * Workspace. A kernel may need scratch device memory per launch; the
 * manifest gives its size as fixed + per_token * T + per_seq * N bytes.
 * The caller owns it: size it with kda_kernel_workspace_bytes, allocate it
 * (16-byte aligned) and pass it with the launch. The runtime never
 * allocates device memory.
 *
 * Launch plans. A plan is a list of kernel launches, arguments packed and
 * validated when each is added, enqueued in order on one stream by
 * kda_plan_launch; each launch sees what the earlier ones wrote. Single
 * launches (kda_launch_recurrent, kda_launch_named) are plans of one.
 *
 * Dynamic shared memory. A kernel's manifest entry says how many bytes of
 * dynamic shared memory (LDS) it launches with ("dynamic_lds_bytes"). CUDA:
 * above 48 KiB the runtime opts in once when the bundle is opened
 * (cuFuncSetAttribute, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, up
 * to the device's opt-in limit less the kernel's static shared memory); HIP
 * has no opt-in (a workgroup may use the whole LDS: 64 KiB on gfx942,
 * 160 KiB on gfx950), so the runtime checks the request against the
 * device's limit when opening; both pass it to every launch. A request the
 * device cannot meet refuses the bundle at open.
 *
 * Threads. Launches, plans and kda_forward may be called from several
 * threads at once, each with its own buffers (on CUDA, each with the
 * context the bundle was opened in current); kda_last_error is per thread.
 * Open and close a bundle from one thread, with no launch of it in flight.
 * The emulator runs one launch of a bundle at a time (a static LDS array
 * is one global of its loaded object); two bundles run side by side.
 *===----------------------------------------------------------------------===*/
#ifndef KDA_RUNTIME_H
#define KDA_RUNTIME_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum kda_status {
  KDA_OK = 0,
  KDA_ERROR_INVALID_ARGUMENT = 1, /* a descriptor or argument is wrong */
  KDA_ERROR_NOT_FOUND = 2,        /* no such bundle, file, kernel or symbol */
  KDA_ERROR_BACKEND = 3,          /* the driver refused (load, launch) */
  KDA_ERROR_UNSUPPORTED = 4,      /* not available on this machine/bundle */
  KDA_ERROR_BAD_BUNDLE = 5        /* manifest unreadable or inconsistent */
} kda_status;

typedef enum kda_backend {
  KDA_BACKEND_AUTO = 0, /* hip if it loads and the bundle has a gfx target,
                           else cuda with sm_90, else the emulator */
  KDA_BACKEND_HIP = 1,
  KDA_BACKEND_CUDA = 2,
  KDA_BACKEND_EMU = 3
} kda_backend;

typedef enum kda_dtype { KDA_F32 = 0, KDA_BF16 = 1, KDA_F16 = 2 } kda_dtype;
typedef enum kda_state_layout { KDA_LAYOUT_KV = 0, KDA_LAYOUT_VK = 1 } kda_state_layout;

typedef struct kda_bundle kda_bundle;
typedef struct kda_kernel kda_kernel;

/* A packed varlen batch (KDA-MATH.md section 4). Device pointers unless
 * marked host. Every device pointer must be 16-byte aligned; host copies
 * only to their int32 elements (an engine may pass a pointer into its own
 * array); a misaligned one is refused.
 * As in kda_forward, tensors a batch has no elements of may be null: the
 * per-token ones (q, k, v, g, beta, out) when num_tokens is 0, the per-row
 * ones (slots, slots_host, has_initial_state) when num_seqs is 0, state
 * when num_slots is 0. cu_seqlens and cu_seqlens_host are always given. */
typedef struct kda_batch {
  int32_t num_seqs;              /* N */
  int64_t num_tokens;            /* T */
  const int32_t *cu_seqlens_host; /* [N+1], host copy: validated */
  const int32_t *slots_host;      /* [N], host copy: validated (every slot
                                     > 0 in the pool and named once; a
                                     padding row's slot is never read) */

  const void *q, *k;             /* [T, H, K] act dtype */
  const void *v;                 /* [T, HV, V] act dtype */
  const void *g;                 /* [T, HV, K] g dtype */
  const void *beta;              /* [T, HV] beta dtype */
  const float *a_log;            /* [HV], when the layer's gate uses it */
  const float *dt_bias;          /* [HV * K], when the layer's gate uses it */
  const int32_t *cu_seqlens;     /* [N+1] */
  const int32_t *slots;          /* [N]; <= 0: padding row */
  const uint8_t *has_initial_state; /* [N]: 0 starts from zeros (the slot is
                                       not read); any other value reads the
                                       slot. The device copy cannot be
                                       checked; kda_forward checks a host
                                       copy (0 or 1 only) when given one. */
  void *state;                   /* [num_slots, HV, K, V] (kv) or [.., V, K] (vk) */
  int64_t num_slots;
  void *out;                     /* [T, HV, V] act dtype; every row written */

  /* What the caller believes the tensors are; checked against the bundle. */
  int32_t heads, value_heads, head_k, head_v;
  kda_dtype act_dtype, g_dtype, beta_dtype, state_dtype;
  kda_state_layout state_layout;

  /* Caller-owned scratch for kernels that need it (kda_kernel_workspace_bytes
   * of this batch; 0 for the recurrent kernel); may be null when that is 0. */
  void *workspace;
  int64_t workspace_bytes; /* its size, checked against the need */

  /* [N] accepted draft tokens per row, for the speculative kernel variant;
   * kda_forward fills it (kda_launch_recurrent refuses kernel variants). */
  const int32_t *num_accepted_tokens;
} kda_batch;

/* One named kernel argument: a device pointer (bare-pointer convention). */
typedef struct kda_arg {
  const char *name;
  void *ptr;
} kda_arg;

typedef struct kda_plan kda_plan;

/* Opens the bundle in `dir` on `backend` for `target` ("emu32", "sm_90";
 * null: the first target in the manifest that the backend runs). The
 * environment variable KDA_TARGET, when set and not empty, overrides
 * `target` (to point a program at another emulator without rebuilding it).
 * A target the bundle lacks for that backend is refused
 * (KDA_ERROR_UNSUPPORTED); an empty target name is refused
 * (KDA_ERROR_INVALID_ARGUMENT). Each kernel's symbol carries the digest of
 * its manifest entry (kda-compile names it so): an entry that is not the
 * one its code object was compiled from - edited, or beside another
 * build's code object - is refused (KDA_ERROR_BAD_BUNDLE), every kernel of
 * the manifest checked, whichever target runs. */
kda_status kda_bundle_open_target(const char *dir, kda_backend backend,
                                  const char *target, kda_bundle **out);
/* kda_bundle_open_target with target null. */
kda_status kda_bundle_open(const char *dir, kda_backend backend,
                           kda_bundle **out);
/* Frees the bundle and unloads its code objects from the device (CUDA
 * modules, HIP modules, the emulator's host objects): launches of its
 * kernels must have completed, and its kda_kernel pointers are dead
 * afterwards. Its plans are too: adding to or launching one is then refused
 * (KDA_ERROR_INVALID_ARGUMENT, nothing enqueued); kda_plan_destroy still
 * frees it. Close it before the context (CUDA) or device (HIP) it
 * was opened on is destroyed or reset: the unload happens there. Null is a
 * no-op; closing a bundle twice, like free(), is undefined. */
void kda_bundle_close(kda_bundle *bundle);
/* The backend and target the bundle was opened on ("sm_90", "gfx942", "emu"). */
kda_backend kda_bundle_backend(const kda_bundle *bundle);
const char *kda_bundle_target(const kda_bundle *bundle);

/* The kernel implementing spec function `name` (e.g. "kimi_k3_tp8_recurrent"). */
kda_status kda_bundle_find(kda_bundle *bundle, const char *name,
                           const kda_kernel **out);

/* Config table variants. A bundle compiled with kda-tune's config table
 * (kda-compile --config-table) holds, beside a recurrent kernel, variants
 * for ranges of sequences per launch; kda_launch_recurrent (and plans) run
 * the variant whose range holds the batch's num_seqs, else the kernel
 * itself - chosen from the host descriptor, with no device read. Their
 * configs are checked when the bundle is opened (KDA_ERROR_BAD_BUNDLE, the
 * message naming the kernel and the rule). This says which kernel (its
 * name; `kernel`'s own when no variant covers num_seqs) a launch of
 * `num_seqs` sequences runs. */
kda_status kda_kernel_variant_for(const kda_kernel *kernel, int64_t num_seqs,
                                  const char **name);

/* Validates `batch` against `kernel`, then launches the recurrent kernel on
 * `stream` (hipStream_t / CUstream; ignored by the emulator, which runs
 * synchronously). */
kda_status kda_launch_recurrent(const kda_kernel *kernel,
                                const kda_batch *batch, void *stream);

/* Only validates; what kda_launch_recurrent checks first. */
kda_status kda_validate_recurrent(const kda_kernel *kernel,
                                  const kda_batch *batch);

/* The chunk (prefill) path of spec function `name`, found like any kernel
 * (kda_bundle_find returns the plan's first stage): a plan of two kernels,
 * prep and scan (KDA-MATH.md section 2), that computes exactly what the
 * recurrent kernel computes for any row length, 1 included. Takes the same
 * kda_batch; it needs a workspace of kda_kernel_workspace_bytes(kernel, T,
 * N) bytes, which the prep writes and the scan reads (its contents between
 * calls do not matter). Validates the batch as kda_validate_recurrent does,
 * then enqueues both kernels on `stream`. */
kda_status kda_validate_chunk(const kda_kernel *kernel, const kda_batch *batch);
kda_status kda_launch_chunk(const kda_kernel *kernel, const kda_batch *batch,
                            void *stream);

/* Launches any kernel of the bundle with its arguments given by name: each
 * argument of the kernel's ABI exactly once, in any order (the runtime puts
 * them in the kernel's order). An unknown, duplicate or missing name is
 * refused (KDA_ERROR_INVALID_ARGUMENT, the message names it) and nothing is
 * launched; so is a non-null pointer that is not 16-byte aligned, and a null
 * workspace for a kernel that needs one. Null pointers are otherwise passed
 * as given (a kernel may ignore an argument, e.g. a_log of a layer without
 * it). The grid is the manifest's with "num_seqs" replaced by `num_seqs`
 * (0 launches nothing); a kernel whose grid is sized by "max_chunks" (the
 * chunk stages) is refused: kda_launch_chunk gives it its batch. */
kda_status kda_launch_named(const kda_kernel *kernel, const kda_arg *args,
                            int32_t num_args, int64_t num_seqs, void *stream);

/* Bytes of workspace `kernel` needs for a batch of `num_tokens` tokens in
 * `num_seqs` sequences (fixed + per_token * T + per_seq * N; 0 for the
 * recurrent kernel). */
kda_status kda_kernel_workspace_bytes(const kda_kernel *kernel,
                                      int64_t num_tokens, int64_t num_seqs,
                                      int64_t *bytes);

/* Launch plans: kernels of one bundle launched in order on one stream.
 * Adding a launch validates and packs it (the same checks as the single
 * launches; a refused launch leaves the plan as it was); the pointers and
 * host arrays are read then, so a plan can be launched again as long as the
 * buffers it names stay allocated. */
kda_status kda_plan_create(kda_bundle *bundle, kda_plan **out);
kda_status kda_plan_add_recurrent(kda_plan *plan, const kda_kernel *kernel,
                                  const kda_batch *batch);
kda_status kda_plan_add_chunk(kda_plan *plan, const kda_kernel *kernel,
                              const kda_batch *batch);
kda_status kda_plan_add_named(kda_plan *plan, const kda_kernel *kernel,
                              const kda_arg *args, int32_t num_args,
                              int64_t num_seqs);
/* The chunk path's ways through a batch after the prep, for timing them
 * (kda-bench --all-scans): scan alternative i < n of the layer's n column
 * blocks (narrowest first), or i = n its split scan (maps, join,
 * segments) where the bundle has one. kda_plan_add_chunk picks one from
 * the batch shape; kda_plan_add_chunk_scan adds the prep and alternative
 * `scan` whatever the shape (the same validation; results equal within
 * the numerics bars). The count is 0 and the symbol NULL for a kernel
 * that is not a chunk layer's (or an index out of range); the symbol is
 * the alternative's first launch, valid while the bundle is open. */
int32_t kda_kernel_chunk_scan_count(const kda_kernel *kernel);
const char *kda_kernel_chunk_scan_symbol(const kda_kernel *kernel,
                                         int32_t scan);
kda_status kda_plan_add_chunk_scan(kda_plan *plan, const kda_kernel *kernel,
                                   const kda_batch *batch, int32_t scan);
/* Number of launches in the plan (a batch with no sequences adds none). */
int32_t kda_plan_size(const kda_plan *plan);
/* The code object entry point of launch `index` (in launch order), valid
 * while the plan lives; NULL when out of range. A chunk plan's second launch
 * is the scan the batch shape picked (kda_<name>_scan, _scan_v32, ...: the
 * column block, chosen from the rows, value heads and the device's compute
 * units; KDA_EMU_COMPUTE_UNITS sets the emulator's, default 132). */
const char *kda_plan_kernel_symbol(const kda_plan *plan, int32_t index);
/* Enqueues the plan's launches in order. A driver refusal stops it there:
 * the launches before it are enqueued, the message says which one failed. */
kda_status kda_plan_launch(const kda_plan *plan, void *stream);
/* Enqueues launches [first, first + count) of the plan, in order (count 0:
 * nothing). For timing a plan's stages one at a time: a launch reads what
 * the earlier ones wrote (a chunk plan's scan reads the prep's workspace),
 * so a later range is meaningful only after the earlier launches ran. A
 * range outside the plan is refused (KDA_ERROR_INVALID_ARGUMENT) with
 * nothing enqueued. */
kda_status kda_plan_launch_range(const kda_plan *plan, int32_t first,
                                 int32_t count, void *stream);
void kda_plan_destroy(kda_plan *plan);

/*===----------------------------------------------------------------------===*
 * One layer's forward pass in vLLM's terms (KDA-MATH.md section 4)
 *
 * kda_forward takes a mixed batch as vLLM's attention metadata describes it
 * and plans its launches:
 *   - the decode front, rows [0, num_decodes), one token each: the
 *     recurrent kernel;
 *   - prefill rows of at most `recurrent_max_tokens` tokens: the recurrent
 *     kernel (a chunk of the chunk path would cost more than the row);
 *   - longer prefill rows: the chunk kernel when one is given, else the
 *     recurrent kernel (correct for any length);
 *   - padding rows (by the call's convention): zero output, no state access.
 * Neighbouring rows of one path share a launch. Everything is enqueued on
 * `stream`; nothing is read back from the device and nothing synchronises,
 * so a decode-only forward can be captured in a CUDA/HIP graph and
 * replayed (with new contents in the same buffers).
 *
 * The threshold comes from the bundle: manifest.json's optional
 * "planner": {"recurrent_max_tokens": N, "provenance": "..."} (where the
 * number was measured); absent, KDA_DEFAULT_RECURRENT_MAX_TOKENS (one
 * 64-row chunk: a shorter row would pay a whole chunk on the chunk path).
 *===----------------------------------------------------------------------===*/

#define KDA_DEFAULT_RECURRENT_MAX_TOKENS 64

/* Which slot indices mark padding rows. */
typedef enum kda_padding {
  /* slot <= 0: vLLM today (NULL_BLOCK_ID = 0; slot 0 is never a state) */
  KDA_PADDING_NONPOSITIVE = 0,
  /* slot < 0: fla and older vLLM (PAD_SLOT_ID = -1; slot 0 is a real slot) */
  KDA_PADDING_NEGATIVE = 1
} kda_padding;

/* One layer's state cache: `num_slots` slots of HV x K x V elements in the
 * layout's order, slot s at data + s * slot_stride elements. A pool that
 * is a view into a larger cache passes its first slot as `data`; a stride
 * wider than a slot (other per-slot data between states) needs a kernel
 * built for it (kda.slot_stride on kda.recurrent), and is checked. */
typedef struct kda_state_cache {
  void *data;            /* device, 16-byte aligned */
  int64_t num_slots;
  int64_t slot_stride;   /* elements; 0: HV * K * V (contiguous slots) */
  kda_dtype dtype;
  kda_state_layout layout;
} kda_state_cache;

/* One forward call. Device pointers unless marked host; device pointers to
 * activations, gate parameters and the state 16-byte aligned, the index
 * arrays (query_start_loc, slots, has_initial_state) aligned to their
 * element, as are host copies. N = num_decodes + num_prefills. */
typedef struct kda_forward_args {
  /* vLLM's counts (host). Decode-first: rows [0, num_decodes) are the
   * decodes, one token each, num_decode_tokens in all; checked against
   * query_start_loc_host, not assumed. */
  int32_t num_decodes;
  int64_t num_decode_tokens;
  int32_t num_prefills;
  int64_t num_tokens;                  /* T */
  const int32_t *query_start_loc;      /* [N+1] (vLLM's cu_seqlens) */
  const int32_t *query_start_loc_host; /* [N+1], host copy: validated */
  const int32_t *slots;                /* [N] state slot of each row;
                                          [N, spec_tokens] when > 1 */
  const int32_t *slots_host;           /* the same, host copy: validated (in
                                          the pool; no real slot named twice) */
  kda_padding padding;                 /* which slots mark padding rows */
  const uint8_t *has_initial_state;    /* [N]: 0 starts from zeros */
  const uint8_t *has_initial_state_host; /* [N] host copy or null; when
                                            given, values other than 0 and 1
                                            are refused */

  const void *q, *k;   /* [T, H, K] act_dtype */
  const void *v;       /* [T, HV, V] act_dtype */
  const void *g;       /* [T, HV, K] raw gate, g_dtype */
  const void *beta;    /* [T, HV] raw beta, beta_dtype */
  const float *a_log;  /* [HV] when the layer's gate uses it */
  const float *dt_bias; /* [HV * K] when the layer's gate uses it */
  kda_state_cache state;
  void *out;           /* [T, HV, V] act_dtype; every row written */

  /* What the caller believes the tensors are; checked against the bundle. */
  int32_t heads, value_heads, head_k, head_v;
  kda_dtype act_dtype, g_dtype, beta_dtype;

  /* Rows longer than this go to the chunk kernel; 0: the bundle's
   * threshold (see above). */
  int32_t recurrent_max_tokens;

  /* Caller-owned scratch, kda_forward_workspace_bytes of this call. */
  void *workspace;
  int64_t workspace_bytes;

  /* Speculative decode (vLLM's spec_state_indices): a recurrent kernel
   * built with kda.spec_tokens = S takes only decode rows, each of 1..S
   * tokens (the verified token and the drafts); slots is [N, S], every entry
   * of a real row a real, distinct slot; a row whose slots[n][0] is padding
   * is padding. A row starts from slots[n][num_accepted_tokens[n] - 1] (the
   * kernel clamps the column into 0..S-1; from zeros, that slot unread, when
   * has_initial_state[n] is 0) and writes the state after its token i to
   * slots[n][i]. Other kernels: spec_tokens 0 or 1. */
  int32_t spec_tokens;
  const int32_t *num_accepted_tokens;      /* [N] device, spec only */
  const int32_t *num_accepted_tokens_host; /* [N] host copy or null; when
                                              given, values in 1..S */
} kda_forward_args;

/* Validates the whole call, plans it and enqueues its launches on `stream`.
 * `recurrent` is the layer's recurrent kernel; `chunk` its chunk kernel or
 * null (then every row goes to the recurrent kernel). A refused call
 * launches nothing and writes nothing. */
kda_status kda_forward(const kda_kernel *recurrent, const kda_kernel *chunk,
                       const kda_forward_args *args, void *stream);

/* Only validates; what kda_forward checks first. */
kda_status kda_forward_validate(const kda_kernel *recurrent,
                                const kda_kernel *chunk,
                                const kda_forward_args *args);

/* Bytes of workspace the call needs (0 while every row takes the recurrent
 * kernel). */
kda_status kda_forward_workspace_bytes(const kda_kernel *recurrent,
                                       const kda_kernel *chunk,
                                       const kda_forward_args *args,
                                       int64_t *bytes);

/* Adds the call's launches to `plan` (validated and packed now): an engine
 * that replays a batch shape packs it once. */
kda_status kda_plan_add_forward(kda_plan *plan, const kda_kernel *recurrent,
                                const kda_kernel *chunk,
                                const kda_forward_args *args);

/* sizeof(kda_forward_args): bindings that mirror the struct (the Python
 * package, runtime/python) check their copy against it when loading. */
int64_t kda_forward_args_size(void);

/* The threshold kda_forward uses with this kernel's bundle when the call
 * gives none, and where it comes from ("default" or the manifest's
 * provenance). */
int32_t kda_bundle_recurrent_max_tokens(const kda_bundle *bundle,
                                        const char **provenance);

/* The message of this thread's last error: "" after a call that succeeded
 * (every entry point that can fail clears it first). */
const char *kda_last_error(void);

#ifdef __cplusplus
}
#endif

#endif /* KDA_RUNTIME_H */
