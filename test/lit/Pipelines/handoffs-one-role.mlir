// Accesses of threads of one role among themselves in one barrier
// interval: where the indices evaluate for every thread (functions of the
// thread id and constants), two different threads whose bytes meet, one of
// them writing, are R1 (a read of another thread's write) or R2 (a write
// over another thread's read or write), naming both threads and the bytes.
// A thread's own accesses are in program order; indices that do not
// evaluate, and two atomics on one word, stay the emulator's (the accepted
// twins below).
// RUN: kda-opt %s -split-input-file -verify-diagnostics --kda-verify-pipeline

// -----

// Every thread stores its word and reads its neighbour's with no barrier
// between.
gpu.module @m {
  gpu.func @neighbour(%out: memref<?xf32>) workgroup(%a : memref<64xf32, #gpu.address_space<workgroup>>) kernel attributes {known_block_size = array<i32: 64, 1, 1>, kda.wave_roles = array<i64: 32>} {
    %c1 = arith.constant 1 : index
    %f = arith.constant 1.0 : f32
    %tid = gpu.thread_id x
    // expected-note @+1 {{the other access}}
    memref.store %f, %a[%tid] : memref<64xf32, #gpu.address_space<workgroup>>
    %other = arith.xori %tid, %c1 : index
    // expected-error @+1 {{R1: LDS handoff in kernel 'neighbour': thread 1 reads bytes [0, 4) of workgroup attribution 0 that thread 0 wrote in the same barrier interval (threads of one role): no barrier between them}}
    %x = memref.load %a[%other] : memref<64xf32, #gpu.address_space<workgroup>>
    memref.store %x, %out[%tid] : memref<?xf32>
    gpu.barrier
    gpu.return
  }
}

// -----

// Accepted twin: a barrier between the stores and the reads.
gpu.module @m {
  gpu.func @neighbour_barrier(%out: memref<?xf32>) workgroup(%a : memref<64xf32, #gpu.address_space<workgroup>>) kernel attributes {known_block_size = array<i32: 64, 1, 1>, kda.wave_roles = array<i64: 32>} {
    %c1 = arith.constant 1 : index
    %f = arith.constant 1.0 : f32
    %tid = gpu.thread_id x
    memref.store %f, %a[%tid] : memref<64xf32, #gpu.address_space<workgroup>>
    gpu.barrier
    %other = arith.xori %tid, %c1 : index
    %x = memref.load %a[%other] : memref<64xf32, #gpu.address_space<workgroup>>
    memref.store %x, %out[%tid] : memref<?xf32>
    gpu.barrier
    gpu.return
  }
}

// -----

// A thread's own word, read back after its store: program order, accepted.
gpu.module @m {
  gpu.func @own_word(%out: memref<?xf32>) workgroup(%a : memref<64xf32, #gpu.address_space<workgroup>>) kernel attributes {known_block_size = array<i32: 64, 1, 1>, kda.wave_roles = array<i64: 32>} {
    %f = arith.constant 1.0 : f32
    %tid = gpu.thread_id x
    memref.store %f, %a[%tid] : memref<64xf32, #gpu.address_space<workgroup>>
    %x = memref.load %a[%tid] : memref<64xf32, #gpu.address_space<workgroup>>
    memref.store %x, %out[%tid] : memref<?xf32>
    gpu.barrier
    gpu.return
  }
}

// -----

// Two threads store one word (tid / 2): R2 within the one store.
gpu.module @m {
  gpu.func @pairs(%out: memref<?xf32>) workgroup(%a : memref<64xf32, #gpu.address_space<workgroup>>) kernel attributes {known_block_size = array<i32: 64, 1, 1>, kda.wave_roles = array<i64: 32>} {
    %c2 = arith.constant 2 : index
    %f = arith.constant 1.0 : f32
    %tid = gpu.thread_id x
    %half = arith.divui %tid, %c2 : index
    // expected-error @+1 {{R2: LDS handoff in kernel 'pairs': thread 0 writes bytes [0, 4) of workgroup attribution 0 that thread 1 wrote in the same barrier interval}}
    memref.store %f, %a[%half] : memref<64xf32, #gpu.address_space<workgroup>>
    gpu.barrier
    gpu.return
  }
}

// -----

