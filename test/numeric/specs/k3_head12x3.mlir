// Numeric test layer: head_k = 12, head_v = 3, vk pool: a wave covers at most 3 columns only at 16 lanes a column (wave 32) or 32 (wave 64), more lanes than head_k; the lanes past k 12 hold no k (their runs clamped to none).
#l = #kda.layer<heads = 2, value_heads = 2, head_k = 12, head_v = 3, gate = lower_bound(-5.0), beta = sigmoid, qk_l2norm = true, act = bf16, state = f32, state_layout = vk>
func.func @k3_head12x3(%q: memref<?x2x12xbf16>, %k: memref<?x2x12xbf16>, %v: memref<?x2x3xbf16>, %g: memref<?x2x12xbf16>, %beta: memref<?x2xbf16>, %a_log: memref<2xf32>, %dt_bias: memref<24xf32>, %cu: memref<?xi32>, %slots: memref<?xi32>, %init: memref<?xi1>, %state: memref<?x2x3x12xf32>, %o: memref<?x2x3xbf16>) {
  kda.recurrent #l q(%q : memref<?x2x12xbf16>) k(%k : memref<?x2x12xbf16>) v(%v : memref<?x2x3xbf16>) g(%g : memref<?x2x12xbf16>) beta(%beta : memref<?x2xbf16>) a_log(%a_log : memref<2xf32>) dt_bias(%dt_bias : memref<24xf32>) cu_seqlens(%cu : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%init : memref<?xi1>) state(%state : memref<?x2x3x12xf32>) out(%o : memref<?x2x3xbf16>)
  return
}
