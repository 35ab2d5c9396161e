// The chunk kernels for sm_90: mma.sync m16n8k16 bf16 in the PTX of both
// stages; the scan at each of its column blocks with its state in
// registers (ChunkPlan::regState: 8 waves, blockV / 16 of them compute
// waves holding 16 state columns each - the 16-column scan's split along
// K over 4 waves of 32 rows, ChunkPlan::kSplit - the others staging the
// chunk's rows; the 16- and 64-column scans' staging waves hint the next chunk's
// records toward L2, ChunkPlan::regPrefetch), no spills in the prep
// at two workgroups an SM since G's rest takes 33792 bytes of its LDS
// (2026-12-07, prepGateCumsum: 126 registers; 12 bytes at the 80 of three
// workgroups before), the
// 16-, 32- and 64-column scans' 0, 44 and 4 bytes at 255 registers and
// the segments' 52 (4, 0 and 0 before W went through the workspace as
// fragment runs, ChunkPlan::wRuns, measured faster on the H200 on
// 2026-12-04 at 1 x 8192 and 4 x 4096 H32 and 0.5% slower at 1 x 32768
// H8; 16 and 16 before the staging waves addressed a field's pieces from
// one base, 24 and 24 before LDS took 32-bit pointers; measured on the
// H200 faster than the update and the output's products one after the
// other without spills: ChunkKernelBuilder.cpp), the
// dynamic shared memory they launch with within the opt-in limit, and
// the manifest's workspace: the records, 4 bytes x value heads x (4 head_k
// + head_v + chunk) = 4 x 2 x 704 a token, then the split scan's blocks
// of [M | B], one per (segment key, value head): 4 x 2 x K (K + V) bytes
// each, a key every (segment_chunks - 1) x chunk = 448 tokens, so 586
// bytes a token (rounded up) and one block's 262144 fixed.
// The split scan (segment_chunks 8, qk_l2norm): maps and segments at 64
// columns (the register scan, 4 compute waves), the join without atoms.
// RUN: rm -rf %t && kda-compile %kda_src_root/test/numeric/chunk-specs/chunk_heads128.mlir --targets=sm_90 -o %t -q
// RUN: FileCheck %s --check-prefix=PTX --input-file=%t/sm_90/kda_kernels.ptx
// RUN: %python %lit_lib/check_figures.py %t/manifest.json sm_90 232448 kda_chunk_heads128_prep=0,0 kda_chunk_heads128_scan=0,0 kda_chunk_heads128_scan_v32=0,0 kda_chunk_heads128_scan_v64=0,0 kda_chunk_heads128_scan_v128=0,0 kda_chunk_heads128_segments_v64=0,0 | FileCheck %s --check-prefix=FIG
// RUN: FileCheck %s --check-prefix=MANIFEST --input-file=%t/manifest.json
// RUN: FileCheck %s --check-prefix=RUNS --input-file=%t/sm_90/kda_kernels.ptx
// The register scans say their wave roles (compute waves first, then the
// staging waves), so kda-verify-pipeline checks their LDS handoffs
// (test/lit/Pipelines/handoffs.mlir); the prep has no roles.
// RUN: kda-opt %kda_src_root/test/numeric/chunk-specs/chunk_heads128.mlir --kda-decompose --kda-lower-to-gpu=target=sm_90 | FileCheck %s --check-prefix=ROLES
// gfx950's 32-column scan (64-lane waves) is not split along K.
// RUN: kda-opt %kda_src_root/test/numeric/chunk-specs/chunk_heads128.mlir --kda-decompose --kda-lower-to-gpu=target=gfx950 | FileCheck %s --check-prefix=ROLES950
// ROLES950-LABEL: gpu.func @kda_chunk_heads128_scan_v32(
// ROLES950-SAME: k_split = 1 : i64
// ROLES950-SAME: kda.wave_roles = array<i64: 64, 2>
// The split needs whole atom k steps a part: head_k 48 (12 rows a part)
// keeps one compute wave.
// RUN: kda-opt %kda_src_root/test/numeric/chunk-specs/chunk_odd_heads.mlir --kda-decompose --kda-lower-to-gpu=target=sm_90 | FileCheck %s --check-prefix=ODD
// ODD-LABEL: gpu.func @kda_chunk_odd_heads_scan(
// ODD-SAME: k_split = 1 : i64
// ODD-SAME: kda.wave_roles = array<i64: 32, 1>
// W through the workspace as fragment runs (markRecordRuns): every
// kernel of a function whose scans are all register scans on mma.sync
// (the join reads no W); none on gfx950 (MFMA accumulators hold a column of
// rows, no pairs along k) or where a scan is pipelined (its state in LDS).
// RUN: kda-opt %kda_src_root/test/numeric/chunk-specs/chunk_heads128.mlir --kda-decompose --kda-lower-to-gpu=target=sm_90 | FileCheck %s --check-prefix=RECRUNS
// RUN: kda-opt %kda_src_root/test/numeric/chunk-specs/chunk_heads128.mlir --kda-decompose --kda-lower-to-gpu=target=gfx950 | FileCheck %s --check-prefix=NORUNS
// RUN: kda-opt %kda_src_root/test/numeric/chunk-specs/chunk_k3_s2.mlir --kda-decompose --kda-lower-to-gpu=target=sm_90 | FileCheck %s --check-prefix=NORUNS
// An input whose stage ops already carry the attribute (hand-written, or a
// module lowered again) does not decide it: the pipelined function still
// keeps split words.
// RUN: kda-opt %kda_src_root/test/numeric/chunk-specs/chunk_k3_s2.mlir --kda-decompose | sed 's/{\(.*chunk_size = 64 : i64\)/{kda.record_runs, \1/' > %t.stale.mlir
// RUN: FileCheck %s --check-prefix=STALE --input-file=%t.stale.mlir
// RUN: kda-opt %t.stale.mlir --kda-lower-to-gpu=target=sm_90 | FileCheck %s --check-prefix=NORUNS
// STALE: kda.record_runs
// RECRUNS-LABEL: gpu.func @kda_chunk_heads128_prep
// RECRUNS-SAME: kda.record_runs
// RECRUNS-LABEL: gpu.func @kda_chunk_heads128_scan(
// RECRUNS-SAME: kda.record_runs
// RECRUNS-LABEL: gpu.func @kda_chunk_heads128_scan_v32(
// RECRUNS-SAME: kda.record_runs
// RECRUNS-LABEL: gpu.func @kda_chunk_heads128_scan_v64(
// RECRUNS-SAME: kda.record_runs
// RECRUNS-LABEL: gpu.func @kda_chunk_heads128_maps_v64(
// RECRUNS-SAME: kda.record_runs
// RECRUNS-LABEL: gpu.func @kda_chunk_heads128_join(
// RECRUNS-NOT: kda.record_runs
// RECRUNS-LABEL: gpu.func @kda_chunk_heads128_segments_v64(
// RECRUNS-SAME: kda.record_runs
// NORUNS: gpu.func @kda_chunk_{{heads128|k3_s2}}_prep
// NORUNS-NOT: kda.record_runs
// ROLES-LABEL: gpu.func @kda_chunk_heads128_prep
// ROLES-NOT: kda.wave_roles
// ROLES-LABEL: gpu.func @kda_chunk_heads128_scan(
// ROLES-SAME: kda.wave_roles = array<i64: 32, 4>
// ROLES-LABEL: gpu.func @kda_chunk_heads128_scan_v32(
// ROLES-SAME: k_split = 2 : i64
// ROLES-SAME: kda.wave_roles = array<i64: 32, 4>
// ROLES-LABEL: gpu.func @kda_chunk_heads128_scan_v64(
// ROLES-SAME: kda.wave_roles = array<i64: 32, 4>
// ROLES-NOT: loop_annotation
// The 128-column scan is self-staged: its eight waves all compute, one
// role, and copy their rows by kda.copy_piece (cp.async), fenced before
// each barrier (ChunkPlan::selfStaged).
// ROLES-LABEL: gpu.func @kda_chunk_heads128_scan_v128(
// ROLES-SAME: self_staged = true
// ROLES-SAME: kda.wave_roles = array<i64: 32>
// ROLES: kda.copy_piece {{.*}} atom({{ ?}}cp_async)
// ROLES: kda.copy_fence
// ROLES-NEXT: gpu.barrier
// Its chunk loop with LLVM's LICM off (disableLicm: at 255 registers the
// hoisted addresses spilled 48 bytes); the staged scans' loops keep it.
// ROLES: } {loop_annotation = #loop_annotation}
// ROLES-LABEL: gpu.func @kda_chunk_heads128_maps_v64(
// ROLES-SAME: kda.wave_roles = array<i64: 32, 4>
// ROLES-NOT: loop_annotation
// ROLES-LABEL: gpu.func @kda_chunk_heads128_join(
// ROLES-NOT: kda.wave_roles
// ROLES-LABEL: gpu.func @kda_chunk_heads128_segments_v64(
// ROLES-SAME: kda.wave_roles = array<i64: 32, 4>

