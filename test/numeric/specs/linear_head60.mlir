// Numeric test layer: head_k = head_v = 60, kv pool (masked k rows and masked columns of the lane's row pieces), softplus gate.
#l = #kda.layer<heads = 2, value_heads = 2, head_k = 60, head_v = 60, gate = softplus, beta = sigmoid, qk_l2norm = true, act = bf16, state = f32, state_layout = kv>
func.func @linear_head60(%q: memref<?x2x60xbf16>, %k: memref<?x2x60xbf16>, %v: memref<?x2x60xbf16>, %g: memref<?x2x60xbf16>, %beta: memref<?x2xbf16>, %a_log: memref<2xf32>, %dt_bias: memref<120xf32>, %cu: memref<?xi32>, %slots: memref<?xi32>, %init: memref<?xi1>, %state: memref<?x2x60x60xf32>, %o: memref<?x2x60xbf16>) {
  kda.recurrent #l q(%q : memref<?x2x60xbf16>) k(%k : memref<?x2x60xbf16>) v(%v : memref<?x2x60xbf16>) g(%g : memref<?x2x60xbf16>) beta(%beta : memref<?x2xbf16>) a_log(%a_log : memref<2xf32>) dt_bias(%dt_bias : memref<120xf32>) cu_seqlens(%cu : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%init : memref<?xi1>) state(%state : memref<?x2x60x60xf32>) out(%o : memref<?x2x60xbf16>)
  return
}
