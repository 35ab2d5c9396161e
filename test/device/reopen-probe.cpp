//===- reopen-probe.cpp - a closed bundle's code leaves the device --------===//
//
//   kda-reopen-probe DIR TIMES
//
// Opens the sm_90 bundle in DIR (which loads every code object of it) and
// closes it, TIMES times, and checks the device's free memory afterwards
// against the free memory after the first round: with the modules left
// loaded, every round kept the bundle's code resident (a cubin of several
// hundred KiB a round). Fails when the drop exceeds a quarter of TIMES
// rounds of the bundle's cubin bytes (and 4 MiB, the driver's own
// bookkeeping), or when an open fails. Prints both figures.
//
//===----------------------------------------------------------------------===//
#include "kda/kda_runtime.h"

#include <cuda_runtime.h>
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

static bool openClose(const char *dir) {
  kda_bundle *bundle = nullptr;
  if (kda_bundle_open_target(dir, KDA_BACKEND_CUDA, "sm_90", &bundle) !=
      KDA_OK) {
    std::fprintf(stderr, "FAIL: open %s: %s\n", dir, kda_last_error());
    return false;
  }
  kda_bundle_close(bundle);
  return true;
}

/// The device's free bytes; exits the probe on a CUDA error (a failed
/// reading would read as no change).
static size_t freeBytes() {
  size_t freeB = 0, total = 0;
  cudaError_t e = cudaDeviceSynchronize();
  if (e == cudaSuccess)
    e = cudaMemGetInfo(&freeB, &total);
  if (e != cudaSuccess) {
    std::fprintf(stderr, "FAIL: %s\n", cudaGetErrorString(e));
    std::exit(1);
  }
  return freeB;
}

int main(int argc, char **argv) {
  if (argc != 3 || std::atoi(argv[2]) < 1) {
    std::fprintf(stderr, "usage: kda-reopen-probe DIR TIMES (>= 1)\n");
    return 2;
  }
  const char *dir = argv[1];
  const int times = std::atoi(argv[2]);
  std::ifstream cubin(std::string(dir) + "/sm_90/kda_kernels.cubin",
                      std::ios::binary | std::ios::ate);
  if (!cubin) {
    std::fprintf(stderr, "FAIL: %s has no sm_90/kda_kernels.cubin\n", dir);
    return 1;
  }
  const size_t codeBytes = size_t(cubin.tellg());
  if (cudaError_t e = cudaFree(nullptr)) { // the primary context
    std::fprintf(stderr, "FAIL: %s\n", cudaGetErrorString(e));
    return 1;
  }
  if (!openClose(dir))
    return 1;
  const size_t before = freeBytes();
  for (int i = 0; i < times; ++i)
    if (!openClose(dir))
      return 1;
  const size_t after = freeBytes();
  const double drop = before > after ? double(before - after) : 0.0;
  const double bound =
      std::max(4.0 * (1 << 20), 0.25 * double(times) * double(codeBytes));
  std::printf("%d opens and closes of %s (cubin %zu bytes): device free "
              "memory %.1f MiB lower (bound %.1f MiB)\n",
              times, dir, codeBytes, drop / (1 << 20), bound / (1 << 20));
  if (drop > bound) {
    std::fprintf(stderr, "FAIL: closed bundles kept their code on the device\n");
    return 1;
  }
  return 0;
}
