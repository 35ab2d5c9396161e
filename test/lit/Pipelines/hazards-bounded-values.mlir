// Values the same for every thread of a small range inside read bodies (a
// ring's slot, a remainder), enumerated over their range (sixtieth session),
// and the cap on placements past which a loop counter stays a shift.
// RUN: kda-opt %s -split-input-file -verify-diagnostics --kda-verify-pipeline

// A tile of scratch at the slot of a run-time iteration (q = ring_slot(i + off), 512 bytes a slot) beside scratch at byte 1024: apart at both slots (accepted). Before the sixtieth session views at different run-time shifts were taken as apart unchecked.
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
          %c512 = arith.constant 512 : index
          %k = arith.addi %i, %off : index
          %q = kda.ring_slot %k of @r
          %sh = arith.muli %q, %c512 : index
          %vq = memref.view %b[%sh][] : memref<2048xi8, #gpu.address_space<workgroup>> to memref<128xf32, #gpu.address_space<workgroup>>
          %vc = memref.view %b[%c1024][] : memref<2048xi8, #gpu.address_space<workgroup>> to memref<128xf32, #gpu.address_space<workgroup>>
          memref.store %x, %vq[%tid] : memref<128xf32, #gpu.address_space<workgroup>>
          %y = memref.load %vq[%tid] : memref<128xf32, #gpu.address_space<workgroup>>
          memref.store %y, %vc[%tid] : memref<128xf32, #gpu.address_space<workgroup>>
          %z = memref.load %vc[%tid] : memref<128xf32, #gpu.address_space<workgroup>>
        }
      }
      kda.lds_barrier
    }
    gpu.return
  }
}
}

// -----

// Its twin with the constant view at byte 512: slot 1's tile is those bytes, where thread 1 reads the word thread 0 wrote (R1, naming the slot). The escape the fifty-ninth session left open.
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
          %c512 = arith.constant 512 : index
          %k = arith.addi %i, %off : index
          %q = kda.ring_slot %k of @r
          %sh = arith.muli %q, %c512 : index
          %vq = memref.view %b[%sh][] : memref<2048xi8, #gpu.address_space<workgroup>> to memref<128xf32, #gpu.address_space<workgroup>>
          %vc = memref.view %b[%c512][] : memref<2048xi8, #gpu.address_space<workgroup>> to memref<128xf32, #gpu.address_space<workgroup>>
          %n = arith.addi %tid, %c1 : index
          // expected-note @+1 {{the other access}}
          memref.store %x, %vc[%n] : memref<128xf32, #gpu.address_space<workgroup>>
          // expected-error @+1 {{R1: schedule entry in kernel 'k': inside schedule 'k' (its read bodies' accesses among the threads): thread 1 reads bytes [516, 520) of workgroup attribution 1 with the result of kda.ring_slot at 1 that thread 0 wrote in the same barrier interval}}
          %y = memref.load %vq[%tid] : memref<128xf32, #gpu.address_space<workgroup>>
        }
      }
      kda.lds_barrier
    }
    gpu.return
  }
}
}

// -----

// A remainder of a run-time value (off mod 4, in [0, 4)) picks one of four words a thread. A thread's word 4t + r against its own word at another remainder (r2, enumerated apart from r) meets no other thread's (accepted); the word 4t + 4 + r is thread t+1's at the same r (R1, naming both).
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
          %r = arith.remui %off, %c4 : index
          %o1 = arith.addi %off, %c1 : index
          %r2 = arith.remui %o1, %c4 : index
          %scr = memref.view %b[%c0][] : memref<2048xi8, #gpu.address_space<workgroup>> to memref<512xf32, #gpu.address_space<workgroup>>
          %t4 = arith.muli %tid, %c4 : index
          %at = arith.addi %t4, %r : index
          // expected-note @+1 {{the other access}}
          memref.store %x, %scr[%at] : memref<512xf32, #gpu.address_space<workgroup>>
          %own = arith.addi %t4, %r2 : index
          %y = memref.load %scr[%own] : memref<512xf32, #gpu.address_space<workgroup>>
          %nx = arith.addi %at, %c4 : index
          // expected-error @+1 {{R1: schedule entry in kernel 'k': inside schedule 'k' (its read bodies' accesses among the threads): thread 0 reads bytes [16, 20) of workgroup attribution 1 with the result of arith.remui at 0 that thread 1 wrote with the result of arith.remui at 0 in the same barrier interval}}
          %z = memref.load %scr[%nx] : memref<512xf32, #gpu.address_space<workgroup>>
        }
      }
      kda.lds_barrier
    }
    gpu.return
  }
}
}

// -----

