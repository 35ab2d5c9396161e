// Kernel variants of k3_small (RecurrentKernelBuilder.cpp, "row variants"),
// run through kda_forward by ForwardTest and the Python package tests:
// speculative rows (3 slots per row: num_spec = 2), slot < 0 padding (slot 0
// a real slot), and slots 8192 elements apart (a view of a cache that keeps
// 4096 more elements per slot beside each 2 x 32 x 64 state); and the
// speculative rows again with their columns in 2 passes sharing a row's
// first token's terms (shared_terms = 1: the state after every token still
// stored, the later tokens' terms their own).
#l = #kda.layer<heads = 2, value_heads = 2, head_k = 64, head_v = 32, gate = lower_bound(-5.0), beta = sigmoid, qk_l2norm = true, act = bf16, state = f32, state_layout = vk>
func.func @k3_spec(%q: memref<?x2x64xbf16>, %k: memref<?x2x64xbf16>, %v: memref<?x2x32xbf16>, %g: memref<?x2x64xbf16>, %beta: memref<?x2xbf16>, %a_log: memref<2xf32>, %dt_bias: memref<128xf32>, %cu: memref<?xi32>, %slots: memref<?xi32>, %init: memref<?xi1>, %state: memref<?x2x32x64xf32>, %o: memref<?x2x32xbf16>) {
  kda.recurrent #l q(%q : memref<?x2x64xbf16>) k(%k : memref<?x2x64xbf16>) v(%v : memref<?x2x32xbf16>) g(%g : memref<?x2x64xbf16>) beta(%beta : memref<?x2xbf16>) a_log(%a_log : memref<2xf32>) dt_bias(%dt_bias : memref<128xf32>) cu_seqlens(%cu : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%init : memref<?xi1>) state(%state : memref<?x2x32x64xf32>) out(%o : memref<?x2x32xbf16>) {kda.spec_tokens = 3 : i64}
  return
}
func.func @k3_spec_shared(%q: memref<?x2x64xbf16>, %k: memref<?x2x64xbf16>, %v: memref<?x2x32xbf16>, %g: memref<?x2x64xbf16>, %beta: memref<?x2xbf16>, %a_log: memref<2xf32>, %dt_bias: memref<128xf32>, %cu: memref<?xi32>, %slots: memref<?xi32>, %init: memref<?xi1>, %state: memref<?x2x32x64xf32>, %o: memref<?x2x32xbf16>) {
  kda.recurrent #l config #kda.config<block_k = 64, block_v = 16, block_t = 1, warps = 1, stages = 1, lanes_k = 16, v_passes = 2, shared_terms = 1> q(%q : memref<?x2x64xbf16>) k(%k : memref<?x2x64xbf16>) v(%v : memref<?x2x32xbf16>) g(%g : memref<?x2x64xbf16>) beta(%beta : memref<?x2xbf16>) a_log(%a_log : memref<2xf32>) dt_bias(%dt_bias : memref<128xf32>) cu_seqlens(%cu : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%init : memref<?xi1>) state(%state : memref<?x2x32x64xf32>) out(%o : memref<?x2x32xbf16>) {kda.spec_tokens = 3 : i64}
  return
}
func.func @k3_negative(%q: memref<?x2x64xbf16>, %k: memref<?x2x64xbf16>, %v: memref<?x2x32xbf16>, %g: memref<?x2x64xbf16>, %beta: memref<?x2xbf16>, %a_log: memref<2xf32>, %dt_bias: memref<128xf32>, %cu: memref<?xi32>, %slots: memref<?xi32>, %init: memref<?xi1>, %state: memref<?x2x32x64xf32>, %o: memref<?x2x32xbf16>) {
  kda.recurrent #l q(%q : memref<?x2x64xbf16>) k(%k : memref<?x2x64xbf16>) v(%v : memref<?x2x32xbf16>) g(%g : memref<?x2x64xbf16>) beta(%beta : memref<?x2xbf16>) a_log(%a_log : memref<2xf32>) dt_bias(%dt_bias : memref<128xf32>) cu_seqlens(%cu : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%init : memref<?xi1>) state(%state : memref<?x2x32x64xf32>) out(%o : memref<?x2x32xbf16>) {kda.padding = "negative"}
  return
}
func.func @k3_strided(%q: memref<?x2x64xbf16>, %k: memref<?x2x64xbf16>, %v: memref<?x2x32xbf16>, %g: memref<?x2x64xbf16>, %beta: memref<?x2xbf16>, %a_log: memref<2xf32>, %dt_bias: memref<128xf32>, %cu: memref<?xi32>, %slots: memref<?xi32>, %init: memref<?xi1>, %state: memref<?x2x32x64xf32>, %o: memref<?x2x32xbf16>) {
  kda.recurrent #l q(%q : memref<?x2x64xbf16>) k(%k : memref<?x2x64xbf16>) v(%v : memref<?x2x32xbf16>) g(%g : memref<?x2x64xbf16>) beta(%beta : memref<?x2xbf16>) a_log(%a_log : memref<2xf32>) dt_bias(%dt_bias : memref<128xf32>) cu_seqlens(%cu : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%init : memref<?xi1>) state(%state : memref<?x2x32x64xf32>) out(%o : memref<?x2x32xbf16>) {kda.slot_stride = 8192 : i64}
  return
}
