// One schedule per hazard class of PIPELINE-SAFETY.md, each executed on the
// emulator with verification off next to its repaired twin: the race
// detector names the class (its own message), the twin runs race-free. The
// verifier rejects each bad schedule and accepts each twin.
// RUN: kda-opt %s --pass-pipeline='builtin.module(kda-gpu-to-emu,func.func(convert-scf-to-cf),convert-arith-to-llvm,convert-cf-to-llvm,convert-func-to-llvm,reconcile-unrealized-casts,kda-emu-entry)' | kda-translate --mlir-to-llvmir -o %t.ll
// RUN: %clang -O1 -shared -fPIC -Wno-override-module %t.ll -o %t.so
// RUN: not kda-emu-run %t.so wait_count_too_high_packed --block 64 | FileCheck %s --check-prefix=WAIT
// RUN: kda-emu-run %t.so wait_count_right_packed --block 64 | FileCheck %s --check-prefix=SAFE
// RUN: not kda-emu-run %t.so no_wait_packed --block 64 | FileCheck %s --check-prefix=NOWAIT
// RUN: not kda-emu-run %t.so bare_barrier_packed --block 64 | FileCheck %s --check-prefix=BARE
// RUN: kda-emu-run %t.so drained_barrier_packed --block 64 | FileCheck %s --check-prefix=SAFE
// RUN: kda-emu-run %t.so drain_then_bare_barrier_packed --block 64 | FileCheck %s --check-prefix=SAFE
// RUN: not kda-emu-run %t.so copy_read_no_barrier_packed --block 64 | FileCheck %s --check-prefix=COPYREAD
// RUN: not kda-emu-run %t.so read_refill_no_barrier_packed --block 64 | FileCheck %s --check-prefix=READREFILL
// RUN: not kda-emu-run %t.so no_drain_at_exit_packed --block 64 | FileCheck %s --check-prefix=EXIT
// RUN: kda-emu-run %t.so drain_at_exit_packed --block 64 | FileCheck %s --check-prefix=SAFE
// RUN: not kda-emu-run %t.so copy_over_copy_in_flight_packed --block 64 | FileCheck %s --check-prefix=WAW
// RUN: kda-emu-run %t.so predicated_off_copy_packed --block 64 | FileCheck %s --check-prefix=SAFE
// RUN: not kda-opt %s --kda-verify-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=VERIFY --implicit-check-not=error:

// WAIT: LDS race in block (0, 0, 0): thread 0 reads byte 0 for iteration 0 while the async copy of iteration 0 into it has not landed
// NOWAIT: LDS race in block (0, 0, 0): thread 0 reads byte 0 for iteration 0 while the async copy of iteration 0 into it has not landed
// BARE: LDS race in block (0, 0, 0): thread 0 the register-staged copy of iteration 2 overwrites byte 0 that thread 1 read for iteration 0 without a drain before the barrier (a bare barrier does not order pending LDS reads)
// The emulator runs a barrier interval thread by thread: thread 0 reads the
// whole tile before thread 1 writes its part of the copy (the detector's
// tile tags report it at the read: those bytes hold no tile yet), and
// thread 1 reads the part thread 0 refilled.
// COPYREAD: LDS race in block (0, 0, 0): thread 0 reads byte 64 of @a for iteration 0, which nothing has written
// READREFILL: LDS race in block (0, 0, 0): thread 1 reads byte 0 for iteration 0 that thread 0 wrote with no barrier between
// EXIT: LDS race in block (0, 0, 0): thread 0 ends with the async copy of iteration 3 into bytes [4096, 4160) still in flight
// WAW: LDS race in block (0, 0, 0): thread 0 the async copy of iteration 2 into bytes [0, 64) while an async copy of iteration 0 into them is still in flight
// SAFE: race-free: 1 x 1 x 1 blocks of 64 threads

// The verifier: each bad schedule by its rule, no twin.
// VERIFY: error: R5: {{.*}}'wait_high'
// VERIFY: error: R1: {{.*}}'no_wait'
// VERIFY: error: R2: {{.*}}only a bare barrier follows that read{{.*}}'bare'
// VERIFY: error: R1: {{.*}}'raw'
// VERIFY: error: R2: {{.*}}'war'
// VERIFY: error: R4: {{.*}}'exit'
// VERIFY: error: R2: {{.*}}still in flight{{.*}}'waw'

