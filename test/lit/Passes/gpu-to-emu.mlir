// kda-gpu-to-emu: a kernel becomes a host function with a leading emulator
// context; SIMT primitives become calls into the emulator runtime.
// kda-emu-entry (after the LLVM lowering) adds the packed entry point.
// RUN: kda-opt %s --kda-gpu-to-emu | FileCheck %s
// RUN: kda-opt %s --pass-pipeline='builtin.module(kda-gpu-to-emu,finalize-memref-to-llvm,convert-arith-to-llvm,convert-func-to-llvm{use-bare-ptr-memref-call-conv=1},reconcile-unrealized-casts,kda-emu-entry)' | FileCheck %s --check-prefix=ENTRY

// CHECK-NOT: gpu.module
// CHECK-DAG: func.func private @kda_emu_id(!llvm.ptr, i32) -> i64
// CHECK-DAG: func.func private @kda_emu_barrier(!llvm.ptr)
// CHECK-DAG: func.func private @kda_emu_shuffle_f32(!llvm.ptr, f32, i32, i32, i32) -> f32
// CHECK: func.func @k(%[[CTX:.*]]: !llvm.ptr, %[[X:.*]]: f32, %[[OUT:.*]]: memref<4xf32>)
// CHECK-SAME: attributes {kda.emu_kernel}
// CHECK: %[[W0:.*]] = arith.constant 0 : i32
// CHECK: call @kda_emu_id(%[[CTX]], %[[W0]]) : (!llvm.ptr, i32) -> i64
// CHECK: %[[W4:.*]] = arith.constant 4 : i32
// CHECK: call @kda_emu_id(%[[CTX]], %[[W4]])
// CHECK: %[[MODE:.*]] = arith.constant 0 : i32
// CHECK: call @kda_emu_shuffle_f32(%[[CTX]], %[[X]], %{{.*}}, %{{.*}}, %[[MODE]])
// CHECK: call @kda_emu_barrier(%[[CTX]])
// CHECK: return

// ENTRY: llvm.func @k_packed(%[[CTX:.*]]: !llvm.ptr, %[[PARAMS:.*]]: !llvm.ptr)
// ENTRY: %[[P0:.*]] = llvm.getelementptr %[[PARAMS]][0] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
// ENTRY: %[[A0:.*]] = llvm.load %[[P0]] : !llvm.ptr -> !llvm.ptr
// ENTRY: llvm.load %[[A0]] : !llvm.ptr -> f32
// ENTRY: %[[P1:.*]] = llvm.getelementptr %[[PARAMS]][1]
// ENTRY: %[[A1:.*]] = llvm.load %[[P1]] : !llvm.ptr -> !llvm.ptr
// ENTRY: llvm.load %[[A1]] : !llvm.ptr -> !llvm.ptr
// ENTRY: llvm.call @k(%[[CTX]], %{{.*}}, %{{.*}})
module attributes {gpu.container_module} {
  gpu.module @kda_kernels attributes {kda.target = #kda.target<"emu">} {
    gpu.func @k(%x: f32, %out: memref<4xf32>) kernel {
      %tid = gpu.thread_id x
      %bid = gpu.block_id y
      %c1 = arith.constant 1 : i32
      %c32 = arith.constant 32 : i32
      %s, %ok = gpu.shuffle xor %x, %c1, %c32 : f32
      gpu.barrier
      memref.store %s, %out[%tid] : memref<4xf32>
      gpu.return
    }
  }
}
