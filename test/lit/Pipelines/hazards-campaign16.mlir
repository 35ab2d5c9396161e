// Campaign 16 of hand-written schedules and role kernels (2026-12-07,
// fifty-eighth session): each accepted before, and shown unsafe on the
// emulator (an out-of-bounds LDS read, a race) or by its static twin.
// - arith.ceildivsi of the smallest value: MLIR's range rule gives
//   +2^(w-2) for ceildivsi(INT_MIN, 2) where every lowering computes
//   -2^(w-2), so an index ranged [0, 255] was tid - 256 (64-bit and i8);
// - nvvm.read.ptx.sreg.tid.x with a `range <i32, 0, 63>` annotation in a
//   256-thread kernel: the annotation was trusted, as gpu's upper_bound once
//   was;
// - a subview at a run-time offset (role kernels): taken to stay inside its
//   source, it read past it into the bytes another role wrote (dynamic LDS,
//   and two workgroup attributions).
// RUN: kda-opt %s -split-input-file -verify-diagnostics --kda-verify-pipeline

// HOLE 1 (campaign 16): arith.ceildivsi of the smallest signed value.
// MLIR's inferCeilDivS returns -(INT_MIN sdiv 2) = +2^62 for ceildivsi(INT_MIN, 2)
// (a special case kept for the old expansion), but arith-expand lowers it as
// z = a / b (+1 if inexact and same sign) = -2^62. The read body's index
// tid + ((ceildivsi(INT_MIN + (tid >> 8), 2) - 2^62) >> 55) is ranged [0, 255]
// by the verifier, but is tid - 256: thread 0 reads 1 KiB before slot 0.
// kda-verify-pipeline: accepted.  Emulator: LDS access out of bounds (bytes [-1024, -1020)).
module attributes {gpu.container_module} {
gpu.module @kernels attributes {kda.target = #kda.target<"emu">} {
  kda.lds_buffer @r slots(2) slot_bytes(1024) offset(0)
  gpu.func @cdiv()
      workgroup(%lds : memref<2048xi8, #gpu.address_space<workgroup>>)
      private(%src : memref<1024xf32, #gpu.address_space<private>>)
      kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
    %tid = gpu.thread_id x
    %bid = gpu.block_id x
    %k0 = arith.constant 0 : index
    %k1 = arith.constant 1 : index
    %k8 = arith.constant 8 : index
    %k1020k = arith.constant 1020 : index
    scf.for %e = %k0 to %k1020k step %k1 {
      %t = arith.shrui %e, %k8 : index
      %ti = arith.index_cast %t : index to i32
      %tf = arith.sitofp %ti : i32 to f32
      memref.store %tf, %src[%e] : memref<1024xf32, #gpu.address_space<private>>
    }

    // expected-error @+1 {{R1: the read of iteration 0 from @r slot 0 may load bytes [-1024, 2044) through a view of the ring, outside th}}
    kda.schedule "cdiv" trip_count(3) depth(2) target("emu") {
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
          %off = arith.muli %n, %c256 : index
          kda.copy_row %src[%off] to %lds[%at] elems(256) atom(staged) : memref<1024xf32, #gpu.address_space<private>>, memref<2048xi8, #gpu.address_space<workgroup>>
        }
        %s = kda.ring_slot %i of @r
        %rd = arith.muli %s, %c1024 : index
        kda.lds_read @r[%s] iter(%i) do {
          %v = memref.view %lds[%rd][] : memref<2048xi8, #gpu.address_space<workgroup>> to memref<256xf32, #gpu.address_space<workgroup>>
          %c8i = arith.constant 8 : index
          %cmin = arith.constant -9223372036854775808 : index
          %c2 = arith.constant 2 : index
          %c2p62 = arith.constant 4611686018427387904 : index
          %c55 = arith.constant 55 : index
          %z = arith.shrui %tid, %c8i : index
          %a = arith.addi %z, %cmin : index
          %cq = arith.ceildivsi %a, %c2 : index
          %d = arith.subi %cq, %c2p62 : index
          %e = arith.shrsi %d, %c55 : index
          %idx = arith.addi %tid, %e : index
          %x = memref.load %v[%idx] : memref<256xf32, #gpu.address_space<workgroup>>
          %c1020 = arith.constant 1020 : index
          %sv = arith.addi %i, %c1020 : index
          memref.store %x, %src[%sv] : memref<1024xf32, #gpu.address_space<private>>
        }
      }
      kda.lds_barrier
    }
    gpu.return
  }
}
}

