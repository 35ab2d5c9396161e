// The tile-GEMM kernels on sm_90's warpgroup atom: PTX 8.0 for sm_90a, the
// B operand fenced to the async proxy before the barrier that publishes it,
// a wgmma.mma_async m64n64k16 a k step behind wgmma.fence, committed and
// waited; no spills (ptxas -v). kda-tile-check runs them on emu32 in CI
// (kda-tile-check-wgmma-emu32) and on the GPU (test/device/run-h200.sh).
// RUN: rm -rf %t && kda-compile %kda_src_root/test/numeric/tile-specs/tile-gemm-wgmma.mlir --targets=sm_90 -o %t -q
// RUN: FileCheck %s --check-prefix=PTX --input-file=%t/sm_90/kda_kernels.ptx
// RUN: %python %lit_lib/check_figures.py %t/manifest.json sm_90 232448 | FileCheck %s --check-prefix=FIG
// A k that leaves B's core matrices too far apart for the descriptor is
// refused where the kernel is built.
// RUN: not kda-opt %s --kda-lower-to-gpu=target=sm_90 2>&1 | FileCheck %s --check-prefix=FAR
// And gfx942 has no warpgroup atom.
// RUN: not kda-opt %s --kda-lower-to-gpu=target=gfx942 2>&1 | FileCheck %s --check-prefix=NOATOM

// PTX: .version 8.0
// PTX: .target sm_90a
// PTX-LABEL: .visible .entry kda_tile_gemm_wgmma_kd{{[0-9a-f]+}}(
// PTX: fence.proxy.async.shared::cta;
// PTX-NEXT: bar.sync 0;
// PTX: wgmma.fence.sync.aligned;
// PTX: wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16
// PTX: wgmma.commit_group.sync.aligned;
// PTX: wgmma.wait_group.sync.aligned 0;
// PTX-LABEL: .visible .entry kda_tile_gemm_wgmma_masked_kd{{[0-9a-f]+}}(
// PTX: wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16
// The MN-major variant: imm-trans-b 1 (the last immediate).
// PTX-LABEL: .visible .entry kda_tile_gemm_wgmma_mn_kd{{[0-9a-f]+}}(
// PTX: wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 {{.*}}, p, 1, 1, 1;
// FIG: sm_90 kda_tile_gemm_wgmma: {{.*}}registers {{[0-9]+}}, scratch_bytes 0, spills 0
// FIG: sm_90 kda_tile_gemm_wgmma_masked: {{.*}}spills 0
// FIG: sm_90 kda_tile_gemm_wgmma_mn: {{.*}}spills 0
// FAR: k = 16384: B's shared layout: the stride-dimension byte offset 262144 is not a multiple of 16 below 2^18
// NOATOM: gfx942 has no warpgroup matrix atom 64x64x16 bf16 -> f32; it has: mfma_f32_16x16x16_bf16

func.func @too_deep(%a: memref<64x16384xbf16>, %b: memref<16384x64xbf16>,
                    %c: memref<64x64xf32>) {
  kda.test_tile_gemm a(%a : memref<64x16384xbf16>) b(%b : memref<16384x64xbf16>)
      c(%c : memref<64x64xf32>) {m = 64, n = 64, k = 16384, dynamic_lds,
                                 warpgroup}
  return
}
