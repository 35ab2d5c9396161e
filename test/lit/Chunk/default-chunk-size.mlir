// A kda.chunk without chunk_size takes, on each target, the largest of 64,
// 32 and 16 at which the layer's prep fits the target's LDS and one of its
// scans is built (defaultChunkSize), the same on every stage of the layer;
// an explicit size is kept (refused where it does not fit:
// scan-choice-invalid.mlir).
// head_k 192: the prep needs 72448 bytes at 64, so 32 on the 64 KiB of
// emu and gfx942, 64 on gfx950's 160 KiB and sm_90's (emu32's) 227 KiB.
// RUN: kda-opt %s -split-input-file --kda-decompose --kda-lower-to-gpu=target=emu | FileCheck %s --check-prefixes=C32
// RUN: kda-opt %s -split-input-file --kda-decompose --kda-lower-to-gpu=target=gfx942 | FileCheck %s --check-prefixes=C32
// RUN: kda-opt %s -split-input-file --kda-decompose --kda-lower-to-gpu=target=gfx950 | FileCheck %s --check-prefixes=C64
// RUN: kda-opt %s -split-input-file --kda-decompose --kda-lower-to-gpu=target=emu32 | FileCheck %s --check-prefixes=C64
// RUN: kda-opt %s -split-input-file --kda-decompose --kda-lower-to-gpu=target=sm_90 | FileCheck %s --check-prefixes=C64

#l192_32 = #kda.layer<heads = 1, value_heads = 1, head_k = 192, head_v = 32, gate = lower_bound(-5.0), beta = sigmoid, qk_l2norm = true, act = bf16, state = f32, state_layout = vk>

// C32-LABEL: gpu.func @kda_k192_prep(
// C32-SAME:    chunk_size = 32 : i64
// C32:       gpu.func @kda_k192_scan(
// C32-SAME:    chunk_size = 32 : i64
// C32:       gpu.func @kda_k192_scan_v32(
// C32-SAME:    chunk_size = 32 : i64
// C64-LABEL: gpu.func @kda_k192_prep(
// C64-SAME:    chunk_size = 64 : i64
// C64:       gpu.func @kda_k192_scan(
// C64-SAME:    chunk_size = 64 : i64
// C64:       gpu.func @kda_k192_scan_v32(
// C64-SAME:    chunk_size = 64 : i64
func.func @k192(%q: memref<?x1x192xbf16>, %k: memref<?x1x192xbf16>, %v: memref<?x1x32xbf16>, %g: memref<?x1x192xbf16>, %beta: memref<?x1xbf16>, %cu: memref<?xi32>, %slots: memref<?xi32>, %init: memref<?xi1>, %state: memref<?x1x32x192xf32>, %o: memref<?x1x32xbf16>) {
  kda.chunk #l192_32 q(%q : memref<?x1x192xbf16>) k(%k : memref<?x1x192xbf16>) v(%v : memref<?x1x32xbf16>) g(%g : memref<?x1x192xbf16>) beta(%beta : memref<?x1xbf16>) cu_seqlens(%cu : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%init : memref<?xi1>) state(%state : memref<?x1x32x192xf32>) out(%o : memref<?x1x32xbf16>)
  return
}

// -----

// An explicit size is the layer's on every target, where it fits.
#l192_32 = #kda.layer<heads = 1, value_heads = 1, head_k = 192, head_v = 32, gate = lower_bound(-5.0), beta = sigmoid, qk_l2norm = true, act = bf16, state = f32, state_layout = vk>

// C32-LABEL: gpu.func @kda_k192_c16_prep(
// C32-SAME:    chunk_size = 16 : i64
// C32:       gpu.func @kda_k192_c16_scan(
// C32-SAME:    chunk_size = 16 : i64
// C64-LABEL: gpu.func @kda_k192_c16_prep(
// C64-SAME:    chunk_size = 16 : i64
// C64:       gpu.func @kda_k192_c16_scan(
// C64-SAME:    chunk_size = 16 : i64
func.func @k192_c16(%q: memref<?x1x192xbf16>, %k: memref<?x1x192xbf16>, %v: memref<?x1x32xbf16>, %g: memref<?x1x192xbf16>, %beta: memref<?x1xbf16>, %cu: memref<?xi32>, %slots: memref<?xi32>, %init: memref<?xi1>, %state: memref<?x1x32x192xf32>, %o: memref<?x1x32xbf16>) {
  kda.chunk #l192_32 q(%q : memref<?x1x192xbf16>) k(%k : memref<?x1x192xbf16>) v(%v : memref<?x1x32xbf16>) g(%g : memref<?x1x192xbf16>) beta(%beta : memref<?x1xbf16>) cu_seqlens(%cu : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%init : memref<?xi1>) state(%state : memref<?x1x32x192xf32>) out(%o : memref<?x1x32xbf16>) {chunk_size = 16 : i64}
  return
}

// -----

