// The eighth hand-written-schedule campaign (2026-12-07, fifty-third
// session). Each case was accepted before and shown unsafe on the
// emulator (wrong bytes read before their copy landed, or an LDS race).
// RUN: kda-opt %s -split-input-file -verify-diagnostics --kda-verify-pipeline

// -----

// gfx950's sink (emu950): a schedule with no trip count whose refill copy is
// predicated off. The lowering issues a predicated-off copy's rows into the
// sink slot only up to the trip count, so here the group issued nothing,
// and `kda.async_wait 1` (vmcnt of one group's instructions) passed while
// iteration 1's own rows were still in flight. R0 now: a trip count is
// needed (Atoms/sink-needs-trip-count.mlir: the lowering refuses it too).
module attributes {gpu.container_module} {
gpu.module @kernels attributes {kda.target = #kda.target<"emu950">} {
  kda.lds_buffer @r slots(2) slot_bytes(1024) offset(0)
  gpu.func @k()
      workgroup(%lds : memref<3072xi8, #gpu.address_space<workgroup>>)
      private(%src : memref<1024xf32, #gpu.address_space<private>>,
              %out : memref<2xf32, #gpu.address_space<private>>)
      kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %tid = gpu.thread_id x
    %z0 = arith.constant 0 : index
    %z1 = arith.constant 1 : index
    %z1024 = arith.constant 1024 : index
    %one = arith.constant 1.0 : f32
    scf.for %j = %z0 to %z1024 step %z1 {
      memref.store %one, %src[%j] : memref<1024xf32, #gpu.address_space<private>>
    }
    // expected-error @+1 {{R0: cannot analyse kda.async_copy: a copy predicated off on emu950, whose waits count copy instructions (vmcnt), in a schedule with no trip count}}
    kda.schedule "k" depth(2) target("emu950") {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c64 = arith.constant 64 : index
      %c1024 = arith.constant 1024 : index
      kda.async_copy @r[%c0] iter(%c0) do {
        kda.copy_row %src[%c0] to %lds[%c0] elems(64) atom(global_load_lds) : memref<1024xf32, #gpu.address_space<private>>, memref<3072xi8, #gpu.address_space<workgroup>>
      }
      kda.async_copy @r[%c1] iter(%c1) do {
        kda.copy_row %src[%c64] to %lds[%c1024] elems(64) atom(global_load_lds) : memref<1024xf32, #gpu.address_space<private>>, memref<3072xi8, #gpu.address_space<workgroup>>
      }
      scf.for %i = %c0 to %c2 step %c1 {
        kda.async_wait 1
        kda.lds_barrier
        %s = kda.ring_slot %i of @r
        %rd = arith.muli %s, %c1024 : index
        kda.lds_read @r[%s] iter(%i) do {
          %v = memref.view %lds[%rd][] : memref<3072xi8, #gpu.address_space<workgroup>> to memref<64xf32, #gpu.address_space<workgroup>>
          %q = arith.remui %tid, %c64 : index
          %x = memref.load %v[%q] : memref<64xf32, #gpu.address_space<workgroup>>
          memref.store %x, %out[%i] : memref<2xf32, #gpu.address_space<private>>
        }
        %n = arith.addi %i, %c2 : index
        %p = arith.cmpi slt, %n, %c2 : index
        %sn = kda.ring_slot %n of @r
        kda.async_copy @r[%sn] iter(%n) if(%p) do {
          %at = arith.muli %sn, %c1024 : index
          %so = arith.muli %n, %c64 : index
          kda.copy_row %src[%so] to %lds[%at] elems(64) atom(global_load_lds) : memref<1024xf32, #gpu.address_space<private>>, memref<3072xi8, #gpu.address_space<workgroup>>
        }
      }
      kda.async_wait 0
      kda.lds_barrier
    }
    // A thread that read anything but 1.0 at iteration 1 indexes past %lds.
    %got = memref.load %out[%z1] : memref<2xf32, #gpu.address_space<private>>
    %bad = arith.cmpf une, %got, %one : f32
    %c4096 = arith.constant 4096 : index
    %idx = arith.select %bad, %c4096, %z0 : index
    %probe = memref.load %lds[%idx] : memref<3072xi8, #gpu.address_space<workgroup>>
    gpu.return
  }
}
}

// -----

// A call in a copy's body: the callee takes the dynamic LDS and stores
// into the slot other threads are reading. A call takes no LDS operand, so
// the copy's check saw nothing (inlined by hand, the store is R0 and the
// emulator shows the race). R0: a copy's body may not call or take a
// pointer.
module attributes {gpu.container_module} {
gpu.module @kernels attributes {kda.target = #kda.target<"emu">} {
  kda.lds_buffer @r slots(2) slot_bytes(1024) offset(0)
  func.func @helper() {
    %d = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %c0 = arith.constant 0 : index
    %v = memref.view %d[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<256xf32, #gpu.address_space<workgroup>>
    %f = arith.constant 7.0 : f32
    %c5 = arith.constant 5 : index
    memref.store %f, %v[%c5] : memref<256xf32, #gpu.address_space<workgroup>>
    return
  }
  gpu.func @k()
      private(%src : memref<1024xf32, #gpu.address_space<private>>)
      kernel attributes {known_block_size = array<i32: 64, 1, 1>, kda.dynamic_lds_bytes = 2048 : i64} {
    %tid = gpu.thread_id x
    %dyn = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %c00 = arith.constant 0 : index
    %lds = memref.view %dyn[%c00][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<2048xi8, #gpu.address_space<workgroup>>
    // expected-error @+1 {{R0: cannot analyse func.call: a copy's body calls a function or takes a pointer, which may reach LDS the copy's rows do not name}}
    kda.schedule "k" trip_count(2) depth(2) target("emu") {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c64 = arith.constant 64 : index
      %c1024 = arith.constant 1024 : index
      kda.staged_copy @r[%c0] iter(%c0) do {
        kda.copy_row %src[%c0] to %lds[%c0] elems(256) atom(staged) : memref<1024xf32, #gpu.address_space<private>>, memref<2048xi8, #gpu.address_space<workgroup>>
      }
      kda.lds_barrier
      scf.for %i = %c0 to %c2 step %c1 {
        %s = kda.ring_slot %i of @r
        %rd = arith.muli %s, %c1024 : index
        kda.lds_read @r[%s] iter(%i) do {
          %v = memref.view %lds[%rd][] : memref<2048xi8, #gpu.address_space<workgroup>> to memref<256xf32, #gpu.address_space<workgroup>>
          %x = memref.load %v[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
        }
        %n = arith.addi %i, %c1 : index
        %p = arith.cmpi slt, %n, %c2 : index
        %sn = kda.ring_slot %n of @r
        %at = arith.muli %sn, %c1024 : index
        kda.staged_copy @r[%sn] iter(%n) if(%p) do {
          func.call @helper() : () -> ()
          kda.copy_row %src[%c0] to %lds[%at] elems(256) atom(staged) : memref<1024xf32, #gpu.address_space<private>>, memref<2048xi8, #gpu.address_space<workgroup>>
        }
        kda.lds_barrier
      }
    }
    gpu.return
  }
}
}
