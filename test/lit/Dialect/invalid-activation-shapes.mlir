// Every activation must be token-major [T, heads, dim] in the layer's terms.
// RUN: kda-opt %s -split-input-file -verify-diagnostics

#l = #kda.layer<heads = 2, value_heads = 4, head_k = 8, head_v = 4, gate = lower_bound(-5.0), beta = sigmoid, qk_l2norm = true, act = bf16, state = f32, state_layout = kv>

func.func @f(%q: memref<?x16xbf16>, %k: memref<?x2x8xbf16>, %v: memref<?x4x4xbf16>, %g: memref<?x4x8xbf16>, %beta: memref<?x4xbf16>, %cu_seqlens: memref<?xi32>, %slots: memref<?xi32>, %has_initial_state: memref<?xi1>, %state: memref<?x4x8x4xf32>, %out: memref<?x4x4xbf16>) {
  // expected-error @+1 {{'kda.recurrent' op q must be a rank-3 memref [T, heads, head_k], got 'memref<?x16xbf16>'}}
  kda.recurrent #l q(%q : memref<?x16xbf16>) k(%k : memref<?x2x8xbf16>) v(%v : memref<?x4x4xbf16>) g(%g : memref<?x4x8xbf16>) beta(%beta : memref<?x4xbf16>) cu_seqlens(%cu_seqlens : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%has_initial_state : memref<?xi1>) state(%state : memref<?x4x8x4xf32>) out(%out : memref<?x4x4xbf16>)
  return
}

// -----

#l = #kda.layer<heads = 2, value_heads = 4, head_k = 8, head_v = 4, gate = lower_bound(-5.0), beta = sigmoid, qk_l2norm = true, act = bf16, state = f32, state_layout = kv>

func.func @f(%q: memref<?x3x8xbf16>, %k: memref<?x2x8xbf16>, %v: memref<?x4x4xbf16>, %g: memref<?x4x8xbf16>, %beta: memref<?x4xbf16>, %cu_seqlens: memref<?xi32>, %slots: memref<?xi32>, %has_initial_state: memref<?xi1>, %state: memref<?x4x8x4xf32>, %out: memref<?x4x4xbf16>) {
  // expected-error @+1 {{'kda.recurrent' op q must be [T, heads, head_k] = [?, 2, 8], got 'memref<?x3x8xbf16>' (dimension 1 is 3, expected 2)}}
  kda.recurrent #l q(%q : memref<?x3x8xbf16>) k(%k : memref<?x2x8xbf16>) v(%v : memref<?x4x4xbf16>) g(%g : memref<?x4x8xbf16>) beta(%beta : memref<?x4xbf16>) cu_seqlens(%cu_seqlens : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%has_initial_state : memref<?xi1>) state(%state : memref<?x4x8x4xf32>) out(%out : memref<?x4x4xbf16>)
  return
}

// -----

#l = #kda.layer<heads = 2, value_heads = 4, head_k = 8, head_v = 4, gate = lower_bound(-5.0), beta = sigmoid, qk_l2norm = true, act = bf16, state = f32, state_layout = kv>

func.func @f(%q: memref<?x2x8xbf16>, %k: memref<?x2x16xbf16>, %v: memref<?x4x4xbf16>, %g: memref<?x4x8xbf16>, %beta: memref<?x4xbf16>, %cu_seqlens: memref<?xi32>, %slots: memref<?xi32>, %has_initial_state: memref<?xi1>, %state: memref<?x4x8x4xf32>, %out: memref<?x4x4xbf16>) {
  // expected-error @+1 {{'kda.recurrent' op k must be [T, heads, head_k] = [?, 2, 8], got 'memref<?x2x16xbf16>' (dimension 2 is 16, expected 8)}}
  kda.recurrent #l q(%q : memref<?x2x8xbf16>) k(%k : memref<?x2x16xbf16>) v(%v : memref<?x4x4xbf16>) g(%g : memref<?x4x8xbf16>) beta(%beta : memref<?x4xbf16>) cu_seqlens(%cu_seqlens : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%has_initial_state : memref<?xi1>) state(%state : memref<?x4x8x4xf32>) out(%out : memref<?x4x4xbf16>)
  return
}

// -----

#l = #kda.layer<heads = 2, value_heads = 4, head_k = 8, head_v = 4, gate = lower_bound(-5.0), beta = sigmoid, qk_l2norm = true, act = bf16, state = f32, state_layout = kv>

