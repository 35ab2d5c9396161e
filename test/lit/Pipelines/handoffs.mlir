// LDS handoffs between wave roles (passes/lib/Pipelining/LdsHandoffs.cpp):
// kernels that say `kda.wave_roles` (the register-state chunk scan's shape:
// compute waves read a phase's array while staging waves write another, a
// barrier between phases) are checked by kda-verify-pipeline, interval by
// interval, for every trip count of their loops. Hand-written kernels: two
// waves of 32, role 0 wave 0 (computes), role 1 wave 1 (stages).
// RUN: kda-opt %s -split-input-file -verify-diagnostics --kda-verify-pipeline

// Safe: the two arrays alternate, a barrier after each phase; the first
// chunk's rows staged before the loop behind a barrier of their own.
gpu.module @m {
  gpu.func @two_phases(%out: memref<?xf32>, %n: index) kernel attributes {known_block_size = array<i32: 64, 1, 1>, kda.wave_roles = array<i64: 32, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %f = arith.constant 1.0 : f32
    %tid = gpu.thread_id x
    %lds = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %a = memref.view %lds[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<32xf32, #gpu.address_space<workgroup>>
    %c128 = arith.constant 128 : index
    %b = memref.view %lds[%c128][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<32xf32, #gpu.address_space<workgroup>>
    %compute = arith.cmpi ult, %tid, %c32 : index
    %lane = arith.remui %tid, %c32 : index
    %true = arith.constant true
    %stage = arith.xori %compute, %true : i1
    scf.if %stage {
      memref.store %f, %a[%lane] : memref<32xf32, #gpu.address_space<workgroup>>
    }
    gpu.barrier
    scf.for %i = %c0 to %n step %c1 {
      scf.if %compute {
        %x = memref.load %a[%lane] : memref<32xf32, #gpu.address_space<workgroup>>
        memref.store %x, %out[%i] : memref<?xf32>
      } else {
        memref.store %f, %b[%lane] : memref<32xf32, #gpu.address_space<workgroup>>
      }
      gpu.barrier
      scf.if %compute {
        %y = memref.load %b[%lane] : memref<32xf32, #gpu.address_space<workgroup>>
        memref.store %y, %out[%i] : memref<?xf32>
      } else {
        %i1 = arith.addi %i, %c1 : index
        %more = arith.cmpi ult, %i1, %n : index
        scf.if %more {
          memref.store %f, %a[%lane] : memref<32xf32, #gpu.address_space<workgroup>>
        }
      }
      gpu.barrier
    }
    gpu.return
  }
}

// -----

// The barrier after the first phase is missing: the compute wave reads %b
// in the interval where the staging wave writes it.
gpu.module @m {
  gpu.func @no_phase_barrier(%out: memref<?xf32>, %n: index) kernel attributes {known_block_size = array<i32: 64, 1, 1>, kda.wave_roles = array<i64: 32, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %f = arith.constant 1.0 : f32
    %tid = gpu.thread_id x
    %lds = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %a = memref.view %lds[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<32xf32, #gpu.address_space<workgroup>>
    %c128 = arith.constant 128 : index
    %b = memref.view %lds[%c128][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<32xf32, #gpu.address_space<workgroup>>
    %compute = arith.cmpi ult, %tid, %c32 : index
    %lane = arith.remui %tid, %c32 : index
    scf.for %i = %c0 to %n step %c1 {
      scf.if %compute {
        %x = memref.load %a[%lane] : memref<32xf32, #gpu.address_space<workgroup>>
        memref.store %x, %out[%i] : memref<?xf32>
      } else {
        // expected-note @+1 {{the other access}}
        memref.store %f, %b[%lane] : memref<32xf32, #gpu.address_space<workgroup>>
      }
      scf.if %compute {
        // expected-error @+1 {{R1: LDS handoff in kernel 'no_phase_barrier': read of bytes [128, 256) of the dynamic LDS by threads [0, 32) (role 0 (waves [0, 1))) in the barrier interval where threads [32, 64) (role 1 (waves [1, 2))) wrote them: no barrier between the roles}}
        %y = memref.load %b[%lane] : memref<32xf32, #gpu.address_space<workgroup>>
        memref.store %y, %out[%i] : memref<?xf32>
      } else {
        memref.store %f, %a[%lane] : memref<32xf32, #gpu.address_space<workgroup>>
      }
      gpu.barrier
    }
    gpu.return
  }
}

// -----

// The barrier at the end of the loop body is missing: the next chunk's
// rows land in %a while... the first phase of the next iteration reads it
// (the loop's last interval runs into its first, found at the second trip).
gpu.module @m {
  gpu.func @no_loop_barrier(%out: memref<?xf32>, %n: index) kernel attributes {known_block_size = array<i32: 64, 1, 1>, kda.wave_roles = array<i64: 32, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %f = arith.constant 1.0 : f32
    %tid = gpu.thread_id x
    %lds = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %a = memref.view %lds[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<32xf32, #gpu.address_space<workgroup>>
    %c128 = arith.constant 128 : index
    %b = memref.view %lds[%c128][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<32xf32, #gpu.address_space<workgroup>>
    %compute = arith.cmpi ult, %tid, %c32 : index
    %lane = arith.remui %tid, %c32 : index
    scf.for %i = %c0 to %n step %c1 {
      scf.if %compute {
        // expected-error @+1 {{R1: LDS handoff in kernel 'no_loop_barrier': read of bytes [0, 128) of the dynamic LDS by threads [0, 32) (role 0 (waves [0, 1))) in the barrier interval where threads [32, 64) (role 1 (waves [1, 2))) wrote them}}
        %x = memref.load %a[%lane] : memref<32xf32, #gpu.address_space<workgroup>>
        memref.store %x, %out[%i] : memref<?xf32>
      } else {
        memref.store %f, %b[%lane] : memref<32xf32, #gpu.address_space<workgroup>>
      }
      gpu.barrier
      scf.if %compute {
        %y = memref.load %b[%lane] : memref<32xf32, #gpu.address_space<workgroup>>
        memref.store %y, %out[%i] : memref<?xf32>
      } else {
        // expected-note @+1 {{the other access}}
        memref.store %f, %a[%lane] : memref<32xf32, #gpu.address_space<workgroup>>
      }
    }
    gpu.return
  }
}

// -----

// A phase that reuses the array the other role reads in the same phase
// (one array for two fields): a write after a read, R2.
gpu.module @m {
  gpu.func @shared_array(%out: memref<?xf32>) kernel attributes {known_block_size = array<i32: 64, 1, 1>, kda.wave_roles = array<i64: 32, 1>} {
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    %f = arith.constant 1.0 : f32
    %tid = gpu.thread_id x
    %lds = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %a = memref.view %lds[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<64xf32, #gpu.address_space<workgroup>>
    %wave = arith.divui %tid, %c32 : index
    %compute = arith.cmpi eq, %wave, %c0 : index
    %lane = arith.remui %tid, %c32 : index
    scf.if %compute {
      // expected-note @+1 {{the other access}}
      %x = memref.load %a[%lane] : memref<64xf32, #gpu.address_space<workgroup>>
      memref.store %x, %out[%lane] : memref<?xf32>
    } else {
      %hi = arith.addi %lane, %c32 : index
      // expected-error @+1 {{R2: LDS handoff in kernel 'shared_array': write of bytes [0, 256) of the dynamic LDS by threads [32, 64) (role 1 (waves [1, 2))) in the barrier interval where threads [0, 32) (role 0 (waves [0, 1))) read them}}
      memref.store %f, %a[%hi] : memref<64xf32, #gpu.address_space<workgroup>>
    }
    gpu.barrier
    gpu.return
  }
}

// -----

// Every thread reads what the staging wave writes in the same interval:
// the compute wave is among the readers.
gpu.module @m {
  gpu.func @all_read(%out: memref<?xf32>) kernel attributes {known_block_size = array<i32: 64, 1, 1>, kda.wave_roles = array<i64: 32, 1>} {
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    %f = arith.constant 1.0 : f32
    %tid = gpu.thread_id x
    %lds = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %a = memref.view %lds[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<32xf32, #gpu.address_space<workgroup>>
    %stage = arith.cmpi uge, %tid, %c32 : index
    %lane = arith.remui %tid, %c32 : index
    scf.if %stage {
      // expected-note @+1 {{the other access}}
      memref.store %f, %a[%lane] : memref<32xf32, #gpu.address_space<workgroup>>
    }
    // expected-error @+1 {{R1: LDS handoff in kernel 'all_read': read of bytes [0, 128) of the dynamic LDS by threads [0, 64) (role 0 (waves [0, 1)) and role 1 (waves [1, 2))) in the barrier interval where threads [32, 64) (role 1 (waves [1, 2))) wrote them}}
    %x = memref.load %a[%lane] : memref<32xf32, #gpu.address_space<workgroup>>
    memref.store %x, %out[%tid] : memref<?xf32>
    gpu.barrier
    gpu.return
  }
}

// -----

// A barrier only the staging wave reaches orders nothing: R0.
gpu.module @m {
  gpu.func @role_barrier(%out: memref<?xf32>) kernel attributes {known_block_size = array<i32: 64, 1, 1>, kda.wave_roles = array<i64: 32, 1>} {
    %c32 = arith.constant 32 : index
    %tid = gpu.thread_id x
    %stage = arith.cmpi uge, %tid, %c32 : index
    scf.if %stage {
      // expected-error @+1 {{R0: LDS handoff in kernel 'role_barrier': a barrier not every thread of the block may reach (under a branch, or in a loop, whose condition or bounds are not the same for every thread): the threads that skip it are not ordered by it}}
      gpu.barrier
    }
    gpu.return
  }
}

// -----

// A branch on a value read from workgroup memory may split the threads any
// way: a barrier inside it is R0 too.
gpu.module @m {
  gpu.func @data_barrier(%out: memref<?xf32>) kernel attributes {known_block_size = array<i32: 64, 1, 1>, kda.wave_roles = array<i64: 32, 1>} {
    %c0 = arith.constant 0 : index
    %lds = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %a = memref.view %lds[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<32xi32, #gpu.address_space<workgroup>>
    %tid = gpu.thread_id x
    %c31 = arith.constant 31 : index
    %l = arith.andi %tid, %c31 : index
    %v = memref.load %a[%l] : memref<32xi32, #gpu.address_space<workgroup>>
    %z = arith.constant 0 : i32
    %p = arith.cmpi ne, %v, %z : i32
    scf.if %p {
      // expected-error @+1 {{R0: LDS handoff in kernel 'data_barrier': a barrier not every thread of the block may reach}}
      gpu.barrier
    }
    gpu.return
  }
}

// -----

// What the analysis cannot interpret is R0, naming it.
gpu.module @m {
  gpu.func @while_loop(%out: memref<?xf32>, %n: index) kernel attributes {known_block_size = array<i32: 64, 1, 1>, kda.wave_roles = array<i64: 32, 1>} {
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{R0: LDS handoff in kernel 'while_loop': cannot analyse scf.while (only scf.if and scf.for regions are interpreted)}}
    %r = scf.while (%i = %c0) : (index) -> index {
      %p = arith.cmpi ult, %i, %n : index
      scf.condition(%p) %i : index
    } do {
    ^bb0(%i: index):
      scf.yield %i : index
    }
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @unknown_array(%out: memref<?xf32>, %lds: memref<32xf32, #gpu.address_space<workgroup>>) kernel attributes {known_block_size = array<i32: 64, 1, 1>, kda.wave_roles = array<i64: 32, 1>} {
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{R0: LDS handoff in kernel 'unknown_array': cannot analyse the workgroup array this access indexes (not a view at a constant offset of the dynamic LDS, nor a workgroup attribution)}}
    %x = memref.load %lds[%c0] : memref<32xf32, #gpu.address_space<workgroup>>
    gpu.return
  }
}

// -----

// expected-error @+2 {{R0: LDS handoff in kernel 'no_block_size': the kernel's block size is not known and one-dimensional (known_block_size): its threads cannot be enumerated}}
gpu.module @m {
  gpu.func @no_block_size(%out: memref<?xf32>) kernel attributes {kda.wave_roles = array<i64: 32, 1>} {
    gpu.return
  }
}

// -----

// expected-error @+2 {{R0: LDS handoff in kernel 'bad_roles': kda.wave_roles: role starts must be ascending waves inside the block of 64 threads, got wave 2}}
gpu.module @m {
  gpu.func @bad_roles(%out: memref<?xf32>) kernel attributes {known_block_size = array<i32: 64, 1, 1>, kda.wave_roles = array<i64: 32, 2>} {
    gpu.return
  }
}

// -----

// One set of roles on both sides is still two roles: every thread reads an
// array every thread writes in the same interval (thread 32 may write what
// thread 0 reads).
gpu.module @m {
  gpu.func @both_roles(%out: memref<?xf32>) kernel attributes {known_block_size = array<i32: 64, 1, 1>, kda.wave_roles = array<i64: 32, 1>} {
    %c0 = arith.constant 0 : index
    %c31 = arith.constant 31 : index
    %f = arith.constant 1.0 : f32
    %tid = gpu.thread_id x
    %lds = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %a = memref.view %lds[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<32xf32, #gpu.address_space<workgroup>>
    %lane = arith.andi %tid, %c31 : index
    // expected-note @+1 {{the other access}}
    %x = memref.load %a[%lane] : memref<32xf32, #gpu.address_space<workgroup>>
    // expected-error @+1 {{R2: LDS handoff in kernel 'both_roles': write of bytes [0, 128) of the dynamic LDS by threads [0, 64) (role 0 (waves [0, 1)) and role 1 (waves [1, 2))) in the barrier interval where threads [0, 64) (role 0 (waves [0, 1)) and role 1 (waves [1, 2))) read them}}
    memref.store %f, %a[%lane] : memref<32xf32, #gpu.address_space<workgroup>>
    gpu.barrier
    gpu.return
  }
}

// -----

// A branch on something neither evaluated nor the same for every thread
// (a global id) may put any thread on either side: both sides are taken
// by the same threads, so the store and the load meet.
gpu.module @m {
  gpu.func @global_id_branch(%out: memref<?xf32>) kernel attributes {known_block_size = array<i32: 64, 1, 1>, kda.wave_roles = array<i64: 32, 1>} {
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    %c31 = arith.constant 31 : index
    %f = arith.constant 1.0 : f32
    %tid = gpu.thread_id x
    %lds = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %a = memref.view %lds[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<32xf32, #gpu.address_space<workgroup>>
    %lane = arith.andi %tid, %c31 : index
    %g = gpu.global_id x
    %p = arith.cmpi ult, %g, %c32 : index
    scf.if %p {
      // expected-note @+1 {{the other access}}
      %x = memref.load %a[%lane] : memref<32xf32, #gpu.address_space<workgroup>>
      memref.store %x, %out[%tid] : memref<?xf32>
    } else {
      // expected-error @+1 {{R2: LDS handoff in kernel 'global_id_branch': write of bytes [0, 128) of the dynamic LDS}}
      memref.store %f, %a[%lane] : memref<32xf32, #gpu.address_space<workgroup>>
    }
    gpu.barrier
    gpu.return
  }
}

// -----

// A value loaded from memory the kernel writes is not the same for every
// thread: a barrier under a branch on it is R0.
gpu.module @m {
  gpu.func @written_flag(%flags: memref<?xi32>) kernel attributes {known_block_size = array<i32: 64, 1, 1>, kda.wave_roles = array<i64: 32, 1>} {
    %c0 = arith.constant 0 : index
    %z = arith.constant 0 : i32
    %tid = gpu.thread_id x
    %tz = arith.index_cast %tid : index to i32
    memref.store %tz, %flags[%tid] : memref<?xi32>
    %v = memref.load %flags[%c0] : memref<?xi32>
    %p = arith.cmpi ne, %v, %z : i32
    scf.if %p {
      // expected-error @+1 {{R0: LDS handoff in kernel 'written_flag': a barrier not every thread of the block may reach}}
      gpu.barrier
    }
    gpu.return
  }
}

// -----

// A loop whose trip count differs between threads: its barrier is R0.
gpu.module @m {
  gpu.func @thread_loop(%out: memref<?xf32>) kernel attributes {known_block_size = array<i32: 64, 1, 1>, kda.wave_roles = array<i64: 32, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %tid = gpu.thread_id x
    scf.for %i = %c0 to %tid step %c1 {
      // expected-error @+1 {{R0: LDS handoff in kernel 'thread_loop': a barrier not every thread of the block may reach}}
      gpu.barrier
    }
    gpu.return
  }
}

// -----

// A branch taken by every thread (its condition the same for all: a kernel
// argument nothing writes) may hold a barrier; so may one decided the same
// way for every thread by the thread id's arithmetic.
gpu.module @m {
  gpu.func @uniform_barriers(%n: memref<?xi32>, %out: memref<?xf32>) kernel attributes {known_block_size = array<i32: 64, 1, 1>, kda.wave_roles = array<i64: 32, 1>} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c32 = arith.constant 32 : index
    %z = arith.constant 0 : i32
    %f = arith.constant 1.0 : f32
    %tid = gpu.thread_id x
    %lds = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %a = memref.view %lds[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<32xf32, #gpu.address_space<workgroup>>
    %stage = arith.cmpi uge, %tid, %c32 : index
    %lane = arith.subi %tid, %c32 : index
    %v = memref.load %n[%c0] : memref<?xi32>
    %p = arith.cmpi ne, %v, %z : i32
    scf.if %stage {
      memref.store %f, %a[%lane] : memref<32xf32, #gpu.address_space<workgroup>>
    }
    scf.if %p {
      gpu.barrier
    } else {
      gpu.barrier
    }
    %all = arith.cmpi ult, %tid, %c64 : index
    scf.if %all {
      gpu.barrier
    }
    %x = memref.load %a[%c0] : memref<32xf32, #gpu.address_space<workgroup>>
    memref.store %x, %out[%tid] : memref<?xf32>
    gpu.return
  }
}

// -----

// A view at an unknown offset may sit anywhere in its source, and so may a
// view of it: the compute wave's reads may meet the staging wave's bytes.
gpu.module @m {
  gpu.func @view_of_view(%out: memref<?xf32>, %off: index) kernel attributes {known_block_size = array<i32: 64, 1, 1>, kda.wave_roles = array<i64: 32, 1>} {
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    %c128 = arith.constant 128 : index
    %c256 = arith.constant 256 : index
    %f = arith.constant 1.0 : f32
    %tid = gpu.thread_id x
    %lds = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %in = memref.view %lds[%off][%c256] : memref<?xi8, #gpu.address_space<workgroup>> to memref<?xi8, #gpu.address_space<workgroup>>
    %a = memref.view %in[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<32xf32, #gpu.address_space<workgroup>>
    %b = memref.view %lds[%c128][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<32xf32, #gpu.address_space<workgroup>>
    %compute = arith.cmpi ult, %tid, %c32 : index
    %lane = arith.remui %tid, %c32 : index
    scf.if %compute {
      // expected-note @+1 {{the other access}}
      %x = memref.load %a[%lane] : memref<32xf32, #gpu.address_space<workgroup>>
      memref.store %x, %out[%tid] : memref<?xf32>
    } else {
      // expected-error @+1 {{R2: LDS handoff in kernel 'view_of_view': write of bytes [128, 256) of the dynamic LDS}}
      memref.store %f, %b[%lane] : memref<32xf32, #gpu.address_space<workgroup>>
    }
    gpu.barrier
    gpu.return
  }
}

// -----

// The width of the thread id's arithmetic: extsi of a true i1 is -1, so
// `m < 1` holds for every thread and the staging wave reads too.
gpu.module @m {
  gpu.func @sign_extension(%out: memref<?xf32>) kernel attributes {known_block_size = array<i32: 64, 1, 1>, kda.wave_roles = array<i64: 32, 1>} {
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    %one = arith.constant 1 : i32
    %f = arith.constant 1.0 : f32
    %tid = gpu.thread_id x
    %lds = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %a = memref.view %lds[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<32xf32, #gpu.address_space<workgroup>>
    %compute = arith.cmpi ult, %tid, %c32 : index
    %stage = arith.cmpi uge, %tid, %c32 : index
    %m = arith.extsi %stage : i1 to i32
    %p = arith.cmpi slt, %m, %one : i32
    %lane = arith.remui %tid, %c32 : index
    scf.if %compute {
      // expected-note @+1 {{the other access}}
      memref.store %f, %a[%lane] : memref<32xf32, #gpu.address_space<workgroup>>
    }
    scf.if %p {
      // expected-error @+1 {{R1: LDS handoff in kernel 'sign_extension': read of bytes [0, 128) of the dynamic LDS by threads [0, 64)}}
      %x = memref.load %a[%lane] : memref<32xf32, #gpu.address_space<workgroup>>
      memref.store %x, %out[%tid] : memref<?xf32>
    }
    gpu.barrier
    gpu.return
  }
}

// -----

// A call may reach workgroup memory of its own: R0.
gpu.module @m {
  func.func private @helper(index)
  gpu.func @calls(%out: memref<?xf32>) kernel attributes {known_block_size = array<i32: 64, 1, 1>, kda.wave_roles = array<i64: 32, 1>} {
    %tid = gpu.thread_id x
    // expected-error @+1 {{R0: LDS handoff in kernel 'calls': cannot analyse func.call: it takes workgroup memory in a way this analysis does not model}}
    func.call @helper(%tid) : (index) -> ()
    gpu.return
  }
}

// -----

// Three roles: a wave of each; the middle one hands an array to the last.
gpu.module @m {
  gpu.func @three_roles(%out: memref<?xf32>) kernel attributes {known_block_size = array<i32: 96, 1, 1>, kda.wave_roles = array<i64: 32, 1, 2>} {
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    %f = arith.constant 1.0 : f32
    %tid = gpu.thread_id x
    %lds = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %a = memref.view %lds[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<32xf32, #gpu.address_space<workgroup>>
    %lane = arith.remui %tid, %c32 : index
    %wave = arith.divui %tid, %c32 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %mid = arith.cmpi eq, %wave, %c1 : index
    %last = arith.cmpi eq, %wave, %c2 : index
    scf.if %mid {
      // expected-note @+1 {{the other access}}
      memref.store %f, %a[%lane] : memref<32xf32, #gpu.address_space<workgroup>>
    }
    scf.if %last {
      // expected-error @+1 {{R1: LDS handoff in kernel 'three_roles': read of bytes [0, 128) of the dynamic LDS by threads [64, 96) (role 2 (waves [2, 3))) in the barrier interval where threads [32, 64) (role 1 (waves [1, 2))) wrote them}}
      %x = memref.load %a[%lane] : memref<32xf32, #gpu.address_space<workgroup>>
      memref.store %x, %out[%tid] : memref<?xf32>
    }
    gpu.barrier
    gpu.return
  }
}

// -----

// Unstructured control flow is not followed: R0.
gpu.module @m {
  // expected-error @+1 {{R0: LDS handoff in kernel 'blocks': cannot analyse a kernel of more than one block (unstructured control flow): only scf.if and scf.for are interpreted}}
  gpu.func @blocks(%out: memref<?xf32>) kernel attributes {known_block_size = array<i32: 64, 1, 1>, kda.wave_roles = array<i64: 32, 1>} {
    cf.br ^bb1
  ^bb1:
    gpu.return
  }
}

// -----

// The 16-column register scan split along K (ChunkPlan::kSplit): two
// compute waves (role 0) each leave a partial product in their own part of
// %x in phase 1 and read both parts in phase 2; the staging wave (role 1)
// brings %u (read in phase 2) with phase 1's rows and %w (read in phase 1)
// with phase 2's. Safe. The partials pass between waves of one role, which
// this analysis leaves to the emulator's race detector; the barrier
// between the phases orders them.
gpu.module @m {
  gpu.func @split_along_k(%out: memref<?xf32>, %n: index) kernel attributes {known_block_size = array<i32: 96, 1, 1>, kda.wave_roles = array<i64: 32, 2>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %c256 = arith.constant 256 : index
    %f = arith.constant 1.0 : f32
    %tid = gpu.thread_id x
    %lds = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %w = memref.view %lds[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<32xf32, #gpu.address_space<workgroup>>
    %u = memref.view %lds[%c128][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<32xf32, #gpu.address_space<workgroup>>
    %x = memref.view %lds[%c256][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<64xf32, #gpu.address_space<workgroup>>
    %compute = arith.cmpi ult, %tid, %c64 : index
    %lane = arith.remui %tid, %c32 : index
    %other = arith.xori %tid, %c32 : index
    scf.if %compute {
    } else {
      memref.store %f, %w[%lane] : memref<32xf32, #gpu.address_space<workgroup>>
    }
    gpu.barrier
    scf.for %i = %c0 to %n step %c1 {
      scf.if %compute {
        %p = memref.load %w[%lane] : memref<32xf32, #gpu.address_space<workgroup>>
        memref.store %p, %x[%tid] : memref<64xf32, #gpu.address_space<workgroup>>
      } else {
        memref.store %f, %u[%lane] : memref<32xf32, #gpu.address_space<workgroup>>
      }
      gpu.barrier
      scf.if %compute {
        %mine = memref.load %x[%tid] : memref<64xf32, #gpu.address_space<workgroup>>
        %theirs = memref.load %x[%other] : memref<64xf32, #gpu.address_space<workgroup>>
        %uu = memref.load %u[%lane] : memref<32xf32, #gpu.address_space<workgroup>>
        %s = arith.addf %mine, %theirs : f32
        %v = arith.subf %uu, %s : f32
        memref.store %v, %out[%i] : memref<?xf32>
      } else {
        %i1 = arith.addi %i, %c1 : index
        %more = arith.cmpi ult, %i1, %n : index
        scf.if %more {
          memref.store %f, %w[%lane] : memref<32xf32, #gpu.address_space<workgroup>>
        }
      }
      gpu.barrier
    }
    gpu.return
  }
}

// -----

// The same with %u still staged with phase 2's rows, as in the unsplit
// scan, where V_new = U - W S is taken in phase 1: split, phase 2 reads %u
// while the staging wave writes it (what the builder's own check caught
// while the split was written).
gpu.module @m {
  gpu.func @split_u_late(%out: memref<?xf32>, %n: index) kernel attributes {known_block_size = array<i32: 96, 1, 1>, kda.wave_roles = array<i64: 32, 2>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %c256 = arith.constant 256 : index
    %f = arith.constant 1.0 : f32
    %tid = gpu.thread_id x
    %lds = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %w = memref.view %lds[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<32xf32, #gpu.address_space<workgroup>>
    %u = memref.view %lds[%c128][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<32xf32, #gpu.address_space<workgroup>>
    %x = memref.view %lds[%c256][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<64xf32, #gpu.address_space<workgroup>>
    %compute = arith.cmpi ult, %tid, %c64 : index
    %lane = arith.remui %tid, %c32 : index
    %other = arith.xori %tid, %c32 : index
    scf.if %compute {
    } else {
      memref.store %f, %w[%lane] : memref<32xf32, #gpu.address_space<workgroup>>
      memref.store %f, %u[%lane] : memref<32xf32, #gpu.address_space<workgroup>>
    }
    gpu.barrier
    scf.for %i = %c0 to %n step %c1 {
      scf.if %compute {
        %p = memref.load %w[%lane] : memref<32xf32, #gpu.address_space<workgroup>>
        memref.store %p, %x[%tid] : memref<64xf32, #gpu.address_space<workgroup>>
      }
      gpu.barrier
      scf.if %compute {
        %mine = memref.load %x[%tid] : memref<64xf32, #gpu.address_space<workgroup>>
        %theirs = memref.load %x[%other] : memref<64xf32, #gpu.address_space<workgroup>>
        // expected-note @+1 {{the other access}}
        %uu = memref.load %u[%lane] : memref<32xf32, #gpu.address_space<workgroup>>
        %s = arith.addf %mine, %theirs : f32
        %v = arith.subf %uu, %s : f32
        memref.store %v, %out[%i] : memref<?xf32>
      } else {
        %i1 = arith.addi %i, %c1 : index
        %more = arith.cmpi ult, %i1, %n : index
        scf.if %more {
          memref.store %f, %w[%lane] : memref<32xf32, #gpu.address_space<workgroup>>
          // expected-error @+1 {{R2: LDS handoff in kernel 'split_u_late': write of bytes [128, 256) of the dynamic LDS by threads [64, 96) (role 1 (waves [2, 3))) in the barrier interval where threads [0, 64) (role 0 (waves [0, 2))) read them}}
          memref.store %f, %u[%lane] : memref<32xf32, #gpu.address_space<workgroup>>
        }
      }
      gpu.barrier
    }
    gpu.return
  }
}
