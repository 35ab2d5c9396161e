//===- Manifest.h - the one reader of a bundle's manifest.json --*- C++ -*-===//
//
// kda-compile writes manifest.json; this is the only code that reads it. The
// runtime opens bundles with it and the test harness (emulator tests,
// kda-bench) reads layers with it, so both agree on every field. Plain C++17
// (nlohmann-json inside, not in this header): no LLVM.
//
// Everything is validated on reading. A bad manifest yields one message that
// names the file, the kernel and the field, e.g.
//   out/manifest.json: kernel 'k3' (emu): args[4].role: 'sideways' is not
//   one of input, output, inout, workspace
//
//===----------------------------------------------------------------------===//
#ifndef KDA_RUNTIME_MANIFEST_H
#define KDA_RUNTIME_MANIFEST_H

#include <cstdint>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace kda::manifest {

/// The manifest format this reader understands (kda-compile writes it).
/// 2: per-kernel "args" carry roles, plus "dynamic_lds_bytes", "workspace".
/// 3: per-kernel "file_digest", the digest of the code object's bytes.
inline constexpr int kFormat = 3;

enum class Role { Input, Output, InOut, Workspace };

inline constexpr int64_t kGridNumSeqs = -1, kGridMaxChunks = -2;
const char *roleName(Role role);

/// One kernel argument: a pointer to elements of `dtype` (bare-pointer
/// convention; the runtime passes a `void *` per argument).
struct Arg {
  std::string name;
  std::string dtype; // f32 bf16 f16 i32 i8 ...
  Role role = Role::Input;
};

/// Workspace bytes of one launch as a formula of the batch:
/// fixed + per_token * num_tokens + per_seq * num_seqs.
struct Workspace {
  int64_t fixed = 0, perToken = 0, perSeq = 0;
  /// -1 when the result would overflow int64.
  int64_t bytes(int64_t numTokens, int64_t numSeqs) const;
  bool empty() const { return fixed == 0 && perToken == 0 && perSeq == 0; }
};

/// The layer a recurrent (or chunk) kernel computes (KDA-MATH.md).
struct Layer {
  int32_t heads = 0, valueHeads = 0, headK = 0, headV = 0;
  std::string gate;  // none | softplus | lower_bound
  double lowerBound = 0;
  std::string beta;  // given | sigmoid | sigmoid_x2
  bool qkL2norm = false;
  double scale = 0;
  std::string stateLayout; // kv | vk
};

struct Kernel {
  std::string name;   // the spec function it implements
  std::string kind;   // recurrent | tile_gemm | ...
  std::string symbol; // entry point in the code object
  std::string target; // gfx942 | gfx950 | sm_90 | emu | emu950 | emu32
  std::string file;   // code object, relative to the bundle
  /// fileDigest(contents of `file`): the runtime loads the bytes it checked.
  std::string fileDigest;
  uint32_t block[3] = {1, 1, 1};
  uint32_t waveSize = 0;
  /// Workgroups per dimension; kGridNumSeqs stands for "num_seqs" and
  /// kGridMaxChunks for "max_chunks" (the most chunks of chunk_size rows in
  /// any sequence of the batch), both known at launch.
  int64_t grid[3] = {1, 1, 1};
  /// Position in the plan of stages its name stands for (the chunk path:
  /// 0 prep, 1 scan); -1 for a kernel that is a whole computation.
  int32_t stage = -1;
  std::vector<Arg> args; // in the kernel's parameter order
  uint32_t dynamicLdsBytes = 0;
  Workspace workspace;
  std::vector<std::string> uses; // optional operands the kernel reads
  /// The config's integer and boolean entries (booleans as 0/1).
  std::map<std::string, int64_t> config;
  /// A config table variant ("variant"): it stands in for kernel `of` of
  /// the same target when a launch has nMin..nMax sequences.
  struct Variant {
    std::string of;
    int64_t nMin = 0, nMax = 0;
  };
  bool isVariant = false;
  Variant variant;
  /// The target's limits its config was checked against ("limits";
  /// recurrent kernels): the runtime re-checks the config with them. Zero
  /// when absent.
  uint32_t maxWorkgroupSize = 0, staticLdsBytes = 0;
  /// Present for kernels of a layer (kind recurrent): its dims and formulas
  /// and the element types of act, g, beta and state.
  bool hasLayer = false;
  Layer layer;
  std::string act, g, beta, state;

  /// The argument named `name`, or null.
  const Arg *findArg(const std::string &name) const;
  /// Whether "uses" lists `operand` (a_log, dt_bias).
  bool usesOperand(const std::string &operand) const;
};

/// How a recurrent kernel reads a batch's rows, from its config: tokens a
/// row (speculative rows: slots_host is [N, specTokens]), the padding
/// convention (slots below paddingBelow pad) and the elements between
/// slots; absent keys give one token a row, slot <= 0 padding, contiguous
/// slots (value_heads x head_k x head_v elements).
struct RowVariant {
  int64_t specTokens = 1, paddingBelow = 1, slotStride = 0;
  bool plain(int64_t slotElems) const {
    return specTokens == 1 && paddingBelow == 1 && slotStride == slotElems;
  }
};
RowVariant rowVariantOf(const Kernel &k);

/// Appends "name a / b" to `out` (comma-separated) where `a` and `b`
/// differ: how the runtime names what two entries that must agree disagree
/// on (layerDifferences, a variant's rows, a chunk stage's size).
template <typename T>
void noteDifference(std::string &out, const char *name, const T &a,
                    const T &b) {
  if (a == b)
    return;
  std::ostringstream os;
  os << (out.empty() ? "" : ", ") << name << " " << a << " / " << b;
  out += os.str();
}