func.func @f(%q: memref<?x2x8xbf16>, %k: memref<?x2x8xbf16>, %v: memref<?x2x4xbf16>, %g: memref<?x4x8xbf16>, %beta: memref<?x4xbf16>, %cu_seqlens: memref<?xi32>, %slots: memref<?xi32>, %has_initial_state: memref<?xi1>, %state: memref<?x4x8x4xf32>, %out: memref<?x4x4xbf16>) {
  // expected-error @+1 {{'kda.recurrent' op v must be [T, value_heads, head_v] = [?, 4, 4], got 'memref<?x2x4xbf16>' (dimension 1 is 2, expected 4)}}
  kda.recurrent #l q(%q : memref<?x2x8xbf16>) k(%k : memref<?x2x8xbf16>) v(%v : memref<?x2x4xbf16>) g(%g : memref<?x4x8xbf16>) beta(%beta : memref<?x4xbf16>) cu_seqlens(%cu_seqlens : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%has_initial_state : memref<?xi1>) state(%state : memref<?x4x8x4xf32>) out(%out : memref<?x4x4xbf16>)
  return
}

// -----

#l = #kda.layer<heads = 2, value_heads = 4, head_k = 8, head_v = 4, gate = lower_bound(-5.0), beta = sigmoid, qk_l2norm = true, act = bf16, state = f32, state_layout = kv>

func.func @f(%q: memref<?x2x8xbf16>, %k: memref<?x2x8xbf16>, %v: memref<?x4x4xbf16>, %g: memref<?x4x4xbf16>, %beta: memref<?x4xbf16>, %cu_seqlens: memref<?xi32>, %slots: memref<?xi32>, %has_initial_state: memref<?xi1>, %state: memref<?x4x8x4xf32>, %out: memref<?x4x4xbf16>) {
  // expected-error @+1 {{'kda.recurrent' op g must be [T, value_heads, head_k] = [?, 4, 8], got 'memref<?x4x4xbf16>' (dimension 2 is 4, expected 8)}}
  kda.recurrent #l q(%q : memref<?x2x8xbf16>) k(%k : memref<?x2x8xbf16>) v(%v : memref<?x4x4xbf16>) g(%g : memref<?x4x4xbf16>) beta(%beta : memref<?x4xbf16>) cu_seqlens(%cu_seqlens : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%has_initial_state : memref<?xi1>) state(%state : memref<?x4x8x4xf32>) out(%out : memref<?x4x4xbf16>)
  return
}

// -----

#l = #kda.layer<heads = 2, value_heads = 4, head_k = 8, head_v = 4, gate = lower_bound(-5.0), beta = sigmoid, qk_l2norm = true, act = bf16, state = f32, state_layout = kv>

func.func @f(%q: memref<?x2x8xbf16>, %k: memref<?x2x8xbf16>, %v: memref<?x4x4xbf16>, %g: memref<?x4x8xbf16>, %beta: memref<?x4x1xbf16>, %cu_seqlens: memref<?xi32>, %slots: memref<?xi32>, %has_initial_state: memref<?xi1>, %state: memref<?x4x8x4xf32>, %out: memref<?x4x4xbf16>) {
  // expected-error @+1 {{'kda.recurrent' op beta must be a rank-2 memref [T, value_heads], got 'memref<?x4x1xbf16>'}}
  kda.recurrent #l q(%q : memref<?x2x8xbf16>) k(%k : memref<?x2x8xbf16>) v(%v : memref<?x4x4xbf16>) g(%g : memref<?x4x8xbf16>) beta(%beta : memref<?x4x1xbf16>) cu_seqlens(%cu_seqlens : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%has_initial_state : memref<?xi1>) state(%state : memref<?x4x8x4xf32>) out(%out : memref<?x4x4xbf16>)
  return
}

// -----

#l = #kda.layer<heads = 2, value_heads = 4, head_k = 8, head_v = 4, gate = lower_bound(-5.0), beta = sigmoid, qk_l2norm = true, act = bf16, state = f32, state_layout = kv>

func.func @f(%q: memref<?x2x8xbf16>, %k: memref<?x2x8xbf16>, %v: memref<?x4x4xbf16>, %g: memref<?x4x8xbf16>, %beta: memref<?x4xbf16>, %cu_seqlens: memref<?xi32>, %slots: memref<?xi32>, %has_initial_state: memref<?xi1>, %state: memref<?x4x8x4xf32>, %out: memref<?x4x8xbf16>) {
  // expected-error @+1 {{'kda.recurrent' op out must be [T, value_heads, head_v] = [?, 4, 4], got 'memref<?x4x8xbf16>' (dimension 2 is 8, expected 4)}}
  kda.recurrent #l q(%q : memref<?x2x8xbf16>) k(%k : memref<?x2x8xbf16>) v(%v : memref<?x4x4xbf16>) g(%g : memref<?x4x8xbf16>) beta(%beta : memref<?x4xbf16>) cu_seqlens(%cu_seqlens : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%has_initial_state : memref<?xi1>) state(%state : memref<?x4x8x4xf32>) out(%out : memref<?x4x8xbf16>)
  return
}

