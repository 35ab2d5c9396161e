// Campaign 11 of hand-written schedules: each accepted before and shown
// unsafe on the emulator's race detector. Flags under which a result may be
// poison (nsw / nuw, and here exact on divui, divsi, shrui, shrsi) are
// neither evaluated nor ranged: LLVM folds (x divui exact 4) * 4 to x and
// ((i + 1) divui exact 2) * 2 != i + 1 to false. affine.apply has no range
// (its rules assume no overflow; lower-affine emits nsw). Block ids take no
// range from known_grid_size, which no launch is held to.
// RUN: kda-opt %s -split-input-file -verify-diagnostics --kda-verify-pipeline

// F1: read-body index via affine.apply (t * 2^62 + 1) then remsi 256. affine.apply's
// InferIntRangeInterface evaluates the map over unbounded integers; lower-affine emits
// muli/addi overflow<nsw>, so threads 2,3 compute INT64_MIN+1 / -2^62+1 -> remsi = -255.
#m = affine_map<(d0) -> (d0 * 4611686018427387904 + 1)>
module attributes {gpu.container_module} {
gpu.module @kernels attributes {kda.target = #kda.target<"emu">} {
  kda.lds_buffer @r slots(2) slot_bytes(1024) offset(0)
  gpu.func @k()
      workgroup(%lds : memref<2048xi8, #gpu.address_space<workgroup>>)
      private(%src : memref<1024xf32, #gpu.address_space<private>>)
      kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
    %tid = gpu.thread_id x
    // expected-error @+1 {{R1: the read of iteration 0 from @r slot 0 may load bytes [-1020, 1024) through a view of the ring}}
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
          %so = arith.muli %n, %c256 : index
          kda.copy_row %src[%so] to %lds[%at] elems(256) atom(staged) : memref<1024xf32, #gpu.address_space<private>>, memref<2048xi8, #gpu.address_space<workgroup>>
        }
        %s = kda.ring_slot %i of @r
        %rd = arith.muli %s, %c1024 : index
        kda.lds_read @r[%s] iter(%i) do {
          %v = memref.view %lds[%rd][] : memref<2048xi8, #gpu.address_space<workgroup>> to memref<256xf32, #gpu.address_space<workgroup>>
          %y = affine.apply #m(%tid)
          %e = arith.remsi %y, %c256 : index
          %x = memref.load %v[%e] : memref<256xf32, #gpu.address_space<workgroup>>
        }
      }
      kda.lds_barrier
    }
    gpu.return
  }
}
}

// -----

// F2: read-body index (t divui exact 4) * 4 + 3. Ranges give [3, 255]; LLVM folds
// (udiv exact x, 4) * 4 -> x, so threads 253..255 load floats 256..258 (next slot).

module attributes {gpu.container_module} {
gpu.module @kernels attributes {kda.target = #kda.target<"emu">} {
  kda.lds_buffer @r slots(2) slot_bytes(1024) offset(0)
  gpu.func @k()
      workgroup(%lds : memref<2048xi8, #gpu.address_space<workgroup>>)
      private(%src : memref<1024xf32, #gpu.address_space<private>>)
      kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
    %tid = gpu.thread_id x
    // expected-error @+1 {{R0: cannot analyse memref.load: the LDS element it indexes through a view of the ring cannot be bounded}}
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
          %so = arith.muli %n, %c256 : index
          kda.copy_row %src[%so] to %lds[%at] elems(256) atom(staged) : memref<1024xf32, #gpu.address_space<private>>, memref<2048xi8, #gpu.address_space<workgroup>>
        }
        %s = kda.ring_slot %i of @r
        %rd = arith.muli %s, %c1024 : index
        kda.lds_read @r[%s] iter(%i) do {
          %v = memref.view %lds[%rd][] : memref<2048xi8, #gpu.address_space<workgroup>> to memref<256xf32, #gpu.address_space<workgroup>>
          %c4 = arith.constant 4 : index
          %d = arith.divui %tid, %c4 exact : index
          %m = arith.muli %d, %c4 : index
          %e = arith.addi %m, %c3 : index
          %x = memref.load %v[%e] : memref<256xf32, #gpu.address_space<workgroup>>
        }
      }
      kda.lds_barrier
    }
    gpu.return
  }
}
}

