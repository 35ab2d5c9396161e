// A schedule's read bodies whose scratch indices take values the same for
// every thread that the per-thread evaluation cannot compute (a block size,
// a block id, a ring slot) or loop counters of the body. Such a shift added
// alike to both accesses' indices moves both alike and is compared without
// it; shifts that differ, an index that is no sum of evaluated terms and
// shifts, and a loop's value seen on two trips are R0. Loop counters whose
// bounds evaluate are enumerated, trip by trip.
// RUN: kda-opt %s -split-input-file -verify-diagnostics --kda-verify-pipeline

// Each thread stores its word at tid + u, then loads its neighbour's at
// tid + u + 1, u = block_dim - 64 (0 here, unknown to the evaluation): R1,
// its bytes counted without the block size (4 x (tid + 1 - 64)).
module attributes {gpu.container_module} {
gpu.module @kernels attributes {kda.target = #kda.target<"emu">} {
  kda.lds_buffer @r slots(1) slot_bytes(1024) offset(0)
  gpu.func @k()
      workgroup(%lds : memref<1024xi8, #gpu.address_space<workgroup>>, %scr : memref<128xf32, #gpu.address_space<workgroup>>)
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
        %bd = gpu.block_dim x
        %u = arith.subi %bd, %c64 : index
        %at = arith.addi %tid, %u : index
        // expected-note @+1 {{the other access}}
        memref.store %x, %scr[%at] : memref<128xf32, #gpu.address_space<workgroup>>
        %n = arith.addi %at, %c1 : index
        // expected-error @+1 {{inside schedule 'k' (its read bodies' accesses among the threads): thread 0 reads bytes [-252, -248) of workgroup attribution 1 (counted without 4 bytes x the result of gpu.block_dim, which both indices add) that thread 1 wrote in the same barrier interval (threads of one role)}}
        %y = memref.load %scr[%n] : memref<128xf32, #gpu.address_space<workgroup>>
      }
      kda.lds_barrier
    }
    gpu.return
  }
}
}

// -----

