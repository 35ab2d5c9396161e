// Mutation test of the verifier: for every safe expanded schedule below
// (depths 1-4 with async copies on gfx950, sm_90 and emu32, register-staged
// on gfx942 and emu, static and dynamic trip counts, one and two rings, the
// hand-written safe rings), each single mutant must be rejected: a barrier,
// drained barrier or drain removed; a wait count raised by one; a ring slot
// dropped; a buffer moved onto another one it lives beside; a staged store
// moved after an async copy of its buffer; a copy's predicate dropped; a read
// of the next slot, or naming the next iteration; a loop wrapped in
// scf.execute_region.
// RUN: kda-opt %s --kda-expand-pipeline=target=gfx950 --kda-test-pipeline-mutations -o /dev/null | FileCheck %s
// RUN: kda-opt %s --kda-expand-pipeline=target=sm_90 --kda-test-pipeline-mutations -o /dev/null | FileCheck %s
// RUN: kda-opt %s --kda-expand-pipeline=target=emu32 --kda-test-pipeline-mutations -o /dev/null | FileCheck %s
// RUN: kda-opt %s --kda-expand-pipeline=target=gfx942 --kda-test-pipeline-mutations -o /dev/null | FileCheck %s --check-prefix=STAGED
// RUN: kda-opt %s --kda-expand-pipeline=target=emu --kda-test-pipeline-mutations -o /dev/null | FileCheck %s --check-prefix=STAGED
// RUN: kda-opt %s --kda-expand-pipeline=target=gfx950 --kda-test-pipeline-mutations -o /dev/null | FileCheck %s --check-prefix=PROOF
// RUN: kda-opt %S/safe-variants.mlir -split-input-file --kda-expand-pipeline=target=gfx950 --kda-test-pipeline-mutations -o /dev/null | FileCheck %s --check-prefix=SAFE

// CHECK-NOT: SURVIVOR
// CHECK: mutation kill rate: [[K:[0-9]+]]/[[K]] (100.0%)
// STAGED-NOT: SURVIVOR
// STAGED: mutation kill rate: [[K:[0-9]+]]/[[K]] (100.0%)
// The dynamic schedules' proofs, at the bound: every trip count below it
// runs, and the runs at bound .. bound + period - 1 show the loop's state
// repeating (the horizon is the distance every decision settles within).
// PROOF: schedule 'dyn_d1' depth 1: every trip count proven: T < 14 run, T = 14..14 repeat with period 1 past horizon 1
// PROOF: schedule 'dyn_d2' depth 2: every trip count proven: T < 20 run, T = 20..21 repeat with period 2 past horizon 2
// PROOF: schedule 'dyn_d3' depth 3: every trip count proven: T < 27 run, T = 27..29 repeat with period 3 past horizon 3
// PROOF: schedule 'dyn_d4' depth 4: every trip count proven: T < 32 run, T = 32..35 repeat with period 4 past horizon 4
// SAFE-NOT: SURVIVOR
// SAFE-COUNT-7: mutation kill rate: [[K:[0-9]+]]/[[K]] (100.0%)

kda.lds_buffer @b1 slots(1) slot_bytes(8192) offset(0)
func.func @p1() {
  kda.pipeline "d1_t2" trip_count(2) depth(1) {
    kda.produce @b1 async stage(0)
    kda.consume @b1 stage(0)
  }
  return
}

kda.lds_buffer @b2 slots(1) slot_bytes(8192) offset(0)
func.func @p2() {
  kda.pipeline "d1_t8" trip_count(8) depth(1) {
    kda.produce @b2 async stage(0)
    kda.consume @b2 stage(0)
  }
  return
}

kda.lds_buffer @b3 slots(1) slot_bytes(8192) offset(0)
func.func @p3() {
  kda.pipeline "d2_t3" trip_count(3) depth(2) {
    kda.produce @b3 async stage(0)
    kda.consume @b3 stage(1)
  }
  return
}

kda.lds_buffer @b4 slots(1) slot_bytes(8192) offset(0)
func.func @p4() {
  kda.pipeline "d2_t8" trip_count(8) depth(2) {
    kda.produce @b4 async stage(0)
    kda.consume @b4 stage(1)
  }
  return
}

kda.lds_buffer @b5 slots(1) slot_bytes(8192) offset(0)
func.func @p5() {
  kda.pipeline "d3_t4" trip_count(4) depth(3) {
    kda.produce @b5 async stage(0)
    kda.consume @b5 stage(2)
  }
  return
}

kda.lds_buffer @b6 slots(1) slot_bytes(8192) offset(0)
func.func @p6() {
  kda.pipeline "d3_t8" trip_count(8) depth(3) {
    kda.produce @b6 async stage(0)
    kda.consume @b6 stage(2)
  }
  return
}

kda.lds_buffer @b7 slots(1) slot_bytes(8192) offset(0)
func.func @p7() {
  kda.pipeline "d4_t5" trip_count(5) depth(4) {
    kda.produce @b7 async stage(0)
    kda.consume @b7 stage(3)
  }
  return
}

kda.lds_buffer @b8 slots(1) slot_bytes(8192) offset(0)
func.func @p8() {
  kda.pipeline "d4_t8" trip_count(8) depth(4) {
    kda.produce @b8 async stage(0)
    kda.consume @b8 stage(3)
  }
  return
}

kda.lds_buffer @b9 slots(1) slot_bytes(4096) offset(0)
func.func @p9(%t: index) {
  kda.pipeline "dyn_d1" dynamic_trip_count(%t) depth(1) {
    kda.produce @b9 async stage(0)
    kda.consume @b9 stage(0)
  }
  return
}

kda.lds_buffer @b10 slots(1) slot_bytes(4096) offset(0)
func.func @p10(%t: index) {
  kda.pipeline "dyn_d2" dynamic_trip_count(%t) depth(2) {
    kda.produce @b10 async stage(0)
    kda.consume @b10 stage(1)
  }
  return
}

kda.lds_buffer @b11 slots(1) slot_bytes(4096) offset(0)
func.func @p11(%t: index) {
  kda.pipeline "dyn_d3" dynamic_trip_count(%t) depth(3) {
    kda.produce @b11 async stage(0)
    kda.consume @b11 stage(2)
  }
  return
}

kda.lds_buffer @b12 slots(1) slot_bytes(4096) offset(0)
func.func @p12(%t: index) {
  kda.pipeline "dyn_d4" dynamic_trip_count(%t) depth(4) {
    kda.produce @b12 async stage(0)
    kda.consume @b12 stage(3)
  }
  return
}

kda.lds_buffer @k13 slots(1) slot_bytes(8192) offset(0)
kda.lds_buffer @v13 slots(1) slot_bytes(8192) offset(0)
func.func @p13() {
  kda.pipeline "kv_d2" trip_count(6) depth(2) {
    kda.produce @k13 async stage(0)
    kda.produce @v13 async stage(0)
    kda.consume @k13 stage(1)
    kda.consume @v13 stage(1)
  }
  return
}

kda.lds_buffer @k14 slots(1) slot_bytes(8192) offset(0)
kda.lds_buffer @v14 slots(1) slot_bytes(8192) offset(0)
func.func @p14() {
  kda.pipeline "kv_d3" trip_count(6) depth(3) {
    kda.produce @k14 async stage(0)
    kda.produce @v14 async stage(0)
    kda.consume @k14 stage(2)
    kda.consume @v14 stage(2)
  }
  return
}
