//===- HipBackend.cpp - HIP's module API through dlopen -------------------===//
#include "Backend.h"

#include <algorithm>
#include <atomic>
#include <dlfcn.h>
#include <map>

namespace kda::rt {
namespace {

using hipError_t = int;
using hipModule_t = void *;
using hipFunction_t = void *;
// Enumerator values of hip_runtime_api.h / driver_types.h (part of HIP's ABI;
// read from the ROCm 5.2 headers Debian ships).
constexpr int HIP_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES = 1;
constexpr int hipDeviceAttributeMultiprocessorCount = 63;
constexpr int hipDeviceAttributeMaxSharedMemoryPerBlock = 74;

struct HipApi {
  hipError_t (*hipInit)(unsigned);
  hipError_t (*hipGetDeviceCount)(int *);
  hipError_t (*hipModuleLoadData)(hipModule_t *, const void *);
  hipError_t (*hipModuleUnload)(hipModule_t);
  hipError_t (*hipSetDevice)(int);
  hipError_t (*hipModuleGetFunction)(hipFunction_t *, hipModule_t,
                                     const char *);
  hipError_t (*hipModuleLaunchKernel)(hipFunction_t, unsigned, unsigned,
                                      unsigned, unsigned, unsigned, unsigned,
                                      unsigned, void *, void **, void **);
  const char *(*hipGetErrorString)(hipError_t);
  hipError_t (*hipGetDevice)(int *);
  hipError_t (*hipDeviceGetAttribute)(int *, int, int);
  hipError_t (*hipFuncGetAttribute)(int *, int, hipFunction_t);
  hipError_t (*hipModuleOccupancyMaxActiveBlocksPerMultiprocessor)(
      int *, hipFunction_t, int, size_t);
};

class HipBackend : public Backend {
public:
  /// A closed bundle's code objects leave the device (as CudaBackend's):
  /// its modules are unloaded on the device they were loaded on, after the
  /// caller's launches (kda_bundle_close's contract). libamdhip64 stays
  /// loaded.
  ~HipBackend() override {
    if (!lib || modules.empty())
      return;
    int previous = device;
    api.hipGetDevice(&previous);
    if (previous != device)
      api.hipSetDevice(device);
    for (auto &entry : modules)
      api.hipModuleUnload(entry.second);
    if (previous != device)
      api.hipSetDevice(previous);
  }

  kda_backend kind() const override { return KDA_BACKEND_HIP; }
  bool runs(const std::string &target) const override {
    return target.rfind("gfx", 0) == 0;
  }

