// The sixth hand-written-schedule campaign (2026-12-06, fifty-second
// session): each unsafe case was accepted before and confirmed on the
// emulator (kda-emu-run with the race detector: a predicated-off
// global_load_lds landing in the live slot; LDS races on the scratch
// array).
// RUN: kda-opt %s -split-input-file -verify-diagnostics --kda-verify-pipeline

// -----

// gfx950's sink: the predicated-off copy's row byte is computed outside
// the copy body from the slot. The lowering clones only the body, mapping
// the slot operand it names, so %at keeps the real slot's bytes and the
// predicated-off global_load_lds lands in slot i % 2 while other waves read
// it. The model read %at through the sink slot (checkSinkRows now pins
// what the body takes from outside): R2.
module attributes {gpu.container_module} {
gpu.module @kernels attributes {kda.target = #kda.target<"emu950">} {
  kda.lds_buffer @r slots(2) slot_bytes(1024) offset(0)
  gpu.func @k()
      workgroup(%lds : memref<3072xi8, #gpu.address_space<workgroup>>)
      private(%src : memref<1024xf32, #gpu.address_space<private>>)
      kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %tid = gpu.thread_id x
    // expected-error @+1 {{R2: the copy of iteration 1 into @r slot 2 (the sink slot, where it lands predicated off) has a copy row that writes bytes [0, 1024), outside the slot's bytes [2048, 3072)}}
    kda.schedule "k" trip_count(2) depth(2) target("emu950") {
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
        }
        %n = arith.addi %i, %c2 : index
        %p = arith.cmpi slt, %n, %c2 : index
        %sn = kda.ring_slot %n of @r
        %at = arith.muli %sn, %c1024 : index
        kda.async_copy @r[%sn] iter(%n) if(%p) do {
          %so = arith.muli %n, %c64 : index
          kda.copy_row %src[%so] to %lds[%at] elems(64) atom(global_load_lds) : memref<1024xf32, #gpu.address_space<private>>, memref<3072xi8, #gpu.address_space<workgroup>>
        }
      }
      kda.async_wait 0
      kda.lds_barrier
    }
    gpu.return
  }
}
}

// -----

