// The chunk kernels for sm_90: mma.sync m16n8k16 bf16 in the PTX of both
// stages (the scan at each of its column blocks), no spills (ptxas -v; the
// 64-column scan's update in 2 x 2 tile blocks, 100 registers of the 128
// its 512 threads allow) but the 16-column scan's 4 bytes (8 of scratch;
// 8 bytes before a wave past the update's last piece stopped reading S,
// the fifteenth session; held to 128
// registers for two workgroups an SM; measured on the H200 faster than one
// an SM at 167 registers where the workgroups outnumber the SMs, and than
// its decays loaded late; 4 bytes before its L2 prefetch of the next
// chunk's records, measured faster with it: ChunkKernelBuilder.cpp), the
// L2 prefetch in the 16-column scan only (22 lines of 128 bytes a record
// of 704 floats and its last byte, one record a thread), the dynamic shared
// memory they launch with within the opt-in limit, and the manifest's
// workspace per token:
// 4 bytes x value heads x (4 head_k + head_v + chunk) = 4 x 2 x 704.
// RUN: rm -rf %t && kda-compile %kda_src_root/test/numeric/chunk-specs/chunk_heads128.mlir --targets=sm_90 -o %t -q
// RUN: FileCheck %s --check-prefix=PTX --input-file=%t/sm_90/kda_kernels.ptx
// RUN: %python %lit_lib/check_figures.py %t/manifest.json sm_90 232448 kda_chunk_heads128_scan=4,8 | FileCheck %s --check-prefix=FIG
// RUN: FileCheck %s --check-prefix=MANIFEST --input-file=%t/manifest.json
// RUN: FileCheck %s --check-prefix=RUNS --input-file=%t/sm_90/kda_kernels.ptx

// PTX: .target sm_90
// PTX-LABEL: .visible .entry kda_chunk_heads128_prep(
// PTX: .minnctapersm 3
// PTX: bar.sync
// PTX: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
// The scans' products as tile blocks (forTileBlocks), each mma.sync of the
// loops written once (three a tile: the split's hi*hi, hi*lo, lo*hi): the
// 16-column scan single tiles (V_new, the output's two products, the
// update: 4 x 3); 32 columns at 16 waves the update's 1 x 2 blocks (5 x 3);
// 64 columns 1 x 2 blocks for V_new and the output, 2 x 2 for the update
// (10 x 3).
// PTX-LABEL: .visible .entry kda_chunk_heads128_scan(
// PTX-COUNT-23: prefetch.global.L2 [g];
// PTX-NOT: prefetch.global.L2
// PTX-COUNT-12: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
// PTX-NOT: mma.sync
// PTX-NOT: prefetch
// PTX-LABEL: .visible .entry kda_chunk_heads128_scan_v32(
// PTX: .maxntid 512, 1, 1
// PTX-NOT: prefetch
// PTX-COUNT-15: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
// PTX-NOT: mma.sync
// PTX-NOT: prefetch
// PTX-LABEL: .visible .entry kda_chunk_heads128_scan_v64(
// PTX: .maxntid 512, 1, 1
// PTX-NOT: prefetch
// PTX-COUNT-30: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
// PTX-NOT: mma.sync
// PTX-NOT: prefetch

// FIG-DAG: sm_90 kda_chunk_heads128_prep: {{.*}}spills 0
// FIG-DAG: sm_90 kda_chunk_heads128_scan: {{.*}}spills 4
// FIG-DAG: sm_90 kda_chunk_heads128_scan_v32: {{.*}}spills 0
// FIG-DAG: sm_90 kda_chunk_heads128_scan_v64: {{.*}}spills 0

// MANIFEST: "dynamic_lds_bytes": 72960,
// MANIFEST: "kind": "chunk_prep",
// MANIFEST: "per_token": 5632

// The 32-column scan reads its atom operands as 16-byte runs (operandRuns:
// the k-contiguous twin of the atom, the state's and V_new's words
// transposed); the other scans read them in pairs and singly, as measured
// faster there.
// RUNS-LABEL: .visible .entry kda_chunk_heads128_scan(
// RUNS-NOT: ld.shared.v4.b32
// RUNS-LABEL: .visible .entry kda_chunk_heads128_scan_v32(
// RUNS: ld.shared.v4.b32
// RUNS-LABEL: .visible .entry kda_chunk_heads128_scan_v64(
// RUNS-NOT: ld.shared.v4.b32
