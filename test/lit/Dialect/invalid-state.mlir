// The state pool follows the layer's layout and dtype.
// RUN: kda-opt %s -split-input-file -verify-diagnostics

#l = #kda.layer<heads = 2, value_heads = 4, head_k = 8, head_v = 4, gate = lower_bound(-5.0), beta = sigmoid, qk_l2norm = true, act = bf16, state = f32, state_layout = kv>

func.func @f(%q: memref<?x2x8xbf16>, %k: memref<?x2x8xbf16>, %v: memref<?x4x4xbf16>, %g: memref<?x4x8xbf16>, %beta: memref<?x4xbf16>, %cu_seqlens: memref<?xi32>, %slots: memref<?xi32>, %has_initial_state: memref<?xi1>, %state: memref<?x4x4x8xf32>, %out: memref<?x4x4xbf16>) {
  // expected-error @+1 {{'kda.recurrent' op state must be [slots, value_heads, head_k, head_v] (layout kv) = [?, 4, 8, 4], got 'memref<?x4x4x8xf32>' (dimension 2 is 4, expected 8)}}
  kda.recurrent #l q(%q : memref<?x2x8xbf16>) k(%k : memref<?x2x8xbf16>) v(%v : memref<?x4x4xbf16>) g(%g : memref<?x4x8xbf16>) beta(%beta : memref<?x4xbf16>) cu_seqlens(%cu_seqlens : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%has_initial_state : memref<?xi1>) state(%state : memref<?x4x4x8xf32>) out(%out : memref<?x4x4xbf16>)
  return
}

// -----

#l = #kda.layer<heads = 2, value_heads = 4, head_k = 8, head_v = 4, gate = lower_bound(-5.0), beta = sigmoid, qk_l2norm = true, act = bf16, state = f32, state_layout = vk>

func.func @f(%q: memref<?x2x8xbf16>, %k: memref<?x2x8xbf16>, %v: memref<?x4x4xbf16>, %g: memref<?x4x8xbf16>, %beta: memref<?x4xbf16>, %cu_seqlens: memref<?xi32>, %slots: memref<?xi32>, %has_initial_state: memref<?xi1>, %state: memref<?x4x8x4xf32>, %out: memref<?x4x4xbf16>) {
  // expected-error @+1 {{'kda.recurrent' op state must be [slots, value_heads, head_v, head_k] (layout vk) = [?, 4, 4, 8], got 'memref<?x4x8x4xf32>' (dimension 2 is 8, expected 4)}}
  kda.recurrent #l q(%q : memref<?x2x8xbf16>) k(%k : memref<?x2x8xbf16>) v(%v : memref<?x4x4xbf16>) g(%g : memref<?x4x8xbf16>) beta(%beta : memref<?x4xbf16>) cu_seqlens(%cu_seqlens : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%has_initial_state : memref<?xi1>) state(%state : memref<?x4x8x4xf32>) out(%out : memref<?x4x4xbf16>)
  return
}

// -----

#l = #kda.layer<heads = 2, value_heads = 4, head_k = 8, head_v = 4, gate = lower_bound(-5.0), beta = sigmoid, qk_l2norm = true, act = bf16, state = f32, state_layout = kv>

func.func @f(%q: memref<?x2x8xbf16>, %k: memref<?x2x8xbf16>, %v: memref<?x4x4xbf16>, %g: memref<?x4x8xbf16>, %beta: memref<?x4xbf16>, %cu_seqlens: memref<?xi32>, %slots: memref<?xi32>, %has_initial_state: memref<?xi1>, %state: memref<?x4x8x4xbf16>, %out: memref<?x4x4xbf16>) {
  // expected-error @+1 {{'kda.recurrent' op state element type must be the layer's state type, got 'bf16'}}
  kda.recurrent #l q(%q : memref<?x2x8xbf16>) k(%k : memref<?x2x8xbf16>) v(%v : memref<?x4x4xbf16>) g(%g : memref<?x4x8xbf16>) beta(%beta : memref<?x4xbf16>) cu_seqlens(%cu_seqlens : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%has_initial_state : memref<?xi1>) state(%state : memref<?x4x8x4xbf16>) out(%out : memref<?x4x4xbf16>)
  return
}

// -----

#l = #kda.layer<heads = 2, value_heads = 4, head_k = 8, head_v = 4, gate = lower_bound(-5.0), beta = sigmoid, qk_l2norm = true, act = bf16, state = f32, state_layout = kv>

func.func @f(%q: memref<?x2x8xbf16>, %k: memref<?x2x8xbf16>, %v: memref<?x4x4xbf16>, %g: memref<?x4x8xbf16>, %beta: memref<?x4xbf16>, %cu_seqlens: memref<?xi32>, %slots: memref<?xi32>, %has_initial_state: memref<?xi1>, %state: memref<?x32x4xf32>, %out: memref<?x4x4xbf16>) {
  // expected-error @+1 {{'kda.recurrent' op state must be a rank-4 memref [slots, value_heads, head_k, head_v] (layout kv), got 'memref<?x32x4xf32>'}}
  kda.recurrent #l q(%q : memref<?x2x8xbf16>) k(%k : memref<?x2x8xbf16>) v(%v : memref<?x4x4xbf16>) g(%g : memref<?x4x8xbf16>) beta(%beta : memref<?x4xbf16>) cu_seqlens(%cu_seqlens : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%has_initial_state : memref<?xi1>) state(%state : memref<?x32x4xf32>) out(%out : memref<?x4x4xbf16>)
  return
}
