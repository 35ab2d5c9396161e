// The seventeenth campaign (2026-12-07, fifty-ninth session) against the read-body
// comparison of hazards-uniform-shift.mlir: views at run-time byte shifts inside
// read bodies (placed in their source, the shift one more index), atomics of
// different sizes, a counter that wraps, and a loop of no trip.
// RUN: kda-opt %s -split-input-file -verify-diagnostics --kda-verify-pipeline

// A view at a run-time shift (block_dim - 64, 0 here) against a view of the same bytes at offset 0: the distance between them is not known (R0). (Left open in the fifty-ninth session, when views of different run-time shifts stayed apart so that a ring slot's tile beside scratch at a constant offset passed; the slot is now enumerated over its range instead, hazards-campaign3 beside_sink.)
module attributes {gpu.container_module} {
gpu.module @kernels attributes {kda.target = #kda.target<"emu">} {
  kda.lds_buffer @r slots(1) slot_bytes(1024) offset(0)
  gpu.func @k()
      workgroup(%lds : memref<1024xi8, #gpu.address_space<workgroup>>, %b : memref<1024xi8, #gpu.address_space<workgroup>>)
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
        // u = block_dim x - 64 = 0 (block of 64), unknown to the evaluation
        %bd = gpu.block_dim x
        %c64 = arith.constant 64 : index
        %u = arith.subi %bd, %c64 : index
        %vd = memref.view %b[%u][] : memref<1024xi8, #gpu.address_space<workgroup>> to memref<128xf32, #gpu.address_space<workgroup>>
        %vc = memref.view %b[%c0][] : memref<1024xi8, #gpu.address_space<workgroup>> to memref<128xf32, #gpu.address_space<workgroup>>
        // expected-note @+1 {{the other access}}
        memref.store %x, %vd[%tid] : memref<128xf32, #gpu.address_space<workgroup>>
        %n = arith.addi %tid, %c1 : index
        // expected-error @+1 {{R0: schedule entry in kernel 'k': inside schedule 'k' (its read bodies' accesses among the threads): cannot analyse memref.load against the write of the same array in one barrier interval: their indices are shifted by different values the same for every thread that are not evaluated (none against 1 bytes x the result of gpu.block_dim), so the distance between them is not known}}
        %y = memref.load %vc[%n] : memref<128xf32, #gpu.address_space<workgroup>>
      }
      kda.lds_barrier
    }
    gpu.return
  }
}
}

// -----

// A view at the shift, and a view at the same shift of a view at offset 0: the same bytes, the shift cancels: thread 0 reads what thread 1 wrote (R1).
module attributes {gpu.container_module} {
gpu.module @kernels attributes {kda.target = #kda.target<"emu">} {
  kda.lds_buffer @r slots(1) slot_bytes(1024) offset(0)
  gpu.func @k()
      workgroup(%lds : memref<1024xi8, #gpu.address_space<workgroup>>, %b : memref<1024xi8, #gpu.address_space<workgroup>>)
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
        %bd = gpu.block_dim x
        %c64 = arith.constant 64 : index
        %u = arith.subi %bd, %c64 : index
        %w = memref.view %b[%c0][] : memref<1024xi8, #gpu.address_space<workgroup>> to memref<1024xi8, #gpu.address_space<workgroup>>
        %v1 = memref.view %b[%u][] : memref<1024xi8, #gpu.address_space<workgroup>> to memref<128xf32, #gpu.address_space<workgroup>>
        %v2 = memref.view %w[%u][] : memref<1024xi8, #gpu.address_space<workgroup>> to memref<128xf32, #gpu.address_space<workgroup>>
        // expected-note @+1 {{the other access:}}
        memref.store %x, %v1[%tid] : memref<128xf32, #gpu.address_space<workgroup>>
        %n = arith.addi %tid, %c1 : index
        // expected-error @+1 {{thread 0 reads bytes [-60, -56) of workgroup attribution 1 (counted without 1 bytes x the result of gpu.block_dim, which both indices add) that thread 1 wrote in the same barrier interval (threads of one role): no barrie}}
        %y = memref.load %v2[%n] : memref<128xf32, #gpu.address_space<workgroup>>
      }
      kda.lds_barrier
    }
    gpu.return
  }
}
}

// -----

