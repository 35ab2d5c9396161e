// The tenth hand-written-schedule campaign (2026-12-07, fifty-fourth
// session). Each case was accepted before; the emulator stopped the first
// three (LDS bounds errors) and the fourth, lowered for gfx950, leaves half
// of each copied region unwritten.
// RUN: kda-opt %s -split-input-file -verify-diagnostics --kda-verify-pipeline

// -----

// A read body's index tid - block_id computed with overflow<nuw>: the body
// range rules (InferIntRangeInterface) saturate it at 0 ([0, 255]), but in
// block 1 thread 0 computes -1 and reads the float before its slot.
// Now: a body op with nsw / nuw has no range (a wrap is poison the code
// computes anyway), as the schedule's evaluator refuses them (R0).
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
          %bid = gpu.block_id x
          %e = arith.subi %tid, %bid overflow<nuw> : index
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

// A copy row's LDS byte slot*1024 + (0 - block_id nuw)*1024: the range rules
// saturate 0 - block_id at 0, so the row seems to stay in its slot; block 1
// computes -1 and writes iteration 1's row into slot 0 while slot 0 is read.
// The same for a copy row's byte. (LLVM -O1 folded this one to 0, which
// shows the wrap is poison folded any way.)
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
          %at0 = arith.muli %sn, %c1024 : index
          %bid = gpu.block_id x
          %k = arith.subi %c0, %bid overflow<nuw> : index
          %kb = arith.muli %k, %c1024 : index
          %at = arith.addi %at0, %kb : index
          %so = arith.muli %n, %c256 : index
          kda.copy_row %src[%so] to %lds[%at] elems(256) atom(staged) : memref<1024xf32, #gpu.address_space<private>>, memref<2048xi8, #gpu.address_space<workgroup>>
        }
        %s = kda.ring_slot %i of @r
        %rd = arith.muli %s, %c1024 : index
        kda.lds_read @r[%s] iter(%i) do {
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

// A read body's index built from gpu.subgroup_size upper_bound 32 on a
// wave-64 target (emu: 64 lanes): the body range rules trust the
// annotation ([1, 32]), so tid + 2 * sgs - 1 seems to stay in [1, 126] of
// the slot's 128 floats; on the chip (and the emulator) sgs is 64 and
// threads reach floats [127, 190]: the next slot, where iteration i + 1's
// tile is being written.
// Now: subgroup_size is the target's wave; no upper_bound of a gpu id or
// size is taken as a bound.
module attributes {gpu.container_module} {
gpu.module @kernels attributes {kda.target = #kda.target<"emu">} {
  kda.lds_buffer @r slots(2) slot_bytes(512) offset(0)
  gpu.func @k()
      workgroup(%lds : memref<1024xi8, #gpu.address_space<workgroup>>)
      private(%src : memref<1024xf32, #gpu.address_space<private>>)
      kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %tid = gpu.thread_id x
    // expected-error @+1 {{R1: the read of iteration 0 from @r slot 0 may load bytes [508, 764) through a view of the ring, outside the slot's bytes [0, 512)}}
    kda.schedule "k" trip_count(3) depth(2) target("emu") {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %c128 = arith.constant 128 : index
      %c512 = arith.constant 512 : index
      kda.staged_copy @r[%c0] iter(%c0) do {
        kda.copy_row %src[%c0] to %lds[%c0] elems(128) atom(staged) : memref<1024xf32, #gpu.address_space<private>>, memref<1024xi8, #gpu.address_space<workgroup>>
      }
      scf.for %i = %c0 to %c3 step %c1 {
        kda.lds_barrier
        %n = arith.addi %i, %c1 : index
        %p = arith.cmpi slt, %n, %c3 : index
        %sn = kda.ring_slot %n of @r
        kda.staged_copy @r[%sn] iter(%n) if(%p) do {
          %at = arith.muli %sn, %c512 : index
          %so = arith.muli %n, %c128 : index
          kda.copy_row %src[%so] to %lds[%at] elems(128) atom(staged) : memref<1024xf32, #gpu.address_space<private>>, memref<1024xi8, #gpu.address_space<workgroup>>
        }
        %s = kda.ring_slot %i of @r
        %rd = arith.muli %s, %c512 : index
        kda.lds_read @r[%s] iter(%i) do {
          %v = memref.view %lds[%rd][] : memref<1024xi8, #gpu.address_space<workgroup>> to memref<128xf32, #gpu.address_space<workgroup>>
          %sgs = gpu.subgroup_size upper_bound 32 : index
          %two = arith.muli %sgs, %c2 : index
          %a = arith.addi %tid, %two : index
          %e = arith.subi %a, %c1 : index
          %x = memref.load %v[%e] : memref<128xf32, #gpu.address_space<workgroup>>
        }
      }
      kda.lds_barrier
    }
    gpu.return
  }
}
}

// -----

// f3_subwave.mlir's schedule for the chip (gfx950), the row's source a
// global buffer: lowered to show what the 32-thread block issues.
// Now R0, and kda-lower-atoms refuses such a row (Atoms/copy-atoms-invalid).
module attributes {gpu.container_module} {
gpu.module @kernels attributes {kda.target = #kda.target<"gfx950">} {
  kda.lds_buffer @r slots(1) slot_bytes(1024) offset(0)
  gpu.func @k(%src : memref<256xi32, #gpu.address_space<global>>)
      workgroup(%lds : memref<1024xi8, #gpu.address_space<workgroup>>)
      kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
    %tid = gpu.thread_id x
    // expected-error @+1 {{R0: cannot analyse kda.copy_row: its kernel's block of 32 threads is less than a wave of 64 on gfx950}}
    kda.schedule "k" trip_count(1) depth(1) target("gfx950") {
      %c0 = arith.constant 0 : index
      %c8 = arith.constant 8 : index
      kda.async_copy @r[%c0] iter(%c0) do {
        kda.copy_row %src[%c0] to %lds[%c0] elems(256) atom(global_load_lds) : memref<256xi32, #gpu.address_space<global>>, memref<1024xi8, #gpu.address_space<workgroup>>
      }
      kda.async_wait 0
      kda.lds_barrier
      kda.lds_read @r[%c0] iter(%c0) do {
        %v = memref.view %lds[%c0][] : memref<1024xi8, #gpu.address_space<workgroup>> to memref<256xi32, #gpu.address_space<workgroup>>
        %j = arith.muli %tid, %c8 : index
        %x = memref.load %v[%j] : memref<256xi32, #gpu.address_space<workgroup>>
      }
      kda.lds_barrier
    }
    gpu.return
  }
}
}
