// Class 2 of issue 10: dynamic trip counts are proven, not sampled. The
// verifier runs every trip count below a bound and, at the bound, shows that
// the abstract state of the loop to T repeats (passes/PIPELINE-MODEL.md);
// the bound grows with the distances the schedule's decisions depend on, so
// a hazard that appears only for long loops is found at its first trip
// count. What cannot be shown periodic is R0.
// RUN: kda-opt %s -split-input-file -verify-diagnostics --kda-verify-pipeline

// The wait is skipped from iteration 40 on: safe for every T <= 40, a race
// from T = 41 (the old check sampled T <= 7).
kda.lds_buffer @h slots(2) slot_bytes(4096) offset(0)
func.func @late_hazard(%t: index) {
  // expected-error @+1 {{R1: iteration 40 reads @h slot 0 before any wait covers its async copy (pipeline 'late' at depth 2, trip count 41)}}
  kda.schedule "late" dynamic_trip_count(%t) depth(2) target("sm_90") {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c40 = arith.constant 40 : index
    %p0 = arith.cmpi slt, %c0, %t : index
    kda.async_copy @h[%c0] iter(%c0) if(%p0)
    scf.for %i = %c0 to %t step %c1 {
      %early = arith.cmpi slt, %i, %c40 : index
      scf.if %early {
        kda.async_wait 0
      }
      kda.lds_barrier
      %s = kda.ring_slot %i of @h
      kda.lds_read @h[%s] iter(%i)
      %n = arith.addi %i, %c1 : index
      %p = arith.cmpi slt, %n, %t : index
      %sn = kda.ring_slot %n of @h
      kda.async_copy @h[%sn] iter(%n) if(%p)
    }
    kda.lds_barrier
  }
  return
}

// -----

// A hazard tied to the distance from the end: 30 iterations before the end,
// the tile being read is copied again into its own slot (found from T = 30).
kda.lds_buffer @h slots(2) slot_bytes(4096) offset(0)
func.func @hazard_far_from_end(%t: index) {
  // expected-error @+1 {{R2: the copy of iteration 0 into @h slot 0 may overwrite iteration 0's tile still being read from @h slot 0: no drained barrier lies between them (pipeline 'tail' at depth 2, trip count 30)}}
  kda.schedule "tail" dynamic_trip_count(%t) depth(2) target("sm_90") {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c30 = arith.constant 30 : index
    %p0 = arith.cmpi slt, %c0, %t : index
    kda.async_copy @h[%c0] iter(%c0) if(%p0)
    scf.for %i = %c0 to %t step %c1 {
      kda.async_wait 0
      kda.lds_barrier
      %s = kda.ring_slot %i of @h
      kda.lds_read @h[%s] iter(%i)
      %n = arith.addi %i, %c1 : index
      %p = arith.cmpi slt, %n, %t : index
      %sn = kda.ring_slot %n of @h
      kda.async_copy @h[%sn] iter(%n) if(%p)
      // Re-copies the tile just read, in place, 30 iterations before the end.
      %back = arith.addi %i, %c30 : index
      %far = arith.cmpi eq, %back, %t : index
      kda.async_copy @h[%s] iter(%i) if(%far)
    }
    kda.async_wait 0
    kda.lds_barrier
  }
  return
}

// -----

// Iterations that grow twice as fast as the counter cannot be shown periodic.
kda.lds_buffer @h slots(2) slot_bytes(4096) offset(0)
func.func @scaled_counter(%t: index) {
  // expected-error @+1 {{R0: cannot analyse arith.muli: it scales a value that moves with the trip count (an operand of kda.staged_copy) (pipeline 'scaled' at depth 2, trip count 1)}}
  kda.schedule "scaled" dynamic_trip_count(%t) depth(2) target("sm_90") {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    scf.for %i = %c0 to %t step %c1 {
      %j = arith.muli %i, %c2 : index
      %s = kda.ring_slot %j of @h
      kda.lds_barrier
      kda.staged_copy @h[%s] iter(%j)
      kda.lds_barrier
      kda.lds_read @h[%s] iter(%j)
    }
    kda.lds_barrier
  }
  return
}

// -----

// Safe for every T but its state grows with T (one more empty group each
// iteration, never waited for): no bounded prefix covers every trip count.
kda.lds_buffer @h slots(2) slot_bytes(4096) offset(0)
func.func @growing_state(%t: index) {
  // expected-error-re @+1 {{R0: cannot analyse the loop to the dynamic trip count: its abstract state does not repeat with period 2 at trip count {{[0-9]+}}, so no bounded prefix covers every trip count (pipeline 'growing' at depth 2)}}
  kda.schedule "growing" dynamic_trip_count(%t) depth(2) target("sm_90") {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %false = arith.constant false
    %p0 = arith.cmpi slt, %c0, %t : index
    kda.staged_copy @h[%c0] iter(%c0) if(%p0)
    kda.lds_barrier
    scf.for %i = %c0 to %t step %c1 {
      kda.lds_read @h[%c0] iter(%c0)
      %s = kda.ring_slot %i of @h
      kda.async_copy @h[%s] iter(%i) if(%false)
    }
    kda.lds_barrier
  }
  return
}

// -----

// Safe: a hand-written 3-stage ring over a dynamic trip count whose slots are
// i & 3 in a 4-slot ring, the last iteration peeled (T - 1), the loop bound
// T - 1 (empty for T <= 1).
kda.lds_buffer @h slots(4) slot_bytes(4096) offset(0)
func.func @peeled_last(%t: index) {
  kda.schedule "peeled" dynamic_trip_count(%t) depth(3) target("sm_90") {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %p0 = arith.cmpi slt, %c0, %t : index
    kda.async_copy @h[%c0] iter(%c0) if(%p0)
    %p1 = arith.cmpi slt, %c1, %t : index
    kda.async_copy @h[%c1] iter(%c1) if(%p1)
    %last = arith.subi %t, %c1 : index
    scf.for %i = %c0 to %last step %c1 {
      kda.async_wait 1
      kda.lds_barrier
      %s = arith.andi %i, %c3 : index
      kda.lds_read @h[%s] iter(%i)
      %n = arith.addi %i, %c2 : index
      %p = arith.cmpi slt, %n, %t : index
      %sn = arith.andi %n, %c3 : index
      kda.async_copy @h[%sn] iter(%n) if(%p)
    }
    %any = arith.cmpi sgt, %t, %c0 : index
    scf.if %any {
      kda.async_wait 0
      kda.lds_barrier
      %s = arith.andi %last, %c3 : index
      kda.lds_read @h[%s] iter(%last)
    }
    kda.async_wait 0
    kda.lds_barrier
  }
  return
}
