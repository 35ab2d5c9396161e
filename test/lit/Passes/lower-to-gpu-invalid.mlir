// A config that does not fit the layer or target is refused with the reason;
// an unknown target is refused.
// RUN: kda-opt %s -split-input-file -verify-diagnostics --kda-lower-to-gpu=target=gfx942
// RUN: not kda-opt %s -split-input-file --kda-lower-to-gpu=target=gfx1100 2>&1 | FileCheck %s --check-prefix=TARGET

// TARGET: unknown kda target 'gfx1100' (known: gfx942, gfx950, sm_90, emu, emu950, emu32)

#l = #kda.layer<heads = 1, value_heads = 1, head_k = 128, head_v = 128, gate = none, act = bf16, state = f32, state_layout = vk>
func.func @f(%q: memref<?x1x128xbf16>, %b: memref<?x1xbf16>, %i32: memref<?xi32>, %i1: memref<?xi1>, %s: memref<?x1x128x128xf32>) {
  // expected-error @+1 {{does not fit gfx942: the recurrent kernel keeps whole columns: block_k must be head_k (128), got 64}}
  kda.recurrent #l config #kda.config<block_k = 64, block_v = 8, block_t = 1, warps = 4, stages = 1> q(%q : memref<?x1x128xbf16>) k(%q : memref<?x1x128xbf16>) v(%q : memref<?x1x128xbf16>) g(%q : memref<?x1x128xbf16>) beta(%b : memref<?x1xbf16>) cu_seqlens(%i32 : memref<?xi32>) slots(%i32 : memref<?xi32>) has_initial_state(%i1 : memref<?xi1>) state(%s : memref<?x1x128x128xf32>) out(%q : memref<?x1x128xbf16>)
  return
}

// -----

#l = #kda.layer<heads = 1, value_heads = 1, head_k = 128, head_v = 128, gate = none, act = bf16, state = f32, state_layout = vk>
func.func @f(%q: memref<?x1x128xbf16>, %b: memref<?x1xbf16>, %i32: memref<?xi32>, %i1: memref<?xi1>, %s: memref<?x1x128x128xf32>) {
  // expected-error @+1 {{does not fit gfx942: the recurrent kernel takes block_t = 1 and stages = 1}}
  kda.recurrent #l config #kda.config<block_k = 128, block_v = 8, block_t = 1, warps = 4, stages = 2> q(%q : memref<?x1x128xbf16>) k(%q : memref<?x1x128xbf16>) v(%q : memref<?x1x128xbf16>) g(%q : memref<?x1x128xbf16>) beta(%b : memref<?x1xbf16>) cu_seqlens(%i32 : memref<?xi32>) slots(%i32 : memref<?xi32>) has_initial_state(%i1 : memref<?xi1>) state(%s : memref<?x1x128x128xf32>) out(%q : memref<?x1x128xbf16>)
  return
}

// -----

#l = #kda.layer<heads = 1, value_heads = 1, head_k = 128, head_v = 128, gate = none, act = bf16, state = f32, state_layout = vk>
func.func @f(%q: memref<?x1x128xbf16>, %b: memref<?x1xbf16>, %i32: memref<?xi32>, %i1: memref<?xi1>, %s: memref<?x1x128x128xf32>) {
  // expected-error @+1 {{does not fit gfx942: 32 waves of 64 exceed the 1024-thread workgroup limit of gfx942}}
  kda.recurrent #l config #kda.config<block_k = 128, block_v = 8, block_t = 1, warps = 32, stages = 1> q(%q : memref<?x1x128xbf16>) k(%q : memref<?x1x128xbf16>) v(%q : memref<?x1x128xbf16>) g(%q : memref<?x1x128xbf16>) beta(%b : memref<?x1xbf16>) cu_seqlens(%i32 : memref<?xi32>) slots(%i32 : memref<?xi32>) has_initial_state(%i1 : memref<?xi1>) state(%s : memref<?x1x128x128xf32>) out(%q : memref<?x1x128xbf16>)
  return
}

// -----

#l = #kda.layer<heads = 1, value_heads = 1, head_k = 128, head_v = 128, gate = none, act = bf16, state = f32, state_layout = vk>
func.func @f(%q: memref<?x1x128xbf16>, %b: memref<?x1xbf16>, %i32: memref<?xi32>, %i1: memref<?xi1>, %s: memref<?x1x128x128xf32>) {
  // expected-error @+1 {{does not fit gfx942: block_v (128) must divide the 64 threads of a workgroup}}
  kda.recurrent #l config #kda.config<block_k = 128, block_v = 128, block_t = 1, warps = 1, stages = 1> q(%q : memref<?x1x128xbf16>) k(%q : memref<?x1x128xbf16>) v(%q : memref<?x1x128xbf16>) g(%q : memref<?x1x128xbf16>) beta(%b : memref<?x1xbf16>) cu_seqlens(%i32 : memref<?xi32>) slots(%i32 : memref<?xi32>) has_initial_state(%i1 : memref<?xi1>) state(%s : memref<?x1x128x128xf32>) out(%q : memref<?x1x128xbf16>)
  return
}

