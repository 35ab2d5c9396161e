//===- kda-tile-check.cpp - tile-GEMM kernels against float64 -------------===//
//
//   kda-tile-check BUNDLE [--backend emu|cuda] [--target NAME]
//
// Runs every tile_gemm kernel of a bundle (kda.test_tile_gemm specs: C = A B
// or tril(A B), bf16 A [m, k], B [k, n], f32 C [m, n]) on random bf16 inputs
// and checks C against a float64 product of the same bf16 values.
//
// Error bar: |C - ref| <= 2 * gamma_k * sum_k |a_ik| |b_kj|, gamma_k =
// k u / (1 - k u), u = 2^-24: twice the worst-case bound of a k-term f32
// accumulation (each product of two bf16 is exact in f32). Masked-out
// elements (row < column) must be exactly 0.
//
// Plain C++17 on the runtime's emulator (kda::emu::launch on the bundle's
// host object) or the CUDA driver (dlopened), so it also builds on the GPU
// machine without LLVM. Exit status: 0 all pass, 1 a mismatch or failed
// launch, 2 bad usage or bundle.
//
//===----------------------------------------------------------------------===//
#ifdef KDA_TILE_CHECK_EMU
#include "../../runtime/emu/Emulator.h"
#endif

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <dlfcn.h>
#include <fstream>
#include <memory>
#include <random>
#include <string>
#include <vector>

