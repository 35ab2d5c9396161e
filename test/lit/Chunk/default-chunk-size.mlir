// A kda.chunk without chunk_size takes, on each target, the largest of 64,
// 32 and 16 at which the layer's prep fits the target's LDS and one of its
// scans is built, or one halving below that where only the smaller size's
// scan holds its state in registers (defaultChunkSize: a register scan, and
// with it the scan split within a sequence, over an LDS-resident one), the
// same on every stage of the layer; an explicit size is kept (refused where
// it does not fit: scan-choice-invalid.mlir).
// head_k 192: the prep needs 72448 bytes at 64, so 32 on the 64 KiB of emu
// and gfx942, where only 16 has a register scan (its maps, join and
// segments are built); on gfx950's 160 KiB 64 holds an LDS-resident scan,
// 32 a register one; sm_90's (emu32's) 227 KiB hold a register scan at 64.
// RUN: kda-opt %s -split-input-file --kda-decompose --kda-lower-to-gpu=target=emu | FileCheck %s --check-prefixes=A942
// RUN: kda-opt %s -split-input-file --kda-decompose --kda-lower-to-gpu=target=gfx942 | FileCheck %s --check-prefixes=A942
// RUN: kda-opt %s -split-input-file --kda-decompose --kda-lower-to-gpu=target=gfx950 | FileCheck %s --check-prefixes=A950
// RUN: kda-opt %s -split-input-file --kda-decompose --kda-lower-to-gpu=target=emu32 | FileCheck %s --check-prefixes=SM90
// RUN: kda-opt %s -split-input-file --kda-decompose --kda-lower-to-gpu=target=sm_90 | FileCheck %s --check-prefixes=SM90

#l192_32 = #kda.layer<heads = 1, value_heads = 1, head_k = 192, head_v = 32, gate = lower_bound(-5.0), beta = sigmoid, qk_l2norm = true, act = bf16, state = f32, state_layout = vk>

// A942-LABEL: gpu.func @kda_k192_prep(
// A942-SAME:    chunk_size = 16 : i64
// A942:       gpu.func @kda_k192_scan(
// A942-SAME:    chunk_size = 16 : i64
// A942:       gpu.func @kda_k192_scan_v32(
// A942-SAME:    chunk_size = 16 : i64
// A942:       gpu.func @kda_k192_maps_v32(
// A942-SAME:    chunk_size = 16 : i64
// A942:       gpu.func @kda_k192_join(
// A942-SAME:    chunk_size = 16 : i64
// A942:       gpu.func @kda_k192_segments_v32(
// A942-SAME:    chunk_size = 16 : i64
// A950-LABEL: gpu.func @kda_k192_prep(
// A950-SAME:    chunk_size = 32 : i64
// A950:       gpu.func @kda_k192_scan(
// A950-SAME:    chunk_size = 32 : i64
// A950:       gpu.func @kda_k192_scan_v32(
// A950-SAME:    chunk_size = 32 : i64
// A950:       gpu.func @kda_k192_maps_v32(
// A950-SAME:    chunk_size = 32 : i64
// A950:       gpu.func @kda_k192_join(
// A950-SAME:    chunk_size = 32 : i64
// A950:       gpu.func @kda_k192_segments_v32(
// A950-SAME:    chunk_size = 32 : i64
// SM90-LABEL: gpu.func @kda_k192_prep(
// SM90-SAME:    chunk_size = 64 : i64
// SM90:       gpu.func @kda_k192_scan(
// SM90-SAME:    chunk_size = 64 : i64
// SM90:       gpu.func @kda_k192_scan_v32(
// SM90-SAME:    chunk_size = 64 : i64
// SM90:       gpu.func @kda_k192_maps_v32(
// SM90-SAME:    chunk_size = 64 : i64
// SM90:       gpu.func @kda_k192_join(
// SM90-SAME:    chunk_size = 64 : i64
// SM90:       gpu.func @kda_k192_segments_v32(
// SM90-SAME:    chunk_size = 64 : i64
func.func @k192(%q: memref<?x1x192xbf16>, %k: memref<?x1x192xbf16>, %v: memref<?x1x32xbf16>, %g: memref<?x1x192xbf16>, %beta: memref<?x1xbf16>, %cu: memref<?xi32>, %slots: memref<?xi32>, %init: memref<?xi1>, %state: memref<?x1x32x192xf32>, %o: memref<?x1x32xbf16>) {
  kda.chunk #l192_32 q(%q : memref<?x1x192xbf16>) k(%k : memref<?x1x192xbf16>) v(%v : memref<?x1x32xbf16>) g(%g : memref<?x1x192xbf16>) beta(%beta : memref<?x1xbf16>) cu_seqlens(%cu : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%init : memref<?xi1>) state(%state : memref<?x1x32x192xf32>) out(%o : memref<?x1x32xbf16>)
  return
}