// -----

// F3: the per-iteration drained barrier under scf.if ((x divui exact 2) * 2 != x) for
// x = i+1 and x = i+2: the model evaluates floor division, so exactly one barrier
// runs per iteration; LLVM folds both conditions to false and drops every barrier.

module attributes {gpu.container_module} {
gpu.module @kernels attributes {kda.target = #kda.target<"emu">} {
  kda.lds_buffer @r slots(2) slot_bytes(1024) offset(0)
  gpu.func @k()
      workgroup(%lds : memref<2048xi8, #gpu.address_space<workgroup>>)
      private(%src : memref<1024xf32, #gpu.address_space<private>>)
      kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
    %tid = gpu.thread_id x
    // expected-error @+1 {{R0: cannot analyse arith.divui: it carries the exact flag, under which a result the model evaluates may be poison LLVM folds any way; drop them (an operand of scf.if)}}
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
        %c2 = arith.constant 2 : index
        %x1 = arith.addi %i, %c1 : index
        %h1 = arith.divui %x1, %c2 exact : index
        %d1 = arith.muli %h1, %c2 : index
        %odd1 = arith.cmpi ne, %d1, %x1 : index
        scf.if %odd1 {
          kda.lds_barrier
        }
        %x2 = arith.addi %i, %c2 : index
        %h2 = arith.divui %x2, %c2 exact : index
        %d2 = arith.muli %h2, %c2 : index
        %odd2 = arith.cmpi ne, %d2, %x2 : index
        scf.if %odd2 {
          kda.lds_barrier
        }
        %n = arith.addi %i, %c1 : index
        %p = arith.cmpi slt, %n, %c3 : index
        %sn = kda.ring_slot %n of @r
        kda.staged_copy @r[%sn] iter(%n) if(%p) do {
          %at = arith.muli %sn, %c1024 : index
          %so = arith.muli %n, %c256 : index
          kda.copy_row %src[%so] to %lds[%at] elems(256) atom(staged) : memref<1024xf32, #gpu.address_space<private>>, memref<2048xi8, #gpu.address_space<workgroup>>
        }
        %s = kda.ring_slot %i of @r
        %rd = arith.muli %s, %c1024 : index
        kda.lds_read @r[%s] iter(%i) do {
          %v = memref.view %lds[%rd][] : memref<2048xi8, #gpu.address_space<workgroup>> to memref<256xf32, #gpu.address_space<workgroup>>
          %e = arith.remui %tid, %c256 : index
          %x = memref.load %v[%e] : memref<256xf32, #gpu.address_space<workgroup>>
        }
      }
      kda.lds_barrier
    }
    gpu.return
  }
}
}

// -----

// F4: a copy row's LDS byte ((slot*1024 + 512) divui exact 1024) * 1024: the model
// evaluates slot*1024 (inside the slot); the division is never exact, LLVM is free to
// pick any byte and the row lands outside its slot.