// -----

#l = #kda.layer<heads = 1, value_heads = 1, head_k = 128, head_v = 128, gate = none, act = bf16, state = f32, state_layout = vk>
func.func @f(%q: memref<?x1x128xbf16>, %b: memref<?x1xbf16>, %i32: memref<?xi32>, %i1: memref<?xi1>, %s: memref<?x1x128x128xf32>) {
  // expected-error @+1 {{does not fit gfx942: each column needs a power-of-two number of lanes within one wave of 64, got 256}}
  kda.recurrent #l config #kda.config<block_k = 128, block_v = 1, block_t = 1, warps = 4, stages = 1> q(%q : memref<?x1x128xbf16>) k(%q : memref<?x1x128xbf16>) v(%q : memref<?x1x128xbf16>) g(%q : memref<?x1x128xbf16>) beta(%b : memref<?x1xbf16>) cu_seqlens(%i32 : memref<?xi32>) slots(%i32 : memref<?xi32>) has_initial_state(%i1 : memref<?xi1>) state(%s : memref<?x1x128x128xf32>) out(%q : memref<?x1x128xbf16>)
  return
}

// -----

#l = #kda.layer<heads = 1, value_heads = 1, head_k = 128, head_v = 128, gate = none, act = bf16, state = f32, state_layout = kv>
func.func @f(%q: memref<?x1x128xbf16>, %b: memref<?x1xbf16>, %i32: memref<?xi32>, %i1: memref<?xi1>, %s: memref<?x1x128x128xf32>) {
  // expected-error @+1 {{does not fit gfx942: waves_k = 2 needs lanes_k (the lanes of one wave sharing a column)}}
  kda.recurrent #l config #kda.config<block_k = 128, block_v = 128, block_t = 1, warps = 4, stages = 1, waves_k = 2> q(%q : memref<?x1x128xbf16>) k(%q : memref<?x1x128xbf16>) v(%q : memref<?x1x128xbf16>) g(%q : memref<?x1x128xbf16>) beta(%b : memref<?x1xbf16>) cu_seqlens(%i32 : memref<?xi32>) slots(%i32 : memref<?xi32>) has_initial_state(%i1 : memref<?xi1>) state(%s : memref<?x1x128x128xf32>) out(%q : memref<?x1x128xbf16>)
  return
}

// -----

#l = #kda.layer<heads = 1, value_heads = 1, head_k = 16, head_v = 128, gate = none, act = bf16, state = f32, state_layout = kv>
func.func @f(%q: memref<?x1x16xbf16>, %v: memref<?x1x128xbf16>, %b: memref<?x1xbf16>, %i32: memref<?xi32>, %i1: memref<?xi1>, %s: memref<?x1x16x128xf32>) {
  // expected-error @+1 {{does not fit gfx942: 4 lanes x 8 waves per column exceed head_k (16): every lane needs a k (lanes past head_k are taken only where fewer would give a wave more columns than head_v: waves_k = 1, lanes_k = 1)}}
  kda.recurrent #l config #kda.config<block_k = 16, block_v = 128, block_t = 1, warps = 8, stages = 1, lanes_k = 4, waves_k = 8> q(%q : memref<?x1x16xbf16>) k(%q : memref<?x1x16xbf16>) v(%v : memref<?x1x128xbf16>) g(%q : memref<?x1x16xbf16>) beta(%b : memref<?x1xbf16>) cu_seqlens(%i32 : memref<?xi32>) slots(%i32 : memref<?xi32>) has_initial_state(%i1 : memref<?xi1>) state(%s : memref<?x1x16x128xf32>) out(%v : memref<?x1x128xbf16>)
  return
}

// -----