// A view whose shift differs per thread (4 tid): thread t's words t and t + 64 of the view are words 2t and 2t + 64 of the array: thread 0 reads what thread 32 wrote (R1). Before, the per-thread shift was dropped.
module attributes {gpu.container_module} {
gpu.module @kernels attributes {kda.target = #kda.target<"emu">} {
  kda.lds_buffer @r slots(1) slot_bytes(1024) offset(0)
  gpu.func @k()
      workgroup(%lds : memref<1024xi8, #gpu.address_space<workgroup>>, %b : memref<1024xi8, #gpu.address_space<workgroup>>)
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
        // thread t's view starts at byte 4t: v[i] is word t + i of %b
        %c4 = arith.constant 4 : index
        %c64 = arith.constant 64 : index
        %t4 = arith.muli %tid, %c4 : index
        %vt = memref.view %b[%t4][] : memref<1024xi8, #gpu.address_space<workgroup>> to memref<128xf32, #gpu.address_space<workgroup>>
        // expected-note @+1 {{the other access:}}
        memref.store %x, %vt[%tid] : memref<128xf32, #gpu.address_space<workgroup>>
        %n = arith.addi %tid, %c64 : index
        // expected-error @+1 {{thread 0 reads bytes [256, 260) of workgroup attribution 1 that thread 32 wrote in the same barrier interval (threads of one role): no barrier between them}}
        %y = memref.load %vt[%n] : memref<128xf32, #gpu.address_space<workgroup>>
      }
      kda.lds_barrier
    }
    gpu.return
  }
}
}

// -----

// The same view, each thread only its own word: accepted (before: a false R2).
module attributes {gpu.container_module} {
gpu.module @kernels attributes {kda.target = #kda.target<"emu">} {
  kda.lds_buffer @r slots(1) slot_bytes(1024) offset(0)
  gpu.func @k()
      workgroup(%lds : memref<1024xi8, #gpu.address_space<workgroup>>, %b : memref<1024xi8, #gpu.address_space<workgroup>>)
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
        %c4 = arith.constant 4 : index
        %t4 = arith.muli %tid, %c4 : index
        %vt = memref.view %b[%t4][] : memref<1024xi8, #gpu.address_space<workgroup>> to memref<128xf32, #gpu.address_space<workgroup>>
        memref.store %x, %vt[%c0] : memref<128xf32, #gpu.address_space<workgroup>>
        %y = memref.load %vt[%c0] : memref<128xf32, #gpu.address_space<workgroup>>
      }
      kda.lds_barrier
    }
    gpu.return
  }
}
}

// -----

// A view shifted by a body loop's counter (4 j): on trip 1 thread 0 writes the word thread 1 wrote on trip 0, no barrier between (R2).
module attributes {gpu.container_module} {
gpu.module @kernels attributes {kda.target = #kda.target<"emu">} {
  kda.lds_buffer @r slots(1) slot_bytes(1024) offset(0)
  gpu.func @k()
      workgroup(%lds : memref<1024xi8, #gpu.address_space<workgroup>>, %b : memref<1024xi8, #gpu.address_space<workgroup>>)
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
        %c2 = arith.constant 2 : index
        %c4 = arith.constant 4 : index
        scf.for %j = %c0 to %c2 step %c1 {
          %sh = arith.muli %j, %c4 : index
          %vj = memref.view %b[%sh][] : memref<1024xi8, #gpu.address_space<workgroup>> to memref<128xf32, #gpu.address_space<workgroup>>
          // expected-error @+1 {{thread 0 writes bytes [4, 8) of workgroup attribution 1 that thread 1 wrote in the same barrier interval (threads of one role): no barrier between them}}
          memref.store %x, %vj[%tid] : memref<128xf32, #gpu.address_space<workgroup>>
        }
      }
      kda.lds_barrier
    }
    gpu.return
  }
}
}

// -----

// A view shifted by the ring slot, carried across the schedule's iterations with no barrier: the slot, evaluated from the counter, is 0 on trip 0 and 1 on trip 1, so thread 0's word on trip 1 is thread 1's on trip 0 (R2).
module attributes {gpu.container_module} {
gpu.module @kernels attributes {kda.target = #kda.target<"emu">} {
  kda.lds_buffer @r slots(2) slot_bytes(1024) offset(0)
  gpu.func @k()
      workgroup(%lds : memref<2048xi8, #gpu.address_space<workgroup>>, %b : memref<1024xi8, #gpu.address_space<workgroup>>)
      private(%src : memref<1024xf32, #gpu.address_space<private>>)
      kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %tid = gpu.thread_id x
    kda.schedule "k" trip_count(2) depth(2) target("emu") {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c4 = arith.constant 4 : index
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
          %sh = arith.muli %s, %c4 : index
          %vs = memref.view %b[%sh][] : memref<1024xi8, #gpu.address_space<workgroup>> to memref<128xf32, #gpu.address_space<workgroup>>
          // expected-error @+1 {{R2: schedule entry in kernel 'k': inside schedule 'k' (its read bodies' accesses among the threads): thread 0 writes bytes [4, 8) of workgroup attribution 1 that thread 1 wrote in the same barrier interval}}
          memref.store %x, %vs[%tid] : memref<128xf32, #gpu.address_space<workgroup>>
        }
      }
      kda.lds_barrier
    }
    gpu.return
  }
}
}