// A loop of 4096 trips in a body of 64 threads: 2^18 placements, enumerated trip by trip: thread 0 reads thread 1's word at one trip (R1).
module attributes {gpu.container_module} {
gpu.module @kernels attributes {kda.target = #kda.target<"emu">} {
  kda.lds_buffer @r slots(2) slot_bytes(1024) offset(0)
  gpu.func @k(%off: index)
      workgroup(%lds : memref<2048xi8, #gpu.address_space<workgroup>>, %b : memref<20480xi8, #gpu.address_space<workgroup>>)
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
          %c4096 = arith.constant 4096 : index
          %scr = memref.view %b[%c0][] : memref<20480xi8, #gpu.address_space<workgroup>> to memref<5120xf32, #gpu.address_space<workgroup>>
          %one = arith.constant 1.0 : f32
          scf.for %j = %c0 to %c4096 step %c1 {
            %at = arith.addi %tid, %j : index
            // expected-note @+1 {{the other access}}
            memref.store %one, %scr[%at] : memref<5120xf32, #gpu.address_space<workgroup>>
            %n = arith.addi %at, %c1 : index
            // expected-error @+1 {{R1: schedule entry in kernel 'k': inside schedule 'k' (its read bodies' accesses among the threads): thread 0 reads bytes [4, 8) of workgroup attribution 1 that thread 1 wrote in the same barrier interval}}
            %y = memref.load %scr[%n] : memref<5120xf32, #gpu.address_space<workgroup>>
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

// Its twin in a body of 512 threads: 2^21 placements, past the 2^20 enumerated; the counter stays a shift, which both indices add, and they are compared without it (R1, counted without the counter).
module attributes {gpu.container_module} {
gpu.module @kernels attributes {kda.target = #kda.target<"emu">} {
  kda.lds_buffer @r slots(2) slot_bytes(1024) offset(0)
  gpu.func @k(%off: index)
      workgroup(%lds : memref<2048xi8, #gpu.address_space<workgroup>>, %b : memref<20480xi8, #gpu.address_space<workgroup>>)
      private(%src : memref<1024xf32, #gpu.address_space<private>>)
      kernel attributes {known_block_size = array<i32: 512, 1, 1>} {
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
          %c4096 = arith.constant 4096 : index
          %scr = memref.view %b[%c0][] : memref<20480xi8, #gpu.address_space<workgroup>> to memref<5120xf32, #gpu.address_space<workgroup>>
          %one = arith.constant 1.0 : f32
          scf.for %j = %c0 to %c4096 step %c1 {
            %at = arith.addi %tid, %j : index
            // expected-note @+1 {{the other access}}
            memref.store %one, %scr[%at] : memref<5120xf32, #gpu.address_space<workgroup>>
            %n = arith.addi %at, %c1 : index
            // expected-error @+1 {{R1: schedule entry in kernel 'k': inside schedule 'k' (its read bodies' accesses among the threads): thread 0 reads bytes [4, 8) of workgroup attribution 1 (counted without 4 bytes x the counter of an scf.for, which both indices add) that thread 1 wrote in the same barrier interval}}
            %y = memref.load %scr[%n] : memref<5120xf32, #gpu.address_space<workgroup>>
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

// A shift of more values than are enumerated ((i x off) mod 8192) computed in the loop, carried into the next trip with no barrier: it differs between the trips, so the distance is not known (R0).
module attributes {gpu.container_module} {
gpu.module @kernels attributes {kda.target = #kda.target<"emu">} {
  kda.lds_buffer @r slots(2) slot_bytes(1024) offset(0)
  gpu.func @k(%off: index)
      workgroup(%lds : memref<2048xi8, #gpu.address_space<workgroup>>, %b : memref<36864xi8, #gpu.address_space<workgroup>>)
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
          %c8192 = arith.constant 8192 : index
          %m = arith.muli %i, %off : index
          %k = arith.remui %m, %c8192 : index
          %at = arith.addi %tid, %k : index
          %scr = memref.view %b[%c0][] : memref<36864xi8, #gpu.address_space<workgroup>> to memref<9216xf32, #gpu.address_space<workgroup>>
          // expected-error @+1 {{R0: schedule entry in kernel 'k': inside schedule 'k' (its read bodies' accesses among the threads): cannot analyse memref.store against the write of the same array in one barrier interval: their indices are shifted by 4 bytes x the result of arith.remui, a value of a loop that they see on different trips (no barrier between the trips)}}
          memref.store %x, %scr[%at] : memref<9216xf32, #gpu.address_space<workgroup>>
        }
      }
      kda.lds_barrier
    }
    gpu.return
  }
}
}
