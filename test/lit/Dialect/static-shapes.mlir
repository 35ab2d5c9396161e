// Static shapes that agree are accepted: a 3-sequence batch of 8 tokens with
// GVA (HV = 2H) and the lower_bound gate without A_log or dt_bias.
// RUN: kda-opt %s | FileCheck %s

#l = #kda.layer<heads = 2, value_heads = 4, head_k = 64, head_v = 32, gate = lower_bound(-5.0), qk_l2norm = true, act = f16, state = f32, state_layout = kv>
// CHECK-LABEL: func.func @static_batch
// CHECK: kda.chunk #layer
// CHECK-SAME: cu_seqlens(%{{.*}} : memref<4xi32>) slots(%{{.*}} : memref<3xi32>) has_initial_state(%{{.*}} : memref<3xi1>)
// CHECK-SAME: {chunk_size = 16 : i64}
func.func @static_batch(%q: memref<8x2x64xf16>, %v: memref<8x4x32xf16>,
    %g: memref<8x4x64xf32>, %beta: memref<8x4xf32>, %cu: memref<4xi32>,
    %slots: memref<3xi32>, %init: memref<3xi1>, %state: memref<16x4x64x32xf32>,
    %o: memref<8x4x32xf16>) {
  kda.chunk #l q(%q : memref<8x2x64xf16>) k(%q : memref<8x2x64xf16>)
      v(%v : memref<8x4x32xf16>) g(%g : memref<8x4x64xf32>)
      beta(%beta : memref<8x4xf32>) cu_seqlens(%cu : memref<4xi32>)
      slots(%slots : memref<3xi32>) has_initial_state(%init : memref<3xi1>)
      state(%state : memref<16x4x64x32xf32>) out(%o : memref<8x4x32xf16>)
      {chunk_size = 16 : i64}
  return
}