// -----

// A strided view of the right shape: the kernels read dense rows, so any
// layout but the identity is refused (here q's tokens 256 elements apart).
#l = #kda.layer<heads = 2, value_heads = 4, head_k = 8, head_v = 4, gate = lower_bound(-5.0), beta = sigmoid, qk_l2norm = true, act = bf16, state = f32, state_layout = kv>

func.func @f(%q: memref<?x2x8xbf16, strided<[256, 8, 1]>>, %k: memref<?x2x8xbf16>, %v: memref<?x4x4xbf16>, %g: memref<?x4x8xbf16>, %beta: memref<?x4xbf16>, %cu_seqlens: memref<?xi32>, %slots: memref<?xi32>, %has_initial_state: memref<?xi1>, %state: memref<?x4x8x4xf32>, %out: memref<?x4x4xbf16>) {
  // expected-error @+1 {{'kda.recurrent' op q must have the identity (dense row-major) layout: the kernels read its rows at dense offsets, got 'memref<?x2x8xbf16, strided<[256, 8, 1]>>'}}
  kda.recurrent #l q(%q : memref<?x2x8xbf16, strided<[256, 8, 1]>>) k(%k : memref<?x2x8xbf16>) v(%v : memref<?x4x4xbf16>) g(%g : memref<?x4x8xbf16>) beta(%beta : memref<?x4xbf16>) cu_seqlens(%cu_seqlens : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%has_initial_state : memref<?xi1>) state(%state : memref<?x4x8x4xf32>) out(%out : memref<?x4x4xbf16>)
  return
}

// -----

// The state pool likewise, on kda.chunk (a pool inside a larger per-slot
// cache is kda.slot_stride on kda.recurrent, not a layout).
#l = #kda.layer<heads = 2, value_heads = 2, head_k = 16, head_v = 16, gate = lower_bound(-5.0), beta = sigmoid, qk_l2norm = true, act = bf16, state = f32, state_layout = kv>

func.func @f(%q: memref<?x2x16xbf16>, %k: memref<?x2x16xbf16>, %v: memref<?x2x16xbf16>, %g: memref<?x2x16xbf16>, %beta: memref<?x2xbf16>, %cu_seqlens: memref<?xi32>, %slots: memref<?xi32>, %has_initial_state: memref<?xi1>, %state: memref<?x2x16x16xf32, strided<[1024, 256, 16, 1]>>, %out: memref<?x2x16xbf16>) {
  // expected-error @+1 {{'kda.chunk' op state must have the identity (dense row-major) layout: the kernels read its rows at dense offsets, got 'memref<?x2x16x16xf32, strided<[1024, 256, 16, 1]>>'}}
  kda.chunk #l q(%q : memref<?x2x16xbf16>) k(%k : memref<?x2x16xbf16>) v(%v : memref<?x2x16xbf16>) g(%g : memref<?x2x16xbf16>) beta(%beta : memref<?x2xbf16>) cu_seqlens(%cu_seqlens : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%has_initial_state : memref<?xi1>) state(%state : memref<?x2x16x16xf32, strided<[1024, 256, 16, 1]>>) out(%out : memref<?x2x16xbf16>)
  return
}

// -----

// A memory space on an operand: the kernels take every operand as a pointer
// to device memory.
#l = #kda.layer<heads = 2, value_heads = 4, head_k = 8, head_v = 4, gate = lower_bound(-5.0), beta = sigmoid, qk_l2norm = true, act = bf16, state = f32, state_layout = kv>

func.func @f(%q: memref<?x2x8xbf16>, %k: memref<?x2x8xbf16>, %v: memref<?x4x4xbf16>, %g: memref<?x4x8xbf16>, %beta: memref<?x4xbf16>, %cu_seqlens: memref<?xi32>, %slots: memref<?xi32>, %has_initial_state: memref<?xi1>, %state: memref<?x4x8x4xf32, 3>, %out: memref<?x4x4xbf16>) {
  // expected-error @+1 {{'kda.recurrent' op state must be in the default (global) memory space: the kernels take it as a pointer to device memory, got 'memref<?x4x8x4xf32, 3>'}}
  kda.recurrent #l q(%q : memref<?x2x8xbf16>) k(%k : memref<?x2x8xbf16>) v(%v : memref<?x4x4xbf16>) g(%g : memref<?x4x8xbf16>) beta(%beta : memref<?x4xbf16>) cu_seqlens(%cu_seqlens : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%has_initial_state : memref<?xi1>) state(%state : memref<?x4x8x4xf32, 3>) out(%out : memref<?x4x4xbf16>)
  return
}
