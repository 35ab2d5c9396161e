// kda.wgmma on emu32 (kda-gpu-to-emu): each thread passes its A and C
// fragment elements with their (row, col) in the warpgroup's 64 x 16 and
// 64 x n tiles, computed from its place in the group (thread id mod 128),
// B's start in LDS and its core-matrix offsets to kda_emu_wgmma; commit and
// wait become calls that keep the flights' books, the wait returning the
// values computed at issue.
// RUN: kda-opt %s --kda-gpu-to-emu | FileCheck %s

// CHECK-DAG: func.func private @kda_emu_wgmma(!llvm.ptr, i32, !llvm.ptr, !llvm.ptr, i32, !llvm.ptr, i64, i64, i32, !llvm.ptr, !llvm.ptr, i32, !llvm.ptr)
// CHECK-DAG: func.func private @kda_emu_wgmma_commit(!llvm.ptr)
// CHECK-DAG: func.func private @kda_emu_wgmma_wait(!llvm.ptr, i64)
// CHECK-LABEL: func.func @emu_wgmma(
// CHECK-SAME: %[[CTX:[^:]*]]: !llvm.ptr,
// CHECK-DAG: %[[A:.*]] = memref.alloca() : memref<8xf32>
// CHECK-DAG: %[[AT:.*]] = memref.alloca() : memref<16xi32>
// CHECK-DAG: %[[C:.*]] = memref.alloca() : memref<32xf32>
// CHECK-DAG: %[[CAT:.*]] = memref.alloca() : memref<64xi32>
// CHECK-DAG: %[[D:.*]] = memref.alloca() : memref<32xf32>
// CHECK: arith.remui %{{.*}}, %c128 : index
// CHECK-DAG: %[[N:.*]] = arith.constant 64 : i32
// CHECK-DAG: %[[LBO:.*]] = arith.constant 128 : i64
// CHECK-DAG: %[[SBO:.*]] = arith.constant 256 : i64
// CHECK: call @kda_emu_wgmma(%[[CTX]], %[[N]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[LBO]], %[[SBO]], %c0_i32{{(_[0-9]+)?}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}})
// CHECK: call @kda_emu_wgmma_commit(%[[CTX]])
// CHECK: call @kda_emu_wgmma_wait(%[[CTX]], %c0_i64)
// CHECK-NOT: kda.wgmma
// B MN-major: the flag 1.
// CHECK-LABEL: func.func @emu_wgmma_mn(
// CHECK: call @kda_emu_wgmma(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %c1_i32{{(_[0-9]+)?}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}})
// CHECK-NOT: kda.wgmma
// A 64 x 2 block: the warpgroup is the linear thread id's run (x + 64 y),
// not thread_id x.
// CHECK-LABEL: func.func @emu_wgmma_2d(
// CHECK: call @kda_emu_id(%{{.*}}, %c1_i32)
// CHECK: arith.muli
// CHECK: arith.remui %{{.*}}, %c128 : index
// CHECK: call @kda_emu_wgmma(
gpu.module @m attributes {kda.target = #kda.target<"emu32">} {
  gpu.func @emu_wgmma(%a: vector<8xbf16>, %c: vector<32xf32>, %out: memref<32xf32>) kernel attributes {kda.dynamic_lds_bytes = 4096 : i64, known_block_size = array<i32: 128, 1, 1>} {
    %lds = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %o = arith.constant 0 : index
    %d = kda.wgmma %a, %lds[%o], %c {kind = #kda.mma_kind<wgmma_f32_64x64x16_bf16>, lbo = 128, sbo = 256} : vector<8xbf16>, memref<?xi8, #gpu.address_space<workgroup>>, vector<32xf32> -> vector<32xf32>
    kda.wgmma_commit
    %r = kda.wgmma_wait %d {pending = 0} : vector<32xf32>
    vector.store %r, %out[%o] : memref<32xf32>, vector<32xf32>
    gpu.return
  }
  gpu.func @emu_wgmma_mn(%a: vector<8xbf16>, %c: vector<32xf32>, %out: memref<32xf32>) kernel attributes {kda.dynamic_lds_bytes = 4096 : i64, known_block_size = array<i32: 128, 1, 1>} {
    %lds = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %o = arith.constant 0 : index
    %d = kda.wgmma %a, %lds[%o], %c {kind = #kda.mma_kind<wgmma_f32_64x64x16_bf16>, lbo = 128, sbo = 256, b_mn_major} : vector<8xbf16>, memref<?xi8, #gpu.address_space<workgroup>>, vector<32xf32> -> vector<32xf32>
    kda.wgmma_commit
    %r = kda.wgmma_wait %d {pending = 0} : vector<32xf32>
    vector.store %r, %out[%o] : memref<32xf32>, vector<32xf32>
    gpu.return
  }
  gpu.func @emu_wgmma_2d(%a: vector<8xbf16>, %c: vector<32xf32>, %out: memref<32xf32>) kernel attributes {kda.dynamic_lds_bytes = 4096 : i64, known_block_size = array<i32: 64, 2, 1>} {
    %lds = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %o = arith.constant 0 : index
    %d = kda.wgmma %a, %lds[%o], %c {kind = #kda.mma_kind<wgmma_f32_64x64x16_bf16>, lbo = 128, sbo = 256} : vector<8xbf16>, memref<?xi8, #gpu.address_space<workgroup>>, vector<32xf32> -> vector<32xf32>
    kda.wgmma_commit
    %r = kda.wgmma_wait %d {pending = 0} : vector<32xf32>
    vector.store %r, %out[%o] : memref<32xf32>, vector<32xf32>
    gpu.return
  }
}
