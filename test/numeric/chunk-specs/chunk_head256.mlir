// Chunk-path numeric layer without a chunk_size: each target takes the largest that fits its LDS, or one halving below where only that size's scan holds its state in registers (head_k 256: the prep at 64 needs 88832 bytes; 16 on emu's 64 KiB, a register scan, where 32 would keep the state in LDS; 32 on emu950's 160 KiB for the same reason; 64 on emu32's), lower_bound gate, kv f32 state.
// The same layer's recurrent kernel beside it, for the length-1 comparison.
#l = #kda.layer<heads = 1, value_heads = 1, head_k = 256, head_v = 32, gate = lower_bound(-5.0), beta = sigmoid, qk_l2norm = true, act = bf16, state = f32, state_layout = kv>
func.func @chunk_head256(%q: memref<?x1x256xbf16>, %k: memref<?x1x256xbf16>, %v: memref<?x1x32xbf16>, %g: memref<?x1x256xbf16>, %beta: memref<?x1xbf16>, %cu: memref<?xi32>, %slots: memref<?xi32>, %init: memref<?xi1>, %state: memref<?x1x256x32xf32>, %o: memref<?x1x32xbf16>) {
  kda.chunk #l q(%q : memref<?x1x256xbf16>) k(%k : memref<?x1x256xbf16>) v(%v : memref<?x1x32xbf16>) g(%g : memref<?x1x256xbf16>) beta(%beta : memref<?x1xbf16>) cu_seqlens(%cu : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%init : memref<?xi1>) state(%state : memref<?x1x256x32xf32>) out(%o : memref<?x1x32xbf16>)
  return
}
func.func @chunk_head256_recurrent(%q: memref<?x1x256xbf16>, %k: memref<?x1x256xbf16>, %v: memref<?x1x32xbf16>, %g: memref<?x1x256xbf16>, %beta: memref<?x1xbf16>, %cu: memref<?xi32>, %slots: memref<?xi32>, %init: memref<?xi1>, %state: memref<?x1x256x32xf32>, %o: memref<?x1x32xbf16>) {
  kda.recurrent #l q(%q : memref<?x1x256xbf16>) k(%k : memref<?x1x256xbf16>) v(%v : memref<?x1x32xbf16>) g(%g : memref<?x1x256xbf16>) beta(%beta : memref<?x1xbf16>) cu_seqlens(%cu : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%init : memref<?xi1>) state(%state : memref<?x1x256x32xf32>) out(%o : memref<?x1x32xbf16>)
  return
}
