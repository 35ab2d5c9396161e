// Numeric test layer: shared_terms = 1 with each column's k split over
// waves (waves_k 4, lanes_k 2: the kv layout's "lanes along v" shape) in
// one pass, GVA, lower_bound gate with A_log and dt_bias, f32 kv pool. The
// first token's terms come normalised from LDS, each wave reading its
// quarter of k; the token's exchange carries only the column sums. Later
// tokens of a row compute their own terms (row sums through the exchange).
#l = #kda.layer<heads = 2, value_heads = 4, head_k = 64, head_v = 64, gate = lower_bound(-5.0), beta = sigmoid, qk_l2norm = true, act = bf16, state = f32, state_layout = kv>
func.func @linear_shared_wavesk(%q: memref<?x2x64xbf16>, %k: memref<?x2x64xbf16>, %v: memref<?x4x64xbf16>, %g: memref<?x4x64xbf16>, %beta: memref<?x4xbf16>, %a_log: memref<4xf32>, %dt_bias: memref<256xf32>, %cu: memref<?xi32>, %slots: memref<?xi32>, %init: memref<?xi1>, %state: memref<?x4x64x64xf32>, %o: memref<?x4x64xbf16>) {
  kda.recurrent #l config #kda.config<block_k = 64, block_v = 32, block_t = 1, warps = 4, stages = 1, lanes_k = 2, waves_k = 4, shared_terms = 1> q(%q : memref<?x2x64xbf16>) k(%k : memref<?x2x64xbf16>) v(%v : memref<?x4x64xbf16>) g(%g : memref<?x4x64xbf16>) beta(%beta : memref<?x4xbf16>) a_log(%a_log : memref<4xf32>) dt_bias(%dt_bias : memref<256xf32>) cu_seqlens(%cu : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%init : memref<?xi1>) state(%state : memref<?x4x64x64xf32>) out(%o : memref<?x4x64xbf16>)
  return
}
