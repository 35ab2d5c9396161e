// Chunk sizes 32 and 16 of chunk-bench.mlir's prefill layers (H 32 and H 8):
// the prep's intra-chunk work grows with the chunk, the scan's steps with
// the number of chunks; timed beside chunk-bench's 64 by run-h200.sh chunk.
#h32 = #kda.layer<heads = 32, value_heads = 32, head_k = 128, head_v = 128, gate = lower_bound(-5.0), beta = sigmoid, qk_l2norm = true, act = bf16, state = f32, state_layout = vk>
#h8 = #kda.layer<heads = 8, value_heads = 8, head_k = 128, head_v = 128, gate = lower_bound(-5.0), beta = sigmoid, qk_l2norm = true, act = bf16, state = f32, state_layout = vk>
func.func @chunk_h32_c32(%q: memref<?x32x128xbf16>, %k: memref<?x32x128xbf16>, %v: memref<?x32x128xbf16>, %g: memref<?x32x128xbf16>, %beta: memref<?x32xbf16>, %a_log: memref<32xf32>, %dt_bias: memref<4096xf32>, %cu: memref<?xi32>, %slots: memref<?xi32>, %init: memref<?xi1>, %state: memref<?x32x128x128xf32>, %o: memref<?x32x128xbf16>) {
  kda.chunk #h32 q(%q : memref<?x32x128xbf16>) k(%k : memref<?x32x128xbf16>) v(%v : memref<?x32x128xbf16>) g(%g : memref<?x32x128xbf16>) beta(%beta : memref<?x32xbf16>) a_log(%a_log : memref<32xf32>) dt_bias(%dt_bias : memref<4096xf32>) cu_seqlens(%cu : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%init : memref<?xi1>) state(%state : memref<?x32x128x128xf32>) out(%o : memref<?x32x128xbf16>) {chunk_size = 32 : i64}
  return
}
func.func @chunk_h32_c16(%q: memref<?x32x128xbf16>, %k: memref<?x32x128xbf16>, %v: memref<?x32x128xbf16>, %g: memref<?x32x128xbf16>, %beta: memref<?x32xbf16>, %a_log: memref<32xf32>, %dt_bias: memref<4096xf32>, %cu: memref<?xi32>, %slots: memref<?xi32>, %init: memref<?xi1>, %state: memref<?x32x128x128xf32>, %o: memref<?x32x128xbf16>) {
  kda.chunk #h32 q(%q : memref<?x32x128xbf16>) k(%k : memref<?x32x128xbf16>) v(%v : memref<?x32x128xbf16>) g(%g : memref<?x32x128xbf16>) beta(%beta : memref<?x32xbf16>) a_log(%a_log : memref<32xf32>) dt_bias(%dt_bias : memref<4096xf32>) cu_seqlens(%cu : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%init : memref<?xi1>) state(%state : memref<?x32x128x128xf32>) out(%o : memref<?x32x128xbf16>) {chunk_size = 16 : i64}
  return
}
func.func @chunk_h8_c32(%q: memref<?x8x128xbf16>, %k: memref<?x8x128xbf16>, %v: memref<?x8x128xbf16>, %g: memref<?x8x128xbf16>, %beta: memref<?x8xbf16>, %a_log: memref<8xf32>, %dt_bias: memref<1024xf32>, %cu: memref<?xi32>, %slots: memref<?xi32>, %init: memref<?xi1>, %state: memref<?x8x128x128xf32>, %o: memref<?x8x128xbf16>) {
  kda.chunk #h8 q(%q : memref<?x8x128xbf16>) k(%k : memref<?x8x128xbf16>) v(%v : memref<?x8x128xbf16>) g(%g : memref<?x8x128xbf16>) beta(%beta : memref<?x8xbf16>) a_log(%a_log : memref<8xf32>) dt_bias(%dt_bias : memref<1024xf32>) cu_seqlens(%cu : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%init : memref<?xi1>) state(%state : memref<?x8x128x128xf32>) out(%o : memref<?x8x128xbf16>) {chunk_size = 32 : i64}
  return
}
func.func @chunk_h8_c16(%q: memref<?x8x128xbf16>, %k: memref<?x8x128xbf16>, %v: memref<?x8x128xbf16>, %g: memref<?x8x128xbf16>, %beta: memref<?x8xbf16>, %a_log: memref<8xf32>, %dt_bias: memref<1024xf32>, %cu: memref<?xi32>, %slots: memref<?xi32>, %init: memref<?xi1>, %state: memref<?x8x128x128xf32>, %o: memref<?x8x128xbf16>) {
  kda.chunk #h8 q(%q : memref<?x8x128xbf16>) k(%k : memref<?x8x128xbf16>) v(%v : memref<?x8x128xbf16>) g(%g : memref<?x8x128xbf16>) beta(%beta : memref<?x8xbf16>) a_log(%a_log : memref<8xf32>) dt_bias(%dt_bias : memref<1024xf32>) cu_seqlens(%cu : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%init : memref<?xi1>) state(%state : memref<?x8x128x128xf32>) out(%o : memref<?x8x128xbf16>) {chunk_size = 16 : i64}
  return
}
