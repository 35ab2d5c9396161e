// The recurrent kernel with token rows staged through a verified LDS
// pipeline (lds_stages 2 and 3), H = 32, K = V = 128, both layouts: numerics
// of the barrier and async copy atoms on the H200 (test/device/run-h200.sh)
// and its time beside the direct-load default, whose configs these are (with
// lds_stages added), for one-token rows and rows of 16 tokens.

func.func @pipelined_vk_d2(%q: memref<?x32x128xbf16>, %k: memref<?x32x128xbf16>, %v: memref<?x32x128xbf16>, %g: memref<?x32x128xbf16>, %beta: memref<?x32xbf16>, %a_log: memref<32xf32>, %dt_bias: memref<4096xf32>, %cu: memref<?xi32>, %slots: memref<?xi32>, %init: memref<?xi1>, %state: memref<?x32x128x128xf32>, %o: memref<?x32x128xbf16>) {
  kda.recurrent #kda.layer<heads = 32, value_heads = 32, head_k = 128, head_v = 128, gate = lower_bound(-5.0), beta = sigmoid, qk_l2norm = true, act = bf16, state = f32, state_layout = vk> config #kda.config<block_k = 128, block_v = 8, block_t = 1, warps = 2, stages = 1, lanes_k = 32, lds_stages = 2> q(%q : memref<?x32x128xbf16>) k(%k : memref<?x32x128xbf16>) v(%v : memref<?x32x128xbf16>) g(%g : memref<?x32x128xbf16>) beta(%beta : memref<?x32xbf16>) a_log(%a_log : memref<32xf32>) dt_bias(%dt_bias : memref<4096xf32>) cu_seqlens(%cu : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%init : memref<?xi1>) state(%state : memref<?x32x128x128xf32>) out(%o : memref<?x32x128xbf16>)
  return
}

func.func @pipelined_vk_d3(%q: memref<?x32x128xbf16>, %k: memref<?x32x128xbf16>, %v: memref<?x32x128xbf16>, %g: memref<?x32x128xbf16>, %beta: memref<?x32xbf16>, %a_log: memref<32xf32>, %dt_bias: memref<4096xf32>, %cu: memref<?xi32>, %slots: memref<?xi32>, %init: memref<?xi1>, %state: memref<?x32x128x128xf32>, %o: memref<?x32x128xbf16>) {
  kda.recurrent #kda.layer<heads = 32, value_heads = 32, head_k = 128, head_v = 128, gate = lower_bound(-5.0), beta = sigmoid, qk_l2norm = true, act = bf16, state = f32, state_layout = vk> config #kda.config<block_k = 128, block_v = 8, block_t = 1, warps = 2, stages = 1, lanes_k = 32, lds_stages = 3> q(%q : memref<?x32x128xbf16>) k(%k : memref<?x32x128xbf16>) v(%v : memref<?x32x128xbf16>) g(%g : memref<?x32x128xbf16>) beta(%beta : memref<?x32xbf16>) a_log(%a_log : memref<32xf32>) dt_bias(%dt_bias : memref<4096xf32>) cu_seqlens(%cu : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%init : memref<?xi1>) state(%state : memref<?x32x128x128xf32>) out(%o : memref<?x32x128xbf16>)
  return
}

func.func @pipelined_kv_d2(%q: memref<?x32x128xbf16>, %k: memref<?x32x128xbf16>, %v: memref<?x32x128xbf16>, %g: memref<?x32x128xbf16>, %beta: memref<?x32xbf16>, %a_log: memref<32xf32>, %dt_bias: memref<4096xf32>, %cu: memref<?xi32>, %slots: memref<?xi32>, %init: memref<?xi1>, %state: memref<?x32x128x128xf32>, %o: memref<?x32x128xbf16>) {
  kda.recurrent #kda.layer<heads = 32, value_heads = 32, head_k = 128, head_v = 128, gate = lower_bound(-5.0), beta = sigmoid, qk_l2norm = true, act = bf16, state = f32, state_layout = kv> config #kda.config<block_k = 128, block_v = 32, block_t = 1, warps = 1, stages = 1, lanes_k = 8, lds_stages = 2> q(%q : memref<?x32x128xbf16>) k(%k : memref<?x32x128xbf16>) v(%v : memref<?x32x128xbf16>) g(%g : memref<?x32x128xbf16>) beta(%beta : memref<?x32xbf16>) a_log(%a_log : memref<32xf32>) dt_bias(%dt_bias : memref<4096xf32>) cu_seqlens(%cu : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%init : memref<?xi1>) state(%state : memref<?x32x128x128xf32>) out(%o : memref<?x32x128xbf16>)
  return
}

func.func @pipelined_kv_d3(%q: memref<?x32x128xbf16>, %k: memref<?x32x128xbf16>, %v: memref<?x32x128xbf16>, %g: memref<?x32x128xbf16>, %beta: memref<?x32xbf16>, %a_log: memref<32xf32>, %dt_bias: memref<4096xf32>, %cu: memref<?xi32>, %slots: memref<?xi32>, %init: memref<?xi1>, %state: memref<?x32x128x128xf32>, %o: memref<?x32x128xbf16>) {
  kda.recurrent #kda.layer<heads = 32, value_heads = 32, head_k = 128, head_v = 128, gate = lower_bound(-5.0), beta = sigmoid, qk_l2norm = true, act = bf16, state = f32, state_layout = kv> config #kda.config<block_k = 128, block_v = 32, block_t = 1, warps = 1, stages = 1, lanes_k = 8, lds_stages = 3> q(%q : memref<?x32x128xbf16>) k(%k : memref<?x32x128xbf16>) v(%v : memref<?x32x128xbf16>) g(%g : memref<?x32x128xbf16>) beta(%beta : memref<?x32xbf16>) a_log(%a_log : memref<32xf32>) dt_bias(%dt_bias : memref<4096xf32>) cu_seqlens(%cu : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%init : memref<?xi1>) state(%state : memref<?x32x128x128xf32>) out(%o : memref<?x32x128xbf16>)
  return
}
