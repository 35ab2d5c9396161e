// Branches whose condition every thread reads from LDS at one address: the
// value is the same for every thread when no access of the barrier
// interval writes that array before the read (the bytes were written
// before a barrier every thread passed), so the barriers inside such a
// branch order what follows it. A write of the array later in the same
// interval is R2: a thread reading after it may take the other side. Only
// branches with a barrier inside are decided this way (the last case).
// RUN: kda-opt %s -split-input-file -verify-diagnostics --kda-verify-pipeline

// -----

// Accepted: thread 0 writes the flag, a barrier, every thread reads it;
// each side stores this thread's element and ends with a barrier, and the
// read of another role's element after the branch is ordered by it.
gpu.module @m {
  gpu.func @k(%out: memref<?xf32>) kernel attributes {known_block_size = array<i32: 64, 1, 1>, kda.wave_roles = array<i64: 32, 1>} {
    %c0 = arith.constant 0 : index
    %c16 = arith.constant 16 : index
    %c63 = arith.constant 63 : index
    %zero = arith.constant 0.0 : f32
    %one = arith.constant 1.0 : f32
    %tid = gpu.thread_id x
    %lds = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %flag = memref.view %lds[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<4xf32, #gpu.address_space<workgroup>>
    %a = memref.view %lds[%c16][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<64xf32, #gpu.address_space<workgroup>>
    %is0 = arith.cmpi eq, %tid, %c0 : index
    scf.if %is0 {
      memref.store %one, %flag[%c0] : memref<4xf32, #gpu.address_space<workgroup>>
    }
    gpu.barrier
    %x = memref.load %flag[%c0] : memref<4xf32, #gpu.address_space<workgroup>>
    %go = arith.cmpf oeq, %x, %zero : f32
    scf.if %go {
      memref.store %one, %a[%tid] : memref<64xf32, #gpu.address_space<workgroup>>
      gpu.barrier
    } else {
      memref.store %zero, %a[%tid] : memref<64xf32, #gpu.address_space<workgroup>>
      gpu.barrier
    }
    %o = arith.subi %c63, %tid : index
    %y = memref.load %a[%o] : memref<64xf32, #gpu.address_space<workgroup>>
    memref.store %y, %out[%tid] : memref<?xf32>
    gpu.return
  }
}

// -----

// The flag is written in the same interval as the reads (no barrier between
// thread 0's store and them): threads may read 0 or 1. That is a race of
// its own, reported before the branch: the value is not taken as one.
gpu.module @m {
  gpu.func @k(%out: memref<?xf32>) kernel attributes {known_block_size = array<i32: 64, 1, 1>, kda.wave_roles = array<i64: 32, 1>} {
    %c0 = arith.constant 0 : index
    %c16 = arith.constant 16 : index
    %c63 = arith.constant 63 : index
    %zero = arith.constant 0.0 : f32
    %one = arith.constant 1.0 : f32
    %tid = gpu.thread_id x
    %lds = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %flag = memref.view %lds[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<4xf32, #gpu.address_space<workgroup>>
    %a = memref.view %lds[%c16][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<64xf32, #gpu.address_space<workgroup>>
    gpu.barrier
    %is0 = arith.cmpi eq, %tid, %c0 : index
    scf.if %is0 {
      // expected-note @+1 {{the other access}}
      memref.store %one, %flag[%c0] : memref<4xf32, #gpu.address_space<workgroup>>
    }
    // expected-error @+1 {{R1: LDS handoff in kernel 'k': read of bytes [0, 16) of the dynamic LDS by threads [0, 64)}}
    %x = memref.load %flag[%c0] : memref<4xf32, #gpu.address_space<workgroup>>
    %go = arith.cmpf oeq, %x, %zero : f32
    scf.if %go {
      memref.store %one, %a[%tid] : memref<64xf32, #gpu.address_space<workgroup>>
      gpu.barrier
    }
    %o = arith.subi %c63, %tid : index
    %y = memref.load %a[%o] : memref<64xf32, #gpu.address_space<workgroup>>
    memref.store %y, %out[%tid] : memref<?xf32>
    gpu.return
  }
}

// -----

// Read at a thread's own address: not one value for every thread.
gpu.module @m {
  gpu.func @k(%out: memref<?xf32>) kernel attributes {known_block_size = array<i32: 64, 1, 1>, kda.wave_roles = array<i64: 32, 1>} {
    %c0 = arith.constant 0 : index
    %c256 = arith.constant 256 : index
    %zero = arith.constant 0.0 : f32
    %one = arith.constant 1.0 : f32
    %tid = gpu.thread_id x
    %lds = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %flags = memref.view %lds[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<64xf32, #gpu.address_space<workgroup>>
    %a = memref.view %lds[%c256][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<64xf32, #gpu.address_space<workgroup>>
    memref.store %one, %flags[%tid] : memref<64xf32, #gpu.address_space<workgroup>>
    gpu.barrier
    %x = memref.load %flags[%tid] : memref<64xf32, #gpu.address_space<workgroup>>
    %go = arith.cmpf oeq, %x, %zero : f32
    scf.if %go {
      memref.store %one, %a[%tid] : memref<64xf32, #gpu.address_space<workgroup>>
      // expected-error @+1 {{R0: LDS handoff in kernel 'k': a barrier not every thread of the block may reach}}
      gpu.barrier
    }
    gpu.return
  }
}

// -----

// The flag's array written inside the branch before its barrier, at an
// index the check cannot evaluate (one role: left to the emulator before
// this rule): a thread that reads the flag after the store may take the
// other side.
gpu.module @m {
  gpu.func @k(%out: memref<?xf32>, %idx: memref<?xindex>) kernel attributes {known_block_size = array<i32: 64, 1, 1>, kda.wave_roles = array<i64: 32>} {
    %c0 = arith.constant 0 : index
    %zero = arith.constant 0.0 : f32
    %one = arith.constant 1.0 : f32
    %tid = gpu.thread_id x
    %lds = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %flag = memref.view %lds[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<4xf32, #gpu.address_space<workgroup>>
    %j = memref.load %idx[%tid] : memref<?xindex>
    gpu.barrier
    // expected-note @+1 {{the other access}}
    %x = memref.load %flag[%c0] : memref<4xf32, #gpu.address_space<workgroup>>
    %go = arith.cmpf oeq, %x, %zero : f32
    scf.if %go {
      // expected-error @+1 {{R2: LDS handoff in kernel 'k': write of the dynamic LDS by threads [0, 64) in the barrier interval where a branch taken alike by every thread read its condition from it: a thread that reads after the write may take the other side}}
      memref.store %one, %flag[%j] : memref<4xf32, #gpu.address_space<workgroup>>
      gpu.barrier
    }
    gpu.return
  }
}

// -----

// The same write after the branch, still in its interval.
gpu.module @m {
  gpu.func @k(%out: memref<?xf32>, %idx: memref<?xindex>) kernel attributes {known_block_size = array<i32: 64, 1, 1>, kda.wave_roles = array<i64: 32>} {
    %c0 = arith.constant 0 : index
    %zero = arith.constant 0.0 : f32
    %one = arith.constant 1.0 : f32
    %tid = gpu.thread_id x
    %lds = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %flag = memref.view %lds[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<4xf32, #gpu.address_space<workgroup>>
    %j = memref.load %idx[%tid] : memref<?xindex>
    gpu.barrier
    // expected-note @+1 {{the other access}}
    %x = memref.load %flag[%c0] : memref<4xf32, #gpu.address_space<workgroup>>
    %go = arith.cmpf oeq, %x, %zero : f32
    scf.if %go {
      gpu.barrier
    } else {
      memref.store %x, %out[%tid] : memref<?xf32>
    }
    // expected-error @+1 {{R2: LDS handoff in kernel 'k': write of the dynamic LDS by threads [0, 64) in the barrier interval where a branch taken alike by every thread read its condition from it}}
    memref.store %one, %flag[%j] : memref<4xf32, #gpu.address_space<workgroup>>
    gpu.barrier
    gpu.return
  }
}

// -----

// The same write behind a barrier every thread passes: a new interval.
gpu.module @m {
  gpu.func @k(%out: memref<?xf32>, %idx: memref<?xindex>) kernel attributes {known_block_size = array<i32: 64, 1, 1>, kda.wave_roles = array<i64: 32>} {
    %c0 = arith.constant 0 : index
    %zero = arith.constant 0.0 : f32
    %one = arith.constant 1.0 : f32
    %tid = gpu.thread_id x
    %lds = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %flag = memref.view %lds[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<4xf32, #gpu.address_space<workgroup>>
    %j = memref.load %idx[%tid] : memref<?xindex>
    gpu.barrier
    %x = memref.load %flag[%c0] : memref<4xf32, #gpu.address_space<workgroup>>
    %go = arith.cmpf oeq, %x, %zero : f32
    scf.if %go {
      gpu.barrier
    } else {
      gpu.barrier
    }
    memref.store %one, %flag[%j] : memref<4xf32, #gpu.address_space<workgroup>>
    gpu.barrier
    gpu.return
  }
}

// -----

// The flag's array written earlier in the same interval, at an index the
// check cannot evaluate (one role): threads may read the value before or
// after that store, so the branch is not shown the same for every thread.
gpu.module @m {
  gpu.func @k(%out: memref<?xf32>, %idx: memref<?xindex>) kernel attributes {known_block_size = array<i32: 64, 1, 1>, kda.wave_roles = array<i64: 32>} {
    %c0 = arith.constant 0 : index
    %zero = arith.constant 0.0 : f32
    %one = arith.constant 1.0 : f32
    %tid = gpu.thread_id x
    %lds = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %flag = memref.view %lds[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<4xf32, #gpu.address_space<workgroup>>
    %j = memref.load %idx[%tid] : memref<?xindex>
    gpu.barrier
    memref.store %one, %flag[%j] : memref<4xf32, #gpu.address_space<workgroup>>
    %x = memref.load %flag[%c0] : memref<4xf32, #gpu.address_space<workgroup>>
    %go = arith.cmpf oeq, %x, %zero : f32
    scf.if %go {
      // expected-error @+1 {{R0: LDS handoff in kernel 'k': a barrier not every thread of the block may reach}}
      gpu.barrier
    }
    gpu.return
  }
}

// -----

// The flag read in an earlier interval, one whose store (an index the check
// cannot evaluate, one role) it may have raced with: the barrier between the
// read and the branch does not make the value one (another read of the flag
// in the branch's interval is not the one the condition came from).
gpu.module @m {
  gpu.func @k(%out: memref<?xf32>, %idx: memref<?xindex>) kernel attributes {known_block_size = array<i32: 64, 1, 1>, kda.wave_roles = array<i64: 32>} {
    %c0 = arith.constant 0 : index
    %zero = arith.constant 0.0 : f32
    %one = arith.constant 1.0 : f32
    %tid = gpu.thread_id x
    %lds = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %flag = memref.view %lds[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<4xf32, #gpu.address_space<workgroup>>
    %j = memref.load %idx[%tid] : memref<?xindex>
    gpu.barrier
    memref.store %one, %flag[%j] : memref<4xf32, #gpu.address_space<workgroup>>
    %x = memref.load %flag[%c0] : memref<4xf32, #gpu.address_space<workgroup>>
    gpu.barrier
    %again = memref.load %flag[%c0] : memref<4xf32, #gpu.address_space<workgroup>>
    memref.store %again, %out[%tid] : memref<?xf32>
    %go = arith.cmpf oeq, %x, %zero : f32
    scf.if %go {
      // expected-error @+1 {{R0: LDS handoff in kernel 'k': a barrier not every thread of the block may reach}}
      gpu.barrier
    }
    gpu.return
  }
}

// -----

// A branch on a value read from LDS with no barrier inside: its sides may
// diverge harmlessly, so the read bytes are not held and the later write
// (one role, an index the check cannot evaluate) is accepted.
gpu.module @m {
  gpu.func @k(%out: memref<?xf32>, %idx: memref<?xindex>) kernel attributes {known_block_size = array<i32: 64, 1, 1>, kda.wave_roles = array<i64: 32>} {
    %c0 = arith.constant 0 : index
    %zero = arith.constant 0.0 : f32
    %one = arith.constant 1.0 : f32
    %tid = gpu.thread_id x
    %lds = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %flag = memref.view %lds[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<4xf32, #gpu.address_space<workgroup>>
    %j = memref.load %idx[%tid] : memref<?xindex>
    gpu.barrier
    %x = memref.load %flag[%c0] : memref<4xf32, #gpu.address_space<workgroup>>
    %go = arith.cmpf oeq, %x, %zero : f32
    scf.if %go {
      memref.store %x, %out[%tid] : memref<?xf32>
    }
    memref.store %one, %flag[%j] : memref<4xf32, #gpu.address_space<workgroup>>
    gpu.barrier
    gpu.return
  }
}

// -----

// Found by a review (2026-12-05): uniform indices into a view at the thread
// id (a subview, a byte shift or a reinterpret cast) are a per-thread
// address; the views' operands must be one value too.
gpu.module @m {
  gpu.func @k(%out: memref<?xf32>) kernel attributes {known_block_size = array<i32: 64, 1, 1>, kda.wave_roles = array<i64: 32>} {
    %c0 = arith.constant 0 : index
    %zero = arith.constant 0.0 : f32
    %tid = gpu.thread_id x
    %tf = arith.index_cast %tid : index to i32
    %v = arith.sitofp %tf : i32 to f32
    %lds = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %flags = memref.view %lds[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<64xf32, #gpu.address_space<workgroup>>
    memref.store %v, %flags[%tid] : memref<64xf32, #gpu.address_space<workgroup>>
    gpu.barrier
    %mine = memref.subview %flags[%tid][1][1] : memref<64xf32, #gpu.address_space<workgroup>> to memref<1xf32, strided<[1], offset: ?>, #gpu.address_space<workgroup>>
    %x = memref.load %mine[%c0] : memref<1xf32, strided<[1], offset: ?>, #gpu.address_space<workgroup>>
    %go = arith.cmpf oeq, %x, %zero : f32
    scf.if %go {
      // expected-error @+1 {{R0: LDS handoff in kernel 'k': a barrier not every thread of the block may reach}}
      gpu.barrier
    }
    gpu.return
  }
}

// -----

// Found by the same review: a store meeting the load's array after the load,
// on a path that then passes a barrier (gone from the state the branch
// sees), raced the load all the same.
gpu.module @m {
  gpu.func @k(%out: memref<?xf32>, %idx: memref<?xindex>, %c: i1) kernel attributes {known_block_size = array<i32: 64, 1, 1>, kda.wave_roles = array<i64: 32>} {
    %c0 = arith.constant 0 : index
    %zero = arith.constant 0.0 : f32
    %one = arith.constant 1.0 : f32
    %tid = gpu.thread_id x
    %lds = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %flag = memref.view %lds[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<4xf32, #gpu.address_space<workgroup>>
    %j = memref.load %idx[%tid] : memref<?xindex>
    gpu.barrier
    %x = memref.load %flag[%c0] : memref<4xf32, #gpu.address_space<workgroup>>
    scf.if %c {
      memref.store %one, %flag[%j] : memref<4xf32, #gpu.address_space<workgroup>>
      gpu.barrier
    }
    %go = arith.cmpf oeq, %x, %zero : f32
    scf.if %go {
      // expected-error @+1 {{R0: LDS handoff in kernel 'k': a barrier not every thread of the block may reach}}
      gpu.barrier
    }
    gpu.return
  }
}

// -----

// The same store in a loop whose trips each end with a barrier.
gpu.module @m {
  gpu.func @k(%out: memref<?xf32>, %idx: memref<?xindex>, %n: index) kernel attributes {known_block_size = array<i32: 64, 1, 1>, kda.wave_roles = array<i64: 32>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %zero = arith.constant 0.0 : f32
    %one = arith.constant 1.0 : f32
    %tid = gpu.thread_id x
    %lds = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %flag = memref.view %lds[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<4xf32, #gpu.address_space<workgroup>>
    %j = memref.load %idx[%tid] : memref<?xindex>
    gpu.barrier
    %x = memref.load %flag[%c0] : memref<4xf32, #gpu.address_space<workgroup>>
    scf.for %i = %c0 to %n step %c1 {
      memref.store %one, %flag[%j] : memref<4xf32, #gpu.address_space<workgroup>>
      gpu.barrier
    }
    %go = arith.cmpf oeq, %x, %zero : f32
    scf.if %go {
      // expected-error @+1 {{R0: LDS handoff in kernel 'k': a barrier not every thread of the block may reach}}
      gpu.barrier
    }
    gpu.return
  }
}

// -----

// A write of other bytes of the flag's array after the branch, at indices
// that evaluate (thread t writes element t + 1, never element 0): the value
// every thread read is not touched, so it is accepted.
gpu.module @m {
  gpu.func @k(%out: memref<?xf32>) kernel attributes {known_block_size = array<i32: 64, 1, 1>, kda.wave_roles = array<i64: 32>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %zero = arith.constant 0.0 : f32
    %one = arith.constant 1.0 : f32
    %tid = gpu.thread_id x
    %lds = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %flags = memref.view %lds[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<65xf32, #gpu.address_space<workgroup>>
    gpu.barrier
    %x = memref.load %flags[%c0] : memref<65xf32, #gpu.address_space<workgroup>>
    %go = arith.cmpf oeq, %x, %zero : f32
    scf.if %go {
      gpu.barrier
    } else {
      memref.store %x, %out[%tid] : memref<?xf32>
    }
    %t1 = arith.addi %tid, %c1 : index
    memref.store %one, %flags[%t1] : memref<65xf32, #gpu.address_space<workgroup>>
    gpu.barrier
    gpu.return
  }
}
