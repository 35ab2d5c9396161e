//===- CudaBackend.cpp - the CUDA driver API through dlopen ---------------===//
#include "Backend.h"

#include <algorithm>
#include <atomic>
#include <dlfcn.h>
#include <map>

namespace kda::rt {
namespace {

// The few driver API entry points used, declared by hand so the runtime
// builds without CUDA headers.
using CUresult = int;
using CUdevice = int;
using CUcontext = void *;
using CUmodule = void *;
using CUfunction = void *;
// Enumerator values of cuda.h (stable across CUDA versions).
constexpr int CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES = 1;
constexpr int CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8;
constexpr int CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT = 16;
constexpr int CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN = 97;
/// Dynamic shared memory a kernel may use without opting in.
constexpr uint32_t kDefaultDynamicSharedLimit = 48 * 1024;

struct CudaApi {
  CUresult (*cuInit)(unsigned);
  CUresult (*cuCtxGetCurrent)(CUcontext *);
  CUresult (*cuCtxSetCurrent)(CUcontext);
  CUresult (*cuDeviceGet)(CUdevice *, int);
  CUresult (*cuDevicePrimaryCtxRetain)(CUcontext *, CUdevice);
  CUresult (*cuModuleLoadData)(CUmodule *, const void *);
  CUresult (*cuModuleUnload)(CUmodule);
  CUresult (*cuModuleGetFunction)(CUfunction *, CUmodule, const char *);
  CUresult (*cuLaunchKernel)(CUfunction, unsigned, unsigned, unsigned,
                             unsigned, unsigned, unsigned, unsigned, void *,
                             void **, void **);
  CUresult (*cuGetErrorString)(CUresult, const char **);
  CUresult (*cuCtxGetDevice)(CUdevice *);
  CUresult (*cuDeviceGetAttribute)(int *, int, CUdevice);
  CUresult (*cuFuncGetAttribute)(int *, int, CUfunction);
  CUresult (*cuFuncSetAttribute)(CUfunction, int, int);
  CUresult (*cuOccupancyMaxActiveBlocksPerMultiprocessor)(int *, CUfunction,
                                                          int, size_t);
};

class CudaBackend : public Backend {
public:
  /// A closed bundle's code objects leave the device: its modules are
  /// unloaded in the context they were loaded into (an engine that reloads
  /// bundles would otherwise keep every version's code resident). The
  /// caller's launches must be done (kda_bundle_close's contract). The
  /// primary context stays retained (as the CUDA runtime keeps it), and
  /// libcuda stays loaded: the dlopen reference is the loader's count, and
  /// the driver is not built to be unloaded under a live context.
  ~CudaBackend() override {
    if (!lib || modules.empty())
      return;
    CUcontext previous = nullptr;
    api.cuCtxGetCurrent(&previous);
    if (previous != ctx)
      api.cuCtxSetCurrent(ctx);
    for (auto &entry : modules)
      api.cuModuleUnload(entry.second);
    if (previous != ctx)
      api.cuCtxSetCurrent(previous);
  }

  kda_backend kind() const override { return KDA_BACKEND_CUDA; }
  bool runs(const std::string &target) const override {
    return target.rfind("sm_", 0) == 0;
  }

  bool start(std::string &error) {
    lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
      error = std::string("cannot load libcuda.so.1: ") + dlerror();
      return false;
    }
#define KDA_SYM(name, sym)                                                      \
  api.name = reinterpret_cast<decltype(api.name)>(dlsym(lib, sym));             \
  if (!api.name) {                                                             \
    error = "libcuda.so.1 lacks " sym;                                         \
    return false;                                                              \
  }
    KDA_SYM(cuInit, "cuInit")
    KDA_SYM(cuCtxGetCurrent, "cuCtxGetCurrent")
    KDA_SYM(cuCtxSetCurrent, "cuCtxSetCurrent")
    KDA_SYM(cuDeviceGet, "cuDeviceGet")
    KDA_SYM(cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain")
    KDA_SYM(cuModuleLoadData, "cuModuleLoadData")
    KDA_SYM(cuModuleUnload, "cuModuleUnload")
    KDA_SYM(cuModuleGetFunction, "cuModuleGetFunction")
    KDA_SYM(cuLaunchKernel, "cuLaunchKernel")
    KDA_SYM(cuGetErrorString, "cuGetErrorString")
    KDA_SYM(cuCtxGetDevice, "cuCtxGetDevice")
    KDA_SYM(cuDeviceGetAttribute, "cuDeviceGetAttribute")
    KDA_SYM(cuFuncGetAttribute, "cuFuncGetAttribute")
    KDA_SYM(cuFuncSetAttribute, "cuFuncSetAttribute")
#undef KDA_SYM
    // Optional: without it the planner takes one workgroup a unit.
    api.cuOccupancyMaxActiveBlocksPerMultiprocessor = reinterpret_cast<
        decltype(api.cuOccupancyMaxActiveBlocksPerMultiprocessor)>(
        dlsym(lib, "cuOccupancyMaxActiveBlocksPerMultiprocessor"));
    if (CUresult r = api.cuInit(0))
      return error = "cuInit: " + describe(r), false;
    // Use the caller's context (an engine's); else device 0's primary one.
    api.cuCtxGetCurrent(&ctx);
    if (!ctx) {
      CUdevice dev;
      if (CUresult r = api.cuDeviceGet(&dev, 0))
        return error = "cuDeviceGet: " + describe(r), false;
      if (CUresult r = api.cuDevicePrimaryCtxRetain(&ctx, dev))
        return error = "cuDevicePrimaryCtxRetain: " + describe(r), false;
      api.cuCtxSetCurrent(ctx);
    }
    return true;
  }

