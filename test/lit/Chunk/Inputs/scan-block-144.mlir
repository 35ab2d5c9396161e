// A 144-column scan block on a target with cp_async (read by
// Chunk/scan-choice-invalid.mlir at emu32): more slabs than the register
// scan's waves, so the refusal names that rule, not a missing copy atom.
#l = #kda.layer<heads = 1, value_heads = 1, head_k = 16, head_v = 144, gate = lower_bound(-5.0), beta = sigmoid, qk_l2norm = true, act = bf16, state = f32, state_layout = vk>

func.func @bv144(%q: memref<?x1x16xbf16>, %k: memref<?x1x16xbf16>, %v: memref<?x1x144xbf16>, %g: memref<?x1x16xbf16>, %beta: memref<?x1xbf16>, %cu: memref<?xi32>, %slots: memref<?xi32>, %init: memref<?xi1>, %state: memref<?x1x144x16xf32>, %o: memref<?x1x144xbf16>) {
  // expected-error @+1 {{'kda.chunk' op no scan of the layer is built for emu32: block_v 144: it runs fast only as the self-staged register scan (8 waves of 16 state columns, each copying its own rows), which does not hold it at head_k 16 on emu32 (9 slabs for 8 waves, or its LDS); its LDS-resident form was measured slower and is not built (list another block in scan_block_v)}}
  kda.chunk #l q(%q : memref<?x1x16xbf16>) k(%k : memref<?x1x16xbf16>) v(%v : memref<?x1x144xbf16>) g(%g : memref<?x1x16xbf16>) beta(%beta : memref<?x1xbf16>) cu_seqlens(%cu : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%init : memref<?xi1>) state(%state : memref<?x1x144x16xf32>) out(%o : memref<?x1x144xbf16>) {scan_block_v = array<i64: 144>}
  return
}
