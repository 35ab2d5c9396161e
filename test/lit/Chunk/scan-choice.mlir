// Which stages kda-lower-to-gpu builds where the target's LDS holds only
// some of them (LowerToGpu.cpp, chooseScans and dropUnbuildableSegments):
// a scan alternative that does not fit is left out while another stands,
// and a split scan whose join does not fit is left out whole (maps, join,
// segments), the prep and plain scans kept. head_k 256 on emu's 64 KiB.
// RUN: kda-opt %s -split-input-file --kda-decompose --kda-lower-to-gpu=target=emu | FileCheck %s
// RUN: kda-opt %s -split-input-file --kda-decompose --kda-lower-to-gpu=target=emu32 | FileCheck %s --check-prefix=EMU32

#l = #kda.layer<heads = 1, value_heads = 1, head_k = 256, head_v = 64, gate = lower_bound(-5.0), beta = sigmoid, qk_l2norm = true, act = bf16, state = f32, state_layout = vk>

// At chunk 32 the 64-column scan needs 73728 bytes: left out on emu; the
// 16- and 32-column scans stand. emu32 (sm_90's LDS) builds them all.
// CHECK-LABEL: gpu.func @kda_c32_prep(
// CHECK:       gpu.func @kda_c32_scan(
// CHECK:       gpu.func @kda_c32_scan_v32(
// CHECK-NOT:   gpu.func @kda_c32_scan_v64(
// EMU32-LABEL: gpu.func @kda_c32_prep(
// EMU32:       gpu.func @kda_c32_scan_v64(
// EMU32:       gpu.func @kda_c32_segments_v64(
func.func @c32(%q: memref<?x1x256xbf16>, %k: memref<?x1x256xbf16>, %v: memref<?x1x64xbf16>, %g: memref<?x1x256xbf16>, %beta: memref<?x1xbf16>, %cu: memref<?xi32>, %slots: memref<?xi32>, %init: memref<?xi1>, %state: memref<?x1x64x256xf32>, %o: memref<?x1x64xbf16>) {
  kda.chunk #l q(%q : memref<?x1x256xbf16>) k(%k : memref<?x1x256xbf16>) v(%v : memref<?x1x64xbf16>) g(%g : memref<?x1x256xbf16>) beta(%beta : memref<?x1xbf16>) cu_seqlens(%cu : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%init : memref<?xi1>) state(%state : memref<?x1x64x256xf32>) out(%o : memref<?x1x64xbf16>) {chunk_size = 32 : i64}
  return
}

// -----

#l = #kda.layer<heads = 1, value_heads = 1, head_k = 256, head_v = 64, gate = lower_bound(-5.0), beta = sigmoid, qk_l2norm = true, act = bf16, state = f32, state_layout = vk>

// At chunk 16 every scan fits but the join needs 66048 bytes: the split
// scan is left out whole, and the prep and scans forget segment_chunks.
// CHECK-LABEL: gpu.func @kda_c16_prep(
// CHECK-NOT:   segment_chunks
// CHECK:       gpu.func @kda_c16_scan_v64(
// CHECK-NOT:   gpu.func @kda_c16_maps
// CHECK-NOT:   gpu.func @kda_c16_join
// CHECK-NOT:   gpu.func @kda_c16_segments
// EMU32-LABEL: gpu.func @kda_c16_prep(
// EMU32:       gpu.func @kda_c16_join(
func.func @c16(%q: memref<?x1x256xbf16>, %k: memref<?x1x256xbf16>, %v: memref<?x1x64xbf16>, %g: memref<?x1x256xbf16>, %beta: memref<?x1xbf16>, %cu: memref<?xi32>, %slots: memref<?xi32>, %init: memref<?xi1>, %state: memref<?x1x64x256xf32>, %o: memref<?x1x64xbf16>) {
  kda.chunk #l q(%q : memref<?x1x256xbf16>) k(%k : memref<?x1x256xbf16>) v(%v : memref<?x1x64xbf16>) g(%g : memref<?x1x256xbf16>) beta(%beta : memref<?x1xbf16>) cu_seqlens(%cu : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%init : memref<?xi1>) state(%state : memref<?x1x64x256xf32>) out(%o : memref<?x1x64xbf16>) {chunk_size = 16 : i64}
  return
}

