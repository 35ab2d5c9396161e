// The seventh hand-written-schedule campaign (2026-12-07, fifty-third
// session): a memref.view whose byte shift places it past the end (or
// before the start) of its LDS array. The schedule interpreter took a view
// of the ring's array outside the ring for "the array's other bytes" and
// the handoff walk kept each array's bytes in a space of its own, so the
// view's accesses, which land on the next array, were checked against
// neither. Each unsafe case was accepted before and confirmed on the
// emulator's race detector (thread 1's store overwrites a byte thread 0
// read with no barrier between).
// RUN: kda-opt %s -split-input-file -verify-diagnostics --kda-verify-pipeline

// -----

// A depth-2 ring of two 1 KiB slots fills its 2 KiB array; each read body
// stores through a view of that array at byte 2048 (onto %scr, the next
// attribution) and loads its neighbour's word of %scr with no barrier.
module attributes {gpu.container_module} {
gpu.module @kernels attributes {kda.target = #kda.target<"emu">} {
  kda.lds_buffer @r slots(2) slot_bytes(1024) offset(0)
  gpu.func @k()
      workgroup(%lds : memref<2048xi8, #gpu.address_space<workgroup>>, %scr : memref<64xf32, #gpu.address_space<workgroup>>)
      private(%src : memref<1024xf32, #gpu.address_space<private>>)
      kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %tid = gpu.thread_id x
    // expected-error @+1 {{R1: the read of iteration 0 from @r slot 0 views bytes [2048, 2304) of an LDS array at bytes [0, 2048): past it the bytes are another array's}}
    kda.schedule "k" trip_count(2) depth(2) target("emu") {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c64 = arith.constant 64 : index
      %c1024 = arith.constant 1024 : index
      %c2048 = arith.constant 2048 : index
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
          %w = memref.view %lds[%c2048][] : memref<2048xi8, #gpu.address_space<workgroup>> to memref<64xf32, #gpu.address_space<workgroup>>
          memref.store %x, %w[%tid] : memref<64xf32, #gpu.address_space<workgroup>>
          %n = arith.addi %tid, %c1 : index
          %m = arith.remui %n, %c64 : index
          %y = memref.load %scr[%m] : memref<64xf32, #gpu.address_space<workgroup>>
        }
        kda.lds_barrier
      }
    }
    gpu.return
  }
}
}

// -----

