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
// Through the runtime like an engine: the one manifest reader finds the
// kernels and their shapes, kda_launch_named launches them by the names of
// their ABI (a, b, c), with the manifest's dynamic shared memory (the opt-in
// above 48 KiB on sm_90 is the runtime's). Device memory: CUDA runtime when
// built with KDA_BENCH_CUDA (the GPU machine), host memory on the emulator.
// Exit status: 0 all pass, 1 a mismatch or failed launch, 2 bad usage or
// bundle.
//
//===----------------------------------------------------------------------===//
#include "GuardedMemory.h"
#include "Manifest.h"
#include "kda/kda_runtime.h"

#ifdef KDA_TILE_CHECK_CUDA
#include <cuda_runtime.h>
#endif

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <set>
#include <string>
#include <vector>

namespace {

using kda::manifest::Kernel;

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
  std::string name, target;
  int64_t m, n, k;
  bool masked, dynamicLds;
};

/// Device buffers of one launch: on the emulator host copies that end at
/// an inaccessible page (GuardedMemory.h: a kernel's access past a buffer
/// faults where it happens, naming the buffer), CUDA memory on the GPU.
class Buffers {
public:
  explicit Buffers(bool device) : device(device) {}
  ~Buffers() {
    for (void *p : owned) {
      if (!device) {
        kda::test::guardedRelease(p);
        continue;
      }
#ifdef KDA_TILE_CHECK_CUDA
      cudaFree(p);
#endif
    }
  }
  /// A device copy of `bytes` at `host` (or, for outputs, space for them).
  void *put(const void *host, size_t bytes) {
    if (!device) {
      void *p = kda::test::guardedAlloc(bytes);
      owned.push_back(p);
      std::memcpy(p, host, bytes);
      return p;
    }
#ifdef KDA_TILE_CHECK_CUDA
    void *p = nullptr;
    if (cudaMalloc(&p, bytes) != cudaSuccess)
      return nullptr;
    owned.push_back(p);
    if (cudaMemcpy(p, host, bytes, cudaMemcpyHostToDevice) != cudaSuccess)
      return nullptr;
    return p;
#else
    (void)bytes;
    return nullptr;
#endif
  }
  bool get(void *host, const void *dev, size_t bytes) {
    if (!device) {
      std::memcpy(host, dev, bytes);
      return true;
    }
#ifdef KDA_TILE_CHECK_CUDA
    return cudaDeviceSynchronize() == cudaSuccess &&
           cudaMemcpy(host, dev, bytes, cudaMemcpyDeviceToHost) == cudaSuccess;
#else
    (void)host, (void)dev, (void)bytes;
    return false;
#endif
  }

private:
  bool device;
  std::vector<void *> owned;
};

/// Launches `kr` from `bundle` on `backend` through the runtime.
std::string run(kda_bundle *bundle, const TileKernel &kr, bool device,
                const std::vector<uint16_t> &a, const std::vector<uint16_t> &b,
                std::vector<float> &c) {
  const kda_kernel *kernel = nullptr;
  if (kda_bundle_find(bundle, kr.name.c_str(), &kernel) != KDA_OK)
    return kda_last_error();
  Buffers mem(device);
  void *da = mem.put(a.data(), a.size() * 2);
  void *db = mem.put(b.data(), b.size() * 2);
  void *dc = mem.put(c.data(), c.size() * 4);
  if (!da || !db || !dc)
    return "device allocation or copy failed";
  // Deliberately not in the ABI's order: the runtime packs by name.
  const kda_arg args[] = {{"c", dc}, {"a", da}, {"b", db}};
  if (kda_launch_named(kernel, args, 3, /*num_seqs=*/1, nullptr) != KDA_OK)
    return kda_last_error();
  if (!mem.get(c.data(), dc, c.size() * 4))
    return "launch or copy back failed";
  return "";
}

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

} // namespace

