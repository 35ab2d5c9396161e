// The Kimi-Linear-48B example parses, verifies, prints and parses back unchanged.
// RUN: kda-opt %examples/kimi-linear-48b.mlir | FileCheck %s
// RUN: kda-opt %examples/kimi-linear-48b.mlir | kda-opt | FileCheck %s

// CHECK: #layer = #kda.layer<heads = 32, value_heads = 32, head_k = 128, head_v = 128, gate = softplus, beta = sigmoid, qk_l2norm = true, act = bf16, state = f32, state_layout = kv>
// CHECK-LABEL: func.func @kimi_linear_recurrent
// CHECK: kda.recurrent #layer
// CHECK-SAME: a_log(%{{.*}} : memref<32xf32>) dt_bias(%{{.*}} : memref<4096xf32>)
// CHECK-SAME: state(%{{.*}} : memref<?x32x128x128xf32>) out(%{{.*}} : memref<?x32x128xbf16>)
// CHECK-LABEL: func.func @kimi_linear_chunk
// CHECK: kda.chunk #layer