// The same with the row's byte computed inside the body from the slot
// operand (the lowering maps it to the sink): safe, accepted.
module attributes {gpu.container_module} {
gpu.module @kernels attributes {kda.target = #kda.target<"emu950">} {
  kda.lds_buffer @r slots(2) slot_bytes(1024) offset(0)
  gpu.func @k()
      workgroup(%lds : memref<3072xi8, #gpu.address_space<workgroup>>)
      private(%src : memref<1024xf32, #gpu.address_space<private>>)
      kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %tid = gpu.thread_id x
    kda.schedule "k" trip_count(2) depth(2) target("emu950") {
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
    gpu.return
  }
}
}

// -----

// A read body exchanges values through a scratch array beside the ring:
// each thread stores its word, then loads its neighbour's, with no barrier
// between. The interpreter bounded these accesses to their array but did
// not order them among the threads; the walk of the schedule's read
// bodies (LdsHandoffs.cpp, walkInside) does: R1.
module attributes {gpu.container_module} {
gpu.module @kernels attributes {kda.target = #kda.target<"emu">} {
  kda.lds_buffer @r slots(1) slot_bytes(1024) offset(0)
  gpu.func @k()
      workgroup(%lds : memref<1024xi8, #gpu.address_space<workgroup>>, %scr : memref<64xf32, #gpu.address_space<workgroup>>)
      private(%src : memref<1024xf32, #gpu.address_space<private>>)
      kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %tid = gpu.thread_id x
    kda.schedule "k" trip_count(1) depth(1) target("emu") {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c64 = arith.constant 64 : index
      kda.staged_copy @r[%c0] iter(%c0) do {
        kda.copy_row %src[%c0] to %lds[%c0] elems(256) atom(staged) : memref<1024xf32, #gpu.address_space<private>>, memref<1024xi8, #gpu.address_space<workgroup>>
      }
      kda.lds_barrier
      kda.lds_read @r[%c0] iter(%c0) do {
        %v = memref.view %lds[%c0][] : memref<1024xi8, #gpu.address_space<workgroup>> to memref<256xf32, #gpu.address_space<workgroup>>
        %x = memref.load %v[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
        // expected-note @+1 {{the other access}}
        memref.store %x, %scr[%tid] : memref<64xf32, #gpu.address_space<workgroup>>
        %n = arith.addi %tid, %c1 : index
        %m = arith.remui %n, %c64 : index
        // expected-error @+1 {{inside schedule 'k' (its read bodies' accesses among the threads): thread 63 reads bytes [0, 4) of workgroup attribution 1 that thread 0 wrote in the same barrier interval (threads of one role)}}
        %y = memref.load %scr[%m] : memref<64xf32, #gpu.address_space<workgroup>>
      }
      kda.lds_barrier
    }
    gpu.return
  }
}
}

// -----

// The same across iterations: both tiles copied up front, then the reads
// of iterations 0 and 1 back to back with no barrier between; iteration
// 1's store by thread 1 overwrites what thread 0 read in iteration 0: R2.
module attributes {gpu.container_module} {
gpu.module @kernels attributes {kda.target = #kda.target<"emu">} {
  kda.lds_buffer @r slots(2) slot_bytes(1024) offset(0)
  gpu.func @k()
      workgroup(%lds : memref<2048xi8, #gpu.address_space<workgroup>>, %scr : memref<64xf32, #gpu.address_space<workgroup>>)
      private(%src : memref<1024xf32, #gpu.address_space<private>>)
      kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %tid = gpu.thread_id x
    kda.schedule "k" trip_count(2) depth(2) target("emu") {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c63 = arith.constant 63 : index
      %c64 = arith.constant 64 : index
      %c1024 = arith.constant 1024 : index
      kda.staged_copy @r[%c0] iter(%c0) do {
        kda.copy_row %src[%c0] to %lds[%c0] elems(256) atom(staged) : memref<1024xf32, #gpu.address_space<private>>, memref<2048xi8, #gpu.address_space<workgroup>>
      }
      kda.staged_copy @r[%c1] iter(%c1) do {
        kda.copy_row %src[%c0] to %lds[%c1024] elems(256) atom(staged) : memref<1024xf32, #gpu.address_space<private>>, memref<2048xi8, #gpu.address_space<workgroup>>
      }
      kda.lds_barrier
      scf.for %i = %c0 to %c2 step %c1 {
        %s = kda.ring_slot %i of @r
        %rd = arith.muli %s, %c1024 : index
        kda.lds_read @r[%s] iter(%i) do {
          %v = memref.view %lds[%rd][] : memref<2048xi8, #gpu.address_space<workgroup>> to memref<256xf32, #gpu.address_space<workgroup>>
          %n = arith.addi %tid, %c1 : index
          %m = arith.minui %n, %c63 : index
          // expected-note @+1 {{the other access}}
          %y = memref.load %scr[%m] : memref<64xf32, #gpu.address_space<workgroup>>
          %x = memref.load %v[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
          %z = arith.addf %x, %y : f32
          // expected-error @+1 {{inside schedule 'k' (its read bodies' accesses among the threads): thread 1 writes bytes [4, 8) of workgroup attribution 1 that thread 0 read in the same barrier interval (threads of one role)}}
          memref.store %z, %scr[%tid] : memref<64xf32, #gpu.address_space<workgroup>>
        }
      }
      kda.lds_barrier
    }
    gpu.return
  }
}
}

// -----

// The exchange with a barrier between the store and the load: accepted.
module attributes {gpu.container_module} {
gpu.module @kernels attributes {kda.target = #kda.target<"emu">} {
  kda.lds_buffer @r slots(1) slot_bytes(1024) offset(0)
  gpu.func @k()
      workgroup(%lds : memref<1024xi8, #gpu.address_space<workgroup>>, %scr : memref<64xf32, #gpu.address_space<workgroup>>)
      private(%src : memref<1024xf32, #gpu.address_space<private>>)
      kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %tid = gpu.thread_id x
    kda.schedule "k" trip_count(1) depth(1) target("emu") {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c64 = arith.constant 64 : index
      kda.staged_copy @r[%c0] iter(%c0) do {
        kda.copy_row %src[%c0] to %lds[%c0] elems(256) atom(staged) : memref<1024xf32, #gpu.address_space<private>>, memref<1024xi8, #gpu.address_space<workgroup>>
      }
      kda.lds_barrier
      kda.lds_read @r[%c0] iter(%c0) do {
        %v = memref.view %lds[%c0][] : memref<1024xi8, #gpu.address_space<workgroup>> to memref<256xf32, #gpu.address_space<workgroup>>
        %x = memref.load %v[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
        memref.store %x, %scr[%tid] : memref<64xf32, #gpu.address_space<workgroup>>
        gpu.barrier
        %n = arith.addi %tid, %c1 : index
        %m = arith.remui %n, %c64 : index
        %y = memref.load %scr[%m] : memref<64xf32, #gpu.address_space<workgroup>>
      }
      kda.lds_barrier
    }
    gpu.return
  }
}
}
