// Numeric test layer: each workgroup walks its 24 columns in 3 passes (vk,
// GVA, v_passes = 3), the next pass's state loaded before the current one
// is computed; 3 blocks of 24 cover head_v = 64, so the last block's final
// 8 columns are masked. On emu32 (sm_90's kernel: 4 columns a lane, 16
// lanes a column) the outputs stay scattered over the lanes; on emu
// (gfx942's kernel, 2 columns a lane) vk sums are DPP cluster reductions
// and the leader stores every column.
#l = #kda.layer<heads = 2, value_heads = 4, head_k = 64, head_v = 64, gate = lower_bound(-5.0), beta = sigmoid, qk_l2norm = true, act = bf16, state = f32, state_layout = vk>
func.func @k3_passes(%q: memref<?x2x64xbf16>, %k: memref<?x2x64xbf16>, %v: memref<?x4x64xbf16>, %g: memref<?x4x64xbf16>, %beta: memref<?x4xbf16>, %a_log: memref<4xf32>, %dt_bias: memref<256xf32>, %cu: memref<?xi32>, %slots: memref<?xi32>, %init: memref<?xi1>, %state: memref<?x4x64x64xf32>, %o: memref<?x4x64xbf16>) {
  kda.recurrent #l config #kda.config<block_k = 64, block_v = 24, block_t = 1, warps = 1, stages = 1, lanes_k = 16, v_passes = 3> q(%q : memref<?x2x64xbf16>) k(%k : memref<?x2x64xbf16>) v(%v : memref<?x4x64xbf16>) g(%g : memref<?x4x64xbf16>) beta(%beta : memref<?x4xbf16>) a_log(%a_log : memref<4xf32>) dt_bias(%dt_bias : memref<256xf32>) cu_seqlens(%cu : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%init : memref<?xi1>) state(%state : memref<?x4x64x64xf32>) out(%o : memref<?x4x64xbf16>)
  return
}
