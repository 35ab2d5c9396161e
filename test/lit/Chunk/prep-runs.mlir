// The prep's elementwise passes over the chunk's rows go by runs of 4
// adjacent columns a thread (kRun in ChunkKernelBuilder.cpp): one vector
// access per row and field instead of one scalar load a trip. The gate
// pass reads g (here f32) and dt_bias as vector<4xf32> and writes G's LDS
// rows as vectors; the decayed rows read q and k as vector<4xbf16> and
// write q o exp(G), k o exp(G_last - G) and exp(G_last) to the workspace
// as 16-byte vectors; the zeroed A_qk rows and T's words likewise.
// RUN: kda-opt %s --kda-decompose --kda-lower-to-gpu=target=sm_90 | FileCheck %s
// RUN: kda-opt %s --kda-decompose --kda-lower-to-gpu=target=gfx942 | FileCheck %s

// CHECK-LABEL: gpu.func @kda_runs_prep(
// The gate pass.
// CHECK: vector.load %{{.*}} {alignment = 16 : i64} : memref<?xf32>, vector<4xf32>
// CHECK: vector.load %{{.*}} {alignment = 16 : i64} : memref<?xf32>, vector<4xf32>
// CHECK: math.exp
// CHECK: vector.store %{{.*}} {alignment = 16 : i64} : memref<{{[0-9]+}}xf32, #gpu.address_space<workgroup>>, vector<4xf32>
// CHECK: gpu.barrier
// CHECK: gpu.barrier
// The decayed rows: q and k runs, three workspace runs.
// CHECK: vector.load %{{.*}} {alignment = 8 : i64} : memref<?xbf16>, vector<4xbf16>
// CHECK: vector.load %{{.*}} {alignment = 8 : i64} : memref<?xbf16>, vector<4xbf16>
// CHECK-COUNT-4: math.exp2
// CHECK: vector.store %{{.*}} {alignment = 16 : i64} : memref<?xf32>, vector<4xf32>
// CHECK: vector.store %{{.*}} {alignment = 16 : i64} : memref<?xf32>, vector<4xf32>
// CHECK: vector.store %{{.*}} {alignment = 16 : i64} : memref<?xf32>, vector<4xf32>
// The zeroed A rows (LDS, and A_qk's workspace rows).
// CHECK: vector.store %{{.*}} : memref<{{[0-9]+}}xf32, #gpu.address_space<workgroup>>, vector<4xf32>
// CHECK: vector.store %{{.*}} {alignment = 16 : i64} : memref<?xf32>, vector<4xf32>
// CHECK: gpu.barrier
// CHECK: kda.mma
// CHECK-LABEL: gpu.func @kda_runs_scan(

#l = #kda.layer<heads = 1, value_heads = 1, head_k = 32, head_v = 16, gate = lower_bound(-5.0), beta = sigmoid, qk_l2norm = true, act = bf16, state = f32, state_layout = vk>
func.func @runs(%q: memref<?x1x32xbf16>, %k: memref<?x1x32xbf16>, %v: memref<?x1x16xbf16>, %g: memref<?x1x32xf32>, %beta: memref<?x1xbf16>, %a_log: memref<1xf32>, %dt_bias: memref<32xf32>, %cu: memref<?xi32>, %slots: memref<?xi32>, %init: memref<?xi1>, %state: memref<?x1x16x32xf32>, %o: memref<?x1x16xbf16>) {
  kda.chunk #l q(%q : memref<?x1x32xbf16>) k(%k : memref<?x1x32xbf16>) v(%v : memref<?x1x16xbf16>) g(%g : memref<?x1x32xf32>) beta(%beta : memref<?x1xbf16>) a_log(%a_log : memref<1xf32>) dt_bias(%dt_bias : memref<32xf32>) cu_seqlens(%cu : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%init : memref<?xi1>) state(%state : memref<?x1x16x32xf32>) out(%o : memref<?x1x16xbf16>) {chunk_size = 32 : i64}
  return
}
