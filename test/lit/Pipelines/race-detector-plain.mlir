// The race detector also watches loads and stores that index workgroup
// memory directly (the recurrent kernel's cross-wave exchange is such
// memory): each thread writes its word, then reads its neighbour's. Without a
// barrier between, thread 0's read and thread 1's later store race (WAR);
// with gpu.barrier (a drained barrier) the kernel is race-free, also when the
// next round writes the same words after a second barrier. Vector loads
// are watched over their whole width: a thread's 16-byte read of four
// words races with the stores of the three threads beside it unless a
// barrier separates them. Typed views of the dynamic LDS at a constant
// offset (the chunk kernels' arrays) are watched at that offset; so are
// accesses through a subview (placed by its layout, checked against the
// array it was taken of) and unmasked in-bounds transfers. Atomics
// (memref.atomic_rmw) race plain accesses of other threads, not their
// atomics; masked stores and transfers that may leave the array are watched
// element by element, n-D too and through subviews (elements off the mask
// or past the end of the memref they index touch nothing; an element's
// byte follows that memref's strides).
// RUN: kda-opt %s --pass-pipeline='builtin.module(kda-gpu-to-emu,func.func(convert-vector-to-scf,lower-affine,convert-scf-to-cf),convert-vector-to-llvm,convert-arith-to-llvm,expand-strided-metadata,finalize-memref-to-llvm,convert-cf-to-llvm,convert-func-to-llvm,reconcile-unrealized-casts,kda-emu-entry)' | kda-translate --mlir-to-llvmir -o %t.ll
// RUN: %clang -O1 -shared -fPIC -Wno-override-module %t.ll -o %t.so
// RUN: not kda-emu-run %t.so no_barrier_packed --block 64 | FileCheck %s --check-prefix=RACE
// RUN: kda-emu-run %t.so with_barrier_packed --block 64 | FileCheck %s --check-prefix=SAFE
// RUN: not kda-emu-run %t.so reuse_without_barrier_packed --block 64 | FileCheck %s --check-prefix=REUSE
// RUN: not kda-emu-run %t.so vector_no_barrier_packed --block 64 | FileCheck %s --check-prefix=VRACE
// RUN: kda-emu-run %t.so vector_with_barrier_packed --block 64 | FileCheck %s --check-prefix=SAFE
// RUN: not kda-emu-run %t.so dynamic_view_no_barrier_packed --block 64 --dynamic-lds 272 | FileCheck %s --check-prefix=DRACE
// kda-emu-run's arguments are checked whole: a missing or malformed value,
// an empty grid, or a symbol of another library (libc's abort) is refused,
// never run as some other launch that then reports "race-free".
// RUN: not kda-emu-run %t.so no_barrier_packed --block 2>&1 | FileCheck %s --check-prefix=ARGS-BLOCK
// RUN: not kda-emu-run %t.so no_barrier_packed --block 64 --grid 0,1,1 2>&1 | FileCheck %s --check-prefix=ARGS-GRID
// RUN: not kda-emu-run %t.so no_barrier_packed --block 64 --grid abc 2>&1 | FileCheck %s --check-prefix=ARGS-GRID
// RUN: not kda-emu-run %t.so no_barrier_packed --block 64 --wave 48 2>&1 | FileCheck %s --check-prefix=ARGS-WAVE
// RUN: not kda-emu-run %t.so abort --block 64 2>&1 | FileCheck %s --check-prefix=ARGS-SYM
// ARGS-BLOCK: kda-emu-run: --block (missing): threads must be 1 .. 1024
// ARGS-GRID: kda-emu-run: --grid {{.*}}: must be X,Y,Z with each 1 .. 65535
// ARGS-WAVE: kda-emu-run: --wave 48: must be 32 or 64
// ARGS-SYM: kda-emu-run: no symbol abort in
// A kernel's own function, not its packed entry, and a packed entry that
// takes arguments (this tool passes none: it crashed on a null array).
// RUN: not kda-emu-run %t.so no_barrier --block 64 2>&1 | FileCheck %s --check-prefix=ARGS-UNPACKED
// RUN: not kda-emu-run %t.so takes_an_argument_packed --block 64 2>&1 | FileCheck %s --check-prefix=ARGS-TAKES
// ARGS-UNPACKED: kda-emu-run: no_barrier in {{.*}} is not a packed emulator entry (no no_barrier_args beside it: name a kernel's <name>_packed)
// ARGS-TAKES: kda-emu-run: takes_an_argument_packed takes {{[0-9]+}} argument(s); this tool launches kernels without arguments
// RUN: not kda-emu-run %t.so subview_no_barrier_packed --block 64 | FileCheck %s --check-prefix=SRACE
// RUN: not kda-emu-run %t.so subview_past_end_packed --block 64 | FileCheck %s --check-prefix=SBOUNDS
// RUN: not kda-emu-run %t.so transfer_no_barrier_packed --block 64 | FileCheck %s --check-prefix=VRACE
// RUN: kda-opt %s --kda-gpu-to-emu | FileCheck %s --check-prefix=IR
// RUN: kda-emu-run %t.so atomics_only_packed --block 64 | FileCheck %s --check-prefix=SAFE
// RUN: not kda-emu-run %t.so load_never_written_packed --block 64 | FileCheck %s --check-prefix=UNWRITTEN
// RUN: kda-emu-run %t.so atomic_never_written_packed --block 64 | FileCheck %s --check-prefix=SAFE
// RUN: not kda-emu-run %t.so atomic_then_load_packed --block 64 | FileCheck %s --check-prefix=ARACE
// RUN: kda-emu-run %t.so atomic_barrier_load_packed --block 64 | FileCheck %s --check-prefix=SAFE
// RUN: not kda-emu-run %t.so atomics_then_store_packed --block 64 | FileCheck %s --check-prefix=ASTORE
// RUN: kda-emu-run %t.so masked_apart_packed --block 64 | FileCheck %s --check-prefix=SAFE
// RUN: not kda-emu-run %t.so masked_overlap_packed --block 64 | FileCheck %s --check-prefix=MRACE
// RUN: kda-emu-run %t.so transfer_past_end_packed --block 64 | FileCheck %s --check-prefix=SAFE
// RUN: not kda-emu-run %t.so transfer_past_end_overlap_packed --block 64 | FileCheck %s --check-prefix=MRACE
// RUN: kda-emu-run %t.so masked2d_apart_packed --block 64 | FileCheck %s --check-prefix=SAFE
// RUN: not kda-emu-run %t.so masked2d_overlap_packed --block 64 | FileCheck %s --check-prefix=M2RACE
// RUN: kda-emu-run %t.so transfer2d_past_end_packed --block 64 | FileCheck %s --check-prefix=SAFE
// RUN: kda-emu-run %t.so subview_transfer_past_end_packed --block 64 | FileCheck %s --check-prefix=SAFE
// RUN: not kda-emu-run %t.so subview_transfer_overlap_packed --block 64 | FileCheck %s --check-prefix=SVRACE
// RUN: not kda-emu-run %t.so column_transfer_race_packed --block 64 | FileCheck %s --check-prefix=CRACE

