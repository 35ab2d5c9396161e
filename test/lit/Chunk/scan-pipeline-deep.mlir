// The chunk scan's row pipeline at depths 3 and 4 on the targets whose LDS
// holds them for this layer (head_k 64, head_v 16, chunk 64; a 20480-byte
// slot): gfx950, emu950 (160 KiB), sm_90, emu32 (227 KiB). gfx942 and emu
// reject both with R6 (scan-pipeline-invalid.mlir). The prologue copies
// chunks 0 .. depth - 2, each predicated on the chunk existing (a sequence
// shorter than the depth issues empty groups, never a copy past its end),
// and the wait before chunk c's read leaves depth - 2 groups in flight.
// RUN: kda-opt %s --kda-lower-to-gpu=target=gfx950 | FileCheck %s --check-prefixes=CHECK,STAGED
// RUN: kda-opt %s --kda-lower-to-gpu=target=emu950 | FileCheck %s --check-prefixes=CHECK,STAGED
// RUN: kda-opt %s --kda-lower-to-gpu=target=sm_90 | FileCheck %s --check-prefixes=CHECK,ASYNC
// RUN: kda-opt %s --kda-lower-to-gpu=target=emu32 | FileCheck %s --check-prefixes=CHECK,ASYNC
// RUN: rm -rf %t && kda-compile %s --targets=sm_90,gfx950 -o %t -q
// RUN: FileCheck %s --check-prefix=PTX --input-file=%t/sm_90/kda_kernels.ptx
// RUN: %python %lit_lib/check_figures.py %t/manifest.json gfx950 163840 | FileCheck %s --check-prefix=FIG950
// RUN: %python %lit_lib/check_figures.py %t/manifest.json sm_90 232448 | FileCheck %s --check-prefix=FIG90
// RUN: FileCheck %s --check-prefix=MANIFEST --input-file=%t/manifest.json

// CHECK: kda.lds_buffer @kda_d3_scan_scan_rows slots(3) slot_bytes(20480) offset(50176)
// CHECK-LABEL: gpu.func @kda_d3_scan(
// CHECK-SAME: kda.dynamic_lds_bytes = 111616 : i64
// CHECK-SAME: scan_stages = 3 : i64
// CHECK: kda.schedule "scan_rows" dynamic_trip_count(%[[T:.*]]) depth(3) target(
// CHECK: arith.cmpi slt, %c0{{.*}}, %[[T]]
// STAGED: kda.staged_copy @kda_d3_scan_scan_rows[%{{.*}}] iter(%c0
// ASYNC: kda.async_copy @kda_d3_scan_scan_rows[%{{.*}}] iter(%c0
// CHECK: %[[P1:.*]] = arith.cmpi slt, %c1{{.*}}, %[[T]]
// STAGED: kda.staged_copy @kda_d3_scan_scan_rows[%{{.*}}] iter(%c1{{.*}}) if(%[[P1]]) do {
// ASYNC: kda.async_copy @kda_d3_scan_scan_rows[%{{.*}}] iter(%c1{{.*}}) if(%[[P1]]) do {
// CHECK: scf.for %[[C:.*]] = %{{.*}} to %[[T]]
// ASYNC-NEXT: kda.async_wait 1
// CHECK-NEXT: kda.lds_barrier
// CHECK: kda.lds_read @kda_d3_scan_scan_rows[%{{.*}}] iter(%[[C]]) do {
// CHECK: arith.addi %[[C]], %c2
// CHECK: kda.lds_barrier
// CHECK-NEXT: }

