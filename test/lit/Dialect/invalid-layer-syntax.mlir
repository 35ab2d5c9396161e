// #kda.layer syntax: known keys, each once, the required ones present.
// RUN: kda-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{unknown #kda.layer key 'num_heads'}}
#l = #kda.layer<value_heads = 4, head_k = 8, head_v = 4, gate = lower_bound(-5.0), beta = sigmoid, qk_l2norm = true, act = bf16, state = f32, state_layout = kv, num_heads = 2>

// -----

// expected-error @+1 {{duplicate #kda.layer key 'head_k'}}
#l = #kda.layer<heads = 2, value_heads = 4, head_k = 8, head_k = 8, head_v = 4, gate = none, act = bf16, state = f32, state_layout = kv>

// -----

// expected-error @+1 {{#kda.layer is missing 'state_layout'}}
#l = #kda.layer<heads = 2, value_heads = 4, head_k = 8, head_v = 4, gate = lower_bound(-5.0), beta = sigmoid, qk_l2norm = true, act = bf16, state = f32>

// -----

// expected-error @+1 {{qk_l2norm must be true or false}}
#l = #kda.layer<heads = 2, value_heads = 4, head_k = 8, head_v = 4, gate = lower_bound(-5.0), beta = sigmoid, qk_l2norm = yes, act = bf16, state = f32, state_layout = kv>

// -----

// expected-error @+1 {{scale must be positive}}
#l = #kda.layer<heads = 2, value_heads = 4, head_k = 8, head_v = 4, gate = lower_bound(-5.0), beta = sigmoid, qk_l2norm = true, act = bf16, state = f32, state_layout = kv, scale = -1.0>

// -----

// An infinite scale or bound passed the sign checks and reached the
// manifest, which has no JSON number for it.
// expected-error @+1 {{scale must be positive and finite, got INF}}
#l = #kda.layer<heads = 2, value_heads = 4, head_k = 8, head_v = 4, gate = lower_bound(-5.0), beta = sigmoid, qk_l2norm = true, act = bf16, state = f32, state_layout = kv, scale = 0x7FF0000000000000>

// -----

// expected-error @+1 {{lower_bound gate needs a negative bound, got -INF (not finite)}}
#l = #kda.layer<heads = 2, value_heads = 4, head_k = 8, head_v = 4, gate = lower_bound(0xFFF0000000000000), beta = sigmoid, qk_l2norm = true, act = bf16, state = f32, state_layout = kv>
