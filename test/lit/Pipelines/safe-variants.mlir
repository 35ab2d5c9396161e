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
    // gfx950: the predicated-off copies' loads landed in the sink slot.
    kda.async_wait 0
    kda.lds_barrier
  }
  return
}

// -----

// A correct mixed ring: the first tile staged through registers, the rest
// copied asynchronously into the same slots (the mutation test moves the
// staged store after an async copy of its buffer).
// CHECK-LABEL: func.func @first_staged
kda.lds_buffer @r slots(2) slot_bytes(4096) offset(0)
func.func @first_staged() {
  kda.schedule "first_staged" trip_count(5) depth(2) target("gfx950") {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c5 = arith.constant 5 : index
    kda.staged_copy @r[%c0] iter(%c0)
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
    // gfx950: the predicated-off copies' loads landed in the sink slot.
    kda.async_wait 0
    kda.lds_barrier
  }
  return
}

// -----

// A correct wave-0 ring over a dynamic trip count (the gfx950 token ring's
// shape) beside a second ring that every thread copies, past @t's sink slot
// (bytes [6144, 9216): gfx950's predicated-off copies of @t land there).
// CHECK-LABEL: func.func @wave0_and_all
kda.lds_buffer @t slots(2) slot_bytes(3072) offset(0)
kda.lds_buffer @x slots(2) slot_bytes(1024) offset(9216)
func.func @wave0_and_all(%n: index) {
  kda.schedule "wave0_and_all" dynamic_trip_count(%n) depth(2) target("gfx950") {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %p0 = arith.cmpi slt, %c0, %n : index
    kda.async_copy @t[%c0] iter(%c0) if(%p0) {issuers = "wave0"}
    kda.async_copy @x[%c0] iter(%c0) if(%p0)
    scf.for %i = %c0 to %n step %c1 {
      kda.async_wait 0
      kda.lds_barrier
      %s = kda.ring_slot %i of @t
      kda.lds_read @t[%s] iter(%i)
      kda.lds_read @x[%s] iter(%i)
      %j = arith.addi %i, %c1 : index
      %p = arith.cmpi slt, %j, %n : index
      %sj = kda.ring_slot %j of @t
      kda.async_copy @t[%sj] iter(%j) if(%p) {issuers = "wave0"}
      kda.async_copy @x[%sj] iter(%j) if(%p)
    }
    // gfx950: the predicated-off copies' loads landed in the sink slot.
    kda.async_wait 0
    kda.lds_barrier
  }
  return
}
