//===- dyn-smem-probe.cpp - dynamic shared memory above 48 KiB on sm_90 ---===//
//
//   kda-dyn-smem-probe DIR_OK DIR_TOO_BIG
//
// The runtime half of "an sm_90 kernel using more than 48 KiB of dynamic
// shared memory runs": DIR_OK holds a hand-written PTX kernel whose manifest
// asks for 112 KiB (test/device/dyn-smem); opening it must opt the kernel in
// (cuFuncSetAttribute) and kda_launch_named must run it with that many bytes,
// every word written and read back. DIR_TOO_BIG asks for 240 KiB, more than
// sm_90's 227 KiB opt-in limit: opening must be refused with a message
// saying so. Exits 0 only when both hold.
//
//===----------------------------------------------------------------------===//
#include "kda/kda_runtime.h"

#include <cuda_runtime.h>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

int main(int argc, char **argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: kda-dyn-smem-probe DIR_OK DIR_TOO_BIG\n");
    return 2;
  }
  cudaFree(nullptr); // the primary context the runtime then uses
  kda_bundle *bundle = nullptr;
  if (kda_bundle_open(argv[1], KDA_BACKEND_CUDA, &bundle) != KDA_OK) {
    std::fprintf(stderr, "FAIL: open %s: %s\n", argv[1], kda_last_error());
    return 1;
  }
  const kda_kernel *kernel = nullptr;
  if (kda_bundle_find(bundle, "dyn_smem_probe", &kernel) != KDA_OK) {
    std::fprintf(stderr, "FAIL: %s\n", kda_last_error());
    return 1;
  }
  const int threads = 256, words = 28672; // 112 KiB, as the PTX and manifest
  uint32_t *out = nullptr;
  cudaMalloc(&out, threads * sizeof(uint32_t));
  cudaMemset(out, 0xff, threads * sizeof(uint32_t));
  kda_arg args[] = {{"out", out}};
  if (kda_launch_named(kernel, args, 1, 0, nullptr) != KDA_OK) {
    std::fprintf(stderr, "FAIL: launch: %s\n", kda_last_error());
    return 1;
  }
  if (cudaError_t e = cudaDeviceSynchronize()) {
    std::fprintf(stderr, "FAIL: kernel: %s\n", cudaGetErrorString(e));
    return 1;
  }
  std::vector<uint32_t> got(threads);
  cudaMemcpy(got.data(), out, threads * sizeof(uint32_t),
             cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int t = 0; t < threads; ++t) {
    uint32_t want = 0;
    for (int i = t; i < words; i += threads)
      want += uint32_t(words - 1 - i);
    bad += got[size_t(t)] != want;
  }
  std::printf("%s: 114688 bytes of dynamic shared memory, %d of %d threads "
              "read back every word\n",
              bad ? "FAIL" : "ok", threads - bad, threads);
  cudaFree(out);
  kda_bundle_close(bundle);

  kda_bundle *tooBig = nullptr;
  kda_status s = kda_bundle_open(argv[2], KDA_BACKEND_CUDA, &tooBig);
  const std::string why = kda_last_error();
  const bool refused = s == KDA_ERROR_UNSUPPORTED && !tooBig &&
                       why.find("245760 bytes of dynamic shared memory") !=
                           std::string::npos;
  std::printf("%s: 240 KiB refused at open: %s\n", refused ? "ok" : "FAIL",
              why.c_str());
  kda_bundle_close(tooBig);
  return bad || !refused ? 1 : 0;
}