namespace {

using json = nlohmann::json;

uint16_t toBf16(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  u += 0x7fff + ((u >> 16) & 1); // round to nearest even
  return uint16_t(u >> 16);
}
float fromBf16(uint16_t h) {
  uint32_t u = uint32_t(h) << 16;
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

struct TileKernel {
  std::string name, symbol, target, file;
  uint32_t grid[3], block;
  uint32_t waveSize;
  int64_t m, n, k, dynamicLds = 0;
  bool masked;
};

/// Runs one kernel: params[i] points at the i-th bare device pointer.
class Runner {
public:
  virtual ~Runner() = default;
  virtual std::string run(const TileKernel &kernel, const std::string &bundle,
                          const std::vector<uint16_t> &a,
                          const std::vector<uint16_t> &b,
                          std::vector<float> &c) = 0;
};

#ifdef KDA_TILE_CHECK_EMU
class EmuRunner : public Runner {
public:
  std::string run(const TileKernel &kr, const std::string &bundle,
                  const std::vector<uint16_t> &a,
                  const std::vector<uint16_t> &b,
                  std::vector<float> &c) override {
    void *lib = dlopen((bundle + "/" + kr.file).c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!lib)
      return std::string("dlopen: ") + dlerror();
    auto entry =
        reinterpret_cast<kda::emu::PackedEntry>(dlsym(lib, kr.symbol.c_str()));
    if (!entry)
      return "no symbol " + kr.symbol + " in " + kr.file;
    kda::emu::LaunchConfig config;
    for (int i = 0; i < 3; ++i)
      config.grid[i] = kr.grid[i];
    config.block[0] = kr.block;
    config.waveSize = kr.waveSize;
    config.dynamicLdsBytes = uint32_t(kr.dynamicLds);
    const void *pa = a.data(), *pb = b.data();
    void *pc = c.data();
    void *params[] = {&pa, &pb, &pc};
    return kda::emu::launch(entry, config, params);
  }
};
#endif

/// The CUDA driver API, dlopened (no toolkit needed to build).
class CudaRunner : public Runner {
public:
  std::string init() {
    lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib)
      return std::string("cannot load libcuda.so.1: ") + dlerror();
#define KDA_SYM(var, name)                                                     \
  var = reinterpret_cast<decltype(var)>(dlsym(lib, name));                     \
  if (!var)                                                                    \
    return std::string("libcuda has no ") + name;
    KDA_SYM(cuInit, "cuInit");
    KDA_SYM(cuDeviceGet, "cuDeviceGet");
    KDA_SYM(cuPrimaryCtxRetain, "cuDevicePrimaryCtxRetain");
    KDA_SYM(cuCtxSetCurrent, "cuCtxSetCurrent");
    KDA_SYM(cuModuleLoad, "cuModuleLoad");
    KDA_SYM(cuModuleGetFunction, "cuModuleGetFunction");
    KDA_SYM(cuFuncSetAttribute, "cuFuncSetAttribute");
    KDA_SYM(cuMemAlloc, "cuMemAlloc_v2");
    KDA_SYM(cuMemFree, "cuMemFree_v2");
    KDA_SYM(cuMemcpyHtoD, "cuMemcpyHtoD_v2");
    KDA_SYM(cuMemcpyDtoH, "cuMemcpyDtoH_v2");
    KDA_SYM(cuLaunchKernel, "cuLaunchKernel");
    KDA_SYM(cuCtxSynchronize, "cuCtxSynchronize");
#undef KDA_SYM
    int dev = 0;
    void *ctx = nullptr;
    if (cuInit(0) || cuDeviceGet(&dev, 0) || cuPrimaryCtxRetain(&ctx, dev) ||
        cuCtxSetCurrent(ctx))
      return "no CUDA device";
    return "";
  }

  std::string run(const TileKernel &kr, const std::string &bundle,
                  const std::vector<uint16_t> &a,
                  const std::vector<uint16_t> &b,
                  std::vector<float> &c) override {
    void *module = nullptr, *fn = nullptr;
    if (int e = cuModuleLoad(&module, (bundle + "/" + kr.file).c_str()))
      return "cuModuleLoad " + kr.file + ": error " + std::to_string(e);
    if (int e = cuModuleGetFunction(&fn, module, kr.symbol.c_str()))
      return "cuModuleGetFunction " + kr.symbol + ": error " +
             std::to_string(e);
    // Above 48 KiB of dynamic shared memory needs the opt-in
    // (CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8).
    if (kr.dynamicLds > 48 * 1024)
      if (int e = cuFuncSetAttribute(fn, 8, int(kr.dynamicLds)))
        return "cuFuncSetAttribute(max dynamic shared " +
               std::to_string(kr.dynamicLds) + "): error " + std::to_string(e);
    uint64_t da = 0, db = 0, dc = 0;
    const size_t ab = a.size() * 2, bb = b.size() * 2, cb = c.size() * 4;
    if (cuMemAlloc(&da, ab) || cuMemAlloc(&db, bb) || cuMemAlloc(&dc, cb) ||
        cuMemcpyHtoD(da, a.data(), ab) || cuMemcpyHtoD(db, b.data(), bb))
      return "device allocation or copy failed";
    void *params[] = {&da, &db, &dc};
    int e = cuLaunchKernel(fn, kr.grid[0], kr.grid[1], kr.grid[2], kr.block, 1,
                           1, unsigned(kr.dynamicLds), nullptr, params,
                           nullptr);
    if (!e)
      e = cuCtxSynchronize();
    if (!e)
      e = cuMemcpyDtoH(c.data(), dc, cb);
    cuMemFree(da), cuMemFree(db), cuMemFree(dc);
    return e ? "launch failed: error " + std::to_string(e) : "";
  }

private:
  void *lib = nullptr;
  int (*cuInit)(unsigned);
  int (*cuDeviceGet)(int *, int);
  int (*cuPrimaryCtxRetain)(void **, int);
  int (*cuCtxSetCurrent)(void *);
  int (*cuModuleLoad)(void **, const char *);
  int (*cuModuleGetFunction)(void **, void *, const char *);
  int (*cuFuncSetAttribute)(void *, int, int);
  int (*cuMemAlloc)(uint64_t *, size_t);
  int (*cuMemFree)(uint64_t);
  int (*cuMemcpyHtoD)(uint64_t, const void *, size_t);
  int (*cuMemcpyDtoH)(void *, uint64_t, size_t);
  int (*cuLaunchKernel)(void *, unsigned, unsigned, unsigned, unsigned,
                        unsigned, unsigned, unsigned, void *, void **,
                        void **);
  int (*cuCtxSynchronize)();
};

/// Compares `c` with the float64 product; returns the failures printed.
int check(const TileKernel &kr, const std::vector<uint16_t> &a,
          const std::vector<uint16_t> &b, const std::vector<float> &c,
          double &worstRatio) {
  const double u = std::ldexp(1.0, -24);
  const double gamma = double(kr.k) * u / (1.0 - double(kr.k) * u);
  int failures = 0;
  worstRatio = 0;
  for (int64_t i = 0; i < kr.m; ++i)
    for (int64_t j = 0; j < kr.n; ++j) {
      double ref = 0, mag = 0;
      for (int64_t p = 0; p < kr.k; ++p) {
        double x = fromBf16(a[size_t(i * kr.k + p)]);
        double y = fromBf16(b[size_t(p * kr.n + j)]);
        ref += x * y;
        mag += std::fabs(x * y);
      }
      const double got = c[size_t(i * kr.n + j)];
      const bool zeroed = kr.masked && i < j;
      const double want = zeroed ? 0.0 : ref;
      const double bar = zeroed ? 0.0 : 2 * gamma * mag;
      const double err = std::fabs(got - want);
      if (bar > 0)
        worstRatio = std::max(worstRatio, err / bar);
      if (!(err <= bar) && failures++ < 5)
        std::printf("  C[%lld][%lld] = %.9g, want %.9g (error %.3g, bar "
                    "%.3g%s)\n",
                    (long long)i, (long long)j, got, want, err, bar,
                    zeroed ? ", masked" : "");
    }
  return failures;
}

bool forBackend(const std::string &target, const std::string &backend) {
  if (backend == "cuda")
    return target.rfind("sm_", 0) == 0;
  return target.rfind("emu", 0) == 0;
}

} // namespace