#l = #kda.layer<heads = 1, value_heads = 1, head_k = 16, head_v = 128, gate = none, act = bf16, state = f32, state_layout = kv>
func.func @f(%q: memref<?x1x16xbf16>, %v: memref<?x1x128xbf16>, %b: memref<?x1xbf16>, %i32: memref<?xi32>, %i1: memref<?xi1>, %s: memref<?x1x16x128xf32>) {
  // expected-error @+1 {{does not fit gfx942: block_v (12) must be a multiple of the 4 columns 64 threads of 16 lanes cover times v_passes (2)}}
  kda.recurrent #l config #kda.config<block_k = 16, block_v = 12, block_t = 1, warps = 1, stages = 1, lanes_k = 16, v_passes = 2> q(%q : memref<?x1x16xbf16>) k(%q : memref<?x1x16xbf16>) v(%v : memref<?x1x128xbf16>) g(%q : memref<?x1x16xbf16>) beta(%b : memref<?x1xbf16>) cu_seqlens(%i32 : memref<?xi32>) slots(%i32 : memref<?xi32>) has_initial_state(%i1 : memref<?xi1>) state(%s : memref<?x1x16x128xf32>) out(%v : memref<?x1x128xbf16>)
  return
}

// -----


#l = #kda.layer<heads = 1, value_heads = 1, head_k = 16, head_v = 128, gate = none, act = bf16, state = f32, state_layout = kv>
func.func @f(%q: memref<?x1x16xbf16>, %v: memref<?x1x128xbf16>, %b: memref<?x1xbf16>, %i32: memref<?xi32>, %i1: memref<?xi1>, %s: memref<?x1x16x128xf32>) {
  // expected-error @+1 {{does not fit gfx942: v_passes (2) needs direct token loads: the LDS token ring (lds_stages = 2) is one pipeline over the tokens of one pass}}
  kda.recurrent #l config #kda.config<block_k = 16, block_v = 16, block_t = 1, warps = 1, stages = 1, lanes_k = 16, lds_stages = 2, v_passes = 2> q(%q : memref<?x1x16xbf16>) k(%q : memref<?x1x16xbf16>) v(%v : memref<?x1x128xbf16>) g(%q : memref<?x1x16xbf16>) beta(%b : memref<?x1xbf16>) cu_seqlens(%i32 : memref<?xi32>) slots(%i32 : memref<?xi32>) has_initial_state(%i1 : memref<?xi1>) state(%s : memref<?x1x16x128xf32>) out(%v : memref<?x1x128xbf16>)
  return
}

// -----

// mma = 1 (column sums by the matrix atom) takes a bf16 pool: an f32 state
// is not an exact bf16 operand.
#l = #kda.layer<heads = 1, value_heads = 1, head_k = 128, head_v = 128, gate = none, act = bf16, state = f32, state_layout = vk>
func.func @f(%q: memref<?x1x128xbf16>, %b: memref<?x1xbf16>, %i32: memref<?xi32>, %i1: memref<?xi1>, %s: memref<?x1x128x128xf32>) {
  // expected-error @+1 {{does not fit gfx942: mma = 1 takes a bf16 state pool (the state is the atom's exact operand), got an f32 state}}
  kda.recurrent #l config #kda.config<block_k = 128, block_v = 16, block_t = 1, warps = 1, stages = 1, mma = 1> q(%q : memref<?x1x128xbf16>) k(%q : memref<?x1x128xbf16>) v(%q : memref<?x1x128xbf16>) g(%q : memref<?x1x128xbf16>) beta(%b : memref<?x1xbf16>) cu_seqlens(%i32 : memref<?xi32>) slots(%i32 : memref<?xi32>) has_initial_state(%i1 : memref<?xi1>) state(%s : memref<?x1x128x128xf32>) out(%q : memref<?x1x128xbf16>)
  return
}

// -----

// mma = 1 reads each lane's k-run of a column as 16-byte vectors: the vk
// layout only.
#l = #kda.layer<heads = 1, value_heads = 1, head_k = 128, head_v = 128, gate = none, act = bf16, state = bf16, state_layout = kv>
func.func @f(%q: memref<?x1x128xbf16>, %b: memref<?x1xbf16>, %i32: memref<?xi32>, %i1: memref<?xi1>, %s: memref<?x1x128x128xbf16>) {
  // expected-error @+1 {{does not fit gfx942: mma = 1 takes the vk state layout (k-runs contiguous in memory)}}
  kda.recurrent #l config #kda.config<block_k = 128, block_v = 16, block_t = 1, warps = 1, stages = 1, mma = 1> q(%q : memref<?x1x128xbf16>) k(%q : memref<?x1x128xbf16>) v(%q : memref<?x1x128xbf16>) g(%q : memref<?x1x128xbf16>) beta(%b : memref<?x1xbf16>) cu_seqlens(%i32 : memref<?xi32>) slots(%i32 : memref<?xi32>) has_initial_state(%i1 : memref<?xi1>) state(%s : memref<?x1x128x128xbf16>) out(%q : memref<?x1x128xbf16>)
  return
}

