// Chunk scan row pipelines the verifier rejects, and depths the op rejects:
// over gfx942's 64 KiB of LDS the ring is rejected with R6, the diagnostic
// naming the pipeline, the depth, the target and every allocation (the ring
// counted once, inside the dynamic shared memory it is a view of). The
// twin of scan-pipeline.mlir; scan-pipeline-capacity.mlir has the R6 limits
// of gfx950 and sm_90. A stage kda-decompose made names kda.chunk, the op
// the user wrote (the last case).
// RUN: kda-opt %s -split-input-file -verify-diagnostics --kda-decompose --kda-lower-to-gpu=target=gfx942

// head_k 64: a 20480-byte slot; 3 slots and the state block and V_new
// (8192 bytes) exceed gfx942's 64 KiB.
#l = #kda.layer<heads = 1, value_heads = 1, head_k = 64, head_v = 16, gate = none, beta = sigmoid, qk_l2norm = true, act = bf16, state = f32, state_layout = kv>

func.func @k64_d3(%q: memref<?x1x64xbf16>, %k: memref<?x1x64xbf16>, %v: memref<?x1x16xbf16>, %g: memref<?x1x64xbf16>, %beta: memref<?x1xbf16>, %cu: memref<?xi32>, %slots: memref<?xi32>, %init: memref<?xi1>, %state: memref<?x1x64x16xf32>, %o: memref<?x1x16xbf16>) {
  // expected-error @+1 {{'kda.chunk_stage' op scan pipeline rejected on gfx942: R6: the kernel needs 69632 bytes of LDS (@kda_k64_d3_scan_scan_rows 3 x 20480 in the dynamic shared memory, gpu.dynamic_shared_memory of 69632 bytes) but gfx942 has 65536 (pipeline 'scan_rows' at depth 3)}}
  kda.chunk_stage #l q(%q : memref<?x1x64xbf16>) k(%k : memref<?x1x64xbf16>) v(%v : memref<?x1x16xbf16>) g(%g : memref<?x1x64xbf16>) beta(%beta : memref<?x1xbf16>) cu_seqlens(%cu : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%init : memref<?xi1>) state(%state : memref<?x1x64x16xf32>) out(%o : memref<?x1x16xbf16>) {chunk_size = 64 : i64, stage = #kda<chunk_stage scan>, scan_stages = 3 : i64}
  return
}

// -----

#l = #kda.layer<heads = 1, value_heads = 1, head_k = 64, head_v = 16, gate = none, beta = sigmoid, qk_l2norm = true, act = bf16, state = f32, state_layout = kv>

func.func @k64_d4(%q: memref<?x1x64xbf16>, %k: memref<?x1x64xbf16>, %v: memref<?x1x16xbf16>, %g: memref<?x1x64xbf16>, %beta: memref<?x1xbf16>, %cu: memref<?xi32>, %slots: memref<?xi32>, %init: memref<?xi1>, %state: memref<?x1x64x16xf32>, %o: memref<?x1x16xbf16>) {
  // expected-error @+1 {{'kda.chunk_stage' op scan pipeline rejected on gfx942: R6: the kernel needs 90112 bytes of LDS (@kda_k64_d4_scan_scan_rows 4 x 20480 in the dynamic shared memory, gpu.dynamic_shared_memory of 90112 bytes) but gfx942 has 65536 (pipeline 'scan_rows' at depth 4)}}
  kda.chunk_stage #l q(%q : memref<?x1x64xbf16>) k(%k : memref<?x1x64xbf16>) v(%v : memref<?x1x16xbf16>) g(%g : memref<?x1x64xbf16>) beta(%beta : memref<?x1xbf16>) cu_seqlens(%cu : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%init : memref<?xi1>) state(%state : memref<?x1x64x16xf32>) out(%o : memref<?x1x16xbf16>) {chunk_size = 64 : i64, stage = #kda<chunk_stage scan>, scan_stages = 4 : i64}
  return
}

// -----

// head_k 128: a 36864-byte slot; even depth 2 does not fit.
#l = #kda.layer<heads = 1, value_heads = 1, head_k = 128, head_v = 16, gate = none, beta = sigmoid, qk_l2norm = true, act = bf16, state = f32, state_layout = kv>

