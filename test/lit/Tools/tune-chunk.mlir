// kda-tune --list enumerates each kda.chunk's scan row pipeline at depths
// 1..4 for each of its column blocks (the waves are fixed by the block and
// the depth: 8, and 512 threads from 32 columns on at depths 2..4; 8 in the
// depth-1 scan with its state in registers, where it fits the chip) on
// each target without a device:
// every depth is built and verified as kda-compile would build it, listed
// accepted with its dynamic LDS and copy kind, or rejected with the
// verifier's rule - R6 where the ring does not fit gfx942's 64 KiB,
// gfx950's 160 KiB or sm_90's 227 KiB. Depth 1 is the default everywhere.
// RUN: kda-tune %s --target=gfx942 --list | FileCheck %s --check-prefix=GFX942
// RUN: kda-tune %s --target=gfx950 --list | FileCheck %s --check-prefix=GFX950
// RUN: kda-tune %s --target=sm_90 --list | FileCheck %s --check-prefix=SM90
// RUN: kda-tune %s --target=emu32 --list --scan-stages=2,4 | FileCheck %s --check-prefix=EMU32

// GFX942: prefill64 chunk scan on gfx942, block_v 16: 2 depths accepted, 2 rejected (8 waves of 64 threads, fixed; chunk_size 64)
// GFX942-NEXT: accepted: scan_stages 1 (default): 55296 bytes of dynamic LDS, rows staged in the chunk loop
// GFX942-NEXT: accepted: scan_stages 2: 56320 bytes of dynamic LDS, scan_rows: depth 2, 2 slots of 20480 bytes at dynamic LDS byte 15360, staged copies, verified for gfx942
// GFX942-NEXT: rejected: scan_stages 3: 'kda.chunk' op scan pipeline rejected on gfx942: R6: the kernel needs 69632 bytes of LDS (@candidate_scan_rows 3 x 20480 in the dynamic shared memory, gpu.dynamic_shared_memory of 69632 bytes) but gfx942 has 65536 (pipeline 'scan_rows' at depth 3)
// GFX942-NEXT: rejected: scan_stages 4: {{.*}} R6: the kernel needs 90112 bytes {{.*}} (pipeline 'scan_rows' at depth 4)
// GFX942-NEXT: prefill256 chunk prep on gfx942: refused (kda-compile refuses the layer there): {{.*}} the prep kernel needs 106240 bytes of LDS, more than gfx942's 65536 (chunk_size = 64, head_k = 256); it fits at chunk_size = 32
// GFX942-NEXT: prefill256 chunk scan on gfx942, block_v 16: 1 depths accepted, 3 rejected
// GFX942-NEXT: accepted: scan_stages 1 (default): 46080 bytes of dynamic LDS, rows staged in the chunk loop
// GFX942-NEXT: rejected: scan_stages 2: {{.*}} R6: the kernel needs 159744 bytes {{.*}} but gfx942 has 65536 (pipeline 'scan_rows' at depth 2)
// GFX942-NEXT: rejected: scan_stages 3: {{.*}} R6: {{.*}} (pipeline 'scan_rows' at depth 3)
// GFX942-NEXT: rejected: scan_stages 4: {{.*}} R6: {{.*}} (pipeline 'scan_rows' at depth 4)

// GFX950: prefill64 chunk scan on gfx950, block_v 16: 4 depths accepted, 0 rejected (8 waves of 64 threads, fixed; chunk_size 64)
// GFX950: accepted: scan_stages 4: 132096 bytes of dynamic LDS, scan_rows: depth 4, 4 slots of 20480 bytes at dynamic LDS byte 50176, staged copies, verified for gfx950
// GFX950-NEXT: prefill256 chunk scan on gfx950, block_v 16: 2 depths accepted, 2 rejected
// GFX950-NEXT: accepted: scan_stages 1 (default)
// GFX950-NEXT: accepted: scan_stages 2: 159744 bytes of dynamic LDS, scan_rows: depth 2, 2 slots of 69632 bytes at dynamic LDS byte 20480, staged copies, verified for gfx950
// GFX950-NEXT: rejected: scan_stages 3: {{.*}} R6: the kernel needs 229376 bytes {{.*}} but gfx950 has 163840 (pipeline 'scan_rows' at depth 3)
// GFX950-NEXT: rejected: scan_stages 4: {{.*}} R6: {{.*}} (pipeline 'scan_rows' at depth 4)

