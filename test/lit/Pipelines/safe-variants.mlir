// The safe variants the seeds must not drown: the recompute_w_u shape at
// depths 2 and 3 (and 4: kda's expansion never issues the stray copy), and
// correct hand-written 2- and 3-stage rings, are accepted.
// RUN: kda-opt %s -split-input-file --kda-expand-pipeline=target=gfx950 --kda-verify-pipeline | FileCheck %s

// CHECK-LABEL: func.func @recompute_w_u_depth2
// CHECK: kda.schedule "u" trip_count(2) depth(2) target("gfx950")
// CHECK: kda.schedule "w" trip_count(2) depth(2) target("gfx950")
kda.lds_buffer @u slots(1) slot_bytes(8192) offset(0)
kda.lds_buffer @w slots(1) slot_bytes(8192) offset(0)
func.func @recompute_w_u_depth2() {
  kda.pipeline "u" trip_count(2) depth(2) {
    kda.produce @u async stage(0)
    kda.consume @u stage(1)
  }
  kda.pipeline "w" trip_count(2) depth(2) {
    kda.produce @w async stage(0)
    kda.consume @w stage(1)
  }
  return
}

// -----

// CHECK-LABEL: func.func @recompute_w_u_depth3
// CHECK: kda.schedule "u" trip_count(2) depth(3)
kda.lds_buffer @u slots(1) slot_bytes(8192) offset(0)
kda.lds_buffer @w slots(1) slot_bytes(8192) offset(0)
func.func @recompute_w_u_depth3() {
  kda.pipeline "u" trip_count(2) depth(3) {
    kda.produce @u async stage(0)
    kda.consume @u stage(2)
  }
  kda.pipeline "w" trip_count(2) depth(3) {
    kda.produce @w async stage(0)
    kda.consume @w stage(2)
  }
  return
}

// -----

// Depth 4 on a 2-trip loop: the prologue copies only iterations 0 and 1.
// CHECK-LABEL: func.func @recompute_w_u_depth4
// CHECK: kda.schedule "u" trip_count(2) depth(4)
// CHECK-COUNT-2: kda.async_copy
// CHECK-NOT: kda.async_copy
// CHECK: kda.schedule "w"
kda.lds_buffer @u slots(1) slot_bytes(8192) offset(0)
kda.lds_buffer @w slots(1) slot_bytes(8192) offset(0)
func.func @recompute_w_u_depth4() {
  kda.pipeline "u" trip_count(2) depth(4) {
    kda.produce @u async stage(0)
    kda.consume @u stage(3)
  }
  kda.pipeline "w" trip_count(2) depth(4) {
    kda.produce @w async stage(0)
    kda.consume @w stage(3)
  }
  return
}

// -----

// A correct hand-written 2-stage ring (cp.async-style, uniform counts with an
// empty last group).
// CHECK-LABEL: func.func @ring2
kda.lds_buffer @r slots(2) slot_bytes(8192) offset(0)
func.func @ring2() {
  kda.schedule "ring2" trip_count(5) depth(2) target("sm_90") {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c5 = arith.constant 5 : index
    %s0 = kda.ring_slot %c0 of @r
    kda.async_copy @r[%s0] iter(%c0)
    scf.for %i = %c0 to %c5 step %c1 {
      kda.async_wait 0
      kda.lds_barrier
      %s = kda.ring_slot %i of @r
      kda.lds_read @r[%s] iter(%i)
      %n = arith.addi %i, %c1 : index
      %p = arith.cmpi slt, %n, %c5 : index
      %sn = kda.ring_slot %n of @r
      kda.async_copy @r[%sn] iter(%n) if(%p)
    }
    kda.lds_barrier
  }
  return
}

// -----

// A correct hand-written 3-stage ring.
// CHECK-LABEL: func.func @ring3
kda.lds_buffer @r slots(3) slot_bytes(8192) offset(0)
func.func @ring3() {
  kda.schedule "ring3" trip_count(7) depth(3) target("gfx950") {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c7 = arith.constant 7 : index
    scf.for %j = %c0 to %c2 step %c1 {
      %s = kda.ring_slot %j of @r
      kda.async_copy @r[%s] iter(%j)
    }
    scf.for %i = %c0 to %c7 step %c1 {
      kda.async_wait 1
      kda.lds_barrier
      %s = kda.ring_slot %i of @r
      kda.lds_read @r[%s] iter(%i)
      %n = arith.addi %i, %c2 : index
      %p = arith.cmpi slt, %n, %c7 : index
      %sn = kda.ring_slot %n of @r
      kda.async_copy @r[%sn] iter(%n) if(%p)
    }
    kda.lds_barrier
  }
  return
}