// PTX: .target sm_90a
// PTX-LABEL: .visible .entry kda_chunk_heads128_prep_kd{{[0-9a-f]+}}(
// PTX: .minnctapersm 2
// PTX: bar.sync
// PTX: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
// Every unsplit scan takes the same products a compute wave: written out
// (its slab's tiles are registers), per chunk 8 k steps x 8 tiles x 3
// atoms for V_new and for (q o exp G) S, 20 x 3 for A_qk V_new's lower
// triangle and 4 x 16 x 3 for the update: 636 mma.sync; two barriers a
// chunk and one after the first chunk's staging. Split along K (the
// 16-column scan 4 ways), a wave's share of K is 32 rows: 2 x 8 x 3 for
// each of V_new and (q o exp G) S, 4 x 4 x 3 for its rows of the update,
// and the first part's A_qk V_new: 204. The 32-column scan split 2 ways
// (two column slabs, four compute waves): 64 rows, 4 x 8 x 3 for each of
// V_new and (q o exp G) S, 8 x 4 x 3 for the update, and A_qk V_new: 348.
// PTX-LABEL: .visible .entry kda_chunk_heads128_scan_kd{{[0-9a-f]+}}(
// PTX: .maxntid 256, 1, 1
// PTX-COUNT-204: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
// PTX-NOT: mma.sync
// PTX-LABEL: .visible .entry kda_chunk_heads128_scan_v32_kd{{[0-9a-f]+}}(
// PTX: .maxntid 256, 1, 1
// PTX-COUNT-348: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
// PTX-NOT: mma.sync
// PTX-LABEL: .visible .entry kda_chunk_heads128_scan_v64_kd{{[0-9a-f]+}}(
// PTX: .maxntid 256, 1, 1
// PTX-COUNT-636: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
// PTX-NOT: mma.sync
// Self-staged, 128 columns: the same 636 a wave; the rows by cp.async.cg,
// 16 bytes a thread a piece: the first chunk's phase-1 rows (W, q o exp G
// and U: 24 pieces a thread), then a chunk's phase-2 rows (A_qk, k o
// exp(G_last - G): 12) and exp(G_last) (1) and the next chunk's phase-1
// rows (24); each phase's pieces waited for once (commit, wait_group 0)
// before its barrier.
// PTX-LABEL: .visible .entry kda_chunk_heads128_scan_v128_kd{{[0-9a-f]+}}(
// PTX: .maxntid 256, 1, 1
// PTX-COUNT-24: cp.async.cg.shared.global [{{.*}}], [{{.*}}], 16, {{.*}};
// PTX: cp.async.commit_group;
// PTX-NEXT: cp.async.wait_group 0;
// PTX-NEXT: bar.sync 0;
// PTX-COUNT-636: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
// PTX-NOT: mma.sync
// The maps take no output: V_new and the update only, 2 x 192.
// PTX-LABEL: .visible .entry kda_chunk_heads128_maps_v64_kd{{[0-9a-f]+}}(
// PTX-COUNT-384: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
// PTX-NOT: mma.sync
// PTX-LABEL: .visible .entry kda_chunk_heads128_join_kd{{[0-9a-f]+}}(
// PTX-NOT: mma.sync
// PTX-LABEL: .visible .entry kda_chunk_heads128_segments_v64_kd{{[0-9a-f]+}}(
// PTX-COUNT-636: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
// PTX-NOT: mma.sync
// The staging waves' L2 hints of the next chunk's records: the 16- and
// 64-column scans only.
// RUN: FileCheck %s --check-prefix=PF --input-file=%t/sm_90/kda_kernels.ptx
// PF-LABEL: .visible .entry kda_chunk_heads128_scan_kd{{[0-9a-f]+}}(
// PF: prefetch.global.L2
// PF-LABEL: .visible .entry kda_chunk_heads128_scan_v32_kd{{[0-9a-f]+}}(
// PF-NOT: prefetch
// PF-LABEL: .visible .entry kda_chunk_heads128_scan_v64_kd{{[0-9a-f]+}}(
// PF: prefetch.global.L2

