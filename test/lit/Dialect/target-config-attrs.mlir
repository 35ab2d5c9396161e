// #kda.target and #kda.config round-trip; a config can be attached to an op.
// RUN: kda-opt %s -split-input-file | FileCheck %s
// RUN: kda-opt %s -split-input-file | kda-opt -split-input-file | FileCheck %s

// CHECK: #kda.target<"gfx942">
// CHECK: #kda.target<"gfx950">
// CHECK: #kda.target<"sm_90">
// CHECK: #kda.target<"emu">
module attributes {kda.targets = [
  #kda.target<"gfx942">, #kda.target<"gfx950">, #kda.target<"sm_90">,
  #kda.target<"emu">]} {
}

// -----

#l = #kda.layer<heads = 2, value_heads = 2, head_k = 128, head_v = 128, gate = lower_bound(-5.0), act = bf16, state = f32, state_layout = vk>
// CHECK: #config = #kda.config<block_k = 128, block_v = 32, block_t = 1, warps = 4, stages = 2>
// CHECK: kda.recurrent #layer config #config q(
func.func @with_config(%q: memref<?x2x128xbf16>, %v: memref<?x2x128xbf16>,
    %beta: memref<?x2xbf16>, %i32: memref<?xi32>, %i1: memref<?xi1>,
    %state: memref<?x2x128x128xf32>) {
  kda.recurrent #l config #kda.config<block_k = 128, block_v = 32, block_t = 1, warps = 4, stages = 2>
      q(%q : memref<?x2x128xbf16>) k(%q : memref<?x2x128xbf16>)
      v(%v : memref<?x2x128xbf16>) g(%q : memref<?x2x128xbf16>)
      beta(%beta : memref<?x2xbf16>) cu_seqlens(%i32 : memref<?xi32>)
      slots(%i32 : memref<?xi32>) has_initial_state(%i1 : memref<?xi1>)
      state(%state : memref<?x2x128x128xf32>) out(%v : memref<?x2x128xbf16>)
  return
}
