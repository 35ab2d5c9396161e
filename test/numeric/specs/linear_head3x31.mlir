// Numeric test layer: head_k = 3, head_v = 31, kv bf16 pool: at wave 64 a column takes 4 lanes for 3 k (the fourth holds none), and the last block masks its columns past 31.
#l = #kda.layer<heads = 2, value_heads = 2, head_k = 3, head_v = 31, gate = softplus, beta = sigmoid, qk_l2norm = true, act = bf16, state = bf16, state_layout = kv>
func.func @linear_head3x31(%q: memref<?x2x3xbf16>, %k: memref<?x2x3xbf16>, %v: memref<?x2x31xbf16>, %g: memref<?x2x3xbf16>, %beta: memref<?x2xbf16>, %a_log: memref<2xf32>, %dt_bias: memref<6xf32>, %cu: memref<?xi32>, %slots: memref<?xi32>, %init: memref<?xi1>, %state: memref<?x2x3x31xbf16>, %o: memref<?x2x31xbf16>) {
  kda.recurrent #l q(%q : memref<?x2x3xbf16>) k(%k : memref<?x2x3xbf16>) v(%v : memref<?x2x31xbf16>) g(%g : memref<?x2x3xbf16>) beta(%beta : memref<?x2xbf16>) a_log(%a_log : memref<2xf32>) dt_bias(%dt_bias : memref<6xf32>) cu_seqlens(%cu : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%init : memref<?xi1>) state(%state : memref<?x2x3x31xbf16>) out(%o : memref<?x2x31xbf16>)
  return
}