// -----

// An explicit size is the layer's on every target, where it fits.
#l192_32 = #kda.layer<heads = 1, value_heads = 1, head_k = 192, head_v = 32, gate = lower_bound(-5.0), beta = sigmoid, qk_l2norm = true, act = bf16, state = f32, state_layout = vk>

// A942-LABEL: gpu.func @kda_k192_c16_prep(
// A942-SAME:    chunk_size = 16 : i64
// A942:       gpu.func @kda_k192_c16_scan(
// A942-SAME:    chunk_size = 16 : i64
// A942:       gpu.func @kda_k192_c16_maps_v32(
// A942-SAME:    chunk_size = 16 : i64
// A950-LABEL: gpu.func @kda_k192_c16_prep(
// A950-SAME:    chunk_size = 16 : i64
// A950:       gpu.func @kda_k192_c16_scan(
// A950-SAME:    chunk_size = 16 : i64
// A950:       gpu.func @kda_k192_c16_maps_v32(
// A950-SAME:    chunk_size = 16 : i64
// SM90-LABEL: gpu.func @kda_k192_c16_prep(
// SM90-SAME:    chunk_size = 16 : i64
// SM90:       gpu.func @kda_k192_c16_scan(
// SM90-SAME:    chunk_size = 16 : i64
// SM90:       gpu.func @kda_k192_c16_maps_v32(
// SM90-SAME:    chunk_size = 16 : i64
func.func @k192_c16(%q: memref<?x1x192xbf16>, %k: memref<?x1x192xbf16>, %v: memref<?x1x32xbf16>, %g: memref<?x1x192xbf16>, %beta: memref<?x1xbf16>, %cu: memref<?xi32>, %slots: memref<?xi32>, %init: memref<?xi1>, %state: memref<?x1x32x192xf32>, %o: memref<?x1x32xbf16>) {
  kda.chunk #l192_32 q(%q : memref<?x1x192xbf16>) k(%k : memref<?x1x192xbf16>) v(%v : memref<?x1x32xbf16>) g(%g : memref<?x1x192xbf16>) beta(%beta : memref<?x1xbf16>) cu_seqlens(%cu : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%init : memref<?xi1>) state(%state : memref<?x1x32x192xf32>) out(%o : memref<?x1x32xbf16>) {chunk_size = 16 : i64}
  return
}

// -----

// head_k 64: 64 everywhere but on the 64 KiB targets, whose register scan
// holds 32 (at 64 their scan would keep its state in LDS).
#l64_32 = #kda.layer<heads = 1, value_heads = 1, head_k = 64, head_v = 32, gate = lower_bound(-5.0), beta = sigmoid, qk_l2norm = true, act = bf16, state = f32, state_layout = vk>

