// #kda.layer gates: none, softplus, lower_bound(<negative>).
// RUN: kda-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{lower_bound gate needs a negative bound, got 5.000000e-01}}
#l = #kda.layer<heads = 2, value_heads = 4, head_k = 8, head_v = 4, gate = lower_bound(0.5), beta = sigmoid, qk_l2norm = true, act = bf16, state = f32, state_layout = kv>

// -----

// expected-error @+1 {{lower_bound gate needs a negative bound, got 0.000000e+00}}
#l = #kda.layer<heads = 2, value_heads = 4, head_k = 8, head_v = 4, gate = lower_bound(0.0), beta = sigmoid, qk_l2norm = true, act = bf16, state = f32, state_layout = kv>

// -----

// expected-error @+1 {{unknown gate 'sigmoid', expected none, softplus or lower_bound(<negative>)}}
#l = #kda.layer<heads = 2, value_heads = 4, head_k = 8, head_v = 4, gate = sigmoid, beta = sigmoid, qk_l2norm = true, act = bf16, state = f32, state_layout = kv>

// -----

// expected-error @+1 {{unknown beta 'relu', expected sigmoid, given or sigmoid_x2}}
#l = #kda.layer<heads = 2, value_heads = 4, head_k = 8, head_v = 4, gate = lower_bound(-5.0), beta = relu, qk_l2norm = true, act = bf16, state = f32, state_layout = kv>
