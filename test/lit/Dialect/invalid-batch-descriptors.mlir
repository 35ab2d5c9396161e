// cu_seqlens [N + 1] i32, slots [N] i32, has_initial_state [N] i1.
// RUN: kda-opt %s -split-input-file -verify-diagnostics

#l = #kda.layer<heads = 2, value_heads = 4, head_k = 8, head_v = 4, gate = lower_bound(-5.0), beta = sigmoid, qk_l2norm = true, act = bf16, state = f32, state_layout = kv>

func.func @f(%q: memref<?x2x8xbf16>, %k: memref<?x2x8xbf16>, %v: memref<?x4x4xbf16>, %g: memref<?x4x8xbf16>, %beta: memref<?x4xbf16>, %cu_seqlens: memref<?xi64>, %slots: memref<?xi32>, %has_initial_state: memref<?xi1>, %state: memref<?x4x8x4xf32>, %out: memref<?x4x4xbf16>) {
  // expected-error @+1 {{'kda.recurrent' op cu_seqlens element type must be i32, got 'i64'}}
  kda.recurrent #l q(%q : memref<?x2x8xbf16>) k(%k : memref<?x2x8xbf16>) v(%v : memref<?x4x4xbf16>) g(%g : memref<?x4x8xbf16>) beta(%beta : memref<?x4xbf16>) cu_seqlens(%cu_seqlens : memref<?xi64>) slots(%slots : memref<?xi32>) has_initial_state(%has_initial_state : memref<?xi1>) state(%state : memref<?x4x8x4xf32>) out(%out : memref<?x4x4xbf16>)
  return
}

// -----

#l = #kda.layer<heads = 2, value_heads = 4, head_k = 8, head_v = 4, gate = lower_bound(-5.0), beta = sigmoid, qk_l2norm = true, act = bf16, state = f32, state_layout = kv>

func.func @f(%q: memref<?x2x8xbf16>, %k: memref<?x2x8xbf16>, %v: memref<?x4x4xbf16>, %g: memref<?x4x8xbf16>, %beta: memref<?x4xbf16>, %cu_seqlens: memref<?xi32>, %slots: memref<?x2xi32>, %has_initial_state: memref<?xi1>, %state: memref<?x4x8x4xf32>, %out: memref<?x4x4xbf16>) {
  // expected-error @+1 {{'kda.recurrent' op slots must be a rank-1 memref [N], got 'memref<?x2xi32>'}}
  kda.recurrent #l q(%q : memref<?x2x8xbf16>) k(%k : memref<?x2x8xbf16>) v(%v : memref<?x4x4xbf16>) g(%g : memref<?x4x8xbf16>) beta(%beta : memref<?x4xbf16>) cu_seqlens(%cu_seqlens : memref<?xi32>) slots(%slots : memref<?x2xi32>) has_initial_state(%has_initial_state : memref<?xi1>) state(%state : memref<?x4x8x4xf32>) out(%out : memref<?x4x4xbf16>)
  return
}

// -----

#l = #kda.layer<heads = 2, value_heads = 4, head_k = 8, head_v = 4, gate = lower_bound(-5.0), beta = sigmoid, qk_l2norm = true, act = bf16, state = f32, state_layout = kv>

func.func @f(%q: memref<?x2x8xbf16>, %k: memref<?x2x8xbf16>, %v: memref<?x4x4xbf16>, %g: memref<?x4x8xbf16>, %beta: memref<?x4xbf16>, %cu_seqlens: memref<?xi32>, %slots: memref<?xi32>, %has_initial_state: memref<?xi8>, %state: memref<?x4x8x4xf32>, %out: memref<?x4x4xbf16>) {
  // expected-error @+1 {{'kda.recurrent' op has_initial_state element type must be i1, got 'i8'}}
  kda.recurrent #l q(%q : memref<?x2x8xbf16>) k(%k : memref<?x2x8xbf16>) v(%v : memref<?x4x4xbf16>) g(%g : memref<?x4x8xbf16>) beta(%beta : memref<?x4xbf16>) cu_seqlens(%cu_seqlens : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%has_initial_state : memref<?xi8>) state(%state : memref<?x4x8x4xf32>) out(%out : memref<?x4x4xbf16>)
  return
}

