// The register scans' split products (emitMmaSplitFusedRounds, TileLayer.h;
// ChunkPlan::slabRoundTiles): the 32-column scan loads and splits the
// operand fragments of all of a term's tiles, then issues their atoms round
// by round - every tile's lo x hi, then every hi x lo, then every hi x hi -
// so no atom follows the one whose result it adds to (measured faster on
// sm_90, docs/chunk-path.md, forty-second session). The 64-column scan
// takes a tile at a time: its three atoms chained on one accumulator. Each
// accumulator takes its atoms in the same order either way (the same sums).
// RUN: kda-opt %s --kda-decompose --kda-lower-to-gpu=target=sm_90 | FileCheck %s

// CHECK-LABEL: gpu.func @kda_r_scan_v32(
// The first k step of V_new = U - W S: S's split fragment (A: lo, hi) and the
// 8 row tiles of W (B: its hi and lo words), 8 independent accumulators.
// CHECK: %[[T0:[0-9]+]] = kda.mma %[[SLO:[0-9]+]], %[[W0HI:[0-9]+]], %{{[a-z0-9_]+}} {kind
// CHECK-NEXT: %[[T1:[0-9]+]] = kda.mma %[[SLO]], %[[W1HI:[0-9]+]], %{{[a-z0-9_]+}} {kind
// CHECK-COUNT-6: kda.mma %[[SLO]], %{{[0-9]+}}, %{{[a-z0-9_]+}} {kind
// The second round: hi x lo, into each tile's accumulator in the same order.
// CHECK-NEXT: %[[U0:[0-9]+]] = kda.mma %[[SHI:[0-9]+]], %{{[0-9]+}}, %[[T0]] {kind
// CHECK-NEXT: %[[U1:[0-9]+]] = kda.mma %[[SHI]], %{{[0-9]+}}, %[[T1]] {kind
// CHECK-COUNT-6: kda.mma %[[SHI]], %{{[0-9]+}}, %{{[0-9]+}} {kind
// The third: hi x hi.
// CHECK-NEXT: kda.mma %[[SHI]], %[[W0HI]], %[[U0]] {kind
// CHECK-NEXT: kda.mma %[[SHI]], %[[W1HI]], %[[U1]] {kind

// CHECK-LABEL: gpu.func @kda_r_scan_v64(
// CHECK: %[[A0:[0-9]+]] = kda.mma %[[LO:[0-9]+]], %[[BHI:[0-9]+]], %{{[a-z0-9_]+}} {kind
// CHECK-NEXT: %[[A1:[0-9]+]] = kda.mma %[[HI:[0-9]+]], %{{[0-9]+}}, %[[A0]] {kind
// CHECK-NEXT: kda.mma %[[HI]], %[[BHI]], %[[A1]] {kind
// CHECK-NOT: = kda.mma
// CHECK: kda.mma %[[LO]], %{{[0-9]+}}, %{{[a-z0-9_]+}} {kind

#l = #kda.layer<heads = 4, value_heads = 4, head_k = 128, head_v = 128, gate = lower_bound(-5.0), beta = sigmoid, qk_l2norm = true, act = bf16, state = f32, state_layout = vk>
func.func @r(%q: memref<?x4x128xbf16>, %k: memref<?x4x128xbf16>, %v: memref<?x4x128xbf16>, %g: memref<?x4x128xbf16>, %beta: memref<?x4xbf16>, %a_log: memref<4xf32>, %dt_bias: memref<512xf32>, %cu: memref<?xi32>, %slots: memref<?xi32>, %init: memref<?xi1>, %state: memref<?x4x128x128xf32>, %o: memref<?x4x128xbf16>) {
  kda.chunk #l q(%q : memref<?x4x128xbf16>) k(%k : memref<?x4x128xbf16>) v(%v : memref<?x4x128xbf16>) g(%g : memref<?x4x128xbf16>) beta(%beta : memref<?x4xbf16>) a_log(%a_log : memref<4xf32>) dt_bias(%dt_bias : memref<512xf32>) cu_seqlens(%cu : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%init : memref<?xi1>) state(%state : memref<?x4x128x128xf32>) out(%o : memref<?x4x128xbf16>) {chunk_size = 64 : i64, scan_block_v = array<i64: 32, 64>}
  return
}