// A vector store of four words a thread, reading a word of the next
// thread's vector, in one interval: R1 at the 16-byte spans.
gpu.module @m {
  gpu.func @vectors(%out: memref<?xf32>) workgroup(%a : memref<256xf32, #gpu.address_space<workgroup>>) kernel attributes {known_block_size = array<i32: 64, 1, 1>, kda.wave_roles = array<i64: 32>} {
    %c4 = arith.constant 4 : index
    %c5 = arith.constant 5 : index
    %c255 = arith.constant 255 : index
    %v = arith.constant dense<1.0> : vector<4xf32>
    %tid = gpu.thread_id x
    %at = arith.muli %tid, %c4 : index
    // expected-note @+1 {{the other access}}
    vector.store %v, %a[%at] : memref<256xf32, #gpu.address_space<workgroup>>, vector<4xf32>
    %next = arith.addi %at, %c5 : index
    %in = arith.minui %next, %c255 : index
    // expected-error @+1 {{R1: LDS handoff in kernel 'vectors': thread 0 reads bytes [20, 24) of workgroup attribution 0 that thread 1 wrote}}
    %x = memref.load %a[%in] : memref<256xf32, #gpu.address_space<workgroup>>
    memref.store %x, %out[%tid] : memref<?xf32>
    gpu.barrier
    gpu.return
  }
}

// -----

// Across the trips of a loop: each trip reads the neighbour's word, then
// (after a barrier) stores its own; the next trip's read meets this trip's
// store with no barrier between: R1.
gpu.module @m {
  gpu.func @trips(%out: memref<?xf32>, %n: index) workgroup(%a : memref<64xf32, #gpu.address_space<workgroup>>) kernel attributes {known_block_size = array<i32: 64, 1, 1>, kda.wave_roles = array<i64: 32>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c63 = arith.constant 63 : index
    %f = arith.constant 1.0 : f32
    %tid = gpu.thread_id x
    %next = arith.addi %tid, %c1 : index
    %other = arith.andi %next, %c63 : index
    scf.for %i = %c0 to %n step %c1 {
      // expected-error @+1 {{R1: LDS handoff in kernel 'trips': thread 63 reads bytes [0, 4) of workgroup attribution 0 that thread 0 wrote}}
      %x = memref.load %a[%other] : memref<64xf32, #gpu.address_space<workgroup>>
      memref.store %x, %out[%tid] : memref<?xf32>
      gpu.barrier
      // expected-note @+1 {{the other access}}
      memref.store %f, %a[%tid] : memref<64xf32, #gpu.address_space<workgroup>>
    }
    gpu.barrier
    gpu.return
  }
}

// -----

// Accepted twin: a second barrier closes each trip.
gpu.module @m {
  gpu.func @trips_closed(%out: memref<?xf32>, %n: index) workgroup(%a : memref<64xf32, #gpu.address_space<workgroup>>) kernel attributes {known_block_size = array<i32: 64, 1, 1>, kda.wave_roles = array<i64: 32>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c63 = arith.constant 63 : index
    %f = arith.constant 1.0 : f32
    %tid = gpu.thread_id x
    %next = arith.addi %tid, %c1 : index
    %other = arith.andi %next, %c63 : index
    scf.for %i = %c0 to %n step %c1 {
      %x = memref.load %a[%other] : memref<64xf32, #gpu.address_space<workgroup>>
      memref.store %x, %out[%tid] : memref<?xf32>
      gpu.barrier
      memref.store %f, %a[%tid] : memref<64xf32, #gpu.address_space<workgroup>>
      gpu.barrier
    }
    gpu.return
  }
}

// -----

