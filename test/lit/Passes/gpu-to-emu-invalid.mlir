// The emulator target refuses what it cannot run, naming it.
// RUN: kda-opt %s -split-input-file -verify-diagnostics --kda-gpu-to-emu

module attributes {gpu.container_module} {
  gpu.module @kda_kernels attributes {kda.target = #kda.target<"emu">} {
    gpu.func @k(%x: f64, %out: memref<4xf64>) kernel {
      %c1 = arith.constant 1 : i32
      %c32 = arith.constant 32 : i32
      // expected-error @+1 {{the emulator shuffles only f32 and i32}}
      %s, %ok = gpu.shuffle xor %x, %c1, %c32 : f64
      gpu.return
    }
  }
}
