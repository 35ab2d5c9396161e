// The eighteenth campaign (2026-12-07, sixtieth session) against the enumeration
// of values of a small range in read bodies (hazards-bounded-values.mlir):
// integers wider than 64 bits, atomics at partly overlapping bytes, a value
// computed in a loop that does not vary there, an i1 loop of no trip, and the
// cost of many accesses.
// RUN: kda-opt %s -split-input-file -verify-diagnostics --kda-verify-pipeline

// Every thread computes a = tid + 2^64 in i128; a <u 64 is false for all, so all store word 0 (a race). i128 values were evaluated in 64 bits (2^64 read as 0, every thread its own word): now values wider than 64 bits are not evaluated, and the index does not evaluate (R0).
module attributes {gpu.container_module} {
gpu.module @kernels attributes {kda.target = #kda.target<"emu">} {
  kda.lds_buffer @r slots(2) slot_bytes(1024) offset(0)
  gpu.func @k(%off: index)
      workgroup(%lds : memref<2048xi8, #gpu.address_space<workgroup>>, %b : memref<2048xi8, #gpu.address_space<workgroup>>)
      private(%src : memref<1024xf32, #gpu.address_space<private>>)
      kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %tid = gpu.thread_id x
    kda.schedule "k" trip_count(2) depth(2) target("emu") {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
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
          %c255 = arith.constant 255 : index
          %tl = arith.andi %tid, %c255 : index
          %x = memref.load %v[%tl] : memref<256xf32, #gpu.address_space<workgroup>>
          %t64 = arith.index_cast %tid : index to i64
          %t128 = arith.extui %t64 : i64 to i128
          %big = arith.constant 18446744073709551616 : i128
          %c64w = arith.constant 64 : i128
          %a = arith.addi %t128, %big : i128
          %c = arith.cmpi ult, %a, %c64w : i128
          %idx = arith.select %c, %tid, %c0 : index
          %scr = memref.view %b[%c0][] : memref<2048xi8, #gpu.address_space<workgroup>> to memref<512xf32, #gpu.address_space<workgroup>>
          // expected-error @+1 {{cannot analyse memref.store against the write of the same array in one barrier interval: an index of memref.store does not evaluate for thread 1 (not a sum of terms of the thread id, of loop counters with bounds known alike for every thread}}
          memref.store %x, %scr[%idx] : memref<512xf32, #gpu.address_space<workgroup>>

        }
      }
      kda.lds_barrier
    }
    gpu.return
  }
}
}

// -----

// An i128 loop from 2^63 - 1 to 2^63 + 1 runs two trips, on which trunc(j) & 3 is 3 then 0: thread 0's word on one trip is thread 3's on the other. Its bounds, read in 64 bits, gave a loop of no trip and the access was dropped: now the counter is not enumerated, and the remainder, in [0, 4), is enumerated apart on the two trips (R2).
module attributes {gpu.container_module} {
gpu.module @kernels attributes {kda.target = #kda.target<"emu">} {
  kda.lds_buffer @r slots(2) slot_bytes(1024) offset(0)
  gpu.func @k(%off: index)
      workgroup(%lds : memref<2048xi8, #gpu.address_space<workgroup>>, %b : memref<2048xi8, #gpu.address_space<workgroup>>)
      private(%src : memref<1024xf32, #gpu.address_space<private>>)
      kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %tid = gpu.thread_id x
    kda.schedule "k" trip_count(2) depth(2) target("emu") {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
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
          %c255 = arith.constant 255 : index
          %tl = arith.andi %tid, %c255 : index
          %x = memref.load %v[%tl] : memref<256xf32, #gpu.address_space<workgroup>>
          %lo = arith.constant 9223372036854775807 : i128
          %hi = arith.constant 9223372036854775809 : i128
          %st = arith.constant 1 : i128
          %scr = memref.view %b[%c0][] : memref<2048xi8, #gpu.address_space<workgroup>> to memref<512xf32, #gpu.address_space<workgroup>>
          scf.for %j = %lo to %hi step %st : i128 {
            %jt = arith.trunci %j : i128 to i64
            %jx = arith.index_cast %jt : i64 to index
            %c3 = arith.constant 3 : index
            %z = arith.andi %jx, %c3 : index
            %at = arith.addi %tid, %z : index
            // expected-error @+1 {{thread 0 writes bytes [4, 8) of workgroup attribution 1 with the result of arith.andi at 1 that thread 1 wrote with the result of arith.andi at 0 in the same barrier interval (threads of one role): no barrier between them}}
            memref.store %x, %scr[%at] : memref<512xf32, #gpu.address_space<workgroup>>
          }

        }
      }
      kda.lds_barrier
    }
    gpu.return
  }
}
}

