// The default configs of the decode kernel, K = V = 128, per target and
// state layout / dtype, pinned here because they were chosen by measurement
// (test/device/decode-sweep.mlir on the H200, 2026-11-30; README):
// - sm_90 vk f32: 64 threads, 32 lanes x 4 k per column, 4 columns per lane
//   (137-138 us at H = 32, N = 128, 93% of copy);
// - sm_90 kv f32: one wave, 8 lanes per column, 8 adjacent columns per lane
//   (149.8 us, 85.1% of copy);
// - bf16 pools: 16-byte state accesses (vk 16 lanes x 8 k; kv 8 columns);
// - gfx950 (wave 64): 128 threads and 16-byte pieces, not measured on AMD.
// RUN: kda-opt %s -split-input-file --kda-lower-to-gpu=target=sm_90 | FileCheck %s --check-prefix=SM90
// RUN: kda-opt %s -split-input-file --kda-lower-to-gpu=target=gfx950 | FileCheck %s --check-prefix=GFX950

// SM90: #config = #kda.config<block_k = 128, block_v = 8, block_t = 1, warps = 2, stages = 1, lanes_k = 32>
// SM90-LABEL: gpu.func @kda_vk_f32
// SM90: #config = #kda.config<block_k = 128, block_v = 32, block_t = 1, warps = 1, stages = 1, lanes_k = 8>
// SM90-LABEL: gpu.func @kda_kv_f32
// SM90: #config = #kda.config<block_k = 128, block_v = 16, block_t = 1, warps = 2, stages = 1, lanes_k = 16>
// SM90-LABEL: gpu.func @kda_vk_bf16
// SM90: #config = #kda.config<block_k = 128, block_v = 64, block_t = 1, warps = 4, stages = 1, lanes_k = 16>
// SM90-LABEL: gpu.func @kda_kv_bf16
// GFX950: #config = #kda.config<block_k = 128, block_v = 16, block_t = 1, warps = 2, stages = 1, lanes_k = 32>
// GFX950-LABEL: gpu.func @kda_vk_f32
// GFX950: #config = #kda.config<block_k = 128, block_v = 64, block_t = 1, warps = 2, stages = 1, lanes_k = 8>
// GFX950-LABEL: gpu.func @kda_kv_f32
// GFX950: #config = #kda.config<block_k = 128, block_v = 32, block_t = 1, warps = 2, stages = 1, lanes_k = 16>
// GFX950-LABEL: gpu.func @kda_vk_bf16
// GFX950: #config = #kda.config<block_k = 128, block_v = 64, block_t = 1, warps = 2, stages = 1, lanes_k = 16>
// GFX950-LABEL: gpu.func @kda_kv_bf16

#l = #kda.layer<heads = 2, value_heads = 2, head_k = 128, head_v = 128, gate = none, act = bf16, state = f32, state_layout = vk>
func.func @vk_f32(%q: memref<?x2x128xbf16>, %b: memref<?x2xbf16>, %i32: memref<?xi32>, %i1: memref<?xi1>, %s: memref<?x2x128x128xf32>) {
  kda.recurrent #l q(%q : memref<?x2x128xbf16>) k(%q : memref<?x2x128xbf16>) v(%q : memref<?x2x128xbf16>) g(%q : memref<?x2x128xbf16>) beta(%b : memref<?x2xbf16>) cu_seqlens(%i32 : memref<?xi32>) slots(%i32 : memref<?xi32>) has_initial_state(%i1 : memref<?xi1>) state(%s : memref<?x2x128x128xf32>) out(%q : memref<?x2x128xbf16>)
  return
}

// -----

#l = #kda.layer<heads = 2, value_heads = 2, head_k = 128, head_v = 128, gate = none, act = bf16, state = f32, state_layout = kv>
func.func @kv_f32(%q: memref<?x2x128xbf16>, %b: memref<?x2xbf16>, %i32: memref<?xi32>, %i1: memref<?xi1>, %s: memref<?x2x128x128xf32>) {
  kda.recurrent #l q(%q : memref<?x2x128xbf16>) k(%q : memref<?x2x128xbf16>) v(%q : memref<?x2x128xbf16>) g(%q : memref<?x2x128xbf16>) beta(%b : memref<?x2xbf16>) cu_seqlens(%i32 : memref<?xi32>) slots(%i32 : memref<?xi32>) has_initial_state(%i1 : memref<?xi1>) state(%s : memref<?x2x128x128xf32>) out(%q : memref<?x2x128xbf16>)
  return
}

// -----

#l = #kda.layer<heads = 2, value_heads = 2, head_k = 128, head_v = 128, gate = none, act = bf16, state = bf16, state_layout = vk>
func.func @vk_bf16(%q: memref<?x2x128xbf16>, %b: memref<?x2xbf16>, %i32: memref<?xi32>, %i1: memref<?xi1>, %s: memref<?x2x128x128xbf16>) {
  kda.recurrent #l q(%q : memref<?x2x128xbf16>) k(%q : memref<?x2x128xbf16>) v(%q : memref<?x2x128xbf16>) g(%q : memref<?x2x128xbf16>) beta(%b : memref<?x2xbf16>) cu_seqlens(%i32 : memref<?xi32>) slots(%i32 : memref<?xi32>) has_initial_state(%i1 : memref<?xi1>) state(%s : memref<?x2x128x128xbf16>) out(%q : memref<?x2x128xbf16>)
  return
}

// -----

#l = #kda.layer<heads = 2, value_heads = 2, head_k = 128, head_v = 128, gate = none, act = bf16, state = bf16, state_layout = kv>
func.func @kv_bf16(%q: memref<?x2x128xbf16>, %b: memref<?x2xbf16>, %i32: memref<?xi32>, %i1: memref<?xi1>, %s: memref<?x2x128x128xbf16>) {
  kda.recurrent #l q(%q : memref<?x2x128xbf16>) k(%q : memref<?x2x128xbf16>) v(%q : memref<?x2x128xbf16>) g(%q : memref<?x2x128xbf16>) beta(%b : memref<?x2xbf16>) cu_seqlens(%i32 : memref<?xi32>) slots(%i32 : memref<?xi32>) has_initial_state(%i1 : memref<?xi1>) state(%s : memref<?x2x128x128xbf16>) out(%q : memref<?x2x128xbf16>)
  return
}