module attributes {gpu.container_module} {
gpu.module @kernels attributes {kda.target = #kda.target<"emu">} {
  kda.lds_buffer @r slots(2) slot_bytes(1024) offset(0)
  gpu.func @k()
      workgroup(%lds : memref<2048xi8, #gpu.address_space<workgroup>>)
      private(%src : memref<1024xf32, #gpu.address_space<private>>)
      kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
    %tid = gpu.thread_id x
    // expected-error @+1 {{R0: cannot analyse kda.copy_row: the LDS byte it starts at cannot be bounded}}
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
          %c512 = arith.constant 512 : index
          %a0 = arith.muli %sn, %c1024 : index
          %a1 = arith.addi %a0, %c512 : index
          %q = arith.divui %a1, %c1024 exact : index
          %at = arith.muli %q, %c1024 : index
          %so = arith.muli %n, %c256 : index
          kda.copy_row %src[%so] to %lds[%at] elems(256) atom(staged) : memref<1024xf32, #gpu.address_space<private>>, memref<2048xi8, #gpu.address_space<workgroup>>
        }
        %s = kda.ring_slot %i of @r
        %rd = arith.muli %s, %c1024 : index
        kda.lds_read @r[%s] iter(%i) do {
          %v = memref.view %lds[%rd][] : memref<2048xi8, #gpu.address_space<workgroup>> to memref<256xf32, #gpu.address_space<workgroup>>
          %e = arith.remui %tid, %c256 : index
          %x = memref.load %v[%e] : memref<256xf32, #gpu.address_space<workgroup>>
        }
      }
      kda.lds_barrier
    }
    gpu.return
  }
}
}

// -----

// F5: read index tid - block_id with known_grid_size = 1 on the kernel: BlockIdOp's
// range rule trusts known_grid_size ([0,0]); launched with 2 blocks, block 1 reads -1.

module attributes {gpu.container_module} {
gpu.module @kernels attributes {kda.target = #kda.target<"emu">} {
  kda.lds_buffer @r slots(2) slot_bytes(1024) offset(0)
  gpu.func @k()
      workgroup(%lds : memref<2048xi8, #gpu.address_space<workgroup>>)
      private(%src : memref<1024xf32, #gpu.address_space<private>>)
      kernel attributes {known_block_size = array<i32: 256, 1, 1>, known_grid_size = array<i32: 1, 1, 1>} {
    %tid = gpu.thread_id x
    // expected-error @+1 {{R0: cannot analyse memref.load: the LDS element it indexes through a view of the ring cannot be bounded}}
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
          %so = arith.muli %n, %c256 : index
          kda.copy_row %src[%so] to %lds[%at] elems(256) atom(staged) : memref<1024xf32, #gpu.address_space<private>>, memref<2048xi8, #gpu.address_space<workgroup>>
        }
        %s = kda.ring_slot %i of @r
        %rd = arith.muli %s, %c1024 : index
        kda.lds_read @r[%s] iter(%i) do {
          %v = memref.view %lds[%rd][] : memref<2048xi8, #gpu.address_space<workgroup>> to memref<256xf32, #gpu.address_space<workgroup>>
          %bid = gpu.block_id x
          %e = arith.subi %tid, %bid : index
          %x = memref.load %v[%e] : memref<256xf32, #gpu.address_space<workgroup>>
        }
      }
      kda.lds_barrier
    }
    gpu.return
  }
}
}

// -----

// Safe: the same index without exact (the model evaluates what runs).

module attributes {gpu.container_module} {
gpu.module @kernels attributes {kda.target = #kda.target<"emu">} {
  kda.lds_buffer @r slots(2) slot_bytes(1024) offset(0)
  gpu.func @k()
      workgroup(%lds : memref<2048xi8, #gpu.address_space<workgroup>>)
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
          %so = arith.muli %n, %c256 : index
          kda.copy_row %src[%so] to %lds[%at] elems(256) atom(staged) : memref<1024xf32, #gpu.address_space<private>>, memref<2048xi8, #gpu.address_space<workgroup>>
        }
        %s = kda.ring_slot %i of @r
        %rd = arith.muli %s, %c1024 : index
        kda.lds_read @r[%s] iter(%i) do {
          %v = memref.view %lds[%rd][] : memref<2048xi8, #gpu.address_space<workgroup>> to memref<256xf32, #gpu.address_space<workgroup>>
          %c4 = arith.constant 4 : index
          %d = arith.divui %tid, %c4 : index
          %m = arith.muli %d, %c4 : index
          %e = arith.addi %m, %c3 : index
          %x = memref.load %v[%e] : memref<256xf32, #gpu.address_space<workgroup>>
        }
      }
      kda.lds_barrier
    }
    gpu.return
  }
}
}
