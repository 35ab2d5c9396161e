// Cross-lane reduction atoms: DPP row operations on gfx9 (unit-stride
// clusters), butterfly shuffles over the target's wave on sm_90 and the
// emulator, shuffles for strided clusters everywhere.
// The target is the gpu.module's `kda.target` (set by kda-lower-to-gpu).
// RUN: sed s/@TARGET@/gfx942/ %s | kda-opt --pass-pipeline='builtin.module(gpu.module(kda-lower-subgroup-reduce))' | FileCheck %s --check-prefix=GFX
// RUN: sed s/@TARGET@/sm_90/ %s | kda-opt --pass-pipeline='builtin.module(gpu.module(kda-lower-subgroup-reduce))' | FileCheck %s --check-prefix=NV
// RUN: sed s/@TARGET@/emu32/ %s | kda-opt --pass-pipeline='builtin.module(gpu.module(kda-lower-subgroup-reduce))' | FileCheck %s --check-prefix=NV
// RUN: sed 's/attributes {kda.target = #kda.target<"@TARGET@">}//' %s | not kda-opt --pass-pipeline='builtin.module(gpu.module(kda-lower-subgroup-reduce))' 2>&1 | FileCheck %s --check-prefix=NONE
// NONE: error: no enclosing kda.target attribute

gpu.module @m attributes {kda.target = #kda.target<"@TARGET@">} {
  // GFX-LABEL: gpu.func @unit_stride
  // GFX-NOT: gpu.subgroup_reduce
  // GFX: amdgpu.dpp {{.*}} quad_perm
  // GFX: amdgpu.dpp {{.*}} quad_perm
  // GFX: amdgpu.dpp {{.*}} row_half_mirror
  // GFX: amdgpu.dpp {{.*}} row_mirror
  // GFX: amdgpu.dpp {{.*}} row_bcast_15
  // GFX: amdgpu.swizzle_bitmode %{{.*}} 0 31 0 : f32
  // NV-LABEL: gpu.func @unit_stride
  // NV-NOT: gpu.subgroup_reduce
  // NV: gpu.shuffle xor %{{.*}}, %c1_i32{{(_[0-9]+)?}}, %c32_i32{{(_[0-9]+)?}} : f32
  // NV: gpu.shuffle xor %{{.*}}, %c2_i32{{(_[0-9]+)?}}, %c32_i32{{(_[0-9]+)?}} : f32
  // NV: gpu.shuffle xor %{{.*}}, %c4_i32{{(_[0-9]+)?}}, %c32_i32{{(_[0-9]+)?}} : f32
  // NV: gpu.shuffle xor %{{.*}}, %c8_i32{{(_[0-9]+)?}}, %c32_i32{{(_[0-9]+)?}} : f32
  // NV: gpu.shuffle xor %{{.*}}, %c16_i32{{(_[0-9]+)?}}, %c32_i32{{(_[0-9]+)?}} : f32
  gpu.func @unit_stride(%x: f32, %out: memref<1xf32>) kernel {
    %r = gpu.subgroup_reduce add %x cluster(size = 32) : (f32) -> f32
    %c0 = arith.constant 0 : index
    memref.store %r, %out[%c0] : memref<1xf32>
    gpu.return
  }
  // GFX-LABEL: gpu.func @strided
  // GFX-NOT: gpu.subgroup_reduce
  // GFX: gpu.shuffle xor %{{.*}}, %c8_i32{{(_[0-9]+)?}}, %c64_i32{{(_[0-9]+)?}} : f32
  // GFX: gpu.shuffle xor %{{.*}}, %c16_i32{{(_[0-9]+)?}}, %c64_i32{{(_[0-9]+)?}} : f32
  // NV-LABEL: gpu.func @strided
  // NV: gpu.shuffle xor %{{.*}}, %c8_i32{{(_[0-9]+)?}}, %c32_i32{{(_[0-9]+)?}} : f32
  // NV: gpu.shuffle xor %{{.*}}, %c16_i32{{(_[0-9]+)?}}, %c32_i32{{(_[0-9]+)?}} : f32
  gpu.func @strided(%x: f32, %out: memref<1xf32>) kernel {
    %r = gpu.subgroup_reduce add %x cluster(size = 4, stride = 8) : (f32) -> f32
    %c0 = arith.constant 0 : index
    memref.store %r, %out[%c0] : memref<1xf32>
    gpu.return
  }
}