// head_k 64 fits 64 everywhere.
#l64_32 = #kda.layer<heads = 1, value_heads = 1, head_k = 64, head_v = 32, gate = lower_bound(-5.0), beta = sigmoid, qk_l2norm = true, act = bf16, state = f32, state_layout = vk>

// C32-LABEL: gpu.func @kda_k64_prep(
// C32-SAME:    chunk_size = 64 : i64
// C64-LABEL: gpu.func @kda_k64_prep(
// C64-SAME:    chunk_size = 64 : i64
func.func @k64(%q: memref<?x1x64xbf16>, %k: memref<?x1x64xbf16>, %v: memref<?x1x32xbf16>, %g: memref<?x1x64xbf16>, %beta: memref<?x1xbf16>, %cu: memref<?xi32>, %slots: memref<?xi32>, %init: memref<?xi1>, %state: memref<?x1x32x64xf32>, %o: memref<?x1x32xbf16>) {
  kda.chunk #l64_32 q(%q : memref<?x1x64xbf16>) k(%k : memref<?x1x64xbf16>) v(%v : memref<?x1x32xbf16>) g(%g : memref<?x1x64xbf16>) beta(%beta : memref<?x1xbf16>) cu_seqlens(%cu : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%init : memref<?xi1>) state(%state : memref<?x1x32x64xf32>) out(%o : memref<?x1x32xbf16>)
  return
}

// -----

// The scans count too: the only block listed, 64 columns at head_k 256,
// needs 73728 bytes at chunk 32, so 16 on the 64 KiB targets (where the
// prep alone would take 32).
#l256_64 = #kda.layer<heads = 1, value_heads = 1, head_k = 256, head_v = 64, gate = lower_bound(-5.0), beta = sigmoid, qk_l2norm = true, act = bf16, state = f32, state_layout = vk>

// C32-LABEL: gpu.func @kda_bv64_prep(
// C32-SAME:    chunk_size = 16 : i64
// C32:       gpu.func @kda_bv64_scan_v64(
// C32-SAME:    chunk_size = 16 : i64
// C64-LABEL: gpu.func @kda_bv64_prep(
// C64-SAME:    chunk_size = 64 : i64
// C64:       gpu.func @kda_bv64_scan_v64(
// C64-SAME:    chunk_size = 64 : i64
func.func @bv64(%q: memref<?x1x256xbf16>, %k: memref<?x1x256xbf16>, %v: memref<?x1x64xbf16>, %g: memref<?x1x256xbf16>, %beta: memref<?x1xbf16>, %cu: memref<?xi32>, %slots: memref<?xi32>, %init: memref<?xi1>, %state: memref<?x1x64x256xf32>, %o: memref<?x1x64xbf16>) {
  kda.chunk #l256_64 q(%q : memref<?x1x256xbf16>) k(%k : memref<?x1x256xbf16>) v(%v : memref<?x1x64xbf16>) g(%g : memref<?x1x256xbf16>) beta(%beta : memref<?x1xbf16>) cu_seqlens(%cu : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%init : memref<?xi1>) state(%state : memref<?x1x64x256xf32>) out(%o : memref<?x1x64xbf16>) {scan_block_v = array<i64: 64>}
  return
}

// -----

// A pipelined scan's ring: at scan_stages 2 and head_k 128 every block's
// ring is over 64 KiB at chunk 64 (R6), so 32 there.
#l128_128 = #kda.layer<heads = 1, value_heads = 1, head_k = 128, head_v = 128, gate = lower_bound(-5.0), beta = sigmoid, qk_l2norm = true, act = bf16, state = f32, state_layout = vk>

// C32-LABEL: gpu.func @kda_s2_prep(
// C32-SAME:    chunk_size = 32 : i64
// C32:       gpu.func @kda_s2_scan(
// C32-SAME:    chunk_size = 32 : i64
// C64-LABEL: gpu.func @kda_s2_prep(
// C64-SAME:    chunk_size = 64 : i64
// C64:       gpu.func @kda_s2_scan(
// C64-SAME:    chunk_size = 64 : i64
func.func @s2(%q: memref<?x1x128xbf16>, %k: memref<?x1x128xbf16>, %v: memref<?x1x128xbf16>, %g: memref<?x1x128xbf16>, %beta: memref<?x1xbf16>, %cu: memref<?xi32>, %slots: memref<?xi32>, %init: memref<?xi1>, %state: memref<?x1x128x128xf32>, %o: memref<?x1x128xbf16>) {
  kda.chunk #l128_128 q(%q : memref<?x1x128xbf16>) k(%k : memref<?x1x128xbf16>) v(%v : memref<?x1x128xbf16>) g(%g : memref<?x1x128xbf16>) beta(%beta : memref<?x1xbf16>) cu_seqlens(%cu : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%init : memref<?xi1>) state(%state : memref<?x1x128x128xf32>) out(%o : memref<?x1x128xbf16>) {scan_stages = 2 : i64}
  return
}
