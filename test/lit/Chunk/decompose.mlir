// kda-decompose: kda.chunk becomes its stage kernels, the prep then one
// scan per state column block (16, 32 and 64 where they divide head_v, or
// the chunk's scan_block_v), with the chunk's operands, layer, chunk size
// and scan_stages; then, where the scan may be split within a sequence
// (segment_chunks: 8 by default with qk_l2norm at scan_stages 1), the
// split scan's maps and segments at the widest block that divides head_k
// too and its join at 16 columns, every stage carrying segment_chunks.
// RUN: kda-opt %s --kda-decompose | FileCheck %s

#l = #kda.layer<heads = 2, value_heads = 4, head_k = 64, head_v = 32, gate = softplus, beta = sigmoid, qk_l2norm = true, act = bf16, state = f32, state_layout = kv>
#l128 = #kda.layer<heads = 2, value_heads = 4, head_k = 64, head_v = 128, gate = softplus, beta = sigmoid, qk_l2norm = true, act = bf16, state = f32, state_layout = kv>

// CHECK: #[[LAYER:[a-z0-9_]+]] = #kda.layer<heads = 2, value_heads = 4, head_k = 64, head_v = 32, gate = softplus
// CHECK-LABEL: func.func @gva
// CHECK-NOT: kda.chunk #
// CHECK: kda.chunk_stage #[[LAYER]] q(%arg0 : memref<?x2x64xbf16>) {{.*}} a_log(%arg5 : memref<4xf32>) dt_bias(%arg6 : memref<256xf32>) {{.*}} state(%arg10 : memref<?x4x64x32xf32>) out(%arg11 : memref<?x4x32xbf16>) {chunk_size = 32 : i64, segment_chunks = 8 : i64, stage = #kda<chunk_stage prep>}
// CHECK-NEXT: kda.chunk_stage #[[LAYER]] q(%arg0 : memref<?x2x64xbf16>) {{.*}} out(%arg11 : memref<?x4x32xbf16>) {block_v = 16 : i64, chunk_size = 32 : i64, segment_chunks = 8 : i64, stage = #kda<chunk_stage scan>}
// CHECK-NEXT: kda.chunk_stage #[[LAYER]] q(%arg0 : memref<?x2x64xbf16>) {{.*}} out(%arg11 : memref<?x4x32xbf16>) {block_v = 32 : i64, chunk_size = 32 : i64, segment_chunks = 8 : i64, stage = #kda<chunk_stage scan>}
// CHECK-NEXT: kda.chunk_stage #[[LAYER]] q(%arg0 : memref<?x2x64xbf16>) {{.*}} out(%arg11 : memref<?x4x32xbf16>) {block_v = 32 : i64, chunk_size = 32 : i64, segment_chunks = 8 : i64, stage = #kda<chunk_stage maps>}
// CHECK-NEXT: kda.chunk_stage #[[LAYER]] q(%arg0 : memref<?x2x64xbf16>) {{.*}} out(%arg11 : memref<?x4x32xbf16>) {block_v = 16 : i64, chunk_size = 32 : i64, segment_chunks = 8 : i64, stage = #kda<chunk_stage join>}
// CHECK-NEXT: kda.chunk_stage #[[LAYER]] q(%arg0 : memref<?x2x64xbf16>) {{.*}} out(%arg11 : memref<?x4x32xbf16>) {block_v = 32 : i64, chunk_size = 32 : i64, segment_chunks = 8 : i64, stage = #kda<chunk_stage segments>}
// CHECK-NEXT: return
func.func @gva(%q: memref<?x2x64xbf16>, %k: memref<?x2x64xbf16>, %v: memref<?x4x32xbf16>, %g: memref<?x4x64xbf16>, %beta: memref<?x4xbf16>, %a_log: memref<4xf32>, %dt_bias: memref<256xf32>, %cu: memref<?xi32>, %slots: memref<?xi32>, %init: memref<?xi1>, %state: memref<?x4x64x32xf32>, %o: memref<?x4x32xbf16>) {
  kda.chunk #l q(%q : memref<?x2x64xbf16>) k(%k : memref<?x2x64xbf16>) v(%v : memref<?x4x32xbf16>) g(%g : memref<?x4x64xbf16>) beta(%beta : memref<?x4xbf16>) a_log(%a_log : memref<4xf32>) dt_bias(%dt_bias : memref<256xf32>) cu_seqlens(%cu : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%init : memref<?xi1>) state(%state : memref<?x4x64x32xf32>) out(%o : memref<?x4x32xbf16>) {chunk_size = 32 : i64}
  return
}

