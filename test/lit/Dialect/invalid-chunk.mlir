// kda.chunk: chunk sizes 16, 32, 64; same operand rules as kda.recurrent;
// no #kda.config (the chunk kernels are shaped by chunk_size, scan_stages and scan_block_v);
// segment_chunks 0 or 2.., with qk_l2norm and scan_stages 1; the split
// scan's stages only with it.
// RUN: kda-opt %s -split-input-file -verify-diagnostics

#l = #kda.layer<heads = 2, value_heads = 4, head_k = 16, head_v = 16, gate = lower_bound(-5.0), beta = sigmoid, qk_l2norm = true, act = bf16, state = f32, state_layout = kv>

func.func @f(%q: memref<?x2x16xbf16>, %k: memref<?x2x16xbf16>, %v: memref<?x4x16xbf16>, %g: memref<?x4x16xbf16>, %beta: memref<?x4xbf16>, %cu_seqlens: memref<?xi32>, %slots: memref<?xi32>, %has_initial_state: memref<?xi1>, %state: memref<?x4x16x16xf32>, %out: memref<?x4x16xbf16>) {
  // expected-error @+1 {{'kda.chunk' op chunk_size must be 16, 32 or 64, got 48}}
  kda.chunk #l q(%q : memref<?x2x16xbf16>) k(%k : memref<?x2x16xbf16>) v(%v : memref<?x4x16xbf16>) g(%g : memref<?x4x16xbf16>) beta(%beta : memref<?x4xbf16>) cu_seqlens(%cu_seqlens : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%has_initial_state : memref<?xi1>) state(%state : memref<?x4x16x16xf32>) out(%out : memref<?x4x16xbf16>) {chunk_size = 48 : i64}
  return
}

// -----

#l = #kda.layer<heads = 2, value_heads = 4, head_k = 16, head_v = 16, gate = lower_bound(-5.0), beta = sigmoid, qk_l2norm = true, act = bf16, state = f32, state_layout = kv>

func.func @f(%q: memref<?x4x16xbf16>, %k: memref<?x2x16xbf16>, %v: memref<?x4x16xbf16>, %g: memref<?x4x16xbf16>, %beta: memref<?x4xbf16>, %cu_seqlens: memref<?xi32>, %slots: memref<?xi32>, %has_initial_state: memref<?xi1>, %state: memref<?x4x16x16xf32>, %out: memref<?x4x16xbf16>) {
  // expected-error @+1 {{'kda.chunk' op q must be [T, heads, head_k] = [?, 2, 16], got 'memref<?x4x16xbf16>' (dimension 1 is 4, expected 2)}}
  kda.chunk #l q(%q : memref<?x4x16xbf16>) k(%k : memref<?x2x16xbf16>) v(%v : memref<?x4x16xbf16>) g(%g : memref<?x4x16xbf16>) beta(%beta : memref<?x4xbf16>) cu_seqlens(%cu_seqlens : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%has_initial_state : memref<?xi1>) state(%state : memref<?x4x16x16xf32>) out(%out : memref<?x4x16xbf16>)
  return
}

// -----

#l = #kda.layer<heads = 2, value_heads = 4, head_k = 16, head_v = 16, gate = lower_bound(-5.0), beta = sigmoid, qk_l2norm = true, act = bf16, state = f32, state_layout = kv>

func.func @f(%q: memref<?x2x16xbf16>, %k: memref<?x2x16xbf16>, %v: memref<?x4x16xbf16>, %g: memref<?x4x16xbf16>, %beta: memref<?x4xbf16>, %cu_seqlens: memref<?xi32>, %slots: memref<?xi32>, %has_initial_state: memref<?xi1>, %state: memref<?x4x16x16xf32>, %out: memref<?x4x16xbf16>) {
  // expected-error @+1 {{'kda.chunk' op takes no #kda.config (it describes the recurrent kernel); the chunk kernels are shaped by chunk_size, scan_stages and scan_block_v}}
  kda.chunk #l config #kda.config<block_k = 16, block_v = 16, block_t = 1, warps = 1, stages = 1, v_passes = 2> q(%q : memref<?x2x16xbf16>) k(%k : memref<?x2x16xbf16>) v(%v : memref<?x4x16xbf16>) g(%g : memref<?x4x16xbf16>) beta(%beta : memref<?x4xbf16>) cu_seqlens(%cu_seqlens : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%has_initial_state : memref<?xi1>) state(%state : memref<?x4x16x16xf32>) out(%out : memref<?x4x16xbf16>)
  return
}

