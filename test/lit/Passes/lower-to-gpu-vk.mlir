// kda-lower-to-gpu builds the decode kernel: vk state (K contiguous) puts a
// column's 32 k-lanes side by side and loads each lane's k-run as a vector;
// each lane owns 4 columns (default config), sharing its q/k norms and gates
// among them; padding slots branch off before any state access; the token
// loop carries the state in registers. On gfx942 every reduction over k is
// a clustered subgroup_reduce inside a wave (DPP: one VALU op a level); on
// sm_90 each level is a shuffle, so the sums are exchanged transposed: the
// 4 columns of S'^T k take two exchange levels down and three xor steps,
// S'^T q the same, each lane then holding one column of both, after k.q
// and the norms (padded to four: 9 shuffles); it stores that column's
// output S'^T q + (k.q) r, and only the residuals r go back (three
// exchanges): 24 shuffles where 11 reductions would take 55.
// RUN: kda-opt %s --kda-lower-to-gpu=target=gfx942 | FileCheck %s
// RUN: kda-opt %s --kda-lower-to-gpu=target=sm_90 | FileCheck %s --check-prefix=SM90

#l = #kda.layer<heads = 1, value_heads = 2, head_k = 128, head_v = 32, gate = lower_bound(-5.0), qk_l2norm = true, act = bf16, state = f32, state_layout = vk>
// CHECK: #config = #kda.config<block_k = 128, block_v = 16, block_t = 1, warps = 2, stages = 1, lanes_k = 32>
// CHECK-LABEL: func.func @decode
// CHECK-SAME: attributes {kda.kernel = @kda_kernels::@kda_decode}
// CHECK-NOT: kda.recurrent
// CHECK: gpu.module @kda_kernels attributes {kda.target = #kda.target<"gfx942">}
// CHECK: gpu.func @kda_decode(%{{.*}}: memref<1xbf16>, %{{.*}}: memref<1xbf16>, %{{.*}}: memref<1xbf16>, %{{.*}}: memref<1xbf16>, %{{.*}}: memref<1xbf16>, %{{.*}}: memref<1xf32>, %{{.*}}: memref<1xf32>, %{{.*}}: memref<1xi32>, %{{.*}}: memref<1xi32>, %{{.*}}: memref<1xi8>, %{{.*}}: memref<1xf32>, %{{.*}}: memref<1xbf16>) kernel
// CHECK-SAME: kda.cols_per_thread = 4 : i32, kda.config = #config, kda.grid = array<i64: 2, 2, -1>, kda.lanes_k = 32 : i32
// CHECK-SAME: known_block_size = array<i32: 128, 1, 1>
// CHECK-COUNT-12: memref.reinterpret_cast
// CHECK: %[[TID:.*]] = gpu.thread_id x
// CHECK: %[[VL:.*]] = arith.divui %[[TID]], %c32
// CHECK: %[[KT:.*]] = arith.remui %[[TID]], %c32
// CHECK: %[[PAD:.*]] = arith.cmpi sle
// CHECK: scf.if %[[PAD]] {
// CHECK:   scf.for
// CHECK-COUNT-4: memref.store
// CHECK: } else {
// CHECK:   %[[INIT:.*]]:16 = scf.if %{{.*}} -> (f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32) {
// CHECK-COUNT-4: vector.load %{{.*}} {alignment = 16 : i64} : memref<?xf32>, vector<4xf32>
// CHECK:   } else {
// CHECK:   scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %[[INIT]]#0,
// CHECK-COUNT-3: vector.load %{{.*}} {alignment = 8 : i64} : memref<?xbf16>, vector<4xbf16>
// CHECK-COUNT-3: gpu.subgroup_reduce add %{{.*}} cluster(size = 32) : (f32) -> f32
// CHECK:     math.exp
// CHECK-COUNT-8: gpu.subgroup_reduce add %{{.*}} cluster(size = 32) : (f32) -> f32
// CHECK-NOT: gpu.subgroup_reduce
// CHECK:     scf.if
// CHECK-COUNT-4: memref.store
// CHECK:     scf.yield
// CHECK-COUNT-4: vector.store %{{.*}} {alignment = 16 : i64} : memref<?xf32>, vector<4xf32>
// CHECK: gpu.return

// Wave 32 on sm_90: 2 waves (64 threads, measured faster than 128 for vk)
// of one lane-grid column each.
// SM90: #kda.config<block_k = 128, block_v = 8, block_t = 1, warps = 2, stages = 1, lanes_k = 32>
// SM90: gpu.module @kda_kernels attributes {kda.target = #kda.target<"sm_90">}
// SM90: kda.grid = array<i64: 4, 2, -1>, kda.lanes_k = 32 : i32
// SM90-SAME: known_block_size = array<i32: 64, 1, 1>
// SM90-NOT: gpu.subgroup_reduce
// k.q and the norms (padded to four): 1, 1, 2 down, 4, 8, 16, then 2, 1, 1
// back.
// SM90-COUNT-9: gpu.shuffle
// SM90: math.sqrt
// SM90-NOT: gpu.shuffle
// SM90: math.exp
// S'^T k, then S'^T q: two levels down, three xor steps each.
// SM90-COUNT-2: gpu.shuffle {{ *}}xor %{{.*}}, %c1_i32{{.*}}, %c32_i32{{.*}} : f32
// SM90: gpu.shuffle {{ *}}xor %{{.*}}, %c2_i32{{.*}}, %c32_i32{{.*}} : f32
// SM90: gpu.shuffle {{ *}}xor %{{.*}}, %c4_i32{{.*}}, %c32_i32{{.*}} : f32
// SM90: gpu.shuffle {{ *}}xor %{{.*}}, %c8_i32{{.*}}, %c32_i32{{.*}} : f32
// SM90: gpu.shuffle {{ *}}xor %{{.*}}, %c16_i32{{.*}}, %c32_i32{{.*}} : f32
// SM90: %[[PK:.*]] = arith.addf
// SM90-COUNT-6: gpu.shuffle
// SM90: %[[PQ:.*]] = arith.addf
// SM90: %[[RES:.*]] = arith.subf %{{.*}}, %[[PK]] : f32
// SM90: %[[R:.*]] = arith.mulf %{{.*}}, %[[RES]] : f32
// SM90: math.fma %{{.*}}, %[[R]], %[[PQ]] : f32
// SM90: gpu.shuffle {{ *}}xor %[[R]], %c2_i32{{.*}}, %c32_i32{{.*}} : f32
// SM90-COUNT-2: gpu.shuffle {{ *}}xor %{{.*}}, %c1_i32{{.*}}, %c32_i32{{.*}} : f32
// SM90-NOT: gpu.shuffle
// SM90: scf.yield
func.func @decode(%q: memref<?x1x128xbf16>, %v: memref<?x2x32xbf16>, %g: memref<?x2x128xbf16>, %beta: memref<?x2xbf16>, %i32: memref<?xi32>, %i1: memref<?xi1>, %state: memref<?x2x32x128xf32>, %o: memref<?x2x32xbf16>) {
  kda.recurrent #l q(%q : memref<?x1x128xbf16>) k(%q : memref<?x1x128xbf16>) v(%v : memref<?x2x32xbf16>) g(%g : memref<?x2x128xbf16>) beta(%beta : memref<?x2xbf16>) cu_seqlens(%i32 : memref<?xi32>) slots(%i32 : memref<?xi32>) has_initial_state(%i1 : memref<?xi1>) state(%state : memref<?x2x32x128xf32>) out(%o : memref<?x2x32xbf16>)
  return
}
