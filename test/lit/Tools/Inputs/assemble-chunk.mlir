// A small chunk layer for Tools/assembled-bundles.mlir; @HEADS@ and @C@
// (heads and its chunk size) are filled in per compile.
#l = #kda.layer<heads = @HEADS@, value_heads = @HEADS@, head_k = 64, head_v = 32, gate = lower_bound(-5.0), beta = sigmoid, qk_l2norm = true, act = bf16, state = f32, state_layout = vk>
func.func @c(%q: memref<?x@HEADS@x64xbf16>, %k: memref<?x@HEADS@x64xbf16>, %v: memref<?x@HEADS@x32xbf16>, %g: memref<?x@HEADS@x64xbf16>, %beta: memref<?x@HEADS@xbf16>, %cu: memref<?xi32>, %slots: memref<?xi32>, %init: memref<?xi1>, %state: memref<?x@HEADS@x32x64xf32>, %o: memref<?x@HEADS@x32xbf16>) {
  kda.chunk #l q(%q : memref<?x@HEADS@x64xbf16>) k(%k : memref<?x@HEADS@x64xbf16>) v(%v : memref<?x@HEADS@x32xbf16>) g(%g : memref<?x@HEADS@x64xbf16>) beta(%beta : memref<?x@HEADS@xbf16>) cu_seqlens(%cu : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%init : memref<?xi1>) state(%state : memref<?x@HEADS@x32x64xf32>) out(%o : memref<?x@HEADS@x32xbf16>) {chunk_size = @C@ : i64}
  return
}