// -----

// Two i32 atomics of one array, one through a view at byte 0, one at byte 2 (off mod 2) x 2: at off odd thread 0's [2, 6) and thread 1's [4, 8) partly overlap. Atomics of one size were skipped whatever their bytes: now only those on the same word are (R2 at the shift 1).
module attributes {gpu.container_module} {
gpu.module @kernels attributes {kda.target = #kda.target<"emu">} {
  kda.lds_buffer @r slots(2) slot_bytes(1024) offset(0)
  gpu.func @k(%off: index)
      workgroup(%lds : memref<2048xi8, #gpu.address_space<workgroup>>, %b : memref<2048xi8, #gpu.address_space<workgroup>>)
      private(%src : memref<1024xf32, #gpu.address_space<private>>)
      kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %tid = gpu.thread_id x
    kda.schedule "k" trip_count(2) depth(2) target("emu") {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
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
          %c255 = arith.constant 255 : index
          %tl = arith.andi %tid, %c255 : index
          %x = memref.load %v[%tl] : memref<256xf32, #gpu.address_space<workgroup>>
          %one = arith.constant 1 : i32
          %v0 = memref.view %b[%c0][] : memref<2048xi8, #gpu.address_space<workgroup>> to memref<256xi32, #gpu.address_space<workgroup>>
          %rr = arith.remui %off, %c2 : index
          %sh = arith.muli %rr, %c2 : index
          %v2 = memref.view %b[%sh][] : memref<2048xi8, #gpu.address_space<workgroup>> to memref<256xi32, #gpu.address_space<workgroup>>
          // expected-note @+1 {{the other access}}
          %a0 = memref.atomic_rmw addi %one, %v0[%tid] : (i32, memref<256xi32, #gpu.address_space<workgroup>>) -> i32
          // expected-error @+1 {{thread 0 writes bytes [4, 6) of workgroup attribution 1 with the result of arith.remui at 1 that thread 1 wrote in the same barrier interval (threads of one role): no barrier between them}}
          %a1 = memref.atomic_rmw addi %one, %v2[%tid] : (i32, memref<256xi32, #gpu.address_space<workgroup>>) -> i32

        }
      }
      kda.lds_barrier
    }
    gpu.return
  }
}
}

// -----

// An i64 atomic and an i32 atomic that start at the same byte (thread 1's [8, 16), thread 0's [8, 12)): atomics of different sizes race (R2).
module attributes {gpu.container_module} {
gpu.module @kernels attributes {kda.target = #kda.target<"emu">} {
  kda.lds_buffer @r slots(2) slot_bytes(1024) offset(0)
  gpu.func @k(%off: index)
      workgroup(%lds : memref<2048xi8, #gpu.address_space<workgroup>>, %b : memref<2048xi8, #gpu.address_space<workgroup>>)
      private(%src : memref<1024xf32, #gpu.address_space<private>>)
      kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %tid = gpu.thread_id x
    kda.schedule "k" trip_count(2) depth(2) target("emu") {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
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
          %c255 = arith.constant 255 : index
          %tl = arith.andi %tid, %c255 : index
          %x = memref.load %v[%tl] : memref<256xf32, #gpu.address_space<workgroup>>
          %one = arith.constant 1 : i32
          %one64 = arith.constant 1 : i64
          %v8 = memref.view %b[%c0][] : memref<2048xi8, #gpu.address_space<workgroup>> to memref<256xi64, #gpu.address_space<workgroup>>
          %v4 = memref.view %b[%c0][] : memref<2048xi8, #gpu.address_space<workgroup>> to memref<512xi32, #gpu.address_space<workgroup>>
          %t2 = arith.muli %tid, %c2 : index
          %w = arith.addi %t2, %c2 : index
          // expected-note @+1 {{the other access}}
          %a0 = memref.atomic_rmw addi %one64, %v8[%tid] : (i64, memref<256xi64, #gpu.address_space<workgroup>>) -> i64
          // expected-error @+1 {{thread 0 writes bytes [8, 12) of workgroup attribution 1 that thread 1 wrote in the same barrier interval (threads of one role): no barrier between them}}
          %a1 = memref.atomic_rmw addi %one, %v4[%w] : (i32, memref<512xi32, #gpu.address_space<workgroup>>) -> i32
        }
      }
      kda.lds_barrier
    }
    gpu.return
  }
}
}

// -----

// off mod 4, computed inside the schedule's loop but from a kernel argument, is one value on both trips: each thread rewrites its own word (accepted; was a false R2, the value taken as new on each trip).
module attributes {gpu.container_module} {
gpu.module @kernels attributes {kda.target = #kda.target<"emu">} {
  kda.lds_buffer @r slots(2) slot_bytes(1024) offset(0)
  gpu.func @k(%off: index)
      workgroup(%lds : memref<2048xi8, #gpu.address_space<workgroup>>, %b : memref<2048xi8, #gpu.address_space<workgroup>>)
      private(%src : memref<1024xf32, #gpu.address_space<private>>)
      kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %tid = gpu.thread_id x
    kda.schedule "k" trip_count(2) depth(2) target("emu") {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
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
          %c255 = arith.constant 255 : index
          %tl = arith.andi %tid, %c255 : index
          %x = memref.load %v[%tl] : memref<256xf32, #gpu.address_space<workgroup>>
          %c4 = arith.constant 4 : index
          %scr = memref.view %b[%c0][] : memref<2048xi8, #gpu.address_space<workgroup>> to memref<512xf32, #gpu.address_space<workgroup>>
          %r = arith.remui %off, %c4 : index
          %at = arith.addi %tid, %r : index
          memref.store %x, %scr[%at] : memref<512xf32, #gpu.address_space<workgroup>>

        }
      }
      kda.lds_barrier
    }
    gpu.return
  }
}
}

// -----

// An i1 loop from false to true by true runs no trip (the lowering compares first): its access is never made (accepted; was a false R2, the counter taken as any i1).
module attributes {gpu.container_module} {
gpu.module @kernels attributes {kda.target = #kda.target<"emu">} {
  kda.lds_buffer @r slots(2) slot_bytes(1024) offset(0)
  gpu.func @k(%off: index)
      workgroup(%lds : memref<2048xi8, #gpu.address_space<workgroup>>, %b : memref<2048xi8, #gpu.address_space<workgroup>>)
      private(%src : memref<1024xf32, #gpu.address_space<private>>)
      kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %tid = gpu.thread_id x
    kda.schedule "k" trip_count(2) depth(2) target("emu") {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
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
          %c255 = arith.constant 255 : index
          %tl = arith.andi %tid, %c255 : index
          %x = memref.load %v[%tl] : memref<256xf32, #gpu.address_space<workgroup>>
          %f = arith.constant false
          %t = arith.constant true
          %scr = memref.view %b[%c0][] : memref<2048xi8, #gpu.address_space<workgroup>> to memref<512xf32, #gpu.address_space<workgroup>>
          scf.for %j = %f to %t step %t : i1 {
            %ju = arith.extui %j : i1 to i64
            %jx = arith.index_cast %ju : i64 to index
            %at = arith.addi %tid, %jx : index
            memref.store %x, %scr[%at] : memref<512xf32, #gpu.address_space<workgroup>>
          }

        }
      }
      kda.lds_barrier
    }
    gpu.return
  }
}
}

