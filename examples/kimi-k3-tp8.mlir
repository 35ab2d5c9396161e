// Kimi-K3, one KDA layer at tensor parallelism 8: 96 heads of 128 / 8 = 12
// heads per GPU, lower_bound gate (lb = -5), vLLM's vk f32 state pool
// ([slots, HV, V, K], K contiguous), bf16 activations.
#k3 = #kda.layer<heads = 12, value_heads = 12, head_k = 128, head_v = 128,
                 gate = lower_bound(-5.0), beta = sigmoid, qk_l2norm = true,
                 act = bf16, state = f32, state_layout = vk>

// Decodes and short rows: the token-serial kernel.
// The planner's threshold: prefill rows longer than this take the chunk
// plan (kda_forward with both kernels). Measured coarsely, see provenance.
module attributes {kda.planner = {recurrent_max_tokens = 64 : i64, provenance = "H200 2026-11-30 (run-h200.sh forward): seed scenario, 64 decodes + 4 prefills of 900-1100 tokens, H 12: 1.849 ms with rows over 64 tokens on the chunk plan, 1.895 ms with every row recurrent; no finer sweep of row lengths yet"}} {
func.func @kimi_k3_tp8_recurrent(
    %q: memref<?x12x128xbf16>, %k: memref<?x12x128xbf16>,
    %v: memref<?x12x128xbf16>, %g: memref<?x12x128xbf16>,
    %beta: memref<?x12xbf16>, %a_log: memref<12xf32>, %dt_bias: memref<1536xf32>,
    %cu_seqlens: memref<?xi32>, %slots: memref<?xi32>, %has_init: memref<?xi1>,
    %state: memref<?x12x128x128xf32>, %o: memref<?x12x128xbf16>) {
  kda.recurrent #k3
      q(%q : memref<?x12x128xbf16>) k(%k : memref<?x12x128xbf16>)
      v(%v : memref<?x12x128xbf16>) g(%g : memref<?x12x128xbf16>)
      beta(%beta : memref<?x12xbf16>)
      a_log(%a_log : memref<12xf32>) dt_bias(%dt_bias : memref<1536xf32>)
      cu_seqlens(%cu_seqlens : memref<?xi32>) slots(%slots : memref<?xi32>)
      has_initial_state(%has_init : memref<?xi1>)
      state(%state : memref<?x12x128x128xf32>) out(%o : memref<?x12x128xbf16>)
  return
}

// Long prefills: the chunked form. No chunk_size: each target takes its
// own (kda-compile --print-figures shows it per kernel): 64 rows on sm_90
// and gfx950; 32 on gfx942 (64 KiB of LDS), where 32 is the largest size
// whose scan holds its state in registers and so also has the scan split
// within a sequence, for the few (sequence, head) pairs of 12 heads.
func.func @kimi_k3_tp8_chunk(
    %q: memref<?x12x128xbf16>, %k: memref<?x12x128xbf16>,
    %v: memref<?x12x128xbf16>, %g: memref<?x12x128xbf16>,
    %beta: memref<?x12xbf16>, %a_log: memref<12xf32>, %dt_bias: memref<1536xf32>,
    %cu_seqlens: memref<?xi32>, %slots: memref<?xi32>, %has_init: memref<?xi1>,
    %state: memref<?x12x128x128xf32>, %o: memref<?x12x128xbf16>) {
  kda.chunk #k3
      q(%q : memref<?x12x128xbf16>) k(%k : memref<?x12x128xbf16>)
      v(%v : memref<?x12x128xbf16>) g(%g : memref<?x12x128xbf16>)
      beta(%beta : memref<?x12xbf16>)
      a_log(%a_log : memref<12xf32>) dt_bias(%dt_bias : memref<1536xf32>)
      cu_seqlens(%cu_seqlens : memref<?xi32>) slots(%slots : memref<?xi32>)
      has_initial_state(%has_init : memref<?xi1>)
      state(%state : memref<?x12x128x128xf32>) out(%o : memref<?x12x128xbf16>)
  return
}
}