// RACE: LDS race in block (0, 0, 0): thread 1 the store overwrites byte 4 that thread 0 read with no barrier between
// SAFE: race-free: 1 x 1 x 1 blocks of 64 threads
// REUSE: LDS race in block (0, 0, 0): thread 1 the store overwrites byte 4 that thread 0 read with no barrier between
// VRACE: LDS race in block (0, 0, 0): thread 1 the store overwrites byte 4 that thread 0 read with no barrier between
// SRACE: LDS race in block (0, 0, 0): thread 1 the store overwrites byte 260 that thread 0 read with no barrier between
// SBOUNDS: LDS access out of bounds in block (0, 0, 0): thread 63 writes bytes [512, 516) of the 512-byte workgroup array at bytes [0, 512)
// UNWRITTEN: LDS bytes never written, in block (0, 0, 0): thread 0 reads byte 4, which nothing in the workgroup wrote before (on a GPU it holds what an earlier kernel left: any bits, NaN's included)
// ARACE: LDS race in block (0, 0, 0): thread 1 the atomic overwrites byte 0 that thread 0 read with no barrier between
// ASTORE: LDS race in block (0, 0, 0): thread 1 the store to byte 0 races another thread's atomic (no barrier between)
// MRACE: LDS race in block (0, 0, 0): thread 1 the store to byte 8 races thread 0's write (no barrier between)
// M2RACE: LDS race in block (0, 0, 0): thread 1 the store to byte 32 races thread 0's write (no barrier between)
// SVRACE: LDS race in block (0, 0, 0): thread 1 the store to byte 776 races thread 0's write (no barrier between)
// CRACE: LDS race in block (0, 0, 0): thread 1 the store overwrites byte 20 that thread 0 read with no barrier between
// DRACE: LDS race in block (0, 0, 0): thread 1 the store overwrites byte 20 that thread 0 read with no barrier between
// IR-LABEL: func.func @with_barrier
// IR: call @kda_emu_lds_store
// IR: call @kda_emu_lds_drain
// IR-NEXT: call @kda_emu_barrier
// IR: call @kda_emu_lds_load

