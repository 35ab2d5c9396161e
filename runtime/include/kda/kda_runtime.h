/*===- kda_runtime.h - the kda runtime C API ------------------------------===*
 *
 * Loads a bundle written by kda-compile (manifest.json + code objects) and
 * launches its kernels on a caller-given stream. No LLVM inside; the GPU
 * backends are loaded with dlopen (libamdhip64 for hip, libcuda for cuda),
 * the emulator backend runs the host objects of the `emu` target.
 *
 * The runtime never synchronises and never reads device memory: batch
 * descriptors carry host copies of cu_seqlens and the slot indices (an engine
 * has them: vLLM keeps both on the host before copying them over), and every
 * descriptor is validated before anything launches. A rejected descriptor
 * returns an error code, kda_last_error() says why, and nothing is written.
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
 * marked host. Every pointer must be 16-byte aligned. */
typedef struct kda_batch {
  int32_t num_seqs;              /* N */
  int64_t num_tokens;            /* T */
  const int32_t *cu_seqlens_host; /* [N+1], host copy: validated */
  const int32_t *slots_host;      /* [N], host copy: validated (in the pool;
                                     no slot > 0 named twice) */

  const void *q, *k;             /* [T, H, K] act dtype */
  const void *v;                 /* [T, HV, V] act dtype */
  const void *g;                 /* [T, HV, K] g dtype */
  const void *beta;              /* [T, HV] beta dtype */
  const float *a_log;            /* [HV], when the layer's gate uses it */
  const float *dt_bias;          /* [HV * K], when the layer's gate uses it */
  const int32_t *cu_seqlens;     /* [N+1] */
  const int32_t *slots;          /* [N]; <= 0: padding row */
  const uint8_t *has_initial_state; /* [N], 0 or 1 */
  void *state;                   /* [num_slots, HV, K, V] (kv) or [.., V, K] (vk) */
  int64_t num_slots;
  void *out;                     /* [T, HV, V] act dtype; every row written */

  /* What the caller believes the tensors are; checked against the bundle. */
  int32_t heads, value_heads, head_k, head_v;
  kda_dtype act_dtype, g_dtype, beta_dtype, state_dtype;
  kda_state_layout state_layout;
} kda_batch;

/* Opens the bundle in `dir` on `backend`. */
kda_status kda_bundle_open(const char *dir, kda_backend backend,
                           kda_bundle **out);
void kda_bundle_close(kda_bundle *bundle);
/* The backend and target the bundle was opened on ("sm_90", "gfx942", "emu"). */
kda_backend kda_bundle_backend(const kda_bundle *bundle);
const char *kda_bundle_target(const kda_bundle *bundle);

/* The kernel implementing spec function `name` (e.g. "kimi_k3_tp8_recurrent"). */
kda_status kda_bundle_find(kda_bundle *bundle, const char *name,
                           const kda_kernel **out);

/* Validates `batch` against `kernel`, then launches the recurrent kernel on
 * `stream` (hipStream_t / CUstream; ignored by the emulator, which runs
 * synchronously). */
kda_status kda_launch_recurrent(const kda_kernel *kernel,
                                const kda_batch *batch, void *stream);

/* Only validates; what kda_launch_recurrent checks first. */
kda_status kda_validate_recurrent(const kda_kernel *kernel,
                                  const kda_batch *batch);

/* The message of this thread's last error ("" if none). */
const char *kda_last_error(void);

#ifdef __cplusplus
}
#endif

#endif /* KDA_RUNTIME_H */