// -----

#l = #kda.layer<heads = 2, value_heads = 4, head_k = 64, head_v = 64, gate = lower_bound(-5.0), beta = sigmoid, qk_l2norm = true, act = bf16, state = f32, state_layout = kv>

func.func @f(%q: memref<?x2x64xbf16>, %k: memref<?x2x64xbf16>, %v: memref<?x4x64xbf16>, %g: memref<?x4x64xbf16>, %beta: memref<?x4xbf16>, %cu_seqlens: memref<?xi32>, %slots: memref<?xi32>, %has_initial_state: memref<?xi1>, %state: memref<?x4x64x64xf32>, %out: memref<?x4x64xbf16>) {
  // expected-error @+1 {{'kda.chunk' op scan_block_v entry 48 must be a multiple of 16 that divides head_v (64)}}
  kda.chunk #l q(%q : memref<?x2x64xbf16>) k(%k : memref<?x2x64xbf16>) v(%v : memref<?x4x64xbf16>) g(%g : memref<?x4x64xbf16>) beta(%beta : memref<?x4xbf16>) cu_seqlens(%cu_seqlens : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%has_initial_state : memref<?xi1>) state(%state : memref<?x4x64x64xf32>) out(%out : memref<?x4x64xbf16>) {scan_block_v = array<i64: 16, 48>}
  return
}

// -----

#l = #kda.layer<heads = 2, value_heads = 4, head_k = 64, head_v = 64, gate = lower_bound(-5.0), beta = sigmoid, qk_l2norm = true, act = bf16, state = f32, state_layout = kv>

func.func @f(%q: memref<?x2x64xbf16>, %k: memref<?x2x64xbf16>, %v: memref<?x4x64xbf16>, %g: memref<?x4x64xbf16>, %beta: memref<?x4xbf16>, %cu_seqlens: memref<?xi32>, %slots: memref<?xi32>, %has_initial_state: memref<?xi1>, %state: memref<?x4x64x64xf32>, %out: memref<?x4x64xbf16>) {
  // expected-error @+1 {{'kda.chunk' op scan_block_v entry 8 must be a multiple of 16 that divides head_v (64)}}
  kda.chunk #l q(%q : memref<?x2x64xbf16>) k(%k : memref<?x2x64xbf16>) v(%v : memref<?x4x64xbf16>) g(%g : memref<?x4x64xbf16>) beta(%beta : memref<?x4xbf16>) cu_seqlens(%cu_seqlens : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%has_initial_state : memref<?xi1>) state(%state : memref<?x4x64x64xf32>) out(%out : memref<?x4x64xbf16>) {scan_block_v = array<i64: 8>}
  return
}

// -----

#l = #kda.layer<heads = 2, value_heads = 4, head_k = 64, head_v = 64, gate = lower_bound(-5.0), beta = sigmoid, qk_l2norm = true, act = bf16, state = f32, state_layout = kv>

func.func @f(%q: memref<?x2x64xbf16>, %k: memref<?x2x64xbf16>, %v: memref<?x4x64xbf16>, %g: memref<?x4x64xbf16>, %beta: memref<?x4xbf16>, %cu_seqlens: memref<?xi32>, %slots: memref<?xi32>, %has_initial_state: memref<?xi1>, %state: memref<?x4x64x64xf32>, %out: memref<?x4x64xbf16>) {
  // expected-error @+1 {{'kda.chunk' op scan_block_v must be strictly ascending; 16 follows 32}}
  kda.chunk #l q(%q : memref<?x2x64xbf16>) k(%k : memref<?x2x64xbf16>) v(%v : memref<?x4x64xbf16>) g(%g : memref<?x4x64xbf16>) beta(%beta : memref<?x4xbf16>) cu_seqlens(%cu_seqlens : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%has_initial_state : memref<?xi1>) state(%state : memref<?x4x64x64xf32>) out(%out : memref<?x4x64xbf16>) {scan_block_v = array<i64: 32, 16>}
  return
}

