// cp_async kda.copy_piece pieces in the LDS handoff check
// (passes/lib/Pipelining/LdsHandoffs.cpp), in any kernel that has them (as
// one role where it states no kda.wave_roles): a piece writes its array
// from its issue until a kda.copy_fence of its threads; nothing may touch
// the array meanwhile, and no barrier may be reached, nor the kernel end,
// with pieces in flight. Staged pieces land at their stores.
// RUN: kda-opt %s -split-input-file -verify-diagnostics --kda-verify-pipeline

// Safe: each phase copies the next phase's array first, computes on the
// other, fences, then meets at the barrier.
gpu.module @m {
  gpu.func @phases(%src: memref<?xf32>, %out: memref<?xf32>, %n: index) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c1024 = arith.constant 1024 : index
    %tid = gpu.thread_id x
    %lds = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %a = memref.view %lds[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<256xf32, #gpu.address_space<workgroup>>
    %b = memref.view %lds[%c1024][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<256xf32, #gpu.address_space<workgroup>>
    %at = arith.muli %tid, %c4 : index
    %true = arith.constant true
    kda.copy_piece %src[%at] to %a[%at] if (%true) atom(cp_async) : memref<?xf32>, memref<256xf32, #gpu.address_space<workgroup>>
    kda.copy_fence
    gpu.barrier
    scf.for %i = %c0 to %n step %c1 {
      kda.copy_piece %src[%at] to %b[%at] if (%true) atom(cp_async) : memref<?xf32>, memref<256xf32, #gpu.address_space<workgroup>>
      %x = memref.load %a[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
      memref.store %x, %out[%i] : memref<?xf32>
      kda.copy_fence
      gpu.barrier
      kda.copy_piece %src[%at] to %a[%at] if (%true) atom(cp_async) : memref<?xf32>, memref<256xf32, #gpu.address_space<workgroup>>
      %y = memref.load %b[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
      memref.store %y, %out[%i] : memref<?xf32>
      kda.copy_fence
      gpu.barrier
    }
    gpu.return
  }
}

// -----

// The fence is missing: the barrier may pass before the pieces land.
gpu.module @m {
  gpu.func @no_fence(%src: memref<?xf32>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %tid = gpu.thread_id x
    %lds = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %a = memref.view %lds[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<256xf32, #gpu.address_space<workgroup>>
    %at = arith.muli %tid, %c4 : index
    %true = arith.constant true
    // expected-note @+1 {{the other access}}
    kda.copy_piece %src[%at] to %a[%at] if (%true) atom(cp_async) : memref<?xf32>, memref<256xf32, #gpu.address_space<workgroup>>
    // expected-error @+1 {{R3: LDS handoff in kernel 'no_fence': a barrier while the cp_async pieces of threads [0, 64) may still be landing: a kda.copy_fence of theirs must come first}}
    gpu.barrier
    kda.copy_fence
    gpu.return
  }
}

// -----

// The thread reads the array its own piece is landing in.
gpu.module @m {
  gpu.func @read_in_flight(%src: memref<?xf32>, %out: memref<?xf32>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %tid = gpu.thread_id x
    %lds = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %a = memref.view %lds[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<256xf32, #gpu.address_space<workgroup>>
    %at = arith.muli %tid, %c4 : index
    %true = arith.constant true
    // expected-note @+1 {{the other access}}
    kda.copy_piece %src[%at] to %a[%at] if (%true) atom(cp_async) : memref<?xf32>, memref<256xf32, #gpu.address_space<workgroup>>
    // expected-error @+1 {{R1: LDS handoff in kernel 'read_in_flight': read of the dynamic LDS by threads [0, 64) while the cp_async pieces of threads [0, 64) may still be landing in it: no kda.copy_fence of theirs since they were issued}}
    %x = memref.load %a[%at] : memref<256xf32, #gpu.address_space<workgroup>>
    kda.copy_fence
    memref.store %x, %out[%tid] : memref<?xf32>
    gpu.return
  }
}

// -----

// Only the first wave fences: the second wave's pieces are in flight at the
// barrier.
gpu.module @m {
  gpu.func @half_fenced(%src: memref<?xf32>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %c32 = arith.constant 32 : index
    %tid = gpu.thread_id x
    %lds = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %a = memref.view %lds[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<256xf32, #gpu.address_space<workgroup>>
    %at = arith.muli %tid, %c4 : index
    %true = arith.constant true
    // expected-note @+1 {{the other access}}
    kda.copy_piece %src[%at] to %a[%at] if (%true) atom(cp_async) : memref<?xf32>, memref<256xf32, #gpu.address_space<workgroup>>
    %first = arith.cmpi ult, %tid, %c32 : index
    scf.if %first {
      kda.copy_fence
    }
    // expected-error @+1 {{R3: LDS handoff in kernel 'half_fenced': a barrier while the cp_async pieces of threads [32, 64) may still be landing}}
    gpu.barrier
    gpu.return
  }
}

// -----

// The kernel returns with its pieces in flight.
gpu.module @m {
  gpu.func @ends_in_flight(%src: memref<?xf32>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %tid = gpu.thread_id x
    %lds = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %a = memref.view %lds[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<256xf32, #gpu.address_space<workgroup>>
    %at = arith.muli %tid, %c4 : index
    %true = arith.constant true
    // expected-note @+1 {{the other access}}
    kda.copy_piece %src[%at] to %a[%at] if (%true) atom(cp_async) : memref<?xf32>, memref<256xf32, #gpu.address_space<workgroup>>
    // expected-error @+1 {{R3: LDS handoff in kernel 'ends_in_flight': the kernel returns while the cp_async pieces of threads [0, 64) may still be landing}}
    gpu.return
  }
}

// -----

// A loop whose body fences only on its last line: the next trip's piece is
// issued after it, and the loop's exit reaches the barrier with the trip's
// pieces fenced (safe); the body reading its array before the fence is not.
gpu.module @m {
  gpu.func @loop_read(%src: memref<?xf32>, %out: memref<?xf32>, %n: index) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %tid = gpu.thread_id x
    %lds = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %a = memref.view %lds[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<256xf32, #gpu.address_space<workgroup>>
    %at = arith.muli %tid, %c4 : index
    %true = arith.constant true
    scf.for %i = %c0 to %n step %c1 {
      // expected-note @+1 {{the other access}}
      kda.copy_piece %src[%at] to %a[%at] if (%true) atom(cp_async) : memref<?xf32>, memref<256xf32, #gpu.address_space<workgroup>>
      // expected-error @+1 {{R1: LDS handoff in kernel 'loop_read': read of the dynamic LDS by threads [0, 64) while the cp_async pieces of threads [0, 64) may still be landing in it}}
      %x = memref.load %a[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
      memref.store %x, %out[%i] : memref<?xf32>
      kda.copy_fence
      gpu.barrier
    }
    gpu.return
  }
}

// -----

// Staged pieces land at their stores: no fence needed, the barrier orders
// them (the same kernel as no_fence, staged).
gpu.module @m {
  gpu.func @staged(%src: memref<?xf32>, %out: memref<?xf32>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %tid = gpu.thread_id x
    %lds = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %a = memref.view %lds[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<256xf32, #gpu.address_space<workgroup>>
    %at = arith.muli %tid, %c4 : index
    %true = arith.constant true
    kda.copy_piece %src[%at] to %a[%at] if (%true) atom(staged) : memref<?xf32>, memref<256xf32, #gpu.address_space<workgroup>>
    gpu.barrier
    %x = memref.load %a[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
    memref.store %x, %out[%tid] : memref<?xf32>
    gpu.return
  }
}

// -----

// One role stated (every wave computes and copies): checked the same way.
gpu.module @m {
  gpu.func @one_role(%src: memref<?xf32>) kernel attributes {known_block_size = array<i32: 64, 1, 1>, kda.wave_roles = array<i64: 32>} {
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %tid = gpu.thread_id x
    %lds = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %a = memref.view %lds[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<256xf32, #gpu.address_space<workgroup>>
    %at = arith.muli %tid, %c4 : index
    %true = arith.constant true
    // expected-note @+1 {{the other access}}
    kda.copy_piece %src[%at] to %a[%at] if (%true) atom(cp_async) : memref<?xf32>, memref<256xf32, #gpu.address_space<workgroup>>
    // expected-error @+1 {{R3: LDS handoff in kernel 'one_role': a barrier while the cp_async pieces of threads [0, 64) may still be landing}}
    gpu.barrier
    kda.copy_fence
    gpu.return
  }
}

// -----

// Pieces in flight when a schedule starts: the schedule's waits and
// barriers order its own copies only, so its first kda.lds_barrier would
// pass with the pieces still landing (R3), even though the schedule never
// touches their array.
gpu.module @kernels attributes {kda.target = #kda.target<"sm_90">} {
  kda.lds_buffer @r slots(2) slot_bytes(1024) offset(0)
  gpu.func @pieces_into_schedule(%src: memref<?xf32>)
      workgroup(%lds : memref<2048xi8, #gpu.address_space<workgroup>>,
                %side : memref<1024xf32, #gpu.address_space<workgroup>>)
      kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
    %tid = gpu.thread_id x
    %c4i = arith.constant 4 : index
    %at = arith.muli %tid, %c4i : index
    %true = arith.constant true
    // expected-note @+1 {{the other access}}
    kda.copy_piece %src[%at] to %side[%at] if (%true) atom(cp_async) : memref<?xf32>, memref<1024xf32, #gpu.address_space<workgroup>>
    // expected-error @+1 {{R3: LDS handoff in kernel 'pieces_into_schedule': schedule 'tokens' entered while the cp_async pieces of threads [0, 256) may still be landing: a kda.copy_fence of theirs must come first}}
    kda.schedule "tokens" trip_count(2) depth(2) target("sm_90") {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c1024 = arith.constant 1024 : index
      kda.async_copy @r[%c0] iter(%c0) do {
        kda.copy_row %src[%c0] to %lds[%c0] elems(256) atom(cp_async) : memref<?xf32>, memref<2048xi8, #gpu.address_space<workgroup>>
      }
      scf.for %i = %c0 to %c2 step %c1 {
        %n = arith.addi %i, %c1 : index
        %p = arith.cmpi slt, %n, %c2 : index
        %sn = kda.ring_slot %n of @r
        %wr = arith.muli %sn, %c1024 : index
        kda.async_copy @r[%sn] iter(%n) if(%p) do {
          kda.copy_row %src[%c0] to %lds[%wr] elems(256) atom(cp_async) : memref<?xf32>, memref<2048xi8, #gpu.address_space<workgroup>>
        }
        kda.async_wait 1
        kda.lds_barrier
        %s = kda.ring_slot %i of @r
        %rd = arith.muli %s, %c1024 : index
        kda.lds_read @r[%s] iter(%i) do {
          %v = memref.view %lds[%rd][] : memref<2048xi8, #gpu.address_space<workgroup>> to memref<256xf32, #gpu.address_space<workgroup>>
          %z = memref.load %v[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
          memref.store %z, %src[%tid] : memref<?xf32>
        }
        kda.lds_barrier
      }
      kda.async_wait 0
    }
    kda.copy_fence
    gpu.return
  }
}

// -----

// A cp_async piece inside a read body, into an array beside the ring: it
// lands at a kda.copy_fence, which the schedule's model does not interpret,
// so nothing orders its landing against the schedule's barriers (R0).
gpu.module @kernels attributes {kda.target = #kda.target<"sm_90">} {
  kda.lds_buffer @r slots(2) slot_bytes(1024) offset(0)
  gpu.func @piece_in_read(%src: memref<?xf32>)
      workgroup(%lds : memref<2048xi8, #gpu.address_space<workgroup>>,
                %side : memref<1024xf32, #gpu.address_space<workgroup>>)
      kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
    %tid = gpu.thread_id x
    // expected-error @+1 {{R0: cannot analyse kda.copy_piece: a cp_async piece inside a schedule: it lands at a kda.copy_fence the schedule's model does not interpret}}
    kda.schedule "tokens" trip_count(2) depth(2) target("sm_90") {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c4 = arith.constant 4 : index
      %c1024 = arith.constant 1024 : index
      %true = arith.constant true
      kda.async_copy @r[%c0] iter(%c0) do {
        kda.copy_row %src[%c0] to %lds[%c0] elems(256) atom(cp_async) : memref<?xf32>, memref<2048xi8, #gpu.address_space<workgroup>>
      }
      scf.for %i = %c0 to %c2 step %c1 {
        %n = arith.addi %i, %c1 : index
        %p = arith.cmpi slt, %n, %c2 : index
        %sn = kda.ring_slot %n of @r
        %wr = arith.muli %sn, %c1024 : index
        kda.async_copy @r[%sn] iter(%n) if(%p) do {
          kda.copy_row %src[%c0] to %lds[%wr] elems(256) atom(cp_async) : memref<?xf32>, memref<2048xi8, #gpu.address_space<workgroup>>
        }
        kda.async_wait 1
        kda.lds_barrier
        %s = kda.ring_slot %i of @r
        %rd = arith.muli %s, %c1024 : index
        kda.lds_read @r[%s] iter(%i) do {
          %v = memref.view %lds[%rd][] : memref<2048xi8, #gpu.address_space<workgroup>> to memref<256xf32, #gpu.address_space<workgroup>>
          %z = memref.load %v[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
          memref.store %z, %src[%tid] : memref<?xf32>
          %at = arith.muli %tid, %c4 : index
          kda.copy_piece %src[%at] to %side[%at] if (%true) atom(cp_async) : memref<?xf32>, memref<1024xf32, #gpu.address_space<workgroup>>
        }
        kda.lds_barrier
      }
      kda.async_wait 0
    }
    gpu.return
  }
}
