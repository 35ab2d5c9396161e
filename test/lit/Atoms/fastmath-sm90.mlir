// Approximate f32 math (fastmath afn) -> one MUFU each on sm_90: exp ->
// ex2.approx.ftz of x * log2(e), exp2 -> ex2.approx.ftz, 1 / b ->
// rcp.approx.ftz, a / b -> a * rcp.approx.ftz(b), 1 / sqrt(x) ->
// rsqrt.approx.ftz. Without afn, or on f64, the ops stay for the default
// (IEEE) lowering; AMDGPU targets and the emulators keep them all.
// RUN: kda-opt %s --split-input-file --kda-lower-atoms | FileCheck %s

// CHECK-LABEL: gpu.func @approximate
// CHECK-SAME: (%[[X:.*]]: f32, %[[Y:.*]]: f32
// CHECK: %[[L2E:.*]] = arith.constant 1.44269502 : f32
// CHECK: %[[XL:.*]] = arith.mulf %[[X]], %[[L2E]] : f32
// CHECK: llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f"(%[[XL]]) : (f32) -> f32
// CHECK: llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f"(%[[X]]) : (f32) -> f32
// CHECK: %[[R:.*]] = nvvm.rcp.approx.ftz.f %[[Y]] : f32
// CHECK: %[[R2:.*]] = nvvm.rcp.approx.ftz.f %[[Y]] : f32
// CHECK: arith.mulf %[[X]], %[[R2]] : f32
// CHECK: llvm.call_intrinsic "llvm.nvvm.rsqrt.approx.ftz.f"(%[[Y]]) : (f32) -> f32
// CHECK-NOT: math.
// CHECK-NOT: arith.divf
// CHECK: gpu.return
gpu.module @m attributes {kda.target = #kda.target<"sm_90">} {
  gpu.func @approximate(%x: f32, %y: f32, %out: memref<5xf32>) kernel {
    %one = arith.constant 1.0 : f32
    %e = math.exp %x fastmath<afn> : f32
    %e2 = math.exp2 %x fastmath<afn> : f32
    %r = arith.divf %one, %y fastmath<afn> : f32
    %q = arith.divf %x, %y fastmath<afn> : f32
    %s = math.sqrt %y : f32
    %n = arith.divf %one, %s fastmath<afn> : f32
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    memref.store %e, %out[%c0] : memref<5xf32>
    memref.store %e2, %out[%c1] : memref<5xf32>
    memref.store %r, %out[%c2] : memref<5xf32>
    memref.store %q, %out[%c3] : memref<5xf32>
    memref.store %n, %out[%c4] : memref<5xf32>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @accurate
// CHECK-NOT: llvm.call_intrinsic
// CHECK-NOT: nvvm.rcp
// CHECK: math.exp %{{.*}} : f32
// CHECK: math.exp2 %{{.*}} : f32
// CHECK: arith.divf %{{.*}}, %{{.*}} : f32
// CHECK: math.exp %{{.*}} fastmath<afn> : f64
// CHECK: arith.divf %{{.*}}, %{{.*}} fastmath<afn> : f64
gpu.module @m attributes {kda.target = #kda.target<"sm_90">} {
  gpu.func @accurate(%x: f32, %y: f32, %z: f64, %out: memref<3xf32>, %out64: memref<2xf64>) kernel {
    %e = math.exp %x : f32
    %e2 = math.exp2 %x : f32
    %q = arith.divf %x, %y : f32
    %ez = math.exp %z fastmath<afn> : f64
    %qz = arith.divf %z, %z fastmath<afn> : f64
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    memref.store %e, %out[%c0] : memref<3xf32>
    memref.store %e2, %out[%c1] : memref<3xf32>
    memref.store %q, %out[%c2] : memref<3xf32>
    memref.store %ez, %out64[%c0] : memref<2xf64>
    memref.store %qz, %out64[%c1] : memref<2xf64>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @amdgpu
// CHECK-NOT: nvvm.
// CHECK-NOT: llvm.call_intrinsic
// CHECK: math.exp %{{.*}} fastmath<afn> : f32
// CHECK: arith.divf %{{.*}}, %{{.*}} fastmath<afn> : f32
gpu.module @m attributes {kda.target = #kda.target<"gfx942">} {
  gpu.func @amdgpu(%x: f32, %y: f32, %out: memref<2xf32>) kernel {
    %e = math.exp %x fastmath<afn> : f32
    %q = arith.divf %x, %y fastmath<afn> : f32
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    memref.store %e, %out[%c0] : memref<2xf32>
    memref.store %q, %out[%c1] : memref<2xf32>
    gpu.return
  }
}
