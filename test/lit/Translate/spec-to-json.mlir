// kda-translate describes a spec's computations as JSON.
// RUN: kda-translate --kda-spec-to-json %examples/kimi-k3-tp8.mlir | FileCheck %s
// RUN: not kda-translate --kda-spec-to-json %s 2>&1 | FileCheck %s --check-prefix=EMPTY

// CHECK: "function": "kimi_k3_tp8_recurrent"
// CHECK: "gate": "lower_bound"
// CHECK: "lower_bound": -5
// CHECK: "scale": 0.0883883476
// CHECK: "state_layout": "vk"
// CHECK: "op": "recurrent"
// CHECK: "function": "kimi_k3_tp8_chunk"
// CHECK: "op": "chunk"

// EMPTY: error: spec holds no kda.recurrent or kda.chunk op
func.func @nothing() {
  return
}
