// Class 9 of issue 10: which threads issue a copy. `{issuers = "wave0"}` copies
// (gfx950: wave 0 issues each row's global_load_lds) are groups of the first
// wave only: the other waves' waits pass at once, and every wait counts the
// groups of the thread that runs it, so a read is safe only after the
// issuers' wait and a barrier.
// RUN: kda-opt %s -split-input-file -verify-diagnostics --kda-verify-pipeline
// RUN: kda-opt %s -split-input-file --kda-expand-pipeline=target=gfx950 2>/dev/null | FileCheck %s --check-prefix=EXPAND

// Mixed issuers: @a by every thread, @b by wave 0 only. The counts are
// right for wave 0 (wait 2 lets a1, b1 stay) but the other waves only have
// @a's groups: for them wait 2 leaves a0 outstanding.
kda.lds_buffer @a slots(2) slot_bytes(4096) offset(0)
kda.lds_buffer @b slots(2) slot_bytes(4096) offset(8192)
func.func @count_of_the_wrong_threads() {
  // expected-error @+1 {{R5: iteration 0 reads @a slot 0, but the last wait (count 2) leaves its copy outstanding in the waves other than the first: the count is too high (pipeline 'mixed' at depth 2)}}
  kda.schedule "mixed" trip_count(2) depth(2) target("gfx950") {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    kda.async_copy @a[%c0] iter(%c0)
    kda.async_copy @b[%c0] iter(%c0) {issuers = "wave0"}
    kda.async_copy @a[%c1] iter(%c1)
    kda.async_copy @b[%c1] iter(%c1) {issuers = "wave0"}
    kda.async_wait 2
    kda.lds_barrier
    kda.lds_read @a[%c0] iter(%c0)
    kda.lds_read @b[%c0] iter(%c0)
    kda.async_wait 1
    kda.lds_barrier
    kda.lds_read @a[%c1] iter(%c1)
    kda.lds_read @b[%c1] iter(%c1)
    kda.async_wait 0
    kda.lds_barrier
  }
  return
}

// -----

// A wave-0 copy read right after the wait: the other waves' waits passed at
// once, only a barrier orders them after wave 0's.
kda.lds_buffer @r slots(1) slot_bytes(4096) offset(0)
func.func @no_barrier_after_issuers_wait() {
  // expected-error @+1 {{R1: iteration 0 reads @r slot 0 after the wait but with no barrier since: other threads' parts of the copy may not have landed (pipeline 'wave0' at depth 1)}}
  kda.schedule "wave0" trip_count(1) depth(1) target("gfx950") {
    %c0 = arith.constant 0 : index
    kda.async_copy @r[%c0] iter(%c0) {issuers = "wave0"}
    kda.async_wait 0
    kda.lds_read @r[%c0] iter(%c0)
    kda.lds_barrier
  }
  return
}

// -----

// A thread set the model does not track.
kda.lds_buffer @r slots(1) slot_bytes(4096) offset(0)
func.func @unknown_issuers() {
  // expected-error @+1 {{R0: cannot analyse kda.async_copy: issuers 'wave1' is not a thread set the model tracks (all, wave0) (pipeline 'odd' at depth 1)}}
  kda.schedule "odd" trip_count(1) depth(1) target("gfx950") {
    %c0 = arith.constant 0 : index
    kda.async_copy @r[%c0] iter(%c0) {issuers = "wave1"}
    kda.async_wait 0
    kda.barrier
    kda.lds_read @r[%c0] iter(%c0)
    kda.lds_barrier
  }
  return
}

// -----

// Safe: the same mixed ring with counts right for every thread - wave 0
// waits for its b group too, the others for their a group.
kda.lds_buffer @a slots(2) slot_bytes(4096) offset(0)
kda.lds_buffer @b slots(2) slot_bytes(4096) offset(8192)
func.func @mixed_counts_right() {
  kda.schedule "mixed_ok" trip_count(2) depth(2) target("gfx950") {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    kda.async_copy @a[%c0] iter(%c0)
    kda.async_copy @b[%c0] iter(%c0) {issuers = "wave0"}
    kda.async_copy @a[%c1] iter(%c1)
    kda.async_copy @b[%c1] iter(%c1) {issuers = "wave0"}
    kda.async_wait 1
    kda.lds_barrier
    kda.lds_read @a[%c0] iter(%c0)
    kda.lds_read @b[%c0] iter(%c0)
    kda.async_wait 0
    kda.lds_barrier
    kda.lds_read @a[%c1] iter(%c1)
    kda.lds_read @b[%c1] iter(%c1)
    kda.lds_barrier
  }
  return
}

// -----

// Safe: the gfx950 token ring - wave 0 issues, every thread waits and meets
// at the drained barrier before reading - over a dynamic trip count.
kda.lds_buffer @t slots(3) slot_bytes(3072) offset(0)
func.func @wave0_ring(%n: index) {
  kda.schedule "tokens" dynamic_trip_count(%n) depth(3) target("gfx950") {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %p0 = arith.cmpi slt, %c0, %n : index
    kda.async_copy @t[%c0] iter(%c0) if(%p0) {issuers = "wave0"}
    %p1 = arith.cmpi slt, %c1, %n : index
    kda.async_copy @t[%c1] iter(%c1) if(%p1) {issuers = "wave0"}
    scf.for %i = %c0 to %n step %c1 {
      kda.async_wait 1
      kda.lds_barrier
      %s = kda.ring_slot %i of @t
      kda.lds_read @t[%s] iter(%i)
      %x = arith.addi %i, %c2 : index
      %p = arith.cmpi slt, %x, %n : index
      %sx = kda.ring_slot %x of @t
      kda.async_copy @t[%sx] iter(%x) if(%p) {issuers = "wave0"}
    }
    // gfx950: the predicated-off copies' loads landed in the sink slot.
    kda.async_wait 0
    kda.lds_barrier
  }
  return
}

// -----

// The expansion carries a producer's issuers to its copies.
// EXPAND-LABEL: func.func @expand_wave0
// EXPAND: kda.async_copy @w[%{{.*}}] iter(%{{.*}}) {issuers = "wave0"}
// EXPAND: scf.for
// EXPAND: kda.async_copy @w[%{{.*}}] iter(%{{.*}}) {issuers = "wave0"}
kda.lds_buffer @w slots(1) slot_bytes(4096) offset(0)
func.func @expand_wave0() {
  kda.pipeline "w" trip_count(4) depth(2) {
    kda.produce @w async stage(0) {issuers = "wave0"}
    kda.consume @w stage(1)
  }
  return
}