module attributes {gpu.container_module} {
  gpu.module @kernels attributes {kda.target = #kda.target<"emu">} {
    gpu.func @no_barrier() workgroup(%x : memref<64xf32, #gpu.address_space<workgroup>>) kernel {
      %c1 = arith.constant 1 : index
      %c64 = arith.constant 64 : index
      %tid = gpu.thread_id x
      %i = arith.index_cast %tid : index to i32
      %f = arith.sitofp %i : i32 to f32
      memref.store %f, %x[%tid] : memref<64xf32, #gpu.address_space<workgroup>>
      %n = arith.addi %tid, %c1 : index
      %m = arith.remui %n, %c64 : index
      %v = memref.load %x[%m] : memref<64xf32, #gpu.address_space<workgroup>>
      gpu.return
    }
    gpu.func @with_barrier() workgroup(%x : memref<64xf32, #gpu.address_space<workgroup>>) kernel {
      %c1 = arith.constant 1 : index
      %c64 = arith.constant 64 : index
      %tid = gpu.thread_id x
      %i = arith.index_cast %tid : index to i32
      %f = arith.sitofp %i : i32 to f32
      memref.store %f, %x[%tid] : memref<64xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %n = arith.addi %tid, %c1 : index
      %m = arith.remui %n, %c64 : index
      %v = memref.load %x[%m] : memref<64xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %g = arith.addf %v, %f : f32
      memref.store %g, %x[%tid] : memref<64xf32, #gpu.address_space<workgroup>>
      gpu.return
    }
    gpu.func @reuse_without_barrier() workgroup(%x : memref<64xf32, #gpu.address_space<workgroup>>) kernel {
      %c1 = arith.constant 1 : index
      %c64 = arith.constant 64 : index
      %tid = gpu.thread_id x
      %i = arith.index_cast %tid : index to i32
      %f = arith.sitofp %i : i32 to f32
      memref.store %f, %x[%tid] : memref<64xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %n = arith.addi %tid, %c1 : index
      %m = arith.remui %n, %c64 : index
      %v = memref.load %x[%m] : memref<64xf32, #gpu.address_space<workgroup>>
      %g = arith.addf %v, %f : f32
      memref.store %g, %x[%tid] : memref<64xf32, #gpu.address_space<workgroup>>
      gpu.return
    }
    gpu.func @vector_no_barrier() workgroup(%x : memref<64xf32, #gpu.address_space<workgroup>>) kernel {
      %c4 = arith.constant 4 : index
      %tid = gpu.thread_id x
      %i = arith.index_cast %tid : index to i32
      %f = arith.sitofp %i : i32 to f32
      memref.store %f, %x[%tid] : memref<64xf32, #gpu.address_space<workgroup>>
      %q = arith.divui %tid, %c4 : index
      %at = arith.muli %q, %c4 : index
      %v = vector.load %x[%at] : memref<64xf32, #gpu.address_space<workgroup>>, vector<4xf32>
      gpu.return
    }
    gpu.func @vector_with_barrier() workgroup(%x : memref<64xf32, #gpu.address_space<workgroup>>) kernel {
      %c4 = arith.constant 4 : index
      %tid = gpu.thread_id x
      %i = arith.index_cast %tid : index to i32
      %f = arith.sitofp %i : i32 to f32
      memref.store %f, %x[%tid] : memref<64xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %q = arith.divui %tid, %c4 : index
      %at = arith.muli %q, %c4 : index
      %v = vector.load %x[%at] : memref<64xf32, #gpu.address_space<workgroup>>, vector<4xf32>
      gpu.return
    }
    gpu.func @dynamic_view_no_barrier() kernel attributes {kda.dynamic_lds_bytes = 272 : i64} {
      %c1 = arith.constant 1 : index
      %c16 = arith.constant 16 : index
      %c64 = arith.constant 64 : index
      %tid = gpu.thread_id x
      %i = arith.index_cast %tid : index to i32
      %f = arith.sitofp %i : i32 to f32
      %lds = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %x = memref.view %lds[%c16][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<64xf32, #gpu.address_space<workgroup>>
      memref.store %f, %x[%tid] : memref<64xf32, #gpu.address_space<workgroup>>
      %n = arith.addi %tid, %c1 : index
      %m = arith.remui %n, %c64 : index
      %v = memref.load %x[%m] : memref<64xf32, #gpu.address_space<workgroup>>
      gpu.return
    }
    // The neighbour race through a subview at element 64.
    gpu.func @subview_no_barrier() workgroup(%a : memref<128xf32, #gpu.address_space<workgroup>>) kernel {
      %c1 = arith.constant 1 : index
      %c64 = arith.constant 64 : index
      %tid = gpu.thread_id x
      %i = arith.index_cast %tid : index to i32
      %f = arith.sitofp %i : i32 to f32
      %x = memref.subview %a[64] [64] [1] : memref<128xf32, #gpu.address_space<workgroup>> to memref<64xf32, strided<[1], offset: 64>, #gpu.address_space<workgroup>>
      memref.store %f, %x[%tid] : memref<64xf32, strided<[1], offset: 64>, #gpu.address_space<workgroup>>
      %n = arith.addi %tid, %c1 : index
      %m = arith.remui %n, %c64 : index
      %v = memref.load %x[%m] : memref<64xf32, strided<[1], offset: 64>, #gpu.address_space<workgroup>>
      gpu.return
    }
    // Element 2 tid of a subview at element 2: thread 63's is 128 of the
    // array, past its 128 floats.
    gpu.func @subview_past_end() workgroup(%a : memref<128xf32, #gpu.address_space<workgroup>>) kernel {
      %c2 = arith.constant 2 : index
      %f = arith.constant 1.0 : f32
      %tid = gpu.thread_id x
      %x = memref.subview %a[2] [126] [1] : memref<128xf32, #gpu.address_space<workgroup>> to memref<126xf32, strided<[1], offset: 2>, #gpu.address_space<workgroup>>
      %e = arith.muli %tid, %c2 : index
      memref.store %f, %x[%e] : memref<126xf32, strided<[1], offset: 2>, #gpu.address_space<workgroup>>
      gpu.return
    }
    // A four-word transfer read over the next threads' stores.
    gpu.func @transfer_no_barrier() workgroup(%x : memref<68xf32, #gpu.address_space<workgroup>>) kernel {
      %pad = arith.constant 0.0 : f32
      %tid = gpu.thread_id x
      %i = arith.index_cast %tid : index to i32
      %f = arith.sitofp %i : i32 to f32
      %v = vector.transfer_read %x[%tid], %pad {in_bounds = [true]} : memref<68xf32, #gpu.address_space<workgroup>>, vector<4xf32>
      memref.store %f, %x[%tid] : memref<68xf32, #gpu.address_space<workgroup>>
      gpu.return
    }
    // Atomics of one word race no other atomic, only plain accesses beside
    // them in one barrier interval. (Thread 0 zeroes the word first in
    // each, as an add must not start from what an earlier kernel left.)
    gpu.func @atomics_only() workgroup(%x : memref<4xf32, #gpu.address_space<workgroup>>) kernel {
      %c0 = arith.constant 0 : index
      %t0 = gpu.thread_id x
      %zero = arith.constant 0.0 : f32
      %init = arith.cmpi eq, %t0, %c0 : index
      scf.if %init {
        memref.store %zero, %x[%c0] : memref<4xf32, #gpu.address_space<workgroup>>
      }
      gpu.barrier
      %one = arith.constant 1.0 : f32
      %old = memref.atomic_rmw addf %one, %x[%c0] : (f32, memref<4xf32, #gpu.address_space<workgroup>>) -> f32
      gpu.return
    }
    gpu.func @atomic_then_load() workgroup(%x : memref<4xf32, #gpu.address_space<workgroup>>) kernel {
      %c0 = arith.constant 0 : index
      %t0 = gpu.thread_id x
      %zero = arith.constant 0.0 : f32
      %init = arith.cmpi eq, %t0, %c0 : index
      scf.if %init {
        memref.store %zero, %x[%c0] : memref<4xf32, #gpu.address_space<workgroup>>
      }
      gpu.barrier
      %one = arith.constant 1.0 : f32
      %old = memref.atomic_rmw addf %one, %x[%c0] : (f32, memref<4xf32, #gpu.address_space<workgroup>>) -> f32
      %v = memref.load %x[%c0] : memref<4xf32, #gpu.address_space<workgroup>>
      gpu.return
    }
    gpu.func @atomic_barrier_load() workgroup(%x : memref<4xf32, #gpu.address_space<workgroup>>) kernel {
      %c0 = arith.constant 0 : index
      %t0 = gpu.thread_id x
      %zero = arith.constant 0.0 : f32
      %init = arith.cmpi eq, %t0, %c0 : index
      scf.if %init {
        memref.store %zero, %x[%c0] : memref<4xf32, #gpu.address_space<workgroup>>
      }
      gpu.barrier
      %one = arith.constant 1.0 : f32
      %old = memref.atomic_rmw addf %one, %x[%c0] : (f32, memref<4xf32, #gpu.address_space<workgroup>>) -> f32
      gpu.barrier
      %v = memref.load %x[%c0] : memref<4xf32, #gpu.address_space<workgroup>>
      gpu.return
    }
    // Every thread writes word 0 of its own pair, then after a barrier
    // reads word 1 of it, which nothing wrote: on a GPU, what an earlier
    // kernel left (reported once the block ends, as it has no race).
    gpu.func @load_never_written() workgroup(%x : memref<128xf32, #gpu.address_space<workgroup>>) kernel {
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %one = arith.constant 1.0 : f32
      %tid = gpu.thread_id x
      %pair = arith.muli %tid, %c2 : index
      memref.store %one, %x[%pair] : memref<128xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %odd = arith.addi %pair, %c1 : index
      %v = memref.load %x[%odd] : memref<128xf32, #gpu.address_space<workgroup>>
      gpu.return
    }
    // An atomic on a word nothing wrote is not reported: an exchange
    // (atomic_rmw assign) reads nothing, and the emulator does not tell
    // the kinds apart.
    gpu.func @atomic_never_written() workgroup(%x : memref<4xf32, #gpu.address_space<workgroup>>) kernel {
      %c0 = arith.constant 0 : index
      %one = arith.constant 1.0 : f32
      %old = memref.atomic_rmw addf %one, %x[%c0] : (f32, memref<4xf32, #gpu.address_space<workgroup>>) -> f32
      gpu.return
    }
    // Threads 0 and 1 update a word atomically, then thread 1 stores to it:
    // the store races thread 0's atomic though thread 1 wrote last.
    gpu.func @atomics_then_store() workgroup(%x : memref<4xf32, #gpu.address_space<workgroup>>) kernel {
      %c0 = arith.constant 0 : index
      %t0 = gpu.thread_id x
      %zero = arith.constant 0.0 : f32
      %init = arith.cmpi eq, %t0, %c0 : index
      scf.if %init {
        memref.store %zero, %x[%c0] : memref<4xf32, #gpu.address_space<workgroup>>
      }
      gpu.barrier
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %one = arith.constant 1.0 : f32
      %tid = gpu.thread_id x
      %first = arith.cmpi ult, %tid, %c2 : index
      scf.if %first {
        %old = memref.atomic_rmw addf %one, %x[%c0] : (f32, memref<4xf32, #gpu.address_space<workgroup>>) -> f32
      }
      %second = arith.cmpi eq, %tid, %c1 : index
      scf.if %second {
        memref.store %one, %x[%c0] : memref<4xf32, #gpu.address_space<workgroup>>
      }
      gpu.return
    }
    // Masked stores are watched lane by lane: two lanes of four a thread,
    // two elements apart, touch no other thread's bytes; three do.
    gpu.func @masked_apart() workgroup(%x : memref<132xf32, #gpu.address_space<workgroup>>) kernel {
      %c2 = arith.constant 2 : index
      %tid = gpu.thread_id x
      %i = arith.muli %tid, %c2 : index
      %v = arith.constant dense<1.0> : vector<4xf32>
      %m = vector.constant_mask [2] : vector<4xi1>
      vector.maskedstore %x[%i], %m, %v : memref<132xf32, #gpu.address_space<workgroup>>, vector<4xi1>, vector<4xf32>
      gpu.return
    }
    gpu.func @masked_overlap() workgroup(%x : memref<132xf32, #gpu.address_space<workgroup>>) kernel {
      %c2 = arith.constant 2 : index
      %tid = gpu.thread_id x
      %i = arith.muli %tid, %c2 : index
      %v = arith.constant dense<1.0> : vector<4xf32>
      %m = vector.constant_mask [3] : vector<4xi1>
      vector.maskedstore %x[%i], %m, %v : memref<132xf32, #gpu.address_space<workgroup>>, vector<4xi1>, vector<4xf32>
      gpu.return
    }
    // A transfer that may leave the array: its lanes past the end touch
    // nothing (not an out-of-bounds access); those inside are watched.
    gpu.func @transfer_past_end() workgroup(%x : memref<250xf32, #gpu.address_space<workgroup>>) kernel {
      %c4 = arith.constant 4 : index
      %tid = gpu.thread_id x
      %i = arith.muli %tid, %c4 : index
      %v = arith.constant dense<1.0> : vector<4xf32>
      vector.transfer_write %v, %x[%i] {in_bounds = [false]} : vector<4xf32>, memref<250xf32, #gpu.address_space<workgroup>>
      gpu.return
    }
    gpu.func @transfer_past_end_overlap() workgroup(%x : memref<250xf32, #gpu.address_space<workgroup>>) kernel {
      %c2 = arith.constant 2 : index
      %tid = gpu.thread_id x
      %i = arith.muli %tid, %c2 : index
      %v = arith.constant dense<1.0> : vector<4xf32>
      vector.transfer_write %v, %x[%i] {in_bounds = [false]} : vector<4xf32>, memref<250xf32, #gpu.address_space<workgroup>>
      gpu.return
    }
    // n-D: a thread's 2 x 4 transfer at its row of 8 columns, masked to
    // its own row (apart) or taking the next thread's too (a race on byte
    // 32: row 1, column 0); rows past the end (dim 0 may leave) touch
    // nothing, so thread 63's second row is not out of bounds.
    gpu.func @masked2d_apart() workgroup(%x : memref<64x8xf32, #gpu.address_space<workgroup>>) kernel {
      %c0 = arith.constant 0 : index
      %tid = gpu.thread_id x
      %v = arith.constant dense<1.0> : vector<2x4xf32>
      %m = vector.constant_mask [1, 4] : vector<2x4xi1>
      vector.transfer_write %v, %x[%tid, %c0], %m {in_bounds = [false, true]} : vector<2x4xf32>, memref<64x8xf32, #gpu.address_space<workgroup>>
      gpu.return
    }
    gpu.func @masked2d_overlap() workgroup(%x : memref<64x8xf32, #gpu.address_space<workgroup>>) kernel {
      %c0 = arith.constant 0 : index
      %tid = gpu.thread_id x
      %v = arith.constant dense<1.0> : vector<2x4xf32>
      %m = vector.constant_mask [2, 4] : vector<2x4xi1>
      vector.transfer_write %v, %x[%tid, %c0], %m {in_bounds = [false, true]} : vector<2x4xf32>, memref<64x8xf32, #gpu.address_space<workgroup>>
      gpu.return
    }
    // Two rows a thread, two apart: thread 63's second row (127) is past
    // the end, and only that dim may leave.
    gpu.func @transfer2d_past_end() workgroup(%x : memref<127x4xf32, #gpu.address_space<workgroup>>) kernel {
      %c0 = arith.constant 0 : index
      %c2 = arith.constant 2 : index
      %tid = gpu.thread_id x
      %r = arith.muli %tid, %c2 : index
      %v = arith.constant dense<1.0> : vector<2x4xf32>
      vector.transfer_write %v, %x[%r, %c0] {in_bounds = [false, true]} : vector<2x4xf32>, memref<127x4xf32, #gpu.address_space<workgroup>>
      gpu.return
    }
    // Through a subview (the array's last row): a transfer's lanes past the
    // subview's end touch nothing (here they would be past the array's
    // too); lanes that overlap the next thread's race, at the subview's
    // bytes (row 3 starts at byte 768).
    gpu.func @subview_transfer_past_end() workgroup(%x : memref<4x64xf32, #gpu.address_space<workgroup>>) kernel {
      %c2 = arith.constant 2 : index
      %c4 = arith.constant 4 : index
      %tid = gpu.thread_id x
      %row = memref.subview %x[3, 0] [1, 64] [1, 1] : memref<4x64xf32, #gpu.address_space<workgroup>> to memref<64xf32, strided<[1], offset: 192>, #gpu.address_space<workgroup>>
      %i0 = arith.muli %tid, %c4 : index
      %i = arith.addi %i0, %c2 : index
      %v = arith.constant dense<1.0> : vector<4xf32>
      vector.transfer_write %v, %row[%i] {in_bounds = [false]} : vector<4xf32>, memref<64xf32, strided<[1], offset: 192>, #gpu.address_space<workgroup>>
      gpu.return
    }
    gpu.func @subview_transfer_overlap() workgroup(%x : memref<4x64xf32, #gpu.address_space<workgroup>>) kernel {
      %c2 = arith.constant 2 : index
      %tid = gpu.thread_id x
      %row = memref.subview %x[3, 0] [1, 64] [1, 1] : memref<4x64xf32, #gpu.address_space<workgroup>> to memref<64xf32, strided<[1], offset: 192>, #gpu.address_space<workgroup>>
      %i = arith.muli %tid, %c2 : index
      %v = arith.constant dense<1.0> : vector<4xf32>
      vector.transfer_write %v, %row[%i] {in_bounds = [false]} : vector<4xf32>, memref<64xf32, strided<[1], offset: 192>, #gpu.address_space<workgroup>>
      gpu.return
    }
    // A column of a 64 x 4 array (elements 16 bytes apart): each thread
    // stores its element, then reads its own and the next thread's with a
    // two-lane transfer (the last thread's second lane is past the column):
    // thread 1's store overwrites byte 20 (row 1, column 1) that thread 0
    // read - its second lane is 16 bytes on, not 4.
    gpu.func @column_transfer_race() workgroup(%x : memref<64x4xf32, #gpu.address_space<workgroup>>) kernel {
      %one = arith.constant 1.0 : f32
      %pad = arith.constant 0.0 : f32
      %tid = gpu.thread_id x
      %col = memref.subview %x[0, 1] [64, 1] [1, 1] : memref<64x4xf32, #gpu.address_space<workgroup>> to memref<64xf32, strided<[4], offset: 1>, #gpu.address_space<workgroup>>
      memref.store %one, %col[%tid] : memref<64xf32, strided<[4], offset: 1>, #gpu.address_space<workgroup>>
      %r = vector.transfer_read %col[%tid], %pad {in_bounds = [false]} : memref<64xf32, strided<[4], offset: 1>, #gpu.address_space<workgroup>>, vector<2xf32>
      gpu.return
    }

    gpu.func @takes_an_argument(%out: memref<64xf32>) kernel {
      %tid = gpu.thread_id x
      %one = arith.constant 1.0 : f32
      memref.store %one, %out[%tid] : memref<64xf32>
      gpu.return
    }
  }
}