// -----

// 30 stores of each thread's own word, 1024 threads, at r = off mod 128 (2^17 placements an access): every two compared took past two minutes. The whole check now compares at most 2^28 pairs of placements, past which it says so (R0, in a few seconds).
module attributes {gpu.container_module} {
gpu.module @kernels attributes {kda.target = #kda.target<"emu">} {
  kda.lds_buffer @r slots(2) slot_bytes(1024) offset(0)
  gpu.func @k(%off: index)
      workgroup(%lds : memref<2048xi8, #gpu.address_space<workgroup>>, %b : memref<8192xi8, #gpu.address_space<workgroup>>)
      private(%src : memref<1024xf32, #gpu.address_space<private>>)
      kernel attributes {known_block_size = array<i32: 1024, 1, 1>} {
    %tid = gpu.thread_id x
    %c192 = arith.constant 128 : index
    %r = arith.remui %off, %c192 : index
    kda.schedule "k" trip_count(2) depth(2) target("emu") {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
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
          %c255 = arith.constant 255 : index
          %tl = arith.andi %tid, %c255 : index
          %x = memref.load %v[%tl] : memref<256xf32, #gpu.address_space<workgroup>>
          %scr = memref.view %b[%c0][] : memref<8192xi8, #gpu.address_space<workgroup>> to memref<2048xf32, #gpu.address_space<workgroup>>
          %at = arith.addi %tid, %r : index
          memref.store %x, %scr[%at] : memref<2048xf32, #gpu.address_space<workgroup>>
          memref.store %x, %scr[%at] : memref<2048xf32, #gpu.address_space<workgroup>>
          // expected-note @+1 {{the other access}}
          memref.store %x, %scr[%at] : memref<2048xf32, #gpu.address_space<workgroup>>
          // expected-error @+1 {{cannot analyse memref.store against the write of the same array in one barrier interval: more pairs of the two accesses' placements (threads at each trip of the loops their indices take) than are compared (2^26 for two accesses, 2^28 for th}}
          memref.store %x, %scr[%at] : memref<2048xf32, #gpu.address_space<workgroup>>
          memref.store %x, %scr[%at] : memref<2048xf32, #gpu.address_space<workgroup>>
          memref.store %x, %scr[%at] : memref<2048xf32, #gpu.address_space<workgroup>>
          memref.store %x, %scr[%at] : memref<2048xf32, #gpu.address_space<workgroup>>
          memref.store %x, %scr[%at] : memref<2048xf32, #gpu.address_space<workgroup>>
          memref.store %x, %scr[%at] : memref<2048xf32, #gpu.address_space<workgroup>>
          memref.store %x, %scr[%at] : memref<2048xf32, #gpu.address_space<workgroup>>
          memref.store %x, %scr[%at] : memref<2048xf32, #gpu.address_space<workgroup>>
          memref.store %x, %scr[%at] : memref<2048xf32, #gpu.address_space<workgroup>>
          memref.store %x, %scr[%at] : memref<2048xf32, #gpu.address_space<workgroup>>
          memref.store %x, %scr[%at] : memref<2048xf32, #gpu.address_space<workgroup>>
          memref.store %x, %scr[%at] : memref<2048xf32, #gpu.address_space<workgroup>>
          memref.store %x, %scr[%at] : memref<2048xf32, #gpu.address_space<workgroup>>
          memref.store %x, %scr[%at] : memref<2048xf32, #gpu.address_space<workgroup>>
          memref.store %x, %scr[%at] : memref<2048xf32, #gpu.address_space<workgroup>>
          memref.store %x, %scr[%at] : memref<2048xf32, #gpu.address_space<workgroup>>
          memref.store %x, %scr[%at] : memref<2048xf32, #gpu.address_space<workgroup>>
          memref.store %x, %scr[%at] : memref<2048xf32, #gpu.address_space<workgroup>>
          memref.store %x, %scr[%at] : memref<2048xf32, #gpu.address_space<workgroup>>
          memref.store %x, %scr[%at] : memref<2048xf32, #gpu.address_space<workgroup>>
          memref.store %x, %scr[%at] : memref<2048xf32, #gpu.address_space<workgroup>>
          memref.store %x, %scr[%at] : memref<2048xf32, #gpu.address_space<workgroup>>
          memref.store %x, %scr[%at] : memref<2048xf32, #gpu.address_space<workgroup>>
          memref.store %x, %scr[%at] : memref<2048xf32, #gpu.address_space<workgroup>>
          memref.store %x, %scr[%at] : memref<2048xf32, #gpu.address_space<workgroup>>
          memref.store %x, %scr[%at] : memref<2048xf32, #gpu.address_space<workgroup>>
          memref.store %x, %scr[%at] : memref<2048xf32, #gpu.address_space<workgroup>>

        }
      }
      kda.lds_barrier
    }
    gpu.return
  }
}
}

