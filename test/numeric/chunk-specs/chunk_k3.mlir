// Chunk-path numeric layer: Kimi-K3-like, lower_bound(-5) gate with A_log and dt_bias, vk f32 state, 64-row chunks.
// The same layer's recurrent kernel beside it, for the length-1 comparison.
#l = #kda.layer<heads = 2, value_heads = 2, head_k = 64, head_v = 32, gate = lower_bound(-5.0), beta = sigmoid, qk_l2norm = true, act = bf16, state = f32, state_layout = vk>
func.func @chunk_k3(%q: memref<?x2x64xbf16>, %k: memref<?x2x64xbf16>, %v: memref<?x2x32xbf16>, %g: memref<?x2x64xbf16>, %beta: memref<?x2xbf16>, %a_log: memref<2xf32>, %dt_bias: memref<128xf32>, %cu: memref<?xi32>, %slots: memref<?xi32>, %init: memref<?xi1>, %state: memref<?x2x32x64xf32>, %o: memref<?x2x32xbf16>) {
  kda.chunk #l q(%q : memref<?x2x64xbf16>) k(%k : memref<?x2x64xbf16>) v(%v : memref<?x2x32xbf16>) g(%g : memref<?x2x64xbf16>) beta(%beta : memref<?x2xbf16>) a_log(%a_log : memref<2xf32>) dt_bias(%dt_bias : memref<128xf32>) cu_seqlens(%cu : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%init : memref<?xi1>) state(%state : memref<?x2x32x64xf32>) out(%o : memref<?x2x32xbf16>) {chunk_size = 64 : i64}
  return
}
func.func @chunk_k3_recurrent(%q: memref<?x2x64xbf16>, %k: memref<?x2x64xbf16>, %v: memref<?x2x32xbf16>, %g: memref<?x2x64xbf16>, %beta: memref<?x2xbf16>, %a_log: memref<2xf32>, %dt_bias: memref<128xf32>, %cu: memref<?xi32>, %slots: memref<?xi32>, %init: memref<?xi1>, %state: memref<?x2x32x64xf32>, %o: memref<?x2x32xbf16>) {
  kda.recurrent #l q(%q : memref<?x2x64xbf16>) k(%k : memref<?x2x64xbf16>) v(%v : memref<?x2x32xbf16>) g(%g : memref<?x2x64xbf16>) beta(%beta : memref<?x2xbf16>) a_log(%a_log : memref<2xf32>) dt_bias(%dt_bias : memref<128xf32>) cu_seqlens(%cu : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%init : memref<?xi1>) state(%state : memref<?x2x32x64xf32>) out(%o : memref<?x2x32xbf16>)
  return
}
// The recurrent kernel again, built for fla's slot < 0 padding: kda_forward
// with it and the chunk kernel takes slot < 0 calls unless a long row names
// slot 0 (padding to the chunk kernels).
func.func @chunk_k3_negative(%q: memref<?x2x64xbf16>, %k: memref<?x2x64xbf16>, %v: memref<?x2x32xbf16>, %g: memref<?x2x64xbf16>, %beta: memref<?x2xbf16>, %a_log: memref<2xf32>, %dt_bias: memref<128xf32>, %cu: memref<?xi32>, %slots: memref<?xi32>, %init: memref<?xi1>, %state: memref<?x2x32x64xf32>, %o: memref<?x2x32xbf16>) {
  kda.recurrent #l q(%q : memref<?x2x64xbf16>) k(%k : memref<?x2x64xbf16>) v(%v : memref<?x2x32xbf16>) g(%g : memref<?x2x64xbf16>) beta(%beta : memref<?x2xbf16>) a_log(%a_log : memref<2xf32>) dt_bias(%dt_bias : memref<128xf32>) cu_seqlens(%cu : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%init : memref<?xi1>) state(%state : memref<?x2x32x64xf32>) out(%o : memref<?x2x32xbf16>) {kda.padding = "negative"}
  return
}
