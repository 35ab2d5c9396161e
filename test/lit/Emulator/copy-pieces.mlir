// kda.copy_piece on emu32 (sm_90's cp.async semantics) executed: each of 64
// threads copies a 16-byte piece of its private row into LDS (zeros where
// it is not valid: threads 32 and up), fences, and after a barrier checks
// its neighbour's piece; a wrong value is stored one past the array, which
// the emulator reports. Without the fence the pieces never land; read by
// the neighbour before the barrier, the race detector holds them as the
// copy's from their issue.
// RUN: kda-opt %s --pass-pipeline='builtin.module(gpu.module(kda-lower-atoms),kda-gpu-to-emu,func.func(convert-scf-to-cf),convert-vector-to-llvm,convert-arith-to-llvm,expand-strided-metadata,finalize-memref-to-llvm,convert-cf-to-llvm,convert-func-to-llvm,reconcile-unrealized-casts,kda-emu-entry)' | kda-translate --mlir-to-llvmir -o %t.ll
// RUN: %clang -O1 -shared -fPIC -Wno-override-module %t.ll -o %t.so
// RUN: kda-emu-run %t.so landed_packed --block 64 --wave 32 | FileCheck %s --check-prefix=LANDED
// RUN: not kda-emu-run %t.so unfenced_packed --block 64 --wave 32 | FileCheck %s --check-prefix=UNFENCED
// RUN: not kda-emu-run %t.so early_packed --block 64 --wave 32 | FileCheck %s --check-prefix=EARLY

// LANDED: race-free: 1 x 1 x 1 blocks of 64 threads
// UNFENCED: LDS access out of bounds in block (0, 0, 0): thread {{[0-9]+}} writes bytes [1024, 1028) of the 1024-byte workgroup array at bytes [0, 1024)
// EARLY: LDS race in block (0, 0, 0): thread {{[0-9]+}} the store overwrites byte {{[0-9]+}} that thread {{[0-9]+}} read with no barrier between

module attributes {gpu.container_module} {
  gpu.module @kernels attributes {kda.target = #kda.target<"emu32">} {
    gpu.func @landed()
        workgroup(%lds : memref<256xf32, #gpu.address_space<workgroup>>)
        private(%row : memref<4xf32, #gpu.address_space<private>>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c32 = arith.constant 32 : index
      %c64 = arith.constant 64 : index
      %c256 = arith.constant 256 : index
      %tid = gpu.thread_id x
      // Row element i of thread t is 4 t + i + 1.
      scf.for %i = %c0 to %c4 step %c1 {
        %e = arith.muli %tid, %c4 : index
        %e1 = arith.addi %e, %i : index
        %e2 = arith.addi %e1, %c1 : index
        %ei = arith.index_cast %e2 : index to i32
        %ef = arith.sitofp %ei : i32 to f32
        memref.store %ef, %row[%i] : memref<4xf32, #gpu.address_space<private>>
      }
      %at = arith.muli %tid, %c4 : index
      %valid = arith.cmpi ult, %tid, %c32 : index
      kda.copy_piece %row[%c0] to %lds[%at] if (%valid) atom(cp_async) : memref<4xf32, #gpu.address_space<private>>, memref<256xf32, #gpu.address_space<workgroup>>
      kda.copy_fence
      gpu.barrier
      // The neighbour's third element: 4 n + 3, or 0 past thread 31.
      %n0 = arith.addi %tid, %c1 : index
      %n = arith.remui %n0, %c64 : index
      %n4 = arith.muli %n, %c4 : index
      %c2 = arith.constant 2 : index
      %j = arith.addi %n4, %c2 : index
      %x = memref.load %lds[%j] : memref<256xf32, #gpu.address_space<workgroup>>
      %j1 = arith.addi %j, %c1 : index
      %ji = arith.index_cast %j1 : index to i32
      %jf = arith.sitofp %ji : i32 to f32
      %zero = arith.constant 0.0 : f32
      %nvalid = arith.cmpi ult, %n, %c32 : index
      %want = arith.select %nvalid, %jf, %zero : f32
      %bad = arith.cmpf une, %x, %want : f32
      scf.if %bad {
        memref.store %x, %lds[%c256] : memref<256xf32, #gpu.address_space<workgroup>>
      }
      gpu.return
    }
    // No fence: the pieces stay in flight (on the chip they may land any
    // time; here never), so the neighbours read stale LDS.
    gpu.func @unfenced()
        workgroup(%lds : memref<256xf32, #gpu.address_space<workgroup>>)
        private(%row : memref<4xf32, #gpu.address_space<private>>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c64 = arith.constant 64 : index
      %c256 = arith.constant 256 : index
      %one = arith.constant 1.0 : f32
      %tid = gpu.thread_id x
      scf.for %i = %c0 to %c4 step %c1 {
        memref.store %one, %row[%i] : memref<4xf32, #gpu.address_space<private>>
      }
      %at = arith.muli %tid, %c4 : index
      %true = arith.constant true
      kda.copy_piece %row[%c0] to %lds[%at] if (%true) atom(cp_async) : memref<4xf32, #gpu.address_space<private>>, memref<256xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %n0 = arith.addi %tid, %c1 : index
      %n = arith.remui %n0, %c64 : index
      %n4 = arith.muli %n, %c4 : index
      %x = memref.load %lds[%n4] : memref<256xf32, #gpu.address_space<workgroup>>
      %bad = arith.cmpf une, %x, %one : f32
      scf.if %bad {
        memref.store %x, %lds[%c256] : memref<256xf32, #gpu.address_space<workgroup>>
      }
      kda.copy_fence
      gpu.return
    }
    // The neighbour's piece read before the barrier, after its own fence.
    gpu.func @early()
        workgroup(%lds : memref<256xf32, #gpu.address_space<workgroup>>)
        private(%row : memref<4xf32, #gpu.address_space<private>>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c64 = arith.constant 64 : index
      %one = arith.constant 1.0 : f32
      %tid = gpu.thread_id x
      scf.for %i = %c0 to %c4 step %c1 {
        memref.store %one, %row[%i] : memref<4xf32, #gpu.address_space<private>>
      }
      %at = arith.muli %tid, %c4 : index
      %true = arith.constant true
      kda.copy_piece %row[%c0] to %lds[%at] if (%true) atom(cp_async) : memref<4xf32, #gpu.address_space<private>>, memref<256xf32, #gpu.address_space<workgroup>>
      kda.copy_fence
      %n0 = arith.addi %tid, %c1 : index
      %n = arith.remui %n0, %c64 : index
      %n4 = arith.muli %n, %c4 : index
      %x = memref.load %lds[%n4] : memref<256xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      gpu.return
    }
  }
}
