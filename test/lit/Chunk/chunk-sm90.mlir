// The chunk kernels for sm_90: mma.sync m16n8k16 bf16 in the PTX of both
// stages (the scan at each of its column blocks), no spills (ptxas -v) but
// the 64-column scan's 8 bytes (512 threads cap a thread at 128 registers;
// measured on the H200 with them, it is the fastest scan of 4 x 4096 and
// varlen 16 at H32), the dynamic shared memory they launch with within the
// opt-in limit, and the manifest's workspace per token:
// 4 bytes x value heads x (4 head_k + head_v + chunk) = 4 x 2 x 704.
// RUN: rm -rf %t && kda-compile %kda_src_root/test/numeric/chunk-specs/chunk_heads128.mlir --targets=sm_90 -o %t -q
// RUN: FileCheck %s --check-prefix=PTX --input-file=%t/sm_90/kda_kernels.ptx
// RUN: %python %lit_lib/check_figures.py %t/manifest.json sm_90 232448 kda_chunk_heads128_scan_v64=8 | FileCheck %s --check-prefix=FIG
// RUN: FileCheck %s --check-prefix=MANIFEST --input-file=%t/manifest.json

// PTX: .target sm_90
// PTX-LABEL: .visible .entry kda_chunk_heads128_prep(
// PTX: .minnctapersm 3
// PTX: bar.sync
// PTX: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
// PTX-LABEL: .visible .entry kda_chunk_heads128_scan(
// PTX: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
// PTX-LABEL: .visible .entry kda_chunk_heads128_scan_v32(
// PTX: .maxntid 512, 1, 1
// PTX: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
// PTX-LABEL: .visible .entry kda_chunk_heads128_scan_v64(
// PTX: .maxntid 512, 1, 1
// PTX: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32

// FIG-DAG: sm_90 kda_chunk_heads128_prep: {{.*}}spills 0
// FIG-DAG: sm_90 kda_chunk_heads128_scan: {{.*}}spills 0
// FIG-DAG: sm_90 kda_chunk_heads128_scan_v32: {{.*}}spills 0
// FIG-DAG: sm_90 kda_chunk_heads128_scan_v64: {{.*}}spills 8

// MANIFEST: "dynamic_lds_bytes": 72960,
// MANIFEST: "kind": "chunk_prep",
// MANIFEST: "per_token": 5632
