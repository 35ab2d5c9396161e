//===- CudaBackend.cpp - the CUDA driver API through dlopen ---------------===//
#include "Backend.h"

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

struct CudaApi {
  CUresult (*cuInit)(unsigned);
  CUresult (*cuCtxGetCurrent)(CUcontext *);
  CUresult (*cuCtxSetCurrent)(CUcontext);
  CUresult (*cuDeviceGet)(CUdevice *, int);
  CUresult (*cuDevicePrimaryCtxRetain)(CUcontext *, CUdevice);
  CUresult (*cuModuleLoad)(CUmodule *, const char *);
  CUresult (*cuModuleGetFunction)(CUfunction *, CUmodule, const char *);
  CUresult (*cuLaunchKernel)(CUfunction, unsigned, unsigned, unsigned,
                             unsigned, unsigned, unsigned, unsigned, void *,
                             void **, void **);
  CUresult (*cuGetErrorString)(CUresult, const char **);
};

class CudaBackend : public Backend {
public:
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
    KDA_SYM(cuModuleLoad, "cuModuleLoad")
    KDA_SYM(cuModuleGetFunction, "cuModuleGetFunction")
    KDA_SYM(cuLaunchKernel, "cuLaunchKernel")
    KDA_SYM(cuGetErrorString, "cuGetErrorString")
#undef KDA_SYM
    if (CUresult r = api.cuInit(0))
      return error = "cuInit: " + describe(r), false;
    // Use the caller's context (an engine's); else device 0's primary one.
    CUcontext ctx = nullptr;
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

  kda_status load(const std::string &file, const std::string &symbol,
                  KernelHandle &out, std::string &error) override {
    CUmodule &mod = modules[file];
    if (!mod)
      if (CUresult r = api.cuModuleLoad(&mod, file.c_str())) {
        modules.erase(file);
        error = "cuModuleLoad(" + file + "): " + describe(r);
        return KDA_ERROR_BACKEND;
      }
    CUfunction fn = nullptr;
    if (CUresult r = api.cuModuleGetFunction(&fn, mod, symbol.c_str())) {
      error = "cuModuleGetFunction(" + symbol + "): " + describe(r);
      return KDA_ERROR_NOT_FOUND;
    }
    out = fn;
    return KDA_OK;
  }

  kda_status launch(KernelHandle kernel, const LaunchDims &d, void *stream,
                    void **params, std::string &error) override {
    CUresult r = api.cuLaunchKernel(kernel, d.grid[0], d.grid[1], d.grid[2],
                                    d.block[0], d.block[1], d.block[2], 0,
                                    stream, params, nullptr);
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
  std::map<std::string, CUmodule> modules;
};
} // namespace

std::unique_ptr<Backend> makeCudaBackend(std::string &error) {
  auto b = std::make_unique<CudaBackend>();
  if (!b->start(error))
    return nullptr;
  return b;
}

} // namespace kda::rt
