// The chunk kernels for gfx942 and gfx950: the assembly computes with the
// chip's bf16 MFMA (gfx942 16x16x16; gfx950's prep 16x16x32 where the chunk
// allows, its scan 16x16x16: the register-state scan needs the atom whose
// accumulator tile is its B fragment, MmaAtoms.h accumulatorOperandOf),
// no scratch or spills, LDS (static + dynamic) within the chip; the manifest
// lists the plan's two stages under the function's name with the workspace.
// RUN: rm -rf %t && kda-compile %kda_src_root/test/numeric/chunk-specs/chunk_heads128.mlir --targets=gfx942,gfx950 -o %t -q
// RUN: %python %lit_lib/check_figures.py %t/manifest.json gfx942 65536 | FileCheck %s --check-prefix=FIG942
// RUN: %python %lit_lib/check_figures.py %t/manifest.json gfx950 163840 | FileCheck %s --check-prefix=FIG950
// RUN: FileCheck %s --check-prefix=ASM942 --input-file=%t/gfx942/kda_kernels.s
// RUN: FileCheck %s --check-prefix=ASM950 --input-file=%t/gfx950/kda_kernels.s
// RUN: FileCheck %s --check-prefix=MANIFEST --input-file=%t/manifest.json
// The 128-column scan runs only self-staged (its rows by per-thread async
// pieces, which neither chip has): left out of both.
// RUN: FileCheck %s --check-prefix=NO128 --input-file=%t/manifest.json
// NO128-NOT: scan_v128

// FIG942-DAG: gfx942 kda_chunk_heads128_prep: {{.*}}scratch_bytes 0, {{.*}}spills 0
// FIG942-DAG: gfx942 kda_chunk_heads128_scan: {{.*}}scratch_bytes 0, {{.*}}spills 0
// FIG950-DAG: gfx950 kda_chunk_heads128_prep: {{.*}}scratch_bytes 0, {{.*}}spills 0
// FIG950-DAG: gfx950 kda_chunk_heads128_scan: {{.*}}scratch_bytes 0, {{.*}}spills 0

// ASM942: .amdgcn_target "amdgcn-amd-amdhsa--gfx942"
// ASM942-LABEL: kda_chunk_heads128_prep_kd{{[0-9a-f]+}}:
// ASM942: v_mfma_f32_16x16x16_bf16
// ASM942: s_barrier
// ASM942: .amdhsa_private_segment_fixed_size 0
// ASM942-LABEL: kda_chunk_heads128_scan_kd{{[0-9a-f]+}}:
// ASM942: v_mfma_f32_16x16x16_bf16
// ASM942: .amdhsa_private_segment_fixed_size 0
// ASM950: .amdgcn_target "amdgcn-amd-amdhsa--gfx950"
// ASM950-LABEL: kda_chunk_heads128_prep_kd{{[0-9a-f]+}}:
// ASM950: v_mfma_f32_16x16x32_bf16
// ASM950-LABEL: kda_chunk_heads128_scan_kd{{[0-9a-f]+}}:
// ASM950-NOT: v_mfma_f32_16x16x32_bf16
// ASM950: v_mfma_f32_16x16x16_bf16
// ASM950-NOT: v_mfma_f32_16x16x32_bf16
// ASM950: .amdhsa_private_segment_fixed_size 0

// MANIFEST: "grid": [
// MANIFEST-NEXT: "max_chunks",
// MANIFEST-NEXT: 2,
// MANIFEST-NEXT: "num_seqs"
// MANIFEST: "kind": "chunk_prep",
// MANIFEST: "name": "chunk_heads128",
// MANIFEST: "stage": 0,
// MANIFEST: "grid": [
// MANIFEST-NEXT: 8,
// MANIFEST-NEXT: 2,
// MANIFEST-NEXT: "num_seqs"
// MANIFEST: "kind": "chunk_scan",
// MANIFEST: "name": "chunk_heads128",
// MANIFEST: "stage": 1,
