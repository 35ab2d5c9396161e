// Chunk-path numeric layer: gate 'none' (g is the log decay), beta given, f16 activations, kv, 16-row chunks.
// The same layer's recurrent kernel beside it, for the length-1 comparison.
#l = #kda.layer<heads = 1, value_heads = 1, head_k = 32, head_v = 16, gate = none, beta = given, qk_l2norm = true, act = f16, state = f32, state_layout = kv>
func.func @chunk_none_c16(%q: memref<?x1x32xf16>, %k: memref<?x1x32xf16>, %v: memref<?x1x16xf16>, %g: memref<?x1x32xf16>, %beta: memref<?x1xf16>, %cu: memref<?xi32>, %slots: memref<?xi32>, %init: memref<?xi1>, %state: memref<?x1x32x16xf32>, %o: memref<?x1x16xf16>) {
  kda.chunk #l q(%q : memref<?x1x32xf16>) k(%k : memref<?x1x32xf16>) v(%v : memref<?x1x16xf16>) g(%g : memref<?x1x32xf16>) beta(%beta : memref<?x1xf16>) cu_seqlens(%cu : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%init : memref<?xi1>) state(%state : memref<?x1x32x16xf32>) out(%o : memref<?x1x16xf16>) {chunk_size = 16 : i64}
  return
}
func.func @chunk_none_c16_recurrent(%q: memref<?x1x32xf16>, %k: memref<?x1x32xf16>, %v: memref<?x1x16xf16>, %g: memref<?x1x32xf16>, %beta: memref<?x1xf16>, %cu: memref<?xi32>, %slots: memref<?xi32>, %init: memref<?xi1>, %state: memref<?x1x32x16xf32>, %o: memref<?x1x16xf16>) {
  kda.recurrent #l q(%q : memref<?x1x32xf16>) k(%k : memref<?x1x32xf16>) v(%v : memref<?x1x16xf16>) g(%g : memref<?x1x32xf16>) beta(%beta : memref<?x1xf16>) cu_seqlens(%cu : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%init : memref<?xi1>) state(%state : memref<?x1x32x16xf32>) out(%o : memref<?x1x16xf16>)
  return
}