// -----

// Campaign 19 (the same session, against the fixes above): a body loop from 2 to 1 holds two stores of neighbouring words whose indices do not take its counter. It runs no trip, so neither store is made (accepted; was a false R2: only a loop whose counter an index takes was known to run none).
module attributes {gpu.container_module} {
gpu.module @kernels attributes {kda.target = #kda.target<"emu">} {
  kda.lds_buffer @r slots(2) slot_bytes(1024) offset(0)
  gpu.func @k(%off: index, %g: memref<64xi32>)
      workgroup(%lds : memref<2048xi8, #gpu.address_space<workgroup>>, %b : memref<2048xi8, #gpu.address_space<workgroup>>)
      private(%src : memref<1024xf32, #gpu.address_space<private>>)
      kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %tid = gpu.thread_id x
    kda.schedule "k" trip_count(2) depth(2) target("emu") {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
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
          %c255 = arith.constant 255 : index
          %tl = arith.andi %tid, %c255 : index
          %x = memref.load %v[%tl] : memref<256xf32, #gpu.address_space<workgroup>>
          %scr = memref.view %b[%c0][] : memref<2048xi8, #gpu.address_space<workgroup>> to memref<512xf32, #gpu.address_space<workgroup>>
          %c4 = arith.constant 4 : index
          scf.for %j = %c2 to %c1 step %c1 {
            %t1 = arith.addi %tid, %c1 : index
            memref.store %x, %scr[%t1] : memref<512xf32, #gpu.address_space<workgroup>>
            memref.store %x, %scr[%tid] : memref<512xf32, #gpu.address_space<workgroup>>
          }
        }
      }
      kda.lds_barrier
    }
    gpu.return
  }
}
}

