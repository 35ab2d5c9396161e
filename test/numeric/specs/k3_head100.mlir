// Numeric test layer: head_k = head_v = 100 with f32 activations, vk pool (masked tails in k and v).
#l = #kda.layer<heads = 2, value_heads = 2, head_k = 100, head_v = 100, gate = lower_bound(-5.0), beta = sigmoid, qk_l2norm = true, act = f32, state = f32, state_layout = vk>
func.func @k3_head100(%q: memref<?x2x100xf32>, %k: memref<?x2x100xf32>, %v: memref<?x2x100xf32>, %g: memref<?x2x100xf32>, %beta: memref<?x2xf32>, %a_log: memref<2xf32>, %dt_bias: memref<200xf32>, %cu: memref<?xi32>, %slots: memref<?xi32>, %init: memref<?xi1>, %state: memref<?x2x100x100xf32>, %o: memref<?x2x100xf32>) {
  kda.recurrent #l q(%q : memref<?x2x100xf32>) k(%k : memref<?x2x100xf32>) v(%v : memref<?x2x100xf32>) g(%g : memref<?x2x100xf32>) beta(%beta : memref<?x2xf32>) a_log(%a_log : memref<2xf32>) dt_bias(%dt_bias : memref<200xf32>) cu_seqlens(%cu : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%init : memref<?xi1>) state(%state : memref<?x2x100x100xf32>) out(%o : memref<?x2x100xf32>)
  return
}