// CHECK: kda.lds_buffer @kda_d4_scan_scan_rows slots(4) slot_bytes(20480) offset(50176)
// CHECK-LABEL: gpu.func @kda_d4_scan(
// CHECK-SAME: kda.dynamic_lds_bytes = 132096 : i64
// CHECK-SAME: scan_stages = 4 : i64
// CHECK: kda.schedule "scan_rows" dynamic_trip_count(%[[T:.*]]) depth(4) target(
// CHECK: %[[P2:.*]] = arith.cmpi slt, %c2{{.*}}, %[[T]]
// STAGED: kda.staged_copy @kda_d4_scan_scan_rows[%{{.*}}] iter(%c2{{.*}}) if(%[[P2]]) do {
// ASYNC: kda.async_copy @kda_d4_scan_scan_rows[%{{.*}}] iter(%c2{{.*}}) if(%[[P2]]) do {
// CHECK: scf.for %[[C:.*]] = %{{.*}} to %[[T]]
// ASYNC-NEXT: kda.async_wait 2
// CHECK-NEXT: kda.lds_barrier
// CHECK: kda.lds_read @kda_d4_scan_scan_rows[%{{.*}}] iter(%[[C]]) do {
// CHECK: arith.addi %[[C]], %c3
// CHECK: kda.lds_barrier
// CHECK-NEXT: }

// PTX-LABEL: .visible .entry kda_d3_scan_kd{{[0-9a-f]+}}(
// PTX: cp.async.cg.shared.global
// PTX: cp.async.commit_group
// PTX: cp.async.wait_group 1
// PTX-LABEL: .visible .entry kda_d4_scan_kd{{[0-9a-f]+}}(
// PTX: cp.async.wait_group 2
// FIG950-DAG: gfx950 kda_d3_scan: {{.*}}scratch_bytes 0, {{.*}}spills 0
// FIG950-DAG: gfx950 kda_d4_scan: {{.*}}scratch_bytes 0, {{.*}}spills 0
// FIG90-DAG: sm_90 kda_d3_scan: {{.*}}scratch_bytes 0, spills 0
// FIG90-DAG: sm_90 kda_d4_scan: {{.*}}scratch_bytes 0, spills 0
// The runtime launches with the ring's bytes.
// MANIFEST-DAG: "dynamic_lds_bytes": 111616
// MANIFEST-DAG: "dynamic_lds_bytes": 132096

#l64 = #kda.layer<heads = 1, value_heads = 1, head_k = 64, head_v = 16, gate = none, beta = sigmoid, qk_l2norm = true, act = bf16, state = f32, state_layout = kv>

func.func @d3(%q: memref<?x1x64xbf16>, %k: memref<?x1x64xbf16>, %v: memref<?x1x16xbf16>, %g: memref<?x1x64xbf16>, %beta: memref<?x1xbf16>, %cu: memref<?xi32>, %slots: memref<?xi32>, %init: memref<?xi1>, %state: memref<?x1x64x16xf32>, %o: memref<?x1x16xbf16>) {
  kda.chunk_stage #l64 q(%q : memref<?x1x64xbf16>) k(%k : memref<?x1x64xbf16>) v(%v : memref<?x1x16xbf16>) g(%g : memref<?x1x64xbf16>) beta(%beta : memref<?x1xbf16>) cu_seqlens(%cu : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%init : memref<?xi1>) state(%state : memref<?x1x64x16xf32>) out(%o : memref<?x1x16xbf16>) {chunk_size = 64 : i64, stage = #kda<chunk_stage scan>, scan_stages = 3 : i64}
  return
}

func.func @d4(%q: memref<?x1x64xbf16>, %k: memref<?x1x64xbf16>, %v: memref<?x1x16xbf16>, %g: memref<?x1x64xbf16>, %beta: memref<?x1xbf16>, %cu: memref<?xi32>, %slots: memref<?xi32>, %init: memref<?xi1>, %state: memref<?x1x64x16xf32>, %o: memref<?x1x16xbf16>) {
  kda.chunk_stage #l64 q(%q : memref<?x1x64xbf16>) k(%k : memref<?x1x64xbf16>) v(%v : memref<?x1x16xbf16>) g(%g : memref<?x1x64xbf16>) beta(%beta : memref<?x1xbf16>) cu_seqlens(%cu : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%init : memref<?xi1>) state(%state : memref<?x1x64x16xf32>) out(%o : memref<?x1x16xbf16>) {chunk_size = 64 : i64, stage = #kda<chunk_stage scan>, scan_stages = 4 : i64}
  return
}
