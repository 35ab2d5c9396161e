// A layer whose function name is no identifier (compile-errors.mlir).
#l = #kda.layer<heads = 1, value_heads = 1, head_k = 32, head_v = 16, gate = none, act = bf16, state = f32, state_layout = vk>
func.func @"my-layer"(%q: memref<?x1x32xbf16>, %v: memref<?x1x16xbf16>, %b: memref<?x1xbf16>, %i32: memref<?xi32>, %i1: memref<?xi1>, %s: memref<?x1x16x32xf32>) {
  kda.recurrent #l q(%q : memref<?x1x32xbf16>) k(%q : memref<?x1x32xbf16>) v(%v : memref<?x1x16xbf16>) g(%q : memref<?x1x32xbf16>) beta(%b : memref<?x1xbf16>) cu_seqlens(%i32 : memref<?xi32>) slots(%i32 : memref<?xi32>) has_initial_state(%i1 : memref<?xi1>) state(%s : memref<?x1x16x32xf32>) out(%v : memref<?x1x16xbf16>)
  return
}
