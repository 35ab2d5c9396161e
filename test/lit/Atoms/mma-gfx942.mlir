// kda.mma -> amdgpu.mfma on gfx942 (kda-lower-atoms): one MFMA per atom, on
// the same fragment vectors; upstream's ROCDL conversion then picks the
// bf16_1k intrinsics.
// RUN: kda-opt %s --split-input-file --kda-lower-atoms | FileCheck %s
// RUN: kda-opt %s --split-input-file --kda-lower-atoms --convert-gpu-to-rocdl=chipset=gfx942 | FileCheck %s --check-prefix=ROCDL

// CHECK-LABEL: gpu.func @mfma_16x16x16
// CHECK-SAME: (%[[A:.*]]: vector<4xbf16>, %[[B:.*]]: vector<4xbf16>, %[[C:.*]]: vector<4xf32>
// CHECK-NOT: kda.mma
// CHECK: amdgpu.mfma 16x16x16 %[[A]] * %[[B]] + %[[C]]
// CHECK-SAME: : vector<4xbf16>, vector<4xbf16>, vector<4xf32>
// ROCDL-LABEL: llvm.func @mfma_16x16x16
// ROCDL: rocdl.mfma.f32.16x16x16bf16.1k
gpu.module @m attributes {kda.target = #kda.target<"gfx942">} {
  gpu.func @mfma_16x16x16(%a: vector<4xbf16>, %b: vector<4xbf16>, %c: vector<4xf32>, %out: memref<4xf32>) kernel {
    %d = kda.mma %a, %b, %c {kind = #kda.mma_kind<mfma_f32_16x16x16_bf16>} : vector<4xbf16>, vector<4xbf16>, vector<4xf32> -> vector<4xf32>
    %i = arith.constant 0 : index
    vector.store %d, %out[%i] : memref<4xf32>, vector<4xf32>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @mfma_32x32x8
// CHECK: amdgpu.mfma 32x32x8 %{{.*}} * %{{.*}} + %{{[^ ]+}}
// CHECK-SAME: : vector<4xbf16>, vector<4xbf16>, vector<16xf32>
// ROCDL-LABEL: llvm.func @mfma_32x32x8
// ROCDL: rocdl.mfma.f32.32x32x8bf16.1k
gpu.module @m attributes {kda.target = #kda.target<"gfx942">} {
  gpu.func @mfma_32x32x8(%a: vector<4xbf16>, %b: vector<4xbf16>, %c: vector<16xf32>, %out: memref<16xf32>) kernel {
    %d = kda.mma %a, %b, %c {kind = #kda.mma_kind<mfma_f32_32x32x8_bf16>} : vector<4xbf16>, vector<4xbf16>, vector<16xf32> -> vector<16xf32>
    %i = arith.constant 0 : index
    vector.store %d, %out[%i] : memref<16xf32>, vector<16xf32>
    gpu.return
  }
}
