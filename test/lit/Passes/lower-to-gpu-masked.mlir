// Head dims that are not powers of two: the default config keeps 16-byte
// runs where it can and masks the tails. head_k = head_v = 60, vk, f32
// state: 16 lanes of 4 k cover 64 (the last lane's run is masked: its loads
// are guarded one by one, its stores masked), 16 columns per workgroup and
// ceil(60 / 16) = 4 workgroups along the columns (the last one's 4 columns
// past head_v masked, their outputs not stored; gfx942: 32 columns, 2
// workgroups). f32 activations go through
// the same kernel without widening.
// RUN: kda-opt %s -split-input-file --kda-lower-to-gpu=target=sm_90 | FileCheck %s
// RUN: kda-opt %s -split-input-file --kda-lower-to-gpu=target=gfx942 | FileCheck %s --check-prefix=GFX942
// RUN: rm -rf %t && kda-compile %s --targets=gfx942,gfx950 -o %t -q
// RUN: FileCheck %s --check-prefix=ASM --input-file=%t/gfx942/kda_kernels.s

// CHECK: #config = #kda.config<block_k = 60, block_v = 16, block_t = 1, warps = 2, stages = 1, lanes_k = 16>
// CHECK-LABEL: gpu.func @kda_head60
// CHECK: kda.grid = array<i64: 4, 2, -1>
// CHECK: arith.cmpi ult, {{.*}} : index
// CHECK: scf.if {{.*}} -> (f32)
// CHECK: memref.load {{.*}} : memref<?xf32>
// CHECK: vector.maskedstore
// GFX942: #config = #kda.config<block_k = 60, block_v = 32, block_t = 1, warps = 2, stages = 1, lanes_k = 16>
// GFX942: kda.grid = array<i64: 2, 2, -1>
// ASM: kda_head60_kd{{[0-9a-f]+}}:
// ASM: .vgpr_spill_count: 0
#l = #kda.layer<heads = 2, value_heads = 2, head_k = 60, head_v = 60, gate = lower_bound(-5.0), beta = sigmoid, qk_l2norm = true, act = f32, state = f32, state_layout = vk>
func.func @head60(%q: memref<?x2x60xf32>, %v: memref<?x2x60xf32>, %beta: memref<?x2xf32>, %a_log: memref<2xf32>, %dt_bias: memref<120xf32>, %cu: memref<?xi32>, %slots: memref<?xi32>, %init: memref<?xi1>, %state: memref<?x2x60x60xf32>) {
  kda.recurrent #l q(%q : memref<?x2x60xf32>) k(%q : memref<?x2x60xf32>) v(%v : memref<?x2x60xf32>) g(%q : memref<?x2x60xf32>) beta(%beta : memref<?x2xf32>) a_log(%a_log : memref<2xf32>) dt_bias(%dt_bias : memref<120xf32>) cu_seqlens(%cu : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%init : memref<?xi1>) state(%state : memref<?x2x60x60xf32>) out(%v : memref<?x2x60xf32>)
  return
}
