// The chunk path's errors: a stage with a chunk size the kernels lack; a
// kda.chunk given to kda-lower-to-gpu without kda-decompose; head dims the
// chunk kernels do not tile (refused by the op's verifier, before a kernel).
// RUN: kda-opt %s -split-input-file -verify-diagnostics --kda-lower-to-gpu=target=emu

#l = #kda.layer<heads = 1, value_heads = 1, head_k = 64, head_v = 32, gate = none, beta = sigmoid, qk_l2norm = true, act = bf16, state = f32, state_layout = kv>

func.func @not_decomposed(%q: memref<?x1x64xbf16>, %k: memref<?x1x64xbf16>, %v: memref<?x1x32xbf16>, %g: memref<?x1x64xbf16>, %beta: memref<?x1xbf16>, %cu: memref<?xi32>, %slots: memref<?xi32>, %init: memref<?xi1>, %state: memref<?x1x64x32xf32>, %o: memref<?x1x32xbf16>) {
  // expected-error @+1 {{'kda.chunk' op is built as its stages: run kda-decompose before kda-lower-to-gpu}}
  kda.chunk #l q(%q : memref<?x1x64xbf16>) k(%k : memref<?x1x64xbf16>) v(%v : memref<?x1x32xbf16>) g(%g : memref<?x1x64xbf16>) beta(%beta : memref<?x1xbf16>) cu_seqlens(%cu : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%init : memref<?xi1>) state(%state : memref<?x1x64x32xf32>) out(%o : memref<?x1x32xbf16>)
  return
}

// -----

#l = #kda.layer<heads = 1, value_heads = 1, head_k = 64, head_v = 32, gate = none, beta = sigmoid, qk_l2norm = true, act = bf16, state = f32, state_layout = kv>

func.func @bad_size(%q: memref<?x1x64xbf16>, %k: memref<?x1x64xbf16>, %v: memref<?x1x32xbf16>, %g: memref<?x1x64xbf16>, %beta: memref<?x1xbf16>, %cu: memref<?xi32>, %slots: memref<?xi32>, %init: memref<?xi1>, %state: memref<?x1x64x32xf32>, %o: memref<?x1x32xbf16>) {
  // expected-error @+1 {{'kda.chunk_stage' op chunk_size must be 16, 32 or 64, got 8}}
  kda.chunk_stage #l q(%q : memref<?x1x64xbf16>) k(%k : memref<?x1x64xbf16>) v(%v : memref<?x1x32xbf16>) g(%g : memref<?x1x64xbf16>) beta(%beta : memref<?x1xbf16>) cu_seqlens(%cu : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%init : memref<?xi1>) state(%state : memref<?x1x64x32xf32>) out(%o : memref<?x1x32xbf16>) {chunk_size = 8 : i64, stage = #kda<chunk_stage prep>}
  return
}

// -----

#l = #kda.layer<heads = 1, value_heads = 1, head_k = 60, head_v = 32, gate = none, beta = sigmoid, qk_l2norm = true, act = bf16, state = f32, state_layout = kv>

func.func @head_k_60(%q: memref<?x1x60xbf16>, %k: memref<?x1x60xbf16>, %v: memref<?x1x32xbf16>, %g: memref<?x1x60xbf16>, %beta: memref<?x1xbf16>, %cu: memref<?xi32>, %slots: memref<?xi32>, %init: memref<?xi1>, %state: memref<?x1x60x32xf32>, %o: memref<?x1x32xbf16>) {
  // expected-error @+1 {{'kda.chunk_stage' op the chunk kernels tile head_k and head_v by 16; head_k = 60, head_v = 32 (leave kda.chunk out: kda_forward without a chunk kernel takes every row of the layer to the recurrent kernel)}}
  kda.chunk_stage #l q(%q : memref<?x1x60xbf16>) k(%k : memref<?x1x60xbf16>) v(%v : memref<?x1x32xbf16>) g(%g : memref<?x1x60xbf16>) beta(%beta : memref<?x1xbf16>) cu_seqlens(%cu : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%init : memref<?xi1>) state(%state : memref<?x1x60x32xf32>) out(%o : memref<?x1x32xbf16>) {chunk_size = 64 : i64, stage = #kda<chunk_stage scan>}
  return
}
