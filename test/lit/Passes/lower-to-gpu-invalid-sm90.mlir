// Limits of sm_90 the recurrent kernel's configs must respect.
// RUN: kda-opt %s -split-input-file -verify-diagnostics --kda-lower-to-gpu=target=sm_90

// sm_90 has 227 KiB of shared memory per block, but only 48 KiB may be
// declared statically; the exchange of 32 waves x 32 columns x 19 values
// (S'^T k and S'^T q of 8 columns, k.q, two norms) x 2 regions needs 152 KiB.
#l = #kda.layer<heads = 1, value_heads = 1, head_k = 128, head_v = 256, gate = none, act = bf16, state = f32, state_layout = kv>
func.func @f(%q: memref<?x1x128xbf16>, %v: memref<?x1x256xbf16>, %b: memref<?x1xbf16>, %i32: memref<?xi32>, %i1: memref<?xi1>, %s: memref<?x1x128x256xf32>) {
  // expected-error @+1 {{does not fit sm_90: the cross-wave exchange needs 155648 bytes of LDS, more than the 49152 a kernel may declare statically on sm_90}}
  kda.recurrent #l config #kda.config<block_k = 128, block_v = 256, block_t = 1, warps = 32, stages = 1, lanes_k = 1, waves_k = 32> q(%q : memref<?x1x128xbf16>) k(%q : memref<?x1x128xbf16>) v(%v : memref<?x1x256xbf16>) g(%q : memref<?x1x128xbf16>) beta(%b : memref<?x1xbf16>) cu_seqlens(%i32 : memref<?xi32>) slots(%i32 : memref<?xi32>) has_initial_state(%i1 : memref<?xi1>) state(%s : memref<?x1x128x256xf32>) out(%v : memref<?x1x256xbf16>)
  return
}