// -----

#l = #kda.layer<heads = 2, value_heads = 4, head_k = 64, head_v = 64, gate = lower_bound(-5.0), beta = sigmoid, qk_l2norm = true, act = bf16, state = f32, state_layout = kv>

func.func @f(%q: memref<?x2x64xbf16>, %k: memref<?x2x64xbf16>, %v: memref<?x4x64xbf16>, %g: memref<?x4x64xbf16>, %beta: memref<?x4xbf16>, %cu_seqlens: memref<?xi32>, %slots: memref<?xi32>, %has_initial_state: memref<?xi1>, %state: memref<?x4x64x64xf32>, %out: memref<?x4x64xbf16>) {
  // expected-error @+1 {{'kda.chunk' op scan_block_v must be strictly ascending; 32 follows 32}}
  kda.chunk #l q(%q : memref<?x2x64xbf16>) k(%k : memref<?x2x64xbf16>) v(%v : memref<?x4x64xbf16>) g(%g : memref<?x4x64xbf16>) beta(%beta : memref<?x4xbf16>) cu_seqlens(%cu_seqlens : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%has_initial_state : memref<?xi1>) state(%state : memref<?x4x64x64xf32>) out(%out : memref<?x4x64xbf16>) {scan_block_v = array<i64: 32, 32>}
  return
}

// -----

#l = #kda.layer<heads = 2, value_heads = 4, head_k = 64, head_v = 64, gate = lower_bound(-5.0), beta = sigmoid, qk_l2norm = true, act = bf16, state = f32, state_layout = kv>

func.func @f(%q: memref<?x2x64xbf16>, %k: memref<?x2x64xbf16>, %v: memref<?x4x64xbf16>, %g: memref<?x4x64xbf16>, %beta: memref<?x4xbf16>, %cu_seqlens: memref<?xi32>, %slots: memref<?xi32>, %has_initial_state: memref<?xi1>, %state: memref<?x4x64x64xf32>, %out: memref<?x4x64xbf16>) {
  // expected-error @+1 {{'kda.chunk' op scan_block_v lists no block (leave it out for the default blocks)}}
  kda.chunk #l q(%q : memref<?x2x64xbf16>) k(%k : memref<?x2x64xbf16>) v(%v : memref<?x4x64xbf16>) g(%g : memref<?x4x64xbf16>) beta(%beta : memref<?x4xbf16>) cu_seqlens(%cu_seqlens : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%has_initial_state : memref<?xi1>) state(%state : memref<?x4x64x64xf32>) out(%out : memref<?x4x64xbf16>) {scan_block_v = array<i64>}
  return
}

// -----

#l = #kda.layer<heads = 2, value_heads = 4, head_k = 64, head_v = 64, gate = lower_bound(-5.0), beta = sigmoid, qk_l2norm = true, act = bf16, state = f32, state_layout = kv>

func.func @f(%q: memref<?x2x64xbf16>, %k: memref<?x2x64xbf16>, %v: memref<?x4x64xbf16>, %g: memref<?x4x64xbf16>, %beta: memref<?x4xbf16>, %cu_seqlens: memref<?xi32>, %slots: memref<?xi32>, %has_initial_state: memref<?xi1>, %state: memref<?x4x64x64xf32>, %out: memref<?x4x64xbf16>) {
  // expected-error @+1 {{'kda.chunk_stage' op block_v 128 must be a multiple of 16 that divides head_v (64)}}
  kda.chunk_stage #l q(%q : memref<?x2x64xbf16>) k(%k : memref<?x2x64xbf16>) v(%v : memref<?x4x64xbf16>) g(%g : memref<?x4x64xbf16>) beta(%beta : memref<?x4xbf16>) cu_seqlens(%cu_seqlens : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%has_initial_state : memref<?xi1>) state(%state : memref<?x4x64x64xf32>) out(%out : memref<?x4x64xbf16>) {chunk_size = 64 : i64, stage = #kda<chunk_stage scan>, block_v = 128 : i64}
  return
}

// -----

