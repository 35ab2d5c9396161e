// kda-bench on the emulator backend: the numerics batches against the float64
// oracle (decodes, padding and no-initial-state rows, 200-token rows, g near
// -1000) pass the issue #3 bars, timing runs for one-token rows and for rows of
// several tokens (JSON with the layer and the kernel that ran), every kernel
// of a bundle timed for kda-tune (--all-kernels), and bad options are
// refused with the usage line.
// RUN: rm -rf %t && kda-compile %s --targets=emu -o %t -q
// RUN: kda-bench --backend emu --bundle %t --kernel bench_small --numerics --decode 2 --tokens-per-row 3 --reps 1 --json %t/bench.json | FileCheck %s
// RUN: FileCheck %s --check-prefix=JSON --input-file=%t/bench.json
// RUN: kda-bench --backend emu --bundle %t --all-kernels --decode 1,2 --reps 1 --json %t/all.json
// RUN: FileCheck %s --check-prefix=ALL --input-file=%t/all.json
// RUN: not kda-bench --backend emu --bundle %t --kernel bench_small --decode 2 --tokens-per-row 0 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not kda-bench --backend emu --bundle %t --kernel no_such_kernel --numerics 2>&1 | FileCheck %s --check-prefix=MISSING
// A launch the runtime refuses is an error, not a time (it was timed and
// written to the JSON as the kernel's), in both timing modes.
// RUN: not kda-bench --backend emu --bundle %t --kernel bench_small --decode 65536 --reps 1 --json %t/refused.json 2>&1 | FileCheck %s --check-prefix=REFUSED
// RUN: not kda-bench --backend emu --bundle %t --all-kernels --decode 65536 --reps 1 --json %t/refused-all.json 2>&1 | FileCheck %s --check-prefix=REFUSED
// RUN: not ls %t/refused.json %t/refused-all.json
// REFUSED: kda-bench: launch refused: num_seqs 65536 exceeds 65535 (grid z)
// Numbers on the command line parsed whole and bounded (atoi took
// 4294967297 as 1 and "1x" as 1); the JSON written whole or not at all, its
// strings escaped.
// RUN: not kda-bench --backend emu --bundle %t --kernel bench_small --decode 4294967297 2>&1 | FileCheck %s --check-prefix=NUMBER
// RUN: not kda-bench --backend emu --bundle %t --kernel bench_small --decode 1x 2>&1 | FileCheck %s --check-prefix=NUMBER1X
// RUN: not kda-bench --backend emu --bundle %t --kernel bench_small --reps 1e3 --decode 1 2>&1 | FileCheck %s --check-prefix=REPS
// RUN: not kda-bench --backend emu --bundle %t --kernel bench_small --decode 1 --reps 1 --json %t/no-such-folder/x.json 2>&1 | FileCheck %s --check-prefix=NOFOLDER
// RUN: kda-bench --backend emu --bundle %t --kernel bench_small --decode 1 --reps 1 --driver 'a"b\' --json %t/quoted.json
// RUN: %python -c "import json, sys; print(json.load(open(sys.argv[1]))['driver'])" %t/quoted.json | FileCheck %s --check-prefix=QUOTED
// NUMBER: kda-bench: --decode takes whole numbers in 1..1048576, not '4294967297'
// NUMBER1X: kda-bench: --decode takes whole numbers in 1..1048576, not '1x'
// REPS: kda-bench: --reps takes whole numbers in 1..1000000, not '1e3'
// NOFOLDER: kda-bench: cannot write {{.*}}no-such-folder/x.json: No such file or directory
// QUOTED: a"b\
// The emu950 target (gfx950's atoms, wave 64) runs like emu; --target picks it.
// RUN: rm -rf %t950 && kda-compile %s --targets=emu,emu950 -o %t950 -q
// RUN: kda-bench --backend emu --target emu950 --bundle %t950 --kernel bench_small --numerics | FileCheck %s --check-prefix=E950
// RUN: not kda-bench --backend emu --target emu32 --bundle %t950 --kernel bench_small --numerics 2>&1 | FileCheck %s --check-prefix=NOTARGET

// CHECK: kda-bench: bench_small ({{.*}}) on emu: H 2, HV 2, K 32, V 32
// CHECK: decode_n64 {{.*}} ok
// CHECK: mixed_padding {{.*}} ok
// CHECK: long_rows {{.*}} ok
// CHECK: extreme_gate {{.*}} ok
// CHECK: rows of 3 tokens each
// CHECK-NEXT: N time us graph us TB/s MB moved
// CHECK-NEXT: 2 {{[0-9]+\.[0-9]+}} -1.00 {{[0-9]+\.[0-9]+}} {{[0-9]+\.[0-9]+}} {{.*}} bench_small
// JSON: "impl": "kda"
// JSON: "layer": {"heads": 2, "value_heads": 2, "head_k": 32, "head_v": 32, "state_layout": "vk"}
// JSON: "numerics_decode_n64": {"out_err": {{.*}}, "pass": true}
// JSON: "decode_N2_L3": {"us": {{[0-9.]+}}, "us_graph": -1{{.*}}, "kernel": "bench_small"}
// ALL: "machine": "host emulator"
// ALL: "kernels": {
// ALL-NEXT: "bench_small": {"config": {{.*}}"lanes_k": {{[0-9]+}}{{.*}}, "us": {"1": {{[0-9.]+}}, "2": {{[0-9.]+}}}}
// BAD: kda-bench: --tokens-per-row takes whole numbers in 1..65536, not '0'
// BAD: usage: kda-bench --bundle DIR --kernel NAME
// MISSING: kda-bench: {{.*}}no_such_kernel
// E950: kda-bench: bench_small ({{.*}}) on emu950: H 2, HV 2, K 32, V 32
// E950: decode_n64 {{.*}} ok
// E950: extreme_gate {{.*}} ok
// NOTARGET: kda-bench: no usable backend: the bundle has no kernels for this backend and target emu32 (KDA_TARGET)

#l = #kda.layer<heads = 2, value_heads = 2, head_k = 32, head_v = 32, gate = lower_bound(-5.0), beta = sigmoid, qk_l2norm = true, act = bf16, state = f32, state_layout = vk>
func.func @bench_small(%q: memref<?x2x32xbf16>, %k: memref<?x2x32xbf16>, %v: memref<?x2x32xbf16>, %g: memref<?x2x32xbf16>, %beta: memref<?x2xbf16>, %a_log: memref<2xf32>, %dt_bias: memref<64xf32>, %cu: memref<?xi32>, %slots: memref<?xi32>, %init: memref<?xi1>, %state: memref<?x2x32x32xf32>, %o: memref<?x2x32xbf16>) {
  kda.recurrent #l q(%q : memref<?x2x32xbf16>) k(%k : memref<?x2x32xbf16>) v(%v : memref<?x2x32xbf16>) g(%g : memref<?x2x32xbf16>) beta(%beta : memref<?x2xbf16>) a_log(%a_log : memref<2xf32>) dt_bias(%dt_bias : memref<64xf32>) cu_seqlens(%cu : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%init : memref<?xi1>) state(%state : memref<?x2x32x32xf32>) out(%o : memref<?x2x32xbf16>)
  return
}