// -----

// The atom's n columns a wave: block_v 8 is not a multiple of gfx942's 16.
#l = #kda.layer<heads = 1, value_heads = 1, head_k = 128, head_v = 128, gate = none, act = bf16, state = bf16, state_layout = vk>
func.func @f(%q: memref<?x1x128xbf16>, %b: memref<?x1xbf16>, %i32: memref<?xi32>, %i1: memref<?xi1>, %s: memref<?x1x128x128xbf16>) {
  // expected-error @+1 {{does not fit gfx942: mma = 1: block_v (8) must be a multiple of 1 waves x the atom's n (16) and divide head_v (128)}}
  kda.recurrent #l config #kda.config<block_k = 128, block_v = 8, block_t = 1, warps = 1, stages = 1, mma = 1> q(%q : memref<?x1x128xbf16>) k(%q : memref<?x1x128xbf16>) v(%q : memref<?x1x128xbf16>) g(%q : memref<?x1x128xbf16>) beta(%b : memref<?x1xbf16>) cu_seqlens(%i32 : memref<?xi32>) slots(%i32 : memref<?xi32>) has_initial_state(%i1 : memref<?xi1>) state(%s : memref<?x1x128x128xbf16>) out(%q : memref<?x1x128xbf16>)
  return
}

// -----

// shared_terms = 1 computes a row's first token's terms once for the passes
// and column groups of a workgroup: one pass of one column group (a wave's
// 64 lanes on one column's k) has nothing to share them with.
#l = #kda.layer<heads = 1, value_heads = 1, head_k = 128, head_v = 128, gate = none, act = bf16, state = f32, state_layout = kv>
func.func @f(%q: memref<?x1x128xbf16>, %b: memref<?x1xbf16>, %i32: memref<?xi32>, %i1: memref<?xi1>, %s: memref<?x1x128x128xf32>) {
  // expected-error @+1 {{does not fit gfx942: shared_terms = 1 computes a row's first token's terms once a workgroup for the passes and column groups that would each compute them: it takes lds_stages = 0 and v_passes > 1 or more than one column group (warps x wave / (lanes_k x waves_k)), got lds_stages 0, v_passes 1 and 1 column group}}
  kda.recurrent #l config #kda.config<block_k = 128, block_v = 2, block_t = 1, warps = 1, stages = 1, lanes_k = 64, shared_terms = 1> q(%q : memref<?x1x128xbf16>) k(%q : memref<?x1x128xbf16>) v(%q : memref<?x1x128xbf16>) g(%q : memref<?x1x128xbf16>) beta(%b : memref<?x1xbf16>) cu_seqlens(%i32 : memref<?xi32>) slots(%i32 : memref<?xi32>) has_initial_state(%i1 : memref<?xi1>) state(%s : memref<?x1x128x128xf32>) out(%q : memref<?x1x128xbf16>)
  return
}

// -----

// The LDS token ring loads every token's rows through its own pipeline:
// shared terms take direct token loads.
#l = #kda.layer<heads = 1, value_heads = 1, head_k = 128, head_v = 128, gate = none, act = bf16, state = f32, state_layout = kv>
func.func @f(%q: memref<?x1x128xbf16>, %b: memref<?x1xbf16>, %i32: memref<?xi32>, %i1: memref<?xi1>, %s: memref<?x1x128x128xf32>) {
  // expected-error @+1 {{does not fit gfx942: shared_terms = 1 computes a row's first token's terms once a workgroup for the passes and column groups that would each compute them: it takes lds_stages = 0 and v_passes > 1 or more than one column group (warps x wave / (lanes_k x waves_k)), got lds_stages 2, v_passes 1 and 16 column groups}}
  kda.recurrent #l config #kda.config<block_k = 128, block_v = 64, block_t = 1, warps = 1, stages = 1, lanes_k = 4, lds_stages = 2, shared_terms = 1> q(%q : memref<?x1x128xbf16>) k(%q : memref<?x1x128xbf16>) v(%q : memref<?x1x128xbf16>) g(%q : memref<?x1x128xbf16>) beta(%b : memref<?x1xbf16>) cu_seqlens(%i32 : memref<?xi32>) slots(%i32 : memref<?xi32>) has_initial_state(%i1 : memref<?xi1>) state(%s : memref<?x1x128x128xf32>) out(%q : memref<?x1x128xbf16>)
  return
}

// -----