// No chunk_size: the stages leave it out too (kda-lower-to-gpu gives
// them the target's, Chunk/default-chunk-size.mlir).
// CHECK-LABEL: func.func @default_size
// CHECK: {segment_chunks = 8 : i64, stage = #kda<chunk_stage prep>}
// CHECK: {block_v = 16 : i64, segment_chunks = 8 : i64, stage = #kda<chunk_stage scan>}
func.func @default_size(%q: memref<?x2x64xbf16>, %k: memref<?x2x64xbf16>, %v: memref<?x4x32xbf16>, %g: memref<?x4x64xbf16>, %beta: memref<?x4xbf16>, %a_log: memref<4xf32>, %dt_bias: memref<256xf32>, %cu: memref<?xi32>, %slots: memref<?xi32>, %init: memref<?xi1>, %state: memref<?x4x64x32xf32>, %o: memref<?x4x32xbf16>) {
  kda.chunk #l q(%q : memref<?x2x64xbf16>) k(%k : memref<?x2x64xbf16>) v(%v : memref<?x4x32xbf16>) g(%g : memref<?x4x64xbf16>) beta(%beta : memref<?x4xbf16>) a_log(%a_log : memref<4xf32>) dt_bias(%dt_bias : memref<256xf32>) cu_seqlens(%cu : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%init : memref<?xi1>) state(%state : memref<?x4x64x32xf32>) out(%o : memref<?x4x32xbf16>)
  return
}

// The scan's row pipeline depth is carried over to both stages; a
// pipelined scan is not split (the split runs the register scan).
// CHECK-LABEL: func.func @scan_stages
// CHECK: {chunk_size = 64 : i64, scan_stages = 3 : i64, stage = #kda<chunk_stage prep>}
// CHECK: {block_v = 16 : i64, chunk_size = 64 : i64, scan_stages = 3 : i64, stage = #kda<chunk_stage scan>}
// CHECK: {block_v = 32 : i64, chunk_size = 64 : i64, scan_stages = 3 : i64, stage = #kda<chunk_stage scan>}
// CHECK-NEXT: return
func.func @scan_stages(%q: memref<?x2x64xbf16>, %k: memref<?x2x64xbf16>, %v: memref<?x4x32xbf16>, %g: memref<?x4x64xbf16>, %beta: memref<?x4xbf16>, %a_log: memref<4xf32>, %dt_bias: memref<256xf32>, %cu: memref<?xi32>, %slots: memref<?xi32>, %init: memref<?xi1>, %state: memref<?x4x64x32xf32>, %o: memref<?x4x32xbf16>) {
  kda.chunk #l q(%q : memref<?x2x64xbf16>) k(%k : memref<?x2x64xbf16>) v(%v : memref<?x4x32xbf16>) g(%g : memref<?x4x64xbf16>) beta(%beta : memref<?x4xbf16>) a_log(%a_log : memref<4xf32>) dt_bias(%dt_bias : memref<256xf32>) cu_seqlens(%cu : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%init : memref<?xi1>) state(%state : memref<?x4x64x32xf32>) out(%o : memref<?x4x32xbf16>) {chunk_size = 64 : i64, scan_stages = 3 : i64}
  return
}

