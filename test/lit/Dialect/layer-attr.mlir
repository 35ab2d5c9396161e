// #kda.layer accepts its keys in any order and prints them canonically;
// optional keys (beta, qk_l2norm, scale) take their defaults.
// RUN: kda-opt %s -split-input-file | FileCheck %s

// CHECK: #kda.layer<heads = 4, value_heads = 8, head_k = 64, head_v = 32, gate = none, beta = given, qk_l2norm = false, scale = 1.250000e-01, act = f16, state = bf16, state_layout = vk>
func.func @any_order_gva_f16() attributes {
  l = #kda.layer<state_layout = vk, act = f16, state = bf16, scale = 0.125,
                 beta = given, gate = none, head_v = 32, head_k = 64,
                 value_heads = 8, heads = 4>} {
  return
}

// -----

// Defaults: beta = sigmoid, qk_l2norm = false, no scale (K^-1/2 at run time).
// CHECK: #kda.layer<heads = 1, value_heads = 1, head_k = 256, head_v = 256, gate = softplus, beta = sigmoid, qk_l2norm = false, act = bf16, state = f32, state_layout = kv>
func.func @defaults() attributes {
  l = #kda.layer<heads = 1, value_heads = 1, head_k = 256, head_v = 256,
                 gate = softplus, act = bf16, state = f32, state_layout = kv>} {
  return
}

// -----

// CHECK: gate = lower_bound(-1.000000e+01), beta = sigmoid_x2
func.func @neg_eigval() attributes {
  l = #kda.layer<heads = 2, value_heads = 2, head_k = 16, head_v = 16,
                 gate = lower_bound(-10.0), beta = sigmoid_x2, act = bf16,
                 state = f32, state_layout = kv>} {
  return
}
