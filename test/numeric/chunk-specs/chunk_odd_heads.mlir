// Chunk-path numeric layer: head dims that are multiples of 16 but not powers of two (head_k 48: a thread's row pieces do not divide the workgroup; head_v 80: five scan column blocks; gfx950 falls back to the k = 16 atom), lower_bound gate without A_log (diagonal blocks by atoms), GVA, vk f32 state, 32-row chunks.
// The same layer's recurrent kernel beside it, for the length-1 comparison.
#l = #kda.layer<heads = 1, value_heads = 2, head_k = 48, head_v = 80, gate = lower_bound(-5.0), beta = sigmoid, qk_l2norm = true, act = bf16, state = f32, state_layout = vk>
func.func @chunk_odd_heads(%q: memref<?x1x48xbf16>, %k: memref<?x1x48xbf16>, %v: memref<?x2x80xbf16>, %g: memref<?x2x48xbf16>, %beta: memref<?x2xbf16>, %cu: memref<?xi32>, %slots: memref<?xi32>, %init: memref<?xi1>, %state: memref<?x2x80x48xf32>, %o: memref<?x2x80xbf16>) {
  kda.chunk #l q(%q : memref<?x1x48xbf16>) k(%k : memref<?x1x48xbf16>) v(%v : memref<?x2x80xbf16>) g(%g : memref<?x2x48xbf16>) beta(%beta : memref<?x2xbf16>) cu_seqlens(%cu : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%init : memref<?xi1>) state(%state : memref<?x2x80x48xf32>) out(%o : memref<?x2x80xbf16>) {chunk_size = 32 : i64}
  return
}
func.func @chunk_odd_heads_recurrent(%q: memref<?x1x48xbf16>, %k: memref<?x1x48xbf16>, %v: memref<?x2x80xbf16>, %g: memref<?x2x48xbf16>, %beta: memref<?x2xbf16>, %cu: memref<?xi32>, %slots: memref<?xi32>, %init: memref<?xi1>, %state: memref<?x2x80x48xf32>, %o: memref<?x2x80xbf16>) {
  kda.recurrent #l q(%q : memref<?x1x48xbf16>) k(%k : memref<?x1x48xbf16>) v(%v : memref<?x2x80xbf16>) g(%g : memref<?x2x48xbf16>) beta(%beta : memref<?x2xbf16>) cu_seqlens(%cu : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%init : memref<?xi1>) state(%state : memref<?x2x80x48xf32>) out(%o : memref<?x2x80xbf16>)
  return
}
