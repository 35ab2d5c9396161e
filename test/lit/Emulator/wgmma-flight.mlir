// The emulator's check of a warpgroup atom's flight (kda_emu_wgmma): the B
// bytes it read at issue must be unchanged at every lane's kda.wgmma_wait
// covering its group. A store into B by any lane of the wave before its
// own wait is an error, whichever lane (lane 0 runs to its wait before lane
// 5 runs at all); after its wait a lane's stores are free, though later
// lanes of its wave have yet to reach theirs. These kernels bypass
// kda-verify-pipeline, which refuses the first two (R2).
// RUN: kda-opt %s --pass-pipeline='builtin.module(gpu.module(kda-lower-atoms),kda-gpu-to-emu,func.func(convert-scf-to-cf),convert-vector-to-llvm,convert-arith-to-llvm,expand-strided-metadata,finalize-memref-to-llvm,convert-cf-to-llvm,convert-func-to-llvm,reconcile-unrealized-casts,kda-emu-entry)' | kda-translate --mlir-to-llvmir -o %t.ll
// RUN: %clang -O1 -shared -fPIC -Wno-override-module %t.ll -o %t.so
// RUN: not kda-emu-run %t.so writer0_packed --block 128 --wave 32 --dynamic-lds 4096 2>&1 | FileCheck %s --check-prefix=LANE0
// RUN: not kda-emu-run %t.so writer5_packed --block 128 --wave 32 --dynamic-lds 4096 2>&1 | FileCheck %s --check-prefix=LANE5
// RUN: kda-emu-run %t.so after_wait_packed --block 128 --wave 32 --dynamic-lds 4096 2>&1 | FileCheck %s --check-prefix=AFTER

// LANE0: kda.wgmma in block (0, 0, 0), wave 0: thread 0 writes LDS bytes [0, 2) of its B operand before its kda.wgmma_wait covering the atom's group
// LANE5: kda.wgmma in block (0, 0, 0), wave 0: thread 5 writes LDS bytes [0, 2) of its B operand before its kda.wgmma_wait covering the atom's group
// AFTER: race-free

!lds = memref<?xi8, #gpu.address_space<workgroup>>
!acc = vector<32xf32>
module attributes {gpu.container_module} {
  gpu.module @kernels attributes {kda.target = #kda.target<"emu32">} {
    gpu.func @writer0() kernel attributes {known_block_size = array<i32: 128, 1, 1>, kda.dynamic_lds_bytes = 4096 : i64} {
      %lds = gpu.dynamic_shared_memory : !lds
      %o = arith.constant 0 : index
      %a = arith.constant dense<1.0> : vector<8xbf16>
      %c = arith.constant dense<0.0> : !acc
      %tid = gpu.thread_id x
      %sel = arith.constant 0 : index
      %d = kda.wgmma %a, %lds[%o], %c {kind = #kda.mma_kind<wgmma_f32_64x64x16_bf16>, lbo = 128, sbo = 256} : vector<8xbf16>, !lds, !acc -> !acc
      kda.wgmma_commit
      %p = arith.cmpi eq, %tid, %sel : index
      scf.if %p {
        %x = arith.constant 3.0 : bf16
        %view = memref.view %lds[%o][] : !lds to memref<2048xbf16, #gpu.address_space<workgroup>>
        memref.store %x, %view[%o] : memref<2048xbf16, #gpu.address_space<workgroup>>
      }
      %r = kda.wgmma_wait %d {pending = 0} : !acc
      gpu.return
    }
    gpu.func @writer5() kernel attributes {known_block_size = array<i32: 128, 1, 1>, kda.dynamic_lds_bytes = 4096 : i64} {
      %lds = gpu.dynamic_shared_memory : !lds
      %o = arith.constant 0 : index
      %a = arith.constant dense<1.0> : vector<8xbf16>
      %c = arith.constant dense<0.0> : !acc
      %tid = gpu.thread_id x
      %sel = arith.constant 5 : index
      %d = kda.wgmma %a, %lds[%o], %c {kind = #kda.mma_kind<wgmma_f32_64x64x16_bf16>, lbo = 128, sbo = 256} : vector<8xbf16>, !lds, !acc -> !acc
      kda.wgmma_commit
      %p = arith.cmpi eq, %tid, %sel : index
      scf.if %p {
        %x = arith.constant 3.0 : bf16
        %view = memref.view %lds[%o][] : !lds to memref<2048xbf16, #gpu.address_space<workgroup>>
        memref.store %x, %view[%o] : memref<2048xbf16, #gpu.address_space<workgroup>>
      }
      %r = kda.wgmma_wait %d {pending = 0} : !acc
      gpu.return
    }
    gpu.func @after_wait() kernel attributes {known_block_size = array<i32: 128, 1, 1>, kda.dynamic_lds_bytes = 4096 : i64} {
      %lds = gpu.dynamic_shared_memory : !lds
      %o = arith.constant 0 : index
      %a = arith.constant dense<1.0> : vector<8xbf16>
      %c = arith.constant dense<0.0> : !acc
      %tid = gpu.thread_id x
      %sel = arith.constant 0 : index
      %d = kda.wgmma %a, %lds[%o], %c {kind = #kda.mma_kind<wgmma_f32_64x64x16_bf16>, lbo = 128, sbo = 256} : vector<8xbf16>, !lds, !acc -> !acc
      kda.wgmma_commit
      %r = kda.wgmma_wait %d {pending = 0} : !acc
      %p = arith.cmpi eq, %tid, %sel : index
      scf.if %p {
        %x = arith.constant 3.0 : bf16
        %view = memref.view %lds[%o][] : !lds to memref<2048xbf16, #gpu.address_space<workgroup>>
        memref.store %x, %view[%o] : memref<2048xbf16, #gpu.address_space<workgroup>>
      }
      gpu.return
    }
  }
}
