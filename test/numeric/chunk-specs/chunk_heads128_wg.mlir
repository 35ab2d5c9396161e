// Chunk-path numeric layer: chunk_heads128's layer (128 x 128 heads, softplus gate, vk f32
// state, 64-row chunks) with warpgroup_scan: its 64- and 128-column scans on sm_90's warpgroup
// atom (wgmma, which emu32 executes; left out on emu and emu950, which have no such atom), the
// 16- and 32-column ones register scans reading the records as split words.
// The same layer's recurrent kernel beside it, for the length-1 comparison.
#l = #kda.layer<heads = 1, value_heads = 2, head_k = 128, head_v = 128, gate = softplus, beta = sigmoid, qk_l2norm = true, act = bf16, state = f32, state_layout = vk>
func.func @chunk_heads128_wg(%q: memref<?x1x128xbf16>, %k: memref<?x1x128xbf16>, %v: memref<?x2x128xbf16>, %g: memref<?x2x128xbf16>, %beta: memref<?x2xbf16>, %a_log: memref<2xf32>, %dt_bias: memref<256xf32>, %cu: memref<?xi32>, %slots: memref<?xi32>, %init: memref<?xi1>, %state: memref<?x2x128x128xf32>, %o: memref<?x2x128xbf16>) {
  kda.chunk #l q(%q : memref<?x1x128xbf16>) k(%k : memref<?x1x128xbf16>) v(%v : memref<?x2x128xbf16>) g(%g : memref<?x2x128xbf16>) beta(%beta : memref<?x2xbf16>) a_log(%a_log : memref<2xf32>) dt_bias(%dt_bias : memref<256xf32>) cu_seqlens(%cu : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%init : memref<?xi1>) state(%state : memref<?x2x128x128xf32>) out(%o : memref<?x2x128xbf16>) {chunk_size = 64 : i64, scan_block_v = array<i64: 16, 32, 64, 128>, warpgroup_scan}
  return
}
func.func @chunk_heads128_wg_recurrent(%q: memref<?x1x128xbf16>, %k: memref<?x1x128xbf16>, %v: memref<?x2x128xbf16>, %g: memref<?x2x128xbf16>, %beta: memref<?x2xbf16>, %a_log: memref<2xf32>, %dt_bias: memref<256xf32>, %cu: memref<?xi32>, %slots: memref<?xi32>, %init: memref<?xi1>, %state: memref<?x2x128x128xf32>, %o: memref<?x2x128xbf16>) {
  kda.recurrent #l q(%q : memref<?x1x128xbf16>) k(%k : memref<?x1x128xbf16>) v(%v : memref<?x2x128xbf16>) g(%g : memref<?x2x128xbf16>) beta(%beta : memref<?x2xbf16>) a_log(%a_log : memref<2xf32>) dt_bias(%dt_bias : memref<256xf32>) cu_seqlens(%cu : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%init : memref<?xi1>) state(%state : memref<?x2x128x128xf32>) out(%o : memref<?x2x128xbf16>)
  return
}
