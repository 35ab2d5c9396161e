// waves_k = 4 on a kv pool (wave 32): a wave's 32 lanes each take 4 adjacent
// columns, so one k-row of a wave is one coalesced 512-byte read; the 4 waves
// split k (32 rows each) and their partial sums meet in an LDS exchange of
// 2 regions (tokens alternate) x 4 waves x 32 columns x 11 values (S'^T k and
// S'^T q of 4 columns, k.q and the two norms). Per token: one barrier, after
// which every lane adds the 4 waves' 11 values; only k-lane 0 of a wave
// writes.
// RUN: kda-opt %s --kda-lower-to-gpu=target=sm_90 | FileCheck %s

// CHECK: gpu.func @kda_decode
// CHECK-SAME: workgroup(%[[EX:.*]] : memref<2816xf32, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
// CHECK-SAME: kda.grid = array<i64: 1, 2, -1>, kda.lanes_k = 1 : i32, kda.layer = #layer, kda.padding_below = 1 : i64, kda.slot_stride = 32768 : i64, kda.spec_tokens = 1 : i64, kda.waves_k = 4 : i32
// CHECK: %[[LANE:.*]] = arith.remui %{{.*}}, %c32
// CHECK: %[[WAVE:.*]] = arith.divui %{{.*}}, %c32
// CHECK: arith.remui %[[WAVE]], %c4
// CHECK: arith.divui %[[WAVE]], %c4
// CHECK-COUNT-32: vector.load %{{.*}} {alignment = 16 : i64} : memref<?xf32>, vector<4xf32>
// CHECK: scf.for {{.*}} iter_args
// CHECK-NOT: gpu.subgroup_reduce
// CHECK: math.log %{{.*}} : f32
// CHECK: arith.maximumf
// CHECK: scf.if
// CHECK-COUNT-11: memref.store %{{.*}}, %[[EX]][
// CHECK: gpu.barrier
// CHECK-COUNT-44: memref.load %[[EX]][
// CHECK-NOT: gpu.barrier
// CHECK: scf.yield
// CHECK-COUNT-32: vector.store %{{.*}} {alignment = 16 : i64} : memref<?xf32>, vector<4xf32>
// CHECK: gpu.return

#l = #kda.layer<heads = 2, value_heads = 2, head_k = 128, head_v = 128, gate = softplus, qk_l2norm = true, act = bf16, state = f32, state_layout = kv>
func.func @decode(%q: memref<?x2x128xbf16>, %v: memref<?x2x128xbf16>, %beta: memref<?x2xbf16>, %a_log: memref<2xf32>, %dt: memref<256xf32>, %i32: memref<?xi32>, %i1: memref<?xi1>, %state: memref<?x2x128x128xf32>) {
  kda.recurrent #l config #kda.config<block_k = 128, block_v = 128, block_t = 1, warps = 4, stages = 1, lanes_k = 1, waves_k = 4> q(%q : memref<?x2x128xbf16>) k(%q : memref<?x2x128xbf16>) v(%v : memref<?x2x128xbf16>) g(%q : memref<?x2x128xbf16>) beta(%beta : memref<?x2xbf16>) a_log(%a_log : memref<2xf32>) dt_bias(%dt : memref<256xf32>) cu_seqlens(%i32 : memref<?xi32>) slots(%i32 : memref<?xi32>) has_initial_state(%i1 : memref<?xi1>) state(%state : memref<?x2x128x128xf32>) out(%v : memref<?x2x128xbf16>)
  return
}