int main(int argc, char **argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: kda-tile-check BUNDLE [--backend emu|cuda] "
                         "[--target NAME]\n");
    return 2;
  }
  std::string bundle = argv[1], backend = "emu", onlyTarget;
  for (int i = 2; i + 1 < argc; i += 2) {
    std::string flag = argv[i];
    if (flag == "--backend")
      backend = argv[i + 1];
    else if (flag == "--target")
      onlyTarget = argv[i + 1];
    else {
      std::fprintf(stderr, "kda-tile-check: unknown option %s\n", argv[i]);
      return 2;
    }
  }
  std::unique_ptr<Runner> runner;
  if (backend == "cuda") {
    auto cuda = std::make_unique<CudaRunner>();
    std::string err = cuda->init();
    if (!err.empty()) {
      std::fprintf(stderr, "kda-tile-check: %s\n", err.c_str());
      return 2;
    }
    runner = std::move(cuda);
  } else if (backend == "emu") {
#ifdef KDA_TILE_CHECK_EMU
    runner = std::make_unique<EmuRunner>();
#else
    std::fprintf(stderr, "kda-tile-check: built without the emulator\n");
    return 2;
#endif
  } else {
    std::fprintf(stderr, "kda-tile-check: backend must be emu or cuda, got "
                         "%s\n",
                 backend.c_str());
    return 2;
  }
  std::ifstream in(bundle + "/manifest.json");
  json manifest;
  try {
    in >> manifest;
  } catch (const std::exception &e) {
    std::fprintf(stderr, "kda-tile-check: %s/manifest.json: %s\n",
                 bundle.c_str(), e.what());
    return 2;
  }
  int ran = 0, failed = 0;
  std::mt19937 rng(20261130);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  for (const json &kj : manifest.at("kernels")) {
    if (kj.value("kind", "") != "tile_gemm")
      continue;
    TileKernel kr;
    kr.target = kj.at("target");
    if (!forBackend(kr.target, backend) ||
        (!onlyTarget.empty() && kr.target != onlyTarget))
      continue;
    kr.name = kj.at("name");
    kr.symbol = kj.at("symbol");
    kr.file = kj.at("file");
    for (int i = 0; i < 3; ++i)
      kr.grid[i] = kj.at("grid")[i];
    kr.block = kj.at("block")[0];
    kr.waveSize = kj.at("wave_size");
    const json &cfg = kj.at("config");
    kr.m = cfg.at("m"), kr.n = cfg.at("n"), kr.k = cfg.at("k");
    kr.masked = cfg.at("masked");
    kr.dynamicLds = cfg.value("dynamic_lds_bytes", int64_t(0));
    std::vector<uint16_t> a(size_t(kr.m * kr.k)), b(size_t(kr.k * kr.n));
    for (uint16_t &x : a)
      x = toBf16(dist(rng));
    for (uint16_t &x : b)
      x = toBf16(dist(rng));
    std::vector<float> c(size_t(kr.m * kr.n), NAN);
    ++ran;
    std::string err = runner->run(kr, bundle, a, b, c);
    if (!err.empty()) {
      std::printf("FAIL %s on %s: %s\n", kr.name.c_str(), kr.target.c_str(),
                  err.c_str());
      ++failed;
      continue;
    }
    double worst = 0;
    int bad = check(kr, a, b, c, worst);
    std::printf("%s %s on %s (%s, %lldx%lldx%lld%s%s): worst error %.3g of "
                "the bar%s\n",
                bad ? "FAIL" : "ok", kr.name.c_str(), kr.target.c_str(),
                cfg.value("atom", "?").c_str(), (long long)kr.m,
                (long long)kr.n, (long long)kr.k, kr.masked ? ", masked" : "",
                kr.dynamicLds ? ", dynamic LDS" : "", worst,
                bad ? (", " + std::to_string(bad) + " elements off").c_str()
                    : "");
    failed += bad ? 1 : 0;
  }
  if (!ran) {
    std::printf("kda-tile-check: no tile_gemm kernel for backend %s in %s\n",
                backend.c_str(), bundle.c_str());
    return 2;
  }
  std::printf("%d of %d tile-GEMM kernels pass\n", ran - failed, ran);
  return failed ? 1 : 0;
}
