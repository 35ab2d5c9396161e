// Static token counts must agree across activations.
// RUN: kda-opt %s -split-input-file -verify-diagnostics

#l = #kda.layer<heads = 2, value_heads = 4, head_k = 8, head_v = 4, gate = lower_bound(-5.0), beta = sigmoid, qk_l2norm = true, act = bf16, state = f32, state_layout = kv>

func.func @f(%q: memref<8x2x8xbf16>, %k: memref<7x2x8xbf16>, %v: memref<?x4x4xbf16>, %g: memref<?x4x8xbf16>, %beta: memref<?x4xbf16>, %cu_seqlens: memref<?xi32>, %slots: memref<?xi32>, %has_initial_state: memref<?xi1>, %state: memref<?x4x8x4xf32>, %out: memref<?x4x4xbf16>) {
  // expected-error @+1 {{'kda.recurrent' op token count of k (7) differs from q (8)}}
  kda.recurrent #l q(%q : memref<8x2x8xbf16>) k(%k : memref<7x2x8xbf16>) v(%v : memref<?x4x4xbf16>) g(%g : memref<?x4x8xbf16>) beta(%beta : memref<?x4xbf16>) cu_seqlens(%cu_seqlens : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%has_initial_state : memref<?xi1>) state(%state : memref<?x4x8x4xf32>) out(%out : memref<?x4x4xbf16>)
  return
}

// -----

#l = #kda.layer<heads = 2, value_heads = 4, head_k = 8, head_v = 4, gate = lower_bound(-5.0), beta = sigmoid, qk_l2norm = true, act = bf16, state = f32, state_layout = kv>

func.func @f(%q: memref<?x2x8xbf16>, %k: memref<?x2x8xbf16>, %v: memref<8x4x4xbf16>, %g: memref<?x4x8xbf16>, %beta: memref<?x4xbf16>, %cu_seqlens: memref<?xi32>, %slots: memref<?xi32>, %has_initial_state: memref<?xi1>, %state: memref<?x4x8x4xf32>, %out: memref<9x4x4xbf16>) {
  // expected-error @+1 {{'kda.recurrent' op token count of out (9) differs from v (8)}}
  kda.recurrent #l q(%q : memref<?x2x8xbf16>) k(%k : memref<?x2x8xbf16>) v(%v : memref<8x4x4xbf16>) g(%g : memref<?x4x8xbf16>) beta(%beta : memref<?x4xbf16>) cu_seqlens(%cu_seqlens : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%has_initial_state : memref<?xi1>) state(%state : memref<?x4x8x4xf32>) out(%out : memref<9x4x4xbf16>)
  return
}