// -----

// An i8 counter whose step after the last trip wraps (250, 253, then 0 in the lowering): not enumerated trip by trip, but as an i8 it takes at most 256 values, each enumerated (any two on different trips): at 249 (-7, a wrapped trip's kind) thread 0 writes thread 1's word at 250 (R2).
module attributes {gpu.container_module} {
gpu.module @kernels attributes {kda.target = #kda.target<"emu">} {
  kda.lds_buffer @r slots(1) slot_bytes(1024) offset(0)
  gpu.func @k()
      workgroup(%lds : memref<1024xi8, #gpu.address_space<workgroup>>, %b : memref<1024xi8, #gpu.address_space<workgroup>>)
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
        %scr = memref.view %b[%c0][] : memref<1024xi8, #gpu.address_space<workgroup>> to memref<256xf32, #gpu.address_space<workgroup>>
        %lb = arith.constant 250 : i8
        %ub = arith.constant 255 : i8
        %st = arith.constant 3 : i8
        // trips 250, 253 as the checker counts them; lowered (convert-scf-to-cf,
        // iv + step wrapping in i8) also 0, 3, ..., 252
        scf.for unsigned %j = %lb to %ub step %st : i8 {
          %wrapped = arith.cmpi ult, %j, %lb : i8
          %one = arith.select %wrapped, %c1, %c0 : index
          %at = arith.addi %tid, %one : index
          // expected-error @+1 {{R2: schedule entry in kernel 'k': inside schedule 'k' (its read bodies' accesses among the threads): thread 0 writes bytes [4, 8) of workgroup attribution 1 with the counter of an scf.for at -7 that thread 1 wrote with the counter of an scf.for at -6 in the same barrier interval}}
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

// An i64 atomic on bytes [0, 8) and an i32 atomic on bytes [4, 8): atomics of different sizes that partly overlap race (R2).
module attributes {gpu.container_module} {
gpu.module @kernels attributes {kda.target = #kda.target<"emu">} {
  kda.lds_buffer @r slots(1) slot_bytes(1024) offset(0)
  gpu.func @k()
      workgroup(%lds : memref<1024xi8, #gpu.address_space<workgroup>>, %b : memref<1024xi8, #gpu.address_space<workgroup>>)
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
        %one64 = arith.constant 1 : i64
        %one32 = arith.constant 1 : i32
        %v64 = memref.view %b[%c0][] : memref<1024xi8, #gpu.address_space<workgroup>> to memref<128xi64, #gpu.address_space<workgroup>>
        %v32 = memref.view %b[%c0][] : memref<1024xi8, #gpu.address_space<workgroup>> to memref<256xi32, #gpu.address_space<workgroup>>
        // expected-note @+1 {{the other access:}}
        %r = memref.atomic_rmw addi %one64, %v64[%c0] : (i64, memref<128xi64, #gpu.address_space<workgroup>>) -> i64
        // expected-error @+1 {{thread 0 writes bytes [4, 8) of workgroup attribution 1 that thread 1 wrote in the same barrier interval (threads of one role): no barrier between them}}
        %r2 = memref.atomic_rmw addi %one32, %v32[%c1] : (i32, memref<256xi32, #gpu.address_space<workgroup>>) -> i32
      }
      kda.lds_barrier
    }
    gpu.return
  }
}
}

// -----

// A body loop of no trip: its accesses are never made: accepted (before: a false R1).
module attributes {gpu.container_module} {
gpu.module @kernels attributes {kda.target = #kda.target<"emu">} {
  kda.lds_buffer @r slots(1) slot_bytes(1024) offset(0)
  gpu.func @k()
      workgroup(%lds : memref<1024xi8, #gpu.address_space<workgroup>>, %b : memref<1024xi8, #gpu.address_space<workgroup>>)
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
        %scr = memref.view %b[%c0][] : memref<1024xi8, #gpu.address_space<workgroup>> to memref<256xf32, #gpu.address_space<workgroup>>
        %c2 = arith.constant 2 : index
        scf.for %j = %c2 to %c0 step %c1 {
          %at = arith.addi %tid, %j : index
          memref.store %x, %scr[%at] : memref<256xf32, #gpu.address_space<workgroup>>
          %n = arith.addi %at, %c1 : index
          %y = memref.load %scr[%n] : memref<256xf32, #gpu.address_space<workgroup>>
        }
      }
      kda.lds_barrier
    }
    gpu.return
  }
}
}