// scan_block_v picks the blocks: one scan of 32 columns only.
// CHECK-LABEL: func.func @blocks_listed
// CHECK: stage = #kda<chunk_stage prep>}
// CHECK-NEXT: {block_v = 32 : i64, segment_chunks = 8 : i64, stage = #kda<chunk_stage scan>}
// CHECK-NEXT: {block_v = 32 : i64, segment_chunks = 8 : i64, stage = #kda<chunk_stage maps>}
// CHECK-NEXT: {block_v = 16 : i64, segment_chunks = 8 : i64, stage = #kda<chunk_stage join>}
// CHECK-NEXT: {block_v = 32 : i64, segment_chunks = 8 : i64, stage = #kda<chunk_stage segments>}
// CHECK-NEXT: return
func.func @blocks_listed(%q: memref<?x2x64xbf16>, %k: memref<?x2x64xbf16>, %v: memref<?x4x32xbf16>, %g: memref<?x4x64xbf16>, %beta: memref<?x4xbf16>, %a_log: memref<4xf32>, %dt_bias: memref<256xf32>, %cu: memref<?xi32>, %slots: memref<?xi32>, %init: memref<?xi1>, %state: memref<?x4x64x32xf32>, %o: memref<?x4x32xbf16>) {
  kda.chunk #l q(%q : memref<?x2x64xbf16>) k(%k : memref<?x2x64xbf16>) v(%v : memref<?x4x32xbf16>) g(%g : memref<?x4x64xbf16>) beta(%beta : memref<?x4xbf16>) a_log(%a_log : memref<4xf32>) dt_bias(%dt_bias : memref<256xf32>) cu_seqlens(%cu : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%init : memref<?xi1>) state(%state : memref<?x4x64x32xf32>) out(%o : memref<?x4x32xbf16>) {scan_block_v = array<i64: 32>}
  return
}

// head_v 128: 16, 32 and 64 columns, narrowest first; the split scan's
// maps and segments at 64 (it divides head_k 64).
// CHECK-LABEL: func.func @head_v_128
// CHECK: stage = #kda<chunk_stage prep>}
// CHECK-NEXT: {block_v = 16 : i64, segment_chunks = 8 : i64, stage = #kda<chunk_stage scan>}
// CHECK-NEXT: {block_v = 32 : i64, segment_chunks = 8 : i64, stage = #kda<chunk_stage scan>}
// CHECK-NEXT: {block_v = 64 : i64, segment_chunks = 8 : i64, stage = #kda<chunk_stage scan>}
// CHECK-NEXT: {block_v = 64 : i64, segment_chunks = 8 : i64, stage = #kda<chunk_stage maps>}
// CHECK-NEXT: {block_v = 16 : i64, segment_chunks = 8 : i64, stage = #kda<chunk_stage join>}
// CHECK-NEXT: {block_v = 64 : i64, segment_chunks = 8 : i64, stage = #kda<chunk_stage segments>}
// CHECK-NEXT: return
func.func @head_v_128(%q: memref<?x2x64xbf16>, %k: memref<?x2x64xbf16>, %v: memref<?x4x128xbf16>, %g: memref<?x4x64xbf16>, %beta: memref<?x4xbf16>, %a_log: memref<4xf32>, %dt_bias: memref<256xf32>, %cu: memref<?xi32>, %slots: memref<?xi32>, %init: memref<?xi1>, %state: memref<?x4x64x128xf32>, %o: memref<?x4x128xbf16>) {
  kda.chunk #l128 q(%q : memref<?x2x64xbf16>) k(%k : memref<?x2x64xbf16>) v(%v : memref<?x4x128xbf16>) g(%g : memref<?x4x64xbf16>) beta(%beta : memref<?x4xbf16>) a_log(%a_log : memref<4xf32>) dt_bias(%dt_bias : memref<256xf32>) cu_seqlens(%cu : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%init : memref<?xi1>) state(%state : memref<?x4x64x128xf32>) out(%o : memref<?x4x128xbf16>)
  return
}

