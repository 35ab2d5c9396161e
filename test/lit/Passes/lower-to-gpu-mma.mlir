// mma = 1: a bf16 vk pool's column sums by the target's matrix atom. Each
// wave writes a token's terms (one k a lane) into its LDS words, then reads
// A of each k step as one vector of its own k-run (elements on rows >= 2 are
// constant zeros: 4 of the 8 of mma.sync's A), splits it into bf16 halves,
// and takes the state words as loaded for B (exact on a row's first token:
// two atoms a step); later tokens split the f32 state (three atoms a step).
// Rows 0 and 1 of the result go through LDS to the lanes of each column.
// RUN: kda-opt %s --kda-lower-to-gpu=target=sm_90 | FileCheck %s --check-prefix=SM90
// RUN: kda-opt %s --kda-lower-to-gpu=target=gfx942 | FileCheck %s --check-prefix=GFX942

#l = #kda.layer<heads = 2, value_heads = 2, head_k = 64, head_v = 32, gate = lower_bound(-5.0), beta = sigmoid, qk_l2norm = true, act = bf16, state = bf16, state_layout = vk>
// SM90-LABEL: gpu.func @kda_decode
// SM90-SAME: workgroup(%{{.*}} : memref<544xf32, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
// SM90-SAME: kda.lanes_k = 4 : i32
// SM90-SAME: kda.mma_k = 16 : i32, kda.mma_n = 8 : i32
// SM90: gpu.barrier
// SM90: %[[AW:.*]] = vector.load %{{.*}} : memref<544xf32, #gpu.address_space<workgroup>>, vector<4xf32>
// SM90: %[[A:.*]] = vector.from_elements %{{.*}}, %{{.*}}, %cst{{.*}}, %cst{{.*}}, %{{.*}}, %{{.*}}, %cst{{.*}}, %cst{{.*}} : vector<8xf32>
// SM90: %[[HALVES:.*]] = vector.bitcast %[[A]] : vector<8xf32> to vector<16xbf16>
// SM90: %[[HI:.*]] = vector.shuffle %[[HALVES]], %[[HALVES]] [0, 2, 4, 6, 8, 10, 12, 14]
// SM90: %[[LO:.*]] = vector.shuffle %[[HALVES]], %[[HALVES]] [1, 3, 5, 7, 9, 11, 13, 15]
// SM90: %[[WORDS:.*]] = vector.from_elements %{{.*}}, %{{.*}} : vector<2xi32>
// SM90: %[[B:.*]] = vector.bitcast %[[WORDS]] : vector<2xi32> to vector<4xbf16>
// SM90: kda.mma %[[HI]], %[[B]], %{{.*}} {kind = #kda.mma_kind<mma_sync_f32_16x8x16_bf16>}
// SM90: kda.mma %[[LO]], %[[B]], %{{.*}} {kind = #kda.mma_kind<mma_sync_f32_16x8x16_bf16>}
// SM90: gpu.barrier
// The rest of the row: the f32 state split for B.
// SM90: scf.for
// SM90: arith.truncf %{{.*}} : vector<4xf32> to vector<4xbf16>
// SM90: kda.mma
// SM90: gpu.return
// GFX942-LABEL: gpu.func @kda_decode
// GFX942-SAME: kda.mma_k = 16 : i32, kda.mma_n = 16 : i32
// GFX942: kda.mma {{.*}} {kind = #kda.mma_kind<mfma_f32_16x16x16_bf16>}
func.func @decode(%q: memref<?x2x64xbf16>, %k: memref<?x2x64xbf16>, %v: memref<?x2x32xbf16>, %g: memref<?x2x64xbf16>, %beta: memref<?x2xbf16>, %cu: memref<?xi32>, %slots: memref<?xi32>, %init: memref<?xi1>, %state: memref<?x2x32x64xbf16>, %o: memref<?x2x32xbf16>) {
  kda.recurrent #l config #kda.config<block_k = 64, block_v = 16, block_t = 1, warps = 1, stages = 1, mma = 1> q(%q : memref<?x2x64xbf16>) k(%k : memref<?x2x64xbf16>) v(%v : memref<?x2x32xbf16>) g(%g : memref<?x2x64xbf16>) beta(%beta : memref<?x2xbf16>) cu_seqlens(%cu : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%init : memref<?xi1>) state(%state : memref<?x2x32x64xbf16>) out(%o : memref<?x2x32xbf16>)
  return
}
