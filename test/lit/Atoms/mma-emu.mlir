// kda.mma on the emulators (kda-gpu-to-emu): each lane passes its fragment
// elements (as f32) and each element's (row, col), computed from the atom
// layout of the chip the target stands for, to the wave-collective
// kda_emu_mma, and reads its D elements back.
// RUN: kda-opt %s --split-input-file --kda-gpu-to-emu | FileCheck %s

// emu executes gfx942's atoms: v_mfma_f32_16x16x16_bf16, A[l%16][4(l/16)+e].
// CHECK-DAG: func.func private @kda_emu_mma(!llvm.ptr, i32, i32, i32, !llvm.ptr, !llvm.ptr, i32, !llvm.ptr, !llvm.ptr, i32, !llvm.ptr, !llvm.ptr, i32, !llvm.ptr)
// CHECK-LABEL: func.func @emu_mfma_16x16x16(
// CHECK-SAME: %[[CTX:[^:]*]]: !llvm.ptr,
// CHECK: %[[A:.*]] = memref.alloca() : memref<4xf32>
// CHECK: %[[AT:.*]] = memref.alloca() : memref<8xi32>
// CHECK: memref.alloca() : memref<4xf32>
// CHECK: memref.alloca() : memref<8xi32>
// CHECK: memref.alloca() : memref<4xf32>
// CHECK: memref.alloca() : memref<8xi32>
// CHECK: %[[D:.*]] = memref.alloca() : memref<4xf32>
// CHECK: %[[LANE64:.*]] = call @kda_emu_id(%[[CTX]], %{{.*}}) : (!llvm.ptr, i32) -> i64
// CHECK: %[[LANE:.*]] = arith.index_cast %[[LANE64]] : i64 to index
// CHECK: vector.extract %{{.*}}[0] : bf16 from vector<4xbf16>
// CHECK: arith.extf %{{.*}} : bf16 to f32
// CHECK: memref.store %{{.*}}, %[[A]]
// CHECK: arith.remui %[[LANE]], %{{.*}} : index
// CHECK: arith.divui %[[LANE]], %{{.*}} : index
// CHECK: memref.store %{{.*}}, %[[AT]]
// CHECK: %[[M:.*]] = arith.constant 16 : i32
// CHECK: call @kda_emu_mma(%[[CTX]], %[[M]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}})
// CHECK: memref.load %[[D]]
// CHECK: vector.from_elements {{.*}} : vector<4xf32>
module attributes {gpu.container_module} {
  gpu.module @m attributes {kda.target = #kda.target<"emu">} {
    gpu.func @emu_mfma_16x16x16(%a: vector<4xbf16>, %b: vector<4xbf16>, %c: vector<4xf32>, %out: memref<4xf32>) kernel {
      %d = kda.mma %a, %b, %c {kind = #kda.mma_kind<mfma_f32_16x16x16_bf16>} : vector<4xbf16>, vector<4xbf16>, vector<4xf32> -> vector<4xf32>
      %i = arith.constant 0 : index
      vector.store %d, %out[%i] : memref<4xf32>, vector<4xf32>
      gpu.return
    }
  }
}

// -----

// emu950 executes gfx950's atoms: 8 bf16 of A per lane, 4 f32 of C.
// CHECK-LABEL: func.func @emu950_mfma_16x16x32(
// CHECK-SAME: %[[CTX:[^:]*]]: !llvm.ptr,
// CHECK-DAG: memref.alloca() : memref<8xf32>
// CHECK-DAG: memref.alloca() : memref<16xi32>
// CHECK: %[[K:.*]] = arith.constant 32 : i32
// CHECK: call @kda_emu_mma(%[[CTX]], %{{.*}}, %{{.*}}, %[[K]],
// CHECK: vector.from_elements {{.*}} : vector<4xf32>
module attributes {gpu.container_module} {
  gpu.module @m attributes {kda.target = #kda.target<"emu950">} {
    gpu.func @emu950_mfma_16x16x32(%a: vector<8xbf16>, %b: vector<8xbf16>, %c: vector<4xf32>, %out: memref<4xf32>) kernel {
      %d = kda.mma %a, %b, %c {kind = #kda.mma_kind<mfma_f32_16x16x32_bf16>} : vector<8xbf16>, vector<8xbf16>, vector<4xf32> -> vector<4xf32>
      %i = arith.constant 0 : index
      vector.store %d, %out[%i] : memref<4xf32>, vector<4xf32>
      gpu.return
    }
  }
}

// -----

// emu32 executes sm_90's mma.sync m16n8k16: groupID = lane / 4.
// CHECK-LABEL: func.func @emu32_mma_sync(
// CHECK-SAME: %[[CTX:[^:]*]]: !llvm.ptr,
// CHECK-DAG: memref.alloca() : memref<8xf32>
// CHECK-DAG: memref.alloca() : memref<4xf32>
// CHECK: %[[N:.*]] = arith.constant 8 : i32
// CHECK: call @kda_emu_mma(%[[CTX]], %{{.*}}, %[[N]], %{{.*}},
module attributes {gpu.container_module} {
  gpu.module @m attributes {kda.target = #kda.target<"emu32">} {
    gpu.func @emu32_mma_sync(%a: vector<8xbf16>, %b: vector<4xbf16>, %c: vector<4xf32>, %out: memref<4xf32>) kernel {
      %d = kda.mma %a, %b, %c {kind = #kda.mma_kind<mma_sync_f32_16x8x16_bf16>} : vector<8xbf16>, vector<4xbf16>, vector<4xf32> -> vector<4xf32>
      %i = arith.constant 0 : index
      vector.store %d, %out[%i] : memref<4xf32>, vector<4xf32>
      gpu.return
    }
  }
}
