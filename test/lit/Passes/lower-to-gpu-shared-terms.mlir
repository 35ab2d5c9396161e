// shared_terms = 1: a workgroup walking its columns in v_passes computes a
// row's first token's terms once, before the passes and behind the first
// pass's state loads: every wave one k a lane (the row sums by a wave
// butterfly), wave 0 storing decays, normalised k and q (head_k each), k.q
// and beta into LDS, one barrier. Each pass then takes the first token
// peeled, its lanes' k-runs read back as vectors, and the rest of the row
// in the token loop with terms of its own.
// RUN: kda-opt %s --kda-lower-to-gpu=target=sm_90 | FileCheck %s --check-prefix=SM90
// RUN: kda-opt %s --kda-lower-to-gpu=target=gfx942 | FileCheck %s --check-prefix=GFX942

#l = #kda.layer<heads = 2, value_heads = 2, head_k = 64, head_v = 64, gate = lower_bound(-5.0), beta = sigmoid, qk_l2norm = true, act = bf16, state = f32, state_layout = vk>
#lkv = #kda.layer<heads = 2, value_heads = 2, head_k = 64, head_v = 64, gate = lower_bound(-5.0), beta = sigmoid, qk_l2norm = true, act = bf16, state = f32, state_layout = kv>
// SM90-LABEL: gpu.func @kda_decode
// SM90-SAME: workgroup(%[[LDS:.*]] : memref<194xf32, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
// SM90-COUNT-15: gpu.shuffle  xor
// SM90: memref.store %{{.*}}, %[[LDS]][%{{.*}}] : memref<194xf32, #gpu.address_space<workgroup>>
// SM90: memref.store %{{.*}}, %[[LDS]][%c192] : memref<194xf32, #gpu.address_space<workgroup>>
// SM90: memref.store %{{.*}}, %[[LDS]][%c193] : memref<194xf32, #gpu.address_space<workgroup>>
// SM90: gpu.barrier
// SM90-NOT: gpu.barrier
// Pass 0's first token: its terms from LDS, no global loads of q, k or g.
// (bf16 loads of the activations: only v's, before the terms' reads.)
// SM90: scf.if %{{.*}} -> (f32,
// SM90-COUNT-4: memref.load %{{.*}} : memref<?xbf16>
// SM90-NOT: memref.load %{{.*}} : memref<?xbf16>
// SM90: vector.load %[[LDS]][%{{.*}}] {alignment = 16 : i64} : memref<194xf32, #gpu.address_space<workgroup>>, vector<4xf32>
// SM90-NOT: memref.load %{{.*}} : memref<?xbf16>
// SM90: vector.load %[[LDS]][%{{.*}}] {alignment = 16 : i64} : memref<194xf32, #gpu.address_space<workgroup>>, vector<4xf32>
// SM90-NOT: memref.load %{{.*}} : memref<?xbf16>
// SM90: vector.load %[[LDS]][%{{.*}}] {alignment = 16 : i64} : memref<194xf32, #gpu.address_space<workgroup>>, vector<4xf32>
// SM90-NOT: memref.load %{{.*}} : memref<?xbf16>
// SM90: memref.load %[[LDS]][%c192]
// SM90: memref.load %[[LDS]][%c193]
// SM90-NOT: memref.load %{{.*}} : memref<?xbf16>
// SM90: scf.yield
// The rest of the row: terms of its own.
// SM90: scf.for
// SM90: math.exp
// SM90: scf.yield
// Pass 1 reads them again.
// SM90: vector.load %[[LDS]]
// SM90: gpu.return
// GFX942-LABEL: gpu.func @kda_decode
// GFX942-SAME: workgroup(%{{.*}} : memref<194xf32, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
// GFX942-COUNT-1: gpu.barrier
// GFX942-NOT: gpu.barrier
// GFX942: gpu.return
func.func @decode(%q: memref<?x2x64xbf16>, %v: memref<?x2x64xbf16>, %beta: memref<?x2xbf16>, %a_log: memref<2xf32>, %dt_bias: memref<128xf32>, %cu: memref<?xi32>, %slots: memref<?xi32>, %init: memref<?xi1>, %state: memref<?x2x64x64xf32>) {
  kda.recurrent #l config #kda.config<block_k = 64, block_v = 16, block_t = 1, warps = 1, stages = 1, lanes_k = 16, v_passes = 2, shared_terms = 1> q(%q : memref<?x2x64xbf16>) k(%q : memref<?x2x64xbf16>) v(%v : memref<?x2x64xbf16>) g(%q : memref<?x2x64xbf16>) beta(%beta : memref<?x2xbf16>) a_log(%a_log : memref<2xf32>) dt_bias(%dt_bias : memref<128xf32>) cu_seqlens(%cu : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%init : memref<?xi1>) state(%state : memref<?x2x64x64xf32>) out(%v : memref<?x2x64xbf16>)
  return
}

// With each column's k split over waves (waves_k 4, lanes_k 2: 16 column
// groups of 8 lanes, one pass), the terms are shared by the column groups.
// The exchange and the terms are two buffers; the first token's terms come
// normalised from LDS, so its exchange carries the 2 x 2 column sums only
// (no row sums, no norms after it).
// SM90-LABEL: gpu.func @kda_decode_wavesk
// SM90-SAME: workgroup(%[[EX:[a-z0-9]+]] : memref<896xf32, #gpu.address_space<workgroup>> {llvm.align = 16 : i64}, %[[ST:[a-z0-9]+]] : memref<194xf32, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
// SM90: memref.store %{{.*}}, %[[ST]][%c193]
// SM90: gpu.barrier
// SM90: vector.load %[[ST]]
// SM90: memref.load %[[ST]][%c193]
// SM90-COUNT-4: memref.store %{{.*}}, %[[EX]]
// SM90-NOT: memref.store %{{.*}}, %[[EX]]
// SM90: gpu.barrier
// SM90-NOT: math.sqrt
// SM90: scf.for
func.func @decode_wavesk(%q: memref<?x2x64xbf16>, %v: memref<?x2x64xbf16>, %beta: memref<?x2xbf16>, %a_log: memref<2xf32>, %dt_bias: memref<128xf32>, %cu: memref<?xi32>, %slots: memref<?xi32>, %init: memref<?xi1>, %state: memref<?x2x64x64xf32>) {
  kda.recurrent #lkv config #kda.config<block_k = 64, block_v = 32, block_t = 1, warps = 4, stages = 1, lanes_k = 2, waves_k = 4, shared_terms = 1> q(%q : memref<?x2x64xbf16>) k(%q : memref<?x2x64xbf16>) v(%v : memref<?x2x64xbf16>) g(%q : memref<?x2x64xbf16>) beta(%beta : memref<?x2xbf16>) a_log(%a_log : memref<2xf32>) dt_bias(%dt_bias : memref<128xf32>) cu_seqlens(%cu : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%init : memref<?xi1>) state(%state : memref<?x2x64x64xf32>) out(%v : memref<?x2x64xbf16>)
  return
}