// -----

// The schedule interpreter likewise: a copy predicated on an i128 comparison of 2^64 + 1 with 1 (false; its low 64 bits alone would say true) is refused, not evaluated in 64 bits (R0).
kda.lds_buffer @h slots(2) slot_bytes(4096) offset(0)
func.func @wide() {
  // expected-error @+1 {{R0: cannot analyse arith.constant: its result is an i128, wider than the 64 bits the interpreter holds (an operand of kda.async_copy) (pipeline 'wide' at depth 2)}}
  kda.schedule "wide" trip_count(2) depth(2) target("sm_90") {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    // 2^64 + 1 in i128: its low 64 bits are 1
    %big = arith.constant 18446744073709551617 : i128
    %one = arith.constant 1 : i128
    %p = arith.cmpi eq, %big, %one : i128
    scf.for %j = %c0 to %c2 step %c1 {
      %s = kda.ring_slot %j of @h
      kda.async_copy @h[%s] iter(%j)
    }
    scf.for %i = %c0 to %c2 step %c1 {
      kda.async_wait 1
      kda.lds_barrier
      %s = kda.ring_slot %i of @h
      kda.lds_read @h[%s] iter(%i)
      kda.lds_barrier
    }
    kda.async_wait 0
    kda.lds_barrier
    %s0 = kda.ring_slot %c0 of @h
    kda.async_copy @h[%s0] iter(%c2) if(%p)
    kda.async_wait 0
    kda.lds_barrier
  }
  return
}

