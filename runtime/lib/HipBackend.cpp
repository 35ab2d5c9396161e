//===- HipBackend.cpp - HIP's module API through dlopen -------------------===//
#include "Backend.h"

#include <dlfcn.h>
#include <map>

namespace kda::rt {
namespace {

using hipError_t = int;
using hipModule_t = void *;
using hipFunction_t = void *;

struct HipApi {
  hipError_t (*hipInit)(unsigned);
  hipError_t (*hipGetDeviceCount)(int *);
  hipError_t (*hipModuleLoad)(hipModule_t *, const char *);
  hipError_t (*hipModuleGetFunction)(hipFunction_t *, hipModule_t,
                                     const char *);
  hipError_t (*hipModuleLaunchKernel)(hipFunction_t, unsigned, unsigned,
                                      unsigned, unsigned, unsigned, unsigned,
                                      unsigned, void *, void **, void **);
  const char *(*hipGetErrorString)(hipError_t);
};

class HipBackend : public Backend {
public:
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
    KDA_SYM(hipModuleLoad)
    KDA_SYM(hipModuleGetFunction)
    KDA_SYM(hipModuleLaunchKernel)
    KDA_SYM(hipGetErrorString)
#undef KDA_SYM
    if (hipError_t r = api.hipInit(0))
      return error = "hipInit: " + describe(r), false;
    int count = 0;
    if (hipError_t r = api.hipGetDeviceCount(&count); r || count == 0)
      return error = "no HIP device (" + describe(r) + ")", false;
    return true;
  }

  kda_status load(const std::string &file, const std::string &symbol,
                  KernelHandle &out, std::string &error) override {
    hipModule_t &mod = modules[file];
    if (!mod)
      if (hipError_t r = api.hipModuleLoad(&mod, file.c_str())) {
        modules.erase(file);
        error = "hipModuleLoad(" + file + "): " + describe(r);
        return KDA_ERROR_BACKEND;
      }
    hipFunction_t fn = nullptr;
    if (hipError_t r = api.hipModuleGetFunction(&fn, mod, symbol.c_str())) {
      error = "hipModuleGetFunction(" + symbol + "): " + describe(r);
      return KDA_ERROR_NOT_FOUND;
    }
    out = fn;
    return KDA_OK;
  }

  kda_status launch(KernelHandle kernel, const LaunchDims &d, void *stream,
                    void **params, std::string &error) override {
    hipError_t r = api.hipModuleLaunchKernel(
        kernel, d.grid[0], d.grid[1], d.grid[2], d.block[0], d.block[1],
        d.block[2], 0, stream, params, nullptr);
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
};
} // namespace

std::unique_ptr<Backend> makeHipBackend(std::string &error) {
  auto b = std::make_unique<HipBackend>();
  if (!b->start(error))
    return nullptr;
  return b;
}

} // namespace kda::rt