// -----

// HOLE 1b: the same at i8: ceildivsi(-128 + (tid >> 8), 2) ranged {64}, is -64.
module attributes {gpu.container_module} {
gpu.module @kernels attributes {kda.target = #kda.target<"emu">} {
  kda.lds_buffer @r slots(2) slot_bytes(1024) offset(0)
  gpu.func @ceildiv_i8()
      workgroup(%lds : memref<2048xi8, #gpu.address_space<workgroup>>)
      private(%src : memref<1024xf32, #gpu.address_space<private>>)
      kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
    %tid = gpu.thread_id x
    %bid = gpu.block_id x
    %k0 = arith.constant 0 : index
    %k1 = arith.constant 1 : index
    %k8 = arith.constant 8 : index
    %k1020k = arith.constant 1020 : index
    scf.for %e = %k0 to %k1020k step %k1 {
      %t = arith.shrui %e, %k8 : index
      %ti = arith.index_cast %t : index to i32
      %tf = arith.sitofp %ti : i32 to f32
      memref.store %tf, %src[%e] : memref<1024xf32, #gpu.address_space<private>>
    }

    // expected-error @+1 {{R1: the read of iteration 0 from @r slot 0 may load bytes [-1536, 1528) through a view of the ring, outside th}}
    kda.schedule "ceildiv_i8" trip_count(3) depth(2) target("emu") {
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
          %off = arith.muli %n, %c256 : index
          kda.copy_row %src[%off] to %lds[%at] elems(256) atom(staged) : memref<1024xf32, #gpu.address_space<private>>, memref<2048xi8, #gpu.address_space<workgroup>>
        }
        %s = kda.ring_slot %i of @r
        %rd = arith.muli %s, %c1024 : index
        kda.lds_read @r[%s] iter(%i) do {
          %v = memref.view %lds[%rd][] : memref<2048xi8, #gpu.address_space<workgroup>> to memref<256xf32, #gpu.address_space<workgroup>>
          %c2 = arith.constant 2 : index
          %c8i = arith.constant 8 : index
          %c64 = arith.constant 64 : index
          %c128 = arith.constant 128 : index
          %c255 = arith.constant 255 : index
          %z = arith.shrui %tid, %c8i : index
          %z8 = arith.index_cast %z : index to i8
          %cmin = arith.constant -128 : i8
          %a = arith.addi %z8, %cmin : i8
          %c2i8 = arith.constant 2 : i8
          %q = arith.ceildivsi %a, %c2i8 : i8
          %qi = arith.index_cast %q : i8 to index
          %c64i = arith.constant 64 : index
          %d = arith.subi %qi, %c64i : index
          %c2x = arith.constant 2 : index
          %e = arith.muli %d, %c2x : index
          %idx = arith.addi %tid, %e : index
          %x = memref.load %v[%idx] : memref<256xf32, #gpu.address_space<workgroup>>
          %c1020 = arith.constant 1020 : index
          %sv = arith.addi %i, %c1020 : index
          memref.store %x, %src[%sv] : memref<1024xf32, #gpu.address_space<private>>
        }
      }
      kda.lds_barrier
    }
    gpu.return
  }
}
}

// -----

// Hole: a read body indexes by nvvm.read.ptx.sreg.tid.x carrying a `range`
// annotation (here [0, 63]) that contradicts the kernel's 256-thread block.
// The verifier's body ranges trust NVVM's InferIntRangeInterface (the
// annotation), so tid + 192 looks inside the slot; threads 64..255 load the
// next slot, which the copy of iteration i + 1 is filling.
gpu.module @kernels attributes {kda.target = #kda.target<"sm_90">} {
  kda.lds_buffer @r slots(2) slot_bytes(1024) offset(0)
  gpu.func @k(%src: memref<?xf32>)
      workgroup(%lds : memref<2048xi8, #gpu.address_space<workgroup>>)
      kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
    // expected-error @+1 {{R1: the read of iteration 0 from @r slot 0 may load bytes [-8589933824, 8589935360) through a view of the ring}}
    kda.schedule "k" trip_count(4) depth(2) target("sm_90") {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c192 = arith.constant 192 : index
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
          %t32 = nvvm.read.ptx.sreg.tid.x range <i32, 0, 63> : i32
          %t = arith.index_cast %t32 : i32 to index
          %idx = arith.addi %t, %c192 : index
          %x = memref.load %v[%idx] : memref<256xf32, #gpu.address_space<workgroup>>
          memref.store %x, %src[%idx] : memref<?xf32>
        }
        kda.lds_barrier
      }
      kda.async_wait 0
    }
    gpu.return
  }
}