// The same at a negative shift: a view of the ring's array (the second
// attribution) at byte -256 lands on the first, the body's scratch.
module attributes {gpu.container_module} {
gpu.module @kernels attributes {kda.target = #kda.target<"emu">} {
  kda.lds_buffer @r slots(1) slot_bytes(1024) offset(256)
  gpu.func @k()
      workgroup(%scr : memref<64xf32, #gpu.address_space<workgroup>>, %lds : memref<1024xi8, #gpu.address_space<workgroup>>)
      private(%src : memref<1024xf32, #gpu.address_space<private>>)
      kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %tid = gpu.thread_id x
    // expected-error @+1 {{R1: the read of iteration 0 from @r slot 0 views bytes [0, 256) of an LDS array at bytes [256, 1280)}}
    kda.schedule "k" trip_count(1) depth(1) target("emu") {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c64 = arith.constant 64 : index
      %cm256 = arith.constant -256 : index
      kda.staged_copy @r[%c0] iter(%c0) do {
        kda.copy_row %src[%c0] to %lds[%c0] elems(256) atom(staged) : memref<1024xf32, #gpu.address_space<private>>, memref<1024xi8, #gpu.address_space<workgroup>>
      }
      kda.lds_barrier
      kda.lds_read @r[%c0] iter(%c0) do {
        %v = memref.view %lds[%c0][] : memref<1024xi8, #gpu.address_space<workgroup>> to memref<256xf32, #gpu.address_space<workgroup>>
        %x = memref.load %v[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
        %w = memref.view %lds[%cm256][] : memref<1024xi8, #gpu.address_space<workgroup>> to memref<64xf32, #gpu.address_space<workgroup>>
        memref.store %x, %w[%tid] : memref<64xf32, #gpu.address_space<workgroup>>
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

// -----

// A view inside the ring's array (bytes [1792, 2048)) indexed past its end
// by a value the body's loop computes (0 and 896 floats): the store may
// reach bytes up to 5380, another array's.
module attributes {gpu.container_module} {
gpu.module @kernels attributes {kda.target = #kda.target<"emu">} {
  kda.lds_buffer @r slots(1) slot_bytes(1024) offset(0)
  gpu.func @k()
      workgroup(%lds : memref<2048xi8, #gpu.address_space<workgroup>>, %scr : memref<64xf32, #gpu.address_space<workgroup>>)
      private(%src : memref<1024xf32, #gpu.address_space<private>>)
      kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %tid = gpu.thread_id x
    // expected-error @+1 {{R1: the read of iteration 0 from @r slot 0 may store bytes [1792, 5380) through a view of the ring's array, which holds bytes [0, 2048)}}
    kda.schedule "k" trip_count(1) depth(1) target("emu") {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c1792 = arith.constant 1792 : index
      kda.staged_copy @r[%c0] iter(%c0) do {
        kda.copy_row %src[%c0] to %lds[%c0] elems(256) atom(staged) : memref<1024xf32, #gpu.address_space<private>>, memref<2048xi8, #gpu.address_space<workgroup>>
      }
      kda.lds_barrier
      scf.for %i = %c0 to %c1 step %c1 {
        %s = kda.ring_slot %i of @r
        kda.lds_read @r[%s] iter(%i) do {
          %v = memref.view %lds[%c0][] : memref<2048xi8, #gpu.address_space<workgroup>> to memref<256xf32, #gpu.address_space<workgroup>>
          %x = memref.load %v[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
          %w = memref.view %lds[%c1792][] : memref<2048xi8, #gpu.address_space<workgroup>> to memref<64xf32, #gpu.address_space<workgroup>>
          scf.for %j = %c0 to %c2 step %c1 {
            %at = arith.muli %j, %c1792 : index
            %e = arith.divui %at, %c2 : index
            memref.store %x, %w[%e] : memref<64xf32, #gpu.address_space<workgroup>>
          }
        }
        kda.lds_barrier
      }
    }
    gpu.return
  }
}
}

// -----

// The same view stored at each thread's own word: inside the array, no
// thread reads another's. Accepted.
module attributes {gpu.container_module} {
gpu.module @kernels attributes {kda.target = #kda.target<"emu">} {
  kda.lds_buffer @r slots(1) slot_bytes(1024) offset(0)
  gpu.func @k()
      workgroup(%lds : memref<2048xi8, #gpu.address_space<workgroup>>, %scr : memref<64xf32, #gpu.address_space<workgroup>>)
      private(%src : memref<1024xf32, #gpu.address_space<private>>)
      kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %tid = gpu.thread_id x
    kda.schedule "k" trip_count(1) depth(1) target("emu") {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c1792 = arith.constant 1792 : index
      kda.staged_copy @r[%c0] iter(%c0) do {
        kda.copy_row %src[%c0] to %lds[%c0] elems(256) atom(staged) : memref<1024xf32, #gpu.address_space<private>>, memref<2048xi8, #gpu.address_space<workgroup>>
      }
      kda.lds_barrier
      scf.for %i = %c0 to %c1 step %c1 {
        %s = kda.ring_slot %i of @r
        kda.lds_read @r[%s] iter(%i) do {
          %v = memref.view %lds[%c0][] : memref<2048xi8, #gpu.address_space<workgroup>> to memref<256xf32, #gpu.address_space<workgroup>>
          %x = memref.load %v[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
          %w = memref.view %lds[%c1792][] : memref<2048xi8, #gpu.address_space<workgroup>> to memref<64xf32, #gpu.address_space<workgroup>>
          memref.store %x, %w[%tid] : memref<64xf32, #gpu.address_space<workgroup>>
        }
        kda.lds_barrier
      }
    }
    gpu.return
  }
}
}

// -----

// Kernel code, no schedule: the handoff walk bounds a view by its source.
module attributes {gpu.container_module} {
gpu.module @kernels attributes {kda.target = #kda.target<"emu">} {
  gpu.func @k()
      workgroup(%lds : memref<1024xi8, #gpu.address_space<workgroup>>, %scr : memref<64xf32, #gpu.address_space<workgroup>>)
      kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %tid = gpu.thread_id x
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %c1024 = arith.constant 1024 : index
    %f = arith.constant 1.0 : f32
    // expected-error @+1 {{R1: LDS access in kernel 'k': a view outside its array: memref<64xf32, #gpu.address_space<workgroup>> at byte 1024 covers bytes [1024, 1280) of an array of bytes [0, 1024)}}
    %w = memref.view %lds[%c1024][] : memref<1024xi8, #gpu.address_space<workgroup>> to memref<64xf32, #gpu.address_space<workgroup>>
    memref.store %f, %w[%tid] : memref<64xf32, #gpu.address_space<workgroup>>
    %n = arith.addi %tid, %c1 : index
    %m = arith.remui %n, %c64 : index
    %y = memref.load %scr[%m] : memref<64xf32, #gpu.address_space<workgroup>>
    gpu.return
  }
}
}

// -----

// An index one float before a view at the array's first byte: bytes
// [-4, 0), before the array (hazards-view-index.mlir had this read pass at
// slot 0, where it lay outside the ring, and fail only at slot 1).
gpu.module @kernels attributes {kda.target = #kda.target<"sm_90">} {
  kda.lds_buffer @r slots(2) slot_bytes(1024) offset(0)
  gpu.func @before_start(%src: memref<?xf32>)
      workgroup(%lds : memref<2048xi8, #gpu.address_space<workgroup>>) kernel {
    // expected-error @+1 {{R1: the read of iteration 0 from @r slot 0 loads bytes [-4, 0) through a view of the ring's array, which holds bytes [0, 2048): past it the bytes are another array's, which the schedule does not see it touch (pipeline 'before_start' at depth 2)}}
    kda.schedule "before_start" trip_count(4) depth(2) target("sm_90") {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c1024 = arith.constant 1024 : index
      %m1 = arith.subi %c0, %c1 : index
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
          %x = memref.load %v[%m1] : memref<256xf32, #gpu.address_space<workgroup>>
          memref.store %x, %src[%c0] : memref<?xf32>
        }
        kda.lds_barrier
      }
      kda.async_wait 0
    }
    gpu.return
  }
}

