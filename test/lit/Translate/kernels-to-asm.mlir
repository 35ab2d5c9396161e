// kda-translate serializes a spec's kernels for one target.
// RUN: kda-translate --kda-to-ptx %examples/kimi-k3-tp8.mlir | FileCheck %s --check-prefix=PTX
// RUN: kda-translate --kda-to-gfx942-asm %examples/kimi-k3-tp8.mlir | FileCheck %s --check-prefix=GFX942
// RUN: kda-translate --kda-to-gfx950-asm %examples/kimi-linear-48b.mlir | FileCheck %s --check-prefix=GFX950
// RUN: kda-translate --kda-to-emu-llvmir %examples/kimi-k3-tp8.mlir | FileCheck %s --check-prefix=EMU
// RUN: not kda-translate --kda-to-ptx %s 2>&1 | FileCheck %s --check-prefix=NONE

// PTX: .target sm_90a
// PTX: .visible .entry kda_kimi_k3_tp8_recurrent(
// GFX942: .amdgcn_target "amdgcn-amd-amdhsa--gfx942"
// GFX942: .amdhsa_code_object_version 5
// GFX942: kda_kimi_k3_tp8_recurrent:
// GFX950: .amdgcn_target "amdgcn-amd-amdhsa--gfx950"
// GFX950: kda_kimi_linear_recurrent:
// EMU: declare i64 @kda_emu_id(ptr, i32)
// EMU: define void @kda_kimi_k3_tp8_recurrent(ptr
// EMU: define void @kda_kimi_k3_tp8_recurrent_packed(ptr %0, ptr %1)
// NONE: error: the spec has no computation this target builds
func.func @nothing() {
  return
}
