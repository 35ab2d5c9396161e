// kda-tune's config table through kda-compile: one variant per entry of the
// target (an emulator takes the entries of the chip it stands for), written
// to the manifest with its N range and provenance; a variant runs through
// kda-bench against the oracle. An entry that breaks a rule, and buckets
// that overlap, are refused with the entry named and nothing written.
// kda-tune lists the configs it rejects with the rule, chooses by static
// figures where there is no hardware, saying so (compiling the candidates
// in batches, with a progress line per batch), and by kda-bench's times.
// RUN: rm -rf %t && kda-compile %s --targets=gfx942,emu,emu32 --config-table=%S/Inputs/table-good.json -o %t -q
// RUN: FileCheck %s --input-file=%t/manifest.json
// RUN: kda-bench --backend emu --target emu --bundle %t --kernel tiny__n5_65535 --numerics | FileCheck %s --check-prefix=BENCH
// RUN: not kda-compile %s --targets=gfx942 --config-table=%S/Inputs/table-unsafe.json -o %t.bad 2>&1 | FileCheck %s --check-prefix=UNSAFE
// RUN: not ls %t.bad
// RUN: not kda-compile %s --targets=gfx942 --config-table=%S/Inputs/table-overlap.json -o %t.bad 2>&1 | FileCheck %s --check-prefix=OVERLAP
// RUN: not kda-compile %s --targets=gfx942 --config-table=%S/Inputs/table-shared-terms-one-pass.json -o %t.bad 2>&1 | FileCheck %s --check-prefix=SHARED
// RUN: not ls %t.bad
// RUN: kda-tune %s --target=sm_90 --mma=0 --list --lanes=16 --warps=1,2 --cols=1,8 --waves-k=1,2 --v-passes=1 --lds-stages=0 | FileCheck %s --check-prefix=LIST
// RUN: kda-tune %s --target=sm_90 --mma=0 --list --lanes=16 --warps=1 --cols=2 --waves-k=1 --v-passes=2,3 --lds-stages=0,2 | FileCheck %s --check-prefix=PASSES
// mma = 1 (the column sums by the matrix atom) takes a bf16 state pool: the
// f32 pool of this layer is refused with the rule.
// RUN: kda-tune %s --target=sm_90 --mma=1 --list --warps=1 --cols=2 | FileCheck %s --check-prefix=MMA
// RUN: rm -f %t.table.json && kda-tune %s --target=gfx942 --mma=0 --static --table=%t.table.json --lanes=16 --warps=1 --cols=1,4 --waves-k=1 --v-passes=1,2 --lds-stages=0 --buckets=1-4,5-65535 2>&1 | FileCheck %s --check-prefix=PROGRESS
// RUN: FileCheck %s --check-prefix=STATIC --input-file=%t.table.json
// The static model prefers direct token loads to the LDS token ring.
// RUN: rm -f %t.direct.json && kda-tune %s --target=gfx942 --mma=0 --static --table=%t.direct.json --lanes=16 --warps=1 --cols=1,4 --waves-k=1 --v-passes=1 --lds-stages=0,2 --buckets=1-65535 > %t.direct.log 2>&1
// RUN: FileCheck %s --check-prefix=DIRECT --input-file=%t.direct.json
// The measured path on the emulator: candidates (in batches of 3, a code
// object each, a progress line each), kda-bench --all-kernels over the
// bundle's three code objects, the fastest per bucket into a table,
// compiled and run.
// RUN: rm -rf %t.cand && kda-tune %s --target=emu32 --mma=0 --candidates=%t.cand --batch=3 --lanes=16 --warps=1 --cols=1,4 --waves-k=1 --v-passes=1,2 --lds-stages=0 2>&1 | FileCheck %s --check-prefix=CANDIDATES
// RUN: FileCheck %s --check-prefix=CANDFILES --input-file=%t.cand/manifest.json
// A second run replaces that bundle whole (its batches lie in its target
// folder), here in batches of 4.
// RUN: kda-tune %s --target=emu32 --mma=0 --candidates=%t.cand --batch=4 --lanes=16 --warps=1 --cols=1,4 --waves-k=1 --v-passes=1,2 --lds-stages=0 2>&1 | FileCheck %s --check-prefix=AGAIN
// RUN: FileCheck %s --check-prefix=AGAINFILES --input-file=%t.cand/manifest.json
// RUN: not ls %t.cand/emu32/batch3
// RUN: not kda-tune %s --target=emu32 --candidates=%t.zero --batch=0 2>&1 | FileCheck %s --check-prefix=BATCH0
// RUN: not ls %t.zero
// RUN: kda-bench --backend emu --bundle %t.cand --all-kernels --decode 1,2,5 --reps 1 --json %t.times.json
// RUN: rm -f %t.measured.json && kda-tune %s --target=emu32 --mma=0 --times=%t.times.json --table=%t.measured.json --lanes=16 --warps=1 --cols=1,4 --waves-k=1 --v-passes=1,2 --lds-stages=0 --buckets=1-2,3-65535
// RUN: FileCheck %s --check-prefix=MEASURED --input-file=%t.measured.json
// RUN: rm -rf %t.m && kda-compile %s --targets=emu32 --config-table=%t.measured.json -o %t.m -q
// RUN: kda-bench --backend emu --bundle %t.m --kernel tiny__n3_65535 --numerics | FileCheck %s --check-prefix=BENCH

