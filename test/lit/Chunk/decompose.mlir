// kda-decompose: kda.chunk becomes its stage kernels, the prep then one
// scan per state column block (16, 32 and 64 where they divide head_v, or
// the chunk's scan_block_v), with the chunk's operands, layer, chunk size
// and scan_stages.
// RUN: kda-opt %s --kda-decompose | FileCheck %s

#l = #kda.layer<heads = 2, value_heads = 4, head_k = 64, head_v = 32, gate = softplus, beta = sigmoid, qk_l2norm = true, act = bf16, state = f32, state_layout = kv>
#l128 = #kda.layer<heads = 2, value_heads = 4, head_k = 64, head_v = 128, gate = softplus, beta = sigmoid, qk_l2norm = true, act = bf16, state = f32, state_layout = kv>

// CHECK: #[[LAYER:[a-z0-9_]+]] = #kda.layer<heads = 2, value_heads = 4, head_k = 64, head_v = 32, gate = softplus
// CHECK-LABEL: func.func @gva
// CHECK-NOT: kda.chunk #
// CHECK: kda.chunk_stage #[[LAYER]] q(%arg0 : memref<?x2x64xbf16>) {{.*}} a_log(%arg5 : memref<4xf32>) dt_bias(%arg6 : memref<256xf32>) {{.*}} state(%arg10 : memref<?x4x64x32xf32>) out(%arg11 : memref<?x4x32xbf16>) {chunk_size = 32 : i64, stage = #kda<chunk_stage prep>}
// CHECK-NEXT: kda.chunk_stage #[[LAYER]] q(%arg0 : memref<?x2x64xbf16>) {{.*}} out(%arg11 : memref<?x4x32xbf16>) {block_v = 16 : i64, chunk_size = 32 : i64, stage = #kda<chunk_stage scan>}
// CHECK-NEXT: kda.chunk_stage #[[LAYER]] q(%arg0 : memref<?x2x64xbf16>) {{.*}} out(%arg11 : memref<?x4x32xbf16>) {block_v = 32 : i64, chunk_size = 32 : i64, stage = #kda<chunk_stage scan>}
// CHECK-NEXT: return
func.func @gva(%q: memref<?x2x64xbf16>, %k: memref<?x2x64xbf16>, %v: memref<?x4x32xbf16>, %g: memref<?x4x64xbf16>, %beta: memref<?x4xbf16>, %a_log: memref<4xf32>, %dt_bias: memref<256xf32>, %cu: memref<?xi32>, %slots: memref<?xi32>, %init: memref<?xi1>, %state: memref<?x4x64x32xf32>, %o: memref<?x4x32xbf16>) {
  kda.chunk #l q(%q : memref<?x2x64xbf16>) k(%k : memref<?x2x64xbf16>) v(%v : memref<?x4x32xbf16>) g(%g : memref<?x4x64xbf16>) beta(%beta : memref<?x4xbf16>) a_log(%a_log : memref<4xf32>) dt_bias(%dt_bias : memref<256xf32>) cu_seqlens(%cu : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%init : memref<?xi1>) state(%state : memref<?x4x64x32xf32>) out(%o : memref<?x4x32xbf16>) {chunk_size = 32 : i64}
  return
}

// The default chunk size (64) is carried over.
// CHECK-LABEL: func.func @default_size
// CHECK: {chunk_size = 64 : i64, stage = #kda<chunk_stage prep>}
// CHECK: {block_v = 16 : i64, chunk_size = 64 : i64, stage = #kda<chunk_stage scan>}
func.func @default_size(%q: memref<?x2x64xbf16>, %k: memref<?x2x64xbf16>, %v: memref<?x4x32xbf16>, %g: memref<?x4x64xbf16>, %beta: memref<?x4xbf16>, %a_log: memref<4xf32>, %dt_bias: memref<256xf32>, %cu: memref<?xi32>, %slots: memref<?xi32>, %init: memref<?xi1>, %state: memref<?x4x64x32xf32>, %o: memref<?x4x32xbf16>) {
  kda.chunk #l q(%q : memref<?x2x64xbf16>) k(%k : memref<?x2x64xbf16>) v(%v : memref<?x4x32xbf16>) g(%g : memref<?x4x64xbf16>) beta(%beta : memref<?x4xbf16>) a_log(%a_log : memref<4xf32>) dt_bias(%dt_bias : memref<256xf32>) cu_seqlens(%cu : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%init : memref<?xi1>) state(%state : memref<?x4x64x32xf32>) out(%o : memref<?x4x32xbf16>)
  return
}

