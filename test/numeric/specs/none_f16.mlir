// Numeric test layer: none_f16 (compiled for the emulator by the test build).
#l = #kda.layer<heads = 1, value_heads = 2, head_k = 32, head_v = 32, gate = none, beta = given, qk_l2norm = false, scale = 0.25, act = f16, state = f32, state_layout = kv>
func.func @none_f16(%q: memref<?x1x32xf16>, %k: memref<?x1x32xf16>, %v: memref<?x2x32xf16>, %g: memref<?x2x32xf32>, %beta: memref<?x2xf32>, %cu: memref<?xi32>, %slots: memref<?xi32>, %init: memref<?xi1>, %state: memref<?x2x32x32xf32>, %o: memref<?x2x32xf16>) {
  kda.recurrent #l q(%q : memref<?x1x32xf16>) k(%k : memref<?x1x32xf16>) v(%v : memref<?x2x32xf16>) g(%g : memref<?x2x32xf32>) beta(%beta : memref<?x2xf32>) cu_seqlens(%cu : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%init : memref<?xi1>) state(%state : memref<?x2x32x32xf32>) out(%o : memref<?x2x32xf16>)
  return
}
