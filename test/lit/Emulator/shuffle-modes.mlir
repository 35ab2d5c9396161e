// Every gpu.shuffle mode reaches the emulator as its own mode number
// (runtime/emu/Emulator.h: 0 xor, 1 up, 2 down, 3 idx), with its offset,
// width and value; i32 shuffles go to the i32 entry. The emulator's
// semantics of each mode: test/unit/EmulatorTest.cpp.
// RUN: kda-opt %s --kda-gpu-to-emu | FileCheck %s

// CHECK: func.func @modes(%[[CTX:.*]]: !llvm.ptr, %[[X:.*]]: f32, %[[N:.*]]: i32)
// CHECK: %[[OFF:.*]] = arith.constant 3 : i32
// CHECK: %[[W:.*]] = arith.constant 16 : i32
// CHECK: %[[XOR:.*]] = arith.constant 0 : i32
// CHECK-NEXT: call @kda_emu_shuffle_f32(%[[CTX]], %[[X]], %[[OFF]], %[[W]], %[[XOR]])
// CHECK: %[[UP:.*]] = arith.constant 1 : i32
// CHECK-NEXT: call @kda_emu_shuffle_f32(%[[CTX]], %[[X]], %[[OFF]], %[[W]], %[[UP]])
// CHECK: %[[DOWN:.*]] = arith.constant 2 : i32
// CHECK-NEXT: call @kda_emu_shuffle_f32(%[[CTX]], %[[X]], %[[OFF]], %[[W]], %[[DOWN]])
// CHECK: %[[IDX:.*]] = arith.constant 3 : i32
// CHECK-NEXT: call @kda_emu_shuffle_i32(%[[CTX]], %[[N]], %[[OFF]], %[[W]], %[[IDX]])
// CHECK: return

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @modes(%x: f32, %n: i32) kernel {
      %off = arith.constant 3 : i32
      %w = arith.constant 16 : i32
      %a, %va = gpu.shuffle xor %x, %off, %w : f32
      %b, %vb = gpu.shuffle up %x, %off, %w : f32
      %c, %vc = gpu.shuffle down %x, %off, %w : f32
      %d, %vd = gpu.shuffle idx %n, %off, %w : i32
      gpu.return
    }
  }
}