/// The fields of the layer and element types in which `a` and `b` differ,
/// each named with both values, `a`'s first ("lower_bound -5 / -1, scale
/// 0.0883883 / 0.1"); empty where both compute one layer with one set of
/// types. The runtime asks it of kernels that must agree: a forward call's
/// two kernels, a config-table variant and its base, the stages of one
/// chunk plan.
std::string layerDifferences(const Kernel &a, const Kernel &b);

/// Whether `a` and `b` read the same optional operands (uses), in any order.
bool sameUses(const Kernel &a, const Kernel &b);

/// How kda_forward routes rows (manifest "planner", optional): prefill rows
/// up to recurrentMaxTokens tokens take the recurrent kernel. The number is
/// measured, and `provenance` says where (device, date, command).
struct Planner {
  int32_t recurrentMaxTokens = 0; // 0: absent (the runtime's default)
  std::string provenance;
};

struct Manifest {
  std::string path; // where it was read from (for messages)
  std::string spec;
  Planner planner;
  std::vector<Kernel> kernels;
  /// Kernel `name` built for `target`, or null.
  const Kernel *find(const std::string &name, const std::string &target) const;
};

/// Reads `dir`/manifest.json. On failure returns false with `error` naming
/// the file, kernel and field; `out` is then unspecified.
bool readManifest(const std::string &dir, Manifest &out, std::string &error);

/// The wave size of a target the runtime knows (0 for another name, whose
/// bundle no backend runs): the target table's (dialect/lib/Target), restated
/// for a runtime without LLVM; a manifest's wave_size must be it.
/// `TargetWaves.RuntimeKnowsEachTargetsWave` holds the two together.
uint32_t targetWaveSize(const std::string &target);
/// The same on text already in memory; `path` only names it in messages.
bool parseManifest(const std::string &text, const std::string &path,
                   Manifest &out, std::string &error);

/// The message for the first key written twice in one object of `text`
/// ("key \"x\" appears twice in one object (at depth 2)"), or "" where
/// every key is once or `text` is no JSON (its reader says why). The rule
/// the manifest's reader keeps, for the compiler's other JSON inputs (a
/// config table), whose reader would take the last of two keys silently.
std::string repeatedJsonKey(const std::string &text);

/// The contents of `path`, a regular file of at most `maxBytes`, checked
/// on the descriptor that is read (opened without blocking: a FIFO blocked
/// the open for ever; a check by path could be raced by a swap). On failure
/// false, with `error` naming the path and why. The manifest's reader and
/// the compiler's JSON inputs (config tables, kda-bench times) read so.
bool readBoundedFile(const std::string &path, uintmax_t maxBytes,
                     std::string &text, std::string &error);

/// A message when arrays and objects in `text` nest deeper than `maxDepth`
/// (strings skipped), else "": a recursive JSON reader (llvm::json) ran out
/// of stack on 100000 levels. Counted on the text, without parsing it.
std::string jsonTooDeep(const std::string &text, size_t maxDepth);

/// Whether `target` is one of the host emulators (emu, emu950, emu32),
/// whose code objects export each kernel as `<symbol>_packed`.
bool isEmulatorTarget(const std::string &target);

//===----------------------------------------------------------------------===//
// Binding an entry to its code object
//===----------------------------------------------------------------------===//
//
// The runtime launches a kernel as its entry describes it (arguments in
// order, block, grid, dynamic LDS, workspace, config, layer), and nothing in
// the code object says how it was built. So kda-compile names each kernel
// after a digest of its entry: `<stem>_kd<16 hex digits>` (the emulators'
// packed entry adds `_packed`), and the runtime recomputes the digest from
// the entry it read and refuses a symbol that does not carry it. An entry
// edited without its symbol is refused by name; one edited with its symbol
// names a function its code object lacks. Both sides digest the entry as
// this reader holds it (kda-compile reads each entry it writes back through
// parseKernelEntry), so one canonical description serves both.
//
// The digest is FNV-1a (64 bits) over every field that says how to launch
// the kernel: all but symbol, file, ptx, figures and the variant's
// provenance. It guards against a manifest and a code object that do not
// belong together (a hand edit, a stale copy, a cubin of another build), not
// against a forger: a code object's symbols can be patched.

/// The entry's digest: 16 lower-case hex digits.
std::string entryDigest(const Kernel &k);
/// A code object's digest, as an entry's "file_digest" states it: FNV-1a
/// (64 bits) of its bytes, 16 lower-case hex digits. With it a bundle whose
/// code object was damaged or replaced after kda-compile wrote it (a torn
/// copy, one edited header field, a file of another build) is refused at
/// open: the loaders (dlopen above all) trust the bytes they are given,
/// and one bad program header crashed the process inside dlopen. Like the
/// entry digest, it guards against accidents, not a forger.
std::string fileDigest(const std::string &bytes);
/// Empty when `bytes`, read from `k.file`, are the code object `k` was
/// written with; else why not, naming the file and both digests.
std::string checkFileDigest(const Kernel &k, const std::string &bytes);
/// What `k.symbol` must end with: `_kd<digest>`, then `_packed` on an
/// emulator target.
std::string boundSymbolSuffix(const Kernel &k);
/// Empty when `k.symbol` carries its entry's digest; else why not, naming
/// the symbol and the digest the entry has.
std::string checkBinding(const Kernel &k);
/// Reads one kernel entry (an object of the manifest's "kernels") as
/// parseManifest would, without the manifest around it; `where` names it in
/// messages. kda-compile digests the entries it writes through this.
bool parseKernelEntry(const std::string &text, const std::string &where,
                      Kernel &out, std::string &error);

} // namespace kda::manifest

#endif // KDA_RUNTIME_MANIFEST_H
