// The emulator reports a read of LDS bytes nothing in the workgroup wrote
// (on a GPU, what an earlier kernel left there). Writes it cannot place
// must not make a correct kernel fail: a copy row outside any pipeline
// copy (staged, or cp_async with its fence) marks its bytes written, and a
// kernel writing LDS through an access the lowering does not watch (a
// permuted transfer_write) has the report off (kda_emu_lds_unwatched_writes).
// The last kernel reads a word its neighbour never wrote: reported.
// RUN: kda-opt %s --pass-pipeline='builtin.module(gpu.module(kda-lower-atoms),kda-gpu-to-emu,func.func(convert-vector-to-scf,lower-affine,convert-scf-to-cf),convert-vector-to-llvm,convert-arith-to-llvm,expand-strided-metadata,finalize-memref-to-llvm,convert-cf-to-llvm,convert-func-to-llvm,reconcile-unrealized-casts,kda-emu-entry)' | kda-translate --mlir-to-llvmir -o %t.ll
// RUN: %clang -O1 -shared -fPIC -Wno-override-module %t.ll -o %t.so
// RUN: kda-emu-run %t.so bare_row_packed --block 64 | FileCheck %s --check-prefix=SAFE
// RUN: kda-emu-run %t.so transposed_packed --block 64 | FileCheck %s --check-prefix=SAFE
// RUN: not kda-emu-run %t.so half_row_packed --block 64 | FileCheck %s --check-prefix=HALF

// SAFE: race-free: 1 x 1 x 1 blocks of 64 threads
// HALF: LDS bytes never written, in block (0, 0, 0): thread 32 reads byte 512, which nothing in the workgroup wrote before

module attributes {gpu.container_module} {
  gpu.module @kernels attributes {kda.target = #kda.target<"emu">} {
    gpu.func @bare_row()
        workgroup(%lds : memref<1024xi8, #gpu.address_space<workgroup>>)
        private(%src : memref<256xf32, #gpu.address_space<private>>) kernel {
      %c0 = arith.constant 0 : index
      %c4 = arith.constant 4 : index
      kda.copy_row %src[%c0] to %lds[%c0] elems(256) atom(staged) : memref<256xf32, #gpu.address_space<private>>, memref<1024xi8, #gpu.address_space<workgroup>>
      gpu.barrier
      %t = gpu.thread_id x
      %b = arith.muli %t, %c4 : index
      %v = memref.load %lds[%b] : memref<1024xi8, #gpu.address_space<workgroup>>
      gpu.return
    }
    gpu.func @transposed()
        workgroup(%x : memref<8x8xf32, #gpu.address_space<workgroup>>) kernel {
      %c0 = arith.constant 0 : index
      %f = arith.constant 1.0 : f32
      %v = vector.broadcast %f : f32 to vector<8x8xf32>
      %t = gpu.thread_id x
      %z = arith.cmpi eq, %t, %c0 : index
      scf.if %z {
        vector.transfer_write %v, %x[%c0, %c0] {permutation_map = affine_map<(d0, d1) -> (d1, d0)>, in_bounds = [true, true]} : vector<8x8xf32>, memref<8x8xf32, #gpu.address_space<workgroup>>
      }
      gpu.barrier
      %r = memref.load %x[%c0, %c0] : memref<8x8xf32, #gpu.address_space<workgroup>>
      gpu.return
    }
    // The row fills the first 512 bytes (128 floats); threads 32-63 read
    // past it.
    gpu.func @half_row()
        workgroup(%lds : memref<1024xi8, #gpu.address_space<workgroup>>)
        private(%src : memref<256xf32, #gpu.address_space<private>>) kernel {
      %c0 = arith.constant 0 : index
      %c16 = arith.constant 16 : index
      kda.copy_row %src[%c0] to %lds[%c0] elems(128) atom(staged) : memref<256xf32, #gpu.address_space<private>>, memref<1024xi8, #gpu.address_space<workgroup>>
      gpu.barrier
      %t = gpu.thread_id x
      %b = arith.muli %t, %c16 : index
      %v = memref.load %lds[%b] : memref<1024xi8, #gpu.address_space<workgroup>>
      gpu.return
    }
  }
}
