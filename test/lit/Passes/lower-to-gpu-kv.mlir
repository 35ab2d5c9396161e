// kv state (V contiguous): each lane owns 4 adjacent columns (one 16-byte
// vector per k-row) and adjacent lanes the next ones, so a k-row is read
// coalesced; a column's 8 k-lanes sit 8 lanes apart (wave 64), so its
// reductions run over that stride. gfx950 has no DPP for a strided
// cluster, so every level is a shuffle and the sums are exchanged
// transposed: k.q and the q and k norms (padded to four) take two
// exchanges down (the lower lane of the first pair keeps k.q's partial,
// the upper |k|^2's), one xor step over the other lanes and three exchanges
// back. Then each of the four columns' S'^T k and S'^T q goes two levels
// down and one xor step, every lane left holding one column of both; the
// output is that column's S'^T q + (k.q) r, and only r goes back (three
// exchanges), for the update. Softplus gate with A_log and dt_bias:
// log1p(exp(min(x, 20))) in Kahan's form (log(u) y / (u - 1), y where
// u = 1 + y rounds to 1) selected against x > 20, then floored at -256.
// RUN: kda-opt %s --kda-lower-to-gpu=target=gfx950 | FileCheck %s
// sm_90's default (8 columns a lane, 8 k-lanes, one wave) reads each k-row
// of a lane's columns as two runs of 4 (16 bytes), 16 columns apart, the
// wave's lanes taking consecutive runs: no 32-byte piece whose second half
// the next access re-fetches.
// RUN: kda-opt %s --kda-lower-to-gpu=target=sm_90 | FileCheck %s --check-prefix=SM90

