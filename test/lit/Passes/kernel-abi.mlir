// The recurrent kernel states its ABI once (kda.abi: name, element type,
// role per argument in parameter order); the argument types follow it. The
// hidden --kda-test-reverse-abi states the same kernel's ABI reversed: the
// parameters follow, and the body binds each by name (AbiTest runs such
// bundles against the oracle, which is what shows the binding is right).
// RUN: kda-opt %s --kda-lower-to-gpu=target=gfx942 | FileCheck %s
// RUN: kda-opt %s --kda-lower-to-gpu=target=gfx942 --kda-test-reverse-abi | FileCheck %s --check-prefix=REV

#l = #kda.layer<heads = 2, value_heads = 2, head_k = 64, head_v = 64, gate = softplus, qk_l2norm = true, act = bf16, state = f32, state_layout = vk>

// CHECK: gpu.func @kda_decode(%{{.*}}: memref<1xbf16>, %{{.*}}: memref<1xbf16>, %{{.*}}: memref<1xbf16>, %{{.*}}: memref<1xbf16>, %{{.*}}: memref<1xbf16>, %{{.*}}: memref<1xf32>, %{{.*}}: memref<1xf32>, %{{.*}}: memref<1xi32>, %{{.*}}: memref<1xi32>, %{{.*}}: memref<1xi8>, %{{.*}}: memref<1xf32>, %{{.*}}: memref<1xbf16>) kernel
// CHECK-SAME: kda.abi = [#kda.arg<"q", bf16, input>, #kda.arg<"k", bf16, input>, #kda.arg<"v", bf16, input>, #kda.arg<"g", bf16, input>, #kda.arg<"beta", bf16, input>, #kda.arg<"a_log", f32, input>, #kda.arg<"dt_bias", f32, input>, #kda.arg<"cu_seqlens", i32, input>, #kda.arg<"slots", i32, input>, #kda.arg<"has_initial_state", i8, input>, #kda.arg<"state", f32, inout>, #kda.arg<"out", bf16, output>]

// REV: gpu.func @kda_decode(%{{.*}}: memref<1xbf16>, %{{.*}}: memref<1xf32>, %{{.*}}: memref<1xi8>, %{{.*}}: memref<1xi32>, %{{.*}}: memref<1xi32>, %{{.*}}: memref<1xf32>, %{{.*}}: memref<1xf32>, %{{.*}}: memref<1xbf16>, %{{.*}}: memref<1xbf16>, %{{.*}}: memref<1xbf16>, %{{.*}}: memref<1xbf16>, %{{.*}}: memref<1xbf16>) kernel
// REV-SAME: kda.abi = [#kda.arg<"out", bf16, output>, #kda.arg<"state", f32, inout>, #kda.arg<"has_initial_state", i8, input>, #kda.arg<"slots", i32, input>, #kda.arg<"cu_seqlens", i32, input>, #kda.arg<"dt_bias", f32, input>, #kda.arg<"a_log", f32, input>, #kda.arg<"beta", bf16, input>, #kda.arg<"g", bf16, input>, #kda.arg<"v", bf16, input>, #kda.arg<"k", bf16, input>, #kda.arg<"q", bf16, input>]
func.func @decode(%q: memref<?x2x64xbf16>, %v: memref<?x2x64xbf16>, %beta: memref<?x2xbf16>, %a_log: memref<2xf32>, %dt: memref<128xf32>, %i32: memref<?xi32>, %i1: memref<?xi1>, %state: memref<?x2x64x64xf32>) {
  kda.recurrent #l q(%q : memref<?x2x64xbf16>) k(%q : memref<?x2x64xbf16>) v(%v : memref<?x2x64xbf16>) g(%q : memref<?x2x64xbf16>) beta(%beta : memref<?x2xbf16>) a_log(%a_log : memref<2xf32>) dt_bias(%dt : memref<128xf32>) cu_seqlens(%i32 : memref<?xi32>) slots(%i32 : memref<?xi32>) has_initial_state(%i1 : memref<?xi1>) state(%state : memref<?x2x64x64xf32>) out(%v : memref<?x2x64xbf16>)
  return
}
