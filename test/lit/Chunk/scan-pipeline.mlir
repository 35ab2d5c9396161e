// The chunk scan's row pipeline (scan_stages on kda.chunk_stage) at the
// depths every target accepts for this layer: head_k 64, head_v 16, chunk
// 64, so a ring slot holds 64 W rows of 256 bytes and 64 U rows of 64 bytes
// (20480 bytes). The builder's output carries the ring (a kda.lds_buffer at
// the dynamic-LDS byte after the scan's other arrays), the schedule it
// expanded and verified - predicated prologue copy, the wait and drained
// barrier before each chunk's read, the next chunk's copy after it, the exit
// drain - the depth in kda.tile and the dynamic LDS the runtime launches
// with (the ring included). Copies: cp.async on sm_90 and emu32,
// register-staged elsewhere (gfx950's global_load_lds would pad each 64-byte
// U row to 1 KiB: scanRingAsync). Depth 1 stays the synchronous staging
// (no ring, no schedule): the scan with its state in registers where its
// 78080 bytes fit (ChunkPlan::regState), else the LDS-resident one; on
// the 32-lane targets its slab is split along K over four compute waves
// (k_split 4), whose partial products meet in 40960 more bytes. gfx942 and emu (64 KiB) fit the depth-2 ring only
// without staging the other rows (the ring sits at byte 15360); the others
// stage them too (byte 50176). Depths 3 and 4: scan-pipeline-deep.mlir;
// rejected depths: scan-pipeline-invalid.mlir.
// RUN: kda-opt %s --kda-lower-to-gpu=target=gfx942 | FileCheck %s --check-prefixes=CHECK,SMALL,STAGED
// RUN: kda-opt %s --kda-lower-to-gpu=target=emu | FileCheck %s --check-prefixes=CHECK,SMALL,STAGED
// RUN: kda-opt %s --kda-lower-to-gpu=target=gfx950 | FileCheck %s --check-prefixes=CHECK,LARGE,STAGED,W64
// RUN: kda-opt %s --kda-lower-to-gpu=target=emu950 | FileCheck %s --check-prefixes=CHECK,LARGE,STAGED,W64
// RUN: kda-opt %s --kda-lower-to-gpu=target=sm_90 | FileCheck %s --check-prefixes=CHECK,LARGE,ASYNC,W32
// RUN: kda-opt %s --kda-lower-to-gpu=target=emu32 | FileCheck %s --check-prefixes=CHECK,LARGE,ASYNC,W32
// The schedule lowered with the target's atoms, nothing of it left.
// RUN: kda-opt %s --pass-pipeline='builtin.module(kda-lower-to-gpu{target=sm_90},kda-verify-pipeline,gpu.module(kda-lower-atoms))' | FileCheck %s --check-prefix=SM90-LOW
// RUN: kda-opt %s --pass-pipeline='builtin.module(kda-lower-to-gpu{target=gfx942},kda-verify-pipeline,gpu.module(kda-lower-atoms))' | FileCheck %s --check-prefix=GFX942-LOW
// Compiled: gfx942's code object (no spills, LDS within the chip), emu's
// shared object, the manifest's dynamic LDS per depth.
// RUN: rm -rf %t && kda-compile %s --targets=gfx942,emu -o %t -q
// RUN: %python %lit_lib/check_figures.py %t/manifest.json gfx942 65536 | FileCheck %s --check-prefix=FIG942
// RUN: FileCheck %s --check-prefix=MANIFEST --input-file=%t/manifest.json
// RUN: test -f %t/emu/kda_kernels.so

// CHECK-LABEL: gpu.func @kda_d1_scan(
// SMALL-SAME: kda.dynamic_lds_bytes = 55296 : i64
// W64-SAME: kda.dynamic_lds_bytes = 78080 : i64
// W32-SAME: kda.dynamic_lds_bytes = 119040 : i64
// W64-SAME: k_split = 1 : i64
// W32-SAME: k_split = 4 : i64
// CHECK-SAME: scan_stages = 1 : i64
// CHECK-NOT: kda.schedule
// CHECK-NOT: kda.verified_pipeline
// SMALL: kda.lds_buffer @kda_d2_scan_scan_rows slots(2) slot_bytes(20480) offset(15360)
// LARGE: kda.lds_buffer @kda_d2_scan_scan_rows slots(2) slot_bytes(20480) offset(50176)
// CHECK-LABEL: gpu.func @kda_d2_scan(
// SMALL-SAME: kda.dynamic_lds_bytes = 56320 : i64
// LARGE-SAME: kda.dynamic_lds_bytes = 91136 : i64
// CHECK-SAME: scan_stages = 2 : i64
// STAGED-SAME: kda.verified_pipeline = "scan_rows: depth 2, 2 slots of 20480 bytes at dynamic LDS byte {{15360|50176}}, staged copies, verified for
// ASYNC-SAME: kda.verified_pipeline = "scan_rows: depth 2, 2 slots of 20480 bytes at dynamic LDS byte 50176, async copies, verified for
// CHECK: %[[DYN:.*]] = gpu.dynamic_shared_memory
// SMALL: %[[RING:.*]] = memref.view %[[DYN]][%{{.*}}][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<40960xi8, #gpu.address_space<workgroup>>
// LARGE: %[[RING:.*]] = memref.view %[[DYN]][%{{.*}}][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<40960xi8, #gpu.address_space<workgroup>>
// CHECK: kda.schedule "scan_rows" dynamic_trip_count(%[[T:.*]]) depth(2) target(
// CHECK: %[[P0:.*]] = arith.cmpi slt, %c0{{.*}}, %[[T]]
// STAGED: kda.staged_copy @kda_d2_scan_scan_rows[%{{.*}}] iter(%c0{{.*}}) if(%[[P0]]) do {
// ASYNC: kda.async_copy @kda_d2_scan_scan_rows[%{{.*}}] iter(%c0{{.*}}) if(%[[P0]]) do {
// STAGED: kda.copy_row %{{.*}} to %[[RING]][%{{.*}}] elems(64) atom({{ ?}}staged)
// STAGED: kda.copy_row %{{.*}} to %[[RING]][%{{.*}}] elems(16) atom({{ ?}}staged)
// ASYNC: kda.copy_row %{{.*}} to %[[RING]][%{{.*}}] elems(64) atom({{ ?}}cp_async)
// ASYNC: kda.copy_row %{{.*}} to %[[RING]][%{{.*}}] elems(16) atom({{ ?}}cp_async)
// CHECK: scf.for %[[C:.*]] = %{{.*}} to %[[T]]
// ASYNC-NEXT: kda.async_wait 0
// CHECK-NEXT: kda.lds_barrier
// CHECK: kda.lds_read @kda_d2_scan_scan_rows[%{{.*}}] iter(%[[C]]) do {
// CHECK: %[[N:.*]] = arith.addi %[[C]], %c1
// CHECK: %[[PN:.*]] = arith.cmpi slt, %[[N]], %[[T]]
// STAGED: kda.staged_copy @kda_d2_scan_scan_rows[%{{.*}}] iter(%[[N]]) if(%[[PN]]) do {
// ASYNC: kda.async_copy @kda_d2_scan_scan_rows[%{{.*}}] iter(%[[N]]) if(%[[PN]]) do {
// CHECK: kda.lds_barrier
// CHECK-NEXT: }