// CHECK: "generator": "kda-compile"
// CHECK: "name": "tiny__n1_4"
// CHECK: "target": "gfx942"
// CHECK: "variant": {
// CHECK-NEXT: "n_max": 4,
// CHECK-NEXT: "n_min": 1,
// CHECK-NEXT: "of": "tiny",
// CHECK-NEXT: "provenance": {
// CHECK: "name": "tiny__n5_65535"
// CHECK: "lds_stages": 2
// CHECK: "target": "emu"
// CHECK: "name": "tiny__n1_65535"
// CHECK: "target": "emu32"

// DIRECT: "lds_stages": 0
// DIRECT-NOT: "lds_stages": 2

// PROGRESS: kda-tune: [[N:[0-9]+]] of [[N]] candidates compiled for gfx942 ({{[0-9]+}} s)
// PROGRESS: kda-tune: wrote {{[0-9]+}} entries to

// CANDIDATES: kda-tune: 3 of 8 candidates compiled for emu32 ({{[0-9]+}} s)
// CANDIDATES-NEXT: kda-tune: 6 of 8 candidates compiled for emu32
// CANDIDATES-NEXT: kda-tune: 8 of 8 candidates compiled for emu32
// CANDIDATES: kda-tune: 8 candidate kernels in

// CANDFILES: "generator": "kda-tune"
// CANDFILES: "file": "emu32/batch0/kda_kernels.so"
// CANDFILES: "file": "emu32/batch3/kda_kernels.so"
// CANDFILES: "file": "emu32/batch6/kda_kernels.so"

// AGAIN: kda-tune: 4 of 8 candidates compiled for emu32
// AGAIN-NEXT: kda-tune: 8 of 8 candidates compiled for emu32
// AGAINFILES-NOT: batch3
// AGAINFILES: "file": "emu32/batch4/kda_kernels.so"
// AGAINFILES-NOT: batch3

// BATCH0: kda-tune: --batch is 0 (candidates a code object: >= 1)

// BENCH: decode_n64 {{.*}} ok
// BENCH: mixed_padding {{.*}} ok

// UNSAFE: table-unsafe.json entries[0] (gfx942, N 1..8): config refused on gfx942: 32 waves of 64 exceed the 1024-thread workgroup limit of gfx942

// OVERLAP: entries[0] (N 1..4) and entries[1] (N 3..9) overlap for gfx942

// SHARED: table-shared-terms-one-pass.json entries[0] (gfx942, N 1..65535): config refused on gfx942: shared_terms = 1 computes a row's first token's terms once a workgroup for the passes and column groups that would each compute them: it takes lds_stages = 0 and v_passes > 1 or more than one column group (warps x wave / (lanes_k x waves_k)), got lds_stages 0, v_passes 1 and 1 column group

