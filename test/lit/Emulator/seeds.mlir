// The regression seeds of PIPELINE-SAFETY.md (test/lit/Pipelines/seeds.mlir,
// rejected there by the verifier) executed on the emulator with verification
// off: its LDS race detector must report each by its own mechanism. Seed 1
// with its w-loop is test/lit/Pipelines/race-detector.mlir. Not here: seed 4
// (the copy of iteration 2 lands, after a barrier, before iteration 0's
// read: ordered accesses, a wrong tile, which byte shadows without tile
// identity cannot see) and seed 6 (LDS capacity, a static budget: the
// emulator's LDS is a host global of any size).
// RUN: kda-opt %s --pass-pipeline='builtin.module(kda-gpu-to-emu,func.func(convert-scf-to-cf),convert-arith-to-llvm,convert-cf-to-llvm,convert-func-to-llvm,reconcile-unrealized-casts,kda-emu-entry)' | kda-translate --mlir-to-llvmir -o %t.ll
// RUN: %clang -O1 -shared -fPIC -Wno-override-module %t.ll -o %t.so
// RUN: not kda-emu-run %t.so seed1_no_trip_count_packed --block 64 | FileCheck %s --check-prefix=SEED1
// RUN: not kda-emu-run %t.so seed2_four_stages_three_buffers_packed --block 64 | FileCheck %s --check-prefix=SEED2
// RUN: not kda-emu-run %t.so seed3_bare_barrier_ping_pong_packed --block 64 | FileCheck %s --check-prefix=SEED3
// RUN: not kda-emu-run %t.so seed5_read_then_overwrite_packed --block 64 | FileCheck %s --check-prefix=SEED5
// The verifier rejects every one of them (its messages: Pipelines/seeds.mlir).
// RUN: not kda-opt %s --kda-verify-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=VERIFY --implicit-check-not=error:

// SEED1: LDS race in block (0, 0, 0): thread 0 ends with the async copy of iteration 2 into bytes [16384, 16512) still in flight
// SEED2: LDS race in block (0, 0, 0): thread 1 reads byte 0 for iteration 0 while the async copy of iteration 3 into it has not landed
// SEED3: LDS race in block (0, 0, 0): thread 0 the register-staged copy of iteration 2 overwrites byte 0 that thread 1 read for iteration 0 without a drain before the barrier (a bare barrier does not order pending LDS reads)
// SEED5: LDS race in block (0, 0, 0): thread 1 reads byte 0 for iteration 0 that thread 0 wrote with no barrier between
// VERIFY: error: R3: {{.*}}'recompute_w_u.u'
// VERIFY: error: R2: {{.*}}'ring'
// VERIFY: error: R1: {{.*}}'ping_pong'
// VERIFY: error: R2: {{.*}}'tilelang'

module attributes {gpu.container_module} {
  gpu.module @seeds {
    kda.lds_buffer @u slots(4) slot_bytes(8192) offset(0)
    kda.lds_buffer @b slots(3) slot_bytes(8192) offset(0)
    kda.lds_buffer @t slots(2) slot_bytes(16384) offset(0)
    kda.lds_buffer @s slots(2) slot_bytes(4096) offset(0)

    // Seed 1 without a trip count: the third prologue copy is never waited
    // for; it is still in flight when the kernel ends (R3).
    gpu.func @seed1_no_trip_count() kernel {
      kda.schedule "recompute_w_u.u" depth(4) target("gfx950") {
        %c0 = arith.constant 0 : index
        %c1 = arith.constant 1 : index
        %c2 = arith.constant 2 : index
        %s0 = kda.ring_slot %c0 of @u
        kda.async_copy @u[%s0] iter(%c0)
        %s1 = kda.ring_slot %c1 of @u
        kda.async_copy @u[%s1] iter(%c1)
        %s2 = kda.ring_slot %c2 of @u
        kda.async_copy @u[%s2] iter(%c2)
        kda.async_wait 2
        kda.lds_barrier
        kda.lds_read @u[%s0] iter(%c0)
        kda.async_wait 1
        kda.lds_barrier
        kda.lds_read @u[%s1] iter(%c1)
        kda.lds_barrier
      }
      gpu.return
    }

    // Seed 2: 4 stages in 3 buffers; the copy of iteration 3 goes into the
    // slot iteration 0 is still reading (R2).
    gpu.func @seed2_four_stages_three_buffers() kernel {
      kda.schedule "ring" trip_count(8) depth(4) target("sm_90") {
        %c0 = arith.constant 0 : index
        %c1 = arith.constant 1 : index
        %c3 = arith.constant 3 : index
        %c5 = arith.constant 5 : index
        scf.for %j = %c0 to %c3 step %c1 {
          %s = kda.ring_slot %j of @b
          kda.async_copy @b[%s] iter(%j)
        }
        scf.for %i = %c0 to %c5 step %c1 {
          kda.async_wait 2
          kda.lds_barrier
          %s = kda.ring_slot %i of @b
          kda.lds_read @b[%s] iter(%i)
          %n = arith.addi %i, %c3 : index
          %sn = kda.ring_slot %n of @b
          kda.async_copy @b[%sn] iter(%n)
        }
        kda.lds_barrier
      }
      gpu.return
    }

    // Seed 3: bare s_barriers around the reads, no lgkmcnt drain; the copy
    // of iteration 2 overwrites the tile iteration 0 read (R2, what the
    // emulator's race detector sees). The verifier reports first that the
    // bare s_barrier after the staged stores does not wait for them (R1).
    gpu.func @seed3_bare_barrier_ping_pong() kernel {
      kda.schedule "ping_pong" trip_count(6) depth(2) target("gfx942") {
        %c0 = arith.constant 0 : index
        %c1 = arith.constant 1 : index
        %c6 = arith.constant 6 : index
        %s0 = kda.ring_slot %c0 of @t
        kda.staged_copy @t[%s0] iter(%c0)
        scf.for %i = %c0 to %c6 step %c1 {
          kda.barrier
          %s = kda.ring_slot %i of @t
          kda.lds_read @t[%s] iter(%i)
          kda.barrier
          %n = arith.addi %i, %c1 : index
          %p = arith.cmpi slt, %n, %c6 : index
          %sn = kda.ring_slot %n of @t
          kda.staged_copy @t[%sn] iter(%n) if(%p)
        }
        kda.lds_barrier
      }
      gpu.return
    }

    // Seed 5: each iteration reads its slot and refills it in the same
    // barrier interval (R2).
    gpu.func @seed5_read_then_overwrite() kernel {
      kda.schedule "tilelang" trip_count(4) depth(2) target("gfx950") {
        %c0 = arith.constant 0 : index
        %c1 = arith.constant 1 : index
        %c2 = arith.constant 2 : index
        %c4 = arith.constant 4 : index
        scf.for %j = %c0 to %c2 step %c1 {
          %s = kda.ring_slot %j of @s
          kda.staged_copy @s[%s] iter(%j)
        }
        scf.for %i = %c0 to %c4 step %c1 {
          kda.lds_barrier
          %s = kda.ring_slot %i of @s
          kda.lds_read @s[%s] iter(%i)
          %n = arith.addi %i, %c2 : index
          %p = arith.cmpi slt, %n, %c4 : index
          %sn = kda.ring_slot %n of @s
          kda.staged_copy @s[%sn] iter(%n) if(%p)
        }
        kda.lds_barrier
      }
      gpu.return
    }
  }
}
