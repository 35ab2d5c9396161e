// Escapes found by a review of the LDS handoff check (thirty-sixth session):
// each kernel is unsafe and was accepted. A kda.copy_fence now lands only
// the pieces of threads sure to run it (a branch a thread's evaluation
// cannot decide lands none); LDS in integer address space 3 or behind a
// pointer, threads that may exit early and pieces outside a kernel are R0;
// elements whose bytes are not a power of two do not bound their array.
// RUN: kda-opt %s -split-input-file -verify-diagnostics --kda-verify-pipeline

// -----

// A fence only lane 0 of each wave takes (lane ids are not evaluated): the other lanes' pieces land after the barrier.
gpu.module @m {
  gpu.func @k(%src: memref<?xf32>, %out: memref<?xf32>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %c63 = arith.constant 63 : index
    %tid = gpu.thread_id x
    %lds = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %a = memref.view %lds[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<256xf32, #gpu.address_space<workgroup>>
    %at = arith.muli %tid, %c4 : index
    %true = arith.constant true
    // expected-note @+1 {{the other access: kda.copy_piece %arg0[%1] to %view[%1] if(%true) atom( cp_async) : memref<?xf32>, memref<256xf32, #gpu.address_space<workgroup>>}}
    kda.copy_piece %src[%at] to %a[%at] if (%true) atom(cp_async) : memref<?xf32>, memref<256xf32, #gpu.address_space<workgroup>>
    %lane = gpu.lane_id
    %first = arith.cmpi eq, %lane, %c0 : index
    scf.if %first {
      kda.copy_fence
    }
    // expected-error @+1 {{R3: LDS handoff in kernel 'k': a barrier while the cp_async pieces of threads [0, 64) may still be landing: a kda.copy_fence of theirs must come first}}
    gpu.barrier
    %o = arith.subi %c63, %tid : index
    %p = arith.muli %o, %c4 : index
    %x = memref.load %a[%p] : memref<256xf32, #gpu.address_space<workgroup>>
    memref.store %x, %out[%tid] : memref<?xf32>
    gpu.return
  }
}

// -----

// A fence under (tid < 32) && (lane == 0): thread 0 fences, threads 1-31 do not.
gpu.module @m {
  gpu.func @k(%src: memref<?xf32>, %out: memref<?xf32>) kernel attributes {known_block_size = array<i32: 64, 1, 1>, kda.wave_roles = array<i64: 32, 1>} {
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %c32 = arith.constant 32 : index
    %c63 = arith.constant 63 : index
    %tid = gpu.thread_id x
    %lds = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %a = memref.view %lds[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<256xf32, #gpu.address_space<workgroup>>
    %at = arith.muli %tid, %c4 : index
    %true = arith.constant true
    // expected-note @+1 {{the other access: kda.copy_piece %arg0[%1] to %view[%1] if(%true) atom( cp_async) : memref<?xf32>, memref<256xf32, #gpu.address_space<workgroup>>}}
    kda.copy_piece %src[%at] to %a[%at] if (%true) atom(cp_async) : memref<?xf32>, memref<256xf32, #gpu.address_space<workgroup>>
    %w0 = arith.cmpi ult, %tid, %c32 : index
    %lane = gpu.lane_id
    %l0 = arith.cmpi eq, %lane, %c0 : index
    %both = arith.andi %w0, %l0 : i1
    scf.if %both {
      kda.copy_fence
    }
    %w1 = arith.cmpi uge, %tid, %c32 : index
    scf.if %w1 {
      kda.copy_fence
    }
    // expected-error @+1 {{R3: LDS handoff in kernel 'k': a barrier while the cp_async pieces of threads [1, 32) may still be landing: a kda.copy_fence of theirs must come first}}
    gpu.barrier
    %o = arith.subi %c63, %tid : index
    %p = arith.muli %o, %c4 : index
    %x = memref.load %a[%p] : memref<256xf32, #gpu.address_space<workgroup>>
    memref.store %x, %out[%tid] : memref<?xf32>
    gpu.return
  }
}

// -----

// A fence under a per-thread flag loaded from memory.
gpu.module @m {
  gpu.func @k(%src: memref<?xf32>, %flags: memref<?xi32>, %out: memref<?xf32>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %c63 = arith.constant 63 : index
    %z = arith.constant 0 : i32
    %tid = gpu.thread_id x
    %lds = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %a = memref.view %lds[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<256xf32, #gpu.address_space<workgroup>>
    %at = arith.muli %tid, %c4 : index
    %true = arith.constant true
    // expected-note @+1 {{the other access: kda.copy_piece %arg0[%1] to %view[%1] if(%true) atom( cp_async) : memref<?xf32>, memref<256xf32, #gpu.address_space<workgroup>>}}
    kda.copy_piece %src[%at] to %a[%at] if (%true) atom(cp_async) : memref<?xf32>, memref<256xf32, #gpu.address_space<workgroup>>
    %f = memref.load %flags[%tid] : memref<?xi32>
    %p = arith.cmpi ne, %f, %z : i32
    scf.if %p {
      kda.copy_fence
    }
    // expected-error @+1 {{R3: LDS handoff in kernel 'k': a barrier while the cp_async pieces of threads [0, 64) may still be landing: a kda.copy_fence of theirs must come first}}
    gpu.barrier
    %o = arith.subi %c63, %tid : index
    %q = arith.muli %o, %c4 : index
    %x = memref.load %a[%q] : memref<256xf32, #gpu.address_space<workgroup>>
    memref.store %x, %out[%tid] : memref<?xf32>
    gpu.return
  }
}

// -----

// The lane-0 fence (lane ids evaluated at sm_90's wave of 32), then a
// schedule entered with the other lanes' pieces landing.
gpu.module @kernels attributes {kda.target = #kda.target<"sm_90">} {
  kda.lds_buffer @r slots(2) slot_bytes(1024) offset(0)
  gpu.func @pieces_into_schedule(%src: memref<?xf32>)
      workgroup(%lds : memref<2048xi8, #gpu.address_space<workgroup>>,
                %side : memref<1024xf32, #gpu.address_space<workgroup>>)
      kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
    %tid = gpu.thread_id x
    %c4i = arith.constant 4 : index
    %c0i = arith.constant 0 : index
    %at = arith.muli %tid, %c4i : index
    %true = arith.constant true
    // expected-note @+1 {{the other access: kda.copy_piece %arg0[%0] to %arg2[%0] if(%true) atom( cp_async) : memref<?xf32>, memref<1024xf32, #gpu.address_space<workgroup>>}}
    kda.copy_piece %src[%at] to %side[%at] if (%true) atom(cp_async) : memref<?xf32>, memref<1024xf32, #gpu.address_space<workgroup>>
    %lane = gpu.lane_id
    %l0 = arith.cmpi eq, %lane, %c0i : index
    scf.if %l0 {
      kda.copy_fence
    }
    // expected-error @+1 {{R3: LDS handoff in kernel 'pieces_into_schedule': schedule 'tokens' entered while the cp_async pieces of threads [1, 32), [33, 64), [65, 96), [97, 128), [129, 160), [161, 192), [193, 224), [225, 256) may still be landing: a kda.copy_fence of theirs}}
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

// LDS as integer address space 3 (a workgroup attribution the check did not see).
gpu.module @m {
  gpu.func @k(%out: memref<?xf32>) workgroup(%a : memref<32xf32, 3>) kernel attributes {known_block_size = array<i32: 64, 1, 1>, kda.wave_roles = array<i64: 32, 1>} {
    %c32 = arith.constant 32 : index
    %f = arith.constant 1.0 : f32
    %tid = gpu.thread_id x
    %compute = arith.cmpi ult, %tid, %c32 : index
    %lane = arith.remui %tid, %c32 : index
    scf.if %compute {
      // expected-error @+1 {{R0: LDS handoff in kernel 'k': cannot analyse memref.load: it reaches LDS as integer address space 3 or through a pointer, which the verifier neither places nor counts}}
      %x = memref.load %a[%lane] : memref<32xf32, 3>
      memref.store %x, %out[%tid] : memref<?xf32>
    } else {
      memref.store %f, %a[%lane] : memref<32xf32, 3>
    }
    gpu.barrier
    gpu.return
  }
}

// -----

// LDS as a memref.global in integer address space 3.
gpu.module @m {
  memref.global "private" @g : memref<32xf32, 3>
  gpu.func @k(%out: memref<?xf32>) kernel attributes {known_block_size = array<i32: 64, 1, 1>, kda.wave_roles = array<i64: 32, 1>} {
    %c32 = arith.constant 32 : index
    %f = arith.constant 1.0 : f32
    %tid = gpu.thread_id x
    // expected-error @+1 {{R0: LDS handoff in kernel 'k': cannot analyse memref.get_global: it reaches LDS as integer address space 3 or through a pointer, which the verifier neither places nor counts}}
    %a = memref.get_global @g : memref<32xf32, 3>
    %compute = arith.cmpi ult, %tid, %c32 : index
    %lane = arith.remui %tid, %c32 : index
    scf.if %compute {
      %x = memref.load %a[%lane] : memref<32xf32, 3>
      memref.store %x, %out[%tid] : memref<?xf32>
    } else {
      memref.store %f, %a[%lane] : memref<32xf32, 3>
    }
    gpu.barrier
    gpu.return
  }
}

// -----

// A flag written through a ptr-dialect pointer, loaded and branched on around a barrier.
gpu.module @m {
  gpu.func @k(%flags: memref<?xi32, #ptr.generic_space>) kernel attributes {known_block_size = array<i32: 64, 1, 1>, kda.wave_roles = array<i64: 32, 1>} {
    %c0 = arith.constant 0 : index
    %z = arith.constant 0 : i32
    %one = arith.constant 1 : i32
    %tid = gpu.thread_id x
    %t0 = arith.cmpi eq, %tid, %c0 : index
    scf.if %t0 {
      // expected-error @+1 {{R0: LDS handoff in kernel 'k': cannot analyse ptr.to_ptr: it reaches LDS as integer address space 3 or through a pointer, which the verifier neither places nor counts}}
      %p = ptr.to_ptr %flags : memref<?xi32, #ptr.generic_space> -> !ptr.ptr<#ptr.generic_space>
      ptr.store %one, %p : i32, !ptr.ptr<#ptr.generic_space>
    }
    %v = memref.load %flags[%c0] : memref<?xi32, #ptr.generic_space>
    %q = arith.cmpi ne, %v, %z : i32
    scf.if %q {
      gpu.barrier
    }
    gpu.return
  }
}

// -----

// vector<3xf32> elements take 16 bytes each, not 12: the view reaches the next array.
gpu.module @m {
  gpu.func @k(%out: memref<?xvector<3xf32>>) kernel attributes {known_block_size = array<i32: 64, 1, 1>, kda.wave_roles = array<i64: 32, 1>} {
    %c0 = arith.constant 0 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %c32 = arith.constant 32 : index
    %c48 = arith.constant 48 : index
    %f = arith.constant 1.0 : f32
    %tid = gpu.thread_id x
    %lds = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %v = memref.view %lds[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<4xvector<3xf32>, #gpu.address_space<workgroup>>
    %b = memref.view %lds[%c48][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<4xf32, #gpu.address_space<workgroup>>
    %compute = arith.cmpi ult, %tid, %c32 : index
    %lane = arith.remui %tid, %c4 : index
    scf.if %compute {
      // expected-note @+1 {{the other access: %3 = memref.load %view[%c3] : memref<4xvector<3xf32>, #gpu.address_space<workgroup>>}}
      %x = memref.load %v[%c3] : memref<4xvector<3xf32>, #gpu.address_space<workgroup>>
      memref.store %x, %out[%tid] : memref<?xvector<3xf32>>
    } else {
      // expected-error @+1 {{R2: LDS handoff in kernel 'k': write of bytes [48, 64) of the dynamic LDS by threads [32, 64) (role 1 (waves [1, 2))) in the barrier interval where threads [0, 32) (role }}
      memref.store %f, %b[%lane] : memref<4xf32, #gpu.address_space<workgroup>>
    }
    gpu.barrier
    gpu.return
  }
}

// -----

// i24 elements take 4 bytes each, not 3.
gpu.module @m {
  gpu.func @k(%out: memref<?xi24>) kernel attributes {known_block_size = array<i32: 64, 1, 1>, kda.wave_roles = array<i64: 32, 1>} {
    %c0 = arith.constant 0 : index
    %c7 = arith.constant 7 : index
    %c2 = arith.constant 2 : index
    %c32 = arith.constant 32 : index
    %c24 = arith.constant 24 : index
    %f = arith.constant 1 : i32
    %tid = gpu.thread_id x
    %lds = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %v = memref.view %lds[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<8xi24, #gpu.address_space<workgroup>>
    %b = memref.view %lds[%c24][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<2xi32, #gpu.address_space<workgroup>>
    %compute = arith.cmpi ult, %tid, %c32 : index
    %lane = arith.remui %tid, %c2 : index
    scf.if %compute {
      // expected-note @+1 {{the other access: %3 = memref.load %view[%c7] : memref<8xi24, #gpu.address_space<workgroup>>}}
      %x = memref.load %v[%c7] : memref<8xi24, #gpu.address_space<workgroup>>
      memref.store %x, %out[%tid] : memref<?xi24>
    } else {
      // expected-error @+1 {{R2: LDS handoff in kernel 'k': write of bytes [24, 32) of the dynamic LDS by threads [32, 64) (role 1 (waves [1, 2))) in the barrier interval where threads [0, 32) (role }}
      memref.store %f, %b[%lane] : memref<2xi32, #gpu.address_space<workgroup>>
    }
    gpu.barrier
    gpu.return
  }
}

// -----

// The vector<3xf32> miscount before a schedule: the store reaches the ring.
gpu.module @kernels attributes {kda.target = #kda.target<"sm_90">} {
  kda.lds_buffer @r slots(1) slot_bytes(1024) offset(64)
  gpu.func @k(%src: memref<?xf32>, %x: vector<3xf32>) workgroup(%dyn : memref<1088xi8, #gpu.address_space<workgroup>>) kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
    %tid = gpu.thread_id x
    %c0i = arith.constant 0 : index
    %c3i = arith.constant 3 : index
    %c16i = arith.constant 16 : index
    %c64i = arith.constant 64 : index
    %lds = memref.view %dyn[%c64i][] : memref<1088xi8, #gpu.address_space<workgroup>> to memref<1024xi8, #gpu.address_space<workgroup>>
    %v = memref.view %dyn[%c16i][] : memref<1088xi8, #gpu.address_space<workgroup>> to memref<4xvector<3xf32>, #gpu.address_space<workgroup>>
    %first = arith.cmpi eq, %tid, %c0i : index
    scf.if %first {
      // expected-note @+1 {{the other access: memref.store %arg1, %view_0[%c3] : memref<4xvector<3xf32>, #gpu.address_space<workgroup>>}}
      memref.store %x, %v[%c3i] : memref<4xvector<3xf32>, #gpu.address_space<workgroup>>
    }
    kda.schedule "tokens" trip_count(1) depth(1) target("sm_90") {
      %c0 = arith.constant 0 : index
      // expected-error @+1 {{R2: schedule entry in kernel 'k': schedule 'tokens' writes bytes [64, 80) of workgroup attribution 0 that threads [0, 1) wrote before it with no drained barrier between}}
      kda.async_copy @r[%c0] iter(%c0) do {
        kda.copy_row %src[%c0] to %lds[%c0] elems(256) atom(cp_async) : memref<?xf32>, memref<1024xi8, #gpu.address_space<workgroup>>
      }
      kda.async_wait 0
      kda.lds_barrier
      kda.lds_read @r[%c0] iter(%c0) do {
        %vv = memref.view %lds[%c0][] : memref<1024xi8, #gpu.address_space<workgroup>> to memref<256xf32, #gpu.address_space<workgroup>>
        %z = memref.load %vv[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
        memref.store %z, %src[%tid] : memref<?xf32>
      }
      kda.lds_barrier
    }
    gpu.return
  }
}

// -----

// Threads that exit never reach the barrier that would order their store.
gpu.module @m {
  gpu.func @k(%out: memref<?xf32>) kernel attributes {known_block_size = array<i32: 64, 1, 1>, kda.wave_roles = array<i64: 32, 1>} {
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    %f = arith.constant 1.0 : f32
    %tid = gpu.thread_id x
    %lds = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %a = memref.view %lds[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<32xf32, #gpu.address_space<workgroup>>
    %stage = arith.cmpi uge, %tid, %c32 : index
    %lane = arith.remui %tid, %c32 : index
    scf.if %stage {
      memref.store %f, %a[%lane] : memref<32xf32, #gpu.address_space<workgroup>>
      // expected-error @+1 {{R0: LDS handoff in kernel 'k': cannot analyse nvvm.exit: it may end threads early, and the threads that leave are ordered by none of the barriers the others meet}}
      nvvm.exit
    }
    gpu.barrier
    %x = memref.load %a[%lane] : memref<32xf32, #gpu.address_space<workgroup>>
    memref.store %x, %out[%tid] : memref<?xf32>
    gpu.return
  }
}

// -----

// Pieces issued in a function the kernel calls, never fenced.
gpu.module @m {
  func.func @issue(%src: memref<?xf32>, %a: memref<256xf32, #gpu.address_space<workgroup>>, %at: index) {
    %true = arith.constant true
    // expected-error @+1 {{R0: cannot analyse kda.copy_piece outside a kernel (gpu.func): per-thread pieces are checked in the kernel that issues and fences them, and a function it calls is not}}
    kda.copy_piece %src[%at] to %a[%at] if (%true) atom(cp_async) : memref<?xf32>, memref<256xf32, #gpu.address_space<workgroup>>
    return
  }
  gpu.func @k(%src: memref<?xf32>, %out: memref<?xf32>) workgroup(%a : memref<256xf32, #gpu.address_space<workgroup>>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c4 = arith.constant 4 : index
    %c255 = arith.constant 255 : index
    %tid = gpu.thread_id x
    %at = arith.muli %tid, %c4 : index
    func.call @issue(%src, %a, %at) : (memref<?xf32>, memref<256xf32, #gpu.address_space<workgroup>>, index) -> ()
    gpu.barrier
    %o = arith.subi %c255, %tid : index
    %x = memref.load %a[%o] : memref<256xf32, #gpu.address_space<workgroup>>
    memref.store %x, %out[%tid] : memref<?xf32>
    gpu.return
  }
}

// -----

// Accepted: each wave fences under a branch every one of its threads is
// decided to take (tid < 32, tid >= 32): all pieces land before the barrier.
gpu.module @m {
  gpu.func @k_decided(%src: memref<?xf32>, %out: memref<?xf32>) kernel attributes {known_block_size = array<i32: 64, 1, 1>, kda.wave_roles = array<i64: 32, 1>} {
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %c32 = arith.constant 32 : index
    %c63 = arith.constant 63 : index
    %tid = gpu.thread_id x
    %lds = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %a = memref.view %lds[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<256xf32, #gpu.address_space<workgroup>>
    %at = arith.muli %tid, %c4 : index
    %true = arith.constant true
    kda.copy_piece %src[%at] to %a[%at] if (%true) atom(cp_async) : memref<?xf32>, memref<256xf32, #gpu.address_space<workgroup>>
    %w0 = arith.cmpi ult, %tid, %c32 : index
    scf.if %w0 {
      kda.copy_fence
    }
    %w1 = arith.cmpi uge, %tid, %c32 : index
    scf.if %w1 {
      kda.copy_fence
    }
    gpu.barrier
    %o = arith.subi %c63, %tid : index
    %p = arith.muli %o, %c4 : index
    %x = memref.load %a[%p] : memref<256xf32, #gpu.address_space<workgroup>>
    memref.store %x, %out[%tid] : memref<?xf32>
    gpu.return
  }
}
