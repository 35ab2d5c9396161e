// The prefill benchmark layers of issue 8 on the H200: K = V = 128,
// lower_bound(-5) gate with A_log and dt_bias, sigmoid beta, l2norm, bf16
// activations, vLLM's vk f32 state pool; H = 32 (B1 T8192, 4 x 4096, varlen
// 16 rows) and H = 8 (B1 T32768). The recurrent twins time the same rows
// through the token-serial kernel (the planner's threshold). chunk_h32_s2 is
// chunk_h32 with the scan's W and U rows in a depth-2 verified pipeline.
// Both list the 128-column scan too (self-staged on sm_90: its rows by
// cp.async pieces), which the runtime picks for 4 x 4096 and varlen 16 H32.
#h32 = #kda.layer<heads = 32, value_heads = 32, head_k = 128, head_v = 128, gate = lower_bound(-5.0), beta = sigmoid, qk_l2norm = true, act = bf16, state = f32, state_layout = vk>
#h8 = #kda.layer<heads = 8, value_heads = 8, head_k = 128, head_v = 128, gate = lower_bound(-5.0), beta = sigmoid, qk_l2norm = true, act = bf16, state = f32, state_layout = vk>
func.func @chunk_h32(%q: memref<?x32x128xbf16>, %k: memref<?x32x128xbf16>, %v: memref<?x32x128xbf16>, %g: memref<?x32x128xbf16>, %beta: memref<?x32xbf16>, %a_log: memref<32xf32>, %dt_bias: memref<4096xf32>, %cu: memref<?xi32>, %slots: memref<?xi32>, %init: memref<?xi1>, %state: memref<?x32x128x128xf32>, %o: memref<?x32x128xbf16>) {
  kda.chunk #h32 q(%q : memref<?x32x128xbf16>) k(%k : memref<?x32x128xbf16>) v(%v : memref<?x32x128xbf16>) g(%g : memref<?x32x128xbf16>) beta(%beta : memref<?x32xbf16>) a_log(%a_log : memref<32xf32>) dt_bias(%dt_bias : memref<4096xf32>) cu_seqlens(%cu : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%init : memref<?xi1>) state(%state : memref<?x32x128x128xf32>) out(%o : memref<?x32x128xbf16>) {chunk_size = 64 : i64, scan_block_v = array<i64: 16, 32, 64, 128>}
  return
}
func.func @chunk_h32_s2(%q: memref<?x32x128xbf16>, %k: memref<?x32x128xbf16>, %v: memref<?x32x128xbf16>, %g: memref<?x32x128xbf16>, %beta: memref<?x32xbf16>, %a_log: memref<32xf32>, %dt_bias: memref<4096xf32>, %cu: memref<?xi32>, %slots: memref<?xi32>, %init: memref<?xi1>, %state: memref<?x32x128x128xf32>, %o: memref<?x32x128xbf16>) {
  kda.chunk #h32 q(%q : memref<?x32x128xbf16>) k(%k : memref<?x32x128xbf16>) v(%v : memref<?x32x128xbf16>) g(%g : memref<?x32x128xbf16>) beta(%beta : memref<?x32xbf16>) a_log(%a_log : memref<32xf32>) dt_bias(%dt_bias : memref<4096xf32>) cu_seqlens(%cu : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%init : memref<?xi1>) state(%state : memref<?x32x128x128xf32>) out(%o : memref<?x32x128xbf16>) {chunk_size = 64 : i64, scan_stages = 2 : i64}
  return
}
func.func @chunk_h8(%q: memref<?x8x128xbf16>, %k: memref<?x8x128xbf16>, %v: memref<?x8x128xbf16>, %g: memref<?x8x128xbf16>, %beta: memref<?x8xbf16>, %a_log: memref<8xf32>, %dt_bias: memref<1024xf32>, %cu: memref<?xi32>, %slots: memref<?xi32>, %init: memref<?xi1>, %state: memref<?x8x128x128xf32>, %o: memref<?x8x128xbf16>) {
  kda.chunk #h8 q(%q : memref<?x8x128xbf16>) k(%k : memref<?x8x128xbf16>) v(%v : memref<?x8x128xbf16>) g(%g : memref<?x8x128xbf16>) beta(%beta : memref<?x8xbf16>) a_log(%a_log : memref<8xf32>) dt_bias(%dt_bias : memref<1024xf32>) cu_seqlens(%cu : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%init : memref<?xi1>) state(%state : memref<?x8x128x128xf32>) out(%o : memref<?x8x128xbf16>) {chunk_size = 64 : i64, scan_block_v = array<i64: 16, 32, 64, 128>}
  return
}
func.func @recurrent_h32(%q: memref<?x32x128xbf16>, %k: memref<?x32x128xbf16>, %v: memref<?x32x128xbf16>, %g: memref<?x32x128xbf16>, %beta: memref<?x32xbf16>, %a_log: memref<32xf32>, %dt_bias: memref<4096xf32>, %cu: memref<?xi32>, %slots: memref<?xi32>, %init: memref<?xi1>, %state: memref<?x32x128x128xf32>, %o: memref<?x32x128xbf16>) {
  kda.recurrent #h32 q(%q : memref<?x32x128xbf16>) k(%k : memref<?x32x128xbf16>) v(%v : memref<?x32x128xbf16>) g(%g : memref<?x32x128xbf16>) beta(%beta : memref<?x32xbf16>) a_log(%a_log : memref<32xf32>) dt_bias(%dt_bias : memref<4096xf32>) cu_seqlens(%cu : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%init : memref<?xi1>) state(%state : memref<?x32x128x128xf32>) out(%o : memref<?x32x128xbf16>)
  return
}
func.func @recurrent_h8(%q: memref<?x8x128xbf16>, %k: memref<?x8x128xbf16>, %v: memref<?x8x128xbf16>, %g: memref<?x8x128xbf16>, %beta: memref<?x8xbf16>, %a_log: memref<8xf32>, %dt_bias: memref<1024xf32>, %cu: memref<?xi32>, %slots: memref<?xi32>, %init: memref<?xi1>, %state: memref<?x8x128x128xf32>, %o: memref<?x8x128xbf16>) {
  kda.recurrent #h8 q(%q : memref<?x8x128xbf16>) k(%k : memref<?x8x128xbf16>) v(%v : memref<?x8x128xbf16>) g(%g : memref<?x8x128xbf16>) beta(%beta : memref<?x8xbf16>) a_log(%a_log : memref<8xf32>) dt_bias(%dt_bias : memref<1024xf32>) cu_seqlens(%cu : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%init : memref<?xi1>) state(%state : memref<?x8x128x128xf32>) out(%o : memref<?x8x128xbf16>)
  return
}
