// One layer, two functions that disagree on the gate's optional operands:
// the chunk function reads a_log, its recurrent twin does not. kda-compile
// builds both (each function is a layer of its own); kda_forward must
// refuse the pair, or a row's gate would depend on which path its length
// sends it down (ForwardTest's RefusesKernelsReadingOtherGateOperands).
// A third function, a recurrent layer whose gate's lower bound differs
// (-4), reads what the chunk one reads: the pair is refused naming the
// field (RefusesKernelsOfAnotherLayer).
#l = #kda.layer<heads = 1, value_heads = 1, head_k = 32, head_v = 16, gate = lower_bound(-5.0), beta = sigmoid, qk_l2norm = true, act = bf16, state = f32, state_layout = vk>
func.func @um(%q: memref<?x1x32xbf16>, %k: memref<?x1x32xbf16>, %v: memref<?x1x16xbf16>, %g: memref<?x1x32xbf16>, %beta: memref<?x1xbf16>, %a_log: memref<1xf32>, %dt_bias: memref<32xf32>, %cu: memref<?xi32>, %slots: memref<?xi32>, %init: memref<?xi1>, %state: memref<?x1x16x32xf32>, %o: memref<?x1x16xbf16>) {
  kda.chunk #l q(%q : memref<?x1x32xbf16>) k(%k : memref<?x1x32xbf16>) v(%v : memref<?x1x16xbf16>) g(%g : memref<?x1x32xbf16>) beta(%beta : memref<?x1xbf16>) a_log(%a_log : memref<1xf32>) dt_bias(%dt_bias : memref<32xf32>) cu_seqlens(%cu : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%init : memref<?xi1>) state(%state : memref<?x1x16x32xf32>) out(%o : memref<?x1x16xbf16>) {chunk_size = 16 : i64}
  return
}
func.func @um_recurrent(%q: memref<?x1x32xbf16>, %k: memref<?x1x32xbf16>, %v: memref<?x1x16xbf16>, %g: memref<?x1x32xbf16>, %beta: memref<?x1xbf16>, %dt_bias: memref<32xf32>, %cu: memref<?xi32>, %slots: memref<?xi32>, %init: memref<?xi1>, %state: memref<?x1x16x32xf32>, %o: memref<?x1x16xbf16>) {
  kda.recurrent #l q(%q : memref<?x1x32xbf16>) k(%k : memref<?x1x32xbf16>) v(%v : memref<?x1x16xbf16>) g(%g : memref<?x1x32xbf16>) beta(%beta : memref<?x1xbf16>) dt_bias(%dt_bias : memref<32xf32>) cu_seqlens(%cu : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%init : memref<?xi1>) state(%state : memref<?x1x16x32xf32>) out(%o : memref<?x1x16xbf16>)
  return
}
#m = #kda.layer<heads = 1, value_heads = 1, head_k = 32, head_v = 16, gate = lower_bound(-4.0), beta = sigmoid, qk_l2norm = true, act = bf16, state = f32, state_layout = vk>
func.func @um_lb4(%q: memref<?x1x32xbf16>, %k: memref<?x1x32xbf16>, %v: memref<?x1x16xbf16>, %g: memref<?x1x32xbf16>, %beta: memref<?x1xbf16>, %a_log: memref<1xf32>, %dt_bias: memref<32xf32>, %cu: memref<?xi32>, %slots: memref<?xi32>, %init: memref<?xi1>, %state: memref<?x1x16x32xf32>, %o: memref<?x1x16xbf16>) {
  kda.recurrent #m q(%q : memref<?x1x32xbf16>) k(%k : memref<?x1x32xbf16>) v(%v : memref<?x1x16xbf16>) g(%g : memref<?x1x32xbf16>) beta(%beta : memref<?x1xbf16>) a_log(%a_log : memref<1xf32>) dt_bias(%dt_bias : memref<32xf32>) cu_seqlens(%cu : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%init : memref<?xi1>) state(%state : memref<?x1x16x32xf32>) out(%o : memref<?x1x16xbf16>)
  return
}