// A942-LABEL: gpu.func @kda_k64_prep(
// A942-SAME:    chunk_size = 32 : i64
// A942:       gpu.func @kda_k64_scan(
// A942-SAME:    chunk_size = 32 : i64
// A942:       gpu.func @kda_k64_scan_v32(
// A942-SAME:    chunk_size = 32 : i64
// A942:       gpu.func @kda_k64_maps_v32(
// A942-SAME:    chunk_size = 32 : i64
// A942:       gpu.func @kda_k64_join(
// A942-SAME:    chunk_size = 32 : i64
// A942:       gpu.func @kda_k64_segments_v32(
// A942-SAME:    chunk_size = 32 : i64
// A950-LABEL: gpu.func @kda_k64_prep(
// A950-SAME:    chunk_size = 64 : i64
// A950:       gpu.func @kda_k64_scan(
// A950-SAME:    chunk_size = 64 : i64
// A950:       gpu.func @kda_k64_scan_v32(
// A950-SAME:    chunk_size = 64 : i64
// A950:       gpu.func @kda_k64_maps_v32(
// A950-SAME:    chunk_size = 64 : i64
// A950:       gpu.func @kda_k64_join(
// A950-SAME:    chunk_size = 64 : i64
// A950:       gpu.func @kda_k64_segments_v32(
// A950-SAME:    chunk_size = 64 : i64
// SM90-LABEL: gpu.func @kda_k64_prep(
// SM90-SAME:    chunk_size = 64 : i64
// SM90:       gpu.func @kda_k64_scan(
// SM90-SAME:    chunk_size = 64 : i64
// SM90:       gpu.func @kda_k64_scan_v32(
// SM90-SAME:    chunk_size = 64 : i64
// SM90:       gpu.func @kda_k64_maps_v32(
// SM90-SAME:    chunk_size = 64 : i64
// SM90:       gpu.func @kda_k64_join(
// SM90-SAME:    chunk_size = 64 : i64
// SM90:       gpu.func @kda_k64_segments_v32(
// SM90-SAME:    chunk_size = 64 : i64
func.func @k64(%q: memref<?x1x64xbf16>, %k: memref<?x1x64xbf16>, %v: memref<?x1x32xbf16>, %g: memref<?x1x64xbf16>, %beta: memref<?x1xbf16>, %cu: memref<?xi32>, %slots: memref<?xi32>, %init: memref<?xi1>, %state: memref<?x1x32x64xf32>, %o: memref<?x1x32xbf16>) {
  kda.chunk #l64_32 q(%q : memref<?x1x64xbf16>) k(%k : memref<?x1x64xbf16>) v(%v : memref<?x1x32xbf16>) g(%g : memref<?x1x64xbf16>) beta(%beta : memref<?x1xbf16>) cu_seqlens(%cu : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%init : memref<?xi1>) state(%state : memref<?x1x32x64xf32>) out(%o : memref<?x1x32xbf16>)
  return
}

// -----

// The scans count too: the only block listed, 64 columns at head_k 256,
// needs 73728 bytes at chunk 32, so 16 on the 64 KiB targets (where the
// prep alone would take 32), an LDS-resident scan with no smaller size to
// fall to; gfx950 holds an LDS-resident scan at 64, a register one at 32.
#l256_64 = #kda.layer<heads = 1, value_heads = 1, head_k = 256, head_v = 64, gate = lower_bound(-5.0), beta = sigmoid, qk_l2norm = true, act = bf16, state = f32, state_layout = vk>