// Accepted (the emulator's): an index loaded from memory does not evaluate,
// and two atomics on one word do not race.
gpu.module @m {
  gpu.func @unknown(%out: memref<?xf32>, %idx: memref<?xindex>) workgroup(%a : memref<64xf32, #gpu.address_space<workgroup>>) kernel attributes {known_block_size = array<i32: 64, 1, 1>, kda.wave_roles = array<i64: 32>} {
    %c0 = arith.constant 0 : index
    %f = arith.constant 1.0 : f32
    %tid = gpu.thread_id x
    %i = memref.load %idx[%tid] : memref<?xindex>
    memref.store %f, %a[%i] : memref<64xf32, #gpu.address_space<workgroup>>
    %s = memref.atomic_rmw addf %f, %a[%c0] : (f32, memref<64xf32, #gpu.address_space<workgroup>>) -> f32
    gpu.barrier
    gpu.return
  }
}

// -----

// Two roles as before: the cross-role rule speaks first.
gpu.module @m {
  gpu.func @roles(%out: memref<?xf32>) workgroup(%a : memref<64xf32, #gpu.address_space<workgroup>>) kernel attributes {known_block_size = array<i32: 64, 1, 1>, kda.wave_roles = array<i64: 32, 1>} {
    %c1 = arith.constant 1 : index
    %f = arith.constant 1.0 : f32
    %tid = gpu.thread_id x
    // expected-note @+1 {{the other access}}
    memref.store %f, %a[%tid] : memref<64xf32, #gpu.address_space<workgroup>>
    %other = arith.xori %tid, %c1 : index
    // expected-error @+1 {{R1: LDS handoff in kernel 'roles': read of bytes [0, 256) of workgroup attribution 0 by threads [0, 64) (role 0 (waves [0, 1)) and role 1 (waves [1, 2))) in the barrier interval where threads [0, 64) (role 0 (waves [0, 1)) and role 1 (waves [1, 2))) wrote them: no barrier between the roles}}
    %x = memref.load %a[%other] : memref<64xf32, #gpu.address_space<workgroup>>
    memref.store %x, %out[%tid] : memref<?xf32>
    gpu.barrier
    gpu.return
  }
}

// -----

// A kernel with no schedule, roles or pieces is walked too (its threads
// as one role): the neighbour's word read before the barrier. Lane ids
// evaluate at the target's wave (sm_90: 32), so lane 0 of each wave
// writing its wave's word is told apart from the others.
gpu.module @m attributes {kda.target = #kda.target<"sm_90">} {
  gpu.func @plain(%out: memref<?xf32>) workgroup(%a : memref<64xf32, #gpu.address_space<workgroup>>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %f = arith.constant 1.0 : f32
    %tid = gpu.thread_id x
    %lane = gpu.lane_id
    %wave = arith.divui %tid, %c32 : index
    %first = arith.cmpi eq, %lane, %c0 : index
    scf.if %first {
      memref.store %f, %a[%wave] : memref<64xf32, #gpu.address_space<workgroup>>
    }
    gpu.barrier
    // expected-note @+1 {{the other access}}
    memref.store %f, %a[%tid] : memref<64xf32, #gpu.address_space<workgroup>>
    %other = arith.xori %tid, %c1 : index
    // expected-error @+1 {{R1: LDS access in kernel 'plain': thread 1 reads bytes [0, 4) of workgroup attribution 0 that thread 0 wrote in the same barrier interval (threads of one role): no barrier between them}}
    %x = memref.load %a[%other] : memref<64xf32, #gpu.address_space<workgroup>>
    memref.store %x, %out[%tid] : memref<?xf32>
    gpu.barrier
    gpu.return
  }
}

// -----

// What the walk cannot model in such a kernel (a call) stays the
// emulator's, as before: accepted.
gpu.module @m {
  func.func @helper(%a: memref<64xf32, #gpu.address_space<workgroup>>, %i: index) {
    %f = arith.constant 1.0 : f32
    memref.store %f, %a[%i] : memref<64xf32, #gpu.address_space<workgroup>>
    return
  }
  gpu.func @calls(%out: memref<?xf32>) workgroup(%a : memref<64xf32, #gpu.address_space<workgroup>>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %tid = gpu.thread_id x
    func.call @helper(%a, %tid) : (memref<64xf32, #gpu.address_space<workgroup>>, index) -> ()
    gpu.barrier
    gpu.return
  }
}

// -----

// Through one subview at element 64 (stores and loads alike): the bytes are
// the subview's place in the array, [256, 512).
gpu.module @m {
  gpu.func @subview(%out: memref<?xf32>) workgroup(%a : memref<128xf32, #gpu.address_space<workgroup>>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c63 = arith.constant 63 : index
    %c64 = arith.constant 64 : index
    %f = arith.constant 1.0 : f32
    %tid = gpu.thread_id x
    %nb = arith.addi %tid, %c1 : index
    %next = arith.andi %nb, %c63 : index
    %sv = memref.subview %a[64] [64] [1] : memref<128xf32, #gpu.address_space<workgroup>> to memref<64xf32, strided<[1], offset: 64>, #gpu.address_space<workgroup>>
    // expected-note @+1 {{the other access}}
    memref.store %f, %sv[%tid] : memref<64xf32, strided<[1], offset: 64>, #gpu.address_space<workgroup>>
    // expected-error @+1 {{R1: LDS access in kernel 'subview': thread 63 reads bytes [256, 260) of workgroup attribution 0 that thread 0 wrote in the same barrier interval (threads of one role): no barrier between them}}
    %x = memref.load %sv[%next] : memref<64xf32, strided<[1], offset: 64>, #gpu.address_space<workgroup>>
    memref.store %x, %out[%tid] : memref<?xf32>
    gpu.barrier
    gpu.return
  }
}

// -----

// A reinterpret cast at element 64 for the store, the array itself for the
// load of the neighbour's word.
gpu.module @m {
  gpu.func @reinterpret(%out: memref<?xf32>) workgroup(%a : memref<128xf32, #gpu.address_space<workgroup>>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c63 = arith.constant 63 : index
    %c64 = arith.constant 64 : index
    %f = arith.constant 1.0 : f32
    %tid = gpu.thread_id x
    %nb = arith.addi %tid, %c1 : index
    %next = arith.andi %nb, %c63 : index
    %rc = memref.reinterpret_cast %a to offset: [64], sizes: [64], strides: [1] : memref<128xf32, #gpu.address_space<workgroup>> to memref<64xf32, strided<[1], offset: 64>, #gpu.address_space<workgroup>>
    // expected-note @+1 {{the other access}}
    memref.store %f, %rc[%tid] : memref<64xf32, strided<[1], offset: 64>, #gpu.address_space<workgroup>>
    %m = arith.addi %next, %c64 : index
    // expected-error @+1 {{R1: LDS access in kernel 'reinterpret': thread 63 reads bytes [256, 260) of workgroup attribution 0 that thread 0 wrote in the same barrier interval (threads of one role): no barrier between them}}
    %x = memref.load %a[%m] : memref<128xf32, #gpu.address_space<workgroup>>
    memref.store %x, %out[%tid] : memref<?xf32>
    gpu.barrier
    gpu.return
  }
}

// -----

// A cast to a dynamic shape keeps the base.
gpu.module @m {
  gpu.func @cast(%out: memref<?xf32>) workgroup(%a : memref<64xf32, #gpu.address_space<workgroup>>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c63 = arith.constant 63 : index
    %c64 = arith.constant 64 : index
    %f = arith.constant 1.0 : f32
    %tid = gpu.thread_id x
    %nb = arith.addi %tid, %c1 : index
    %next = arith.andi %nb, %c63 : index
    %d = memref.cast %a : memref<64xf32, #gpu.address_space<workgroup>> to memref<?xf32, #gpu.address_space<workgroup>>
    // expected-note @+1 {{the other access}}
    memref.store %f, %d[%tid] : memref<?xf32, #gpu.address_space<workgroup>>
    // expected-error @+1 {{R1: LDS access in kernel 'cast': thread 63 reads bytes [0, 4) of workgroup attribution 0 that thread 0 wrote in the same barrier interval (threads of one role): no barrier between them}}
    %x = memref.load %d[%next] : memref<?xf32, #gpu.address_space<workgroup>>
    memref.store %x, %out[%tid] : memref<?xf32>
    gpu.barrier
    gpu.return
  }
}

// -----

// A transfer read of four words over the next threads' stores (its whole
// vector counts: the lanes it may read).
gpu.module @m {
  gpu.func @transfer(%out: memref<?xf32>) workgroup(%a : memref<68xf32, #gpu.address_space<workgroup>>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c63 = arith.constant 63 : index
    %c64 = arith.constant 64 : index
    %f = arith.constant 1.0 : f32
    %tid = gpu.thread_id x
    %nb = arith.addi %tid, %c1 : index
    %next = arith.andi %nb, %c63 : index
    // expected-note @+1 {{the other access}}
    memref.store %f, %a[%tid] : memref<68xf32, #gpu.address_space<workgroup>>
    %pad = arith.constant 0.0 : f32
    // expected-error @+1 {{R1: LDS access in kernel 'transfer': thread 0 reads bytes [4, 8) of workgroup attribution 0 that thread 1 wrote in the same barrier interval (threads of one role): no barrier between them}}
    %v = vector.transfer_read %a[%tid], %pad : memref<68xf32, #gpu.address_space<workgroup>>, vector<4xf32>
    %x = vector.extract %v[0] : f32 from vector<4xf32>
    memref.store %x, %out[%tid] : memref<?xf32>
    gpu.barrier
    gpu.return
  }
}

// -----

// An atomic add and a plain load of one word: the load may see the word
// before or after the add (two atomics alone do not race).
gpu.module @m {
  gpu.func @atomic_plain(%out: memref<?xf32>) workgroup(%a : memref<64xf32, #gpu.address_space<workgroup>>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c63 = arith.constant 63 : index
    %c64 = arith.constant 64 : index
    %f = arith.constant 1.0 : f32
    %tid = gpu.thread_id x
    %nb = arith.addi %tid, %c1 : index
    %next = arith.andi %nb, %c63 : index
    // expected-note @+1 {{the other access}}
    %old = memref.atomic_rmw addf %f, %a[%c0] : (f32, memref<64xf32, #gpu.address_space<workgroup>>) -> f32
    // expected-error @+1 {{R1: LDS access in kernel 'atomic_plain': thread 0 reads bytes [0, 4) of workgroup attribution 0 that thread 1 wrote in the same barrier interval (threads of one role): no barrier between them}}
    %x = memref.load %a[%c0] : memref<64xf32, #gpu.address_space<workgroup>>
    memref.store %x, %out[%tid] : memref<?xf32>
    gpu.barrier
    gpu.return
  }
}

// -----

// Accepted twin: atomics alone on one word.
gpu.module @m {
  gpu.func @atomics_only(%out: memref<?xf32>) workgroup(%a : memref<64xf32, #gpu.address_space<workgroup>>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c63 = arith.constant 63 : index
    %c64 = arith.constant 64 : index
    %f = arith.constant 1.0 : f32
    %tid = gpu.thread_id x
    %nb = arith.addi %tid, %c1 : index
    %next = arith.andi %nb, %c63 : index
    %old = memref.atomic_rmw addf %f, %a[%c0] : (f32, memref<64xf32, #gpu.address_space<workgroup>>) -> f32
    %x = memref.atomic_rmw addf %f, %a[%c0] : (f32, memref<64xf32, #gpu.address_space<workgroup>>) -> f32
    memref.store %x, %out[%tid] : memref<?xf32>
    gpu.barrier
    gpu.return
  }
}

// -----

// Elements LLVM pads (vector<3xf32>: 16 bytes apart, i24: 4) are placed at
// their padded stride: the neighbour's read meets the store (before, such
// arrays had no footprint and the race passed).
gpu.module @m {
  gpu.func @neighbour_vec3(%out: memref<?xvector<3xf32>>) workgroup(%a : memref<64xvector<3xf32>, #gpu.address_space<workgroup>>) kernel attributes {known_block_size = array<i32: 64, 1, 1>, kda.wave_roles = array<i64: 32>} {
    %c1 = arith.constant 1 : index
    %f = arith.constant dense<1.0> : vector<3xf32>
    %tid = gpu.thread_id x
    // expected-note @+1 {{the other access}}
    memref.store %f, %a[%tid] : memref<64xvector<3xf32>, #gpu.address_space<workgroup>>
    %other = arith.xori %tid, %c1 : index
    // expected-error @+1 {{R1: LDS handoff in kernel 'neighbour_vec3': thread 1 reads bytes [0, 16) of workgroup attribution 0 that thread 0 wrote}}
    %x = memref.load %a[%other] : memref<64xvector<3xf32>, #gpu.address_space<workgroup>>
    memref.store %x, %out[%tid] : memref<?xvector<3xf32>>
    gpu.barrier
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @neighbour_i24(%out: memref<?xi24>) workgroup(%a : memref<64xi24, #gpu.address_space<workgroup>>) kernel attributes {known_block_size = array<i32: 64, 1, 1>, kda.wave_roles = array<i64: 32>} {
    %c1 = arith.constant 1 : index
    %f = arith.constant 7 : i24
    %tid = gpu.thread_id x
    // expected-note @+1 {{the other access}}
    memref.store %f, %a[%tid] : memref<64xi24, #gpu.address_space<workgroup>>
    %other = arith.xori %tid, %c1 : index
    // expected-error @+1 {{R1: LDS handoff in kernel 'neighbour_i24': thread 1 reads bytes [0, 4) of workgroup attribution 0 that thread 0 wrote}}
    %x = memref.load %a[%other] : memref<64xi24, #gpu.address_space<workgroup>>
    memref.store %x, %out[%tid] : memref<?xi24>
    gpu.barrier
    gpu.return
  }
}
