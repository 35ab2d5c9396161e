// The prep's elementwise passes over the chunk's rows go by runs of 4
// adjacent columns a thread (kRun in ChunkKernelBuilder.cpp): one vector
// access per row and field instead of one scalar load a trip. The gate
// pass reads g (here f32) and dt_bias as vector<4xf32>, writes G's LDS rows
// as vectors, and stages k's rows in LDS as they are (bf16); the decayed
// rows read q from global memory and k from LDS, and write q o exp(G),
// k o exp(G_last - G) and exp(G_last) to the workspace as 16-byte vectors.
// After W's operand words, v's rows take k's bytes in LDS (U's operand).
// Staging needs LDS: where it would cost workgroups a compute unit holds
// (gfx942's 64 KiB at K = V = 128, chunk 64) k and v stay in global memory.
// RUN: kda-opt %s --kda-decompose --kda-lower-to-gpu=target=sm_90 | FileCheck %s --check-prefixes=CHECK,SM90
// RUN: kda-opt %s --kda-decompose --kda-lower-to-gpu=target=gfx942 | FileCheck %s --check-prefixes=CHECK,GFX942

// CHECK-LABEL: gpu.func @kda_runs_prep(
// First the chunk's rows of q, k and g toward the L2, one thread a row and
// field (a hint: sm_90's prefetch.global.L2, nothing on gfx942).
// CHECK: kda.prefetch_row %{{.*}} elems(32) : memref<?xbf16>
// CHECK: kda.prefetch_row %{{.*}} elems(32) : memref<?xbf16>
// CHECK: kda.prefetch_row %{{.*}} elems(32) : memref<?xf32>
// The gate pass, with k's rows (and, where every thread makes the same
// trips - sm_90's 256 threads over 256 runs -, the row norms as cluster
// sums): a trip's loads (g, dt_bias, k; sm_90 also q and beta) are issued
// a trip ahead and carried by the loop: the first trip's before it, the
// next trip's at the top of each trip, before its math and stores.
// CHECK: %[[G0:.*]] = vector.load %{{.*}} {alignment = 16 : i64} : memref<?xf32>, vector<4xf32>
// CHECK: %[[B0:.*]] = vector.load %{{.*}} {alignment = 16 : i64} : memref<?xf32>, vector<4xf32>
// CHECK: %[[K0:.*]] = vector.load %{{.*}} {alignment = 8 : i64} : memref<?xbf16>, vector<4xbf16>
// SM90: %[[Q0:.*]] = vector.load %{{.*}} {alignment = 8 : i64} : memref<?xbf16>, vector<4xbf16>
// SM90: %[[BETA0:.*]] = memref.load %{{.*}} : memref<?xbf16>
// SM90: scf.for %{{.*}} = %thread_id_x to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %[[G0]], %{{.*}} = %[[B0]], %{{.*}} = %[[K0]], %{{.*}} = %[[Q0]], %{{.*}} = %[[BETA0]])
// GFX942: scf.for %{{.*}} = %thread_id_x to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %[[G0]], %{{.*}} = %[[B0]], %{{.*}} = %[[K0]])
// CHECK: %[[G1:.*]] = vector.load %{{.*}} {alignment = 16 : i64} : memref<?xf32>, vector<4xf32>
// CHECK: %[[B1:.*]] = vector.load %{{.*}} {alignment = 16 : i64} : memref<?xf32>, vector<4xf32>
// CHECK: %[[K1:.*]] = vector.load %{{.*}} {alignment = 8 : i64} : memref<?xbf16>, vector<4xbf16>
// SM90: %[[Q1:.*]] = vector.load %{{.*}} {alignment = 8 : i64} : memref<?xbf16>, vector<4xbf16>
// SM90: %[[BETA1:.*]] = memref.load %{{.*}} : memref<?xbf16>
// CHECK: math.exp
// G's rows are padded for the atom's fragment loads (ldsRowPadWords: 8
// words on sm_90, 4 on gfx942: 32 x 40 and 32 x 36 floats).
// SM90: vector.store %{{.*}} {alignment = 16 : i64} : memref<1280xf32, #gpu.address_space<workgroup>>, vector<4xf32>
// GFX942: vector.store %{{.*}} {alignment = 16 : i64} : memref<1152xf32, #gpu.address_space<workgroup>>, vector<4xf32>
// k's staged rows are padded for the atom's fragment loads too
// (ldsRowPadWords of bf16: 4 words on sm_90, 2 on gfx942: 32 x 40 and
// 32 x 36 bf16).
// SM90: vector.store %{{.*}} {alignment = 8 : i64} : memref<1280xbf16, #gpu.address_space<workgroup>>, vector<4xbf16>
// GFX942: vector.store %{{.*}} {alignment = 8 : i64} : memref<1152xbf16, #gpu.address_space<workgroup>>, vector<4xbf16>
// SM90-COUNT-6: gpu.shuffle xor
// SM90: scf.yield %[[G1]], %[[B1]], %[[K1]], %[[Q1]], %[[BETA1]]
// GFX942: scf.yield %[[G1]], %[[B1]], %[[K1]]
// CHECK: gpu.barrier
// CHECK: gpu.barrier
// The decayed rows: q's run from global memory, k's from LDS, three
// workspace runs.
// CHECK: vector.load %{{.*}} {alignment = 8 : i64} : memref<?xbf16>, vector<4xbf16>
// SM90: vector.load %{{.*}} {alignment = 8 : i64} : memref<1280xbf16, #gpu.address_space<workgroup>>, vector<4xbf16>
// GFX942: vector.load %{{.*}} {alignment = 8 : i64} : memref<1152xbf16, #gpu.address_space<workgroup>>, vector<4xbf16>
// CHECK: math.exp2
// CHECK: vector.store %{{.*}} {alignment = 16 : i64} : memref<?xf32>, vector<4xf32>
// CHECK: vector.store %{{.*}} {alignment = 16 : i64} : memref<?xf32>, vector<4xf32>
// CHECK: vector.store %{{.*}} {alignment = 16 : i64} : memref<?xf32>, vector<4xf32>
// A_kk / A_qk: q's rows staged in A's bytes (a bf16 view of them: 32 x 40
// and 32 x 36 bf16 fit A's 32 x 40 and 32 x 36 floats), read by every k
// loop from LDS; once all k loops are done, the zeroed A rows (LDS, and
// A_qk's workspace rows), then the pieces' stores.
// CHECK: vector.load %{{.*}} {alignment = 8 : i64} : memref<?xbf16>, vector<4xbf16>
// SM90: vector.store %{{.*}} {alignment = 8 : i64} : memref<2560xbf16, #gpu.address_space<workgroup>>, vector<4xbf16>
// GFX942: vector.store %{{.*}} {alignment = 8 : i64} : memref<2304xbf16, #gpu.address_space<workgroup>>, vector<4xbf16>
// CHECK: gpu.barrier
// SM90: memref.load %{{.*}} : memref<2560xbf16, #gpu.address_space<workgroup>>
// GFX942: memref.load %{{.*}} : memref<2304xbf16, #gpu.address_space<workgroup>>
// CHECK: kda.mma
// CHECK: gpu.barrier
// SM90: vector.store %{{.*}} : memref<1280xf32, #gpu.address_space<workgroup>>, vector<4xf32>
// GFX942: vector.store %{{.*}} : memref<1152xf32, #gpu.address_space<workgroup>>, vector<4xf32>
// CHECK: vector.store %{{.*}} {alignment = 16 : i64} : memref<?xf32>, vector<4xf32>
// CHECK: gpu.barrier
// A_qk's words: mma.sync's lanes hold adjacent columns of a row, stored as
// 8-byte pairs (accumulatorPairsAlongRow); MFMA's one element at a time.
// SM90: vector.store %{{.*}} {alignment = 8 : i64} : memref<?xf32>, vector<2xf32>
// GFX942: memref.store %{{.*}} : memref<?xf32>
// W's operand words read k from LDS; then v's rows are staged.
// SM90: vector.load %{{.*}} : memref<1280xbf16, #gpu.address_space<workgroup>>, vector<4xbf16>
// GFX942: vector.load %{{.*}} : memref<1152xbf16, #gpu.address_space<workgroup>>, vector<4xbf16>
// CHECK: gpu.barrier
// CHECK: vector.load %{{.*}} {alignment = 8 : i64} : memref<?xbf16>, vector<4xbf16>
// SM90: vector.store %{{.*}} {alignment = 8 : i64} : memref<1280xbf16, #gpu.address_space<workgroup>>, vector<4xbf16>
// GFX942: vector.store %{{.*}} {alignment = 8 : i64} : memref<1152xbf16, #gpu.address_space<workgroup>>, vector<4xbf16>
// CHECK: gpu.barrier
// CHECK: kda.mma
// W's and U's record rows likewise.
// SM90: vector.store %{{.*}} {alignment = 8 : i64} : memref<?xf32>, vector<2xf32>
// GFX942: memref.store %{{.*}} : memref<?xf32>
// CHECK-LABEL: gpu.func @kda_runs_scan(