// A942-LABEL: gpu.func @kda_bv64_prep(
// A942-SAME:    chunk_size = 16 : i64
// A942:       gpu.func @kda_bv64_scan_v64(
// A942-SAME:    chunk_size = 16 : i64
// A942-NOT:   gpu.func @kda_bv64_maps
// A950-LABEL: gpu.func @kda_bv64_prep(
// A950-SAME:    chunk_size = 32 : i64
// A950:       gpu.func @kda_bv64_scan_v64(
// A950-SAME:    chunk_size = 32 : i64
// A950:       gpu.func @kda_bv64_maps_v64(
// A950-SAME:    chunk_size = 32 : i64
// A950:       gpu.func @kda_bv64_join(
// A950-SAME:    chunk_size = 32 : i64
// A950:       gpu.func @kda_bv64_segments_v64(
// A950-SAME:    chunk_size = 32 : i64
// SM90-LABEL: gpu.func @kda_bv64_prep(
// SM90-SAME:    chunk_size = 64 : i64
// SM90:       gpu.func @kda_bv64_scan_v64(
// SM90-SAME:    chunk_size = 64 : i64
// SM90:       gpu.func @kda_bv64_maps_v64(
// SM90-SAME:    chunk_size = 64 : i64
// SM90:       gpu.func @kda_bv64_join(
// SM90-SAME:    chunk_size = 64 : i64
// SM90:       gpu.func @kda_bv64_segments_v64(
// SM90-SAME:    chunk_size = 64 : i64
func.func @bv64(%q: memref<?x1x256xbf16>, %k: memref<?x1x256xbf16>, %v: memref<?x1x64xbf16>, %g: memref<?x1x256xbf16>, %beta: memref<?x1xbf16>, %cu: memref<?xi32>, %slots: memref<?xi32>, %init: memref<?xi1>, %state: memref<?x1x64x256xf32>, %o: memref<?x1x64xbf16>) {
  kda.chunk #l256_64 q(%q : memref<?x1x256xbf16>) k(%k : memref<?x1x256xbf16>) v(%v : memref<?x1x64xbf16>) g(%g : memref<?x1x256xbf16>) beta(%beta : memref<?x1xbf16>) cu_seqlens(%cu : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%init : memref<?xi1>) state(%state : memref<?x1x64x256xf32>) out(%o : memref<?x1x64xbf16>) {scan_block_v = array<i64: 64>}
  return
}

// -----

// A pipelined scan's ring: at scan_stages 2 and head_k 128 every block's
// ring is over 64 KiB at chunk 64 (R6), so 32 there. A pipelined scan keeps
// its state in LDS at every size: no halving for it.
#l128_128 = #kda.layer<heads = 1, value_heads = 1, head_k = 128, head_v = 128, gate = lower_bound(-5.0), beta = sigmoid, qk_l2norm = true, act = bf16, state = f32, state_layout = vk>

// A942-LABEL: gpu.func @kda_s2_prep(
// A942-SAME:    chunk_size = 32 : i64
// A942:       gpu.func @kda_s2_scan(
// A942-SAME:    chunk_size = 32 : i64
// A942:       gpu.func @kda_s2_scan_v32(
// A942-SAME:    chunk_size = 32 : i64
// A950-LABEL: gpu.func @kda_s2_prep(
// A950-SAME:    chunk_size = 64 : i64
// A950:       gpu.func @kda_s2_scan(
// A950-SAME:    chunk_size = 64 : i64
// A950:       gpu.func @kda_s2_scan_v32(
// A950-SAME:    chunk_size = 64 : i64
// A950:       gpu.func @kda_s2_scan_v64(
// A950-SAME:    chunk_size = 64 : i64
// SM90-LABEL: gpu.func @kda_s2_prep(
// SM90-SAME:    chunk_size = 64 : i64
// SM90:       gpu.func @kda_s2_scan(
// SM90-SAME:    chunk_size = 64 : i64
// SM90:       gpu.func @kda_s2_scan_v32(
// SM90-SAME:    chunk_size = 64 : i64
// SM90:       gpu.func @kda_s2_scan_v64(
// SM90-SAME:    chunk_size = 64 : i64
func.func @s2(%q: memref<?x1x128xbf16>, %k: memref<?x1x128xbf16>, %v: memref<?x1x128xbf16>, %g: memref<?x1x128xbf16>, %beta: memref<?x1xbf16>, %cu: memref<?xi32>, %slots: memref<?xi32>, %init: memref<?xi1>, %state: memref<?x1x128x128xf32>, %o: memref<?x1x128xbf16>) {
  kda.chunk #l128_128 q(%q : memref<?x1x128xbf16>) k(%k : memref<?x1x128xbf16>) v(%v : memref<?x1x128xbf16>) g(%g : memref<?x1x128xbf16>) beta(%beta : memref<?x1xbf16>) cu_seqlens(%cu : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%init : memref<?xi1>) state(%state : memref<?x1x128x128xf32>) out(%o : memref<?x1x128xbf16>) {scan_stages = 2 : i64}
  return
}
