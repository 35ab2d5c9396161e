// Numeric test layer: passes over the columns with k split over waves (kv,
// bf16 state pool, v_passes = 2, waves_k = 2): the partial sums of every
// pass meet in the same LDS exchange.
#l = #kda.layer<heads = 2, value_heads = 2, head_k = 64, head_v = 64, gate = softplus, beta = sigmoid, qk_l2norm = true, act = bf16, state = bf16, state_layout = kv>
func.func @linear_passes(%q: memref<?x2x64xbf16>, %k: memref<?x2x64xbf16>, %v: memref<?x2x64xbf16>, %g: memref<?x2x64xbf16>, %beta: memref<?x2xbf16>, %a_log: memref<2xf32>, %dt_bias: memref<128xf32>, %cu: memref<?xi32>, %slots: memref<?xi32>, %init: memref<?xi1>, %state: memref<?x2x64x64xbf16>, %o: memref<?x2x64xbf16>) {
  kda.recurrent #l config #kda.config<block_k = 64, block_v = 32, block_t = 1, warps = 2, stages = 1, lanes_k = 8, waves_k = 2, v_passes = 2> q(%q : memref<?x2x64xbf16>) k(%k : memref<?x2x64xbf16>) v(%v : memref<?x2x64xbf16>) g(%g : memref<?x2x64xbf16>) beta(%beta : memref<?x2xbf16>) a_log(%a_log : memref<2xf32>) dt_bias(%dt_bias : memref<128xf32>) cu_seqlens(%cu : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%init : memref<?xi1>) state(%state : memref<?x2x64x64xbf16>) out(%o : memref<?x2x64xbf16>)
  return
}
