// The emulator's race detector tags every LDS word with the buffer and
// iteration of its last write and checks, at each pipeline read, the tile the
// schedule names: schedules whose every byte is written and fenced but which
// read the wrong iteration, or a tile another buffer overwrote through shared
// bytes, are reported when executed with verification off (and rejected by
// kda-verify-pipeline). The fixed schedule runs race-free.
// RUN: kda-opt %s --pass-pipeline='builtin.module(kda-gpu-to-emu,func.func(convert-scf-to-cf),convert-arith-to-llvm,convert-cf-to-llvm,convert-func-to-llvm,reconcile-unrealized-casts,kda-emu-entry)' | kda-translate --mlir-to-llvmir -o %t.ll
// RUN: %clang -O1 -shared -fPIC -Wno-override-module %t.ll -o %t.so
// RUN: not kda-emu-run %t.so wrong_tile_packed --block 64 | FileCheck %s --check-prefix=TILE
// RUN: not kda-emu-run %t.so aliased_packed --block 64 | FileCheck %s --check-prefix=ALIAS
// RUN: not kda-emu-run %t.so async_aliased_packed --block 64 --wave 32 | FileCheck %s --check-prefix=ASYNC
// RUN: kda-emu-run %t.so fixed_packed --block 64 | FileCheck %s --check-prefix=SAFE
// RUN: not kda-opt %s --kda-verify-pipeline 2>&1 | FileCheck %s --check-prefix=VERIFY
// RUN: kda-opt %s --kda-gpu-to-emu | FileCheck %s --check-prefix=IR

// TILE: LDS race in block (0, 0, 0): thread 0 reads byte 0 of @r for iteration 1, but it holds the tile of iteration 0 (written by thread 0): the wrong tile
// ALIAS: LDS race in block (0, 0, 0): thread 0 reads byte 0 of @k for iteration 0, but @v's copy of iteration 0 (thread 0) overwrote it: @k and @v share LDS bytes while both are live
// ASYNC: LDS race in block (0, 0, 0): thread 0 reads byte 1024 of @a for iteration 1, but @b's copy of iteration 0 (thread 0) overwrote it: @a and @b share LDS bytes while both are live
// SAFE: race-free: 1 x 1 x 1 blocks of 64 threads
// VERIFY-DAG: error: R1: iteration 1 reads @r slot 0, which holds iteration 0's tile: no copy of iteration 1 into that slot precedes the read (pipeline 'wrong_tile' at depth 2)
// VERIFY-DAG: error: R2: iteration 0 reads @k slot 0, but @v's copy of iteration 0 into @v slot 0 has overwritten bytes [0, 1024) of it: @k and @v share bytes while both are live (pipeline 'aliased' at depth 1)
// VERIFY-DAG: error: R2: iteration 1 reads @a slot 1, but @b's copy of iteration 0 into @b slot 0 has overwritten bytes [1024, 2048) of it: @a and @b share bytes while both are live (pipeline 'async_aliased' at depth 2)
// IR: llvm.mlir.global internal constant @kda_emu_buffer_r("r\00")
// IR-LABEL: func.func @wrong_tile
// IR: %[[NAME:.*]] = llvm.mlir.addressof @kda_emu_buffer_r
// IR: call @kda_emu_lds_write(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[NAME]], %{{.*}}, %{{.*}})

module attributes {gpu.container_module} {
  gpu.module @kernels attributes {kda.target = #kda.target<"emu32">} {
    kda.lds_buffer @r slots(2) slot_bytes(1024) offset(0)
    kda.lds_buffer @k slots(1) slot_bytes(1024) offset(0)
    kda.lds_buffer @v slots(1) slot_bytes(1024) offset(0)
    kda.lds_buffer @a slots(2) slot_bytes(1024) offset(0)
    kda.lds_buffer @b slots(1) slot_bytes(1024) offset(1024)
    // Every read names the next iteration of the slot it reads.
    gpu.func @wrong_tile() kernel {
      kda.schedule "wrong_tile" trip_count(4) depth(2) target("emu32") {
        %c0 = arith.constant 0 : index
        %c1 = arith.constant 1 : index
        %c4 = arith.constant 4 : index
        kda.staged_copy @r[%c0] iter(%c0)
        scf.for %i = %c0 to %c4 step %c1 {
          kda.lds_barrier
          %s = kda.ring_slot %i of @r
          %n = arith.addi %i, %c1 : index
          kda.lds_read @r[%s] iter(%n)
          %p = arith.cmpi slt, %n, %c4 : index
          %sn = kda.ring_slot %n of @r
          kda.staged_copy @r[%sn] iter(%n) if(%p)
        }
        kda.lds_barrier
      }
      gpu.return
    }
    // @v over @k's bytes while @k's tile is still to be read; all fenced.
    gpu.func @aliased() kernel {
      kda.schedule "aliased" trip_count(1) depth(1) target("emu32") {
        %c0 = arith.constant 0 : index
        kda.staged_copy @k[%c0] iter(%c0)
        kda.lds_barrier
        kda.staged_copy @v[%c0] iter(%c0)
        kda.lds_barrier
        kda.lds_read @k[%c0] iter(%c0)
        kda.lds_read @v[%c0] iter(%c0)
        kda.lds_barrier
      }
      gpu.return
    }
    // An async copy of @b lands on @a's second slot; waited for and fenced.
    gpu.func @async_aliased() kernel {
      kda.schedule "async_aliased" trip_count(2) depth(2) target("emu32") {
        %c0 = arith.constant 0 : index
        %c1 = arith.constant 1 : index
        kda.async_copy @a[%c0] iter(%c0)
        kda.async_copy @a[%c1] iter(%c1)
        kda.async_wait 0
        kda.lds_barrier
        kda.async_copy @b[%c0] iter(%c0)
        kda.async_wait 0
        kda.lds_barrier
        kda.lds_read @a[%c0] iter(%c0)
        kda.lds_read @a[%c1] iter(%c1)
        kda.lds_read @b[%c0] iter(%c0)
        kda.lds_barrier
      }
      gpu.return
    }
    // The ring read correctly.
    gpu.func @fixed() kernel {
      kda.schedule "fixed" trip_count(4) depth(2) target("emu32") {
        %c0 = arith.constant 0 : index
        %c1 = arith.constant 1 : index
        %c4 = arith.constant 4 : index
        kda.staged_copy @r[%c0] iter(%c0)
        scf.for %i = %c0 to %c4 step %c1 {
          kda.lds_barrier
          %s = kda.ring_slot %i of @r
          kda.lds_read @r[%s] iter(%i)
          %n = arith.addi %i, %c1 : index
          %p = arith.cmpi slt, %n, %c4 : index
          %sn = kda.ring_slot %n of @r
          kda.staged_copy @r[%sn] iter(%n) if(%p)
        }
        kda.lds_barrier
      }
      gpu.return
    }
  }
}
