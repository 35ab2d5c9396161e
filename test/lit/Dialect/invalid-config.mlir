// #kda.config: block_k/block_v in [1, 256] (any size), block_t a power of two,
// warps 1..32, stages 1..8, blocks within the head.
// RUN: kda-opt %s -split-input-file -verify-diagnostics

#l = #kda.layer<heads = 2, value_heads = 4, head_k = 8, head_v = 4, gate = lower_bound(-5.0), beta = sigmoid, qk_l2norm = true, act = bf16, state = f32, state_layout = kv>

func.func @f(%q: memref<?x2x8xbf16>, %k: memref<?x2x8xbf16>, %v: memref<?x4x4xbf16>, %g: memref<?x4x8xbf16>, %beta: memref<?x4xbf16>, %cu_seqlens: memref<?xi32>, %slots: memref<?xi32>, %has_initial_state: memref<?xi1>, %state: memref<?x4x8x4xf32>, %out: memref<?x4x4xbf16>) {
  // expected-error @+1 {{'kda.recurrent' op config blocks (block_k = 16, block_v = 4) exceed the head dims (8, 4)}}
  kda.recurrent #l config #kda.config<block_k = 16, block_v = 4, block_t = 16, warps = 4, stages = 2> q(%q : memref<?x2x8xbf16>) k(%k : memref<?x2x8xbf16>) v(%v : memref<?x4x4xbf16>) g(%g : memref<?x4x8xbf16>) beta(%beta : memref<?x4xbf16>) cu_seqlens(%cu_seqlens : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%has_initial_state : memref<?xi1>) state(%state : memref<?x4x8x4xf32>) out(%out : memref<?x4x4xbf16>)
  return
}

// -----

// expected-error @+1 {{block_v must be in [1, 256], got 300}}
#c = #kda.config<block_k = 16, block_v = 300, block_t = 16, warps = 4, stages = 2>

// -----

// expected-error @+1 {{warps must be in [1, 32], got 0}}
#c = #kda.config<block_k = 16, block_v = 16, block_t = 16, warps = 0, stages = 2>

// -----

// expected-error @+1 {{stages must be in [1, 8], got 9}}
#c = #kda.config<block_k = 16, block_v = 16, block_t = 16, warps = 4, stages = 9>

// -----

// expected-error @+1 {{block_t must be a power of two in [1, 256], got 512}}
#c = #kda.config<block_k = 16, block_v = 16, block_t = 512, warps = 4, stages = 1>

// -----

// expected-error @+1 {{waves_k must be a power of two dividing warps (2), got 4}}
#c = #kda.config<block_k = 16, block_v = 16, block_t = 1, warps = 2, stages = 1, lanes_k = 8, waves_k = 4>

// -----

// expected-error @+1 {{waves_k must be a power of two dividing warps (6), got 3}}
#c = #kda.config<block_k = 16, block_v = 16, block_t = 1, warps = 6, stages = 1, waves_k = 3>

// -----

// expected-error @+1 {{v_passes must be in [1, 8], got 9}}
#c = #kda.config<block_k = 16, block_v = 16, block_t = 1, warps = 1, stages = 1, v_passes = 9>

// -----

// expected-error @+1 {{v_passes must be in [1, 8], got 0}}
#c = #kda.config<block_k = 16, block_v = 16, block_t = 1, warps = 1, stages = 1, v_passes = 0>

// -----

// expected-error @+1 {{mma must be 0 or 1, got 2}}
#c = #kda.config<block_k = 16, block_v = 16, block_t = 1, warps = 1, stages = 1, mma = 2>

// -----

// expected-error @+1 {{shared_terms must be 0 or 1, got 2}}
#c = #kda.config<block_k = 16, block_v = 16, block_t = 1, warps = 1, stages = 1, v_passes = 2, shared_terms = 2>
