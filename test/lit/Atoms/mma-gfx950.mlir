// kda.mma -> amdgpu.mfma on gfx950: CDNA4's double-k bf16 MFMAs (8 bf16 per
// lane) and the CDNA3 ones it keeps.
// RUN: kda-opt %s --split-input-file --kda-lower-atoms | FileCheck %s
// RUN: kda-opt %s --split-input-file --kda-lower-atoms --convert-gpu-to-rocdl=chipset=gfx950 | FileCheck %s --check-prefix=ROCDL

// CHECK-LABEL: gpu.func @mfma_16x16x32
// CHECK: amdgpu.mfma 16x16x32 %{{.*}} * %{{.*}} + %{{[^ ]+}}
// CHECK-SAME: : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
// ROCDL-LABEL: llvm.func @mfma_16x16x32
// ROCDL: rocdl.mfma.f32.16x16x32.bf16
gpu.module @m attributes {kda.target = #kda.target<"gfx950">} {
  gpu.func @mfma_16x16x32(%a: vector<8xbf16>, %b: vector<8xbf16>, %c: vector<4xf32>, %out: memref<4xf32>) kernel {
    %d = kda.mma %a, %b, %c {kind = #kda.mma_kind<mfma_f32_16x16x32_bf16>} : vector<8xbf16>, vector<8xbf16>, vector<4xf32> -> vector<4xf32>
    %i = arith.constant 0 : index
    vector.store %d, %out[%i] : memref<4xf32>, vector<4xf32>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @mfma_32x32x16
// CHECK: amdgpu.mfma 32x32x16 %{{.*}} * %{{.*}} + %{{[^ ]+}}
// CHECK-SAME: : vector<8xbf16>, vector<8xbf16>, vector<16xf32>
// ROCDL-LABEL: llvm.func @mfma_32x32x16
// ROCDL: rocdl.mfma.f32.32x32x16.bf16
gpu.module @m attributes {kda.target = #kda.target<"gfx950">} {
  gpu.func @mfma_32x32x16(%a: vector<8xbf16>, %b: vector<8xbf16>, %c: vector<16xf32>, %out: memref<16xf32>) kernel {
    %d = kda.mma %a, %b, %c {kind = #kda.mma_kind<mfma_f32_32x32x16_bf16>} : vector<8xbf16>, vector<8xbf16>, vector<16xf32> -> vector<16xf32>
    %i = arith.constant 0 : index
    vector.store %d, %out[%i] : memref<16xf32>, vector<16xf32>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @mfma_16x16x16
// CHECK: amdgpu.mfma 16x16x16 %{{.*}} * %{{.*}} + %{{[^ ]+}}
// CHECK-SAME: : vector<4xbf16>, vector<4xbf16>, vector<4xf32>
// ROCDL-LABEL: llvm.func @mfma_16x16x16
// ROCDL: rocdl.mfma.f32.16x16x16bf16.1k
gpu.module @m attributes {kda.target = #kda.target<"gfx950">} {
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
gpu.module @m attributes {kda.target = #kda.target<"gfx950">} {
  gpu.func @mfma_32x32x8(%a: vector<4xbf16>, %b: vector<4xbf16>, %c: vector<16xf32>, %out: memref<16xf32>) kernel {
    %d = kda.mma %a, %b, %c {kind = #kda.mma_kind<mfma_f32_32x32x8_bf16>} : vector<4xbf16>, vector<4xbf16>, vector<16xf32> -> vector<16xf32>
    %i = arith.constant 0 : index
    vector.store %d, %out[%i] : memref<16xf32>, vector<16xf32>
    gpu.return
  }
}
