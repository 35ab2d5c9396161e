// The chunk kernels' split words (TileLayer.h: packSplitWord,
// buildSplitFragment): the prep writes the scan's operands as words (hi and
// lo bf16 packed into an f32's 32 bits) and the scan's fragments unpack them
// (one bitcast, two shuffles) instead of splitting f32 values at every
// fragment. The prep's
// diagonal 16-row blocks go by atoms where the gate is bounded per token
// (lower_bound -5: no wave reductions past the row norms') and
// pairwise by wave reductions where it is not (softplus). Operands held in
// LDS with their k dimension contiguous (the staged W rows) are read by
// vector loads: 2 words at a time for mma.sync's pairs, 4 for MFMA's.
// RUN: kda-opt %s --kda-decompose --kda-lower-to-gpu=target=sm_90 | FileCheck %s --check-prefixes=CHECK,SYNC
// RUN: kda-opt %s --kda-decompose --kda-lower-to-gpu=target=gfx942 | FileCheck %s --check-prefixes=CHECK,MFMA

// CHECK-LABEL: gpu.func @kda_lb_prep(
// The row norms: in the gate pass as cluster sums of a row's 8 runs where
// every thread makes the same trips (sm_90: 256 runs, 256 threads), else a
// wave a row (gfx942's 512 threads).
// SYNC-COUNT-6: gpu.shuffle xor
// MFMA-COUNT-2: gpu.subgroup_reduce add
// CHECK: vector.bitcast %{{.*}} : vector<2xbf16> to vector<1xf32>
// CHECK: kda.mma
// CHECK-NOT: gpu.subgroup_reduce
// The scan (its state in registers) splits its slab's f32 tiles at each k
// step and reads the staged rows' words as the other operand: mma.sync
// takes them as B (pairs along k), MFMA as A (4 consecutive k).
// CHECK-LABEL: gpu.func @kda_lb_scan(
// SYNC: vector.load %{{.*}} : memref<{{.*}}xf32, #gpu.address_space<workgroup>>, vector<2xf32>
// MFMA: vector.load %{{.*}} : memref<{{.*}}xf32, #gpu.address_space<workgroup>>, vector<4xf32>
// Where W's records are in run order (sm_90 here), q o exp G's rows are
// pair words: a fragment's hi and lo registers are its loaded words, each
// pair of shuffles one bitcast's halves, no byte permutes.
// SYNC: %[[P:.*]] = vector.bitcast %{{.*}} : vector<4xf32> to vector<8xbf16>
// SYNC-NEXT: vector.shuffle %[[P]], %[[P]] [0, 1, 4, 5]
// SYNC-NEXT: vector.shuffle %[[P]], %[[P]] [2, 3, 6, 7]
// CHECK: vector.shuffle %[[A:[0-9]+]], %[[A]] [0, 2, 4, 6] : vector<8xbf16>
// CHECK-NEXT: vector.shuffle %[[A]], %[[A]] [1, 3, 5, 7]
// CHECK: kda.mma
// CHECK-LABEL: gpu.func @kda_sp_prep(
// CHECK: gpu.subgroup_reduce add
// CHECK-LABEL: gpu.func @kda_sp_scan(

#lb = #kda.layer<heads = 1, value_heads = 1, head_k = 32, head_v = 16, gate = lower_bound(-5.0), beta = sigmoid, qk_l2norm = true, act = bf16, state = f32, state_layout = kv>
func.func @lb(%q: memref<?x1x32xbf16>, %k: memref<?x1x32xbf16>, %v: memref<?x1x16xbf16>, %g: memref<?x1x32xbf16>, %beta: memref<?x1xbf16>, %cu: memref<?xi32>, %slots: memref<?xi32>, %init: memref<?xi1>, %state: memref<?x1x32x16xf32>, %o: memref<?x1x16xbf16>) {
  kda.chunk #lb q(%q : memref<?x1x32xbf16>) k(%k : memref<?x1x32xbf16>) v(%v : memref<?x1x16xbf16>) g(%g : memref<?x1x32xbf16>) beta(%beta : memref<?x1xbf16>) cu_seqlens(%cu : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%init : memref<?xi1>) state(%state : memref<?x1x32x16xf32>) out(%o : memref<?x1x16xbf16>) {chunk_size = 32 : i64}
  return
}
#sp = #kda.layer<heads = 1, value_heads = 1, head_k = 32, head_v = 16, gate = softplus, beta = sigmoid, qk_l2norm = true, act = bf16, state = f32, state_layout = kv>
func.func @sp(%q: memref<?x1x32xbf16>, %k: memref<?x1x32xbf16>, %v: memref<?x1x16xbf16>, %g: memref<?x1x32xbf16>, %beta: memref<?x1xbf16>, %a_log: memref<1xf32>, %cu: memref<?xi32>, %slots: memref<?xi32>, %init: memref<?xi1>, %state: memref<?x1x32x16xf32>, %o: memref<?x1x16xbf16>) {
  kda.chunk #sp q(%q : memref<?x1x32xbf16>) k(%k : memref<?x1x32xbf16>) v(%v : memref<?x1x16xbf16>) g(%g : memref<?x1x32xbf16>) beta(%beta : memref<?x1xbf16>) a_log(%a_log : memref<1xf32>) cu_seqlens(%cu : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%init : memref<?xi1>) state(%state : memref<?x1x32x16xf32>) out(%o : memref<?x1x16xbf16>) {chunk_size = 32 : i64}
  return
}