#l = #kda.layer<heads = 2, value_heads = 4, head_k = 64, head_v = 64, gate = lower_bound(-5.0), beta = sigmoid, qk_l2norm = true, act = bf16, state = f32, state_layout = kv>

func.func @f(%q: memref<?x2x64xbf16>, %k: memref<?x2x64xbf16>, %v: memref<?x4x64xbf16>, %g: memref<?x4x64xbf16>, %beta: memref<?x4xbf16>, %cu_seqlens: memref<?xi32>, %slots: memref<?xi32>, %has_initial_state: memref<?xi1>, %state: memref<?x4x64x64xf32>, %out: memref<?x4x64xbf16>) {
  // expected-error @+1 {{'kda.chunk_stage' op block_v shapes the scan; the prep takes none}}
  kda.chunk_stage #l q(%q : memref<?x2x64xbf16>) k(%k : memref<?x2x64xbf16>) v(%v : memref<?x4x64xbf16>) g(%g : memref<?x4x64xbf16>) beta(%beta : memref<?x4xbf16>) cu_seqlens(%cu_seqlens : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%has_initial_state : memref<?xi1>) state(%state : memref<?x4x64x64xf32>) out(%out : memref<?x4x64xbf16>) {chunk_size = 64 : i64, stage = #kda<chunk_stage prep>, block_v = 32 : i64}
  return
}

// -----

#l = #kda.layer<heads = 2, value_heads = 4, head_k = 16, head_v = 16, gate = lower_bound(-5.0), beta = sigmoid, act = bf16, state = f32, state_layout = kv>

func.func @f(%q: memref<?x2x16xbf16>, %k: memref<?x2x16xbf16>, %v: memref<?x4x16xbf16>, %g: memref<?x4x16xbf16>, %beta: memref<?x4xbf16>, %cu_seqlens: memref<?xi32>, %slots: memref<?xi32>, %has_initial_state: memref<?xi1>, %state: memref<?x4x16x16xf32>, %out: memref<?x4x16xbf16>) {
  // expected-error @+1 {{'kda.chunk' op segment_chunks 8 needs qk_l2norm (a segment's composed map of the state is a contraction only with normalised keys)}}
  kda.chunk #l q(%q : memref<?x2x16xbf16>) k(%k : memref<?x2x16xbf16>) v(%v : memref<?x4x16xbf16>) g(%g : memref<?x4x16xbf16>) beta(%beta : memref<?x4xbf16>) cu_seqlens(%cu_seqlens : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%has_initial_state : memref<?xi1>) state(%state : memref<?x4x16x16xf32>) out(%out : memref<?x4x16xbf16>) {segment_chunks = 8 : i64}
  return
}

// -----

#l = #kda.layer<heads = 2, value_heads = 4, head_k = 16, head_v = 16, gate = lower_bound(-5.0), beta = sigmoid, qk_l2norm = true, act = bf16, state = f32, state_layout = kv>

func.func @f(%q: memref<?x2x16xbf16>, %k: memref<?x2x16xbf16>, %v: memref<?x4x16xbf16>, %g: memref<?x4x16xbf16>, %beta: memref<?x4xbf16>, %cu_seqlens: memref<?xi32>, %slots: memref<?xi32>, %has_initial_state: memref<?xi1>, %state: memref<?x4x16x16xf32>, %out: memref<?x4x16xbf16>) {
  // expected-error @+1 {{'kda.chunk' op segment_chunks 1 must be 0 (no split) or 2..4096}}
  kda.chunk #l q(%q : memref<?x2x16xbf16>) k(%k : memref<?x2x16xbf16>) v(%v : memref<?x4x16xbf16>) g(%g : memref<?x4x16xbf16>) beta(%beta : memref<?x4xbf16>) cu_seqlens(%cu_seqlens : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%has_initial_state : memref<?xi1>) state(%state : memref<?x4x16x16xf32>) out(%out : memref<?x4x16xbf16>) {segment_chunks = 1 : i64}
  return
}

// -----

#l = #kda.layer<heads = 2, value_heads = 4, head_k = 16, head_v = 16, gate = lower_bound(-5.0), beta = sigmoid, qk_l2norm = true, act = bf16, state = f32, state_layout = kv>

