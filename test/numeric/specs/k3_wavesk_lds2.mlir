// Numeric test layer: k split over 2 waves (vk, waves_k = 2, lanes_k = 8)
// with the token rows staged through an LDS ring of depth 2: the exchange's
// barriers sit inside the verified token pipeline.
#l = #kda.layer<heads = 2, value_heads = 4, head_k = 64, head_v = 64, gate = lower_bound(-5.0), beta = sigmoid, qk_l2norm = true, act = bf16, state = f32, state_layout = vk>
func.func @k3_wavesk_lds2(%q: memref<?x2x64xbf16>, %k: memref<?x2x64xbf16>, %v: memref<?x4x64xbf16>, %g: memref<?x4x64xbf16>, %beta: memref<?x4xbf16>, %a_log: memref<4xf32>, %dt_bias: memref<256xf32>, %cu: memref<?xi32>, %slots: memref<?xi32>, %init: memref<?xi1>, %state: memref<?x4x64x64xf32>, %o: memref<?x4x64xbf16>) {
  kda.recurrent #l config #kda.config<block_k = 64, block_v = 64, block_t = 1, warps = 4, stages = 1, lanes_k = 8, lds_stages = 2, waves_k = 2> q(%q : memref<?x2x64xbf16>) k(%k : memref<?x2x64xbf16>) v(%v : memref<?x4x64xbf16>) g(%g : memref<?x4x64xbf16>) beta(%beta : memref<?x4xbf16>) a_log(%a_log : memref<4xf32>) dt_bias(%dt_bias : memref<256xf32>) cu_seqlens(%cu : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%init : memref<?xi1>) state(%state : memref<?x4x64x64xf32>) out(%o : memref<?x4x64xbf16>)
  return
}
