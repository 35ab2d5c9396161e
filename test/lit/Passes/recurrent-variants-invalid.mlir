// Row variant attributes with values the builder refuses, by name.
// RUN: kda-opt %s -split-input-file -verify-diagnostics --kda-lower-to-gpu=target=sm_90

#l = #kda.layer<heads = 1, value_heads = 1, head_k = 128, head_v = 128, gate = none, act = bf16, state = f32, state_layout = vk>
func.func @f(%q: memref<?x1x128xbf16>, %b: memref<?x1xbf16>, %i32: memref<?xi32>, %i1: memref<?xi1>, %s: memref<?x1x128x128xf32>) {
  // expected-error @+1 {{kda.spec_tokens must be an integer in 2..16 (num_spec + 1), not 1 : i64}}
  kda.recurrent #l q(%q : memref<?x1x128xbf16>) k(%q : memref<?x1x128xbf16>) v(%q : memref<?x1x128xbf16>) g(%q : memref<?x1x128xbf16>) beta(%b : memref<?x1xbf16>) cu_seqlens(%i32 : memref<?xi32>) slots(%i32 : memref<?xi32>) has_initial_state(%i1 : memref<?xi1>) state(%s : memref<?x1x128x128xf32>) out(%q : memref<?x1x128xbf16>) {kda.spec_tokens = 1 : i64}
  return
}

// -----

#l = #kda.layer<heads = 1, value_heads = 1, head_k = 128, head_v = 128, gate = none, act = bf16, state = f32, state_layout = vk>
func.func @f(%q: memref<?x1x128xbf16>, %b: memref<?x1xbf16>, %i32: memref<?xi32>, %i1: memref<?xi1>, %s: memref<?x1x128x128xf32>) {
  // expected-error @+1 {{kda.spec_tokens needs direct token loads (lds_stages = 0)}}
  kda.recurrent #l config #kda.config<block_k = 128, block_v = 16, block_t = 1, warps = 2, stages = 1, lanes_k = 32, lds_stages = 2> q(%q : memref<?x1x128xbf16>) k(%q : memref<?x1x128xbf16>) v(%q : memref<?x1x128xbf16>) g(%q : memref<?x1x128xbf16>) beta(%b : memref<?x1xbf16>) cu_seqlens(%i32 : memref<?xi32>) slots(%i32 : memref<?xi32>) has_initial_state(%i1 : memref<?xi1>) state(%s : memref<?x1x128x128xf32>) out(%q : memref<?x1x128xbf16>) {kda.spec_tokens = 2 : i64}
  return
}

// -----

#l = #kda.layer<heads = 1, value_heads = 1, head_k = 128, head_v = 128, gate = none, act = bf16, state = f32, state_layout = vk>
func.func @f(%q: memref<?x1x128xbf16>, %b: memref<?x1xbf16>, %i32: memref<?xi32>, %i1: memref<?xi1>, %s: memref<?x1x128x128xf32>) {
  // expected-error @+1 {{kda.padding must be "nonpositive" (slot <= 0 pads) or "negative" (slot < 0 pads), not "zero"}}
  kda.recurrent #l q(%q : memref<?x1x128xbf16>) k(%q : memref<?x1x128xbf16>) v(%q : memref<?x1x128xbf16>) g(%q : memref<?x1x128xbf16>) beta(%b : memref<?x1xbf16>) cu_seqlens(%i32 : memref<?xi32>) slots(%i32 : memref<?xi32>) has_initial_state(%i1 : memref<?xi1>) state(%s : memref<?x1x128x128xf32>) out(%q : memref<?x1x128xbf16>) {kda.padding = "zero"}
  return
}

// -----

#l = #kda.layer<heads = 1, value_heads = 1, head_k = 128, head_v = 128, gate = none, act = bf16, state = f32, state_layout = vk>
func.func @f(%q: memref<?x1x128xbf16>, %b: memref<?x1xbf16>, %i32: memref<?xi32>, %i1: memref<?xi1>, %s: memref<?x1x128x128xf32>) {
  // expected-error @+1 {{kda.slot_stride must be at least HV * K * V = 16384 elements and keep slots 16-byte aligned, not 100 : i64}}
  kda.recurrent #l q(%q : memref<?x1x128xbf16>) k(%q : memref<?x1x128xbf16>) v(%q : memref<?x1x128xbf16>) g(%q : memref<?x1x128xbf16>) beta(%b : memref<?x1xbf16>) cu_seqlens(%i32 : memref<?xi32>) slots(%i32 : memref<?xi32>) has_initial_state(%i1 : memref<?xi1>) state(%s : memref<?x1x128x128xf32>) out(%q : memref<?x1x128xbf16>) {kda.slot_stride = 100 : i64}
  return
}

// -----

#l = #kda.layer<heads = 1, value_heads = 1, head_k = 128, head_v = 128, gate = none, act = bf16, state = f32, state_layout = vk>
func.func @f(%q: memref<?x1x128xbf16>, %b: memref<?x1xbf16>, %i32: memref<?xi32>, %i1: memref<?xi1>, %s: memref<?x1x128x128xf32>) {
  // expected-error @+1 {{kda.slot_stride must be at least HV * K * V = 16384 elements and keep slots 16-byte aligned, not 16385 : i64}}
  kda.recurrent #l q(%q : memref<?x1x128xbf16>) k(%q : memref<?x1x128xbf16>) v(%q : memref<?x1x128xbf16>) g(%q : memref<?x1x128xbf16>) beta(%b : memref<?x1xbf16>) cu_seqlens(%i32 : memref<?xi32>) slots(%i32 : memref<?xi32>) has_initial_state(%i1 : memref<?xi1>) state(%s : memref<?x1x128x128xf32>) out(%q : memref<?x1x128xbf16>) {kda.slot_stride = 16385 : i64}
  return
}
