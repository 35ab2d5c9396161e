// Numeric test layer: head_k = head_v = 100, kv bf16 state pool (8-byte row pieces: 100 columns are not a multiple of 16 bytes), softplus gate.
#l = #kda.layer<heads = 2, value_heads = 2, head_k = 100, head_v = 100, gate = softplus, beta = sigmoid, qk_l2norm = true, act = bf16, state = bf16, state_layout = kv>
func.func @linear_head100_bf16_state(%q: memref<?x2x100xbf16>, %k: memref<?x2x100xbf16>, %v: memref<?x2x100xbf16>, %g: memref<?x2x100xbf16>, %beta: memref<?x2xbf16>, %a_log: memref<2xf32>, %dt_bias: memref<200xf32>, %cu: memref<?xi32>, %slots: memref<?xi32>, %init: memref<?xi1>, %state: memref<?x2x100x100xbf16>, %o: memref<?x2x100xbf16>) {
  kda.recurrent #l q(%q : memref<?x2x100xbf16>) k(%k : memref<?x2x100xbf16>) v(%v : memref<?x2x100xbf16>) g(%g : memref<?x2x100xbf16>) beta(%beta : memref<?x2xbf16>) a_log(%a_log : memref<2xf32>) dt_bias(%dt_bias : memref<200xf32>) cu_seqlens(%cu : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%init : memref<?xi1>) state(%state : memref<?x2x100x100xbf16>) out(%o : memref<?x2x100xbf16>)
  return
}
