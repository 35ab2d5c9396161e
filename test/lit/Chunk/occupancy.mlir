// The chunk kernels' occupancy requests: the kernel builder names no chip,
// it asks for workgroups an SM / CU (kda.workgroups_per_cu); kda-lower-atoms
// gives the request to the chip: nvvm.minctasm on sm_90 (ptxas sizes the
// registers for it), nothing on gfx942 (not applied there yet). The prep
// asks 3, the LDS-resident 16-column scan (here at depth 2) 2 (what it held
// before its decays were loaded early); the scan with its state in
// registers (depth 1) nothing: one workgroup an SM holds its 8 waves at up
// to 255 registers.
// RUN: kda-opt %s --kda-decompose --kda-lower-to-gpu=target=sm_90 | FileCheck %s --check-prefix=BUILT
// RUN: kda-opt %s --kda-decompose --kda-lower-to-gpu=target=sm_90 --kda-lower-atoms | FileCheck %s --check-prefix=SM90
// RUN: kda-opt %s --kda-decompose --kda-lower-to-gpu=target=gfx942 --kda-lower-atoms | FileCheck %s --check-prefix=GFX942

// BUILT-LABEL: gpu.func @kda_lb_prep(
// BUILT-SAME: kda.workgroups_per_cu = 3 : i32
// BUILT-NOT: nvvm.minctasm
// BUILT-LABEL: gpu.func @kda_lb_scan(
// BUILT-NOT: kda.workgroups_per_cu
// BUILT-LABEL: gpu.func @kda_lb2_prep(
// BUILT-LABEL: gpu.func @kda_lb2_scan(
// BUILT-SAME: kda.workgroups_per_cu = 2 : i32

// SM90-LABEL: gpu.func @kda_lb_prep(
// SM90-SAME: nvvm.minctasm = 3 : i32
// SM90-LABEL: gpu.func @kda_lb_scan(
// SM90-NOT: nvvm.minctasm
// SM90-LABEL: gpu.func @kda_lb2_prep(
// SM90-LABEL: gpu.func @kda_lb2_scan(
// SM90-SAME: nvvm.minctasm = 2 : i32

// GFX942-LABEL: gpu.func @kda_lb_prep(
// GFX942-NOT: nvvm.minctasm
// GFX942-LABEL: gpu.func @kda_lb_scan(

#lb = #kda.layer<heads = 1, value_heads = 1, head_k = 32, head_v = 16, gate = lower_bound(-5.0), beta = sigmoid, qk_l2norm = true, act = bf16, state = f32, state_layout = kv>
func.func @lb(%q: memref<?x1x32xbf16>, %k: memref<?x1x32xbf16>, %v: memref<?x1x16xbf16>, %g: memref<?x1x32xbf16>, %beta: memref<?x1xbf16>, %cu: memref<?xi32>, %slots: memref<?xi32>, %init: memref<?xi1>, %state: memref<?x1x32x16xf32>, %o: memref<?x1x16xbf16>) {
  kda.chunk #lb q(%q : memref<?x1x32xbf16>) k(%k : memref<?x1x32xbf16>) v(%v : memref<?x1x16xbf16>) g(%g : memref<?x1x32xbf16>) beta(%beta : memref<?x1xbf16>) cu_seqlens(%cu : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%init : memref<?xi1>) state(%state : memref<?x1x32x16xf32>) out(%o : memref<?x1x16xbf16>) {chunk_size = 32 : i64}
  return
}
func.func @lb2(%q: memref<?x1x32xbf16>, %k: memref<?x1x32xbf16>, %v: memref<?x1x16xbf16>, %g: memref<?x1x32xbf16>, %beta: memref<?x1xbf16>, %cu: memref<?xi32>, %slots: memref<?xi32>, %init: memref<?xi1>, %state: memref<?x1x32x16xf32>, %o: memref<?x1x16xbf16>) {
  kda.chunk #lb q(%q : memref<?x1x32xbf16>) k(%k : memref<?x1x32xbf16>) v(%v : memref<?x1x16xbf16>) g(%g : memref<?x1x32xbf16>) beta(%beta : memref<?x1xbf16>) cu_seqlens(%cu : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%init : memref<?xi1>) state(%state : memref<?x1x32x16xf32>) out(%o : memref<?x1x16xbf16>) {chunk_size = 32 : i64, scan_stages = 2 : i64}
  return
}
