// The split scan's stages are built where the register scan fits: gfx950
// (and sm_90, the emulators) build maps, join and segments, and the prep's
// workspace holds the segments' blocks after the records (fixed: one
// block of K x (K + V) floats a value head; per token: the records, 4 x 2 x
// 704, and the blocks' share, 4 x 2 x 32768 / 448 rounded up); gfx942's
// LDS holds no register scan, so kda-lower-to-gpu leaves the three stages
// out and the prep and scans keep the records alone.
// RUN: kda-opt %s --kda-decompose --kda-lower-to-gpu=target=gfx950 | FileCheck %s --check-prefix=GFX950
// RUN: kda-opt %s --kda-decompose --kda-lower-to-gpu=target=gfx942 | FileCheck %s --check-prefix=GFX942

// GFX950-LABEL: gpu.func @kda_split_prep(
// GFX950-SAME: kda.workspace = {fixed = 262144 : i64, per_seq = 0 : i64, per_token = 6218 : i64}
// GFX950-LABEL: gpu.func @kda_split_maps_v64(
// GFX950-SAME: kda.grid = array<i64: 4, 16, -1>
// GFX950-SAME: kda.kind = "chunk_maps"
// GFX950-LABEL: gpu.func @kda_split_join(
// GFX950-SAME: kda.grid = array<i64: 8, 2, -1>
// GFX950-SAME: kda.kind = "chunk_join"
// GFX950-LABEL: gpu.func @kda_split_segments_v64(
// GFX950-SAME: kda.grid = array<i64: 2, 16, -1>
// GFX950-SAME: kda.kind = "chunk_segments"

// GFX942-LABEL: gpu.func @kda_split_prep(
// GFX942-SAME: kda.workspace = {fixed = 0 : i64, per_seq = 0 : i64, per_token = 5632 : i64}
// GFX942-NOT: chunk_maps
// GFX942-NOT: chunk_join
// GFX942-NOT: chunk_segments
// GFX942-NOT: segment_chunks

#l = #kda.layer<heads = 1, value_heads = 2, head_k = 128, head_v = 128, gate = softplus, beta = sigmoid, qk_l2norm = true, act = bf16, state = f32, state_layout = vk>
func.func @split(%q: memref<?x1x128xbf16>, %k: memref<?x1x128xbf16>, %v: memref<?x2x128xbf16>, %g: memref<?x2x128xbf16>, %beta: memref<?x2xbf16>, %a_log: memref<2xf32>, %dt_bias: memref<256xf32>, %cu: memref<?xi32>, %slots: memref<?xi32>, %init: memref<?xi1>, %state: memref<?x2x128x128xf32>, %o: memref<?x2x128xbf16>) {
  kda.chunk #l q(%q : memref<?x1x128xbf16>) k(%k : memref<?x1x128xbf16>) v(%v : memref<?x2x128xbf16>) g(%g : memref<?x2x128xbf16>) beta(%beta : memref<?x2xbf16>) a_log(%a_log : memref<2xf32>) dt_bias(%dt_bias : memref<256xf32>) cu_seqlens(%cu : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%init : memref<?xi1>) state(%state : memref<?x2x128x128xf32>) out(%o : memref<?x2x128xbf16>) {chunk_size = 64 : i64}
  return
}