// SM90: prefill64 chunk scan on sm_90, block_v 16: 4 depths accepted, 0 rejected (8 waves of 32 threads, fixed; chunk_size 64)
// SM90: accepted: scan_stages 2: 91136 bytes of dynamic LDS, scan_rows: depth 2, 2 slots of 20480 bytes at dynamic LDS byte 50176, async copies, verified for sm_90
// SM90: prefill256 chunk scan on sm_90, block_v 16: 3 depths accepted, 1 rejected
// SM90: accepted: scan_stages 3: 229376 bytes of dynamic LDS, scan_rows: depth 3, 3 slots of 69632 bytes at dynamic LDS byte 20480, async copies, verified for sm_90
// SM90-NEXT: rejected: scan_stages 4: {{.*}} R6: the kernel needs 299008 bytes {{.*}} but sm_90 has 232448 (pipeline 'scan_rows' at depth 4)

// SM90: prefill_v32 chunk scan on sm_90, block_v 16: 4 depths accepted, 0 rejected (8 waves of 32 threads, fixed; chunk_size 64)
// SM90: prefill_v32 chunk scan on sm_90, block_v 32: 4 depths accepted, 0 rejected (8 waves of 32 threads, fixed; chunk_size 64)
// SM90-NEXT: accepted: scan_stages 1 (default): 123136 bytes of dynamic LDS, rows staged in the chunk loop
// GFX942: prefill_v32 chunk scan on gfx942, block_v 32: {{.*}} (8 waves of 64 threads, fixed; chunk_size 64)

// Without chunk_size, the size the target takes (kda-lower-to-gpu's
// default): 16 on gfx942 at head_k 256 (the prep fits 32, but only 16's
// depth-1 scan holds its state in registers), 64 on sm_90.
// GFX942: prefill256_auto chunk scan on gfx942, block_v 16: {{.*}} chunk_size 16, the target's)
// SM90: prefill256_auto chunk scan on sm_90, block_v 16: {{.*}} chunk_size 64, the target's)

// A block the target runs only in a form measured slower (128 columns:
// the self-staged register scan, which takes per-thread async copies, at
// depth 1 alone) is not built at that depth, whatever its build would give:
// kda-compile leaves it out (Chunk/scan-choice-invalid.mlir).
// GFX942: prefill_v128 chunk scan on gfx942, block_v 128: 0 depths accepted, 4 rejected
// GFX942-NEXT: rejected: scan_stages 1 (default): not built (kda-compile leaves it out, and refuses the layer where it leaves every block out): it runs fast only as the self-staged register scan {{.*}} gfx942 has none
// SM90: prefill_v128 chunk scan on sm_90, block_v 128: 1 depths accepted, 3 rejected
// SM90-NEXT: accepted: scan_stages 1 (default)
// SM90-NEXT: rejected: scan_stages 2: not built (kda-compile leaves it out, {{.*}}): it runs fast only as the self-staged register scan
// SM90-NEXT: rejected: scan_stages 3: not built

// EMU32: prefill64 chunk scan on emu32, block_v 16: 2 depths accepted, 0 rejected
// EMU32-NEXT: accepted: scan_stages 2: {{.*}} async copies, verified for emu32
// EMU32-NEXT: accepted: scan_stages 4: {{.*}} async copies, verified for emu32