module attributes {gpu.container_module} {
  gpu.module @rules {
    kda.lds_buffer @a slots(2) slot_bytes(4096) offset(0)

    // sm_90 ring of 2: copies of iterations 0 and 1 in flight; reading
    // iteration 0 needs wait_group 1. wait_group 2 waits for nothing.
    gpu.func @wait_count_too_high() kernel {
      kda.schedule "wait_high" trip_count(2) depth(2) target("sm_90") {
        %c0 = arith.constant 0 : index
        %c1 = arith.constant 1 : index
        kda.async_copy @a[%c0] iter(%c0)
        kda.async_copy @a[%c1] iter(%c1)
        kda.async_wait 2
        kda.lds_barrier
        kda.lds_read @a[%c0] iter(%c0)
        kda.async_wait 0
        kda.lds_barrier
        kda.lds_read @a[%c1] iter(%c1)
        kda.lds_barrier
      }
      gpu.return
    }
    gpu.func @wait_count_right() kernel {
      kda.schedule "wait_right" trip_count(2) depth(2) target("sm_90") {
        %c0 = arith.constant 0 : index
        %c1 = arith.constant 1 : index
        kda.async_copy @a[%c0] iter(%c0)
        kda.async_copy @a[%c1] iter(%c1)
        kda.async_wait 1
        kda.lds_barrier
        kda.lds_read @a[%c0] iter(%c0)
        kda.async_wait 0
        kda.lds_barrier
        kda.lds_read @a[%c1] iter(%c1)
        kda.lds_barrier
      }
      gpu.return
    }

    // No wait at all: the barrier alone does not land an async copy.
    gpu.func @no_wait() kernel {
      kda.schedule "no_wait" trip_count(1) depth(1) target("sm_90") {
        %c0 = arith.constant 0 : index
        kda.async_copy @a[%c0] iter(%c0)
        kda.lds_barrier
        kda.lds_read @a[%c0] iter(%c0)
        kda.async_wait 0
        kda.lds_barrier
      }
      gpu.return
    }

    // gfx942 register-staged ring of 2, 4 iterations: the refill of slot 0
    // (iteration 2) follows iteration 0's read across a bare s_barrier.
    gpu.func @bare_barrier() kernel {
      kda.schedule "bare" trip_count(4) depth(2) target("gfx942") {
        %c0 = arith.constant 0 : index
        %c1 = arith.constant 1 : index
        %c2 = arith.constant 2 : index
        %c4 = arith.constant 4 : index
        kda.staged_copy @a[%c0] iter(%c0)
        kda.staged_copy @a[%c1] iter(%c1)
        scf.for %i = %c0 to %c4 step %c1 {
          kda.lds_barrier
          %s = kda.ring_slot %i of @a
          kda.lds_read @a[%s] iter(%i)
          kda.barrier
          %n = arith.addi %i, %c2 : index
          %p = arith.cmpi slt, %n, %c4 : index
          %sn = kda.ring_slot %n of @a
          kda.staged_copy @a[%sn] iter(%n) if(%p)
        }
        kda.lds_barrier
      }
      gpu.return
    }
    gpu.func @drained_barrier() kernel {
      kda.schedule "drained" trip_count(4) depth(2) target("gfx942") {
        %c0 = arith.constant 0 : index
        %c1 = arith.constant 1 : index
        %c2 = arith.constant 2 : index
        %c4 = arith.constant 4 : index
        kda.staged_copy @a[%c0] iter(%c0)
        kda.staged_copy @a[%c1] iter(%c1)
        scf.for %i = %c0 to %c4 step %c1 {
          kda.lds_barrier
          %s = kda.ring_slot %i of @a
          kda.lds_read @a[%s] iter(%i)
          kda.lds_barrier
          %n = arith.addi %i, %c2 : index
          %p = arith.cmpi slt, %n, %c4 : index
          %sn = kda.ring_slot %n of @a
          kda.staged_copy @a[%sn] iter(%n) if(%p)
        }
        kda.lds_barrier
      }
      gpu.return
    }
    // The same repair spelled as its two atoms: lgkmcnt(0), then s_barrier.
    gpu.func @drain_then_bare_barrier() kernel {
      kda.schedule "drain_bare" trip_count(4) depth(2) target("gfx942") {
        %c0 = arith.constant 0 : index
        %c1 = arith.constant 1 : index
        %c2 = arith.constant 2 : index
        %c4 = arith.constant 4 : index
        kda.staged_copy @a[%c0] iter(%c0)
        kda.staged_copy @a[%c1] iter(%c1)
        scf.for %i = %c0 to %c4 step %c1 {
          kda.lds_barrier
          %s = kda.ring_slot %i of @a
          kda.lds_read @a[%s] iter(%i)
          kda.lds_drain
          kda.barrier
          %n = arith.addi %i, %c2 : index
          %p = arith.cmpi slt, %n, %c4 : index
          %sn = kda.ring_slot %n of @a
          kda.staged_copy @a[%sn] iter(%n) if(%p)
        }
        kda.lds_barrier
      }
      gpu.return
    }

    // Missing barrier between a register-staged copy and its read.
    gpu.func @copy_read_no_barrier() kernel {
      kda.schedule "raw" trip_count(1) depth(1) target("gfx942") {
        %c0 = arith.constant 0 : index
        kda.staged_copy @a[%c0] iter(%c0)
        kda.lds_read @a[%c0] iter(%c0)
        kda.lds_barrier
      }
      gpu.return
    }

    // Missing barrier between a read and the refill of its slot.
    gpu.func @read_refill_no_barrier() kernel {
      kda.schedule "war" trip_count(4) depth(2) target("gfx942") {
        %c0 = arith.constant 0 : index
        %c1 = arith.constant 1 : index
        %c2 = arith.constant 2 : index
        kda.staged_copy @a[%c0] iter(%c0)
        kda.staged_copy @a[%c1] iter(%c1)
        kda.lds_barrier
        kda.lds_read @a[%c0] iter(%c0)
        kda.staged_copy @a[%c0] iter(%c2)
        kda.lds_barrier
      }
      gpu.return
    }

    // A loop that prefetches one iteration ahead and exits without
    // wait_group 0: the last prefetch is still in flight at the end.
    gpu.func @no_drain_at_exit() kernel {
      kda.schedule "exit" trip_count(3) depth(2) target("sm_90") {
        %c0 = arith.constant 0 : index
        %c1 = arith.constant 1 : index
        %c3 = arith.constant 3 : index
        kda.async_copy @a[%c0] iter(%c0)
        scf.for %i = %c0 to %c3 step %c1 {
          %n = arith.addi %i, %c1 : index
          %sn = kda.ring_slot %n of @a
          kda.async_copy @a[%sn] iter(%n)
          kda.async_wait 1
          kda.lds_barrier
          %s = kda.ring_slot %i of @a
          kda.lds_read @a[%s] iter(%i)
          kda.lds_barrier
        }
      }
      gpu.return
    }
    gpu.func @drain_at_exit() kernel {
      kda.schedule "exit_ok" trip_count(3) depth(2) target("sm_90") {
        %c0 = arith.constant 0 : index
        %c1 = arith.constant 1 : index
        %c3 = arith.constant 3 : index
        kda.async_copy @a[%c0] iter(%c0)
        scf.for %i = %c0 to %c3 step %c1 {
          %n = arith.addi %i, %c1 : index
          %p = arith.cmpi slt, %n, %c3 : index
          %sn = kda.ring_slot %n of @a
          kda.async_copy @a[%sn] iter(%n) if(%p)
          kda.async_wait 1
          kda.lds_barrier
          %s = kda.ring_slot %i of @a
          kda.lds_read @a[%s] iter(%i)
          kda.lds_barrier
        }
        kda.async_wait 0
      }
      gpu.return
    }

    // Two async copies into one slot, the first not yet landed (WAW).
    gpu.func @copy_over_copy_in_flight() kernel {
      kda.schedule "waw" trip_count(3) depth(2) target("sm_90") {
        %c0 = arith.constant 0 : index
        %c2 = arith.constant 2 : index
        kda.async_copy @a[%c0] iter(%c0)
        kda.async_copy @a[%c0] iter(%c2)
        kda.async_wait 0
        kda.lds_barrier
      }
      gpu.return
    }

    // A predicated-off copy commits an empty group: nothing in flight, so
    // reading the slot's earlier (landed) tile is race-free.
    gpu.func @predicated_off_copy() kernel {
      kda.schedule "pred_off" trip_count(1) depth(2) target("sm_90") {
        %c0 = arith.constant 0 : index
        %c1 = arith.constant 1 : index
        %false = arith.constant false
        kda.async_copy @a[%c0] iter(%c0)
        kda.async_wait 0
        kda.lds_barrier
        kda.async_copy @a[%c0] iter(%c1) if(%false)
        kda.lds_read @a[%c0] iter(%c0)
        kda.async_wait 0
        kda.lds_barrier
      }
      gpu.return
    }
  }
}