// segment_chunks stated: carried to every stage; 0: no split scan.
// CHECK-LABEL: func.func @segments_stated
// CHECK: {segment_chunks = 3 : i64, stage = #kda<chunk_stage prep>}
// CHECK: {block_v = 32 : i64, segment_chunks = 3 : i64, stage = #kda<chunk_stage segments>}
// CHECK-LABEL: func.func @segments_off
// CHECK: {stage = #kda<chunk_stage prep>}
// CHECK-NEXT: {block_v = 16 : i64, stage = #kda<chunk_stage scan>}
// CHECK-NEXT: {block_v = 32 : i64, stage = #kda<chunk_stage scan>}
// CHECK-NEXT: return
func.func @segments_stated(%q: memref<?x2x64xbf16>, %k: memref<?x2x64xbf16>, %v: memref<?x4x32xbf16>, %g: memref<?x4x64xbf16>, %beta: memref<?x4xbf16>, %a_log: memref<4xf32>, %dt_bias: memref<256xf32>, %cu: memref<?xi32>, %slots: memref<?xi32>, %init: memref<?xi1>, %state: memref<?x4x64x32xf32>, %o: memref<?x4x32xbf16>) {
  kda.chunk #l q(%q : memref<?x2x64xbf16>) k(%k : memref<?x2x64xbf16>) v(%v : memref<?x4x32xbf16>) g(%g : memref<?x4x64xbf16>) beta(%beta : memref<?x4xbf16>) a_log(%a_log : memref<4xf32>) dt_bias(%dt_bias : memref<256xf32>) cu_seqlens(%cu : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%init : memref<?xi1>) state(%state : memref<?x4x64x32xf32>) out(%o : memref<?x4x32xbf16>) {segment_chunks = 3 : i64}
  return
}
func.func @segments_off(%q: memref<?x2x64xbf16>, %k: memref<?x2x64xbf16>, %v: memref<?x4x32xbf16>, %g: memref<?x4x64xbf16>, %beta: memref<?x4xbf16>, %a_log: memref<4xf32>, %dt_bias: memref<256xf32>, %cu: memref<?xi32>, %slots: memref<?xi32>, %init: memref<?xi1>, %state: memref<?x4x64x32xf32>, %o: memref<?x4x32xbf16>) {
  kda.chunk #l q(%q : memref<?x2x64xbf16>) k(%k : memref<?x2x64xbf16>) v(%v : memref<?x4x32xbf16>) g(%g : memref<?x4x64xbf16>) beta(%beta : memref<?x4xbf16>) a_log(%a_log : memref<4xf32>) dt_bias(%dt_bias : memref<256xf32>) cu_seqlens(%cu : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%init : memref<?xi1>) state(%state : memref<?x4x64x32xf32>) out(%o : memref<?x4x32xbf16>) {segment_chunks = 0 : i64}
  return
}

// Without qk_l2norm no split by default (a composed map need not be a
// contraction).
// CHECK-LABEL: func.func @no_l2norm
// CHECK: {stage = #kda<chunk_stage prep>}
// CHECK-NOT: segment
// CHECK: return
#nol2 = #kda.layer<heads = 2, value_heads = 4, head_k = 64, head_v = 32, gate = softplus, beta = sigmoid, act = bf16, state = f32, state_layout = kv>
func.func @no_l2norm(%q: memref<?x2x64xbf16>, %k: memref<?x2x64xbf16>, %v: memref<?x4x32xbf16>, %g: memref<?x4x64xbf16>, %beta: memref<?x4xbf16>, %a_log: memref<4xf32>, %dt_bias: memref<256xf32>, %cu: memref<?xi32>, %slots: memref<?xi32>, %init: memref<?xi1>, %state: memref<?x4x64x32xf32>, %o: memref<?x4x32xbf16>) {
  kda.chunk #nol2 q(%q : memref<?x2x64xbf16>) k(%k : memref<?x2x64xbf16>) v(%v : memref<?x4x32xbf16>) g(%g : memref<?x4x64xbf16>) beta(%beta : memref<?x4xbf16>) a_log(%a_log : memref<4xf32>) dt_bias(%dt_bias : memref<256xf32>) cu_seqlens(%cu : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%init : memref<?xi1>) state(%state : memref<?x4x64x32xf32>) out(%o : memref<?x4x32xbf16>)
  return
}