  bool start(std::string &error) {
    for (const char *name :
         {"libamdhip64.so", "libamdhip64.so.6", "libamdhip64.so.5"})
      if ((lib = dlopen(name, RTLD_NOW | RTLD_LOCAL)))
        break;
    if (!lib) {
      error = std::string("cannot load libamdhip64: ") + dlerror();
      return false;
    }
#define KDA_SYM(name)                                                          \
  api.name = reinterpret_cast<decltype(api.name)>(dlsym(lib, #name));          \
  if (!api.name) {                                                             \
    error = "libamdhip64 lacks " #name;                                        \
    return false;                                                              \
  }
    KDA_SYM(hipInit)
    KDA_SYM(hipGetDeviceCount)
    KDA_SYM(hipModuleLoadData)
    KDA_SYM(hipModuleUnload)
    KDA_SYM(hipSetDevice)
    KDA_SYM(hipModuleGetFunction)
    KDA_SYM(hipModuleLaunchKernel)
    KDA_SYM(hipGetErrorString)
    KDA_SYM(hipGetDevice)
    KDA_SYM(hipDeviceGetAttribute)
    KDA_SYM(hipFuncGetAttribute)
#undef KDA_SYM
    // Optional: without it the planner takes one workgroup a unit.
    api.hipModuleOccupancyMaxActiveBlocksPerMultiprocessor = reinterpret_cast<
        decltype(api.hipModuleOccupancyMaxActiveBlocksPerMultiprocessor)>(
        dlsym(lib, "hipModuleOccupancyMaxActiveBlocksPerMultiprocessor"));
    if (hipError_t r = api.hipInit(0))
      return error = "hipInit: " + describe(r), false;
    api.hipGetDevice(&device); // where this bundle's modules load
    int count = 0;
    if (hipError_t r = api.hipGetDeviceCount(&count); r || count == 0)
      return error = "no HIP device (" + describe(r) + ")", false;
    return true;
  }

  kda_status load(const std::string &file, const std::string &image,
                  const std::string &symbol, uint32_t dynamicLdsBytes,
                  KernelHandle &out, std::string &error) override {
    hipModule_t &mod = modules[file];
    if (!mod)
      if (hipError_t r = api.hipModuleLoadData(&mod, image.data())) {
        modules.erase(file);
        error = "hipModuleLoadData(" + file + "): " + describe(r);
        return KDA_ERROR_BACKEND;
      }
    hipFunction_t fn = nullptr;
    if (hipError_t r = api.hipModuleGetFunction(&fn, mod, symbol.c_str())) {
      error = "hipModuleGetFunction(" + symbol + "): " + describe(r);
      return KDA_ERROR_NOT_FOUND;
    }
    if (kda_status s = checkDynamicLds(fn, symbol, dynamicLdsBytes, error))
      return s;
    out = fn;
    return KDA_OK;
  }

  uint32_t computeUnits() override {
    if (!cus) {
      int dev = 0, count = 0;
      if (!api.hipGetDevice(&dev) &&
          !api.hipDeviceGetAttribute(
              &count, hipDeviceAttributeMultiprocessorCount, dev))
        cus = uint32_t(count);
    }
    return cus;
  }

  uint32_t residentWorkgroups(KernelHandle kernel, uint32_t threads,
                              uint32_t dynamicLdsBytes) override {
    int blocks = 0;
    if (!api.hipModuleOccupancyMaxActiveBlocksPerMultiprocessor ||
        api.hipModuleOccupancyMaxActiveBlocksPerMultiprocessor(
            &blocks, static_cast<hipFunction_t>(kernel), int(threads),
            dynamicLdsBytes))
      return 0;
    return uint32_t(std::max(blocks, 0));
  }

  /// AMD GPUs have no opt-in (what hipFuncSetAttribute's
  /// MaxDynamicSharedMemorySize does on CUDA): a workgroup may use the whole
  /// LDS (64 KiB on gfx942, 160 KiB on gfx950). So the equivalent is to
  /// check static + dynamic bytes against the device's limit here, where a
  /// bundle the device cannot run is refused when it is opened.
  kda_status checkDynamicLds(hipFunction_t fn, const std::string &symbol,
                             uint32_t bytes, std::string &error) {
    if (bytes == 0)
      return KDA_OK;
    int dev = 0, limit = 0, staticBytes = 0;
    if (hipError_t r = api.hipGetDevice(&dev))
      return error = "hipGetDevice: " + describe(r), KDA_ERROR_BACKEND;
    if (hipError_t r = api.hipDeviceGetAttribute(
            &limit, hipDeviceAttributeMaxSharedMemoryPerBlock, dev))
      return error = "hipDeviceGetAttribute(LDS per workgroup): " +
                     describe(r), KDA_ERROR_BACKEND;
    if (hipError_t r = api.hipFuncGetAttribute(
            &staticBytes, HIP_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, fn))
      return error = "hipFuncGetAttribute(" + symbol + ", static LDS): " +
                     describe(r), KDA_ERROR_BACKEND;
    if (uint64_t(bytes) + uint64_t(staticBytes) > uint64_t(limit)) {
      error = symbol + " asks for " + std::to_string(bytes) +
              " bytes of dynamic LDS; with its " + std::to_string(staticBytes) +
              " static bytes that exceeds the " + std::to_string(limit) +
              " this device has per workgroup";
      return KDA_ERROR_UNSUPPORTED;
    }
    return KDA_OK;
  }

  kda_status launch(KernelHandle kernel, const LaunchDims &d, void *stream,
                    void **params, std::string &error) override {
    hipError_t r = api.hipModuleLaunchKernel(
        kernel, d.grid[0], d.grid[1], d.grid[2], d.block[0], d.block[1],
        d.block[2], d.dynamicLdsBytes, stream, params, nullptr);
    if (r) {
      error = "hipModuleLaunchKernel: " + describe(r);
      return KDA_ERROR_BACKEND;
    }
    return KDA_OK;
  }

private:
  std::string describe(hipError_t r) {
    const char *s = api.hipGetErrorString ? api.hipGetErrorString(r) : nullptr;
    return std::to_string(r) + (s ? std::string(" (") + s + ")" : "");
  }
  void *lib = nullptr;
  HipApi api{};
  std::map<std::string, hipModule_t> modules;
  int device = 0; // the modules' device
  // computeUnits(), once asked (threads may launch at once: atomic).
  std::atomic<uint32_t> cus{0};
};
} // namespace

std::unique_ptr<Backend> makeHipBackend(std::string &error) {
  auto b = std::make_unique<HipBackend>();
  if (!b->start(error))
    return nullptr;
  return b;
}

} // namespace kda::rt
