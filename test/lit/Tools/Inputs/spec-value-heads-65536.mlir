// A layer the dialect accepts whose recurrent kernel would launch 65536
// workgroups in grid y (one a value head): more than any launch takes.
#l = #kda.layer<heads = 1, value_heads = 65536, head_k = 64, head_v = 32, gate = lower_bound(-5.0), beta = sigmoid, qk_l2norm = true, act = bf16, state = f32, state_layout = vk>
func.func @wide(%q: memref<?x1x64xbf16>, %k: memref<?x1x64xbf16>, %v: memref<?x65536x32xbf16>, %g: memref<?x65536x64xbf16>, %beta: memref<?x65536xbf16>, %a_log: memref<65536xf32>, %dt_bias: memref<4194304xf32>, %cu: memref<?xi32>, %slots: memref<?xi32>, %init: memref<?xi1>, %state: memref<?x65536x32x64xf32>, %o: memref<?x65536x32xbf16>) {
  kda.recurrent #l q(%q : memref<?x1x64xbf16>) k(%k : memref<?x1x64xbf16>) v(%v : memref<?x65536x32xbf16>) g(%g : memref<?x65536x64xbf16>) beta(%beta : memref<?x65536xbf16>) a_log(%a_log : memref<65536xf32>) dt_bias(%dt_bias : memref<4194304xf32>) cu_seqlens(%cu : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%init : memref<?xi1>) state(%state : memref<?x65536x32x64xf32>) out(%o : memref<?x65536x32xbf16>)
  return
}
