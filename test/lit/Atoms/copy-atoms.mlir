// The copy atoms, waits and barriers of a verified schedule, lowered per
// target by kda-lower-atoms (GPU targets) and kda-gpu-to-emu (emulators, with
// the semantics of the chip they stand for). One schedule, depth 1: drained
// barrier, copy of iteration 0 (two rows, 256 and 512 bytes), wait, barrier,
// read, exit drain. @ATOM@ and @TARGET@ are filled in per run; the staged
// runs (gfx942, emu) drain at the barrier after the copy too, since gfx9's
// s_barrier does not wait for a thread's own register-staged ds_writes.
// RUN: sed 's/@TARGET@/gfx942/;s/@ATOM@/staged/;s/@COPY@/staged_copy/;s/kda.async_wait 0//;s/kda.barrier$/kda.lds_barrier/' %s | kda-opt --pass-pipeline='builtin.module(kda-verify-pipeline,gpu.module(kda-lower-atoms))' | FileCheck %s --check-prefix=GFX942
// RUN: sed 's/@TARGET@/gfx950/;s/@ATOM@/global_load_lds/;s/@COPY@/async_copy/' %s | kda-opt --pass-pipeline='builtin.module(kda-verify-pipeline,gpu.module(kda-lower-atoms))' | FileCheck %s --check-prefix=GFX950
// RUN: sed 's/@TARGET@/sm_90/;s/@ATOM@/cp_async/;s/@COPY@/async_copy/' %s | kda-opt --pass-pipeline='builtin.module(kda-verify-pipeline,gpu.module(kda-lower-atoms))' | FileCheck %s --check-prefix=SM90
// RUN: sed 's/@TARGET@/emu/;s/@ATOM@/staged/;s/@COPY@/staged_copy/;s/kda.async_wait 0//;s/kda.barrier$/kda.lds_barrier/' %s | kda-opt --pass-pipeline='builtin.module(kda-verify-pipeline,gpu.module(kda-lower-atoms),kda-gpu-to-emu)' | FileCheck %s --check-prefix=EMU
// RUN: sed 's/@TARGET@/emu950/;s/@ATOM@/global_load_lds/;s/@COPY@/async_copy/' %s | kda-opt --pass-pipeline='builtin.module(kda-verify-pipeline,gpu.module(kda-lower-atoms),kda-gpu-to-emu)' | FileCheck %s --check-prefix=EMU950
// RUN: sed 's/@TARGET@/emu32/;s/@ATOM@/cp_async/;s/@COPY@/async_copy/' %s | kda-opt --pass-pipeline='builtin.module(kda-verify-pipeline,gpu.module(kda-lower-atoms),kda-gpu-to-emu)' | FileCheck %s --check-prefix=EMU32

// gfx942: 16-byte pieces round-robin over the 64 threads, each through
// registers; drained barrier = lds_barrier (bare = s_barrier: gfx950's run),
// no vmcnt.
// GFX942-LABEL: gpu.func @copy(
// GFX942-SAME: %[[Q:[a-z0-9]+]]: memref<?xbf16>, %[[G:[a-z0-9]+]]: memref<?xf32>
// GFX942: amdgpu.lds_barrier
// GFX942: %[[T:.*]] = gpu.thread_id x
// GFX942: scf.for %[[P:.*]] = %[[T]] to %c16 step %c64
// GFX942: vector.load %[[Q]][%{{.*}}] {{.*}}: memref<?xbf16>, vector<8xbf16>
// GFX942: vector.store %{{.*}}, %{{.*}}[%{{.*}}] {{.*}}: memref<128xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
// GFX942: scf.for %{{.*}} = %{{.*}} to %c32 step %c64
// GFX942: vector.load %[[G]][%{{.*}}] {{.*}}: memref<?xf32>, vector<4xf32>
// GFX942: vector.store %{{.*}} : memref<128xf32, #gpu.address_space<workgroup>>, vector<4xf32>
// GFX942-NOT: memory_counter_wait load
// GFX942-NOT: rocdl.s.barrier
// GFX942: amdgpu.lds_barrier
// GFX942: memref.load
// GFX942: amdgpu.lds_barrier
// GFX942-NOT: kda.