// LIST: tiny on sm_90: 12 configs accepted, 2 rejected
// LIST: accepted: lanes_k 16, warps 1, waves_k 1, block_v 2, v_passes 1, lds_stages 0 (16 workgroups per head, 32 threads)
// LIST: accepted: lanes_k 16, warps 2, waves_k 2, block_v 16, v_passes 1, lds_stages 0 (2 workgroups per head, 64 threads)
// LIST: rejected: lanes_k 16, warps 1, waves_k 2, block_v 1, v_passes 1, lds_stages 0: waves_k must be a power of two dividing warps (1), got 2

// Passes over a workgroup's columns (v_passes): any count, the last
// block's columns past head_v masked (3 x 4 columns for head_v = 32); the
// LDS token ring is one pipeline over one pass's tokens, so with passes it
// is refused by the rule.
// With passes, shared_terms 1 (a row's first token's terms once a
// workgroup) is enumerated beside 0.
// PASSES: tiny on sm_90: 4 configs accepted, 2 rejected
// PASSES: accepted: lanes_k 16, warps 1, waves_k 1, block_v 8, v_passes 2, lds_stages 0 (4 workgroups per head, 32 threads)
// PASSES: accepted: lanes_k 16, warps 1, waves_k 1, block_v 8, v_passes 2, lds_stages 0, shared_terms 1 (4 workgroups per head, 32 threads)
// PASSES: accepted: lanes_k 16, warps 1, waves_k 1, block_v 12, v_passes 3, lds_stages 0 (3 workgroups per head, 32 threads)
// PASSES: accepted: lanes_k 16, warps 1, waves_k 1, block_v 12, v_passes 3, lds_stages 0, shared_terms 1 (3 workgroups per head, 32 threads)
// PASSES: rejected: lanes_k 16, warps 1, waves_k 1, block_v 8, v_passes 2, lds_stages 2: v_passes (2) needs direct token loads: the LDS token ring (lds_stages = 2) is one pipeline over the tokens of one pass

// MMA: tiny on sm_90: 0 configs accepted, 1 rejected
// MMA: rejected: lanes_k 4, warps 1, waves_k 1, block_v 16, v_passes 1, lds_stages 0, mma 1: mma = 1 takes a bf16 state pool (the state is the atom's exact operand), got an f32 state

// MEASURED: "machine": "host emulator"
// MEASURED: "method": "measured"
// MEASURED: "times_us": {
// MEASURED-NEXT: "1":
// MEASURED: "n_max": 65535,
// MEASURED-NEXT: "n_min": 3,

// STATIC: "method": "static"
// STATIC: "why": "no gfx942 hardware here: chosen by static figures

#l = #kda.layer<heads = 2, value_heads = 2, head_k = 64, head_v = 32, gate = lower_bound(-5.0), beta = sigmoid, qk_l2norm = true, act = bf16, state = f32, state_layout = vk>
func.func @tiny(%q: memref<?x2x64xbf16>, %v: memref<?x2x32xbf16>, %beta: memref<?x2xbf16>, %a_log: memref<2xf32>, %dt_bias: memref<128xf32>, %cu: memref<?xi32>, %slots: memref<?xi32>, %init: memref<?xi1>, %state: memref<?x2x32x64xf32>) {
  kda.recurrent #l q(%q : memref<?x2x64xbf16>) k(%q : memref<?x2x64xbf16>) v(%v : memref<?x2x32xbf16>) g(%q : memref<?x2x64xbf16>) beta(%beta : memref<?x2xbf16>) a_log(%a_log : memref<2xf32>) dt_bias(%dt_bias : memref<128xf32>) cu_seqlens(%cu : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%init : memref<?xi1>) state(%state : memref<?x2x32x64xf32>) out(%v : memref<?x2x32xbf16>)
  return
}
