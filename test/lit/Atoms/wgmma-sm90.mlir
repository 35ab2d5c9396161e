// kda.wgmma on sm_90: wgmma.fence, then the atom as inline PTX (A in four
// .b32 registers, B by a shared-memory descriptor, the accumulators tied in
// and out); kda.wgmma_commit -> nvvm.wgmma.commit.group; kda.wgmma_wait ->
// inline wgmma.wait_group returning the accumulators; a kernel that issues
// wgmma fences the async proxy before each barrier.
// RUN: kda-opt %s --kda-lower-atoms | FileCheck %s
// The verifier accepts the flight (issue, commit, wait in straight-line
// code; Pipelines/wgmma-flights.mlir has the refused ones).
// RUN: kda-opt %s --kda-verify-pipeline --kda-lower-atoms | FileCheck %s --check-prefix=VERIFIED

// CHECK-LABEL: gpu.func @wgmma_64x64
// CHECK-SAME: (%[[A:.*]]: vector<8xbf16>, %[[C:.*]]: vector<32xf32>, %[[OFF:.*]]: index
// CHECK-DAG: %[[FIELDS:.*]] = arith.constant 68720001024 : i64
// CHECK: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK-NEXT: gpu.barrier
// CHECK: %[[AW:.*]] = vector.bitcast %[[A]] : vector<8xbf16> to vector<4xi32>
// CHECK: %[[BASE:.*]] = memref.extract_aligned_pointer_as_index
// CHECK: %[[ADDR:.*]] = arith.addi %[[BASE]], %[[OFF]] : index
// CHECK: %[[START:.*]] = arith.andi
// CHECK: %[[DESC:.*]] = arith.ori %[[START]], %[[FIELDS]] : i64
// CHECK: nvvm.wgmma.fence.aligned
// CHECK-NEXT: %[[D0:.*]] = llvm.inline_asm has_side_effects {{.*}}wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 {$0, {{.*}}, $31}, {$32, $33, $34, $35}, $36, p, 1, 1, 0;{{.*}}"=f,{{.*}},=f,r,r,r,r,l,0,1,2,{{.*}},31"
// The second atom follows the first directly (its operands written before
// the first's fence): no fence of its own (markWgmmaChains).
// CHECK-NOT: nvvm.wgmma.fence.aligned
// CHECK: llvm.inline_asm has_side_effects {{.*}}wgmma.mma_async
// CHECK: nvvm.wgmma.commit.group.sync.aligned
// CHECK: %[[W:.*]] = llvm.inline_asm has_side_effects "wgmma.wait_group.sync.aligned 0;", "=f,{{.*}},=f,0,1,{{.*}},31"
// CHECK: llvm.extractvalue %[[W]][31]
// CHECK: vector.store
// VERIFIED: wgmma.wait_group.sync.aligned 0;
// B MN-major: imm-trans-b 1.
// CHECK-LABEL: gpu.func @wgmma_mn
// CHECK: nvvm.wgmma.fence.aligned
// CHECK-NEXT: llvm.inline_asm has_side_effects {{.*}}wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 {{.*}}, $36, p, 1, 1, 1;
gpu.module @m attributes {kda.target = #kda.target<"sm_90">} {
  gpu.func @wgmma_64x64(%a: vector<8xbf16>, %c: vector<32xf32>, %off: index, %out: memref<32xf32>) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %lds = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    gpu.barrier
    %d0 = kda.wgmma %a, %lds[%off], %c {kind = #kda.mma_kind<wgmma_f32_64x64x16_bf16>, lbo = 128, sbo = 256} : vector<8xbf16>, memref<?xi8, #gpu.address_space<workgroup>>, vector<32xf32> -> vector<32xf32>
    %d1 = kda.wgmma %a, %lds[%off], %d0 {kind = #kda.mma_kind<wgmma_f32_64x64x16_bf16>, lbo = 128, sbo = 256} : vector<8xbf16>, memref<?xi8, #gpu.address_space<workgroup>>, vector<32xf32> -> vector<32xf32>
    kda.wgmma_commit
    %r = kda.wgmma_wait %d1 {pending = 0} : vector<32xf32>
    %i = arith.constant 0 : index
    vector.store %r, %out[%i] : memref<32xf32>, vector<32xf32>
    gpu.return
  }
  gpu.func @wgmma_mn(%a: vector<8xbf16>, %c: vector<32xf32>, %off: index, %out: memref<32xf32>) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %lds = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    gpu.barrier
    %d0 = kda.wgmma %a, %lds[%off], %c {kind = #kda.mma_kind<wgmma_f32_64x64x16_bf16>, lbo = 128, sbo = 256, b_mn_major} : vector<8xbf16>, memref<?xi8, #gpu.address_space<workgroup>>, vector<32xf32> -> vector<32xf32>
    %d1 = kda.wgmma %a, %lds[%off], %d0 {kind = #kda.mma_kind<wgmma_f32_64x64x16_bf16>, lbo = 128, sbo = 256, b_mn_major} : vector<8xbf16>, memref<?xi8, #gpu.address_space<workgroup>>, vector<32xf32> -> vector<32xf32>
    kda.wgmma_commit
    %r = kda.wgmma_wait %d1 {pending = 0} : vector<32xf32>
    %i = arith.constant 0 : index
    vector.store %r, %out[%i] : memref<32xf32>, vector<32xf32>
    gpu.return
  }
}
