// What kda-compile and kda-tune refuse in a config table and in timing
// input, each with the entry or candidate named and nothing written:
// a misspelt field (it would have been ignored and its default used), a
// layer value outside what kda-tune writes (the entry would match no layer
// and be dropped unsaid), a field of the wrong type (not "missing"),
// entries of an emulator and of its chip that overlap in N (both apply to
// the emulator; the runtime would refuse the bundle), a spec function with
// two layer ops (one kernel per function), kda-tune's lanes or waves of 0
// (it divided by them) and search values outside their ranges, and times that are negative, taken at different N
// for two candidates of one bucket, or without the config they were
// measured with.
// RUN: not kda-compile %s --targets=emu32 --config-table=%S/Inputs/table-misspelt.json -o %t.bad 2>&1 | FileCheck %s --check-prefix=MISSPELT
// RUN: not ls %t.bad
// RUN: not kda-compile %s --targets=emu32 --config-table=%S/Inputs/table-bad-state.json -o %t.bad 2>&1 | FileCheck %s --check-prefix=STATE
// RUN: not kda-compile %s --targets=emu32 --config-table=%S/Inputs/table-warps-string.json -o %t.bad 2>&1 | FileCheck %s --check-prefix=TYPE
// RUN: not kda-compile %s --targets=emu32 --config-table=%S/Inputs/table-emu-overlap.json -o %t.bad 2>&1 | FileCheck %s --check-prefix=CHIP
// RUN: not ls %t.bad
// An entry is checked against its own target's rules even where this compile
// would not apply it (another layer, another target), and a key written
// twice in one object is refused (the reader would keep the second).
// RUN: not kda-compile %s --targets=emu32 --config-table=%S/Inputs/table-unsafe-elsewhere.json -o %t.bad 2>&1 | FileCheck %s --check-prefix=ELSEWHERE
// RUN: not kda-compile %s --targets=emu32 --config-table=%S/Inputs/table-repeated-key.json -o %t.bad 2>&1 | FileCheck %s --check-prefix=REPEATED
// JSON inputs the reader must not take: nesting that overflowed llvm::json's
// recursive parser (kda-compile and kda-tune crashed), a FIFO (the read
// blocked for ever), a folder. Refused before any compile; nothing written.
// RUN: %python -c "print('[' * 100000 + ']' * 100000)" > %t.deep.json
// RUN: not kda-compile %s --targets=emu32 --config-table=%t.deep.json -o %t.bad 2>&1 | FileCheck %s --check-prefix=DEEP
// RUN: not kda-tune %s --target=emu32 --static --table=%t.deep.json 2>&1 | FileCheck %s --check-prefix=DEEP
// RUN: rm -f %t.fifo && mkfifo %t.fifo && not kda-compile %s --targets=emu32 --config-table=%t.fifo -o %t.bad 2>&1 | FileCheck %s --check-prefix=FIFO
// RUN: not kda-compile %s --targets=emu32 --config-table=%S/Inputs -o %t.bad 2>&1 | FileCheck %s --check-prefix=FIFO
// RUN: not ls %t.bad
// DEEP: {{.*}}deep.json: arrays and objects nested deeper than 64 levels
// FIFO: not a regular file
// RUN: not ls %t.bad
// RUN: not kda-compile %S/Inputs/two-layers.mlir --targets=emu32 -o %t.bad 2>&1 | FileCheck %s --check-prefix=TWO
// RUN: not ls %t.bad
// RUN: kda-tune %s --target=sm_90 --mma=0 --list --lanes=0 --warps=1 --cols=1 --waves-k=1 --v-passes=1 --lds-stages=0 | FileCheck %s --check-prefix=ZERO
// RUN: not kda-tune %s --target=sm_90 --mma=0 --list --lanes=16 --warps=1 --cols=1 --waves-k=0 --v-passes=1 --lds-stages=0 2>&1 | FileCheck %s --check-prefix=WAVES
// RUN: not kda-tune %s --target=sm_90 --mma=0 --list --lanes=65536 --warps=1 2>&1 | FileCheck %s --check-prefix=LANES
// A spec with nothing to tune is refused (no empty listing or table).
// RUN: not kda-tune %S/Inputs/spec-empty.mlir --target=sm_90 --list 2>&1 | FileCheck %s --check-prefix=NOTHING
// NOTHING: kda-tune: {{.*}}spec-empty.mlir holds no kda.recurrent op: nothing to tune
// RUN: not kda-tune %s --target=sm_90 --mma=7 --list 2>&1 | FileCheck %s --check-prefix=MMA
// RUN: not kda-tune %s --target=sm_90 --lds-stages=0,9 --list 2>&1 | FileCheck %s --check-prefix=LDS
// --candidates writes a bundle whole and never over a folder of the user's.
// RUN: rm -rf %t.user && mkdir -p %t.user && echo keep > %t.user/marker
// RUN: not kda-tune %s --target=emu32 --mma=0 --candidates=%t.user --lanes=16 --warps=1 --cols=1 --waves-k=1 --v-passes=1 --lds-stages=0 2>&1 | FileCheck %s --check-prefix=CANDUSER
// RUN: cat %t.user/marker | FileCheck %s --check-prefix=KEPT
// RUN: not kda-tune %s --target=sm_90 --list --buckets=, 2>&1 | FileCheck %s --check-prefix=BUCKETS
// RUN: not kda-tune %s --target=emu32 --mma=0 --times=%S/Inputs/times-negative.json --table=%t.t.json --lanes=16 --warps=1 --cols=1,4 --waves-k=1 --v-passes=1,2 --lds-stages=0 --buckets=1-2,3-65535 2>&1 | FileCheck %s --check-prefix=NEG
// RUN: not kda-tune %s --target=emu32 --mma=0 --times=%S/Inputs/times-uneven.json --table=%t.t.json --lanes=16 --warps=1 --cols=1,4 --waves-k=1 --v-passes=1,2 --lds-stages=0 --buckets=1-2,3-65535 2>&1 | FileCheck %s --check-prefix=UNEVEN
// RUN: not kda-tune %s --target=emu32 --mma=0 --times=%S/Inputs/times-no-config.json --table=%t.t.json --lanes=16 --warps=1 --cols=1,4 --waves-k=1 --v-passes=1,2 --lds-stages=0 --buckets=1-2,3-65535 2>&1 | FileCheck %s --check-prefix=NOCONFIG
// RUN: not ls %t.t.json

