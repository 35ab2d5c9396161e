// Numeric test layer: f32 activations, kv pool, softplus gate, GVA (2 q/k heads, 4 value heads), default config.
#l = #kda.layer<heads = 2, value_heads = 4, head_k = 32, head_v = 64, gate = softplus, beta = sigmoid, qk_l2norm = true, act = f32, state = f32, state_layout = kv>
func.func @linear_f32_act(%q: memref<?x2x32xf32>, %k: memref<?x2x32xf32>, %v: memref<?x4x64xf32>, %g: memref<?x4x32xf32>, %beta: memref<?x4xf32>, %a_log: memref<4xf32>, %dt_bias: memref<128xf32>, %cu: memref<?xi32>, %slots: memref<?xi32>, %init: memref<?xi1>, %state: memref<?x4x32x64xf32>, %o: memref<?x4x64xf32>) {
  kda.recurrent #l q(%q : memref<?x2x32xf32>) k(%k : memref<?x2x32xf32>) v(%v : memref<?x4x64xf32>) g(%g : memref<?x4x32xf32>) beta(%beta : memref<?x4xf32>) a_log(%a_log : memref<4xf32>) dt_bias(%dt_bias : memref<128xf32>) cu_seqlens(%cu : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%init : memref<?xi1>) state(%state : memref<?x4x32x64xf32>) out(%o : memref<?x4x64xf32>)
  return
}
