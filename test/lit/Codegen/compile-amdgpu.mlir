// gfx942 and gfx950 code objects of the decode kernel: AMDHSA code object v5,
// no spills, no scratch, LDS within the target (64 KiB / 160 KiB), DPP
// reductions and 16-byte state loads.
// RUN: rm -rf %t && kda-compile %examples/kimi-k3-tp8.mlir --targets=gfx942,gfx950 -o %t -q
// RUN: %python %lit_lib/check_figures.py %t/manifest.json gfx942 65536 | FileCheck %s --check-prefix=FIG942
// RUN: %python %lit_lib/check_figures.py %t/manifest.json gfx950 163840 | FileCheck %s --check-prefix=FIG950
// RUN: FileCheck %s --check-prefix=ASM942 --input-file=%t/gfx942/kda_kernels.s
// RUN: FileCheck %s --check-prefix=ASM950 --input-file=%t/gfx950/kda_kernels.s
// RUN: llvm-readelf -h %t/gfx942/kda_kernels.hsaco | FileCheck %s --check-prefix=ELF
// RUN: llvm-readelf -h %t/gfx950/kda_kernels.hsaco | FileCheck %s --check-prefix=ELF
// RUN: FileCheck %s --check-prefix=MANIFEST --input-file=%t/manifest.json

// FIG942: gfx942 kda_kimi_k3_tp8_recurrent: {{.*}}lds_bytes 0, occupancy_waves_per_simd {{[1-8]}}, scratch_bytes 0, sgprs {{[0-9]+}}, spills 0, vgprs {{[0-9]+}}
// FIG950: gfx950 kda_kimi_k3_tp8_recurrent: {{.*}}spills 0

// ASM942: .amdgcn_target "amdgcn-amd-amdhsa--gfx942"
// ASM942: .amdhsa_code_object_version 5
// ASM942: kda_kimi_k3_tp8_recurrent_kd{{[0-9a-f]+}}:
// ASM942: global_load_dwordx4
// ASM942: row_bcast:15
// ASM942: v_exp_f32
// ASM942: global_store_dwordx4
// ASM942: .amdhsa_private_segment_fixed_size 0
// ASM950: .amdgcn_target "amdgcn-amd-amdhsa--gfx950"
// ASM950: .amdhsa_code_object_version 5

// ELF: OS/ABI: AMDGPU - HSA
// ELF: ABI Version: 3
// ELF: Machine: EM_AMDGPU

// MANIFEST: "args": [
// MANIFEST-NEXT: {
// MANIFEST-NEXT: "dtype": "bf16",
// MANIFEST-NEXT: "name": "q",
// MANIFEST-NEXT: "role": "input"
// MANIFEST: "name": "state",
// MANIFEST-NEXT: "role": "inout"
// MANIFEST: "name": "out",
// MANIFEST-NEXT: "role": "output"
// MANIFEST: "block": [
// MANIFEST-NEXT: 128,
// MANIFEST: "dynamic_lds_bytes": 0,
// MANIFEST: "file": "gfx942/kda_kernels.hsaco"
// MANIFEST: "grid": [
// MANIFEST-NEXT: 8,
// MANIFEST-NEXT: 12,
// MANIFEST-NEXT: "num_seqs"
// MANIFEST: "symbol": "kda_kimi_k3_tp8_recurrent_kd{{[0-9a-f]+}}"
// MANIFEST: "target": "gfx942"
// MANIFEST: "workspace": {
// MANIFEST-NEXT: "fixed": 0,
// MANIFEST-NEXT: "per_seq": 0,
// MANIFEST-NEXT: "per_token": 0
// MANIFEST: "file": "gfx950/kda_kernels.hsaco"
