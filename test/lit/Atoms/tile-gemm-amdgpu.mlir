// The tile-GEMM test kernels for gfx942 and gfx950 through the matrix atoms:
// the assembly uses the chip's bf16 MFMA (gfx942: 16x16x16, gfx950's double-k
// 16x16x32) and no scratch or spills; LDS within the chip.
// RUN: rm -rf %t && kda-compile %kda_src_root/test/numeric/tile-specs/tile-gemm.mlir --targets=gfx942,gfx950 -o %t -q
// RUN: %python %lit_lib/check_figures.py %t/manifest.json gfx942 65536 | FileCheck %s --check-prefix=FIG942
// RUN: %python %lit_lib/check_figures.py %t/manifest.json gfx950 163840 | FileCheck %s --check-prefix=FIG950
// RUN: FileCheck %s --check-prefix=ASM942 --input-file=%t/gfx942/kda_kernels.s
// RUN: FileCheck %s --check-prefix=ASM950 --input-file=%t/gfx950/kda_kernels.s
// RUN: FileCheck %s --check-prefix=MANIFEST --input-file=%t/manifest.json

// FIG942-DAG: gfx942 kda_tile_gemm: {{.*}}scratch_bytes 0, {{.*}}spills 0
// FIG942-DAG: gfx942 kda_tile_gemm_masked: {{.*}}scratch_bytes 0, {{.*}}spills 0
// FIG942-DAG: gfx942 kda_tile_gemm_dynamic: {{.*}}scratch_bytes 0, {{.*}}spills 0
// FIG950-DAG: gfx950 kda_tile_gemm: {{.*}}scratch_bytes 0, {{.*}}spills 0
// FIG950-DAG: gfx950 kda_tile_gemm_masked: {{.*}}scratch_bytes 0, {{.*}}spills 0
// FIG950-DAG: gfx950 kda_tile_gemm_dynamic: {{.*}}scratch_bytes 0, {{.*}}spills 0

// ASM942: .amdgcn_target "amdgcn-amd-amdhsa--gfx942"
// ASM942-LABEL: kda_tile_gemm_kd{{[0-9a-f]+}}:
// ASM942: ds_write
// ASM942: s_barrier
// ASM942: v_mfma_f32_16x16x16_bf16
// ASM942: global_store_dword
// ASM942: .amdhsa_private_segment_fixed_size 0
// ASM942-LABEL: kda_tile_gemm_masked_kd{{[0-9a-f]+}}:
// ASM942: v_mfma_f32_16x16x16_bf16
// ASM942: v_cndmask_b32
// ASM942-NOT: v_mfma_f32_16x16x32_bf16
// ASM950: .amdgcn_target "amdgcn-amd-amdhsa--gfx950"
// ASM950-LABEL: kda_tile_gemm_kd{{[0-9a-f]+}}:
// ASM950: v_mfma_f32_16x16x32_bf16
// ASM950: .amdhsa_private_segment_fixed_size 0

// MANIFEST: "args": [
// MANIFEST-NEXT: {
// MANIFEST-NEXT: "dtype": "bf16",
// MANIFEST-NEXT: "name": "a",
// MANIFEST-NEXT: "role": "input"
// MANIFEST: "atom": "mfma_f32_16x16x16_bf16",
// MANIFEST: "kind": "tile_gemm",
