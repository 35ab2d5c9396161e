// Class 1 of issue 10: whatever the hazard model cannot interpret is rejected
// with R0 "cannot analyse", naming the op - never skipped. Region ops other
// than scf.for and scf.if (scf.while, scf.execute_region, scf.index_switch)
// and ops it does not know (a call, gpu.barrier, an L2 prefetch hint)
// inside a schedule; loops
// with carried values and scf.if with results are interpreted.
// RUN: kda-opt %s -split-input-file -verify-diagnostics --kda-verify-pipeline

// A read before any wait, hidden in scf.while.
kda.lds_buffer @h slots(2) slot_bytes(4096) offset(0)
func.func @in_while() {
  // expected-error @+1 {{R0: cannot analyse scf.while: the hazard model interprets only scf.for and scf.if regions inside a schedule (pipeline 'while' at depth 2)}}
  kda.schedule "while" trip_count(4) depth(2) target("gfx950") {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %s0 = kda.ring_slot %c0 of @h
    kda.async_copy @h[%s0] iter(%c0)
    %r = scf.while (%i = %c0) : (index) -> index {
      %go = arith.cmpi slt, %i, %c4 : index
      scf.condition(%go) %i : index
    } do {
    ^bb0(%i: index):
      %s = kda.ring_slot %i of @h
      kda.lds_read @h[%s] iter(%i)
      %n = arith.addi %i, %c1 : index
      scf.yield %n : index
    }
    kda.lds_barrier
  }
  return
}

// -----

// A wrong wait count, hidden in scf.execute_region.
kda.lds_buffer @h slots(2) slot_bytes(4096) offset(0)
func.func @in_execute_region() {
  // expected-error @+1 {{R0: cannot analyse scf.execute_region: the hazard model interprets only scf.for and scf.if regions inside a schedule (pipeline 'exec' at depth 2)}}
  kda.schedule "exec" trip_count(2) depth(2) target("gfx950") {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %s0 = kda.ring_slot %c0 of @h
    kda.async_copy @h[%s0] iter(%c0)
    %s1 = kda.ring_slot %c1 of @h
    kda.async_copy @h[%s1] iter(%c1)
    scf.execute_region {
      kda.async_wait 2
      kda.lds_barrier
      kda.lds_read @h[%s0] iter(%c0)
      scf.yield
    }
    kda.async_wait 0
    kda.lds_barrier
    kda.lds_read @h[%s1] iter(%c1)
    kda.lds_barrier
  }
  return
}

// -----

// scf.index_switch picks a slot: unmodelled as well.
kda.lds_buffer @h slots(2) slot_bytes(4096) offset(0)
func.func @in_switch() {
  // expected-error @+1 {{R0: cannot analyse scf.index_switch: the hazard model interprets only scf.for and scf.if regions inside a schedule (pipeline 'switch' at depth 1)}}
  kda.schedule "switch" trip_count(1) depth(1) target("gfx942") {
    %c0 = arith.constant 0 : index
    scf.index_switch %c0
    case 0 {
      kda.staged_copy @h[%c0] iter(%c0)
      scf.yield
    }
    default {
    }
    kda.lds_barrier
    kda.lds_read @h[%c0] iter(%c0)
    kda.lds_barrier
  }
  return
}

// -----

// An op the model does not know: a call may touch LDS.
kda.lds_buffer @h slots(1) slot_bytes(4096) offset(0)
func.func private @helper()
func.func @call_inside() {
  // expected-error @+1 {{R0: cannot analyse func.call: not a schedule operation the hazard model knows (copies, waits, drains, barriers, reads, index arithmetic) (pipeline 'call' at depth 1)}}
  kda.schedule "call" trip_count(1) depth(1) target("gfx942") {
    %c0 = arith.constant 0 : index
    kda.staged_copy @h[%c0] iter(%c0)
    kda.lds_barrier
    func.call @helper() : () -> ()
    kda.lds_read @h[%c0] iter(%c0)
    kda.lds_barrier
  }
  return
}

// -----

// gpu.barrier is not one of the schedule's barriers: R0, not a guess.
kda.lds_buffer @h slots(1) slot_bytes(4096) offset(0)
func.func @gpu_barrier_inside() {
  // expected-error @+1 {{R0: cannot analyse gpu.barrier: not a schedule operation the hazard model knows}}
  kda.schedule "gpu_barrier" trip_count(1) depth(1) target("gfx942") {
    %c0 = arith.constant 0 : index
    kda.staged_copy @h[%c0] iter(%c0)
    gpu.barrier
    kda.lds_read @h[%c0] iter(%c0)
    kda.lds_barrier
  }
  return
}

// -----

// Safe: the slot travels as a loop-carried value (0, 1, 0, ...), an scf.if
// yields the predicate, and float arithmetic in between touches no LDS.
kda.lds_buffer @h slots(2) slot_bytes(4096) offset(0)
func.func @carried_slot_is_fine(%x: f32) {
  kda.schedule "carried" trip_count(6) depth(2) target("sm_90") {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c6 = arith.constant 6 : index
    %true = arith.constant true
    %false = arith.constant false
    kda.async_copy @h[%c0] iter(%c0)
    %last = scf.for %i = %c0 to %c6 step %c1 iter_args(%s = %c0) -> (index) {
      kda.async_wait 0
      kda.lds_barrier
      kda.lds_read @h[%s] iter(%i)
      %y = arith.addf %x, %x : f32
      %n = arith.addi %i, %c1 : index
      %more = arith.cmpi slt, %n, %c6 : index
      %p = scf.if %more -> (i1) {
        scf.yield %true : i1
      } else {
        scf.yield %false : i1
      }
      %sn = arith.subi %c1, %s : index
      kda.async_copy @h[%sn] iter(%n) if(%p)
      scf.yield %sn : index
    }
    kda.lds_barrier
  }
  return
}

// -----

// An L2 prefetch hint written at a schedule's level (the chunk scan emits
// its hints inside a read's body, which the model takes as the read): not an
// operation the model knows, so R0, not skipped as harmless.
kda.lds_buffer @h slots(1) slot_bytes(4096) offset(0)
func.func @prefetch_inside(%ws: memref<?xf32>) {
  // expected-error @+1 {{R0: cannot analyse kda.prefetch_row: not a schedule operation the hazard model knows}}
  kda.schedule "prefetch" trip_count(1) depth(1) target("sm_90") {
    %c0 = arith.constant 0 : index
    kda.staged_copy @h[%c0] iter(%c0)
    kda.prefetch_row %ws[%c0] elems(32) : memref<?xf32>
    kda.lds_read @h[%c0] iter(%c0)
    kda.lds_barrier
  }
  return
}

// -----

// LDS events outside any schedule (here in an scf.while of the function) are
// checked by nothing: R0 at each.
kda.lds_buffer @h slots(1) slot_bytes(4096) offset(0)
func.func @outside_schedule(%go: i1) {
  %c0 = arith.constant 0 : index
  scf.while : () -> () {
    scf.condition(%go)
  } do {
    // expected-error @+1 {{R0: cannot analyse kda.lds_read outside a kda.schedule: the hazard model checks schedules only}}
    kda.lds_read @h[%c0] iter(%c0)
    scf.yield
  }
  return
}
