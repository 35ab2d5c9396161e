// Plain LDS loads and stores are checked against the workgroup array they
// index, not only against the workgroup's LDS: on a GPU an index one past an
// array's end reads or overwrites the array laid out after it. Two arrays
// of 64 floats sit side by side; each thread stores its word of the first,
// then reads the word after it: thread 63 reads the second array's first
// word. A vector read that starts in range and runs past the end is caught
// too; typed views of the dynamic LDS are checked against the view.
// RUN: kda-opt %s --pass-pipeline='builtin.module(kda-gpu-to-emu,func.func(convert-scf-to-cf),convert-vector-to-llvm,convert-arith-to-llvm,expand-strided-metadata,finalize-memref-to-llvm,convert-cf-to-llvm,convert-func-to-llvm,reconcile-unrealized-casts,kda-emu-entry)' | kda-translate --mlir-to-llvmir -o %t.ll
// RUN: %clang -O1 -shared -fPIC -Wno-override-module %t.ll -o %t.so
// RUN: not kda-emu-run %t.so past_first_packed --block 64 | FileCheck %s --check-prefix=PAST
// RUN: kda-emu-run %t.so wrapped_packed --block 64 | FileCheck %s --check-prefix=SAFE
// RUN: not kda-emu-run %t.so vector_past_packed --block 64 | FileCheck %s --check-prefix=VPAST
// RUN: not kda-emu-run %t.so dynamic_view_past_packed --block 64 --dynamic-lds 512 | FileCheck %s --check-prefix=DPAST
// RUN: kda-emu-run %t.so flags_i1_packed --block 16 | FileCheck %s --check-prefix=SAFE16
// RUN: not kda-emu-run %t.so flags_i1_past_packed --block 16 | FileCheck %s --check-prefix=I1PAST
// RUN: kda-emu-run %t.so vectors_packed --block 64 | FileCheck %s --check-prefix=SAFE
// RUN: kda-opt %s --kda-gpu-to-emu | FileCheck %s --check-prefix=IR

// PAST: LDS access out of bounds in block (0, 0, 0): thread 63 reads bytes [256, 260) of the 256-byte workgroup array at bytes [0, 256)
// SAFE: race-free: 1 x 1 x 1 blocks of 64 threads
// VPAST: LDS access out of bounds in block (0, 0, 0): thread 61 reads bytes [244, 260) of the 256-byte workgroup array at bytes [0, 256)
// DPAST: LDS access out of bounds in block (0, 0, 0): thread 63 reads bytes [272, 276) of the 256-byte workgroup array at bytes [16, 272)
// Sub-byte elements take a byte each, as LLVM stores them (an array of 64 i1
// is 64 bytes, not 64 * 1 / 8 = 8 or 0); the array after them starts past
// those bytes. Vector elements lie their vector's bytes apart.
// SAFE16: race-free: 1 x 1 x 1 blocks of 16 threads
// I1PAST: LDS access out of bounds in block (0, 0, 0): thread 15 reads bytes [64, 65) of the 64-byte workgroup array at bytes [0, 64)
// IR-LABEL: func.func @past_first
// IR: %[[LO:.*]] = arith.constant 0 : i64
// IR: %[[BYTES:.*]] = arith.constant 256 : i64
// IR: call @kda_emu_lds_store(%{{.*}}, %{{.*}}, %{{.*}}, %[[LO]], %[[BYTES]])
// IR-LABEL: func.func @flags_i1
// IR: %[[I1LO:.*]] = arith.constant 0 : i64
// IR: %[[I1BYTES:.*]] = arith.constant 64 : i64
// IR: call @kda_emu_lds_store(%{{.*}}, %{{.*}}, %{{.*}}, %[[I1LO]], %[[I1BYTES]])
// IR: %[[I4LO:.*]] = arith.constant 64 : i64
// IR: %[[I4BYTES:.*]] = arith.constant 64 : i64
// IR: call @kda_emu_lds_store(%{{.*}}, %{{.*}}, %{{.*}}, %[[I4LO]], %[[I4BYTES]])
// IR-LABEL: func.func @vectors
// IR: %[[VBYTES:.*]] = arith.constant 1024 : i64
// IR: call @kda_emu_lds_store(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[VBYTES]])

