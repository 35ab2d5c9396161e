// The planner's threshold travels from the spec (module attribute
// kda.planner, with where it was measured) through kda-compile's manifest
// to the runtime, which kda-forward shows while it runs the seed scenario
// (prefills shortened) through kda_forward on the emulator against the
// float64 oracle. A malformed threshold is refused and writes nothing.
// RUN: rm -rf %t && kda-compile %s --targets=emu -o %t -q
// RUN: FileCheck %s --check-prefix=MANIFEST --input-file=%t/manifest.json
// RUN: kda-forward --bundle %t --kernel fwd_small --prefill-scale 0.02 | FileCheck %s
// RUN: sed 's/recurrent_max_tokens = 48/recurrent_max_tokens = 0/' %s > %t.bad.mlir
// RUN: rm -rf %t.badout && not kda-compile %t.bad.mlir --targets=emu -o %t.badout 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not ls %t.badout %t.badout.partial
// RUN: not kda-forward --bundle %t --kernel fwd_small --prefill-scale 2 2>&1 | FileCheck %s --check-prefix=USAGE

// MANIFEST: "planner": {
// MANIFEST-NEXT: "provenance": "lit test: a made-up number, not a measurement",
// MANIFEST-NEXT: "recurrent_max_tokens": 48
// CHECK: kda-forward: fwd_small ({{.*}}) on emu: H 2, HV 2, K 32, V 32
// CHECK: seed scenario: 64 decodes + 4 prefills (30, 24, 18, 8 tokens), 144 tokens; 1 launch(es); rows above 48 tokens would take the chunk path (lit test: a made-up number, not a measurement)
// CHECK: emulator: {{.*}} s of host time
// CHECK: vs float64 oracle: {{.*}} no NaN, unnamed slots bit-identical: ok
// BAD: error: kda.planner must be {recurrent_max_tokens = N (1..2^31-1), provenance = "where N was measured"}
// USAGE: kda-forward: --prefill-scale 2 is not a number in (0, 1]

#l = #kda.layer<heads = 2, value_heads = 2, head_k = 32, head_v = 32, gate = lower_bound(-5.0), beta = sigmoid, qk_l2norm = true, act = bf16, state = f32, state_layout = vk>
module attributes {kda.planner = {recurrent_max_tokens = 48 : i64, provenance = "lit test: a made-up number, not a measurement"}} {
  func.func @fwd_small(%q: memref<?x2x32xbf16>, %b: memref<?x2xbf16>, %a: memref<2xf32>, %dt: memref<64xf32>, %i32: memref<?xi32>, %i1: memref<?xi1>, %s: memref<?x2x32x32xf32>) {
    kda.recurrent #l q(%q : memref<?x2x32xbf16>) k(%q : memref<?x2x32xbf16>) v(%q : memref<?x2x32xbf16>) g(%q : memref<?x2x32xbf16>) beta(%b : memref<?x2xbf16>) a_log(%a : memref<2xf32>) dt_bias(%dt : memref<64xf32>) cu_seqlens(%i32 : memref<?xi32>) slots(%i32 : memref<?xi32>) has_initial_state(%i1 : memref<?xi1>) state(%s : memref<?x2x32x32xf32>) out(%q : memref<?x2x32xbf16>)
    return
  }
}
