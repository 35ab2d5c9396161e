// A bf16 state pool keeps its state packed while it waits in registers:
// each run of the lane's state is loaded as bf16 and kept as i32 words of
// two (the scf.if of has_initial_state yields the words, or zero words),
// and widened at the start of its pass (the low element shifted up 16 bits,
// the high one masked: bf16 is the high half of an f32). With v_passes 2,
// pass 1's words are loaded before pass 0's are widened, so the state
// waiting for its pass takes half the registers it took as f32.
// RUN: kda-opt %s --split-input-file --kda-lower-to-gpu=target=sm_90 | FileCheck %s

#l = #kda.layer<heads = 2, value_heads = 2, head_k = 128, head_v = 128, gate = lower_bound(-5.0), beta = sigmoid, qk_l2norm = true, act = bf16, state = bf16, state_layout = vk>
// CHECK-LABEL: gpu.func @kda_decode
// CHECK: %[[PASS0:.*]]:32 = scf.if %{{.*}} -> (i32, i32,
// CHECK: %[[WORDS:.*]] = vector.load %{{.*}} : memref<?xbf16>, vector<8xbf16>
// CHECK-NEXT: vector.bitcast %[[WORDS]] : vector<8xbf16> to vector<4xi32>
// CHECK: scf.yield %{{.*}} : i32, i32,
// CHECK-NEXT: } else {
// CHECK: scf.yield %c0_i32, %c0_i32,
// CHECK: %[[PASS1:.*]]:32 = scf.if %{{.*}} -> (i32, i32,
// CHECK: vector.bitcast %{{.*}} : vector<8xbf16> to vector<4xi32>
// CHECK: %[[LO:.*]] = arith.shli %[[PASS0]]#0, %c16_i32 : i32
// CHECK-NEXT: arith.bitcast %[[LO]] : i32 to f32
// CHECK-NEXT: %[[HI:.*]] = arith.andi %[[PASS0]]#0, %c-65536_i32 : i32
// CHECK-NEXT: arith.bitcast %[[HI]] : i32 to f32
// CHECK: arith.shli %[[PASS1]]#0, %c16_i32{{.*}} : i32
// The store rounds once: f32 to bf16, one vector a run.
// CHECK: arith.truncf %{{.*}} : f32 to bf16
// CHECK: vector.store %{{.*}} : memref<?xbf16>, vector<8xbf16>
func.func @decode(%q: memref<?x2x128xbf16>, %k: memref<?x2x128xbf16>, %v: memref<?x2x128xbf16>, %g: memref<?x2x128xbf16>, %beta: memref<?x2xbf16>, %cu: memref<?xi32>, %slots: memref<?xi32>, %init: memref<?xi1>, %state: memref<?x2x128x128xbf16>, %o: memref<?x2x128xbf16>) {
  kda.recurrent #l config #kda.config<block_k = 128, block_v = 32, block_t = 1, warps = 1, stages = 1, lanes_k = 16, v_passes = 2> q(%q : memref<?x2x128xbf16>) k(%k : memref<?x2x128xbf16>) v(%v : memref<?x2x128xbf16>) g(%g : memref<?x2x128xbf16>) beta(%beta : memref<?x2xbf16>) cu_seqlens(%cu : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%init : memref<?xi1>) state(%state : memref<?x2x128x128xbf16>) out(%o : memref<?x2x128xbf16>)
  return
}

// -----

// kv: a lane's pieces of adjacent columns (8 bf16, 16 bytes) are words the
// same way.
#l = #kda.layer<heads = 2, value_heads = 2, head_k = 128, head_v = 128, gate = lower_bound(-5.0), beta = sigmoid, qk_l2norm = true, act = bf16, state = bf16, state_layout = kv>
// CHECK-LABEL: gpu.func @kda_decode
// CHECK: scf.if %{{.*}} -> (i32, i32,
// CHECK: vector.load %{{.*}} : memref<?xbf16>, vector<8xbf16>
// CHECK-NEXT: vector.bitcast %{{.*}} : vector<8xbf16> to vector<4xi32>
// CHECK: arith.shli %{{.*}}, %c16_i32 : i32
func.func @decode(%q: memref<?x2x128xbf16>, %k: memref<?x2x128xbf16>, %v: memref<?x2x128xbf16>, %g: memref<?x2x128xbf16>, %beta: memref<?x2xbf16>, %cu: memref<?xi32>, %slots: memref<?xi32>, %init: memref<?xi1>, %state: memref<?x2x128x128xbf16>, %o: memref<?x2x128xbf16>) {
  kda.recurrent #l config #kda.config<block_k = 128, block_v = 32, block_t = 1, warps = 1, stages = 1, lanes_k = 8> q(%q : memref<?x2x128xbf16>) k(%k : memref<?x2x128xbf16>) v(%v : memref<?x2x128xbf16>) g(%g : memref<?x2x128xbf16>) beta(%beta : memref<?x2xbf16>) cu_seqlens(%cu : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%init : memref<?xi1>) state(%state : memref<?x2x128x128xbf16>) out(%o : memref<?x2x128xbf16>)
  return
}

// -----

// A masked tail (head_v 100: the last block's columns past head_v) loads
// element by element behind its masks and widens at once: no words.
#l = #kda.layer<heads = 2, value_heads = 2, head_k = 128, head_v = 100, gate = lower_bound(-5.0), beta = sigmoid, qk_l2norm = true, act = bf16, state = bf16, state_layout = vk>
// CHECK-LABEL: gpu.func @kda_decode
// CHECK-NOT: vector.bitcast
// CHECK: scf.if %{{.*}} -> (f32, f32,
// CHECK: arith.extf %{{.*}} : bf16 to f32
// CHECK-NOT: vector.bitcast
// CHECK: gpu.return
func.func @decode(%q: memref<?x2x128xbf16>, %k: memref<?x2x128xbf16>, %v: memref<?x2x100xbf16>, %g: memref<?x2x128xbf16>, %beta: memref<?x2xbf16>, %cu: memref<?xi32>, %slots: memref<?xi32>, %init: memref<?xi1>, %state: memref<?x2x100x128xbf16>, %o: memref<?x2x100xbf16>) {
  kda.recurrent #l q(%q : memref<?x2x128xbf16>) k(%k : memref<?x2x128xbf16>) v(%v : memref<?x2x100xbf16>) g(%g : memref<?x2x128xbf16>) beta(%beta : memref<?x2xbf16>) cu_seqlens(%cu : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%init : memref<?xi1>) state(%state : memref<?x2x100x128xbf16>) out(%o : memref<?x2x100xbf16>)
  return
}