// MISSPELT: entries[0].config: 'v_pases' is not a field (fields: block_k, block_v, warps, lanes_k, waves_k, lds_stages, v_passes, mma, shared_terms)
// STATE: entries[0].layer.state: 'F32' is none of f32, bf16
// TYPE: entries[0].config.warps: "2" (not an integer), expected an integer in [0, 1048576]
// CHIP: error: 'kda.recurrent' op config table {{.*}}table-emu-overlap.json: entries[0] (sm_90, N 1..65535) and entries[1] (emu32, N 5..100) both apply to emu32 and overlap
// ELSEWHERE: kda-compile: config table {{.*}}table-unsafe-elsewhere.json entries[1] (gfx942, N 1..65535): config refused on gfx942: 32 waves of 64 exceed the 1024-thread workgroup limit of gfx942
// REPEATED: kda-compile: config table {{.*}}table-repeated-key.json: key "warps" appears twice in one object (at depth 4)
// TWO: error: 'kda.recurrent' op is a second layer in function @two: a function is one layer (its kernels and manifest entries take the function's name; its chunk size and scan choice are decided once)
// TWO: note: the first
// ZERO: 0 configs accepted, 1 rejected
// ZERO: does not split the 32 threads of 1 warps
// WAVES: kda-tune: --waves-k: 0 is outside 1..64
// LANES: kda-tune: --lanes: 65536 is outside 0..64
// MMA: kda-tune: --mma: 7 is outside 0..1
// LDS: kda-tune: --lds-stages: 9 is outside 0..4
// CANDUSER: kda-tune: --candidates {{.*}}.user: holds marker, which is not part of a bundle
// KEPT: keep
// BUCKETS: kda-tune: --buckets: no range given
// NEG: tiny__c7: time at N '5' is -5, not a positive number of microseconds at a whole N
// UNEVEN: were timed at different N in bucket 1..2; time every candidate at the same N
// NOCONFIG: tiny__c0 has no "config": its times cannot be matched to this enumeration's candidate

#l = #kda.layer<heads = 2, value_heads = 2, head_k = 64, head_v = 32, gate = lower_bound(-5.0), beta = sigmoid, qk_l2norm = true, act = bf16, state = f32, state_layout = vk>
func.func @tiny(%q: memref<?x2x64xbf16>, %v: memref<?x2x32xbf16>, %beta: memref<?x2xbf16>, %a_log: memref<2xf32>, %dt_bias: memref<128xf32>, %cu: memref<?xi32>, %slots: memref<?xi32>, %init: memref<?xi1>, %state: memref<?x2x32x64xf32>) {
  kda.recurrent #l q(%q : memref<?x2x64xbf16>) k(%q : memref<?x2x64xbf16>) v(%v : memref<?x2x32xbf16>) g(%q : memref<?x2x64xbf16>) beta(%beta : memref<?x2xbf16>) a_log(%a_log : memref<2xf32>) dt_bias(%dt_bias : memref<128xf32>) cu_seqlens(%cu : memref<?xi32>) slots(%slots : memref<?xi32>) has_initial_state(%init : memref<?xi1>) state(%state : memref<?x2x32x64xf32>) out(%v : memref<?x2x32xbf16>)
  return
}
