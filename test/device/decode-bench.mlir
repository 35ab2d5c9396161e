// Decode benchmark layers for the H200 (test/device/run-h200.sh): K = V = 128,
// H in {12, 32}, both state layouts, the lower_bound gate with A_log and
// dt_bias in the kernel, bf16 activations, f32 state. Same work as the fla
// fused_recurrent_kda calls it is compared with.

#l_h12_vk = #kda.layer<heads = 12, value_heads = 12, head_k = 128, head_v = 128, gate = lower_bound(-5.0), beta = sigmoid, qk_l2norm = true, act = bf16, state = f32, state_layout = vk>
func.func @decode_h12_vk(%q: memref<?x12x128xbf16>, %k: memref<?x12x128xbf16>, %v: memref<?x12x128xbf16>, %g: memref<?x12x128xbf16>, %beta: memref<?x12xbf16>, %a_log: memref<12xf32>, %dt_bias: memref<1536xf32>, %cu: memref<?xi32>, %slots: memref<?xi32>, %init: memref<?xi1>, %state: memref<?x12x128x128xf32>, %o: memref<?x12x128xbf16>) {
  kda.recurrent #l_h12_vk q(%q : memref<?x12x128xbf16>) k(%k : memref<?x12x128xbf16>) v(%v : memref<?x12x128xbf16>) g(%g : memref<?x12x128xbf16>) beta(%beta : memref<?x12xbf16>) a_log(%a_log : memref<12xf32>) dt_bias(%dt_bias : memref<1536xf32>) cu_seqlens(%cu : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%init : memref<?xi1>) state(%state : memref<?x12x128x128xf32>) out(%o : memref<?x12x128xbf16>)
  return
}

#l_h12_kv = #kda.layer<heads = 12, value_heads = 12, head_k = 128, head_v = 128, gate = lower_bound(-5.0), beta = sigmoid, qk_l2norm = true, act = bf16, state = f32, state_layout = kv>
func.func @decode_h12_kv(%q: memref<?x12x128xbf16>, %k: memref<?x12x128xbf16>, %v: memref<?x12x128xbf16>, %g: memref<?x12x128xbf16>, %beta: memref<?x12xbf16>, %a_log: memref<12xf32>, %dt_bias: memref<1536xf32>, %cu: memref<?xi32>, %slots: memref<?xi32>, %init: memref<?xi1>, %state: memref<?x12x128x128xf32>, %o: memref<?x12x128xbf16>) {
  kda.recurrent #l_h12_kv q(%q : memref<?x12x128xbf16>) k(%k : memref<?x12x128xbf16>) v(%v : memref<?x12x128xbf16>) g(%g : memref<?x12x128xbf16>) beta(%beta : memref<?x12xbf16>) a_log(%a_log : memref<12xf32>) dt_bias(%dt_bias : memref<1536xf32>) cu_seqlens(%cu : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%init : memref<?xi1>) state(%state : memref<?x12x128x128xf32>) out(%o : memref<?x12x128xbf16>)
  return
}

#l_h32_vk = #kda.layer<heads = 32, value_heads = 32, head_k = 128, head_v = 128, gate = lower_bound(-5.0), beta = sigmoid, qk_l2norm = true, act = bf16, state = f32, state_layout = vk>
func.func @decode_h32_vk(%q: memref<?x32x128xbf16>, %k: memref<?x32x128xbf16>, %v: memref<?x32x128xbf16>, %g: memref<?x32x128xbf16>, %beta: memref<?x32xbf16>, %a_log: memref<32xf32>, %dt_bias: memref<4096xf32>, %cu: memref<?xi32>, %slots: memref<?xi32>, %init: memref<?xi1>, %state: memref<?x32x128x128xf32>, %o: memref<?x32x128xbf16>) {
  kda.recurrent #l_h32_vk q(%q : memref<?x32x128xbf16>) k(%k : memref<?x32x128xbf16>) v(%v : memref<?x32x128xbf16>) g(%g : memref<?x32x128xbf16>) beta(%beta : memref<?x32xbf16>) a_log(%a_log : memref<32xf32>) dt_bias(%dt_bias : memref<4096xf32>) cu_seqlens(%cu : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%init : memref<?xi1>) state(%state : memref<?x32x128x128xf32>) out(%o : memref<?x32x128xbf16>)
  return
}

#l_h32_kv = #kda.layer<heads = 32, value_heads = 32, head_k = 128, head_v = 128, gate = lower_bound(-5.0), beta = sigmoid, qk_l2norm = true, act = bf16, state = f32, state_layout = kv>
func.func @decode_h32_kv(%q: memref<?x32x128xbf16>, %k: memref<?x32x128xbf16>, %v: memref<?x32x128xbf16>, %g: memref<?x32x128xbf16>, %beta: memref<?x32xbf16>, %a_log: memref<32xf32>, %dt_bias: memref<4096xf32>, %cu: memref<?xi32>, %slots: memref<?xi32>, %init: memref<?xi1>, %state: memref<?x32x128x128xf32>, %o: memref<?x32x128xbf16>) {
  kda.recurrent #l_h32_kv q(%q : memref<?x32x128xbf16>) k(%k : memref<?x32x128xbf16>) v(%v : memref<?x32x128xbf16>) g(%g : memref<?x32x128xbf16>) beta(%beta : memref<?x32xbf16>) a_log(%a_log : memref<32xf32>) dt_bias(%dt_bias : memref<4096xf32>) cu_seqlens(%cu : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%init : memref<?xi1>) state(%state : memref<?x32x128x128xf32>) out(%o : memref<?x32x128xbf16>)
  return
}