// -----

#l = #kda.layer<heads = 1, value_heads = 1, head_k = 32, head_v = 64, gate = lower_bound(-5.0), beta = sigmoid, qk_l2norm = true, act = bf16, state = f32, state_layout = vk>

// A pipelined scan's ring counted before it is built: at scan_stages 2 the
// 64-column scan's ring needs 73728 bytes of emu's 65536, so that block is
// left out and the 16- and 32-column scans stand (alone, R6 would refuse
// it when built: Chunk/scan-pipeline-invalid.mlir).
// CHECK-LABEL: gpu.func @kda_ring_prep(
// CHECK:       gpu.func @kda_ring_scan(
// CHECK:       gpu.func @kda_ring_scan_v32(
// CHECK-NOT:   gpu.func @kda_ring_scan_v64(
// EMU32-LABEL: gpu.func @kda_ring_prep(
// EMU32:       gpu.func @kda_ring_scan_v64(
func.func @ring(%q: memref<?x1x32xbf16>, %k: memref<?x1x32xbf16>, %v: memref<?x1x64xbf16>, %g: memref<?x1x32xbf16>, %beta: memref<?x1xbf16>, %cu: memref<?xi32>, %slots: memref<?xi32>, %init: memref<?xi1>, %state: memref<?x1x64x32xf32>, %o: memref<?x1x64xbf16>) {
  kda.chunk #l q(%q : memref<?x1x32xbf16>) k(%k : memref<?x1x32xbf16>) v(%v : memref<?x1x64xbf16>) g(%g : memref<?x1x32xbf16>) beta(%beta : memref<?x1xbf16>) cu_seqlens(%cu : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%init : memref<?xi1>) state(%state : memref<?x1x64x32xf32>) out(%o : memref<?x1x64xbf16>) {scan_stages = 2 : i64}
  return
}

// -----

#l = #kda.layer<heads = 1, value_heads = 1, head_k = 32, head_v = 64, gate = lower_bound(-5.0), beta = sigmoid, qk_l2norm = true, act = bf16, state = f32, state_layout = vk>

// A warpgroup block its rules refuse (head_k 32) on a chip that has the
// atoms is unfit like any other: left out while the 16- and 32-column
// register scans stand (emu32; emu has no warpgroup atoms at all).
// CHECK-LABEL: gpu.func @kda_wg_k32_prep(
// CHECK-NOT:   gpu.func @kda_wg_k32_scan_v64(
// EMU32-LABEL: gpu.func @kda_wg_k32_prep(
// EMU32:       gpu.func @kda_wg_k32_scan_v32(
// EMU32-NOT:   gpu.func @kda_wg_k32_scan_v64(
func.func @wg_k32(%q: memref<?x1x32xbf16>, %k: memref<?x1x32xbf16>, %v: memref<?x1x64xbf16>, %g: memref<?x1x32xbf16>, %beta: memref<?x1xbf16>, %cu: memref<?xi32>, %slots: memref<?xi32>, %init: memref<?xi1>, %state: memref<?x1x64x32xf32>, %o: memref<?x1x64xbf16>) {
  kda.chunk #l q(%q : memref<?x1x32xbf16>) k(%k : memref<?x1x32xbf16>) v(%v : memref<?x1x64xbf16>) g(%g : memref<?x1x32xbf16>) beta(%beta : memref<?x1xbf16>) cu_seqlens(%cu : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%init : memref<?xi1>) state(%state : memref<?x1x64x32xf32>) out(%o : memref<?x1x64xbf16>) {warpgroup_scan}
  return
}