// gfx950: wave 0 issues one global_load_lds per 1 KiB region of each row
// (the q row: 1 instruction, 16 pieces; the g row: 1, 32 pieces), so the
// wait for all but 0 groups is vmcnt(0) and the group is 2 instructions.
// GFX950-LABEL: gpu.func @copy(
// GFX950-SAME: %[[Q:[a-z0-9]+]]: memref<?xbf16>, %[[G:[a-z0-9]+]]: memref<?xf32>
// GFX950: %[[T:.*]] = gpu.thread_id x
// GFX950: %[[W0:.*]] = arith.cmpi ult, %[[T]], %c64
// GFX950: scf.if %[[W0]]
// GFX950: arith.remui %{{.*}}, %c16
// GFX950: amdgpu.gather_to_lds %[[Q]][%{{.*}}], %{{.*}}[%c0{{.*}}] : vector<8xbf16>, memref<?xbf16>, memref<512xbf16, #gpu.address_space<workgroup>>
// GFX950: arith.remui %{{.*}}, %c32
// GFX950: amdgpu.gather_to_lds %[[G]][%{{.*}}], %{{.*}}[%c0{{.*}}] : vector<4xf32>, memref<?xf32>, memref<256xf32, #gpu.address_space<workgroup>>
// GFX950: amdgpu.memory_counter_wait load(0)
// GFX950: rocdl.s.barrier
// GFX950-NOT: kda.

// sm_90: cp.async.cg per 16-byte piece over the 64 threads, one commit per
// group, wait_group 0; both barriers are bar.sync.
// SM90-LABEL: gpu.func @copy(
// SM90-SAME: %[[Q:[a-z0-9]+]]: memref<?xbf16>, %[[G:[a-z0-9]+]]: memref<?xf32>
// SM90: gpu.barrier
// SM90: scf.for %{{.*}} to %c16 step %c64
// SM90: nvgpu.device_async_copy %[[Q]][%{{.*}}], %{{.*}}[%{{.*}}], 8 {bypassL1} : memref<?xbf16> to memref<128xbf16, #gpu.address_space<workgroup>>
// SM90: scf.for %{{.*}} to %c32 step %c64
// SM90: nvgpu.device_async_copy %[[G]][%{{.*}}], %{{.*}}[%{{.*}}], 4 {bypassL1} : memref<?xf32> to memref<128xf32, #gpu.address_space<workgroup>>
// SM90: nvvm.cp.async.commit.group
// SM90: nvvm.cp.async.wait.group 0
// SM90: gpu.barrier
// SM90-NOT: kda.

// Emulators: the same atoms as calls with their chip's semantics.
// EMU-LABEL: func.func @copy(
// EMU: vector.load
// EMU: vector.store
// EMU: call @kda_emu_lds_write
// EMU: call @kda_emu_lds_read
// EMU-NOT: kda_emu_cp_async
// EMU-NOT: kda_emu_global_load_lds
// EMU950-LABEL: func.func @copy(
// EMU950: call @kda_emu_global_load_lds
// EMU950: call @kda_emu_global_load_lds
// EMU950: call @kda_emu_async_copy
// EMU950: call @kda_emu_async_wait
// EMU950: call @kda_emu_vmcnt_wait(%{{.*}}, %c0_i64{{.*}})
// EMU32-LABEL: func.func @copy(
// EMU32: scf.for
// EMU32: call @kda_emu_cp_async(%{{.*}}, %{{.*}}, %{{.*}}, %c16_i64)
// EMU32: call @kda_emu_cp_async
// EMU32: call @kda_emu_async_copy
// EMU32: call @kda_emu_async_wait
// EMU32-NOT: kda_emu_vmcnt_wait

gpu.module @kernels attributes {kda.target = #kda.target<"@TARGET@">} {
  kda.lds_buffer @ring slots(1) slot_bytes(2048) offset(0)
  gpu.func @copy(%q: memref<?xbf16>, %g: memref<?xf32>, %out: memref<?xf32>)
      workgroup(%lds : memref<4096xi8, #gpu.address_space<workgroup>>)
      kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    kda.schedule "rows" trip_count(1) depth(1) target("@TARGET@") {
      %c0 = arith.constant 0 : index
      %c1024 = arith.constant 1024 : index
      kda.lds_barrier
      %s = kda.ring_slot %c0 of @ring
      kda.@COPY@ @ring[%s] iter(%c0) do {
        kda.copy_row %q[%c0] to %lds[%c0] elems(128) atom(@ATOM@) : memref<?xbf16>, memref<4096xi8, #gpu.address_space<workgroup>>
        kda.copy_row %g[%c0] to %lds[%c1024] elems(128) atom(@ATOM@) : memref<?xf32>, memref<4096xi8, #gpu.address_space<workgroup>>
      }
      kda.async_wait 0
      kda.barrier
      kda.lds_read @ring[%s] iter(%c0) do {
        %v = memref.view %lds[%c1024][] : memref<4096xi8, #gpu.address_space<workgroup>> to memref<128xf32, #gpu.address_space<workgroup>>
        %x = memref.load %v[%c0] : memref<128xf32, #gpu.address_space<workgroup>>
        memref.store %x, %out[%c0] : memref<?xf32>
      }
      kda.lds_barrier
    }
    gpu.return
  }
}
