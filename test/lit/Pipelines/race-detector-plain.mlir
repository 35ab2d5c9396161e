// The race detector also watches loads and stores that index workgroup
// memory directly (the recurrent kernel's cross-wave exchange is such
// memory): each thread writes its word, then reads its neighbour's. Without a
// barrier between, thread 0's read and thread 1's later store race (WAR);
// with gpu.barrier (a drained barrier) the kernel is race-free, also when the
// next round writes the same words after a second barrier. Vector loads
// are watched over their whole width: a thread's 16-byte read of four
// words races with the stores of the three threads beside it unless a
// barrier separates them. Typed views of the dynamic LDS at a constant
// offset (the chunk kernels' arrays) are watched at that offset.
// RUN: kda-opt %s --pass-pipeline='builtin.module(kda-gpu-to-emu,func.func(convert-scf-to-cf),convert-vector-to-llvm,convert-arith-to-llvm,expand-strided-metadata,finalize-memref-to-llvm,convert-cf-to-llvm,convert-func-to-llvm,reconcile-unrealized-casts,kda-emu-entry)' | kda-translate --mlir-to-llvmir -o %t.ll
// RUN: %clang -O1 -shared -fPIC -Wno-override-module %t.ll -o %t.so
// RUN: not kda-emu-run %t.so no_barrier_packed --block 64 | FileCheck %s --check-prefix=RACE
// RUN: kda-emu-run %t.so with_barrier_packed --block 64 | FileCheck %s --check-prefix=SAFE
// RUN: not kda-emu-run %t.so reuse_without_barrier_packed --block 64 | FileCheck %s --check-prefix=REUSE
// RUN: not kda-emu-run %t.so vector_no_barrier_packed --block 64 | FileCheck %s --check-prefix=VRACE
// RUN: kda-emu-run %t.so vector_with_barrier_packed --block 64 | FileCheck %s --check-prefix=SAFE
// RUN: not kda-emu-run %t.so dynamic_view_no_barrier_packed --block 64 --dynamic-lds 272 | FileCheck %s --check-prefix=DRACE
// RUN: kda-opt %s --kda-gpu-to-emu | FileCheck %s --check-prefix=IR

// RACE: LDS race in block (0, 0, 0): thread 1 the store overwrites byte 4 that thread 0 read with no barrier between
// SAFE: race-free: 1 x 1 x 1 blocks of 64 threads
// REUSE: LDS race in block (0, 0, 0): thread 1 the store overwrites byte 4 that thread 0 read with no barrier between
// VRACE: LDS race in block (0, 0, 0): thread 1 the store overwrites byte 4 that thread 0 read with no barrier between
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
  }
}
