// Numeric test layer: shared_terms = 1 on a bf16 kv pool with k split over
// two waves and the columns in two passes, head_k = head_v = 60 (each
// lane's k-run past 60 masked, in the terms and in the state; the last
// block's columns past 60 too), softplus gate.
#l = #kda.layer<heads = 2, value_heads = 2, head_k = 60, head_v = 60, gate = softplus, beta = sigmoid, qk_l2norm = true, act = bf16, state = bf16, state_layout = kv>
func.func @k3_shared_wavesk(%q: memref<?x2x60xbf16>, %k: memref<?x2x60xbf16>, %v: memref<?x2x60xbf16>, %g: memref<?x2x60xbf16>, %beta: memref<?x2xbf16>, %a_log: memref<2xf32>, %dt_bias: memref<120xf32>, %cu: memref<?xi32>, %slots: memref<?xi32>, %init: memref<?xi1>, %state: memref<?x2x60x60xbf16>, %o: memref<?x2x60xbf16>) {
  kda.recurrent #l config #kda.config<block_k = 60, block_v = 32, block_t = 1, warps = 2, stages = 1, lanes_k = 4, waves_k = 2, v_passes = 2, shared_terms = 1> q(%q : memref<?x2x60xbf16>) k(%k : memref<?x2x60xbf16>) v(%v : memref<?x2x60xbf16>) g(%g : memref<?x2x60xbf16>) beta(%beta : memref<?x2xbf16>) a_log(%a_log : memref<2xf32>) dt_bias(%dt_bias : memref<120xf32>) cu_seqlens(%cu : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%init : memref<?xi1>) state(%state : memref<?x2x60x60xbf16>) out(%o : memref<?x2x60xbf16>)
  return
}
