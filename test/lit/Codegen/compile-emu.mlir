// The emulator target: a host shared object exporting the packed entry, its
// SIMT primitives left to the runtime (kda_emu_*), bf16 expanded to integer
// code (no libgcc bf16 helpers needed).
// RUN: rm -rf %t && kda-compile %examples/kimi-k3-tp8.mlir --targets=emu,emu32 -o %t -q
// RUN: llvm-nm -D %t/emu/kda_kernels.so | FileCheck %s
// RUN: FileCheck %s --check-prefix=MANIFEST --input-file=%t/manifest.json

// CHECK-NOT: __truncsfbf2
// CHECK-DAG: U kda_emu_id
// CHECK-DAG: U kda_emu_shuffle_f32
// CHECK-DAG: T kda_kimi_k3_tp8_recurrent_kd{{[0-9a-f]+}}_packed
// MANIFEST: "symbol": "kda_kimi_k3_tp8_recurrent_kd{{[0-9a-f]+}}_packed"
// MANIFEST: "target": "emu"
// MANIFEST: "wave_size": 64
// MANIFEST: "target": "emu32"
// MANIFEST: "wave_size": 32
