// The warpgroup scan on sm_90 (kda.chunk's warpgroup_scan; ChunkKernelBuilder
// emitWarpgroupScan, docs/wgmma-plan.md step 6): the 64- and 128-column
// scans are one and two warpgroups (128 and 256 threads, one role) issuing
// wgmma m64n64k16 with B K-major (W, q o exp G and A_qk's record rows read k
// doubled: imm-trans-b 0) and m64n128k16 with B MN-major (k o exp(G_last -
// G): imm-trans-b 1), their B offsets' constant parts carried as the
// descriptor's immediate, the rows copied by cp.async pieces whose
// constant parts are their addresses' immediates ([base+imm]), and LLVM's
// loop-invariant code motion off for the chunk loop (llvm.licm.disable). The records
// are split words throughout (no kda.record_runs), so the 16- and
// 32-column register scans read them with byte permutes. kda-verify-pipeline
// accepts every kernel (the flights, the handoffs of the one role).
// The figures record where it stands: the warpgroup scans spill at 255
// registers (S^T's 64 and the products' accumulators); on a lent H100
// (2026-12-06) exact, and slower than the register scans (docs/wgmma-plan.md).
// RUN: rm -rf %t && kda-compile %kda_src_root/test/numeric/chunk-specs/chunk_heads128_wg.mlir --targets=sm_90 -o %t -q
// RUN: FileCheck %s --check-prefix=PTX --input-file=%t/sm_90/kda_kernels.ptx
// RUN: %python %lit_lib/check_figures.py %t/manifest.json sm_90 232448 kda_chunk_heads128_wg_prep=0,0 kda_chunk_heads128_wg_scan_v64=432,224 kda_chunk_heads128_wg_scan_v128=380,184 | FileCheck %s --check-prefix=FIG
// RUN: kda-opt %kda_src_root/test/numeric/chunk-specs/chunk_heads128_wg.mlir --kda-decompose --kda-lower-to-gpu=target=sm_90 --kda-verify-pipeline | FileCheck %s --check-prefix=ROLES
// On a chip without the atom the wide blocks are left out; the others stand.
// RUN: kda-opt %kda_src_root/test/numeric/chunk-specs/chunk_heads128_wg.mlir --kda-decompose --kda-lower-to-gpu=target=gfx942 | FileCheck %s --check-prefix=GFX942

// (LLVM lays the chunk loop's blocks out in an order of its own: the
// checks within the kernel are unordered.)
// PTX-LABEL: .visible .entry kda_chunk_heads128_wg_scan_v128_kd{{[0-9a-f]+}}(
// PTX-DAG: cp.async.cg.shared.global [%r{{[0-9]+}}+{{[0-9]+}}], [g+{{[0-9]+}}], 16,
// PTX-DAG: wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 {{.*}}, %rd{{[0-9]+}}, p, 1, 1, 0;
// PTX-DAG: add.s64 d, %rd{{[0-9]+}}, 16;
// PTX-DAG: wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 {{.*}}, d, p, 1, 1, 0;
// PTX-DAG: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {{.*}}, p, 1, 1, 1;
// PTX-DAG: wgmma.wait_group.sync.aligned 0;
// PTX-LABEL: .visible .entry kda_chunk_heads128_wg_maps_v64_kd{{[0-9a-f]+}}(

// FIG: sm_90 kda_chunk_heads128_wg_scan_v64: {{.*}}registers 255
// FIG: sm_90 kda_chunk_heads128_wg_scan_v128: {{.*}}registers 255

// ROLES: #[[LICM:.*]] = #llvm.loop_licm<disable = true, versioningDisable = true>
// ROLES: #[[LOOP:.*]] = #llvm.loop_annotation<licm = #[[LICM]]>
// ROLES-NOT: kda.record_runs
// ROLES-LABEL: gpu.func @kda_chunk_heads128_wg_scan_v64(
// ROLES-SAME: warpgroup = true
// ROLES-SAME: kda.wave_roles = array<i64: 32>
// ROLES-SAME: known_block_size = array<i32: 128, 1, 1>
// ROLES-COUNT-80: kda.wgmma {{.*}}wgmma_f32_64x64x16_bf16
// ROLES-COUNT-16: kda.wgmma {{.*}}b_mn_major{{.*}}wgmma_f32_64x128x16_bf16
// The chunk loop with LLVM's loop-invariant code motion off.
// ROLES: } {loop_annotation = #[[LOOP]]}
// ROLES-LABEL: gpu.func @kda_chunk_heads128_wg_scan_v128(
// ROLES-SAME: known_block_size = array<i32: 256, 1, 1>
// ROLES-NOT: kda.record_runs

// GFX942-NOT: kda_chunk_heads128_wg_scan_v64
// GFX942-NOT: kda_chunk_heads128_wg_scan_v128
// GFX942: gpu.func @kda_chunk_heads128_wg_scan_v32(
