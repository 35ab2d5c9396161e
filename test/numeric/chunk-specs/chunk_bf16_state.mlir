// Chunk-path numeric layer: lower_bound(-5) gate without A_log, bf16 vk state pool, 32-row chunks.
// The same layer's recurrent kernel beside it, for the length-1 comparison.
#l = #kda.layer<heads = 2, value_heads = 2, head_k = 64, head_v = 32, gate = lower_bound(-5.0), beta = sigmoid, qk_l2norm = true, act = bf16, state = bf16, state_layout = vk>
func.func @chunk_bf16_state(%q: memref<?x2x64xbf16>, %k: memref<?x2x64xbf16>, %v: memref<?x2x32xbf16>, %g: memref<?x2x64xbf16>, %beta: memref<?x2xbf16>, %dt_bias: memref<128xf32>, %cu: memref<?xi32>, %slots: memref<?xi32>, %init: memref<?xi1>, %state: memref<?x2x32x64xbf16>, %o: memref<?x2x32xbf16>) {
  kda.chunk #l q(%q : memref<?x2x64xbf16>) k(%k : memref<?x2x64xbf16>) v(%v : memref<?x2x32xbf16>) g(%g : memref<?x2x64xbf16>) beta(%beta : memref<?x2xbf16>) dt_bias(%dt_bias : memref<128xf32>) cu_seqlens(%cu : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%init : memref<?xi1>) state(%state : memref<?x2x32x64xbf16>) out(%o : memref<?x2x32xbf16>) {chunk_size = 32 : i64}
  return
}
func.func @chunk_bf16_state_recurrent(%q: memref<?x2x64xbf16>, %k: memref<?x2x64xbf16>, %v: memref<?x2x32xbf16>, %g: memref<?x2x64xbf16>, %beta: memref<?x2xbf16>, %dt_bias: memref<128xf32>, %cu: memref<?xi32>, %slots: memref<?xi32>, %init: memref<?xi1>, %state: memref<?x2x32x64xbf16>, %o: memref<?x2x32xbf16>) {
  kda.recurrent #l q(%q : memref<?x2x64xbf16>) k(%k : memref<?x2x64xbf16>) v(%v : memref<?x2x32xbf16>) g(%g : memref<?x2x64xbf16>) beta(%beta : memref<?x2xbf16>) dt_bias(%dt_bias : memref<128xf32>) cu_seqlens(%cu : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%init : memref<?xi1>) state(%state : memref<?x2x32x64xbf16>) out(%o : memref<?x2x32xbf16>)
  return
}
