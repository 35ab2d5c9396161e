// #kda.layer dtypes: activations bf16/f16/f32, state f32/bf16.
// RUN: kda-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{activation dtype must be bf16, f16 or f32, got 'f64'}}
#l = #kda.layer<heads = 2, value_heads = 4, head_k = 8, head_v = 4, gate = lower_bound(-5.0), beta = sigmoid, qk_l2norm = true, act = f64, state = f32, state_layout = kv>

// -----

// expected-error @+1 {{state dtype must be f32 or bf16, got 'f16'}}
#l = #kda.layer<heads = 2, value_heads = 4, head_k = 8, head_v = 4, gate = lower_bound(-5.0), beta = sigmoid, qk_l2norm = true, act = bf16, state = f16, state_layout = kv>

// -----

// expected-error @+1 {{unknown state_layout 'kvv', expected kv or vk}}
#l = #kda.layer<heads = 2, value_heads = 4, head_k = 8, head_v = 4, gate = lower_bound(-5.0), beta = sigmoid, qk_l2norm = true, act = bf16, state = f32, state_layout = kvv>