// -----

// HOLE 4 (campaign 16): roles kernel; role 0 reads %a through a subview at a run-time
// offset (1, from arith.addi) whose last element is %b[0]; role 1 writes %b in the same
// barrier interval. LdsHandoffs::checkInBounds places only subviews of static layout
// (the twin with subview %a[1][63][1] is R1), and rangeOf(subview) keeps the access in
// %a's bytes. Accepted; the emulator's race detector does not watch loads through a
// dynamic-offset subview either (race-free), while it reports the static twin's same
// bytes [256, 260) as out of bounds.  Run: kda-emu-run ... k_packed --block 128 --dynamic-lds 512
module attributes {gpu.container_module} {
gpu.module @kernels attributes {kda.target = #kda.target<"emu">} {
  gpu.func @k()
      private(%out : memref<64xf32, #gpu.address_space<private>>)
      kernel attributes {known_block_size = array<i32: 128, 1, 1>, kda.wave_roles = array<i64: 64, 1>, kda.dynamic_lds_bytes = 512 : i64} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %c256 = arith.constant 256 : index
    %f = arith.constant 1.0 : f32
    %tid = gpu.thread_id x
    %lds = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %a = memref.view %lds[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<64xf32, #gpu.address_space<workgroup>>
    %b = memref.view %lds[%c256][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<64xf32, #gpu.address_space<workgroup>>
    %compute = arith.cmpi ult, %tid, %c64 : index
    %lane = arith.remui %tid, %c64 : index
    %off = arith.addi %c0, %c1 : index
    scf.if %compute {
      %sv = memref.subview %a[%off][64][1] : memref<64xf32, #gpu.address_space<workgroup>> to memref<64xf32, strided<[1], offset: ?>, #gpu.address_space<workgroup>>
      // expected-note @+1 {{the other access}}
      %x = memref.load %sv[%lane] : memref<64xf32, strided<[1], offset: ?>, #gpu.address_space<workgroup>>
      memref.store %x, %out[%lane] : memref<64xf32, #gpu.address_space<private>>
    } else {
      // expected-error @+1 {{R2: LDS handoff in kernel 'k': write of bytes [256, 512) of the dynamic LDS by threads [64, 128) (role 1 (wave}}
      memref.store %f, %b[%lane] : memref<64xf32, #gpu.address_space<workgroup>>
    }
    gpu.barrier
    gpu.return
  }
}
}

// -----

// HOLE 4b: as hole-subview-dynamic-offset.mlir, with two workgroup attributions.
module attributes {gpu.container_module} {
gpu.module @kernels attributes {kda.target = #kda.target<"emu">} {
  gpu.func @k()
      workgroup(%a : memref<64xf32, #gpu.address_space<workgroup>>,
                %b : memref<64xf32, #gpu.address_space<workgroup>>)
      private(%out : memref<64xf32, #gpu.address_space<private>>)
      kernel attributes {known_block_size = array<i32: 128, 1, 1>, kda.wave_roles = array<i64: 64, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %f = arith.constant 1.0 : f32
    %tid = gpu.thread_id x
    %compute = arith.cmpi ult, %tid, %c64 : index
    %lane = arith.remui %tid, %c64 : index
    %off = arith.addi %c0, %c1 : index
    scf.if %compute {
      %sv = memref.subview %a[%off][64][1] : memref<64xf32, #gpu.address_space<workgroup>> to memref<64xf32, strided<[1], offset: ?>, #gpu.address_space<workgroup>>
      // expected-note @+1 {{the other access}}
      %x = memref.load %sv[%lane] : memref<64xf32, strided<[1], offset: ?>, #gpu.address_space<workgroup>>
      memref.store %x, %out[%lane] : memref<64xf32, #gpu.address_space<private>>
    } else {
      // expected-error @+1 {{R2: LDS handoff in kernel 'k': write of bytes [0, 256) of workgroup attribution 1 by threads [64, 128) (role 1}}
      memref.store %f, %b[%lane] : memref<64xf32, #gpu.address_space<workgroup>>
    }
    gpu.barrier
    gpu.return
  }
}
}