int main(int argc, char **argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: kda-tile-check BUNDLE [--backend emu|cuda] "
                         "[--target NAME]\n");
    return 2;
  }
  std::string dir = argv[1], backend = "emu", onlyTarget;
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
  const bool device = backend == "cuda";
  if (!device && backend != "emu") {
    std::fprintf(stderr, "kda-tile-check: backend must be emu or cuda, got "
                         "%s\n",
                 backend.c_str());
    return 2;
  }
#ifndef KDA_TILE_CHECK_CUDA
  if (device) {
    std::fprintf(stderr, "kda-tile-check: built without CUDA memory "
                         "(configure with -DKDA_BENCH_CUDA=ON)\n");
    return 2;
  }
#endif
  kda::manifest::Manifest manifest;
  std::string error;
  if (!kda::manifest::readManifest(dir, manifest, error)) {
    std::fprintf(stderr, "kda-tile-check: %s\n", error.c_str());
    return 2;
  }
  // The targets this backend runs, each opened as the runtime would be.
  std::set<std::string> targets;
  for (const Kernel &k : manifest.kernels)
    if (k.kind == "tile_gemm" && (onlyTarget.empty() || k.target == onlyTarget) &&
        (device ? k.target.rfind("sm_", 0) == 0 : k.target.rfind("emu", 0) == 0))
      targets.insert(k.target);
  int ran = 0, failed = 0;
  std::mt19937 rng(20261130);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  for (const std::string &target : targets) {
    setenv("KDA_TARGET", target.c_str(), 1); // the runtime's target choice
    kda_bundle *bundle = nullptr;
    if (kda_bundle_open(dir.c_str(), device ? KDA_BACKEND_CUDA : KDA_BACKEND_EMU,
                        &bundle) != KDA_OK) {
      std::fprintf(stderr, "kda-tile-check: %s\n", kda_last_error());
      return 2;
    }
    for (const Kernel &k : manifest.kernels) {
      if (k.kind != "tile_gemm" || k.target != target)
        continue;
      auto cfg = [&](const char *key) {
        auto it = k.config.find(key);
        return it == k.config.end() ? int64_t(-1) : it->second;
      };
      TileKernel kr{k.name,     target, cfg("m"), cfg("n"), cfg("k"),
                    cfg("masked") == 1, k.dynamicLdsBytes > 0};
      if (kr.m <= 0 || kr.n <= 0 || kr.k <= 0) {
        std::fprintf(stderr, "kda-tile-check: kernel %s has no m, n, k in its "
                             "config\n",
                     k.name.c_str());
        return 2;
      }
      std::vector<uint16_t> a(size_t(kr.m * kr.k)), b(size_t(kr.k * kr.n));
      for (uint16_t &x : a)
        x = toBf16(dist(rng));
      for (uint16_t &x : b)
        x = toBf16(dist(rng));
      std::vector<float> c(size_t(kr.m * kr.n), NAN);
      ++ran;
      std::string err = run(bundle, kr, device, a, b, c);
      if (!err.empty()) {
        std::printf("FAIL %s on %s: %s\n", kr.name.c_str(), target.c_str(),
                    err.c_str());
        ++failed;
        continue;
      }
      double worst = 0;
      int bad = check(kr, a, b, c, worst);
      std::printf("%s %s on %s (%lldx%lldx%lld%s%s): worst error %.3g of the "
                  "bar%s\n",
                  bad ? "FAIL" : "ok", kr.name.c_str(), target.c_str(),
                  (long long)kr.m, (long long)kr.n, (long long)kr.k,
                  kr.masked ? ", masked" : "",
                  kr.dynamicLds
                      ? (", " + std::to_string(k.dynamicLdsBytes) +
                         " bytes of dynamic LDS")
                            .c_str()
                      : "",
                  worst,
                  bad ? (", " + std::to_string(bad) + " elements off").c_str()
                      : "");
      failed += bad ? 1 : 0;
    }
    kda_bundle_close(bundle);
  }
  if (!ran) {
    std::printf("kda-tile-check: no tile_gemm kernel for backend %s in %s\n",
                backend.c_str(), dir.c_str());
    return 2;
  }
  std::printf("%d of %d tile-GEMM kernels pass\n", ran - failed, ran);
  return failed ? 1 : 0;
}