// sm_90: each row by cp.async (16 bytes a piece), a commit per copy group,
// wait_group 0 before each chunk's read.
// SM90-LOW-NOT: kda.lds_buffer
// SM90-LOW-LABEL: gpu.func @kda_d2_scan(
// SM90-LOW: nvgpu.device_async_copy %{{.*}} 4 {bypassL1} : memref<?xf32> to memref<64xf32, #gpu.address_space<workgroup>>
// SM90-LOW: nvgpu.device_async_copy %{{.*}} 4 {bypassL1} : memref<?xf32> to memref<16xf32, #gpu.address_space<workgroup>>
// SM90-LOW: nvvm.cp.async.commit.group
// SM90-LOW: nvvm.cp.async.wait.group 0
// SM90-LOW-NOT: {{^ *kda\.}}

// FIG942-DAG: gfx942 kda_d1_scan: {{.*}}scratch_bytes 0, {{.*}}spills 0
// FIG942-DAG: gfx942 kda_d2_scan: {{.*}}scratch_bytes 0, {{.*}}spills 0
// MANIFEST-DAG: "dynamic_lds_bytes": 55296
// MANIFEST-DAG: "dynamic_lds_bytes": 56320
// MANIFEST-DAG: "scan_stages": 2

// gfx942: the rows through registers, drained barriers as amdgpu.lds_barrier.
// GFX942-LOW-NOT: kda.lds_buffer
// GFX942-LOW-LABEL: gpu.func @kda_d2_scan(
// GFX942-LOW: vector.store %{{.*}} : memref<64xf32, #gpu.address_space<workgroup>>, vector<4xf32>
// GFX942-LOW: amdgpu.lds_barrier
// GFX942-LOW-NOT: {{^ *kda\.}}

#l64 = #kda.layer<heads = 1, value_heads = 1, head_k = 64, head_v = 16, gate = none, beta = sigmoid, qk_l2norm = true, act = bf16, state = f32, state_layout = kv>

func.func @d1(%q: memref<?x1x64xbf16>, %k: memref<?x1x64xbf16>, %v: memref<?x1x16xbf16>, %g: memref<?x1x64xbf16>, %beta: memref<?x1xbf16>, %cu: memref<?xi32>, %slots: memref<?xi32>, %init: memref<?xi1>, %state: memref<?x1x64x16xf32>, %o: memref<?x1x16xbf16>) {
  kda.chunk_stage #l64 q(%q : memref<?x1x64xbf16>) k(%k : memref<?x1x64xbf16>) v(%v : memref<?x1x16xbf16>) g(%g : memref<?x1x64xbf16>) beta(%beta : memref<?x1xbf16>) cu_seqlens(%cu : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%init : memref<?xi1>) state(%state : memref<?x1x64x16xf32>) out(%o : memref<?x1x16xbf16>) {chunk_size = 64 : i64, stage = #kda<chunk_stage scan>, scan_stages = 1 : i64}
  return
}

func.func @d2(%q: memref<?x1x64xbf16>, %k: memref<?x1x64xbf16>, %v: memref<?x1x16xbf16>, %g: memref<?x1x64xbf16>, %beta: memref<?x1xbf16>, %cu: memref<?xi32>, %slots: memref<?xi32>, %init: memref<?xi1>, %state: memref<?x1x64x16xf32>, %o: memref<?x1x16xbf16>) {
  kda.chunk_stage #l64 q(%q : memref<?x1x64xbf16>) k(%k : memref<?x1x64xbf16>) v(%v : memref<?x1x16xbf16>) g(%g : memref<?x1x64xbf16>) beta(%beta : memref<?x1xbf16>) cu_seqlens(%cu : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%init : memref<?xi1>) state(%state : memref<?x1x64x16xf32>) out(%o : memref<?x1x16xbf16>) {chunk_size = 64 : i64, stage = #kda<chunk_stage scan>, scan_stages = 2 : i64}
  return
}
