// Kimi-Linear-48B-A3B, one of its 20 KDA layers: H = HV = 32, K = V = 128,
// softplus gate (A_log, dt_bias), fla's kv f32 state pool
// ([slots, HV, K, V]), bf16 activations.
#kl = #kda.layer<heads = 32, value_heads = 32, head_k = 128, head_v = 128,
                 gate = softplus, beta = sigmoid, qk_l2norm = true,
                 act = bf16, state = f32, state_layout = kv>

func.func @kimi_linear_recurrent(
    %q: memref<?x32x128xbf16>, %k: memref<?x32x128xbf16>,
    %v: memref<?x32x128xbf16>, %g: memref<?x32x128xbf16>,
    %beta: memref<?x32xbf16>, %a_log: memref<32xf32>, %dt_bias: memref<4096xf32>,
    %cu_seqlens: memref<?xi32>, %slots: memref<?xi32>, %has_init: memref<?xi1>,
    %state: memref<?x32x128x128xf32>, %o: memref<?x32x128xbf16>) {
  kda.recurrent #kl
      q(%q : memref<?x32x128xbf16>) k(%k : memref<?x32x128xbf16>)
      v(%v : memref<?x32x128xbf16>) g(%g : memref<?x32x128xbf16>)
      beta(%beta : memref<?x32xbf16>)
      a_log(%a_log : memref<32xf32>) dt_bias(%dt_bias : memref<4096xf32>)
      cu_seqlens(%cu_seqlens : memref<?xi32>) slots(%slots : memref<?xi32>)
      has_initial_state(%has_init : memref<?xi1>)
      state(%state : memref<?x32x128x128xf32>) out(%o : memref<?x32x128xbf16>)
  return
}

func.func @kimi_linear_chunk(
    %q: memref<?x32x128xbf16>, %k: memref<?x32x128xbf16>,
    %v: memref<?x32x128xbf16>, %g: memref<?x32x128xbf16>,
    %beta: memref<?x32xbf16>, %a_log: memref<32xf32>, %dt_bias: memref<4096xf32>,
    %cu_seqlens: memref<?xi32>, %slots: memref<?xi32>, %has_init: memref<?xi1>,
    %state: memref<?x32x128x128xf32>, %o: memref<?x32x128xbf16>) {
  kda.chunk #kl
      q(%q : memref<?x32x128xbf16>) k(%k : memref<?x32x128xbf16>)
      v(%v : memref<?x32x128xbf16>) g(%g : memref<?x32x128xbf16>)
      beta(%beta : memref<?x32xbf16>)
      a_log(%a_log : memref<32xf32>) dt_bias(%dt_bias : memref<4096xf32>)
      cu_seqlens(%cu_seqlens : memref<?xi32>) slots(%slots : memref<?xi32>)
      has_initial_state(%has_init : memref<?xi1>)
      state(%state : memref<?x32x128x128xf32>) out(%o : memref<?x32x128xbf16>)
  return
}
