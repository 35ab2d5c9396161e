// Class 5 of issue 10: copies past the trip count, of every kind, with or
// without a trip_count attribute. A copy of a tile no iteration reads is a
// copy beyond the trip count (R4); one that spills into bytes reused
// afterwards with no barrier between is also a race (R3).
// RUN: kda-opt %s -split-input-file -verify-diagnostics --kda-verify-pipeline

// No trip_count attribute: the loop stores one tile too many through
// registers, and @w reuses those bytes right after the loop.
kda.lds_buffer @u slots(2) slot_bytes(4096) offset(0)
kda.lds_buffer @w slots(1) slot_bytes(4096) offset(0)
func.func @staged_one_too_many() {
  // expected-error @+1 {{R3: the register-staged copy of iteration 0 into @w slot 0 races the register-staged copy of iteration 2 into @u slot 0 (bytes [0, 4096)): no barrier orders them; no iteration reads that tile, a copy beyond the trip count (pipeline 'u' at depth 2)}}
  kda.schedule "u" depth(2) target("gfx942") {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    kda.staged_copy @u[%c0] iter(%c0)
    scf.for %i = %c0 to %c2 step %c1 {
      kda.lds_barrier
      %s = kda.ring_slot %i of @u
      kda.lds_read @u[%s] iter(%i)
      %n = arith.addi %i, %c1 : index
      %sn = kda.ring_slot %n of @u
      kda.staged_copy @u[%sn] iter(%n)
    }
    kda.staged_copy @w[%c0] iter(%c0)
    kda.lds_barrier
    kda.lds_read @w[%c0] iter(%c0)
    kda.lds_barrier
  }
  return
}

// -----

// The same stray store, fenced: no race, but still a copy beyond the trip
// count (R4).
kda.lds_buffer @u slots(2) slot_bytes(4096) offset(0)
func.func @staged_one_too_many_fenced() {
  // expected-error @+1 {{R4: the register-staged copy of iteration 2 into @u slot 0 is never read: no iteration consumes that tile, so the copy lies beyond the trip count and must be predicated off (pipeline 'fenced' at depth 2)}}
  kda.schedule "fenced" depth(2) target("gfx942") {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    kda.staged_copy @u[%c0] iter(%c0)
    scf.for %i = %c0 to %c2 step %c1 {
      kda.lds_barrier
      %s = kda.ring_slot %i of @u
      kda.lds_read @u[%s] iter(%i)
      %n = arith.addi %i, %c1 : index
      %sn = kda.ring_slot %n of @u
      kda.staged_copy @u[%sn] iter(%n)
    }
    kda.lds_barrier
  }
  return
}

// -----

// An async prologue copy past a trip count of 1 that is waited for and
// fenced: landed, but never read (R4, no attribute needed).
kda.lds_buffer @u slots(2) slot_bytes(4096) offset(0)
func.func @async_prologue_drained() {
  // expected-error @+1 {{R4: the async copy of iteration 1 into @u slot 1 is never read: no iteration consumes that tile, so the copy lies beyond the trip count and must be predicated off (pipeline 'drained' at depth 2)}}
  kda.schedule "drained" depth(2) target("gfx950") {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    kda.async_copy @u[%c0] iter(%c0)
    kda.async_copy @u[%c1] iter(%c1)
    kda.async_wait 1
    kda.lds_barrier
    kda.lds_read @u[%c0] iter(%c0)
    kda.async_wait 0
    kda.lds_barrier
  }
  return
}

// -----

// With the attribute, a staged copy at the trip count is R4 at its issue.
kda.lds_buffer @u slots(2) slot_bytes(4096) offset(0)
func.func @staged_beyond_attribute() {
  // expected-error @+1 {{R4: the copy of iteration 2 into @u slot 0 is issued beyond the trip count 2 and is not predicated off (pipeline 'attr' at depth 2)}}
  kda.schedule "attr" trip_count(2) depth(2) target("gfx942") {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    kda.staged_copy @u[%c0] iter(%c0)
    scf.for %i = %c0 to %c2 step %c1 {
      kda.lds_barrier
      %s = kda.ring_slot %i of @u
      kda.lds_read @u[%s] iter(%i)
      %n = arith.addi %i, %c1 : index
      %sn = kda.ring_slot %n of @u
      kda.staged_copy @u[%sn] iter(%n)
    }
    kda.lds_barrier
  }
  return
}

// -----

// Safe: the last store predicated off, and @w reusing the bytes after a
// drained barrier.
kda.lds_buffer @u slots(2) slot_bytes(4096) offset(0)
kda.lds_buffer @w slots(1) slot_bytes(4096) offset(0)
func.func @predicated_off() {
  kda.schedule "u" depth(2) target("gfx942") {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    kda.staged_copy @u[%c0] iter(%c0)
    scf.for %i = %c0 to %c2 step %c1 {
      kda.lds_barrier
      %s = kda.ring_slot %i of @u
      kda.lds_read @u[%s] iter(%i)
      %n = arith.addi %i, %c1 : index
      %p = arith.cmpi slt, %n, %c2 : index
      %sn = kda.ring_slot %n of @u
      kda.staged_copy @u[%sn] iter(%n) if(%p)
    }
    kda.lds_barrier
    kda.staged_copy @w[%c0] iter(%c0)
    kda.lds_barrier
    kda.lds_read @w[%c0] iter(%c0)
    kda.lds_barrier
  }
  return
}