// mma = 1 computes a token's terms once a wave already.
#l = #kda.layer<heads = 1, value_heads = 1, head_k = 128, head_v = 128, gate = none, act = bf16, state = bf16, state_layout = vk>
func.func @f(%q: memref<?x1x128xbf16>, %b: memref<?x1xbf16>, %i32: memref<?xi32>, %i1: memref<?xi1>, %s: memref<?x1x128x128xbf16>) {
  // expected-error @+1 {{does not fit gfx942: shared_terms = 1 takes the FMA column sums (mma = 0): with mma = 1 each wave already computes a token's terms once}}
  kda.recurrent #l config #kda.config<block_k = 128, block_v = 16, block_t = 1, warps = 1, stages = 1, mma = 1, shared_terms = 1> q(%q : memref<?x1x128xbf16>) k(%q : memref<?x1x128xbf16>) v(%q : memref<?x1x128xbf16>) g(%q : memref<?x1x128xbf16>) beta(%b : memref<?x1xbf16>) cu_seqlens(%i32 : memref<?xi32>) slots(%i32 : memref<?xi32>) has_initial_state(%i1 : memref<?xi1>) state(%s : memref<?x1x128x128xbf16>) out(%q : memref<?x1x128xbf16>)
  return
}

// -----

// Lanes past head_k other than the fewest that keep a wave within head_v's
// columns (K 12, V 3 on a wave of 64: 32 lanes a column; 64 given).
#l = #kda.layer<heads = 1, value_heads = 1, head_k = 12, head_v = 3, gate = none, act = bf16, state = f32, state_layout = vk>
func.func @f(%q: memref<?x1x12xbf16>, %v: memref<?x1x3xbf16>, %b: memref<?x1xbf16>, %i32: memref<?xi32>, %i1: memref<?xi1>, %s: memref<?x1x3x12xf32>) {
  // expected-error @+1 {{does not fit gfx942: 64 lanes x 1 waves per column exceed head_k (12): every lane needs a k (lanes past head_k are taken only where fewer would give a wave more columns than head_v: waves_k = 1, lanes_k = 32)}}
  kda.recurrent #l config #kda.config<block_k = 12, block_v = 1, block_t = 1, warps = 1, stages = 1, lanes_k = 64> q(%q : memref<?x1x12xbf16>) k(%q : memref<?x1x12xbf16>) v(%v : memref<?x1x3xbf16>) g(%q : memref<?x1x12xbf16>) beta(%b : memref<?x1xbf16>) cu_seqlens(%i32 : memref<?xi32>) slots(%i32 : memref<?xi32>) has_initial_state(%i1 : memref<?xi1>) state(%s : memref<?x1x3x12xf32>) out(%v : memref<?x1x3xbf16>)
  return
}

// -----

// A function is one layer (verifyOneLayerPerFunction): its kernels take the
// function's name, so a second kda.recurrent would be lowered under the
// first's (kda-compile refuses the same when it reads a spec:
// Tools/config-table-invalid.mlir).
#l = #kda.layer<heads = 1, value_heads = 1, head_k = 128, head_v = 128, gate = none, act = bf16, state = f32, state_layout = vk>
func.func @pair(%q: memref<?x1x128xbf16>, %b: memref<?x1xbf16>, %i32: memref<?xi32>, %i1: memref<?xi1>, %s: memref<?x1x128x128xf32>) {
  // expected-note @+1 {{the first}}
  kda.recurrent #l q(%q : memref<?x1x128xbf16>) k(%q : memref<?x1x128xbf16>) v(%q : memref<?x1x128xbf16>) g(%q : memref<?x1x128xbf16>) beta(%b : memref<?x1xbf16>) cu_seqlens(%i32 : memref<?xi32>) slots(%i32 : memref<?xi32>) has_initial_state(%i1 : memref<?xi1>) state(%s : memref<?x1x128x128xf32>) out(%q : memref<?x1x128xbf16>)
  // expected-error @+1 {{'kda.recurrent' op is a second layer in function @pair: a function is one layer (its kernels and manifest entries take the function's name; its chunk size and scan choice are decided once)}}
  kda.recurrent #l q(%q : memref<?x1x128xbf16>) k(%q : memref<?x1x128xbf16>) v(%q : memref<?x1x128xbf16>) g(%q : memref<?x1x128xbf16>) beta(%b : memref<?x1xbf16>) cu_seqlens(%i32 : memref<?xi32>) slots(%i32 : memref<?xi32>) has_initial_state(%i1 : memref<?xi1>) state(%s : memref<?x1x128x128xf32>) out(%q : memref<?x1x128xbf16>)
  return
}