func.func @k128_d2(%q: memref<?x1x128xbf16>, %k: memref<?x1x128xbf16>, %v: memref<?x1x16xbf16>, %g: memref<?x1x128xbf16>, %beta: memref<?x1xbf16>, %cu: memref<?xi32>, %slots: memref<?xi32>, %init: memref<?xi1>, %state: memref<?x1x128x16xf32>, %o: memref<?x1x16xbf16>) {
  // expected-error @+1 {{'kda.chunk_stage' op scan pipeline rejected on gfx942: R6: the kernel needs 86016 bytes of LDS (@kda_k128_d2_scan_scan_rows 2 x 36864 in the dynamic shared memory, gpu.dynamic_shared_memory of 86016 bytes) but gfx942 has 65536 (pipeline 'scan_rows' at depth 2)}}
  kda.chunk_stage #l q(%q : memref<?x1x128xbf16>) k(%k : memref<?x1x128xbf16>) v(%v : memref<?x1x16xbf16>) g(%g : memref<?x1x128xbf16>) beta(%beta : memref<?x1xbf16>) cu_seqlens(%cu : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%init : memref<?xi1>) state(%state : memref<?x1x128x16xf32>) out(%o : memref<?x1x16xbf16>) {chunk_size = 64 : i64, stage = #kda<chunk_stage scan>, scan_stages = 2 : i64}
  return
}

// -----

// The depths the verifier proves and the tuner enumerates are 1..4.
#l = #kda.layer<heads = 1, value_heads = 1, head_k = 64, head_v = 16, gate = none, beta = sigmoid, qk_l2norm = true, act = bf16, state = f32, state_layout = kv>

func.func @depth0(%q: memref<?x1x64xbf16>, %k: memref<?x1x64xbf16>, %v: memref<?x1x16xbf16>, %g: memref<?x1x64xbf16>, %beta: memref<?x1xbf16>, %cu: memref<?xi32>, %slots: memref<?xi32>, %init: memref<?xi1>, %state: memref<?x1x64x16xf32>, %o: memref<?x1x16xbf16>) {
  // expected-error @+1 {{'kda.chunk' op scan_stages must be 1..4 (the depths of the scan's row pipeline the verifier proves and the tuner enumerates), got 0}}
  kda.chunk #l q(%q : memref<?x1x64xbf16>) k(%k : memref<?x1x64xbf16>) v(%v : memref<?x1x16xbf16>) g(%g : memref<?x1x64xbf16>) beta(%beta : memref<?x1xbf16>) cu_seqlens(%cu : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%init : memref<?xi1>) state(%state : memref<?x1x64x16xf32>) out(%o : memref<?x1x16xbf16>) {chunk_size = 64 : i64, scan_stages = 0 : i64}
  return
}

// -----

#l = #kda.layer<heads = 1, value_heads = 1, head_k = 64, head_v = 16, gate = none, beta = sigmoid, qk_l2norm = true, act = bf16, state = f32, state_layout = kv>

func.func @depth5(%q: memref<?x1x64xbf16>, %k: memref<?x1x64xbf16>, %v: memref<?x1x16xbf16>, %g: memref<?x1x64xbf16>, %beta: memref<?x1xbf16>, %cu: memref<?xi32>, %slots: memref<?xi32>, %init: memref<?xi1>, %state: memref<?x1x64x16xf32>, %o: memref<?x1x16xbf16>) {
  // expected-error @+1 {{'kda.chunk_stage' op scan_stages must be 1..4 (the depths of the scan's row pipeline the verifier proves and the tuner enumerates), got 5}}
  kda.chunk_stage #l q(%q : memref<?x1x64xbf16>) k(%k : memref<?x1x64xbf16>) v(%v : memref<?x1x16xbf16>) g(%g : memref<?x1x64xbf16>) beta(%beta : memref<?x1xbf16>) cu_seqlens(%cu : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%init : memref<?xi1>) state(%state : memref<?x1x64x16xf32>) out(%o : memref<?x1x16xbf16>) {chunk_size = 64 : i64, stage = #kda<chunk_stage scan>, scan_stages = 5 : i64}
  return
}

// -----

// The first case as a user writes it: the stage's error names kda.chunk, at
// its line.
#l = #kda.layer<heads = 1, value_heads = 1, head_k = 64, head_v = 16, gate = none, beta = sigmoid, qk_l2norm = true, act = bf16, state = f32, state_layout = kv>

func.func @k64_d3_chunk(%q: memref<?x1x64xbf16>, %k: memref<?x1x64xbf16>, %v: memref<?x1x16xbf16>, %g: memref<?x1x64xbf16>, %beta: memref<?x1xbf16>, %cu: memref<?xi32>, %slots: memref<?xi32>, %init: memref<?xi1>, %state: memref<?x1x64x16xf32>, %o: memref<?x1x16xbf16>) {
  // expected-error @+1 {{'kda.chunk' op scan pipeline rejected on gfx942: R6: the kernel needs 69632 bytes of LDS}}
  kda.chunk #l q(%q : memref<?x1x64xbf16>) k(%k : memref<?x1x64xbf16>) v(%v : memref<?x1x16xbf16>) g(%g : memref<?x1x64xbf16>) beta(%beta : memref<?x1xbf16>) cu_seqlens(%cu : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%init : memref<?xi1>) state(%state : memref<?x1x64x16xf32>) out(%o : memref<?x1x16xbf16>) {chunk_size = 64 : i64, scan_stages = 3 : i64}
  return
}