// -----

// Campaign 19: g[0] mod 4, loaded inside the schedule's loop from a kernel argument nothing writes, is one value on both trips (the launch contract: a written argument overlaps no other): each thread rewrites its own word (accepted; was a false R2, any load taken as new on each trip).
module attributes {gpu.container_module} {
gpu.module @kernels attributes {kda.target = #kda.target<"emu">} {
  kda.lds_buffer @r slots(2) slot_bytes(1024) offset(0)
  gpu.func @k(%off: index, %g: memref<64xi32>)
      workgroup(%lds : memref<2048xi8, #gpu.address_space<workgroup>>, %b : memref<2048xi8, #gpu.address_space<workgroup>>)
      private(%src : memref<1024xf32, #gpu.address_space<private>>)
      kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %tid = gpu.thread_id x
    kda.schedule "k" trip_count(2) depth(2) target("emu") {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
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
          %c255 = arith.constant 255 : index
          %tl = arith.andi %tid, %c255 : index
          %x = memref.load %v[%tl] : memref<256xf32, #gpu.address_space<workgroup>>
          %scr = memref.view %b[%c0][] : memref<2048xi8, #gpu.address_space<workgroup>> to memref<512xf32, #gpu.address_space<workgroup>>
          %c4 = arith.constant 4 : index
          %l = memref.load %g[%c0] : memref<64xi32>
          %li = arith.index_cast %l : i32 to index
          %r = arith.remui %li, %c4 : index
          %at = arith.addi %tid, %r : index
          memref.store %x, %scr[%at] : memref<512xf32, #gpu.address_space<workgroup>>
        }
      }
      kda.lds_barrier
    }
    gpu.return
  }
}
}

// -----

// Its twin where the body also stores to g: the load may differ between threads, and the index is not placed (R0).
module attributes {gpu.container_module} {
gpu.module @kernels attributes {kda.target = #kda.target<"emu">} {
  kda.lds_buffer @r slots(2) slot_bytes(1024) offset(0)
  gpu.func @k(%off: index, %g: memref<64xi32>)
      workgroup(%lds : memref<2048xi8, #gpu.address_space<workgroup>>, %b : memref<2048xi8, #gpu.address_space<workgroup>>)
      private(%src : memref<1024xf32, #gpu.address_space<private>>)
      kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %tid = gpu.thread_id x
    kda.schedule "k" trip_count(2) depth(2) target("emu") {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
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
          %c255 = arith.constant 255 : index
          %tl = arith.andi %tid, %c255 : index
          %x = memref.load %v[%tl] : memref<256xf32, #gpu.address_space<workgroup>>
          %scr = memref.view %b[%c0][] : memref<2048xi8, #gpu.address_space<workgroup>> to memref<512xf32, #gpu.address_space<workgroup>>
          %c4 = arith.constant 4 : index
          %l = memref.load %g[%c0] : memref<64xi32>
          %li = arith.index_cast %l : i32 to index
          %r = arith.remui %li, %c4 : index
          %at = arith.addi %tid, %r : index
          // expected-error @+2 {{cannot analyse memref.store: which bytes each thread touches is not known (an index computed from a load of memory that may differ between threads), and it meets a write of the same array in one barrier interval}}
          // expected-note @+1 {{the other access}}
          memref.store %x, %scr[%at] : memref<512xf32, #gpu.address_space<workgroup>>
          %c7 = arith.constant 7 : i32
          memref.store %c7, %g[%c1] : memref<64xi32>
        }
      }
      kda.lds_barrier
    }
    gpu.return
  }
}
}
