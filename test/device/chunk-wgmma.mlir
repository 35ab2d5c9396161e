// The prefill layer of issue 8's H32 batches (K = V = 128, lower_bound(-5)
// gate with A_log and dt_bias, sigmoid beta, l2norm, bf16 activations, vk
// f32 state) with its scans on sm_90's warpgroup atom (warpgroup_scan;
// docs/wgmma-plan.md, step 6): the 64- and 128-column blocks, timed beside
// test/device/chunk-bench.mlir's register scans by kda-bench --all-scans.
#h32 = #kda.layer<heads = 32, value_heads = 32, head_k = 128, head_v = 128, gate = lower_bound(-5.0), beta = sigmoid, qk_l2norm = true, act = bf16, state = f32, state_layout = vk>
func.func @chunk_h32_wg(%q: memref<?x32x128xbf16>, %k: memref<?x32x128xbf16>, %v: memref<?x32x128xbf16>, %g: memref<?x32x128xbf16>, %beta: memref<?x32xbf16>, %a_log: memref<32xf32>, %dt_bias: memref<4096xf32>, %cu: memref<?xi32>, %slots: memref<?xi32>, %init: memref<?xi1>, %state: memref<?x32x128x128xf32>, %o: memref<?x32x128xbf16>) {
  kda.chunk #h32 q(%q : memref<?x32x128xbf16>) k(%k : memref<?x32x128xbf16>) v(%v : memref<?x32x128xbf16>) g(%g : memref<?x32x128xbf16>) beta(%beta : memref<?x32xbf16>) a_log(%a_log : memref<32xf32>) dt_bias(%dt_bias : memref<4096xf32>) cu_seqlens(%cu : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%init : memref<?xi1>) state(%state : memref<?x32x128x128xf32>) out(%o : memref<?x32x128xbf16>) {chunk_size = 64 : i64, scan_block_v = array<i64: 64, 128>, warpgroup_scan}
  return
}