// The same shift, each thread its own word: accepted.
module attributes {gpu.container_module} {
gpu.module @kernels attributes {kda.target = #kda.target<"emu">} {
  kda.lds_buffer @r slots(1) slot_bytes(1024) offset(0)
  gpu.func @k()
      workgroup(%lds : memref<1024xi8, #gpu.address_space<workgroup>>, %scr : memref<128xf32, #gpu.address_space<workgroup>>)
      private(%src : memref<1024xf32, #gpu.address_space<private>>)
      kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %tid = gpu.thread_id x
    kda.schedule "k" trip_count(1) depth(1) target("emu") {
      %c0 = arith.constant 0 : index
      %c64 = arith.constant 64 : index
      kda.staged_copy @r[%c0] iter(%c0) do {
        kda.copy_row %src[%c0] to %lds[%c0] elems(256) atom(staged) : memref<1024xf32, #gpu.address_space<private>>, memref<1024xi8, #gpu.address_space<workgroup>>
      }
      kda.lds_barrier
      kda.lds_read @r[%c0] iter(%c0) do {
        %v = memref.view %lds[%c0][] : memref<1024xi8, #gpu.address_space<workgroup>> to memref<256xf32, #gpu.address_space<workgroup>>
        %x = memref.load %v[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
        %bd = gpu.block_dim x
        %u = arith.subi %bd, %c64 : index
        %at = arith.addi %tid, %u : index
        memref.store %x, %scr[%at] : memref<128xf32, #gpu.address_space<workgroup>>
        %y = memref.load %scr[%at] : memref<128xf32, #gpu.address_space<workgroup>>
      }
      kda.lds_barrier
    }
    gpu.return
  }
}
}

// -----

// Shifted by two different values the evaluation cannot compute (the block
// size less 64, the block id clamped to 63): how far apart the two
// accesses lie is not known: R0.
module attributes {gpu.container_module} {
gpu.module @kernels attributes {kda.target = #kda.target<"emu">} {
  kda.lds_buffer @r slots(1) slot_bytes(1024) offset(0)
  gpu.func @k()
      workgroup(%lds : memref<1024xi8, #gpu.address_space<workgroup>>, %scr : memref<128xf32, #gpu.address_space<workgroup>>)
      private(%src : memref<1024xf32, #gpu.address_space<private>>)
      kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %tid = gpu.thread_id x
    kda.schedule "k" trip_count(1) depth(1) target("emu") {
      %c0 = arith.constant 0 : index
      %c63 = arith.constant 63 : index
      %c64 = arith.constant 64 : index
      kda.staged_copy @r[%c0] iter(%c0) do {
        kda.copy_row %src[%c0] to %lds[%c0] elems(256) atom(staged) : memref<1024xf32, #gpu.address_space<private>>, memref<1024xi8, #gpu.address_space<workgroup>>
      }
      kda.lds_barrier
      kda.lds_read @r[%c0] iter(%c0) do {
        %v = memref.view %lds[%c0][] : memref<1024xi8, #gpu.address_space<workgroup>> to memref<256xf32, #gpu.address_space<workgroup>>
        %x = memref.load %v[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
        %bd = gpu.block_dim x
        %u = arith.subi %bd, %c64 : index
        %at = arith.addi %tid, %u : index
        // expected-note @+1 {{the other access}}
        memref.store %x, %scr[%at] : memref<128xf32, #gpu.address_space<workgroup>>
        %bid = gpu.block_id x
        %w = arith.minui %bid, %c63 : index
        %n = arith.addi %tid, %w : index
        // expected-error @+1 {{R0: schedule entry in kernel 'k': inside schedule 'k' (its read bodies' accesses among the threads): cannot analyse memref.load against the write of the same array in one barrier interval: their indices are shifted by different values the same for every thread that are not evaluated (none against 4 bytes x the result of gpu.block_dim), so the distance between them is not known}}
        %y = memref.load %scr[%n] : memref<128xf32, #gpu.address_space<workgroup>>
      }
      kda.lds_barrier
    }
    gpu.return
  }
}
}

// -----

// A select on a condition the same for every thread that the evaluation
// cannot decide (block 0 or not) between the thread's word and its
// neighbour's: the condition, an i1 the same for every thread, is
// enumerated over its two values, and where it is false thread 0 reads
// thread 1's word (R1).
module attributes {gpu.container_module} {
gpu.module @kernels attributes {kda.target = #kda.target<"emu">} {
  kda.lds_buffer @r slots(1) slot_bytes(1024) offset(0)
  gpu.func @k()
      workgroup(%lds : memref<1024xi8, #gpu.address_space<workgroup>>, %scr : memref<128xf32, #gpu.address_space<workgroup>>)
      private(%src : memref<1024xf32, #gpu.address_space<private>>)
      kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %tid = gpu.thread_id x
    kda.schedule "k" trip_count(1) depth(1) target("emu") {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      kda.staged_copy @r[%c0] iter(%c0) do {
        kda.copy_row %src[%c0] to %lds[%c0] elems(256) atom(staged) : memref<1024xf32, #gpu.address_space<private>>, memref<1024xi8, #gpu.address_space<workgroup>>
      }
      kda.lds_barrier
      kda.lds_read @r[%c0] iter(%c0) do {
        %v = memref.view %lds[%c0][] : memref<1024xi8, #gpu.address_space<workgroup>> to memref<256xf32, #gpu.address_space<workgroup>>
        %x = memref.load %v[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
        // expected-note @+1 {{the other access}}
        memref.store %x, %scr[%tid] : memref<128xf32, #gpu.address_space<workgroup>>
        %bid = gpu.block_id x
        %first = arith.cmpi eq, %bid, %c0 : index
        %n = arith.addi %tid, %c1 : index
        %at = arith.select %first, %tid, %n : index
        // expected-error @+1 {{R1: schedule entry in kernel 'k': inside schedule 'k' (its read bodies' accesses among the threads): thread 0 reads bytes [4, 8) of workgroup attribution 1 with the result of arith.cmpi at 0 that thread 1 wrote}}
        %y = memref.load %scr[%at] : memref<128xf32, #gpu.address_space<workgroup>>
      }
      kda.lds_barrier
    }
    gpu.return
  }
}
}

// -----

// A loop in the body: each trip stores the thread's word of row j and
// loads its neighbour's of the same row. Its counter is enumerated: thread
// 63 reads what thread 0 wrote on trip 0: R1.
module attributes {gpu.container_module} {
gpu.module @kernels attributes {kda.target = #kda.target<"emu">} {
  kda.lds_buffer @r slots(1) slot_bytes(1024) offset(0)
  gpu.func @k()
      workgroup(%lds : memref<1024xi8, #gpu.address_space<workgroup>>, %scr : memref<128xf32, #gpu.address_space<workgroup>>)
      private(%src : memref<1024xf32, #gpu.address_space<private>>)
      kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %tid = gpu.thread_id x
    kda.schedule "k" trip_count(1) depth(1) target("emu") {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c64 = arith.constant 64 : index
      kda.staged_copy @r[%c0] iter(%c0) do {
        kda.copy_row %src[%c0] to %lds[%c0] elems(256) atom(staged) : memref<1024xf32, #gpu.address_space<private>>, memref<1024xi8, #gpu.address_space<workgroup>>
      }
      kda.lds_barrier
      kda.lds_read @r[%c0] iter(%c0) do {
        %v = memref.view %lds[%c0][] : memref<1024xi8, #gpu.address_space<workgroup>> to memref<256xf32, #gpu.address_space<workgroup>>
        %x = memref.load %v[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
        scf.for %j = %c0 to %c2 step %c1 {
          %row = arith.muli %j, %c64 : index
          %at = arith.addi %tid, %row : index
          // expected-note @+1 {{the other access}}
          memref.store %x, %scr[%at] : memref<128xf32, #gpu.address_space<workgroup>>
          %n = arith.addi %tid, %c1 : index
          %m = arith.remui %n, %c64 : index
          %nb = arith.addi %m, %row : index
          // expected-error @+1 {{thread 63 reads bytes [0, 4) of workgroup attribution 1 that thread 0 wrote in the same barrier interval (threads of one role)}}
          %y = memref.load %scr[%nb] : memref<128xf32, #gpu.address_space<workgroup>>
        }
      }
      kda.lds_barrier
    }
    gpu.return
  }
}
}

// -----

// The same loop, each thread its own word of each row (stored, then read
// back): no two threads meet on any pair of trips: accepted.
module attributes {gpu.container_module} {
gpu.module @kernels attributes {kda.target = #kda.target<"emu">} {
  kda.lds_buffer @r slots(1) slot_bytes(1024) offset(0)
  gpu.func @k()
      workgroup(%lds : memref<1024xi8, #gpu.address_space<workgroup>>, %scr : memref<128xf32, #gpu.address_space<workgroup>>)
      private(%src : memref<1024xf32, #gpu.address_space<private>>)
      kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %tid = gpu.thread_id x
    kda.schedule "k" trip_count(1) depth(1) target("emu") {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c64 = arith.constant 64 : index
      kda.staged_copy @r[%c0] iter(%c0) do {
        kda.copy_row %src[%c0] to %lds[%c0] elems(256) atom(staged) : memref<1024xf32, #gpu.address_space<private>>, memref<1024xi8, #gpu.address_space<workgroup>>
      }
      kda.lds_barrier
      kda.lds_read @r[%c0] iter(%c0) do {
        %v = memref.view %lds[%c0][] : memref<1024xi8, #gpu.address_space<workgroup>> to memref<256xf32, #gpu.address_space<workgroup>>
        %x = memref.load %v[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
        scf.for %j = %c0 to %c2 step %c1 {
          %row = arith.muli %j, %c64 : index
          %at = arith.addi %tid, %row : index
          memref.store %x, %scr[%at] : memref<128xf32, #gpu.address_space<workgroup>>
          %y = memref.load %scr[%at] : memref<128xf32, #gpu.address_space<workgroup>>
        }
      }
      kda.lds_barrier
    }
    gpu.return
  }
}
}

// -----

// Trip j stores word tid + j: no two threads meet within a trip, but on
// trip 1 thread 0 overwrites the word thread 1 stored on trip 0, with no
// barrier between the trips: R2.
module attributes {gpu.container_module} {
gpu.module @kernels attributes {kda.target = #kda.target<"emu">} {
  kda.lds_buffer @r slots(1) slot_bytes(1024) offset(0)
  gpu.func @k()
      workgroup(%lds : memref<1024xi8, #gpu.address_space<workgroup>>, %scr : memref<128xf32, #gpu.address_space<workgroup>>)
      private(%src : memref<1024xf32, #gpu.address_space<private>>)
      kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %tid = gpu.thread_id x
    kda.schedule "k" trip_count(1) depth(1) target("emu") {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      kda.staged_copy @r[%c0] iter(%c0) do {
        kda.copy_row %src[%c0] to %lds[%c0] elems(256) atom(staged) : memref<1024xf32, #gpu.address_space<private>>, memref<1024xi8, #gpu.address_space<workgroup>>
      }
      kda.lds_barrier
      kda.lds_read @r[%c0] iter(%c0) do {
        %v = memref.view %lds[%c0][] : memref<1024xi8, #gpu.address_space<workgroup>> to memref<256xf32, #gpu.address_space<workgroup>>
        %x = memref.load %v[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
        scf.for %j = %c0 to %c2 step %c1 {
          %at = arith.addi %tid, %j : index
          // expected-error @+1 {{thread 0 writes bytes [4, 8) of workgroup attribution 1 that thread 1 wrote in the same barrier interval (threads of one role)}}
          memref.store %x, %scr[%at] : memref<128xf32, #gpu.address_space<workgroup>>
        }
      }
      kda.lds_barrier
    }
    gpu.return
  }
}
}

// -----

// The schedule's ring slot in the index: within one trip of the schedule's
// loop both accesses take the same slot (R1: the neighbour's word). The
// next split carries the store into the next trip with no barrier: the
// slots, evaluated from the counter, place the two trips' words apart
// (accepted). The split after it takes the slot of a run-time iteration,
// enumerated over [0, 2) independently on each trip: thread 0's word at
// slot 1 is thread 32's at slot 0 (R2).
module attributes {gpu.container_module} {
gpu.module @kernels attributes {kda.target = #kda.target<"emu">} {
  kda.lds_buffer @r slots(2) slot_bytes(1024) offset(0)
  gpu.func @k()
      workgroup(%lds : memref<2048xi8, #gpu.address_space<workgroup>>, %scr : memref<256xf32, #gpu.address_space<workgroup>>)
      private(%src : memref<1024xf32, #gpu.address_space<private>>)
      kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %tid = gpu.thread_id x
    kda.schedule "k" trip_count(2) depth(2) target("emu") {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
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
          %x = memref.load %v[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
          %base = arith.muli %s, %c64 : index
          %at = arith.addi %tid, %base : index
          // expected-note @+1 {{the other access}}
          memref.store %x, %scr[%at] : memref<256xf32, #gpu.address_space<workgroup>>
          %n = arith.addi %at, %c1 : index
          // expected-error @+1 {{thread 0 reads bytes [4, 8) of workgroup attribution 1 that thread 1 wrote}}
          %y = memref.load %scr[%n] : memref<256xf32, #gpu.address_space<workgroup>>
        }
      }
      kda.lds_barrier
    }
    gpu.return
  }
}
}

// -----

module attributes {gpu.container_module} {
gpu.module @kernels attributes {kda.target = #kda.target<"emu">} {
  kda.lds_buffer @r slots(2) slot_bytes(1024) offset(0)
  gpu.func @k()
      workgroup(%lds : memref<2048xi8, #gpu.address_space<workgroup>>, %scr : memref<256xf32, #gpu.address_space<workgroup>>)
      private(%src : memref<1024xf32, #gpu.address_space<private>>)
      kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %tid = gpu.thread_id x
    kda.schedule "k" trip_count(2) depth(2) target("emu") {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
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
          %x = memref.load %v[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
          %base = arith.muli %s, %c64 : index
          %at = arith.addi %tid, %base : index
          memref.store %x, %scr[%at] : memref<256xf32, #gpu.address_space<workgroup>>
        }
      }
      kda.lds_barrier
    }
    gpu.return
  }
}
}

// -----

module attributes {gpu.container_module} {
gpu.module @kernels attributes {kda.target = #kda.target<"emu">} {
  kda.lds_buffer @r slots(2) slot_bytes(1024) offset(0)
  gpu.func @k(%off: index)
      workgroup(%lds : memref<2048xi8, #gpu.address_space<workgroup>>, %scr : memref<256xf32, #gpu.address_space<workgroup>>)
      private(%src : memref<1024xf32, #gpu.address_space<private>>)
      kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %tid = gpu.thread_id x
    kda.schedule "k" trip_count(2) depth(2) target("emu") {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c32 = arith.constant 32 : index
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
          %x = memref.load %v[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
          %k = arith.addi %i, %off : index
          %q = kda.ring_slot %k of @r
          %base = arith.muli %q, %c32 : index
          %at = arith.addi %tid, %base : index
          // expected-error @+1 {{R2: schedule entry in kernel 'k': inside schedule 'k' (its read bodies' accesses among the threads): thread 0 writes bytes [128, 132) of workgroup attribution 1 with the result of kda.ring_slot at 1 that thread 32 wrote with the result of kda.ring_slot at 0}}
          memref.store %x, %scr[%at] : memref<256xf32, #gpu.address_space<workgroup>>
        }
      }
      kda.lds_barrier
    }
    gpu.return
  }
}
}

// -----

// Branches on the body loop's counter: trip 0 stores each thread's word,
// trip 1 loads the neighbour's, a barrier ends each trip. Placed trip by
// trip, a thread makes only the access its trip's branch takes: accepted.
module attributes {gpu.container_module} {
gpu.module @kernels attributes {kda.target = #kda.target<"emu">} {
  kda.lds_buffer @r slots(1) slot_bytes(1024) offset(0)
  gpu.func @k()
      workgroup(%lds : memref<1024xi8, #gpu.address_space<workgroup>>, %scr : memref<128xf32, #gpu.address_space<workgroup>>)
      private(%src : memref<1024xf32, #gpu.address_space<private>>)
      kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %tid = gpu.thread_id x
    kda.schedule "k" trip_count(1) depth(1) target("emu") {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c64 = arith.constant 64 : index
      kda.staged_copy @r[%c0] iter(%c0) do {
        kda.copy_row %src[%c0] to %lds[%c0] elems(256) atom(staged) : memref<1024xf32, #gpu.address_space<private>>, memref<1024xi8, #gpu.address_space<workgroup>>
      }
      kda.lds_barrier
      kda.lds_read @r[%c0] iter(%c0) do {
        %v = memref.view %lds[%c0][] : memref<1024xi8, #gpu.address_space<workgroup>> to memref<256xf32, #gpu.address_space<workgroup>>
        %x = memref.load %v[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
        scf.for %j = %c0 to %c2 step %c1 {
          %first = arith.cmpi eq, %j, %c0 : index
          scf.if %first {
            memref.store %x, %scr[%tid] : memref<128xf32, #gpu.address_space<workgroup>>
          }
          %second = arith.cmpi eq, %j, %c1 : index
          scf.if %second {
            %n = arith.addi %tid, %c1 : index
            %m = arith.remui %n, %c64 : index
            %y = memref.load %scr[%m] : memref<128xf32, #gpu.address_space<workgroup>>
          }
          gpu.barrier
        }
      }
      kda.lds_barrier
    }
    gpu.return
  }
}
}

// -----

// A body loop of 4096 trips whose index takes its counter without moving
// (j & 0): each thread's one word at every trip, 2^18 placements a side,
// 4096 to a byte that may not pair (one thread, or one trip at two values).
// The comparison stops at 2^26 pairs: R0 rather than minutes.
module attributes {gpu.container_module} {
gpu.module @kernels attributes {kda.target = #kda.target<"emu">} {
  kda.lds_buffer @r slots(1) slot_bytes(1024) offset(0)
  gpu.func @k()
      workgroup(%lds : memref<1024xi8, #gpu.address_space<workgroup>>, %scr : memref<128xf32, #gpu.address_space<workgroup>>)
      private(%src : memref<1024xf32, #gpu.address_space<private>>)
      kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %tid = gpu.thread_id x
    kda.schedule "k" trip_count(1) depth(1) target("emu") {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4096 = arith.constant 4096 : index
      kda.staged_copy @r[%c0] iter(%c0) do {
        kda.copy_row %src[%c0] to %lds[%c0] elems(256) atom(staged) : memref<1024xf32, #gpu.address_space<private>>, memref<1024xi8, #gpu.address_space<workgroup>>
      }
      kda.lds_barrier
      kda.lds_read @r[%c0] iter(%c0) do {
        %v = memref.view %lds[%c0][] : memref<1024xi8, #gpu.address_space<workgroup>> to memref<256xf32, #gpu.address_space<workgroup>>
        %x = memref.load %v[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
        scf.for %j = %c0 to %c4096 step %c1 {
          %z = arith.andi %j, %c0 : index
          %at = arith.addi %tid, %z : index
          // expected-error @+1 {{cannot analyse memref.store against the write of the same array in one barrier interval: more pairs of the two accesses' placements (threads at each trip of the loops their indices take) than are compared (2^26 for two accesses, 2^28 for the whole check)}}
          memref.store %x, %scr[%at] : memref<128xf32, #gpu.address_space<workgroup>>
        }
      }
      kda.lds_barrier
    }
    gpu.return
  }
}
}