#l = #kda.layer<heads = 2, value_heads = 2, head_k = 128, head_v = 128, gate = softplus, qk_l2norm = true, act = bf16, state = f32, state_layout = kv>
// CHECK: #config = #kda.config<block_k = 128, block_v = 64, block_t = 1, warps = 2, stages = 1, lanes_k = 8>
// CHECK: gpu.func @kda_decode
// CHECK-SAME: kda.cols_per_thread = 4 : i32, kda.config = #config, kda.grid = array<i64: 2, 2, -1>, kda.lanes_k = 8 : i32
// CHECK: %[[LANE:.*]] = arith.remui %{{.*}}, %c64
// CHECK: %[[WAVE:.*]] = arith.divui %{{.*}}, %c64
// CHECK: arith.remui %[[LANE]], %c8
// CHECK: arith.divui %[[LANE]], %c8
// CHECK: vector.load %{{.*}} {alignment = 16 : i64} : memref<?xf32>, vector<4xf32>
// CHECK: scf.for {{.*}} iter_args
// CHECK-NOT: gpu.subgroup_reduce
// CHECK: %[[UP:.*]] = arith.cmpi ne, %{{.*}}, %c0{{.*}} : index
// CHECK: %[[KEEP:.*]] = arith.select %[[UP]], %[[KSS:.*]], %[[KQ:.*]] : f32
// CHECK: %[[SEND:.*]] = arith.select %[[UP]], %[[KQ]], %[[KSS]] : f32
// CHECK: %[[GOT:.*]], %{{.*}} = gpu.shuffle {{ *}}xor %[[SEND]], %c8_i32, %c64_i32 : f32
// CHECK: arith.addf %[[KEEP]], %[[GOT]] : f32
// CHECK: arith.select %[[UP]], %cst{{.*}}, %[[QSS:.*]] : f32
// CHECK: arith.select %[[UP]], %[[QSS]], %cst{{.*}} : f32
// CHECK: gpu.shuffle {{ *}}xor %{{.*}}, %c8_i32
// CHECK: gpu.shuffle {{ *}}xor %{{.*}}, %c16_i32
// CHECK: gpu.shuffle {{ *}}xor %{{.*}}, %c32_i32
// CHECK: gpu.shuffle {{ *}}xor %{{.*}}, %c16_i32
// CHECK: gpu.shuffle {{ *}}xor %{{.*}}, %c8_i32
// CHECK: gpu.shuffle {{ *}}xor %{{.*}}, %c8_i32
// CHECK: math.sqrt
// CHECK: math.sqrt
// CHECK-NOT: gpu.shuffle
// CHECK: arith.minimumf %{{.*}}, %{{.*}} : f32
// CHECK: %[[Y:.*]] = math.exp
// CHECK: %[[U:.*]] = arith.addf %{{.*}}, %[[Y]] : f32
// CHECK: %[[EXACT:.*]] = arith.cmpf oeq, %[[U]]
// CHECK: math.log %[[U]] : f32
// CHECK: arith.select %[[EXACT]], %[[Y]], %{{.*}} : f32
// CHECK: arith.cmpf ogt
// CHECK: arith.select
// CHECK: arith.maximumf %{{.*}}, %{{.*}} : f32
// S' = exp(g) S first, then both sums of column 0 read it.
// CHECK: %[[S0:.*]] = arith.mulf %arg{{[0-9]+}}, %{{.*}} : f32
// CHECK: math.fma %[[S0]], %{{.*}}, %cst
// CHECK-NEXT: math.fma %[[S0]], %{{.*}}, %cst
// CHECK-COUNT-4: gpu.shuffle {{ *}}xor
// CHECK: %[[PK:.*]] = arith.addf
// CHECK-COUNT-4: gpu.shuffle {{ *}}xor
// CHECK: %[[PQ:.*]] = arith.addf
// CHECK: %[[RES:.*]] = arith.subf %{{.*}}, %[[PK]] : f32
// CHECK: %[[R:.*]] = arith.mulf %{{.*}}, %[[RES]] : f32
// CHECK: math.fma %{{.*}}, %[[R]], %[[PQ]] : f32
// CHECK: gpu.shuffle {{ *}}xor %[[R]], %c16_i32
// CHECK-COUNT-2: gpu.shuffle {{ *}}xor %{{.*}}, %c8_i32
// CHECK-NOT: gpu.shuffle
// CHECK: scf.yield
func.func @decode(%q: memref<?x2x128xbf16>, %v: memref<?x2x128xbf16>, %beta: memref<?x2xbf16>, %a_log: memref<2xf32>, %dt: memref<256xf32>, %i32: memref<?xi32>, %i1: memref<?xi1>, %state: memref<?x2x128x128xf32>) {
  kda.recurrent #l q(%q : memref<?x2x128xbf16>) k(%q : memref<?x2x128xbf16>) v(%v : memref<?x2x128xbf16>) g(%q : memref<?x2x128xbf16>) beta(%beta : memref<?x2xbf16>) a_log(%a_log : memref<2xf32>) dt_bias(%dt : memref<256xf32>) cu_seqlens(%i32 : memref<?xi32>) slots(%i32 : memref<?xi32>) has_initial_state(%i1 : memref<?xi1>) state(%state : memref<?x2x128x128xf32>) out(%v : memref<?x2x128xbf16>)
  return
}

// SM90: kda.cols_per_thread = 8
// SM90-NOT: vector<8xf32>
// A real row's branch (past the padding rows' zero stores): exp(A_log)
// clamped to the largest float, then the column offsets.
// SM90: %[[EXPALOG:.*]] = math.exp
// SM90-NEXT: %[[FLTMAX:.*]] = arith.constant 3.40282347E+38 : f32
// SM90-NEXT: arith.minimumf %[[EXPALOG]], %[[FLTMAX]] : f32
// SM90: = arith.addi %[[BASE:.*]], %c3{{(_[0-9]+)?}} : index
// SM90-NEXT: arith.constant 16 : index
// SM90-NEXT: %[[COL4:.*]] = arith.addi %[[BASE]], %c16{{.*}} : index
// SM90: vector.load %{{.*}} {alignment = 16 : i64} : memref<?xf32>, vector<4xf32>
// SM90: arith.addi %{{.*}}, %[[COL4]] : index
// SM90-NEXT: arith.addi
// SM90-NEXT: vector.load %{{.*}} {alignment = 16 : i64} : memref<?xf32>, vector<4xf32>
// SM90-NOT: vector<8xf32>