// K = V = 128, chunk 64: staged where the LDS allows (sm_90: 110336 bytes,
// two workgroups an SM, G's rest an f32), not on gfx942 (64768 bytes, its
// rest an i8).
// CHECK-LABEL: gpu.func @kda_big_prep(
// SM90-SAME: kda.dynamic_lds_bytes = 110336
// GFX942-SAME: kda.dynamic_lds_bytes = 64768
// SM90: vector.store %{{.*}} : memref<{{[0-9]+}}xbf16, #gpu.address_space<workgroup>>, vector<4xbf16>
// GFX942-NOT: xbf16, #gpu.address_space<workgroup>>
// CHECK-LABEL: gpu.func @kda_big_scan(

#l = #kda.layer<heads = 1, value_heads = 1, head_k = 32, head_v = 16, gate = lower_bound(-5.0), beta = sigmoid, qk_l2norm = true, act = bf16, state = f32, state_layout = vk>
func.func @runs(%q: memref<?x1x32xbf16>, %k: memref<?x1x32xbf16>, %v: memref<?x1x16xbf16>, %g: memref<?x1x32xf32>, %beta: memref<?x1xbf16>, %a_log: memref<1xf32>, %dt_bias: memref<32xf32>, %cu: memref<?xi32>, %slots: memref<?xi32>, %init: memref<?xi1>, %state: memref<?x1x16x32xf32>, %o: memref<?x1x16xbf16>) {
  kda.chunk #l q(%q : memref<?x1x32xbf16>) k(%k : memref<?x1x32xbf16>) v(%v : memref<?x1x16xbf16>) g(%g : memref<?x1x32xf32>) beta(%beta : memref<?x1xbf16>) a_log(%a_log : memref<1xf32>) dt_bias(%dt_bias : memref<32xf32>) cu_seqlens(%cu : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%init : memref<?xi1>) state(%state : memref<?x1x16x32xf32>) out(%o : memref<?x1x16xbf16>) {chunk_size = 32 : i64}
  return
}
#big = #kda.layer<heads = 2, value_heads = 2, head_k = 128, head_v = 128, gate = lower_bound(-5.0), beta = sigmoid, qk_l2norm = true, act = bf16, state = f32, state_layout = vk>
func.func @big(%q: memref<?x2x128xbf16>, %k: memref<?x2x128xbf16>, %v: memref<?x2x128xbf16>, %g: memref<?x2x128xbf16>, %beta: memref<?x2xbf16>, %cu: memref<?xi32>, %slots: memref<?xi32>, %init: memref<?xi1>, %state: memref<?x2x128x128xf32>, %o: memref<?x2x128xbf16>) {
  kda.chunk #big q(%q : memref<?x2x128xbf16>) k(%k : memref<?x2x128xbf16>) v(%v : memref<?x2x128xbf16>) g(%g : memref<?x2x128xbf16>) beta(%beta : memref<?x2xbf16>) cu_seqlens(%cu : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%init : memref<?xi1>) state(%state : memref<?x2x128x128xf32>) out(%o : memref<?x2x128xbf16>) {chunk_size = 64 : i64}
  return
}
