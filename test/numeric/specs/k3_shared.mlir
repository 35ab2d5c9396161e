// Numeric test layer: k3_passes with shared_terms = 1: a row's first
// token's terms (gates, normalised k and q, k.q, beta) computed once a
// workgroup into LDS and read by each of the 3 passes; the rest of a row's
// tokens compute their own (vk, GVA, the last block's columns masked).
#l = #kda.layer<heads = 2, value_heads = 4, head_k = 64, head_v = 64, gate = lower_bound(-5.0), beta = sigmoid, qk_l2norm = true, act = bf16, state = f32, state_layout = vk>
func.func @k3_shared(%q: memref<?x2x64xbf16>, %k: memref<?x2x64xbf16>, %v: memref<?x4x64xbf16>, %g: memref<?x4x64xbf16>, %beta: memref<?x4xbf16>, %a_log: memref<4xf32>, %dt_bias: memref<256xf32>, %cu: memref<?xi32>, %slots: memref<?xi32>, %init: memref<?xi1>, %state: memref<?x4x64x64xf32>, %o: memref<?x4x64xbf16>) {
  kda.recurrent #l config #kda.config<block_k = 64, block_v = 24, block_t = 1, warps = 1, stages = 1, lanes_k = 16, v_passes = 3, shared_terms = 1> q(%q : memref<?x2x64xbf16>) k(%k : memref<?x2x64xbf16>) v(%v : memref<?x4x64xbf16>) g(%g : memref<?x4x64xbf16>) beta(%beta : memref<?x4xbf16>) a_log(%a_log : memref<4xf32>) dt_bias(%dt_bias : memref<256xf32>) cu_seqlens(%cu : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%init : memref<?xi1>) state(%state : memref<?x4x64x64xf32>) out(%o : memref<?x4x64xbf16>)
  return
}
