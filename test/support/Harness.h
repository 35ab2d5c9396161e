//===- Harness.h - run a kda bundle against the float64 oracle --*- C++ -*-===//
//
// Shared by the emulator tests (host memory) and kda-bench on a GPU (device
// memory): builds a random batch, rounds it to the kernel's dtypes, uploads
// it, and after the launch compares outputs and states with the oracle run
// on exactly the rounded inputs.
//
//===----------------------------------------------------------------------===//
#ifndef KDA_TEST_HARNESS_H
#define KDA_TEST_HARNESS_H

#include "RandomBatch.h"
#include "kda/kda_runtime.h"

#include <cstddef>
#include <regex>
#include <string>
#include <vector>

namespace kda::test {

/// `symbol` without the digest that binds it to its manifest entry
/// (`_kd` and 16 hex digits, Manifest.h), so a test can name a kernel as
/// its builder did: kda_chunk_k3_scan_v32_kd<digest>_packed reads
/// kda_chunk_k3_scan_v32_packed. A symbol without one comes back unchanged
/// (and so differs from any name the test expects with one removed).
inline std::string withoutDigest(const char *symbol) {
  if (!symbol)
    return "(null)";
  static const std::regex digest("_kd[0-9a-f]{16}(?=$|_)");
  return std::regex_replace(symbol, digest, "",
                            std::regex_constants::format_first_only);
}

/// Where kernel buffers live.
class Memory {
public:
  virtual ~Memory() = default;
  virtual void *alloc(size_t bytes) = 0;
  virtual void upload(void *dst, const void *src, size_t bytes) = 0;
  virtual void download(void *dst, const void *src, size_t bytes) = 0;
  virtual void release(void *p) = 0;
  virtual void synchronize() {}
};

/// Host memory for the emulators' "device": each buffer lies between two
/// PROT_NONE pages, its end flush against the page after it (16-byte
/// aligned, as the runtime requires), so a kernel that reads or writes past
/// a buffer's end - or a page before its start - faults at that access
/// instead of reading its neighbour's bytes. The fault handler names the
/// buffer, its size and the offset of the access, then lets the process
/// die by the signal. The up-to-15 bytes between a size and its 16-byte
/// round-up hold a canary that release() checks (writes past the end that
/// stay inside them).
class HostMemory : public Memory {
public:
  void *alloc(size_t bytes) override;
  void upload(void *dst, const void *src, size_t bytes) override;
  void download(void *dst, const void *src, size_t bytes) override;
  void release(void *p) override;
};

/// A layer as the bundle's manifest describes one kernel.
struct KernelLayer {
  ref::Layer layer;
  kda_dtype act = KDA_BF16, g = KDA_BF16, beta = KDA_BF16, state = KDA_F32;
  bool usesALog = false, usesDtBias = false;
  bool chunk = false; // the chunk path's plan (kda_launch_chunk)
};

/// Launches `kernel` on `batch` by its path: kda_launch_chunk for a chunk
/// plan, kda_launch_recurrent otherwise.
kda_status launchLayer(const KernelLayer &kl, const kda_kernel *kernel,
                       const kda_batch &batch, void *stream);
/// Reads kernel `name` of `target` from `bundleDir`/manifest.json with the
/// runtime's manifest reader; throws std::runtime_error (its message names
/// the kernel and field) when the manifest is bad or the kernel absent.
KernelLayer readKernelLayer(const std::string &bundleDir,
                            const std::string &name, const std::string &target);

/// The kda_forward call of a prepared batch whose first `numDecodes` rows
/// are its decodes (vLLM's padding convention, contiguous pool).
kda_forward_args forwardArgs(const kda_batch &b, int32_t numDecodes);

/// The bar on the relative L2 error of states (issue #3 for f32). A bf16
/// pool is rounded once per row on the store (relative half-ulp up to 2^-8),
/// so it gets fla's own gate, 5e-3, instead.
/// The bar on the relative L2 error of outputs (issue #3, bf16 inputs).
inline constexpr double kOutputErrorBar = 2e-3;
inline double stateErrorBar(kda_dtype state) {
  return state == KDA_F32 ? 1e-5 : 5e-3;
}

uint16_t toBf16(float f);
float fromBf16(uint16_t h);
uint16_t toF16(float f);
float fromF16(uint16_t h);

/// x rounded to `type` (round to nearest even), back as a double.
double roundTo(double x, kda_dtype type);

struct CaseResult {
  double outErr = 0, stateErr = 0;
  /// The relative L2 error of the oracle's outputs and named states rounded
  /// to the output and state types: what rounding alone costs.
  double outRoundErr = 0, stateRoundErr = 0;
  bool finite = true;
  bool untouchedIdentical = true; // slots no sequence names
  bool paddingZero = true;        // output rows of padding sequences
};

class Harness {
public:
  Harness(const KernelLayer &kl, Memory &mem) : kl(kl), mem(mem) {}
  ~Harness();

  /// Builds and uploads a batch; `numSlots` pool slots, the named ones
  /// random, the others 1e30.
  void prepare(const BatchShape &shape, int64_t numSlots, uint64_t seed);
  /// Gives the prepared batch a workspace of `bytes` (the chunk path's;
  /// freed with the batch).
  void allocateWorkspace(int64_t bytes);
  /// The descriptor of the prepared batch (device pointers).
  kda_batch batch() const { return desc; }
  /// Downloads the outputs, widened to double.
  std::vector<double> outputs();
  /// Downloads and compares with the oracle.
  CaseResult check();
  /// Bytes the recurrent kernel must move at least (state in + out, inputs,
  /// outputs), for bandwidth figures.
  double minimumBytes() const;
  /// Re-uploads the initial pool (between timed repetitions).
  void restoreState();
  /// Downloads the current pool and output (for "nothing written" checks).
  std::vector<uint8_t> snapshot();

private:
  void *put(const std::vector<double> &values, kda_dtype type);
  void freeAll();

  KernelLayer kl;
  Memory &mem;
  ref::Batch host;
  int64_t numSlots = 0;
  std::vector<double> pool0;      // the initial pool as the kernel reads it
  std::vector<uint8_t> poolBytes0; // ... and its encoding in the state dtype
  std::vector<void *> buffers;
  kda_batch desc{};
};

} // namespace kda::test

#endif // KDA_TEST_HARNESS_H