// -----

#l = #kda.layer<heads = 2, value_heads = 4, head_k = 8, head_v = 4, gate = lower_bound(-5.0), beta = sigmoid, qk_l2norm = true, act = bf16, state = f32, state_layout = kv>

func.func @f(%q: memref<?x2x8xbf16>, %k: memref<?x2x8xbf16>, %v: memref<?x4x4xbf16>, %g: memref<?x4x8xbf16>, %beta: memref<?x4xbf16>, %cu_seqlens: memref<5xi32>, %slots: memref<3xi32>, %has_initial_state: memref<?xi1>, %state: memref<?x4x8x4xf32>, %out: memref<?x4x4xbf16>) {
  // expected-error @+1 {{'kda.recurrent' op slots holds 3 entries but cu_seqlens describes 4 sequences}}
  kda.recurrent #l q(%q : memref<?x2x8xbf16>) k(%k : memref<?x2x8xbf16>) v(%v : memref<?x4x4xbf16>) g(%g : memref<?x4x8xbf16>) beta(%beta : memref<?x4xbf16>) cu_seqlens(%cu_seqlens : memref<5xi32>) slots(%slots : memref<3xi32>) has_initial_state(%has_initial_state : memref<?xi1>) state(%state : memref<?x4x8x4xf32>) out(%out : memref<?x4x4xbf16>)
  return
}

// -----

#l = #kda.layer<heads = 2, value_heads = 4, head_k = 8, head_v = 4, gate = lower_bound(-5.0), beta = sigmoid, qk_l2norm = true, act = bf16, state = f32, state_layout = kv>

func.func @f(%q: memref<?x2x8xbf16>, %k: memref<?x2x8xbf16>, %v: memref<?x4x4xbf16>, %g: memref<?x4x8xbf16>, %beta: memref<?x4xbf16>, %cu_seqlens: memref<5xi32>, %slots: memref<4xi32>, %has_initial_state: memref<2xi1>, %state: memref<?x4x8x4xf32>, %out: memref<?x4x4xbf16>) {
  // expected-error @+1 {{'kda.recurrent' op has_initial_state holds 2 entries but cu_seqlens describes 4 sequences}}
  kda.recurrent #l q(%q : memref<?x2x8xbf16>) k(%k : memref<?x2x8xbf16>) v(%v : memref<?x4x4xbf16>) g(%g : memref<?x4x8xbf16>) beta(%beta : memref<?x4xbf16>) cu_seqlens(%cu_seqlens : memref<5xi32>) slots(%slots : memref<4xi32>) has_initial_state(%has_initial_state : memref<2xi1>) state(%state : memref<?x4x8x4xf32>) out(%out : memref<?x4x4xbf16>)
  return
}

// -----

#l = #kda.layer<heads = 2, value_heads = 4, head_k = 8, head_v = 4, gate = lower_bound(-5.0), beta = sigmoid, qk_l2norm = true, act = bf16, state = f32, state_layout = kv>

func.func @f(%q: memref<?x2x8xbf16>, %k: memref<?x2x8xbf16>, %v: memref<?x4x4xbf16>, %g: memref<?x4x8xbf16>, %beta: memref<?x4xbf16>, %cu_seqlens: memref<0xi32>, %slots: memref<?xi32>, %has_initial_state: memref<?xi1>, %state: memref<?x4x8x4xf32>, %out: memref<?x4x4xbf16>) {
  // expected-error @+1 {{'kda.recurrent' op cu_seqlens must hold N + 1 >= 1 entries}}
  kda.recurrent #l q(%q : memref<?x2x8xbf16>) k(%k : memref<?x2x8xbf16>) v(%v : memref<?x4x4xbf16>) g(%g : memref<?x4x8xbf16>) beta(%beta : memref<?x4xbf16>) cu_seqlens(%cu_seqlens : memref<0xi32>) slots(%slots : memref<?xi32>) has_initial_state(%has_initial_state : memref<?xi1>) state(%state : memref<?x4x8x4xf32>) out(%out : memref<?x4x4xbf16>)
  return
}
