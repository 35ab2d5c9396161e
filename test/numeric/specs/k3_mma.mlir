// Numeric test layer: bf16 state pool (vk, lower_bound gate) with mma = 1:
// the column sums by the target's matrix atom (mma.sync m16n8k16 on emu32,
// MFMA 16x16x16 on emu), two workgroups of columns per head.
#l = #kda.layer<heads = 2, value_heads = 2, head_k = 64, head_v = 32, gate = lower_bound(-5.0), beta = sigmoid, qk_l2norm = true, act = bf16, state = bf16, state_layout = vk>
func.func @k3_mma(%q: memref<?x2x64xbf16>, %k: memref<?x2x64xbf16>, %v: memref<?x2x32xbf16>, %g: memref<?x2x64xbf16>, %beta: memref<?x2xbf16>, %a_log: memref<2xf32>, %dt_bias: memref<128xf32>, %cu: memref<?xi32>, %slots: memref<?xi32>, %init: memref<?xi1>, %state: memref<?x2x32x64xbf16>, %o: memref<?x2x32xbf16>) {
  kda.recurrent #l config #kda.config<block_k = 64, block_v = 16, block_t = 1, warps = 1, stages = 1, mma = 1> q(%q : memref<?x2x64xbf16>) k(%k : memref<?x2x64xbf16>) v(%v : memref<?x2x32xbf16>) g(%g : memref<?x2x64xbf16>) beta(%beta : memref<?x2xbf16>) a_log(%a_log : memref<2xf32>) dt_bias(%dt_bias : memref<128xf32>) cu_seqlens(%cu : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%init : memref<?xi1>) state(%state : memref<?x2x32x64xbf16>) out(%o : memref<?x2x32xbf16>)
  return
}
