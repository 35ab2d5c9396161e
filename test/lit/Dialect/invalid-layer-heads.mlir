// #kda.layer: HV a multiple of H, head dims in 1..256.
// RUN: kda-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{value_heads (6) must be a positive multiple of heads (4)}}
#l = #kda.layer<heads = 4, value_heads = 6, head_k = 8, head_v = 4, gate = lower_bound(-5.0), beta = sigmoid, qk_l2norm = true, act = bf16, state = f32, state_layout = kv>

// -----

// expected-error @+1 {{heads must be positive, got 0}}
#l = #kda.layer<heads = 0, value_heads = 4, head_k = 8, head_v = 4, gate = lower_bound(-5.0), beta = sigmoid, qk_l2norm = true, act = bf16, state = f32, state_layout = kv>

// -----

// expected-error @+1 {{head_k must be in [1, 256], got 512}}
#l = #kda.layer<heads = 2, value_heads = 4, head_k = 512, head_v = 4, gate = lower_bound(-5.0), beta = sigmoid, qk_l2norm = true, act = bf16, state = f32, state_layout = kv>

// -----

// expected-error @+1 {{head_v must be in [1, 256], got 0}}
#l = #kda.layer<heads = 2, value_heads = 4, head_k = 8, head_v = 0, gate = lower_bound(-5.0), beta = sigmoid, qk_l2norm = true, act = bf16, state = f32, state_layout = kv>