// The scan's row pipeline depth is carried over to both stages.
// CHECK-LABEL: func.func @scan_stages
// CHECK: {chunk_size = 64 : i64, scan_stages = 3 : i64, stage = #kda<chunk_stage prep>}
// CHECK: {block_v = 16 : i64, chunk_size = 64 : i64, scan_stages = 3 : i64, stage = #kda<chunk_stage scan>}
// CHECK: {block_v = 32 : i64, chunk_size = 64 : i64, scan_stages = 3 : i64, stage = #kda<chunk_stage scan>}
func.func @scan_stages(%q: memref<?x2x64xbf16>, %k: memref<?x2x64xbf16>, %v: memref<?x4x32xbf16>, %g: memref<?x4x64xbf16>, %beta: memref<?x4xbf16>, %a_log: memref<4xf32>, %dt_bias: memref<256xf32>, %cu: memref<?xi32>, %slots: memref<?xi32>, %init: memref<?xi1>, %state: memref<?x4x64x32xf32>, %o: memref<?x4x32xbf16>) {
  kda.chunk #l q(%q : memref<?x2x64xbf16>) k(%k : memref<?x2x64xbf16>) v(%v : memref<?x4x32xbf16>) g(%g : memref<?x4x64xbf16>) beta(%beta : memref<?x4xbf16>) a_log(%a_log : memref<4xf32>) dt_bias(%dt_bias : memref<256xf32>) cu_seqlens(%cu : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%init : memref<?xi1>) state(%state : memref<?x4x64x32xf32>) out(%o : memref<?x4x32xbf16>) {chunk_size = 64 : i64, scan_stages = 3 : i64}
  return
}

// scan_block_v picks the blocks: one scan of 32 columns only.
// CHECK-LABEL: func.func @blocks_listed
// CHECK: stage = #kda<chunk_stage prep>}
// CHECK-NEXT: {block_v = 32 : i64, chunk_size = 64 : i64, stage = #kda<chunk_stage scan>}
// CHECK-NEXT: return
func.func @blocks_listed(%q: memref<?x2x64xbf16>, %k: memref<?x2x64xbf16>, %v: memref<?x4x32xbf16>, %g: memref<?x4x64xbf16>, %beta: memref<?x4xbf16>, %a_log: memref<4xf32>, %dt_bias: memref<256xf32>, %cu: memref<?xi32>, %slots: memref<?xi32>, %init: memref<?xi1>, %state: memref<?x4x64x32xf32>, %o: memref<?x4x32xbf16>) {
  kda.chunk #l q(%q : memref<?x2x64xbf16>) k(%k : memref<?x2x64xbf16>) v(%v : memref<?x4x32xbf16>) g(%g : memref<?x4x64xbf16>) beta(%beta : memref<?x4xbf16>) a_log(%a_log : memref<4xf32>) dt_bias(%dt_bias : memref<256xf32>) cu_seqlens(%cu : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%init : memref<?xi1>) state(%state : memref<?x4x64x32xf32>) out(%o : memref<?x4x32xbf16>) {scan_block_v = array<i64: 32>}
  return
}

// head_v 128: 16, 32 and 64 columns, narrowest first.
// CHECK-LABEL: func.func @head_v_128
// CHECK: stage = #kda<chunk_stage prep>}
// CHECK-NEXT: {block_v = 16 : i64, chunk_size = 64 : i64, stage = #kda<chunk_stage scan>}
// CHECK-NEXT: {block_v = 32 : i64, chunk_size = 64 : i64, stage = #kda<chunk_stage scan>}
// CHECK-NEXT: {block_v = 64 : i64, chunk_size = 64 : i64, stage = #kda<chunk_stage scan>}
// CHECK-NEXT: return
func.func @head_v_128(%q: memref<?x2x64xbf16>, %k: memref<?x2x64xbf16>, %v: memref<?x4x128xbf16>, %g: memref<?x4x64xbf16>, %beta: memref<?x4xbf16>, %a_log: memref<4xf32>, %dt_bias: memref<256xf32>, %cu: memref<?xi32>, %slots: memref<?xi32>, %init: memref<?xi1>, %state: memref<?x4x64x128xf32>, %o: memref<?x4x128xbf16>) {
  kda.chunk #l128 q(%q : memref<?x2x64xbf16>) k(%k : memref<?x2x64xbf16>) v(%v : memref<?x4x128xbf16>) g(%g : memref<?x4x64xbf16>) beta(%beta : memref<?x4xbf16>) a_log(%a_log : memref<4xf32>) dt_bias(%dt_bias : memref<256xf32>) cu_seqlens(%cu : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%init : memref<?xi1>) state(%state : memref<?x4x64x128xf32>) out(%o : memref<?x4x128xbf16>)
  return
}
