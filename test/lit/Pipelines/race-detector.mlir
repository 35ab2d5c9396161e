// Seed 1 executed: fla's recompute_w_u on gfx950 at num_stages = 4, its
// u-loop and w-loop (2 iterations each) written as Triton expanded them, the
// w-loop reusing the u-loop's bytes. With verification skipped, the emulator's LDS race
// detector catches the stray prologue copy still in flight when the w-loop
// writes those bytes; with verification on, the compiler rejects it first;
// the same kernel expanded by kda at depth 4 runs race-free. The schedules
// are checked and run as emu32 (cp.async groups; gfx950's vmcnt lowering
// needs rows, which these symbolic copies do not carry): a schedule's
// target must be its module's.
// RUN: kda-opt %s --pass-pipeline='builtin.module(kda-expand-pipeline{target=emu32 verify=false},kda-gpu-to-emu,func.func(convert-scf-to-cf),convert-arith-to-llvm,convert-cf-to-llvm,convert-func-to-llvm,reconcile-unrealized-casts,kda-emu-entry)' | kda-translate --mlir-to-llvmir -o %t.ll
// RUN: %clang -O1 -shared -fPIC -Wno-override-module %t.ll -o %t.so
// RUN: not kda-emu-run %t.so recompute_w_u_packed --block 64 | FileCheck %s
// RUN: not kda-opt %s --kda-expand-pipeline=target=emu32 --kda-verify-pipeline 2>&1 | FileCheck %s --check-prefix=VERIFY
// RUN: kda-opt %s --pass-pipeline='builtin.module(kda-expand-pipeline{target=emu32},kda-gpu-to-emu,func.func(convert-scf-to-cf),convert-arith-to-llvm,convert-cf-to-llvm,convert-func-to-llvm,reconcile-unrealized-casts,kda-emu-entry)' | kda-translate --mlir-to-llvmir -o %t.safe.ll
// RUN: %clang -O1 -shared -fPIC -Wno-override-module %t.safe.ll -o %t.safe.so
// RUN: kda-emu-run %t.safe.so safe_w_u_packed --block 64 | FileCheck %s --check-prefix=SAFE

// CHECK: LDS race in block (0, 0, 0): thread 0 the async copy of iteration 1 into bytes [16384, 16640) while an async copy of iteration 2 into them is still in flight
// VERIFY: error: R4: the copy of iteration 2 into @u slot 2 is issued beyond the trip count 2 and is not predicated off (pipeline 'recompute_w_u.u' at depth 4)
// SAFE: race-free: 1 x 1 x 1 blocks of 64 threads

module attributes {gpu.container_module} {
  gpu.module @kda_kernels attributes {kda.target = #kda.target<"emu32">} {
    kda.lds_buffer @u slots(4) slot_bytes(8192) offset(0)
    kda.lds_buffer @w slots(4) slot_bytes(16384) offset(0)
    gpu.func @recompute_w_u() kernel {
      kda.schedule "recompute_w_u.u" trip_count(2) depth(4) target("emu32") {
        %c0 = arith.constant 0 : index
        %c1 = arith.constant 1 : index
        %c2 = arith.constant 2 : index
        %s0 = kda.ring_slot %c0 of @u
        kda.async_copy @u[%s0] iter(%c0)
        %s1 = kda.ring_slot %c1 of @u
        kda.async_copy @u[%s1] iter(%c1)
        %s2 = kda.ring_slot %c2 of @u
        kda.async_copy @u[%s2] iter(%c2)
        scf.for %i = %c0 to %c2 step %c1 {
          kda.async_wait 1
          kda.lds_barrier
          %s = kda.ring_slot %i of @u
          kda.lds_read @u[%s] iter(%i)
        }
        kda.lds_barrier
      }
      kda.schedule "recompute_w_u.w" trip_count(2) depth(4) target("emu32") {
        %c0 = arith.constant 0 : index
        %c1 = arith.constant 1 : index
        %c2 = arith.constant 2 : index
        %s0 = kda.ring_slot %c0 of @w
        kda.async_copy @w[%s0] iter(%c0)
        %s1 = kda.ring_slot %c1 of @w
        kda.async_copy @w[%s1] iter(%c1)
        %s2 = kda.ring_slot %c2 of @w
        kda.async_copy @w[%s2] iter(%c2)
        scf.for %i = %c0 to %c2 step %c1 {
          kda.async_wait 2
          kda.lds_barrier
          %s = kda.ring_slot %i of @w
          kda.lds_read @w[%s] iter(%i)
        }
        kda.async_wait 0
        kda.lds_barrier
      }
      gpu.return
    }
  }
  gpu.module @kda_safe attributes {kda.target = #kda.target<"emu32">} {
    kda.lds_buffer @u2 slots(1) slot_bytes(8192) offset(0)
    kda.lds_buffer @w2 slots(1) slot_bytes(16384) offset(0)
    gpu.func @safe_w_u() kernel {
      kda.pipeline "u" trip_count(2) depth(4) {
        kda.produce @u2 async stage(0)
        kda.consume @u2 stage(3)
      }
      kda.pipeline "w" trip_count(2) depth(2) {
        kda.produce @w2 async stage(0)
        kda.consume @w2 stage(1)
      }
      gpu.return
    }
  }
}