#l64 = #kda.layer<heads = 1, value_heads = 1, head_k = 64, head_v = 16, gate = none, beta = sigmoid, qk_l2norm = true, act = bf16, state = f32, state_layout = kv>
#lv32 = #kda.layer<heads = 1, value_heads = 1, head_k = 64, head_v = 32, gate = none, beta = sigmoid, qk_l2norm = true, act = bf16, state = f32, state_layout = kv>
#lv128 = #kda.layer<heads = 1, value_heads = 1, head_k = 64, head_v = 128, gate = none, beta = sigmoid, qk_l2norm = true, act = bf16, state = f32, state_layout = vk>
#l256 = #kda.layer<heads = 1, value_heads = 1, head_k = 256, head_v = 16, gate = none, beta = sigmoid, qk_l2norm = true, act = bf16, state = f32, state_layout = kv>
func.func @prefill64(%q: memref<?x1x64xbf16>, %k: memref<?x1x64xbf16>, %v: memref<?x1x16xbf16>, %g: memref<?x1x64xbf16>, %beta: memref<?x1xbf16>, %cu: memref<?xi32>, %slots: memref<?xi32>, %init: memref<?xi1>, %state: memref<?x1x64x16xf32>, %o: memref<?x1x16xbf16>) {
  kda.chunk #l64 q(%q : memref<?x1x64xbf16>) k(%k : memref<?x1x64xbf16>) v(%v : memref<?x1x16xbf16>) g(%g : memref<?x1x64xbf16>) beta(%beta : memref<?x1xbf16>) cu_seqlens(%cu : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%init : memref<?xi1>) state(%state : memref<?x1x64x16xf32>) out(%o : memref<?x1x16xbf16>) {chunk_size = 64 : i64}
  return
}
func.func @prefill256(%q: memref<?x1x256xbf16>, %k: memref<?x1x256xbf16>, %v: memref<?x1x16xbf16>, %g: memref<?x1x256xbf16>, %beta: memref<?x1xbf16>, %cu: memref<?xi32>, %slots: memref<?xi32>, %init: memref<?xi1>, %state: memref<?x1x256x16xf32>, %o: memref<?x1x16xbf16>) {
  kda.chunk #l256 q(%q : memref<?x1x256xbf16>) k(%k : memref<?x1x256xbf16>) v(%v : memref<?x1x16xbf16>) g(%g : memref<?x1x256xbf16>) beta(%beta : memref<?x1xbf16>) cu_seqlens(%cu : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%init : memref<?xi1>) state(%state : memref<?x1x256x16xf32>) out(%o : memref<?x1x16xbf16>) {chunk_size = 64 : i64}
  return
}
func.func @prefill_v32(%q: memref<?x1x64xbf16>, %k: memref<?x1x64xbf16>, %v: memref<?x1x32xbf16>, %g: memref<?x1x64xbf16>, %beta: memref<?x1xbf16>, %cu: memref<?xi32>, %slots: memref<?xi32>, %init: memref<?xi1>, %state: memref<?x1x64x32xf32>, %o: memref<?x1x32xbf16>) {
  kda.chunk #lv32 q(%q : memref<?x1x64xbf16>) k(%k : memref<?x1x64xbf16>) v(%v : memref<?x1x32xbf16>) g(%g : memref<?x1x64xbf16>) beta(%beta : memref<?x1xbf16>) cu_seqlens(%cu : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%init : memref<?xi1>) state(%state : memref<?x1x64x32xf32>) out(%o : memref<?x1x32xbf16>) {chunk_size = 64 : i64}
  return
}
func.func @prefill256_auto(%q: memref<?x1x256xbf16>, %k: memref<?x1x256xbf16>, %v: memref<?x1x16xbf16>, %g: memref<?x1x256xbf16>, %beta: memref<?x1xbf16>, %cu: memref<?xi32>, %slots: memref<?xi32>, %init: memref<?xi1>, %state: memref<?x1x256x16xf32>, %o: memref<?x1x16xbf16>) {
  kda.chunk #l256 q(%q : memref<?x1x256xbf16>) k(%k : memref<?x1x256xbf16>) v(%v : memref<?x1x16xbf16>) g(%g : memref<?x1x256xbf16>) beta(%beta : memref<?x1xbf16>) cu_seqlens(%cu : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%init : memref<?xi1>) state(%state : memref<?x1x256x16xf32>) out(%o : memref<?x1x16xbf16>)
  return
}
func.func @prefill_v128(%q: memref<?x1x64xbf16>, %k: memref<?x1x64xbf16>, %v: memref<?x1x128xbf16>, %g: memref<?x1x64xbf16>, %beta: memref<?x1xbf16>, %cu: memref<?xi32>, %slots: memref<?xi32>, %init: memref<?xi1>, %state: memref<?x1x128x64xf32>, %o: memref<?x1x128xbf16>) {
  kda.chunk #lv128 q(%q : memref<?x1x64xbf16>) k(%k : memref<?x1x64xbf16>) v(%v : memref<?x1x128xbf16>) g(%g : memref<?x1x64xbf16>) beta(%beta : memref<?x1xbf16>) cu_seqlens(%cu : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%init : memref<?xi1>) state(%state : memref<?x1x128x64xf32>) out(%o : memref<?x1x128xbf16>) {scan_block_v = array<i64: 128>}
  return
}
