// The warpgroup scan's rules (ChunkKernelBuilder.cpp, planWarpgroupScan),
// each refused where the scan is built, naming the block and the target: a
// chunk whose rows are not one m64n64k16's n, a row pipeline it does not
// take, a head_k whose S^T does not fit a thread's registers.
// RUN: kda-opt %s -split-input-file -verify-diagnostics --kda-lower-to-gpu=target=sm_90

#l = #kda.layer<heads = 1, value_heads = 1, head_k = 64, head_v = 64, gate = none, beta = sigmoid, qk_l2norm = true, act = bf16, state = f32, state_layout = kv>

func.func @chunk_32(%q: memref<?x1x64xbf16>, %k: memref<?x1x64xbf16>, %v: memref<?x1x64xbf16>, %g: memref<?x1x64xbf16>, %beta: memref<?x1xbf16>, %cu: memref<?xi32>, %slots: memref<?xi32>, %init: memref<?xi1>, %state: memref<?x1x64x64xf32>, %o: memref<?x1x64xbf16>) {
  // expected-error @+1 {{'kda.chunk_stage' op warpgroup_scan (block_v 64, sm_90): chunk_size must be 64 (a chunk's rows are the n of one m64n64k16), got 32}}
  kda.chunk_stage #l q(%q : memref<?x1x64xbf16>) k(%k : memref<?x1x64xbf16>) v(%v : memref<?x1x64xbf16>) g(%g : memref<?x1x64xbf16>) beta(%beta : memref<?x1xbf16>) cu_seqlens(%cu : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%init : memref<?xi1>) state(%state : memref<?x1x64x64xf32>) out(%o : memref<?x1x64xbf16>) {chunk_size = 32 : i64, stage = #kda<chunk_stage scan>, block_v = 64 : i64, warpgroup_scan}
  return
}

// -----

#l = #kda.layer<heads = 1, value_heads = 1, head_k = 64, head_v = 64, gate = none, beta = sigmoid, qk_l2norm = true, act = bf16, state = f32, state_layout = kv>

func.func @pipelined(%q: memref<?x1x64xbf16>, %k: memref<?x1x64xbf16>, %v: memref<?x1x64xbf16>, %g: memref<?x1x64xbf16>, %beta: memref<?x1xbf16>, %cu: memref<?xi32>, %slots: memref<?xi32>, %init: memref<?xi1>, %state: memref<?x1x64x64xf32>, %o: memref<?x1x64xbf16>) {
  // expected-error @+1 {{'kda.chunk_stage' op warpgroup_scan (block_v 64, sm_90): it stages its rows a phase ahead itself; scan_stages must be 1, got 2}}
  kda.chunk_stage #l q(%q : memref<?x1x64xbf16>) k(%k : memref<?x1x64xbf16>) v(%v : memref<?x1x64xbf16>) g(%g : memref<?x1x64xbf16>) beta(%beta : memref<?x1xbf16>) cu_seqlens(%cu : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%init : memref<?xi1>) state(%state : memref<?x1x64x64xf32>) out(%o : memref<?x1x64xbf16>) {chunk_size = 64 : i64, stage = #kda<chunk_stage scan>, block_v = 64 : i64, scan_stages = 2 : i64, warpgroup_scan}
  return
}

// -----

#l = #kda.layer<heads = 1, value_heads = 1, head_k = 96, head_v = 64, gate = none, beta = sigmoid, qk_l2norm = true, act = bf16, state = f32, state_layout = kv>

func.func @head_k_96(%q: memref<?x1x96xbf16>, %k: memref<?x1x96xbf16>, %v: memref<?x1x64xbf16>, %g: memref<?x1x96xbf16>, %beta: memref<?x1xbf16>, %cu: memref<?xi32>, %slots: memref<?xi32>, %init: memref<?xi1>, %state: memref<?x1x96x64xf32>, %o: memref<?x1x64xbf16>) {
  // expected-error @+1 {{'kda.chunk_stage' op warpgroup_scan (block_v 64, sm_90): head_k must be 64 or 128 (S^T holds K / 2 registers a thread), got 96}}
  kda.chunk_stage #l q(%q : memref<?x1x96xbf16>) k(%k : memref<?x1x96xbf16>) v(%v : memref<?x1x64xbf16>) g(%g : memref<?x1x96xbf16>) beta(%beta : memref<?x1xbf16>) cu_seqlens(%cu : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%init : memref<?xi1>) state(%state : memref<?x1x96x64xf32>) out(%o : memref<?x1x64xbf16>) {chunk_size = 64 : i64, stage = #kda<chunk_stage scan>, block_v = 64 : i64, warpgroup_scan}
  return
}
