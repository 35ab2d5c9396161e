// Class 8 of issue 10: slot expressions in their common forms - a power-of-
// two mask, remui, select, a loop-carried slot - are evaluated exactly; a
// mask that is not a ring index is caught by the rules, and what the
// evaluator cannot read is R0, naming the op.
// RUN: kda-opt %s -split-input-file -verify-diagnostics --kda-verify-pipeline

// Safe: i & 1, i remui 2 and a select between slots, on a static ring.
kda.lds_buffer @r slots(2) slot_bytes(4096) offset(0)
func.func @common_forms() {
  kda.schedule "forms" trip_count(6) depth(2) target("sm_90") {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c6 = arith.constant 6 : index
    kda.async_copy @r[%c0] iter(%c0)
    scf.for %i = %c0 to %c6 step %c1 {
      kda.async_wait 0
      kda.lds_barrier
      %s = arith.andi %i, %c1 : index
      kda.lds_read @r[%s] iter(%i)
      %n = arith.addi %i, %c1 : index
      %p = arith.cmpi slt, %n, %c6 : index
      %odd = arith.remui %n, %c2 : index
      %isOdd = arith.cmpi eq, %odd, %c1 : index
      %sn = arith.select %isOdd, %c1, %c0 : index
      kda.async_copy @r[%sn] iter(%n) if(%p)
    }
    kda.lds_barrier
  }
  return
}

// -----

// Safe: the same forms over a dynamic trip count, with i32 arithmetic.
kda.lds_buffer @r slots(4) slot_bytes(4096) offset(0)
func.func @dynamic_forms(%t: index) {
  kda.schedule "dyn_forms" dynamic_trip_count(%t) depth(4) target("sm_90") {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %m = arith.constant 3 : i32
    scf.for %j = %c0 to %c3 step %c1 {
      %p = arith.cmpi slt, %j, %t : index
      %s = arith.andi %j, %c3 : index
      kda.async_copy @r[%s] iter(%j) if(%p)
    }
    scf.for %i = %c0 to %t step %c1 {
      kda.async_wait 2
      kda.lds_barrier
      %i32 = arith.index_cast %i : index to i32
      %s32 = arith.andi %i32, %m : i32
      %s = arith.index_castui %s32 : i32 to index
      kda.lds_read @r[%s] iter(%i)
      %n = arith.addi %i, %c3 : index
      %p = arith.cmpi ult, %n, %t : index
      %sn = arith.remui %n, %c1 : index
      %sn4 = kda.ring_slot %n of @r
      kda.async_copy @r[%sn4] iter(%n) if(%p)
    }
    kda.lds_barrier
  }
  return
}

// -----

// A mask that is not the ring index: i & 2 sends odd iterations to slot 0
// and even ones from 2 on to a slot the 2-slot ring does not have.
kda.lds_buffer @r slots(2) slot_bytes(4096) offset(0)
func.func @wrong_mask() {
  // expected-error @+1 {{R1: iteration 1 reads @r slot 0, which holds iteration 0's tile: no copy of iteration 1 into that slot precedes the read (pipeline 'mask' at depth 2)}}
  kda.schedule "mask" trip_count(4) depth(2) target("sm_90") {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    kda.async_copy @r[%c0] iter(%c0)
    scf.for %i = %c0 to %c4 step %c1 {
      kda.async_wait 0
      kda.lds_barrier
      %s = arith.andi %i, %c2 : index
      kda.lds_read @r[%s] iter(%i)
      %n = arith.addi %i, %c1 : index
      %p = arith.cmpi slt, %n, %c4 : index
      %sn = kda.ring_slot %n of @r
      kda.async_copy @r[%sn] iter(%n) if(%p)
    }
    kda.lds_barrier
  }
  return
}

// -----

// A division by zero cannot be evaluated: R0 naming arith.divui.
kda.lds_buffer @r slots(2) slot_bytes(4096) offset(0)
func.func @divide_by_zero() {
  // expected-error @+1 {{R0: cannot analyse arith.divui: its divisor is zero or not a constant (an operand of kda.staged_copy) (pipeline 'div' at depth 1)}}
  kda.schedule "div" trip_count(1) depth(1) target("gfx942") {
    %c0 = arith.constant 0 : index
    %s = arith.divui %c0, %c0 : index
    kda.staged_copy @r[%s] iter(%c0)
    kda.lds_barrier
    kda.lds_read @r[%s] iter(%c0)
    kda.lds_barrier
  }
  return
}

// -----

// A slot loaded from memory is not a function of the loop counters.
kda.lds_buffer @r slots(2) slot_bytes(4096) offset(0)
func.func @slot_from_memory(%m: memref<1xindex>) {
  %c0 = arith.constant 0 : index
  %s = memref.load %m[%c0] : memref<1xindex>
  // expected-error @+1 {{R0: cannot analyse memref.load: not an operation on slots, iterations or predicates the hazard model evaluates (an operand of kda.staged_copy) (pipeline 'load' at depth 1)}}
  kda.schedule "load" trip_count(1) depth(1) target("gfx942") {
    %z = arith.constant 0 : index
    kda.staged_copy @r[%s] iter(%z)
    kda.lds_barrier
    kda.lds_read @r[%s] iter(%z)
    kda.lds_barrier
  }
  return
}

// -----

// A ring slot of a negative iteration: the lowerings take iter mod slots
// unsigned, so iteration -1 of a 3-slot ring is slot 0 on the chip, not the
// floor remainder 2; iterations count from 0.
kda.lds_buffer @r slots(3) slot_bytes(1024) offset(0)
func.func @negative_iteration() {
  // expected-error @+1 {{R0: cannot analyse kda.ring_slot: the slot of iteration -1: iterations are counted from 0}}
  kda.schedule "neg" depth(3) target("sm_90") {
    %cm1 = arith.constant -1 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    scf.for %i = %cm1 to %c2 step %c1 {
      %s = kda.ring_slot %i of @r
      kda.async_copy @r[%s] iter(%i)
    }
    kda.async_wait 0
    kda.lds_barrier
    scf.for %i = %cm1 to %c2 step %c1 {
      %s = kda.ring_slot %i of @r
      kda.lds_read @r[%s] iter(%i)
    }
    kda.lds_barrier
  }
  return
}
