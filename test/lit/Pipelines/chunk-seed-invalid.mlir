// Hand-mutated twins of chunk-seed.mlir's schedules (the chunk scan's row
// pipeline over a sequence of two chunks at depth 4), as a generator that
// repeats fla's recompute_w_u bug would write them: each is rejected with
// R3 or R4 (R2 where the reuse is inside the schedule), naming the buffer,
// slot, iteration and depth.
// RUN: kda-opt %s -split-input-file -verify-diagnostics --kda-verify-pipeline

// The prologue copies chunks 0..2 of a two-chunk sequence, the third not
// predicated off; the ring keeps 4 slots and the next loop's buffer @next
// reuses slot 2's bytes, where the late copy would land (R4).
kda.lds_buffer @rows slots(4) slot_bytes(20480) offset(40960)
kda.lds_buffer @next slots(1) slot_bytes(20480) offset(81920)
func.func @extra_copy_not_predicated() {
  // expected-error @+1 {{R4: the copy of iteration 2 into @rows slot 2 is issued beyond the trip count 2 and is not predicated off (pipeline 'scan_rows' at depth 4)}}
  kda.schedule "scan_rows" trip_count(2) depth(4) target("sm_90") {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %s0 = kda.ring_slot %c0 of @rows
    kda.async_copy @rows[%s0] iter(%c0)
    %s1 = kda.ring_slot %c1 of @rows
    kda.async_copy @rows[%s1] iter(%c1)
    %s2 = kda.ring_slot %c2 of @rows
    kda.async_copy @rows[%s2] iter(%c2)
    kda.async_wait 2
    kda.lds_barrier
    kda.lds_read @rows[%s0] iter(%c0)
    kda.async_wait 1
    kda.lds_barrier
    kda.lds_read @rows[%s1] iter(%c1)
    kda.lds_barrier
    kda.staged_copy @next[%c0] iter(%c0)
    kda.lds_barrier
    kda.lds_read @next[%c0] iter(%c0)
    kda.lds_barrier
  }
  return
}

// -----

// The same two chunks unrolled by a generator that did not declare the trip
// count: nothing waits for the third copy before the loop ends, so it may
// land on whatever the kernel puts in those bytes after the loop (R3: no
// drain before the reuse).
kda.lds_buffer @rows slots(4) slot_bytes(20480) offset(40960)
func.func @no_drain_before_reuse() {
  // expected-error @+1 {{R3: the copy of iteration 2 into @rows slot 2 is still outstanding when the loop ends (pipeline 'scan_rows' at depth 4)}}
  kda.schedule "scan_rows" depth(4) target("sm_90") {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %s0 = kda.ring_slot %c0 of @rows
    kda.async_copy @rows[%s0] iter(%c0)
    %s1 = kda.ring_slot %c1 of @rows
    kda.async_copy @rows[%s1] iter(%c1)
    %s2 = kda.ring_slot %c2 of @rows
    kda.async_copy @rows[%s2] iter(%c2)
    kda.async_wait 2
    kda.lds_barrier
    kda.lds_read @rows[%s0] iter(%c0)
    kda.async_wait 1
    kda.lds_barrier
    kda.lds_read @rows[%s1] iter(%c1)
    kda.lds_barrier
  }
  return
}

// -----

// The same, with the next loop inside the schedule: its copy into @next,
// which reuses slot 2's bytes, is issued while the late copy is in flight.
kda.lds_buffer @rows slots(4) slot_bytes(20480) offset(40960)
kda.lds_buffer @next slots(1) slot_bytes(20480) offset(81920)
func.func @next_loop_reuses_the_bytes() {
  // expected-error @+1 {{R2: the register-staged copy of iteration 0 into @next slot 0 is issued while the copy of iteration 2 into @rows slot 2 is still in flight (pipeline 'scan_rows' at depth 4)}}
  kda.schedule "scan_rows" depth(4) target("sm_90") {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %s0 = kda.ring_slot %c0 of @rows
    kda.async_copy @rows[%s0] iter(%c0)
    %s1 = kda.ring_slot %c1 of @rows
    kda.async_copy @rows[%s1] iter(%c1)
    %s2 = kda.ring_slot %c2 of @rows
    kda.async_copy @rows[%s2] iter(%c2)
    kda.async_wait 2
    kda.lds_barrier
    kda.lds_read @rows[%s0] iter(%c0)
    kda.async_wait 1
    kda.lds_barrier
    kda.lds_read @rows[%s1] iter(%c1)
    kda.lds_barrier
    kda.staged_copy @next[%c0] iter(%c0)
    kda.lds_barrier
    kda.lds_read @next[%c0] iter(%c0)
    kda.lds_barrier
  }
  return
}

// -----

// The scan's dynamic schedule with the loop's copy of chunk i + 3 no longer
// predicated on the chunk existing: a one-chunk sequence already issues the
// copy of chunk 3 (R4, at the trip count the proof found).
kda.lds_buffer @rows slots(4) slot_bytes(20480) offset(40960)
func.func @loop_copy_not_predicated(%chunks: index) {
  // expected-error @+1 {{R4: the copy of iteration 3 into @rows slot 3 is issued beyond the trip count 1 and is not predicated off (pipeline 'scan_rows' at depth 4, trip count 1)}}
  kda.schedule "scan_rows" dynamic_trip_count(%chunks) depth(4) target("sm_90") {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %p0 = arith.cmpi slt, %c0, %chunks : index
    %s0 = kda.ring_slot %c0 of @rows
    kda.async_copy @rows[%s0] iter(%c0) if(%p0)
    %p1 = arith.cmpi slt, %c1, %chunks : index
    %s1 = kda.ring_slot %c1 of @rows
    kda.async_copy @rows[%s1] iter(%c1) if(%p1)
    %p2 = arith.cmpi slt, %c2, %chunks : index
    %s2 = kda.ring_slot %c2 of @rows
    kda.async_copy @rows[%s2] iter(%c2) if(%p2)
    scf.for %i = %c0 to %chunks step %c1 {
      kda.async_wait 2
      kda.lds_barrier
      %s = kda.ring_slot %i of @rows
      kda.lds_read @rows[%s] iter(%i)
      %n = arith.addi %i, %c3 : index
      %sn = kda.ring_slot %n of @rows
      kda.async_copy @rows[%sn] iter(%n)
    }
    kda.lds_barrier
  }
  return
}