  kda_status load(const std::string &file, const std::string &image,
                  const std::string &symbol, uint32_t dynamicLdsBytes,
                  KernelHandle &out, std::string &error) override {
    CUmodule &mod = modules[file];
    if (!mod)
      // A cubin, or PTX (NUL-terminated: std::string's data() is).
      if (CUresult r = api.cuModuleLoadData(&mod, image.c_str())) {
        modules.erase(file);
        error = "cuModuleLoadData(" + file + "): " + describe(r);
        return KDA_ERROR_BACKEND;
      }
    CUfunction fn = nullptr;
    if (CUresult r = api.cuModuleGetFunction(&fn, mod, symbol.c_str())) {
      error = "cuModuleGetFunction(" + symbol + "): " + describe(r);
      return KDA_ERROR_NOT_FOUND;
    }
    if (kda_status s = allowDynamicShared(fn, symbol, dynamicLdsBytes, error))
      return s;
    out = fn;
    return KDA_OK;
  }

  uint32_t computeUnits() override {
    if (!sms) {
      CUdevice dev = 0;
      int count = 0;
      if (!api.cuCtxGetDevice(&dev) &&
          !api.cuDeviceGetAttribute(
              &count, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev))
        sms = uint32_t(count);
    }
    return sms;
  }

  uint32_t residentWorkgroups(KernelHandle kernel, uint32_t threads,
                              uint32_t dynamicLdsBytes) override {
    int blocks = 0;
    if (!api.cuOccupancyMaxActiveBlocksPerMultiprocessor ||
        api.cuOccupancyMaxActiveBlocksPerMultiprocessor(
            &blocks, static_cast<CUfunction>(kernel), int(threads),
            dynamicLdsBytes))
      return 0;
    return uint32_t(std::max(blocks, 0));
  }

  /// Above 48 KiB of shared memory (static and dynamic) a kernel must opt
  /// in, once, for its dynamic bytes, up to
  /// the device's opt-in limit less the kernel's static shared memory (227
  /// KiB per block on sm_90). Checked here so a bundle the device cannot run
  /// is refused when it is opened, not at its first launch.
  kda_status allowDynamicShared(CUfunction fn, const std::string &symbol,
                                uint32_t bytes, std::string &error) {
    if (bytes == 0)
      return KDA_OK;
    CUdevice dev = 0;
    int optin = 0, staticBytes = 0;
    if (CUresult r = api.cuCtxGetDevice(&dev))
      return error = "cuCtxGetDevice: " + describe(r), KDA_ERROR_BACKEND;
    if (CUresult r = api.cuDeviceGetAttribute(
            &optin, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, dev))
      return error = "cuDeviceGetAttribute(shared memory opt-in): " +
                     describe(r), KDA_ERROR_BACKEND;
    if (CUresult r = api.cuFuncGetAttribute(
            &staticBytes, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, fn))
      return error = "cuFuncGetAttribute(" + symbol + ", static shared " +
                     "memory): " + describe(r), KDA_ERROR_BACKEND;
    if (uint64_t(bytes) + uint64_t(staticBytes) > uint64_t(optin)) {
      error = symbol + " asks for " + std::to_string(bytes) +
              " bytes of dynamic shared memory; with its " +
              std::to_string(staticBytes) + " static bytes that exceeds the " +
              std::to_string(optin) + " this device allows per block";
      return KDA_ERROR_UNSUPPORTED;
    }
    // The default limit counts the static bytes too: 48 KiB of dynamic
    // shared memory beside one static byte needs the opt-in.
    if (uint64_t(bytes) + uint64_t(staticBytes) <= kDefaultDynamicSharedLimit)
      return KDA_OK;
    // Only ever raise the limit: two manifest entries may share a function.
    int current = 0;
    if (CUresult r = api.cuFuncGetAttribute(
            &current, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, fn))
      return error = "cuFuncGetAttribute(" + symbol + ", max dynamic shared " +
                     "memory): " + describe(r), KDA_ERROR_BACKEND;
    if (current >= int(bytes))
      return KDA_OK;
    if (CUresult r = api.cuFuncSetAttribute(
            fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, int(bytes)))
      return error = "cuFuncSetAttribute(" + symbol +
                     ", max dynamic shared memory " + std::to_string(bytes) +
                     "): " + describe(r), KDA_ERROR_BACKEND;
    return KDA_OK;
  }

  kda_status launch(KernelHandle kernel, const LaunchDims &d, void *stream,
                    void **params, std::string &error) override {
    CUresult r = api.cuLaunchKernel(kernel, d.grid[0], d.grid[1], d.grid[2],
                                    d.block[0], d.block[1], d.block[2],
                                    d.dynamicLdsBytes, stream, params,
                                    nullptr);
    if (r) {
      error = "cuLaunchKernel: " + describe(r);
      return KDA_ERROR_BACKEND;
    }
    return KDA_OK;
  }

private:
  std::string describe(CUresult r) {
    const char *s = nullptr;
    api.cuGetErrorString(r, &s);
    return std::to_string(r) + (s ? std::string(" (") + s + ")" : "");
  }
  void *lib = nullptr;
  CudaApi api{};
  CUcontext ctx = nullptr; // the modules' context
  std::map<std::string, CUmodule> modules;
  // computeUnits(), once asked (threads may launch at once: atomic).
  std::atomic<uint32_t> sms{0};
};
} // namespace

std::unique_ptr<Backend> makeCudaBackend(std::string &error) {
  auto b = std::make_unique<CudaBackend>();
  if (!b->start(error))
    return nullptr;
  return b;
}

} // namespace kda::rt
