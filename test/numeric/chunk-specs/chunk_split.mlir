// Chunk-path numeric layer for the scan split within a sequence: the GVA softplus layer at 16-row chunks and segment_chunks 2, so the varlen batch's row of 1000 (63 chunks) splits into 8 segments (the most: 7 of 7 chunks, the last 14), its rows of 200, 65 and 64 into 6, 2 and 2 (test/numeric/ChunkNumericsTest.cpp).
// The same layer's recurrent kernel beside it, for the length-1 comparison.
#l = #kda.layer<heads = 2, value_heads = 4, head_k = 64, head_v = 32, gate = softplus, beta = sigmoid, qk_l2norm = true, act = bf16, state = f32, state_layout = kv>
func.func @chunk_split(%q: memref<?x2x64xbf16>, %k: memref<?x2x64xbf16>, %v: memref<?x4x32xbf16>, %g: memref<?x4x64xbf16>, %beta: memref<?x4xbf16>, %a_log: memref<4xf32>, %dt_bias: memref<256xf32>, %cu: memref<?xi32>, %slots: memref<?xi32>, %init: memref<?xi1>, %state: memref<?x4x64x32xf32>, %o: memref<?x4x32xbf16>) {
  kda.chunk #l q(%q : memref<?x2x64xbf16>) k(%k : memref<?x2x64xbf16>) v(%v : memref<?x4x32xbf16>) g(%g : memref<?x4x64xbf16>) beta(%beta : memref<?x4xbf16>) a_log(%a_log : memref<4xf32>) dt_bias(%dt_bias : memref<256xf32>) cu_seqlens(%cu : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%init : memref<?xi1>) state(%state : memref<?x4x64x32xf32>) out(%o : memref<?x4x32xbf16>) {chunk_size = 16 : i64, segment_chunks = 2 : i64}
  return
}
func.func @chunk_split_recurrent(%q: memref<?x2x64xbf16>, %k: memref<?x2x64xbf16>, %v: memref<?x4x32xbf16>, %g: memref<?x4x64xbf16>, %beta: memref<?x4xbf16>, %a_log: memref<4xf32>, %dt_bias: memref<256xf32>, %cu: memref<?xi32>, %slots: memref<?xi32>, %init: memref<?xi1>, %state: memref<?x4x64x32xf32>, %o: memref<?x4x32xbf16>) {
  kda.recurrent #l q(%q : memref<?x2x64xbf16>) k(%k : memref<?x2x64xbf16>) v(%v : memref<?x4x32xbf16>) g(%g : memref<?x4x64xbf16>) beta(%beta : memref<?x4xbf16>) a_log(%a_log : memref<4xf32>) dt_bias(%dt_bias : memref<256xf32>) cu_seqlens(%cu : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%init : memref<?xi1>) state(%state : memref<?x4x64x32xf32>) out(%o : memref<?x4x32xbf16>)
  return
}
