//===- Backend.h - how a runtime talks to a device --------------*- C++ -*-===//
#ifndef KDA_RUNTIME_BACKEND_H
#define KDA_RUNTIME_BACKEND_H

#include "kda/kda_runtime.h"
#include <cstdint>
#include <memory>
#include <string>

namespace kda::rt {

struct LaunchDims {
  uint32_t grid[3];
  uint32_t block[3];
  uint32_t waveSize; // the emulator emulates it; GPUs have it
  /// Bytes of dynamic shared memory (LDS) per workgroup, from the manifest.
  uint32_t dynamicLdsBytes = 0;
};

/// A loaded code object's entry point, opaque to the runtime core.
using KernelHandle = void *;

class Backend {
public:
  virtual ~Backend() = default;
  virtual kda_backend kind() const = 0;
  /// Which bundle targets this backend can run ("sm_90", "gfx942", ...).
  virtual bool runs(const std::string &target) const = 0;
  /// Loads the code object `file` from `image`, its bytes as the core read
  /// and checked them against the manifest (once per file; never read
  /// again by path, which could have changed since), and finds `symbol` in
  /// it. A kernel that
  /// launches with `dynamicLdsBytes` of dynamic shared memory is prepared
  /// for it here (CUDA's opt-in above 48 KiB) or refused when the device
  /// cannot give that much.
  virtual kda_status load(const std::string &file, const std::string &image,
                          const std::string &symbol, uint32_t dynamicLdsBytes,
                          KernelHandle &out, std::string &error) = 0;
  /// Compute units (SMs, CUs) of the device launches go to: the chunk
  /// planner counts its scans' waves on them. 0
  /// when the device does not say (the planner then takes the narrowest).
  virtual uint32_t computeUnits() = 0;
  /// How many workgroups of `kernel` (launched with `threads` threads and
  /// `dynamicLdsBytes`) one compute unit holds at once, by its registers
  /// and LDS: the chunk planner counts its waves with it. 0 when the
  /// device does not say.
  virtual uint32_t residentWorkgroups(KernelHandle kernel, uint32_t threads,
                                      uint32_t dynamicLdsBytes) = 0;
  /// `params[i]` points at argument i (kernelParams convention).
  virtual kda_status launch(KernelHandle kernel, const LaunchDims &dims,
                            void *stream, void **params,
                            std::string &error) = 0;
};

/// Each returns null with `error` set when the backend cannot start here
/// (library missing, no device).
std::unique_ptr<Backend> makeCudaBackend(std::string &error);
std::unique_ptr<Backend> makeHipBackend(std::string &error);
std::unique_ptr<Backend> makeEmuBackend(std::string &error);

} // namespace kda::rt

#endif // KDA_RUNTIME_BACKEND_H
