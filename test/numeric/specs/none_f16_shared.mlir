// Numeric test layer: shared_terms = 1 on a packed bf16 vk pool with a
// whole wave of lanes on a column (lanes_k 32: emu32's wave), without
// qk_l2norm, gate none, f16 activations, a given beta: the shared terms
// then carry no norms, and k.q is the raw product, scaled.
#l = #kda.layer<heads = 1, value_heads = 2, head_k = 64, head_v = 32, gate = none, beta = given, qk_l2norm = false, scale = 0.25, act = f16, state = bf16, state_layout = vk>
func.func @none_f16_shared(%q: memref<?x1x64xf16>, %k: memref<?x1x64xf16>, %v: memref<?x2x32xf16>, %g: memref<?x2x64xf32>, %beta: memref<?x2xf32>, %cu: memref<?xi32>, %slots: memref<?xi32>, %init: memref<?xi1>, %state: memref<?x2x32x64xbf16>, %o: memref<?x2x32xf16>) {
  kda.recurrent #l config #kda.config<block_k = 64, block_v = 16, block_t = 1, warps = 1, stages = 1, lanes_k = 32, v_passes = 2, shared_terms = 1> q(%q : memref<?x1x64xf16>) k(%k : memref<?x1x64xf16>) v(%v : memref<?x2x32xf16>) g(%g : memref<?x2x64xf32>) beta(%beta : memref<?x2xf32>) cu_seqlens(%cu : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%init : memref<?xi1>) state(%state : memref<?x2x32x64xbf16>) out(%o : memref<?x2x32xf16>)
  return
}
