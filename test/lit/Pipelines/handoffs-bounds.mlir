// An LDS access outside its array, where the threads sure to run it
// evaluate its indices (functions of the thread id and constants): R1. The
// handoff check takes each access to touch its own array only; past a
// view's end the bytes are another array's. Indices it cannot evaluate,
// and threads that may not run the access, stay the emulator's bounds
// checks' (the accepted twins below). An n-D vector spans its shape along
// the array's trailing dimensions.
// RUN: kda-opt %s -split-input-file -verify-diagnostics --kda-verify-pipeline

// -----

// Role 0 reads %a[lane + 1]: lane 31 reads %a[32], which is %b[0], written
// by role 1 in the same interval.
gpu.module @m {
  gpu.func @k(%out: memref<?xf32>) kernel attributes {known_block_size = array<i32: 64, 1, 1>, kda.wave_roles = array<i64: 32, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %c128 = arith.constant 128 : index
    %f = arith.constant 1.0 : f32
    %tid = gpu.thread_id x
    %lds = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %a = memref.view %lds[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<32xf32, #gpu.address_space<workgroup>>
    %b = memref.view %lds[%c128][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<32xf32, #gpu.address_space<workgroup>>
    %compute = arith.cmpi ult, %tid, %c32 : index
    %lane = arith.remui %tid, %c32 : index
    %next = arith.addi %lane, %c1 : index
    scf.if %compute {
      // expected-error @+1 {{R1: LDS handoff in kernel 'k': an access outside its array: thread 31 indexes dimension 0 of memref<32xf32, #gpu.address_space<workgroup>> at 32, past its end (0 .. 31)}}
      %x = memref.load %a[%next] : memref<32xf32, #gpu.address_space<workgroup>>
      memref.store %x, %out[%tid] : memref<?xf32>
    } else {
      memref.store %f, %b[%lane] : memref<32xf32, #gpu.address_space<workgroup>>
    }
    gpu.barrier
    gpu.return
  }
}

// -----

// Accepted twin: the last lane is guarded off by a condition it evaluates.
gpu.module @m {
  gpu.func @k_guarded(%out: memref<?xf32>) kernel attributes {known_block_size = array<i32: 64, 1, 1>, kda.wave_roles = array<i64: 32, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %c128 = arith.constant 128 : index
    %f = arith.constant 1.0 : f32
    %tid = gpu.thread_id x
    %lds = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %a = memref.view %lds[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<32xf32, #gpu.address_space<workgroup>>
    %b = memref.view %lds[%c128][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<32xf32, #gpu.address_space<workgroup>>
    %compute = arith.cmpi ult, %tid, %c32 : index
    %lane = arith.remui %tid, %c32 : index
    %next = arith.addi %lane, %c1 : index
    %inside = arith.cmpi ult, %next, %c32 : index
    scf.if %compute {
      scf.if %inside {
        %x = memref.load %a[%next] : memref<32xf32, #gpu.address_space<workgroup>>
        memref.store %x, %out[%tid] : memref<?xf32>
      }
    } else {
      memref.store %f, %b[%lane] : memref<32xf32, #gpu.address_space<workgroup>>
    }
    gpu.barrier
    gpu.return
  }
}

// -----

// 128 threads copy a 16-byte piece each to %a[4 * tid]; %a holds 256
// floats, so thread 64's piece is the first to land past its end, in %b.
gpu.module @m {
  gpu.func @k_piece(%src: memref<?xf32>, %out: memref<?xf32>) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %c1024 = arith.constant 1024 : index
    %tid = gpu.thread_id x
    %lds = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %a = memref.view %lds[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<256xf32, #gpu.address_space<workgroup>>
    %b = memref.view %lds[%c1024][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<256xf32, #gpu.address_space<workgroup>>
    %at = arith.muli %tid, %c4 : index
    %true = arith.constant true
    // expected-error @+1 {{R1: LDS handoff in kernel 'k_piece': an access outside its array: thread 64 indexes dimension 0 of memref<256xf32, #gpu.address_space<workgroup>> at 256 (4 elements from it), past its end (0 .. 255)}}
    kda.copy_piece %src[%at] to %a[%at] if (%true) atom(cp_async) : memref<?xf32>, memref<256xf32, #gpu.address_space<workgroup>>
    kda.copy_fence
    gpu.barrier
    %x = memref.load %b[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
    memref.store %x, %out[%tid] : memref<?xf32>
    gpu.return
  }
}

// -----

// A vector store of 4 floats at 4 * tid - 2 reaches before the array's
// start at thread 0 (index -2) and past it at the last thread.
gpu.module @m {
  gpu.func @k_vector(%out: memref<?xf32>) kernel attributes {known_block_size = array<i32: 64, 1, 1>, kda.wave_roles = array<i64: 32, 1>} {
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c32 = arith.constant 32 : index
    %v = arith.constant dense<1.0> : vector<4xf32>
    %tid = gpu.thread_id x
    %lds = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %a = memref.view %lds[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<128xf32, #gpu.address_space<workgroup>>
    %first = arith.cmpi ult, %tid, %c32 : index
    %at = arith.muli %tid, %c4 : index
    %shifted = arith.subi %at, %c2 : index
    scf.if %first {
      // expected-error @+1 {{R1: LDS handoff in kernel 'k_vector': an access outside its array: thread 0 indexes dimension 0 of memref<128xf32, #gpu.address_space<workgroup>> at -2 (4 elements from it), before its start (0 .. 127)}}
      vector.store %v, %a[%shifted] : memref<128xf32, #gpu.address_space<workgroup>>, vector<4xf32>
    }
    gpu.barrier
    gpu.return
  }
}

// -----

// Accepted: indices that are not functions of the thread id (a loaded
// offset) are not evaluated here; the emulator checks them at run time.
gpu.module @m {
  gpu.func @k_data(%offsets: memref<?xindex>, %out: memref<?xf32>) kernel attributes {known_block_size = array<i32: 64, 1, 1>, kda.wave_roles = array<i64: 32, 1>} {
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    %c128 = arith.constant 128 : index
    %f = arith.constant 1.0 : f32
    %tid = gpu.thread_id x
    %lds = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %a = memref.view %lds[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<32xf32, #gpu.address_space<workgroup>>
    %compute = arith.cmpi ult, %tid, %c32 : index
    %i = memref.load %offsets[%tid] : memref<?xindex>
    scf.if %compute {
      memref.store %f, %a[%i] : memref<32xf32, #gpu.address_space<workgroup>>
    }
    gpu.barrier
    gpu.return
  }
}

// -----

// One thread's index that does not evaluate (a kernel argument chosen for
// thread 0) leaves the others checked: thread 63 reads %a[64].
gpu.module @m {
  gpu.func @k_select(%out: memref<?xf32>, %n: index) kernel attributes {known_block_size = array<i32: 64, 1, 1>, kda.wave_roles = array<i64: 32, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %tid = gpu.thread_id x
    %lds = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %a = memref.view %lds[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<64xf32, #gpu.address_space<workgroup>>
    %is0 = arith.cmpi eq, %tid, %c0 : index
    %tp1 = arith.addi %tid, %c1 : index
    %i = arith.select %is0, %n, %tp1 : index
    // expected-error @+1 {{R1: LDS handoff in kernel 'k_select': an access outside its array: thread 63 indexes dimension 0 of memref<64xf32, #gpu.address_space<workgroup>> at 64, past its end (0 .. 63)}}
    %x = memref.load %a[%i] : memref<64xf32, #gpu.address_space<workgroup>>
    memref.store %x, %out[%tid] : memref<?xf32>
    gpu.barrier
    gpu.return
  }
}

// -----

// Shifts evaluate like the arithmetic they are: tid << 2 is past 64 floats
// from thread 16 on.
gpu.module @m {
  gpu.func @k_shift(%out: memref<?xf32>) kernel attributes {known_block_size = array<i32: 64, 1, 1>, kda.wave_roles = array<i64: 32, 1>} {
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %tid = gpu.thread_id x
    %lds = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %a = memref.view %lds[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<64xf32, #gpu.address_space<workgroup>>
    %i = arith.shli %tid, %c2 : index
    // expected-error @+1 {{R1: LDS handoff in kernel 'k_shift': an access outside its array: thread 16 indexes dimension 0 of memref<64xf32, #gpu.address_space<workgroup>> at 64, past its end (0 .. 63)}}
    %x = memref.load %a[%i] : memref<64xf32, #gpu.address_space<workgroup>>
    memref.store %x, %out[%tid] : memref<?xf32>
    gpu.barrier
    gpu.return
  }
}

// -----

// Accepted: a loop over [0, tid) runs no trip for thread 0, so %a[tid - 1]
// in its body is never -1; and a vector of an array of vectors is one
// element of it.
gpu.module @m {
  gpu.func @k_loop(%out: memref<?xf32>) kernel attributes {known_block_size = array<i32: 64, 1, 1>, kda.wave_roles = array<i64: 32, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c512 = arith.constant 512 : index
    %tid = gpu.thread_id x
    %lds = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %a = memref.view %lds[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<64xf32, #gpu.address_space<workgroup>>
    %v = memref.view %lds[%c512][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<64xvector<4xf32>, #gpu.address_space<workgroup>>
    scf.for %i = %c0 to %tid step %c1 {
      %tm1 = arith.subi %tid, %c1 : index
      %x = memref.load %a[%tm1] : memref<64xf32, #gpu.address_space<workgroup>>
      memref.store %x, %out[%i] : memref<?xf32>
    }
    %y = vector.load %v[%tid] : memref<64xvector<4xf32>, #gpu.address_space<workgroup>>, vector<4xf32>
    vector.store %y, %out[%tid] : memref<?xf32>, vector<4xf32>
    gpu.barrier
    gpu.return
  }
}

// -----

// An n-D vector: a 2 x 4 block of rows tid and tid + 1 from an 8 x 4
// array: the last of 8 threads reads row 8, past the array along
// dimension 0.
gpu.module @m {
  gpu.func @k_rows(%out: memref<?xvector<2x4xf32>>) kernel attributes {known_block_size = array<i32: 8, 1, 1>} {
    %c0 = arith.constant 0 : index
    %tid = gpu.thread_id x
    %lds = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %a = memref.view %lds[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<8x4xf32, #gpu.address_space<workgroup>>
    // expected-error @+1 {{R1: LDS access in kernel 'k_rows': an access outside its array: thread 7 indexes dimension 0 of memref<8x4xf32, #gpu.address_space<workgroup>> at 7 (2 elements from it), past its end (0 .. 7)}}
    %x = vector.load %a[%tid, %c0] : memref<8x4xf32, #gpu.address_space<workgroup>>, vector<2x4xf32>
    memref.store %x, %out[%tid] : memref<?xvector<2x4xf32>>
    gpu.barrier
    gpu.return
  }
}

// -----

// Accepted twin: rows 2 tid and 2 tid + 1 of a 16 x 4 array.
gpu.module @m {
  gpu.func @k_rows_in(%out: memref<?xvector<2x4xf32>>) kernel attributes {known_block_size = array<i32: 8, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %tid = gpu.thread_id x
    %row = arith.muli %tid, %c2 : index
    %lds = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %a = memref.view %lds[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<16x4xf32, #gpu.address_space<workgroup>>
    %x = vector.load %a[%row, %c0] : memref<16x4xf32, #gpu.address_space<workgroup>>, vector<2x4xf32>
    memref.store %x, %out[%tid] : memref<?xvector<2x4xf32>>
    gpu.barrier
    gpu.return
  }
}

// -----

// Through a subview at element 4 of 252 elements: thread 63's element 252
// is past the subview's end (the next array's first float).
gpu.module @m {
  gpu.func @k_subview(%out: memref<?xf32>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %f = arith.constant 1.0 : f32
    %tid = gpu.thread_id x
    %lds = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %a = memref.view %lds[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<256xf32, #gpu.address_space<workgroup>>
    %sv = memref.subview %a[4] [252] [1] : memref<256xf32, #gpu.address_space<workgroup>> to memref<252xf32, strided<[1], offset: 4>, #gpu.address_space<workgroup>>
    %e = arith.muli %tid, %c4 : index
    // expected-error @+1 {{R1: LDS access in kernel 'k_subview': an access outside its array: thread 63 indexes dimension 0 of memref<252xf32, strided<[1], offset: 4>, #gpu.address_space<workgroup>> at 252, past its end (0 .. 251)}}
    memref.store %f, %sv[%e] : memref<252xf32, strided<[1], offset: 4>, #gpu.address_space<workgroup>>
    gpu.barrier
    gpu.return
  }
}

// -----

// Through a cast to a dynamic shape, element 4 tid + 4 of 256: thread 63's
// is 256, past the array the cast was taken of.
gpu.module @m {
  gpu.func @k_cast(%out: memref<?xf32>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %f = arith.constant 1.0 : f32
    %tid = gpu.thread_id x
    %lds = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %a = memref.view %lds[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<256xf32, #gpu.address_space<workgroup>>
    %d = memref.cast %a : memref<256xf32, #gpu.address_space<workgroup>> to memref<?xf32, #gpu.address_space<workgroup>>
    %e0 = arith.muli %tid, %c4 : index
    %e = arith.addi %e0, %c4 : index
    // expected-error @+1 {{R1: LDS access in kernel 'k_cast': an access outside its array: thread 63 reaches elements [256, 256] of memref<256xf32, #gpu.address_space<workgroup>> (0 .. 255) through memref<?xf32, #gpu.address_space<workgroup>>}}
    memref.store %f, %d[%e] : memref<?xf32, #gpu.address_space<workgroup>>
    gpu.barrier
    gpu.return
  }
}

// -----

// Accepted twin: the same cast, element 4 tid.
gpu.module @m {
  gpu.func @k_cast_in(%out: memref<?xf32>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %f = arith.constant 1.0 : f32
    %tid = gpu.thread_id x
    %lds = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %a = memref.view %lds[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<256xf32, #gpu.address_space<workgroup>>
    %d = memref.cast %a : memref<256xf32, #gpu.address_space<workgroup>> to memref<?xf32, #gpu.address_space<workgroup>>
    %e = arith.muli %tid, %c4 : index
    memref.store %f, %d[%e] : memref<?xf32, #gpu.address_space<workgroup>>
    gpu.barrier
    gpu.return
  }
}
