// Row variants of the recurrent kernel (discardable attributes of
// kda.recurrent, RecurrentKernelBuilder.cpp): speculative rows add
// num_accepted_tokens to the ABI and store the state after every token;
// slot < 0 padding compares against -1; a slot stride widens the state
// offsets; each is recorded on the kernel for the manifest.
// RUN: kda-opt %s -split-input-file --kda-lower-to-gpu=target=sm_90 | FileCheck %s

// CHECK-LABEL: gpu.func @kda_f
// CHECK-SAME: kda.abi = [{{.*}}#kda.arg<"out", bf16, output>, #kda.arg<"num_accepted_tokens", i32, input>]
// CHECK-SAME: kda.padding_below = 1 : i64, kda.slot_stride = 16384 : i64, kda.spec_tokens = 4 : i64
// The starting slot: column num_accepted - 1, clamped into 0..3.
// CHECK: arith.maxsi
// CHECK: arith.minsi %{{.*}}, %c3
// CHECK: scf.for
// CHECK: vector.store
// CHECK: scf.yield
// CHECK-NOT: vector.store
// CHECK: gpu.return
#l = #kda.layer<heads = 1, value_heads = 1, head_k = 128, head_v = 128, gate = none, act = bf16, state = f32, state_layout = vk>
func.func @f(%q: memref<?x1x128xbf16>, %b: memref<?x1xbf16>, %i32: memref<?xi32>, %i1: memref<?xi1>, %s: memref<?x1x128x128xf32>) {
  kda.recurrent #l q(%q : memref<?x1x128xbf16>) k(%q : memref<?x1x128xbf16>) v(%q : memref<?x1x128xbf16>) g(%q : memref<?x1x128xbf16>) beta(%b : memref<?x1xbf16>) cu_seqlens(%i32 : memref<?xi32>) slots(%i32 : memref<?xi32>) has_initial_state(%i1 : memref<?xi1>) state(%s : memref<?x1x128x128xf32>) out(%q : memref<?x1x128xbf16>) {kda.spec_tokens = 4 : i64}
  return
}

// -----

// CHECK-LABEL: gpu.func @kda_f
// CHECK-SAME: kda.padding_below = 0 : i64, kda.slot_stride = 20480 : i64, kda.spec_tokens = 1 : i64
// CHECK: %[[PAD:.*]] = arith.cmpi sle, %{{.*}}, %c-1
// CHECK: scf.if %[[PAD]]
// CHECK: arith.muli %{{.*}}, %c20480
#l = #kda.layer<heads = 1, value_heads = 1, head_k = 128, head_v = 128, gate = none, act = bf16, state = f32, state_layout = vk>
func.func @f(%q: memref<?x1x128xbf16>, %b: memref<?x1xbf16>, %i32: memref<?xi32>, %i1: memref<?xi1>, %s: memref<?x1x128x128xf32>) {
  kda.recurrent #l q(%q : memref<?x1x128xbf16>) k(%q : memref<?x1x128xbf16>) v(%q : memref<?x1x128xbf16>) g(%q : memref<?x1x128xbf16>) beta(%b : memref<?x1xbf16>) cu_seqlens(%i32 : memref<?xi32>) slots(%i32 : memref<?xi32>) has_initial_state(%i1 : memref<?xi1>) state(%s : memref<?x1x128x128xf32>) out(%q : memref<?x1x128xbf16>) {kda.padding = "negative", kda.slot_stride = 20480 : i64}
  return
}