// FIG-DAG: sm_90 kda_chunk_heads128_prep: {{.*}}spills 0
// FIG-DAG: sm_90 kda_chunk_heads128_scan: {{.*}}spills 0
// FIG-DAG: sm_90 kda_chunk_heads128_scan_v32: {{.*}}spills 0
// FIG-DAG: sm_90 kda_chunk_heads128_scan_v64: {{.*}}spills 0
// FIG-DAG: sm_90 kda_chunk_heads128_maps_v64: {{.*}}spills 0
// FIG-DAG: sm_90 kda_chunk_heads128_join: {{.*}}spills 0
// FIG-DAG: sm_90 kda_chunk_heads128_scan_v128: {{.*}}spills 0
// FIG-DAG: sm_90 kda_chunk_heads128_segments_v64: {{.*}}spills 0

// MANIFEST: "dynamic_lds_bytes": 110336,
// MANIFEST: "kind": "chunk_prep",
// MANIFEST: "fixed": 262144,
// MANIFEST: "per_token": 6218

// The staged rows are read by the compute waves as the atoms' B operands
// down their rows (k pairs: 8-byte reads) and stored by the staging waves
// 16 bytes at a time; W's rows, which the prep writes in run order
// (ChunkPlan::wRuns: whole 16-byte runs, where the other fields' pairs are
// 8-byte stores), are read a fragment at a time (16-byte reads: 64 a chunk
// in a compute wave, its 8 k steps x 8 tiles of W's 64 rows).
// RUNS-LABEL: .visible .entry kda_chunk_heads128_prep_kd{{[0-9a-f]+}}(
// RUNS: st.global.v4.b32
// RUNS-LABEL: .visible .entry kda_chunk_heads128_scan_kd{{[0-9a-f]+}}(
// RUNS: st.shared.v4.b32
// RUNS: ld.shared.v2.b32
// RUNS: bar.sync
// RUNS-LABEL: .visible .entry kda_chunk_heads128_scan_v64_kd{{[0-9a-f]+}}(
// RUNS-COUNT-64: ld.shared.v4.b32
// RUNS-NOT: ld.shared.v4.b32
// RUNS-LABEL: .visible .entry kda_chunk_heads128_scan_v128_kd{{[0-9a-f]+}}(
// RUNS-COUNT-64: ld.shared.v4.b32
// RUNS-NOT: ld.shared.v4.b32
// RUNS: .visible .entry kda_chunk_heads128_maps_v64_kd{{[0-9a-f]+}}(