func.func @f(%q: memref<?x2x16xbf16>, %k: memref<?x2x16xbf16>, %v: memref<?x4x16xbf16>, %g: memref<?x4x16xbf16>, %beta: memref<?x4xbf16>, %cu_seqlens: memref<?xi32>, %slots: memref<?xi32>, %has_initial_state: memref<?xi1>, %state: memref<?x4x16x16xf32>, %out: memref<?x4x16xbf16>) {
  // expected-error @+1 {{'kda.chunk' op segment_chunks 8 needs scan_stages 1 (the segments run the register scan); scan_stages is 2}}
  kda.chunk #l q(%q : memref<?x2x16xbf16>) k(%k : memref<?x2x16xbf16>) v(%v : memref<?x4x16xbf16>) g(%g : memref<?x4x16xbf16>) beta(%beta : memref<?x4xbf16>) cu_seqlens(%cu_seqlens : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%has_initial_state : memref<?xi1>) state(%state : memref<?x4x16x16xf32>) out(%out : memref<?x4x16xbf16>) {scan_stages = 2 : i64, segment_chunks = 8 : i64}
  return
}

// -----

#l = #kda.layer<heads = 2, value_heads = 4, head_k = 16, head_v = 16, gate = lower_bound(-5.0), beta = sigmoid, qk_l2norm = true, act = bf16, state = f32, state_layout = kv>

func.func @f(%q: memref<?x2x16xbf16>, %k: memref<?x2x16xbf16>, %v: memref<?x4x16xbf16>, %g: memref<?x4x16xbf16>, %beta: memref<?x4xbf16>, %cu_seqlens: memref<?xi32>, %slots: memref<?xi32>, %has_initial_state: memref<?xi1>, %state: memref<?x4x16x16xf32>, %out: memref<?x4x16xbf16>) {
  // expected-error @+1 {{'kda.chunk_stage' op stage maps splits the scan within a sequence; it needs segment_chunks}}
  kda.chunk_stage #l q(%q : memref<?x2x16xbf16>) k(%k : memref<?x2x16xbf16>) v(%v : memref<?x4x16xbf16>) g(%g : memref<?x4x16xbf16>) beta(%beta : memref<?x4xbf16>) cu_seqlens(%cu_seqlens : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%has_initial_state : memref<?xi1>) state(%state : memref<?x4x16x16xf32>) out(%out : memref<?x4x16xbf16>) {block_v = 16 : i64, chunk_size = 64 : i64, stage = #kda<chunk_stage maps>}
  return
}

// -----

#l = #kda.layer<heads = 2, value_heads = 4, head_k = 48, head_v = 32, gate = lower_bound(-5.0), beta = sigmoid, qk_l2norm = true, act = bf16, state = f32, state_layout = kv>

func.func @f(%q: memref<?x2x48xbf16>, %k: memref<?x2x48xbf16>, %v: memref<?x4x32xbf16>, %g: memref<?x4x48xbf16>, %beta: memref<?x4xbf16>, %cu_seqlens: memref<?xi32>, %slots: memref<?xi32>, %has_initial_state: memref<?xi1>, %state: memref<?x4x48x32xf32>, %out: memref<?x4x32xbf16>) {
  // expected-error @+1 {{'kda.chunk_stage' op block_v 32 of stage maps must divide head_k (48) too: a maps block lies in M or in B}}
  kda.chunk_stage #l q(%q : memref<?x2x48xbf16>) k(%k : memref<?x2x48xbf16>) v(%v : memref<?x4x32xbf16>) g(%g : memref<?x4x48xbf16>) beta(%beta : memref<?x4xbf16>) cu_seqlens(%cu_seqlens : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%has_initial_state : memref<?xi1>) state(%state : memref<?x4x48x32xf32>) out(%out : memref<?x4x32xbf16>) {block_v = 32 : i64, chunk_size = 64 : i64, segment_chunks = 8 : i64, stage = #kda<chunk_stage maps>}
  return
}

// -----

#l = #kda.layer<heads = 2, value_heads = 4, head_k = 48, head_v = 32, gate = lower_bound(-5.0), beta = sigmoid, qk_l2norm = true, act = bf16, state = f32, state_layout = kv>

