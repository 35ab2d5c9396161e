// The tile-GEMM test kernels for sm_90: mma.sync m16n8k16 bf16 in the PTX,
// no spills (ptxas -v), and the k = 256 variant's 64 KiB of A and B in
// dynamic shared memory (kda.dynamic_lds_bytes in the manifest's config;
// the launch needs the >48 KiB opt-in).
// RUN: rm -rf %t && kda-compile %kda_src_root/test/numeric/tile-specs/tile-gemm.mlir --targets=sm_90 -o %t -q
// RUN: FileCheck %s --check-prefix=PTX --input-file=%t/sm_90/kda_kernels.ptx
// RUN: %python %lit_lib/check_figures.py %t/manifest.json sm_90 232448 | FileCheck %s --check-prefix=FIG
// RUN: FileCheck %s --check-prefix=MANIFEST --input-file=%t/manifest.json

// PTX: .target sm_90a
// PTX-LABEL: .visible .entry kda_tile_gemm_kd{{[0-9a-f]+}}(
// PTX: bar.sync
// PTX: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
// PTX-LABEL: .visible .entry kda_tile_gemm_dynamic_kd{{[0-9a-f]+}}(
// The dynamic region's base: upstream's lowering of gpu.dynamic_shared_memory
// (NVPTX demotes the zero-size shared global into the kernel; ptxas counts it
// as 1 static byte, the launch provides the rest).
// PTX: .shared .align 16 .b8 __dynamic_shmem__0;
// PTX: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32

// FIG-DAG: sm_90 kda_tile_gemm: {{.*}}spills 0
// FIG-DAG: sm_90 kda_tile_gemm_dynamic: {{.*}}spills 0

// MANIFEST: "atom": "mma_sync_f32_16x8x16_bf16",
// MANIFEST: "dynamic_lds_bytes": 65536,