module attributes {gpu.container_module} {
  gpu.module @kernels attributes {kda.target = #kda.target<"emu">} {
    gpu.func @past_first() workgroup(%x : memref<64xf32, #gpu.address_space<workgroup>>, %y : memref<64xf32, #gpu.address_space<workgroup>>) kernel {
      %c1 = arith.constant 1 : index
      %tid = gpu.thread_id x
      %i = arith.index_cast %tid : index to i32
      %f = arith.sitofp %i : i32 to f32
      memref.store %f, %x[%tid] : memref<64xf32, #gpu.address_space<workgroup>>
      memref.store %f, %y[%tid] : memref<64xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %n = arith.addi %tid, %c1 : index
      %v = memref.load %x[%n] : memref<64xf32, #gpu.address_space<workgroup>>
      gpu.return
    }
    gpu.func @wrapped() workgroup(%x : memref<64xf32, #gpu.address_space<workgroup>>, %y : memref<64xf32, #gpu.address_space<workgroup>>) kernel {
      %c1 = arith.constant 1 : index
      %c64 = arith.constant 64 : index
      %tid = gpu.thread_id x
      %i = arith.index_cast %tid : index to i32
      %f = arith.sitofp %i : i32 to f32
      memref.store %f, %x[%tid] : memref<64xf32, #gpu.address_space<workgroup>>
      memref.store %f, %y[%tid] : memref<64xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %n = arith.addi %tid, %c1 : index
      %m = arith.remui %n, %c64 : index
      %v = memref.load %x[%m] : memref<64xf32, #gpu.address_space<workgroup>>
      %w = memref.load %y[%m] : memref<64xf32, #gpu.address_space<workgroup>>
      gpu.return
    }
    gpu.func @vector_past() workgroup(%x : memref<64xf32, #gpu.address_space<workgroup>>, %y : memref<64xf32, #gpu.address_space<workgroup>>) kernel {
      %tid = gpu.thread_id x
      %i = arith.index_cast %tid : index to i32
      %f = arith.sitofp %i : i32 to f32
      memref.store %f, %x[%tid] : memref<64xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %v = vector.load %x[%tid] : memref<64xf32, #gpu.address_space<workgroup>>, vector<4xf32>
      gpu.return
    }
    // 16 threads, one flag in each word: the race detector's shadow is
    // word-grained (byte stores of two threads into one word are flagged).
    gpu.func @flags_i1() workgroup(%x : memref<64xi1, #gpu.address_space<workgroup>>, %y : memref<64xi4, #gpu.address_space<workgroup>>) kernel {
      %c4 = arith.constant 4 : index
      %c64 = arith.constant 64 : index
      %tid = gpu.thread_id x
      %e = arith.muli %tid, %c4 : index
      %i = arith.index_cast %tid : index to i1
      %j = arith.index_cast %tid : index to i4
      memref.store %i, %x[%e] : memref<64xi1, #gpu.address_space<workgroup>>
      memref.store %j, %y[%e] : memref<64xi4, #gpu.address_space<workgroup>>
      gpu.barrier
      %n = arith.addi %e, %c4 : index
      %m = arith.remui %n, %c64 : index
      %v = memref.load %x[%m] : memref<64xi1, #gpu.address_space<workgroup>>
      %w = memref.load %y[%m] : memref<64xi4, #gpu.address_space<workgroup>>
      gpu.return
    }
    gpu.func @flags_i1_past() workgroup(%x : memref<64xi1, #gpu.address_space<workgroup>>, %y : memref<64xi1, #gpu.address_space<workgroup>>) kernel {
      %c4 = arith.constant 4 : index
      %tid = gpu.thread_id x
      %e = arith.muli %tid, %c4 : index
      %i = arith.index_cast %tid : index to i1
      memref.store %i, %x[%e] : memref<64xi1, #gpu.address_space<workgroup>>
      memref.store %i, %y[%e] : memref<64xi1, #gpu.address_space<workgroup>>
      gpu.barrier
      %n = arith.addi %e, %c4 : index
      %v = memref.load %x[%n] : memref<64xi1, #gpu.address_space<workgroup>>
      gpu.return
    }
    gpu.func @vectors() workgroup(%x : memref<64xvector<4xf32>, #gpu.address_space<workgroup>>) kernel {
      %c1 = arith.constant 1 : index
      %c64 = arith.constant 64 : index
      %tid = gpu.thread_id x
      %i = arith.index_cast %tid : index to i32
      %f = arith.sitofp %i : i32 to f32
      %v = vector.broadcast %f : f32 to vector<4xf32>
      memref.store %v, %x[%tid] : memref<64xvector<4xf32>, #gpu.address_space<workgroup>>
      gpu.barrier
      %n = arith.addi %tid, %c1 : index
      %m = arith.remui %n, %c64 : index
      %w = memref.load %x[%m] : memref<64xvector<4xf32>, #gpu.address_space<workgroup>>
      gpu.return
    }
    gpu.func @dynamic_view_past() kernel attributes {kda.dynamic_lds_bytes = 512 : i64} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c16 = arith.constant 16 : index
      %lds = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %view = memref.view %lds[%c16][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<64xf32, #gpu.address_space<workgroup>>
      %tid = gpu.thread_id x
      %i = arith.index_cast %tid : index to i32
      %f = arith.sitofp %i : i32 to f32
      memref.store %f, %view[%tid] : memref<64xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %n = arith.addi %tid, %c1 : index
      %v = memref.load %view[%n] : memref<64xf32, #gpu.address_space<workgroup>>
      gpu.return
    }
  }
}
