// kda-lower-to-gpu turns a kda.test_tile_gemm spec into the tile-GEMM kernel
// with its ABI and grid: the atom comes from the target's table row (sm_90:
// mma.sync 16x8x16, 8 pieces of the 64 x 64 tile per wave; gfx950: the
// double-k MFMA), A and B are staged in LDS between barriers, and the masked
// variant selects on the accumulator fragments.
// RUN: kda-opt %s --kda-lower-to-gpu=target=sm_90 | FileCheck %s --check-prefix=SM90
// RUN: kda-opt %s --kda-lower-to-gpu=target=gfx950 | FileCheck %s --check-prefix=GFX950

// SM90: func.func @tg({{.*}}) attributes {kda.kernel = @kda_kernels::@kda_tg}
// SM90: gpu.module @kda_kernels attributes {kda.target = #kda.target<"sm_90">}
// SM90: gpu.func @kda_tg(%{{.*}}: memref<1xbf16>, %{{.*}}: memref<1xbf16>, %{{.*}}: memref<1xf32>)
// SM90-SAME: workgroup(%{{.*}} : memref<2048xbf16, #gpu.address_space<workgroup>>, %{{.*}} : memref<2048xbf16, #gpu.address_space<workgroup>>)
// SM90-SAME: kda.abi = [#kda.arg<"a", bf16, input>, #kda.arg<"b", bf16, input>, #kda.arg<"c", f32, output>]
// SM90-SAME: kda.grid = array<i64: 1, 2, 1>, kda.kind = "tile_gemm"
// SM90-SAME: atom = "mma_sync_f32_16x8x16_bf16"
// SM90-SAME: known_block_size = array<i32: 128, 1, 1>
// SM90: gpu.lane_id
// SM90: scf.for {{.*}} -> (vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>)
// SM90: gpu.barrier
// SM90: gpu.barrier
// SM90-COUNT-16: kda.mma {{.*}} {kind = #kda.mma_kind<mma_sync_f32_16x8x16_bf16>} : vector<8xbf16>, vector<4xbf16>, vector<4xf32> -> vector<4xf32>
// SM90: arith.cmpi uge
// SM90: arith.select
// SM90: memref.store {{.*}} : memref<1xf32>

// GFX950: kda.grid = array<i64: 1, 2, 1>
// GFX950-SAME: atom = "mfma_f32_16x16x32_bf16"
// GFX950-SAME: known_block_size = array<i32: 256, 1, 1>
// GFX950-COUNT-4: kda.mma {{.*}} {kind = #kda.mma_kind<mfma_f32_16x16x32_bf16>} : vector<8xbf16>, vector<8xbf16>, vector<4xf32> -> vector<4xf32>
// GFX950-NOT: kda.mma
// GFX950: arith.select
func.func @tg(%a: memref<128x32xbf16>, %b: memref<32x64xbf16>, %c: memref<128x64xf32>) {
  kda.test_tile_gemm a(%a : memref<128x32xbf16>) b(%b : memref<32x64xbf16>) c(%c : memref<128x64xf32>) {m = 128, n = 64, k = 32, masked}
  return
}
