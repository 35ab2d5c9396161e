// The fifth hand-written-schedule campaign (2026-12-06, second session):
// accesses of read bodies the bound missed, copy rows outside copy bodies
// or with per-thread operands, overflow flags and 64-bit wraps in the
// dynamic proof, a per-thread trip count, a wait landing another copy's
// bytes, and a warpgroup B taken through a per-thread view. Each case was
// accepted before; each was confirmed on the emulator (or, for the
// overflow flag, after LLVM folded it).
// RUN: kda-opt %s -split-input-file -verify-diagnostics --kda-verify-pipeline

// -----

// An atomic in a read body on an array beside the ring, past its end: its
// bytes are the ring's (emulator: out of bounds into @r slot 0). Atomics,
// masked and transfer accesses are bounded like loads and stores now.
module attributes {gpu.container_module} {
gpu.module @kernels attributes {kda.target = #kda.target<"emu">} {
  kda.lds_buffer @r slots(2) slot_bytes(1024) offset(1024)
  gpu.func @k(%src: memref<1024xf32>, %out: memref<1024xf32>)
      workgroup(%scr2 : memref<256xf32, #gpu.address_space<workgroup>>, %lds : memref<2048xi8, #gpu.address_space<workgroup>>)
      kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %tid = gpu.thread_id x
    // expected-error @+1 {{R1: the read of iteration 0 from @r slot 0 stores elements [300, 300] of dimension 0 of memref<256xf32, #gpu.address_space<workgroup>> (0 .. 255): past its array the bytes are another's (the ring's, a tile in flight), which the schedule does not see it touch}}
    kda.schedule "k" trip_count(4) depth(2) target("emu") {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c256 = arith.constant 256 : index
      %c1024 = arith.constant 1024 : index
      %c2048 = arith.constant 2048 : index
      kda.staged_copy @r[%c0] iter(%c0) do {
        kda.copy_row %src[%c0] to %lds[%c0] elems(256) atom(staged) : memref<1024xf32>, memref<2048xi8, #gpu.address_space<workgroup>>
      }
      kda.lds_barrier
      scf.for %i = %c0 to %c4 step %c1 {
        %s = kda.ring_slot %i of @r
        %rd = arith.muli %s, %c1024 : index
        kda.lds_read @r[%s] iter(%i) do {
          %v = memref.view %lds[%rd][] : memref<2048xi8, #gpu.address_space<workgroup>> to memref<256xf32, #gpu.address_space<workgroup>>
          %x = memref.load %v[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
          memref.store %x, %out[%tid] : memref<1024xf32>
          %c300 = arith.constant 300 : index
          %one = arith.constant 1.0 : f32
          %old = memref.atomic_rmw addf %one, %scr2[%c300] : (f32, memref<256xf32, #gpu.address_space<workgroup>>) -> f32
        }
        %n = arith.addi %i, %c1 : index
        %p = arith.cmpi slt, %n, %c4 : index
        %sn = kda.ring_slot %n of @r
        %at = arith.muli %sn, %c1024 : index
        kda.lds_barrier
        kda.staged_copy @r[%sn] iter(%n) if(%p) do {
          %o = arith.muli %n, %c256 : index
          kda.copy_row %src[%c0] to %lds[%at] elems(256) atom(staged) : memref<1024xf32>, memref<2048xi8, #gpu.address_space<workgroup>>
        }
        kda.lds_barrier
      }
    }
    gpu.return
  }
}
}


// -----

// The same through vector.transfer_write {in_bounds = [true]}.
module attributes {gpu.container_module} {
gpu.module @kernels attributes {kda.target = #kda.target<"emu">} {
  kda.lds_buffer @r slots(2) slot_bytes(1024) offset(1024)
  gpu.func @k(%src: memref<1024xf32>, %out: memref<1024xf32>)
      workgroup(%scr2 : memref<256xf32, #gpu.address_space<workgroup>>, %lds : memref<2048xi8, #gpu.address_space<workgroup>>)
      kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %tid = gpu.thread_id x
    // expected-error @+1 {{R1: the read of iteration 0 from @r slot 0 stores elements [300, 303] of dimension 0 of memref<256xf32, #gpu.address_space<workgroup>> (0 .. 255): past its array the bytes are another's (the ring's, a tile in flight), which the schedule does not see it touch}}
    kda.schedule "k" trip_count(4) depth(2) target("emu") {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c256 = arith.constant 256 : index
      %c1024 = arith.constant 1024 : index
      %c2048 = arith.constant 2048 : index
      kda.staged_copy @r[%c0] iter(%c0) do {
        kda.copy_row %src[%c0] to %lds[%c0] elems(256) atom(staged) : memref<1024xf32>, memref<2048xi8, #gpu.address_space<workgroup>>
      }
      kda.lds_barrier
      scf.for %i = %c0 to %c4 step %c1 {
        %s = kda.ring_slot %i of @r
        %rd = arith.muli %s, %c1024 : index
        kda.lds_read @r[%s] iter(%i) do {
          %v = memref.view %lds[%rd][] : memref<2048xi8, #gpu.address_space<workgroup>> to memref<256xf32, #gpu.address_space<workgroup>>
          %x = memref.load %v[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
          memref.store %x, %out[%tid] : memref<1024xf32>
          %c300 = arith.constant 300 : index
          %vv = vector.broadcast %x : f32 to vector<4xf32>
          vector.transfer_write %vv, %scr2[%c300] {in_bounds = [true]} : vector<4xf32>, memref<256xf32, #gpu.address_space<workgroup>>
        }
        %n = arith.addi %i, %c1 : index
        %p = arith.cmpi slt, %n, %c4 : index
        %sn = kda.ring_slot %n of @r
        %at = arith.muli %sn, %c1024 : index
        kda.lds_barrier
        kda.staged_copy @r[%sn] iter(%n) if(%p) do {
          %o = arith.muli %n, %c256 : index
          kda.copy_row %src[%c0] to %lds[%at] elems(256) atom(staged) : memref<1024xf32>, memref<2048xi8, #gpu.address_space<workgroup>>
        }
        kda.lds_barrier
      }
    }
    gpu.return
  }
}
}


// -----

// The same through vector.maskedstore.
module attributes {gpu.container_module} {
gpu.module @kernels attributes {kda.target = #kda.target<"emu">} {
  kda.lds_buffer @r slots(2) slot_bytes(1024) offset(1024)
  gpu.func @k(%src: memref<1024xf32>, %out: memref<1024xf32>)
      workgroup(%scr2 : memref<256xf32, #gpu.address_space<workgroup>>, %lds : memref<2048xi8, #gpu.address_space<workgroup>>)
      kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %tid = gpu.thread_id x
    // expected-error @+1 {{R1: the read of iteration 0 from @r slot 0 stores elements [300, 303] of dimension 0 of memref<256xf32, #gpu.address_space<workgroup>> (0 .. 255): past its array the bytes are another's (the ring's, a tile in flight), which the schedule does not see it touch}}
    kda.schedule "k" trip_count(4) depth(2) target("emu") {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c256 = arith.constant 256 : index
      %c1024 = arith.constant 1024 : index
      %c2048 = arith.constant 2048 : index
      kda.staged_copy @r[%c0] iter(%c0) do {
        kda.copy_row %src[%c0] to %lds[%c0] elems(256) atom(staged) : memref<1024xf32>, memref<2048xi8, #gpu.address_space<workgroup>>
      }
      kda.lds_barrier
      scf.for %i = %c0 to %c4 step %c1 {
        %s = kda.ring_slot %i of @r
        %rd = arith.muli %s, %c1024 : index
        kda.lds_read @r[%s] iter(%i) do {
          %v = memref.view %lds[%rd][] : memref<2048xi8, #gpu.address_space<workgroup>> to memref<256xf32, #gpu.address_space<workgroup>>
          %x = memref.load %v[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
          memref.store %x, %out[%tid] : memref<1024xf32>
          %c300 = arith.constant 300 : index
          %vv = vector.broadcast %x : f32 to vector<4xf32>
          %m = vector.constant_mask [4] : vector<4xi1>
          vector.maskedstore %scr2[%c300], %m, %vv : memref<256xf32, #gpu.address_space<workgroup>>, vector<4xi1>, vector<4xf32>
        }
        %n = arith.addi %i, %c1 : index
        %p = arith.cmpi slt, %n, %c4 : index
        %sn = kda.ring_slot %n of @r
        %at = arith.muli %sn, %c1024 : index
        kda.lds_barrier
        kda.staged_copy @r[%sn] iter(%n) if(%p) do {
          %o = arith.muli %n, %c256 : index
          kda.copy_row %src[%c0] to %lds[%at] elems(256) atom(staged) : memref<1024xf32>, memref<2048xi8, #gpu.address_space<workgroup>>
        }
        kda.lds_barrier
      }
    }
    gpu.return
  }
}
}


// -----

// A copy row in a read body, into a scratch array past its end (into @r slot
// 1): no copy body, so nothing orders it; and the read's check does not bound
// it.
module attributes {gpu.container_module} {
gpu.module @kernels attributes {kda.target = #kda.target<"emu">} {
  kda.lds_buffer @r slots(2) slot_bytes(1024) offset(1024)
  gpu.func @k(%src: memref<1024xf32>, %out: memref<1024xf32>)
      workgroup(%scr : memref<1024xi8, #gpu.address_space<workgroup>>, %lds : memref<2048xi8, #gpu.address_space<workgroup>>)
      kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %tid = gpu.thread_id x
    // expected-error @+1 {{R0: cannot analyse kda.copy_row: it takes LDS, and the read's checks bound only loads, stores, atomics, transfers and views: its bytes are not bounded}}
    kda.schedule "k" trip_count(4) depth(2) target("emu") {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c256 = arith.constant 256 : index
      %c1024 = arith.constant 1024 : index
      %c2048 = arith.constant 2048 : index
      kda.staged_copy @r[%c0] iter(%c0) do {
        kda.copy_row %src[%c0] to %lds[%c0] elems(256) atom(staged) : memref<1024xf32>, memref<2048xi8, #gpu.address_space<workgroup>>
      }
      kda.lds_barrier
      scf.for %i = %c0 to %c4 step %c1 {
        %s = kda.ring_slot %i of @r
        %rd = arith.muli %s, %c1024 : index
        kda.lds_read @r[%s] iter(%i) do {
          %v = memref.view %lds[%rd][] : memref<2048xi8, #gpu.address_space<workgroup>> to memref<256xf32, #gpu.address_space<workgroup>>
          %x = memref.load %v[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
          memref.store %x, %out[%tid] : memref<1024xf32>
          // expected-error @+1 {{R0: cannot analyse kda.copy_row outside the body of a kda.async_copy or kda.staged_copy: no group, wait or barrier of the hazard model orders its landing}}
          kda.copy_row %src[%c256] to %scr[%c2048] elems(256) atom(staged) : memref<1024xf32>, memref<1024xi8, #gpu.address_space<workgroup>>
        }
        %n = arith.addi %i, %c1 : index
        %p = arith.cmpi slt, %n, %c4 : index
        %sn = kda.ring_slot %n of @r
        %at = arith.muli %sn, %c1024 : index
        kda.lds_barrier
        kda.staged_copy @r[%sn] iter(%n) if(%p) do {
          %o = arith.muli %n, %c256 : index
          kda.copy_row %src[%c0] to %lds[%at] elems(256) atom(staged) : memref<1024xf32>, memref<2048xi8, #gpu.address_space<workgroup>>
        }
        kda.lds_barrier
      }
    }
    gpu.return
  }
}
}


// -----

// nsw makes the wrap the model evaluates poison: LLVM folds x < 0 to false and
// drops the wait the model kept at iterations 2 and 3 (emulator at -O1: the
// race).
module attributes {gpu.container_module} {
gpu.module @kernels attributes {kda.target = #kda.target<"emu32">} {
  kda.lds_buffer @r slots(2) slot_bytes(1024) offset(0)
  gpu.func @k(%src: memref<1024xf32>, %out: memref<1024xf32>)
      workgroup(%lds : memref<2048xi8, #gpu.address_space<workgroup>>)
      kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %tid = gpu.thread_id x
    // expected-error @+1 {{R0: cannot analyse arith.addi: it carries overflow flags (nsw, nuw), under which a result the model evaluates may be poison LLVM folds any way; drop them (an operand of scf.if)}}
    kda.schedule "k" trip_count(4) depth(2) target("emu32") {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c4 = arith.constant 4 : index
      %c256 = arith.constant 256 : index
      %c1024 = arith.constant 1024 : index
      %big = arith.constant 9223372036854775806 : index
      kda.async_copy @r[%c0] iter(%c0) do {
        kda.copy_row %src[%c0] to %lds[%c0] elems(256) atom(cp_async) : memref<1024xf32>, memref<2048xi8, #gpu.address_space<workgroup>>
      }
      scf.for %i = %c0 to %c4 step %c1 {
        %x = arith.addi %i, %big overflow<nsw> : index
        %neg = arith.cmpi slt, %x, %c0 : index
        %early = arith.cmpi slt, %i, %c2 : index
        %w = arith.ori %neg, %early : i1
        scf.if %w {
          kda.async_wait 0
        }
        kda.lds_barrier
        %s = kda.ring_slot %i of @r
        %rd = arith.muli %s, %c1024 : index
        kda.lds_read @r[%s] iter(%i) do {
          %v = memref.view %lds[%rd][] : memref<2048xi8, #gpu.address_space<workgroup>> to memref<256xf32, #gpu.address_space<workgroup>>
          %y = memref.load %v[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
          %o = arith.muli %i, %c256 : index
          %oi = arith.addi %o, %tid : index
          memref.store %y, %out[%oi] : memref<1024xf32>
        }
        kda.lds_barrier
        %n = arith.addi %i, %c1 : index
        %p = arith.cmpi slt, %n, %c4 : index
        %sn = kda.ring_slot %n of @r
        %at = arith.muli %sn, %c1024 : index
        kda.async_copy @r[%sn] iter(%n) if(%p) do {
          %so = arith.muli %n, %c256 : index
          kda.copy_row %src[%so] to %lds[%at] elems(256) atom(cp_async) : memref<1024xf32>, memref<2048xi8, #gpu.address_space<workgroup>>
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

// Its twin without the flag keeps the wait (race-free on the emulator):
// accepted.
module attributes {gpu.container_module} {
gpu.module @kernels attributes {kda.target = #kda.target<"emu32">} {
  kda.lds_buffer @r slots(2) slot_bytes(1024) offset(0)
  gpu.func @k(%src: memref<1024xf32>, %out: memref<1024xf32>)
      workgroup(%lds : memref<2048xi8, #gpu.address_space<workgroup>>)
      kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %tid = gpu.thread_id x
    kda.schedule "k" trip_count(4) depth(2) target("emu32") {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c4 = arith.constant 4 : index
      %c256 = arith.constant 256 : index
      %c1024 = arith.constant 1024 : index
      %big = arith.constant 9223372036854775806 : index
      kda.async_copy @r[%c0] iter(%c0) do {
        kda.copy_row %src[%c0] to %lds[%c0] elems(256) atom(cp_async) : memref<1024xf32>, memref<2048xi8, #gpu.address_space<workgroup>>
      }
      scf.for %i = %c0 to %c4 step %c1 {
        %x = arith.addi %i, %big : index
        %neg = arith.cmpi slt, %x, %c0 : index
        %early = arith.cmpi slt, %i, %c2 : index
        %w = arith.ori %neg, %early : i1
        scf.if %w {
          kda.async_wait 0
        }
        kda.lds_barrier
        %s = kda.ring_slot %i of @r
        %rd = arith.muli %s, %c1024 : index
        kda.lds_read @r[%s] iter(%i) do {
          %v = memref.view %lds[%rd][] : memref<2048xi8, #gpu.address_space<workgroup>> to memref<256xf32, #gpu.address_space<workgroup>>
          %y = memref.load %v[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
          %o = arith.muli %i, %c256 : index
          %oi = arith.addi %o, %tid : index
          memref.store %y, %out[%oi] : memref<1024xf32>
        }
        kda.lds_barrier
        %n = arith.addi %i, %c1 : index
        %p = arith.cmpi slt, %n, %c4 : index
        %sn = kda.ring_slot %n of @r
        %at = arith.muli %sn, %c1024 : index
        kda.async_copy @r[%sn] iter(%n) if(%p) do {
          %so = arith.muli %n, %c256 : index
          kda.copy_row %src[%so] to %lds[%at] elems(256) atom(cp_async) : memref<1024xf32>, memref<2048xi8, #gpu.address_space<workgroup>>
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

// A dynamic trip count that differs between threads (tid / 32 + 1): the waves
// run different iterations past each other's barriers (emulator: divergent
// synchronisation).
module attributes {gpu.container_module} {
gpu.module @kernels attributes {kda.target = #kda.target<"emu32">} {
  kda.lds_buffer @r slots(2) slot_bytes(1024) offset(0)
  gpu.func @k(%src: memref<1024xf32>, %out: memref<1024xf32>)
      workgroup(%lds : memref<2048xi8, #gpu.address_space<workgroup>>)
      kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %tid = gpu.thread_id x
    %c32 = arith.constant 32 : index
    %w = arith.divui %tid, %c32 : index
    %one = arith.constant 1 : index
    %t = arith.addi %w, %one : index
    // expected-error @+1 {{R0: cannot analyse kda.schedule: its dynamic trip count is not shown the same for every thread (constants, block ids, kernel arguments and loads of unwritten ones): threads would run different iterations past each other's barriers}}
    kda.schedule "k" dynamic_trip_count(%t) depth(2) target("emu32") {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c256 = arith.constant 256 : index
      %c1024 = arith.constant 1024 : index
      %p0 = arith.cmpi slt, %c0, %t : index
      kda.async_copy @r[%c0] iter(%c0) if(%p0) do {
        kda.copy_row %src[%c0] to %lds[%c0] elems(256) atom(cp_async) : memref<1024xf32>, memref<2048xi8, #gpu.address_space<workgroup>>
      }
      scf.for %i = %c0 to %t step %c1 {
        %n = arith.addi %i, %c1 : index
        %p = arith.cmpi slt, %n, %t : index
        %sn = kda.ring_slot %n of @r
        %at = arith.muli %sn, %c1024 : index
        kda.async_copy @r[%sn] iter(%n) if(%p) do {
          %so = arith.muli %sn, %c256 : index
          kda.copy_row %src[%so] to %lds[%at] elems(256) atom(cp_async) : memref<1024xf32>, memref<2048xi8, #gpu.address_space<workgroup>>
        }
        kda.async_wait 1
        kda.lds_barrier
        %s = kda.ring_slot %i of @r
        %rd = arith.muli %s, %c1024 : index
        kda.lds_read @r[%s] iter(%i) do {
          %v = memref.view %lds[%rd][] : memref<2048xi8, #gpu.address_space<workgroup>> to memref<256xf32, #gpu.address_space<workgroup>>
          %y = memref.load %v[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
          %o = arith.muli %i, %c256 : index
          %oi = arith.addi %o, %tid : index
          memref.store %y, %out[%oi] : memref<1024xf32>
        }
        kda.lds_barrier
      }
      kda.async_wait 0
      kda.lds_barrier
    }
    gpu.return
  }
}
}


// -----

// A wrap of 64-bit index arithmetic: i + 2^63 - 50 < 2^63 - 40 is true again
// from i = 50, where the wait is skipped (the i32 case of campaign 4 at index
// width).
kda.lds_buffer @h slots(2) slot_bytes(4096) offset(0)
func.func @i64_wrap(%t: index) {
  // expected-error @+1 {{R1: iteration 50 reads @h slot 0 before any wait covers its async copy}}
  kda.schedule "wrap64" dynamic_trip_count(%t) depth(2) target("sm_90") {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c10 = arith.constant 10 : index
    %k = arith.constant 9223372036854775758 : index
    %b = arith.constant 9223372036854775768 : index
    %true = arith.constant true
    %p0 = arith.cmpi slt, %c0, %t : index
    kda.async_copy @h[%c0] iter(%c0) if(%p0)
    scf.for %i = %c0 to %t step %c1 {
      %x = arith.addi %i, %k : index
      %lt = arith.cmpi slt, %x, %b : index
      %big = arith.cmpi sge, %i, %c10 : index
      %skip = arith.andi %lt, %big : i1
      %do = arith.xori %skip, %true : i1
      scf.if %do {
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
    kda.lds_barrier
  }
  return
}


// -----

// A cp_async copy row in a read body joins no group the schedule waits for:
// the load after it reads bytes not landed.
module attributes {gpu.container_module} {
gpu.module @kernels attributes {kda.target = #kda.target<"emu32">} {
  kda.lds_buffer @r slots(2) slot_bytes(1024) offset(0)
  gpu.func @k(%src: memref<1024xf32>, %out: memref<1024xf32>)
      workgroup(%lds : memref<2048xi8, #gpu.address_space<workgroup>>, %scr : memref<1024xi8, #gpu.address_space<workgroup>>)
      kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %tid = gpu.thread_id x
    // expected-error @+1 {{R0: cannot analyse kda.copy_row: it takes LDS, and the read's checks bound only loads, stores, atomics, transfers and views: its bytes are not bounded}}
    kda.schedule "k" trip_count(4) depth(2) target("emu32") {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c1024 = arith.constant 1024 : index
      kda.async_copy @r[%c0] iter(%c0) do {
        kda.copy_row %src[%c0] to %lds[%c0] elems(256) atom(cp_async) : memref<1024xf32>, memref<2048xi8, #gpu.address_space<workgroup>>
      }
      scf.for %i = %c0 to %c4 step %c1 {
        %n = arith.addi %i, %c1 : index
        %p = arith.cmpi slt, %n, %c4 : index
        %sn = kda.ring_slot %n of @r
        %at = arith.muli %sn, %c1024 : index
        kda.async_copy @r[%sn] iter(%n) if(%p) do {
          kda.copy_row %src[%c0] to %lds[%at] elems(256) atom(cp_async) : memref<1024xf32>, memref<2048xi8, #gpu.address_space<workgroup>>
        }
        kda.async_wait 1
        kda.lds_barrier
        %s = kda.ring_slot %i of @r
        %rd = arith.muli %s, %c1024 : index
        kda.lds_read @r[%s] iter(%i) do {
          %v = memref.view %lds[%rd][] : memref<2048xi8, #gpu.address_space<workgroup>> to memref<256xf32, #gpu.address_space<workgroup>>
          %x = memref.load %v[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
          %c256 = arith.constant 256 : index
          %off = arith.muli %i, %c256 : index
          // expected-error @+1 {{R0: cannot analyse kda.copy_row outside the body of a kda.async_copy or kda.staged_copy: no group, wait or barrier of the hazard model orders its landing}}
          kda.copy_row %src[%off] to %scr[%c0] elems(256) atom(cp_async) : memref<1024xf32>, memref<1024xi8, #gpu.address_space<workgroup>>
          %sv = memref.view %scr[%c0][] : memref<1024xi8, #gpu.address_space<workgroup>> to memref<256xf32, #gpu.address_space<workgroup>>
          %y = memref.load %sv[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
          memref.store %y, %out[%tid] : memref<1024xf32>
        }
        kda.lds_barrier
      }
      kda.async_wait 0
    }
    gpu.return
  }
}
}


// -----

// A cp_async copy row outside any schedule: nothing orders its landing before
// the barrier and load.
module attributes {gpu.container_module} {
gpu.module @kernels attributes {kda.target = #kda.target<"emu32">} {
  gpu.func @k(%src: memref<1024xf32>, %out: memref<1024xf32>)
      workgroup(%lds : memref<1024xi8, #gpu.address_space<workgroup>>)
      kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %tid = gpu.thread_id x
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{R0: cannot analyse kda.copy_row outside the body of a kda.async_copy or kda.staged_copy: no group, wait or barrier of the hazard model orders its landing}}
    kda.copy_row %src[%c0] to %lds[%c0] elems(256) atom(cp_async) : memref<1024xf32>, memref<1024xi8, #gpu.address_space<workgroup>>
    gpu.barrier
    %v = memref.view %lds[%c0][] : memref<1024xi8, #gpu.address_space<workgroup>> to memref<256xf32, #gpu.address_space<workgroup>>
    %y = memref.load %v[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
    memref.store %y, %out[%tid] : memref<1024xf32>
    gpu.return
  }
}
}


// -----

// @b lies in the half of @a's slot @a's rows never write: wait 1 lands @a's
// group only, and @b's bytes stay in flight (they were all taken as landed).
module attributes {gpu.container_module} {
gpu.module @kernels attributes {kda.target = #kda.target<"emu32">} {
  kda.lds_buffer @a slots(1) slot_bytes(1024) offset(0)
  kda.lds_buffer @b slots(1) slot_bytes(512) offset(512)
  kda.lds_buffer @z slots(1) slot_bytes(16) offset(1024)
  gpu.func @k(%src: memref<1024xf32>, %out: memref<1024xf32>)
      workgroup(%lds : memref<1024xi8, #gpu.address_space<workgroup>>)
      kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %tid = gpu.thread_id x
    %k0 = arith.constant 0 : index
    %k512 = arith.constant 512 : index
    // expected-error @+1 {{R5: iteration 0 reads @b slot 0, but the last wait (count 1) leaves its copy outstanding: the count is too high}}
    kda.schedule "one" trip_count(1) depth(1) target("emu32") {
      %c0 = arith.constant 0 : index
      %c256 = arith.constant 256 : index
      %c512 = arith.constant 512 : index
      kda.async_copy @a[%c0] iter(%c0) do {
        kda.copy_row %src[%c0] to %lds[%c0] elems(128) atom(cp_async) : memref<1024xf32>, memref<1024xi8, #gpu.address_space<workgroup>>
      }
      kda.async_copy @b[%c0] iter(%c0) do {
        kda.copy_row %src[%c256] to %lds[%c512] elems(128) atom(cp_async) : memref<1024xf32>, memref<1024xi8, #gpu.address_space<workgroup>>
      }
      kda.async_wait 1
      kda.lds_barrier
      kda.lds_read @a[%c0] iter(%c0) do {
        %v = memref.view %lds[%c0][] : memref<1024xi8, #gpu.address_space<workgroup>> to memref<128xf32, #gpu.address_space<workgroup>>
        %y = memref.load %v[%tid] : memref<128xf32, #gpu.address_space<workgroup>>
        memref.store %y, %out[%tid] : memref<1024xf32>
      }
      kda.lds_read @b[%c0] iter(%c0)
      kda.lds_barrier
    }
    %w = memref.view %lds[%k512][] : memref<1024xi8, #gpu.address_space<workgroup>> to memref<128xf32, #gpu.address_space<workgroup>>
    %seven = arith.constant 7.0 : f32
    memref.store %seven, %w[%tid] : memref<128xf32, #gpu.address_space<workgroup>>
    gpu.barrier
    kda.schedule "two" trip_count(0) depth(1) target("emu32") {
      kda.async_wait 0
      kda.lds_barrier
    }
    %y = memref.load %w[%tid] : memref<128xf32, #gpu.address_space<workgroup>>
    %c128 = arith.constant 128 : index
    %o = arith.addi %tid, %c128 : index
    memref.store %y, %out[%o] : memref<1024xf32>
    gpu.return
  }
}
}


// -----

// Its twin waits 0: accepted.
module attributes {gpu.container_module} {
gpu.module @kernels attributes {kda.target = #kda.target<"emu32">} {
  kda.lds_buffer @a slots(1) slot_bytes(1024) offset(0)
  kda.lds_buffer @b slots(1) slot_bytes(512) offset(512)
  kda.lds_buffer @z slots(1) slot_bytes(16) offset(1024)
  gpu.func @k(%src: memref<1024xf32>, %out: memref<1024xf32>)
      workgroup(%lds : memref<1024xi8, #gpu.address_space<workgroup>>)
      kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %tid = gpu.thread_id x
    %k0 = arith.constant 0 : index
    %k512 = arith.constant 512 : index
    kda.schedule "one" trip_count(1) depth(1) target("emu32") {
      %c0 = arith.constant 0 : index
      %c256 = arith.constant 256 : index
      %c512 = arith.constant 512 : index
      kda.async_copy @a[%c0] iter(%c0) do {
        kda.copy_row %src[%c0] to %lds[%c0] elems(128) atom(cp_async) : memref<1024xf32>, memref<1024xi8, #gpu.address_space<workgroup>>
      }
      kda.async_copy @b[%c0] iter(%c0) do {
        kda.copy_row %src[%c256] to %lds[%c512] elems(128) atom(cp_async) : memref<1024xf32>, memref<1024xi8, #gpu.address_space<workgroup>>
      }
      kda.async_wait 0
      kda.lds_barrier
      kda.lds_read @a[%c0] iter(%c0) do {
        %v = memref.view %lds[%c0][] : memref<1024xi8, #gpu.address_space<workgroup>> to memref<128xf32, #gpu.address_space<workgroup>>
        %y = memref.load %v[%tid] : memref<128xf32, #gpu.address_space<workgroup>>
        memref.store %y, %out[%tid] : memref<1024xf32>
      }
      kda.lds_read @b[%c0] iter(%c0)
      kda.lds_barrier
    }
    %w = memref.view %lds[%k512][] : memref<1024xi8, #gpu.address_space<workgroup>> to memref<128xf32, #gpu.address_space<workgroup>>
    %seven = arith.constant 7.0 : f32
    memref.store %seven, %w[%tid] : memref<128xf32, #gpu.address_space<workgroup>>
    gpu.barrier
    kda.schedule "two" trip_count(0) depth(1) target("emu32") {
      kda.async_wait 0
      kda.lds_barrier
    }
    %y = memref.load %w[%tid] : memref<128xf32, #gpu.address_space<workgroup>>
    %c128 = arith.constant 128 : index
    %o = arith.addi %tid, %c128 : index
    memref.store %y, %out[%o] : memref<1024xf32>
    gpu.return
  }
}
}


// -----

// A copy row whose LDS byte differs between threads: each thread places its
// pieces from its own base (bytes never written, others written twice).
module attributes {gpu.container_module} {
gpu.module @kernels attributes {kda.target = #kda.target<"emu32">} {
  kda.lds_buffer @r slots(1) slot_bytes(1024) offset(0)
  gpu.func @k(%src: memref<1024xf32>, %out: memref<1024xf32>)
      workgroup(%lds : memref<1024xi8, #gpu.address_space<workgroup>>)
      kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %tid = gpu.thread_id x
    // expected-error @+1 {{R0: cannot analyse kda.copy_row: its LDS byte (from arith.muli) is not shown the same for every thread: the workgroup copies one row together, each thread its pieces of it}}
    kda.schedule "k" trip_count(1) depth(1) target("emu32") {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c16 = arith.constant 16 : index
      %odd = arith.andi %tid, %c1 : index
      %at = arith.muli %odd, %c16 : index
      kda.async_copy @r[%c0] iter(%c0) do {
        kda.copy_row %src[%c0] to %lds[%at] elems(128) atom(cp_async) : memref<1024xf32>, memref<1024xi8, #gpu.address_space<workgroup>>
      }
      kda.async_wait 0
      kda.lds_barrier
      kda.lds_read @r[%c0] iter(%c0) do {
        %v = memref.view %lds[%c0][] : memref<1024xi8, #gpu.address_space<workgroup>> to memref<128xf32, #gpu.address_space<workgroup>>
        %y = memref.load %v[%tid] : memref<128xf32, #gpu.address_space<workgroup>>
        memref.store %y, %out[%tid] : memref<1024xf32>
      }
      kda.lds_barrier
    }
    gpu.return
  }
}
}


// -----

// A warpgroup atom's B through a view at a per-thread byte: every thread names
// a different operand.
!lds = memref<?xi8, #gpu.address_space<workgroup>>
!acc = vector<32xf32>
module attributes {gpu.container_module} {
  gpu.module @kernels attributes {kda.target = #kda.target<"emu32">} {
    gpu.func @k() kernel attributes {known_block_size = array<i32: 128, 1, 1>, kda.dynamic_lds_bytes = 8192 : i64} {
      %lds = gpu.dynamic_shared_memory : !lds
      %o = arith.constant 0 : index
      %a = arith.constant dense<1.0> : vector<8xbf16>
      %c = arith.constant dense<0.0> : !acc
      %tid = gpu.thread_id x
      %c16 = arith.constant 16 : index
      %sh = arith.muli %tid, %c16 : index
      %b = memref.view %lds[%sh][] : !lds to memref<2048xi8, #gpu.address_space<workgroup>>
      // expected-error @+1 {{'kda.wgmma' op R0: its B operand (the LDS view it indexes, or its offset) is not the same for every thread: the warpgroup reads one B operand, through one descriptor}}
      %d = kda.wgmma %a, %b[%o], %c {kind = #kda.mma_kind<wgmma_f32_64x64x16_bf16>, lbo = 128, sbo = 256} : vector<8xbf16>, memref<2048xi8, #gpu.address_space<workgroup>>, !acc -> !acc
      kda.wgmma_commit
      %r = kda.wgmma_wait %d {pending = 0} : !acc
      gpu.return
    }
  }
}


// -----

// Its twin takes the view at a uniform byte: accepted.
!lds = memref<?xi8, #gpu.address_space<workgroup>>
!acc = vector<32xf32>
module attributes {gpu.container_module} {
  gpu.module @kernels attributes {kda.target = #kda.target<"emu32">} {
    gpu.func @k() kernel attributes {known_block_size = array<i32: 128, 1, 1>, kda.dynamic_lds_bytes = 8192 : i64} {
      %lds = gpu.dynamic_shared_memory : !lds
      %o = arith.constant 0 : index
      %a = arith.constant dense<1.0> : vector<8xbf16>
      %c = arith.constant dense<0.0> : !acc
      %tid = gpu.thread_id x
      %c16 = arith.constant 16 : index
      %sh = arith.muli %o, %c16 : index
      %b = memref.view %lds[%sh][] : !lds to memref<2048xi8, #gpu.address_space<workgroup>>
      %d = kda.wgmma %a, %b[%o], %c {kind = #kda.mma_kind<wgmma_f32_64x64x16_bf16>, lbo = 128, sbo = 256} : vector<8xbf16>, memref<2048xi8, #gpu.address_space<workgroup>>, !acc -> !acc
      kda.wgmma_commit
      %r = kda.wgmma_wait %d {pending = 0} : !acc
      gpu.return
    }
  }
}
