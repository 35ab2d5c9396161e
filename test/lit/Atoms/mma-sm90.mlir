// kda.mma -> nvvm.mma.sync on sm_90: A and B fragments travel as .b32 pairs
// of bf16 (element 2i in the low half), D comes back as four f32.
// RUN: kda-opt %s --kda-lower-atoms | FileCheck %s

// CHECK-LABEL: gpu.func @mma_sync_16x8x16
// CHECK-SAME: (%[[A:.*]]: vector<8xbf16>, %[[B:.*]]: vector<4xbf16>, %[[C:.*]]: vector<4xf32>
// CHECK-NOT: kda.mma
// CHECK: %[[AW:.*]] = vector.bitcast %[[A]] : vector<8xbf16> to vector<4xi32>
// CHECK: %[[BW:.*]] = vector.bitcast %[[B]] : vector<4xbf16> to vector<2xi32>
// CHECK: %[[R:.*]] = nvvm.mma.sync A[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] B[%{{.*}}, %{{.*}}] C[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}]
// CHECK-SAME: layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>
// CHECK-SAME: multiplicandAPtxType = #nvvm.mma_type<bf16>, multiplicandBPtxType = #nvvm.mma_type<bf16>
// CHECK-SAME: shape = #nvvm.shape<m = 16, n = 8, k = 16>
// CHECK-SAME: : (i32, i32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
// CHECK: llvm.extractvalue %[[R]][3]
// CHECK: vector.from_elements {{.*}} : vector<4xf32>
gpu.module @m attributes {kda.target = #kda.target<"sm_90">} {
  gpu.func @mma_sync_16x8x16(%a: vector<8xbf16>, %b: vector<4xbf16>, %c: vector<4xf32>, %out: memref<4xf32>) kernel {
    %d = kda.mma %a, %b, %c {kind = #kda.mma_kind<mma_sync_f32_16x8x16_bf16>} : vector<8xbf16>, vector<4xbf16>, vector<4xf32> -> vector<4xf32>
    %i = arith.constant 0 : index
    vector.store %d, %out[%i] : memref<4xf32>, vector<4xf32>
    gpu.return
  }
}
