// kda.copy_piece (one thread's 16-byte piece into LDS, zeros where it is
// not valid) and kda.copy_fence, lowered per target by kda-lower-atoms
// (GPU targets) and kda-gpu-to-emu (emulators). Each thread copies a piece
// of its row, fences, and the block meets at a barrier before reading.
// RUN: sed 's/@TARGET@/sm_90/;s/@ATOM@/cp_async/' %s | kda-opt --pass-pipeline='builtin.module(kda-verify-pipeline,gpu.module(kda-lower-atoms))' | FileCheck %s --check-prefix=SM90
// RUN: sed 's/@TARGET@/gfx942/;s/@ATOM@/staged/' %s | kda-opt --pass-pipeline='builtin.module(kda-verify-pipeline,gpu.module(kda-lower-atoms))' | FileCheck %s --check-prefix=STAGED
// RUN: sed 's/@TARGET@/gfx950/;s/@ATOM@/staged/' %s | kda-opt --pass-pipeline='builtin.module(kda-verify-pipeline,gpu.module(kda-lower-atoms))' | FileCheck %s --check-prefix=STAGED
// RUN: sed 's/@TARGET@/emu32/;s/@ATOM@/cp_async/' %s | kda-opt --pass-pipeline='builtin.module(kda-verify-pipeline,gpu.module(kda-lower-atoms),kda-gpu-to-emu)' | FileCheck %s --check-prefix=EMU32

// sm_90: cp.async.cg of 16 bytes, src-size 0 where not valid; the fence is
// commit_group then wait_group 0.
// SM90-LABEL: gpu.func @pieces(
// SM90: %[[N:.*]] = arith.select %{{.*}}, %c4, %c0 : index
// SM90: nvgpu.device_async_copy %{{.*}}[%{{.*}}], %{{.*}}[%{{.*}}], 4, %[[N]] {bypassL1} : memref<?xf32> to memref<256xf32, #gpu.address_space<workgroup>>
// SM90: nvvm.cp.async.commit.group
// SM90-NEXT: nvvm.cp.async.wait.group 0
// SM90: gpu.barrier
// SM90-NOT: kda.

// gfx942 / gfx950: through registers (nothing loaded where not valid), the
// fence dropped.
// STAGED-LABEL: gpu.func @pieces(
// STAGED: %[[Z:.*]] = arith.constant dense<0.000000e+00> : vector<4xf32>
// STAGED: %[[V:.*]] = scf.if %{{.*}} -> (vector<4xf32>) {
// STAGED: vector.load %{{.*}}[%{{.*}}] {{.*}}: memref<?xf32>, vector<4xf32>
// STAGED: } else {
// STAGED: scf.yield %[[Z]] : vector<4xf32>
// STAGED: vector.store %[[V]], %{{.*}}[%{{.*}}] {{.*}}: memref<256xf32, #gpu.address_space<workgroup>>, vector<4xf32>
// STAGED-NOT: kda.copy_fence
// STAGED-NOT: cp.async

// emu32 (sm_90's atoms): the piece joins the thread's open pieces, checked
// at issue as a 16-byte LDS write; the fence lands them.
// EMU32-LABEL: func.func @pieces(
// EMU32: call @kda_emu_lds_store(%{{.*}}, %{{.*}}, %c16_i64, %{{.*}}, %c1024_i64)
// EMU32: call @kda_emu_cp_async_piece(
// EMU32: call @kda_emu_copy_fence(
// EMU32: call @kda_emu_barrier(

gpu.module @kernels attributes {kda.target = #kda.target<"@TARGET@">} {
  gpu.func @pieces(%src: memref<?xf32>, %n: index, %out: memref<?xf32>)
      workgroup(%lds : memref<256xf32, #gpu.address_space<workgroup>>)
      kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c4 = arith.constant 4 : index
    %tid = gpu.thread_id x
    %at = arith.muli %tid, %c4 : index
    %valid = arith.cmpi ult, %tid, %n : index
    kda.copy_piece %src[%at] to %lds[%at] if (%valid) atom(@ATOM@) : memref<?xf32>, memref<256xf32, #gpu.address_space<workgroup>>
    kda.copy_fence
    gpu.barrier
    %x = memref.load %lds[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
    memref.store %x, %out[%tid] : memref<?xf32>
    gpu.return
  }
}
