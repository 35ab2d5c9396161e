// Activations use the layer's dtype; g and beta may also be f32.
// RUN: kda-opt %s -split-input-file -verify-diagnostics

#l = #kda.layer<heads = 2, value_heads = 4, head_k = 8, head_v = 4, gate = lower_bound(-5.0), beta = sigmoid, qk_l2norm = true, act = bf16, state = f32, state_layout = kv>

func.func @f(%q: memref<?x2x8xf16>, %k: memref<?x2x8xbf16>, %v: memref<?x4x4xbf16>, %g: memref<?x4x8xbf16>, %beta: memref<?x4xbf16>, %cu_seqlens: memref<?xi32>, %slots: memref<?xi32>, %has_initial_state: memref<?xi1>, %state: memref<?x4x8x4xf32>, %out: memref<?x4x4xbf16>) {
  // expected-error @+1 {{'kda.recurrent' op q element type must be the layer's activation type bf16, got 'f16'}}
  kda.recurrent #l q(%q : memref<?x2x8xf16>) k(%k : memref<?x2x8xbf16>) v(%v : memref<?x4x4xbf16>) g(%g : memref<?x4x8xbf16>) beta(%beta : memref<?x4xbf16>) cu_seqlens(%cu_seqlens : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%has_initial_state : memref<?xi1>) state(%state : memref<?x4x8x4xf32>) out(%out : memref<?x4x4xbf16>)
  return
}

// -----

#l = #kda.layer<heads = 2, value_heads = 4, head_k = 8, head_v = 4, gate = lower_bound(-5.0), beta = sigmoid, qk_l2norm = true, act = bf16, state = f32, state_layout = kv>

func.func @f(%q: memref<?x2x8xbf16>, %k: memref<?x2x8xbf16>, %v: memref<?x4x4xf32>, %g: memref<?x4x8xbf16>, %beta: memref<?x4xbf16>, %cu_seqlens: memref<?xi32>, %slots: memref<?xi32>, %has_initial_state: memref<?xi1>, %state: memref<?x4x8x4xf32>, %out: memref<?x4x4xbf16>) {
  // expected-error @+1 {{'kda.recurrent' op v element type must be the layer's activation type bf16, got 'f32'}}
  kda.recurrent #l q(%q : memref<?x2x8xbf16>) k(%k : memref<?x2x8xbf16>) v(%v : memref<?x4x4xf32>) g(%g : memref<?x4x8xbf16>) beta(%beta : memref<?x4xbf16>) cu_seqlens(%cu_seqlens : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%has_initial_state : memref<?xi1>) state(%state : memref<?x4x8x4xf32>) out(%out : memref<?x4x4xbf16>)
  return
}

// -----

#l = #kda.layer<heads = 2, value_heads = 4, head_k = 8, head_v = 4, gate = lower_bound(-5.0), beta = sigmoid, qk_l2norm = true, act = bf16, state = f32, state_layout = kv>

func.func @f(%q: memref<?x2x8xbf16>, %k: memref<?x2x8xbf16>, %v: memref<?x4x4xbf16>, %g: memref<?x4x8xf16>, %beta: memref<?x4xbf16>, %cu_seqlens: memref<?xi32>, %slots: memref<?xi32>, %has_initial_state: memref<?xi1>, %state: memref<?x4x8x4xf32>, %out: memref<?x4x4xbf16>) {
  // expected-error @+1 {{'kda.recurrent' op g element type must be the layer's activation type bf16 or f32, got 'f16'}}
  kda.recurrent #l q(%q : memref<?x2x8xbf16>) k(%k : memref<?x2x8xbf16>) v(%v : memref<?x4x4xbf16>) g(%g : memref<?x4x8xf16>) beta(%beta : memref<?x4xbf16>) cu_seqlens(%cu_seqlens : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%has_initial_state : memref<?xi1>) state(%state : memref<?x4x8x4xf32>) out(%out : memref<?x4x4xbf16>)
  return
}

// -----

#l = #kda.layer<heads = 2, value_heads = 4, head_k = 8, head_v = 4, gate = lower_bound(-5.0), beta = sigmoid, qk_l2norm = true, act = bf16, state = f32, state_layout = kv>

func.func @f(%q: memref<?x2x8xbf16>, %k: memref<?x2x8xbf16>, %v: memref<?x4x4xbf16>, %g: memref<?x4x8xbf16>, %beta: memref<?x4xi32>, %cu_seqlens: memref<?xi32>, %slots: memref<?xi32>, %has_initial_state: memref<?xi1>, %state: memref<?x4x8x4xf32>, %out: memref<?x4x4xbf16>) {
  // expected-error @+1 {{'kda.recurrent' op beta element type must be the layer's activation type bf16 or f32, got 'i32'}}
  kda.recurrent #l q(%q : memref<?x2x8xbf16>) k(%k : memref<?x2x8xbf16>) v(%v : memref<?x4x4xbf16>) g(%g : memref<?x4x8xbf16>) beta(%beta : memref<?x4xi32>) cu_seqlens(%cu_seqlens : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%has_initial_state : memref<?xi1>) state(%state : memref<?x4x8x4xf32>) out(%out : memref<?x4x4xbf16>)
  return
}

// -----

#l = #kda.layer<heads = 2, value_heads = 4, head_k = 8, head_v = 4, gate = lower_bound(-5.0), beta = sigmoid, qk_l2norm = true, act = bf16, state = f32, state_layout = kv>

func.func @f(%q: memref<?x2x8xbf16>, %k: memref<?x2x8xbf16>, %v: memref<?x4x4xbf16>, %g: memref<?x4x8xbf16>, %beta: memref<?x4xbf16>, %cu_seqlens: memref<?xi32>, %slots: memref<?xi32>, %has_initial_state: memref<?xi1>, %state: memref<?x4x8x4xf32>, %out: memref<?x4x4xf32>) {
  // expected-error @+1 {{'kda.recurrent' op out element type must be the layer's activation type bf16, got 'f32'}}
  kda.recurrent #l q(%q : memref<?x2x8xbf16>) k(%k : memref<?x2x8xbf16>) v(%v : memref<?x4x4xbf16>) g(%g : memref<?x4x8xbf16>) beta(%beta : memref<?x4xbf16>) cu_seqlens(%cu_seqlens : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%has_initial_state : memref<?xi1>) state(%state : memref<?x4x8x4xf32>) out(%out : memref<?x4x4xf32>)
  return
}

// -----

#l = #kda.layer<heads = 2, value_heads = 4, head_k = 8, head_v = 4, gate = lower_bound(-5.0), beta = sigmoid, qk_l2norm = true, act = bf16, state = f32, state_layout = kv>

// f32 gate and beta inputs are accepted.
func.func @f(%q: memref<?x2x8xbf16>, %k: memref<?x2x8xbf16>, %v: memref<?x4x4xbf16>, %g: memref<?x4x8xf32>, %beta: memref<?x4xf32>, %cu_seqlens: memref<?xi32>, %slots: memref<?xi32>, %has_initial_state: memref<?xi1>, %state: memref<?x4x8x4xf32>, %out: memref<?x4x4xbf16>) {
  kda.recurrent #l q(%q : memref<?x2x8xbf16>) k(%k : memref<?x2x8xbf16>) v(%v : memref<?x4x4xbf16>) g(%g : memref<?x4x8xf32>) beta(%beta : memref<?x4xf32>) cu_seqlens(%cu_seqlens : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%has_initial_state : memref<?xi1>) state(%state : memref<?x4x8x4xf32>) out(%out : memref<?x4x4xbf16>)
  return
}