func.func @f(%q: memref<?x2x48xbf16>, %k: memref<?x2x48xbf16>, %v: memref<?x4x32xbf16>, %g: memref<?x4x48xbf16>, %beta: memref<?x4xbf16>, %cu_seqlens: memref<?xi32>, %slots: memref<?xi32>, %has_initial_state: memref<?xi1>, %state: memref<?x4x48x32xf32>, %out: memref<?x4x32xbf16>) {
  // expected-error @+1 {{'kda.chunk_stage' op the join takes 16 columns a workgroup; block_v 32}}
  kda.chunk_stage #l q(%q : memref<?x2x48xbf16>) k(%k : memref<?x2x48xbf16>) v(%v : memref<?x4x32xbf16>) g(%g : memref<?x4x48xbf16>) beta(%beta : memref<?x4xbf16>) cu_seqlens(%cu_seqlens : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%has_initial_state : memref<?xi1>) state(%state : memref<?x4x48x32xf32>) out(%out : memref<?x4x32xbf16>) {block_v = 32 : i64, chunk_size = 64 : i64, segment_chunks = 8 : i64, stage = #kda<chunk_stage join>}
  return
}

// -----

// Head dims the chunk kernels do not tile: refused on the user's op, for
// every target (the layer's rows take the recurrent kernel).
#l = #kda.layer<heads = 2, value_heads = 2, head_k = 60, head_v = 64, gate = lower_bound(-5.0), beta = sigmoid, qk_l2norm = true, act = bf16, state = f32, state_layout = kv>

func.func @f(%q: memref<?x2x60xbf16>, %k: memref<?x2x60xbf16>, %v: memref<?x2x64xbf16>, %g: memref<?x2x60xbf16>, %beta: memref<?x2xbf16>, %cu_seqlens: memref<?xi32>, %slots: memref<?xi32>, %has_initial_state: memref<?xi1>, %state: memref<?x2x60x64xf32>, %out: memref<?x2x64xbf16>) {
  // expected-error @+1 {{'kda.chunk' op the chunk kernels tile head_k and head_v by 16; head_k = 60, head_v = 64 (leave kda.chunk out: kda_forward without a chunk kernel takes every row of the layer to the recurrent kernel)}}
  kda.chunk #l q(%q : memref<?x2x60xbf16>) k(%k : memref<?x2x60xbf16>) v(%v : memref<?x2x64xbf16>) g(%g : memref<?x2x60xbf16>) beta(%beta : memref<?x2xbf16>) cu_seqlens(%cu_seqlens : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%has_initial_state : memref<?xi1>) state(%state : memref<?x2x60x64xf32>) out(%out : memref<?x2x64xbf16>)
  return
}

// -----

#l = #kda.layer<heads = 2, value_heads = 2, head_k = 64, head_v = 100, gate = lower_bound(-5.0), beta = sigmoid, qk_l2norm = true, act = bf16, state = f32, state_layout = vk>

func.func @f(%q: memref<?x2x64xbf16>, %k: memref<?x2x64xbf16>, %v: memref<?x2x100xbf16>, %g: memref<?x2x64xbf16>, %beta: memref<?x2xbf16>, %cu_seqlens: memref<?xi32>, %slots: memref<?xi32>, %has_initial_state: memref<?xi1>, %state: memref<?x2x100x64xf32>, %out: memref<?x2x100xbf16>) {
  // expected-error @+1 {{'kda.chunk_stage' op the chunk kernels tile head_k and head_v by 16; head_k = 64, head_v = 100}}
  kda.chunk_stage #l q(%q : memref<?x2x64xbf16>) k(%k : memref<?x2x64xbf16>) v(%v : memref<?x2x100xbf16>) g(%g : memref<?x2x64xbf16>) beta(%beta : memref<?x2xbf16>) cu_seqlens(%cu_seqlens : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%has_initial_state : memref<?xi1>) state(%state : memref<?x2x100x64xf32>) out(%out : memref<?x2x100xbf16>) {chunk_size = 64 : i64, stage = #kda<chunk_stage prep>}
  return
}
