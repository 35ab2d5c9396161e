// The Kimi-K3 TP8 example parses, verifies, prints and parses back unchanged.
// RUN: kda-opt %examples/kimi-k3-tp8.mlir | FileCheck %s
// RUN: kda-opt %examples/kimi-k3-tp8.mlir | kda-opt | FileCheck %s
// RUN: kda-opt %examples/kimi-k3-tp8.mlir -mlir-print-op-generic | kda-opt | FileCheck %s

// CHECK: #layer = #kda.layer<heads = 12, value_heads = 12, head_k = 128, head_v = 128, gate = lower_bound(-5.000000e+00), beta = sigmoid, qk_l2norm = true, act = bf16, state = f32, state_layout = vk>
// CHECK-LABEL: func.func @kimi_k3_tp8_recurrent
// CHECK: kda.recurrent #layer q(%{{.*}} : memref<?x12x128xbf16>) k(%{{.*}} : memref<?x12x128xbf16>) v(%{{.*}} : memref<?x12x128xbf16>) g(%{{.*}} : memref<?x12x128xbf16>) beta(%{{.*}} : memref<?x12xbf16>) a_log(%{{.*}} : memref<12xf32>) dt_bias(%{{.*}} : memref<1536xf32>) cu_seqlens(%{{.*}} : memref<?xi32>) slots(%{{.*}} : memref<?xi32>) has_initial_state(%{{.*}} : memref<?xi1>) state(%{{.*}} : memref<?x12x128x128xf32>) out(%{{.*}} : memref<?x12x128xbf16>)
// CHECK-LABEL: func.func @kimi_k3_tp8_chunk
// CHECK: kda.chunk #layer
// CHECK-SAME: state(%{{.*}} : memref<?x12x128x128xf32>)
