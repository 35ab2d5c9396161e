// Campaign 12 of hand-written schedules: each accepted before (the last hung
// the verifier) and, where runnable, shown unsafe on the emulator's race
// detector. The campaign's negative trip count is Atoms/trip-count-clamp.mlir.
// RUN: kda-opt %s -split-input-file -verify-diagnostics --kda-verify-pipeline

// A read body stores its own scratch word, then loads a neighbour's through an
// index computed from a load (always + 0, but not evaluable per thread): the
// race went unseen. R0 inside schedules.
module attributes {gpu.container_module} {
gpu.module @kernels attributes {kda.target = #kda.target<"emu">} {
  kda.lds_buffer @r slots(2) slot_bytes(1024) offset(0)
  gpu.func @k()
      workgroup(%lds : memref<2048xi8, #gpu.address_space<workgroup>>,
                %scr : memref<256xf32, #gpu.address_space<workgroup>>)
      private(%src : memref<1024xf32, #gpu.address_space<private>>)
      kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
    %tid = gpu.thread_id x
    kda.schedule "k" trip_count(3) depth(2) target("emu") {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c3 = arith.constant 3 : index
      %c256 = arith.constant 256 : index
      %c1024 = arith.constant 1024 : index
      kda.staged_copy @r[%c0] iter(%c0) do {
        kda.copy_row %src[%c0] to %lds[%c0] elems(256) atom(staged) : memref<1024xf32, #gpu.address_space<private>>, memref<2048xi8, #gpu.address_space<workgroup>>
      }
      scf.for %i = %c0 to %c3 step %c1 {
        kda.lds_barrier
        %n = arith.addi %i, %c1 : index
        %p = arith.cmpi slt, %n, %c3 : index
        %sn = kda.ring_slot %n of @r
        kda.staged_copy @r[%sn] iter(%n) if(%p) do {
          %at = arith.muli %sn, %c1024 : index
          kda.copy_row %src[%c0] to %lds[%at] elems(256) atom(staged) : memref<1024xf32, #gpu.address_space<private>>, memref<2048xi8, #gpu.address_space<workgroup>>
        }
        %s = kda.ring_slot %i of @r
        %rd = arith.muli %s, %c1024 : index
        kda.lds_read @r[%s] iter(%i) do {
          %v = memref.view %lds[%rd][] : memref<2048xi8, #gpu.address_space<workgroup>> to memref<256xf32, #gpu.address_space<workgroup>>
          %x = memref.load %v[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
          // expected-note @+1 {{the other access: memref.store %5, %arg1[%thread_id_x] : mem}}
          memref.store %x, %scr[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
          %f = memref.load %src[%c0] : memref<1024xf32, #gpu.address_space<private>>
          %fi = arith.fptoui %f : f32 to i32
          %k = arith.index_castui %fi : i32 to index
          %one = arith.remui %k, %c1 : index
          %j0 = arith.addi %tid, %c1 : index
          %j1 = arith.addi %j0, %one : index
          %j = arith.remui %j1, %c256 : index
          // expected-error @+1 {{R0: schedule entry in kernel 'k': inside schedule 'k' (its read bodies' accesses among the threads): cannot an}}
          %y = memref.load %scr[%j] : memref<256xf32, #gpu.address_space<workgroup>>
        }
      }
      kda.lds_barrier
    }
    gpu.return
  }
}
}

// -----

// The same exchange in a kernel without known_block_size: the threads could
// not be enumerated and the check was off. R0 inside schedules.
module attributes {gpu.container_module} {
gpu.module @kernels attributes {kda.target = #kda.target<"emu">} {
  kda.lds_buffer @r slots(2) slot_bytes(1024) offset(0)
  gpu.func @k()
      workgroup(%lds : memref<2048xi8, #gpu.address_space<workgroup>>,
                %scr : memref<256xf32, #gpu.address_space<workgroup>>)
      private(%src : memref<1024xf32, #gpu.address_space<private>>)
      kernel {
    %tid0 = gpu.thread_id x
    %c256k = arith.constant 256 : index
    %tid = arith.remui %tid0, %c256k : index
    kda.schedule "k" trip_count(3) depth(2) target("emu") {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c3 = arith.constant 3 : index
      %c256 = arith.constant 256 : index
      %c1024 = arith.constant 1024 : index
      kda.staged_copy @r[%c0] iter(%c0) do {
        kda.copy_row %src[%c0] to %lds[%c0] elems(256) atom(staged) : memref<1024xf32, #gpu.address_space<private>>, memref<2048xi8, #gpu.address_space<workgroup>>
      }
      scf.for %i = %c0 to %c3 step %c1 {
        kda.lds_barrier
        %n = arith.addi %i, %c1 : index
        %p = arith.cmpi slt, %n, %c3 : index
        %sn = kda.ring_slot %n of @r
        kda.staged_copy @r[%sn] iter(%n) if(%p) do {
          %at = arith.muli %sn, %c1024 : index
          kda.copy_row %src[%c0] to %lds[%at] elems(256) atom(staged) : memref<1024xf32, #gpu.address_space<private>>, memref<2048xi8, #gpu.address_space<workgroup>>
        }
        %s = kda.ring_slot %i of @r
        %rd = arith.muli %s, %c1024 : index
        kda.lds_read @r[%s] iter(%i) do {
          %v = memref.view %lds[%rd][] : memref<2048xi8, #gpu.address_space<workgroup>> to memref<256xf32, #gpu.address_space<workgroup>>
          %x = memref.load %v[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
          // expected-error @+2 {{R0: schedule entry in kernel 'k': inside schedule 'k' (its read bodies' accesses among the threads): cannot an}}
          // expected-note @+1 {{the other access: memref.store %6, %arg1[%0] : memref<256xf3}}
          memref.store %x, %scr[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
          %f = memref.load %src[%c0] : memref<1024xf32, #gpu.address_space<private>>
          %fi = arith.fptoui %f : f32 to i32
          %k = arith.index_castui %fi : i32 to index
          %one = arith.remui %k, %c1 : index
          %j0 = arith.addi %tid, %c1 : index
          %j1 = arith.addi %j0, %c0 : index
          %j = arith.remui %j1, %c256 : index
          %y = memref.load %scr[%j] : memref<256xf32, #gpu.address_space<workgroup>>
        }
      }
      kda.lds_barrier
    }
    gpu.return
  }
}
}

// -----

// A store through arith.select of a kernel argument was not counted as a write
// of it: the trip count loaded from it was taken as the same for every thread.
// A write through a memref not traced to an argument now counts as a write of
// every argument.
module attributes {gpu.container_module} {
gpu.module @kernels attributes {kda.target = #kda.target<"emu">} {
  kda.lds_buffer @r slots(2) slot_bytes(1024) offset(0)
  gpu.func @k(%a: memref<4xindex>)
      workgroup(%lds : memref<2048xi8, #gpu.address_space<workgroup>>)
      private(%src : memref<1024xf32, #gpu.address_space<private>>)
      kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
    %tid = gpu.thread_id x
    %k0 = arith.constant 0 : index
    %tr = arith.constant true
    %m = arith.select %tr, %a, %a : memref<4xindex>
    memref.store %tid, %m[%k0] : memref<4xindex>
    %t = memref.load %a[%k0] : memref<4xindex>
    // expected-error @+1 {{R0: cannot analyse kda.schedule: its dynamic trip count is not shown the same for every thread (constants, blo}}
    kda.schedule "k" dynamic_trip_count(%t) depth(2) target("emu") {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c256 = arith.constant 256 : index
      %c1024 = arith.constant 1024 : index
      %p0 = arith.cmpi slt, %c0, %t : index
      kda.staged_copy @r[%c0] iter(%c0) if(%p0) do {
        kda.copy_row %src[%c0] to %lds[%c0] elems(256) atom(staged) : memref<1024xf32, #gpu.address_space<private>>, memref<2048xi8, #gpu.address_space<workgroup>>
      }
      %tm1 = arith.subi %t, %c1 : index
      scf.for %i = %c0 to %tm1 step %c1 {
        kda.lds_barrier
        %n = arith.addi %i, %c1 : index
        %sn = kda.ring_slot %n of @r
        kda.staged_copy @r[%sn] iter(%n) do {
          %at = arith.muli %sn, %c1024 : index
          kda.copy_row %src[%c0] to %lds[%at] elems(256) atom(staged) : memref<1024xf32, #gpu.address_space<private>>, memref<2048xi8, #gpu.address_space<workgroup>>
        }
        %s = kda.ring_slot %i of @r
        %rd = arith.muli %s, %c1024 : index
        kda.lds_read @r[%s] iter(%i) do {
          %v = memref.view %lds[%rd][] : memref<2048xi8, #gpu.address_space<workgroup>> to memref<256xf32, #gpu.address_space<workgroup>>
          %x = memref.load %v[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
        }
      }
      %pe = arith.cmpi sgt, %t, %c0 : index
      scf.if %pe {
        kda.lds_barrier
        %s = kda.ring_slot %tm1 of @r
        %rd = arith.muli %s, %c1024 : index
        kda.lds_read @r[%s] iter(%tm1) do {
          %v = memref.view %lds[%rd][] : memref<2048xi8, #gpu.address_space<workgroup>> to memref<256xf32, #gpu.address_space<workgroup>>
          %x = memref.load %v[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
        }
      }
      kda.lds_barrier
    }
    gpu.return
  }
}
}

// -----

// A mask of 2^62 on the loop counter: finding its period doubled past int64
// and never ended. Refused by the longest period the proof takes.
kda.lds_buffer @h slots(2) slot_bytes(4096) offset(0)
func.func @hang(%t0: index) {
  %zero = arith.constant 0 : index
  %t = arith.maxsi %t0, %zero : index
  // expected-error @+1 {{R0: cannot analyse arith.andi: it masks a moving value with 4611686018427387904, whose period passes the 4096 }}
  kda.schedule "hang" dynamic_trip_count(%t) depth(2) target("sm_90") {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %big = arith.constant 4611686018427387904 : index
    %p0 = arith.cmpi slt, %c0, %t : index
    kda.async_copy @h[%c0] iter(%c0) if(%p0)
    scf.for %i = %c0 to %t step %c1 {
      %m = arith.andi %i, %big : index
      %z = arith.cmpi eq, %m, %c0 : index
      scf.if %z {
        kda.async_wait 0
      }
      kda.lds_barrier
      %s = kda.ring_slot %i of @h
      kda.lds_read @h[%s] iter(%i)
      %n = arith.addi %i, %c1 : index
      %p = arith.cmpi slt, %n, %t : index
      %sn = kda.ring_slot %n of @h
      kda.async_copy @h[%sn] iter(%n) if(%p)
    }
    kda.async_wait 0
    kda.lds_barrier
  }
  return
}

// -----

// (Review of the fix) A value computed from the trip count outside the
// schedule keeps a negative T where the lowering clamps only its uses inside:
// R0.
module attributes {gpu.container_module} {
gpu.module @kernels attributes {kda.target = #kda.target<"emu">} {
  kda.lds_buffer @r slots(2) slot_bytes(1024) offset(0)
  gpu.func @k()
      workgroup(%lds : memref<2048xi8, #gpu.address_space<workgroup>>)
      private(%src : memref<1024xf32, #gpu.address_space<private>>)
      kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
    %tid = gpu.thread_id x
    %bid = gpu.block_id x
    %one = arith.constant 1 : index
    %t = arith.subi %one, %bid : index
    %c1o = arith.constant 1 : index
    %tm1 = arith.subi %t, %c1o : index
    // expected-error @+1 {{R0: cannot analyse arith.subi: it is computed from the schedule's dynamic trip count outside the schedule, where the lowering does not clamp a negative one to 0; compute it inside}}
    kda.schedule "k" dynamic_trip_count(%t) depth(2) target("emu") {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c256 = arith.constant 256 : index
      %c1024 = arith.constant 1024 : index
      %p0 = arith.cmpi slt, %c0, %t : index
      kda.staged_copy @r[%c0] iter(%c0) if(%p0) do {
        kda.copy_row %src[%c0] to %lds[%c0] elems(256) atom(staged) : memref<1024xf32, #gpu.address_space<private>>, memref<2048xi8, #gpu.address_space<workgroup>>
      }
      scf.for %i = %c0 to %tm1 step %c1 {
        kda.lds_barrier
        %n = arith.addi %i, %c1 : index
        %sn = kda.ring_slot %n of @r
        kda.staged_copy @r[%sn] iter(%n) do {
          %at = arith.muli %sn, %c1024 : index
          kda.copy_row %src[%c0] to %lds[%at] elems(256) atom(staged) : memref<1024xf32, #gpu.address_space<private>>, memref<2048xi8, #gpu.address_space<workgroup>>
        }
        %s = kda.ring_slot %i of @r
        %rd = arith.muli %s, %c1024 : index
        kda.lds_read @r[%s] iter(%i) do {
          %v = memref.view %lds[%rd][] : memref<2048xi8, #gpu.address_space<workgroup>> to memref<256xf32, #gpu.address_space<workgroup>>
          %x = memref.load %v[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
        }
      }
      %pe = arith.cmpi ne, %t, %c0 : index
      scf.if %pe {
        kda.lds_barrier
        %s = kda.ring_slot %tm1 of @r
        %rd = arith.muli %s, %c1024 : index
        kda.lds_read @r[%s] iter(%tm1) do {
          %v = memref.view %lds[%rd][] : memref<2048xi8, #gpu.address_space<workgroup>> to memref<256xf32, #gpu.address_space<workgroup>>
          %x = memref.load %v[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
        }
      }
      kda.lds_barrier
    }
    gpu.return
  }
}
}
