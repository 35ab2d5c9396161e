// A schedule hands LDS on quiescent: every write behind a barrier, every
// copied tile read from the slot it was copied into.
// RUN: kda-opt %s -split-input-file -verify-diagnostics --kda-verify-pipeline

// The seed configuration in disguise: the u-loop of two iterations at
// depth 4 whose third prologue copy is clamped to iteration 1 (so some read
// names iteration 1, but never in slot 2), ending with async_wait 0 and no
// barrier, then schedule w writing the same bytes. A schedule must end
// with every write behind a barrier (R3); the tiles reads consume are keyed
// by slot too.
kda.lds_buffer @u slots(4) slot_bytes(8192) offset(0)
kda.lds_buffer @w slots(4) slot_bytes(8192) offset(0)
func.func @recompute_w_u_clamped() {
  // expected-error @+1 {{R3: the async copy of iteration 1 into @u slot 2 is not behind a barrier when the schedule ends: a later write of bytes [16384, 24576) would race it}}
  kda.schedule "u" trip_count(2) depth(4) target("gfx950") {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    kda.async_copy @u[%c0] iter(%c0)
    kda.async_copy @u[%c1] iter(%c1)
    %tm1 = arith.subi %c2, %c1 : index
    %it2 = arith.minui %c2, %tm1 : index
    kda.async_copy @u[%c2] iter(%it2)
    scf.for %i = %c0 to %c2 step %c1 {
      %k = arith.subi %c2, %i : index
      %is0 = arith.cmpi eq, %i, %c0 : index
      scf.if %is0 {
        kda.async_wait 2
      } else {
        kda.async_wait 1
      }
      kda.lds_barrier
      %s = kda.ring_slot %i of @u
      kda.lds_read @u[%s] iter(%i)
    }
    kda.lds_barrier
    kda.async_wait 0
  }
  kda.schedule "w" trip_count(1) depth(1) target("gfx950") {
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    kda.staged_copy @w[%c2] iter(%c0)
    kda.lds_barrier
    kda.lds_read @w[%c2] iter(%c0)
    kda.lds_barrier
  }
  return
}

// -----

// With a barrier at its end, the same schedule still copies iteration 1
// into slot 2, where no read looks: R4 keys the tiles reads consume by
// slot, not only by iteration.
kda.lds_buffer @u slots(4) slot_bytes(8192) offset(0)
kda.lds_buffer @w slots(4) slot_bytes(8192) offset(0)
func.func @recompute_w_u_clamped() {
  // expected-error @+1 {{R4: the async copy of iteration 1 into @u slot 2 is never read: no iteration consumes that tile, so the copy lies beyond the trip count and must be predicated off}}
  kda.schedule "u" trip_count(2) depth(4) target("gfx950") {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    kda.async_copy @u[%c0] iter(%c0)
    kda.async_copy @u[%c1] iter(%c1)
    %tm1 = arith.subi %c2, %c1 : index
    %it2 = arith.minui %c2, %tm1 : index
    kda.async_copy @u[%c2] iter(%it2)
    scf.for %i = %c0 to %c2 step %c1 {
      %k = arith.subi %c2, %i : index
      %is0 = arith.cmpi eq, %i, %c0 : index
      scf.if %is0 {
        kda.async_wait 2
      } else {
        kda.async_wait 1
      }
      kda.lds_barrier
      %s = kda.ring_slot %i of @u
      kda.lds_read @u[%s] iter(%i)
    }
    kda.lds_barrier
    kda.async_wait 0
    kda.lds_barrier
  }
  kda.schedule "w" trip_count(1) depth(1) target("gfx950") {
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    kda.staged_copy @w[%c2] iter(%c0)
    kda.lds_barrier
    kda.lds_read @w[%c2] iter(%c0)
    kda.lds_barrier
  }
  return
}

// -----

// A register-staged duplicate of the last tile with no barrier after it,
// then another schedule's store over the same bytes (R3).
kda.lds_buffer @u slots(2) slot_bytes(4096) offset(0)
kda.lds_buffer @w slots(2) slot_bytes(4096) offset(0)
func.func @staged_dup_tail() {
  // expected-error @+1 {{R3: the register-staged copy of iteration 1 into @u slot 0 is not behind a barrier when the schedule ends: a later write of bytes [0, 4096) would race it}}
  kda.schedule "u" trip_count(2) depth(2) target("gfx942") {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    kda.staged_copy @u[%c0] iter(%c0)
    scf.for %i = %c0 to %c2 step %c1 {
      kda.lds_barrier
      %s = kda.ring_slot %i of @u
      kda.lds_read @u[%s] iter(%i)
      kda.lds_barrier
      %n = arith.addi %i, %c1 : index
      %m = arith.minui %n, %c1 : index
      %sn = kda.ring_slot %n of @u
      kda.staged_copy @u[%sn] iter(%m)
    }
  }
  kda.schedule "w" trip_count(1) depth(1) target("gfx942") {
    %c0 = arith.constant 0 : index
    kda.staged_copy @w[%c0] iter(%c0)
    kda.lds_barrier
    kda.lds_read @w[%c0] iter(%c0)
    kda.lds_barrier
  }
  return
}
