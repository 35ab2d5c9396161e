// The R6 limit of each target on the scan's row pipeline, head_k 256 (a
// 69632-byte ring slot beside a 20480-byte state block and V_new): gfx950's
// 160 KiB holds depth 2 only, sm_90's 227 KiB depths 2 and 3; gfx942's
// 64 KiB none. What kda-tune --list reports (test/lit/Tools/tune-chunk.mlir).
// RUN: not kda-opt %s -split-input-file --kda-lower-to-gpu=target=gfx950 -o /dev/null 2>&1 | FileCheck %s --check-prefix=GFX950
// RUN: not kda-opt %s -split-input-file --kda-lower-to-gpu=target=sm_90 -o /dev/null 2>&1 | FileCheck %s --check-prefix=SM90
// RUN: not kda-opt %s -split-input-file --kda-lower-to-gpu=target=gfx942 -o /dev/null 2>&1 | FileCheck %s --check-prefix=GFX942

// GFX950-NOT: depth 2)
// GFX950: error: 'kda.chunk_stage' op scan pipeline rejected on gfx950: R6: the kernel needs 229376 bytes of LDS (@kda_k256_d3_scan_scan_rows 3 x 69632 in the dynamic shared memory, gpu.dynamic_shared_memory of 229376 bytes) but gfx950 has 163840 (pipeline 'scan_rows' at depth 3)
// GFX950: error: 'kda.chunk_stage' op scan pipeline rejected on gfx950: R6: the kernel needs 299008 bytes of LDS (@kda_k256_d4_scan_scan_rows 4 x 69632 in the dynamic shared memory, gpu.dynamic_shared_memory of 299008 bytes) but gfx950 has 163840 (pipeline 'scan_rows' at depth 4)
// SM90-NOT: depth 2)
// SM90-NOT: depth 3)
// SM90: error: 'kda.chunk_stage' op scan pipeline rejected on sm_90: R6: the kernel needs 299008 bytes of LDS (@kda_k256_d4_scan_scan_rows 4 x 69632 in the dynamic shared memory, gpu.dynamic_shared_memory of 299008 bytes) but sm_90 has 232448 (pipeline 'scan_rows' at depth 4)
// GFX942: R6: the kernel needs 159744 bytes {{.*}} but gfx942 has 65536 (pipeline 'scan_rows' at depth 2)
// GFX942: R6: {{.*}}(pipeline 'scan_rows' at depth 3)
// GFX942: R6: {{.*}}(pipeline 'scan_rows' at depth 4)

#l = #kda.layer<heads = 1, value_heads = 1, head_k = 256, head_v = 16, gate = none, beta = sigmoid, qk_l2norm = true, act = bf16, state = f32, state_layout = kv>

func.func @k256_d2(%q: memref<?x1x256xbf16>, %k: memref<?x1x256xbf16>, %v: memref<?x1x16xbf16>, %g: memref<?x1x256xbf16>, %beta: memref<?x1xbf16>, %cu: memref<?xi32>, %slots: memref<?xi32>, %init: memref<?xi1>, %state: memref<?x1x256x16xf32>, %o: memref<?x1x16xbf16>) {
  kda.chunk_stage #l q(%q : memref<?x1x256xbf16>) k(%k : memref<?x1x256xbf16>) v(%v : memref<?x1x16xbf16>) g(%g : memref<?x1x256xbf16>) beta(%beta : memref<?x1xbf16>) cu_seqlens(%cu : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%init : memref<?xi1>) state(%state : memref<?x1x256x16xf32>) out(%o : memref<?x1x16xbf16>) {chunk_size = 64 : i64, stage = #kda<chunk_stage scan>, scan_stages = 2 : i64}
  return
}

// -----

#l = #kda.layer<heads = 1, value_heads = 1, head_k = 256, head_v = 16, gate = none, beta = sigmoid, qk_l2norm = true, act = bf16, state = f32, state_layout = kv>

func.func @k256_d3(%q: memref<?x1x256xbf16>, %k: memref<?x1x256xbf16>, %v: memref<?x1x16xbf16>, %g: memref<?x1x256xbf16>, %beta: memref<?x1xbf16>, %cu: memref<?xi32>, %slots: memref<?xi32>, %init: memref<?xi1>, %state: memref<?x1x256x16xf32>, %o: memref<?x1x16xbf16>) {
  kda.chunk_stage #l q(%q : memref<?x1x256xbf16>) k(%k : memref<?x1x256xbf16>) v(%v : memref<?x1x16xbf16>) g(%g : memref<?x1x256xbf16>) beta(%beta : memref<?x1xbf16>) cu_seqlens(%cu : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%init : memref<?xi1>) state(%state : memref<?x1x256x16xf32>) out(%o : memref<?x1x16xbf16>) {chunk_size = 64 : i64, stage = #kda<chunk_stage scan>, scan_stages = 3 : i64}
  return
}

// -----

#l = #kda.layer<heads = 1, value_heads = 1, head_k = 256, head_v = 16, gate = none, beta = sigmoid, qk_l2norm = true, act = bf16, state = f32, state_layout = kv>

func.func @k256_d4(%q: memref<?x1x256xbf16>, %k: memref<?x1x256xbf16>, %v: memref<?x1x16xbf16>, %g: memref<?x1x256xbf16>, %beta: memref<?x1xbf16>, %cu: memref<?xi32>, %slots: memref<?xi32>, %init: memref<?xi1>, %state: memref<?x1x256x16xf32>, %o: memref<?x1x16xbf16>) {
  kda.chunk_stage #l q(%q : memref<?x1x256xbf16>) k(%k : memref<?x1x256xbf16>) v(%v : memref<?x1x16xbf16>) g(%g : memref<?x1x256xbf16>) beta(%beta : memref<?x1xbf16>) cu_seqlens(%cu : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%init : memref<?xi1>) state(%state : memref<?x1x256x16xf32>) out(%o : memref<?x1x16xbf16>) {chunk_size = 64 : i64, stage = #kda<chunk_stage scan>, scan_stages = 4 : i64}
  return
}
