// A schedule is verified from quiescent LDS: the kernel's own accesses
// before it (plain loads and stores, another schedule's neighbours) must be
// ordered by a drained barrier before the schedule touches the same bytes.
// kda-verify-pipeline walks every kernel holding a schedule, its branches
// and loops included, and checks the schedule's ops up to its first
// top-level kda.lds_barrier against the accesses of the interval it starts
// in (LdsHandoffs.cpp, findScheduleEntryHazard).
// RUN: kda-opt %s -split-input-file -verify-diagnostics --kda-verify-pipeline

// A store into the ring's first slot, then the prologue's copy into the same
// bytes with nothing between: another thread's copy row may land before or
// after the store (R2).
gpu.module @kernels attributes {kda.target = #kda.target<"sm_90">} {
  kda.lds_buffer @r slots(2) slot_bytes(1024) offset(0)
  gpu.func @store_then_prologue(%src: memref<?xf32>, %x: f32)
      workgroup(%lds : memref<2048xi8, #gpu.address_space<workgroup>>)
      kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
    %tid = gpu.thread_id x
    %c0i = arith.constant 0 : index
    %v0 = memref.view %lds[%c0i][] : memref<2048xi8, #gpu.address_space<workgroup>> to memref<256xf32, #gpu.address_space<workgroup>>
    // expected-note @+1 {{the other access: memref.store}}
    memref.store %x, %v0[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
    kda.schedule "tokens" trip_count(4) depth(2) target("sm_90") {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c1024 = arith.constant 1024 : index
      // expected-error @+1 {{R2: schedule entry in kernel 'store_then_prologue': schedule 'tokens' writes bytes [0, 1024) of workgroup attribution 0 that threads [0, 256) wrote before it with no drained barrier between}}
      kda.async_copy @r[%c0] iter(%c0) do {
        kda.copy_row %src[%c0] to %lds[%c0] elems(256) atom(cp_async) : memref<?xf32>, memref<2048xi8, #gpu.address_space<workgroup>>
      }
      scf.for %i = %c0 to %c4 step %c1 {
        %n = arith.addi %i, %c1 : index
        %p = arith.cmpi slt, %n, %c4 : index
        %sn = kda.ring_slot %n of @r
        %at = arith.muli %sn, %c1024 : index
        kda.async_copy @r[%sn] iter(%n) if(%p) do {
          kda.copy_row %src[%c0] to %lds[%at] elems(256) atom(cp_async) : memref<?xf32>, memref<2048xi8, #gpu.address_space<workgroup>>
        }
        kda.async_wait 1
        kda.lds_barrier
        %s = kda.ring_slot %i of @r
        %rd = arith.muli %s, %c1024 : index
        kda.lds_read @r[%s] iter(%i) do {
          %v = memref.view %lds[%rd][] : memref<2048xi8, #gpu.address_space<workgroup>> to memref<256xf32, #gpu.address_space<workgroup>>
          %z = memref.load %v[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
          memref.store %z, %src[%tid] : memref<?xf32>
        }
        kda.lds_barrier
      }
      kda.async_wait 0
    }
    gpu.return
  }
}

// -----

// The same kernel with a barrier between the store and the schedule: safe.
gpu.module @kernels attributes {kda.target = #kda.target<"sm_90">} {
  kda.lds_buffer @r slots(2) slot_bytes(1024) offset(0)
  gpu.func @store_barrier_prologue(%src: memref<?xf32>, %x: f32)
      workgroup(%lds : memref<2048xi8, #gpu.address_space<workgroup>>)
      kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
    %tid = gpu.thread_id x
    %c0i = arith.constant 0 : index
    %v0 = memref.view %lds[%c0i][] : memref<2048xi8, #gpu.address_space<workgroup>> to memref<256xf32, #gpu.address_space<workgroup>>
    memref.store %x, %v0[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
    gpu.barrier
    kda.schedule "tokens" trip_count(4) depth(2) target("sm_90") {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c1024 = arith.constant 1024 : index
      kda.async_copy @r[%c0] iter(%c0) do {
        kda.copy_row %src[%c0] to %lds[%c0] elems(256) atom(cp_async) : memref<?xf32>, memref<2048xi8, #gpu.address_space<workgroup>>
      }
      scf.for %i = %c0 to %c4 step %c1 {
        %n = arith.addi %i, %c1 : index
        %p = arith.cmpi slt, %n, %c4 : index
        %sn = kda.ring_slot %n of @r
        %at = arith.muli %sn, %c1024 : index
        kda.async_copy @r[%sn] iter(%n) if(%p) do {
          kda.copy_row %src[%c0] to %lds[%at] elems(256) atom(cp_async) : memref<?xf32>, memref<2048xi8, #gpu.address_space<workgroup>>
        }
        kda.async_wait 1
        kda.lds_barrier
        %s = kda.ring_slot %i of @r
        %rd = arith.muli %s, %c1024 : index
        kda.lds_read @r[%s] iter(%i) do {
          %v = memref.view %lds[%rd][] : memref<2048xi8, #gpu.address_space<workgroup>> to memref<256xf32, #gpu.address_space<workgroup>>
          %z = memref.load %v[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
          memref.store %z, %src[%tid] : memref<?xf32>
        }
        kda.lds_barrier
      }
      kda.async_wait 0
    }
    gpu.return
  }
}

// -----

// Thread 0 reads the ring's bytes (a leftover of an earlier phase) just
// before the prologue copies into them: a write after a read with nothing
// between (R2), however few threads read.
gpu.module @kernels attributes {kda.target = #kda.target<"sm_90">} {
  kda.lds_buffer @r slots(1) slot_bytes(1024) offset(0)
  gpu.func @read_then_prologue(%src: memref<?xf32>)
      workgroup(%lds : memref<1024xi8, #gpu.address_space<workgroup>>)
      kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
    %tid = gpu.thread_id x
    %c0i = arith.constant 0 : index
    %first = arith.cmpi eq, %tid, %c0i : index
    scf.if %first {
      %v0 = memref.view %lds[%c0i][] : memref<1024xi8, #gpu.address_space<workgroup>> to memref<256xf32, #gpu.address_space<workgroup>>
      // expected-note @+1 {{the other access: %}}
      %old = memref.load %v0[%c0i] : memref<256xf32, #gpu.address_space<workgroup>>
      memref.store %old, %src[%c0i] : memref<?xf32>
    }
    kda.schedule "tokens" trip_count(1) depth(1) target("sm_90") {
      %c0 = arith.constant 0 : index
      // expected-error @+1 {{R2: schedule entry in kernel 'read_then_prologue': schedule 'tokens' writes bytes [0, 1024) of workgroup attribution 0 that threads [0, 1) read before it}}
      kda.async_copy @r[%c0] iter(%c0) do {
        kda.copy_row %src[%c0] to %lds[%c0] elems(256) atom(cp_async) : memref<?xf32>, memref<1024xi8, #gpu.address_space<workgroup>>
      }
      kda.async_wait 0
      kda.lds_barrier
      kda.lds_read @r[%c0] iter(%c0) do {
        %v = memref.view %lds[%c0][] : memref<1024xi8, #gpu.address_space<workgroup>> to memref<256xf32, #gpu.address_space<workgroup>>
        %z = memref.load %v[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
        memref.store %z, %src[%tid] : memref<?xf32>
      }
      kda.lds_barrier
    }
    gpu.return
  }
}

// -----

// Stores before the schedule that its first interval does not touch: an
// array of their own (the copy writes only the ring), and an array the read
// body reads only after the schedule's first drained barrier. Safe.
gpu.module @kernels attributes {kda.target = #kda.target<"sm_90">} {
  kda.lds_buffer @r slots(1) slot_bytes(1024) offset(0)
  gpu.func @other_arrays(%src: memref<?xf32>, %x: f32)
      workgroup(%lds : memref<1024xi8, #gpu.address_space<workgroup>>,
                %terms : memref<256xf32, #gpu.address_space<workgroup>>,
                %mine : memref<256xf32, #gpu.address_space<workgroup>>)
      kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
    %tid = gpu.thread_id x
    memref.store %x, %terms[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
    memref.store %x, %mine[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
    kda.schedule "tokens" trip_count(1) depth(1) target("sm_90") {
      %c0 = arith.constant 0 : index
      %c255 = arith.constant 255 : index
      kda.async_copy @r[%c0] iter(%c0) do {
        kda.copy_row %src[%c0] to %lds[%c0] elems(256) atom(cp_async) : memref<?xf32>, memref<1024xi8, #gpu.address_space<workgroup>>
      }
      kda.async_wait 0
      kda.lds_barrier
      kda.lds_read @r[%c0] iter(%c0) do {
        %v = memref.view %lds[%c0][] : memref<1024xi8, #gpu.address_space<workgroup>> to memref<256xf32, #gpu.address_space<workgroup>>
        %z = memref.load %v[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
        %o = arith.subi %c255, %tid : index
        %t = memref.load %terms[%o] : memref<256xf32, #gpu.address_space<workgroup>>
        %zt = arith.addf %z, %t : f32
        memref.store %zt, %src[%tid] : memref<?xf32>
      }
      kda.lds_barrier
    }
    %y = memref.load %mine[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
    memref.store %y, %src[%tid] : memref<?xf32>
    gpu.return
  }
}

// -----

// A read body that reads an array the kernel stored just before the
// schedule, with only a bare barrier (after the copy's wait) between: on
// gfx950 s_barrier does not wait for the store's lgkmcnt, so the read may
// see the old word (R1). Only a drained barrier (kda.lds_barrier) closes
// the interval a schedule starts in.
gpu.module @kernels attributes {kda.target = #kda.target<"gfx950">} {
  kda.lds_buffer @r slots(1) slot_bytes(1024) offset(0)
  gpu.func @terms_before_barrier(%src: memref<?xf32>, %x: f32)
      workgroup(%lds : memref<1024xi8, #gpu.address_space<workgroup>>,
                %terms : memref<256xf32, #gpu.address_space<workgroup>>)
      kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
    %tid = gpu.thread_id x
    // expected-note @+1 {{the other access: memref.store}}
    memref.store %x, %terms[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
    kda.schedule "tokens" trip_count(1) depth(1) target("gfx950") {
      %c0 = arith.constant 0 : index
      %c255 = arith.constant 255 : index
      kda.async_copy @r[%c0] iter(%c0) do {
        kda.copy_row %src[%c0] to %lds[%c0] elems(256) atom(global_load_lds) : memref<?xf32>, memref<1024xi8, #gpu.address_space<workgroup>>
      }
      kda.async_wait 0
      kda.barrier
      // expected-error @+1 {{R1: schedule entry in kernel 'terms_before_barrier': schedule 'tokens' reads bytes [0, 1024) of workgroup attribution 1 that threads [0, 256) wrote before it}}
      kda.lds_read @r[%c0] iter(%c0) do {
        %v = memref.view %lds[%c0][] : memref<1024xi8, #gpu.address_space<workgroup>> to memref<256xf32, #gpu.address_space<workgroup>>
        %z = memref.load %v[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
        %o = arith.subi %c255, %tid : index
        %t = memref.load %terms[%o] : memref<256xf32, #gpu.address_space<workgroup>>
        %zt = arith.addf %z, %t : f32
        memref.store %zt, %src[%tid] : memref<?xf32>
      }
      kda.lds_barrier
    }
    gpu.return
  }
}

// -----

// The schedule in a loop, the kernel's own store into the ring after it:
// the schedule ends quiescent, but the next trip's prologue copies into the
// bytes the store wrote with no barrier between (R2, through the loop's
// back edge).
gpu.module @kernels attributes {kda.target = #kda.target<"sm_90">} {
  kda.lds_buffer @r slots(1) slot_bytes(1024) offset(0)
  gpu.func @store_after_in_loop(%src: memref<?xf32>, %x: f32, %n: index)
      workgroup(%lds : memref<1024xi8, #gpu.address_space<workgroup>>)
      kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
    %tid = gpu.thread_id x
    %c0i = arith.constant 0 : index
    %c1i = arith.constant 1 : index
    scf.for %pass = %c0i to %n step %c1i {
      kda.schedule "tokens" trip_count(1) depth(1) target("sm_90") {
        %c0 = arith.constant 0 : index
        // expected-error @+1 {{R2: schedule entry in kernel 'store_after_in_loop': schedule 'tokens' writes bytes [0, 1024) of workgroup attribution 0 that threads [0, 256) wrote before it}}
        kda.async_copy @r[%c0] iter(%c0) do {
          kda.copy_row %src[%c0] to %lds[%c0] elems(256) atom(cp_async) : memref<?xf32>, memref<1024xi8, #gpu.address_space<workgroup>>
        }
        kda.async_wait 0
        kda.lds_barrier
        kda.lds_read @r[%c0] iter(%c0) do {
          %v = memref.view %lds[%c0][] : memref<1024xi8, #gpu.address_space<workgroup>> to memref<256xf32, #gpu.address_space<workgroup>>
          %z = memref.load %v[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
          memref.store %z, %src[%tid] : memref<?xf32>
        }
        kda.lds_barrier
      }
      %v0 = memref.view %lds[%c0i][] : memref<1024xi8, #gpu.address_space<workgroup>> to memref<256xf32, #gpu.address_space<workgroup>>
      // expected-note @+1 {{the other access: memref.store}}
      memref.store %x, %v0[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
    }
    gpu.return
  }
}

// -----

// Two schedules on one ring's bytes with the kernel's store between them,
// no barrier after it: R2 at the second schedule's copy.
gpu.module @kernels attributes {kda.target = #kda.target<"gfx942">} {
  kda.lds_buffer @a slots(1) slot_bytes(1024) offset(0)
  kda.lds_buffer @b slots(1) slot_bytes(1024) offset(0)
  gpu.func @between_schedules(%src: memref<?xf32>, %x: f32)
      workgroup(%lds : memref<1024xi8, #gpu.address_space<workgroup>>)
      kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
    %tid = gpu.thread_id x
    %c0i = arith.constant 0 : index
    kda.schedule "a" trip_count(1) depth(1) target("gfx942") {
      %c0 = arith.constant 0 : index
      kda.staged_copy @a[%c0] iter(%c0) do {
        kda.copy_row %src[%c0] to %lds[%c0] elems(256) atom(staged) : memref<?xf32>, memref<1024xi8, #gpu.address_space<workgroup>>
      }
      kda.lds_barrier
      kda.lds_read @a[%c0] iter(%c0) do {
        %v = memref.view %lds[%c0][] : memref<1024xi8, #gpu.address_space<workgroup>> to memref<256xf32, #gpu.address_space<workgroup>>
        %z = memref.load %v[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
        memref.store %z, %src[%tid] : memref<?xf32>
      }
      kda.lds_barrier
    }
    %v0 = memref.view %lds[%c0i][] : memref<1024xi8, #gpu.address_space<workgroup>> to memref<256xf32, #gpu.address_space<workgroup>>
    %c255 = arith.constant 255 : index
    %o = arith.subi %c255, %tid : index
    // expected-note @+1 {{the other access: memref.store}}
    memref.store %x, %v0[%o] : memref<256xf32, #gpu.address_space<workgroup>>
    kda.schedule "b" trip_count(1) depth(1) target("gfx942") {
      %c0 = arith.constant 0 : index
      // expected-error @+1 {{R2: schedule entry in kernel 'between_schedules': schedule 'b' writes bytes [0, 1024) of workgroup attribution 0 that threads [0, 256) wrote before it}}
      kda.staged_copy @b[%c0] iter(%c0) do {
        kda.copy_row %src[%c0] to %lds[%c0] elems(256) atom(staged) : memref<?xf32>, memref<1024xi8, #gpu.address_space<workgroup>>
      }
      kda.lds_barrier
      kda.lds_read @b[%c0] iter(%c0) do {
        %v = memref.view %lds[%c0][] : memref<1024xi8, #gpu.address_space<workgroup>> to memref<256xf32, #gpu.address_space<workgroup>>
        %z = memref.load %v[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
        memref.store %z, %src[%tid] : memref<?xf32>
      }
      kda.lds_barrier
    }
    gpu.return
  }
}

// -----

// Symbolic copies name no array: any workgroup store before them, in a
// kernel without known_block_size, is taken to touch their bytes (R2).
gpu.module @kernels attributes {kda.target = #kda.target<"gfx950">} {
  kda.lds_buffer @u slots(2) slot_bytes(8192) offset(0)
  gpu.func @symbolic(%x: f32)
      workgroup(%other : memref<64xf32, #gpu.address_space<workgroup>>)
      kernel {
    %tid = gpu.thread_id x
    // expected-note @+1 {{the other access: memref.store}}
    memref.store %x, %other[%tid] : memref<64xf32, #gpu.address_space<workgroup>>
    kda.schedule "u" trip_count(2) depth(2) target("gfx950") {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      // expected-error @+1 {{R2: schedule entry in kernel 'symbolic': schedule 'u' writes bytes [0, 256) of workgroup attribution 0 that threads (any: the block size is not known) wrote before it}}
      kda.async_copy @u[%c0] iter(%c0)
      scf.for %i = %c0 to %c2 step %c1 {
        %n = arith.addi %i, %c1 : index
        %p = arith.cmpi slt, %n, %c2 : index
        %sn = kda.ring_slot %n of @u
        kda.async_copy @u[%sn] iter(%n) if(%p)
        kda.async_wait 1
        kda.lds_barrier
        %s = kda.ring_slot %i of @u
        kda.lds_read @u[%s] iter(%i)
        kda.lds_barrier
      }
      kda.async_wait 0
    }
    gpu.return
  }
}

// -----

// A schedule only the first wave runs: its barriers and wait counts are
// verified for every thread of the block, so it cannot be analysed (R0).
gpu.module @kernels attributes {kda.target = #kda.target<"sm_90">} {
  kda.lds_buffer @r slots(1) slot_bytes(1024) offset(0)
  gpu.func @divergent_schedule(%src: memref<?xf32>)
      workgroup(%lds : memref<1024xi8, #gpu.address_space<workgroup>>)
      kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
    %tid = gpu.thread_id x
    %c32 = arith.constant 32 : index
    %wave0 = arith.cmpi ult, %tid, %c32 : index
    scf.if %wave0 {
      // expected-error @+1 {{R0: schedule entry in kernel 'divergent_schedule': cannot analyse schedule 'tokens' where not every thread of the block may reach it}}
      kda.schedule "tokens" trip_count(1) depth(1) target("sm_90") {
        %c0 = arith.constant 0 : index
        kda.async_copy @r[%c0] iter(%c0) do {
          kda.copy_row %src[%c0] to %lds[%c0] elems(256) atom(cp_async) : memref<?xf32>, memref<1024xi8, #gpu.address_space<workgroup>>
        }
        kda.async_wait 0
        kda.lds_barrier
        kda.lds_read @r[%c0] iter(%c0) do {
          %v = memref.view %lds[%c0][] : memref<1024xi8, #gpu.address_space<workgroup>> to memref<256xf32, #gpu.address_space<workgroup>>
          %z = memref.load %v[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
          memref.store %z, %src[%tid] : memref<?xf32>
        }
        kda.lds_barrier
      }
    }
    gpu.return
  }
}
