// Edges of the slot and predicate arithmetic the verifier evaluates:
// residues of values that change sign, and 64-bit division's overflow.
// RUN: kda-opt %s -split-input-file -verify-diagnostics --kda-verify-pipeline

// The last wait is skipped when remsi(T - 40, 2) == 1: a truncated residue
// of a moving value repeats only while the value keeps its sign, so the
// proof's zones lie past T = 40 and it finds T = 41.
kda.lds_buffer @h slots(2) slot_bytes(4096) offset(0)
func.func @remsi_cross_zero(%t: index) {
  // expected-error @+1 {{R1: iteration 40 reads @h slot 0 before any wait covers its async copy}}
  kda.schedule "rem" dynamic_trip_count(%t) depth(2) target("sm_90") {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c40 = arith.constant 40 : index
    %p0 = arith.cmpi slt, %c0, %t : index
    kda.async_copy @h[%c0] iter(%c0) if(%p0)
    %x = arith.subi %t, %c40 : index
    %r = arith.remsi %x, %c2 : index
    %skip = arith.cmpi eq, %r, %c1 : index
    scf.for %i = %c0 to %t step %c1 {
      %last = arith.addi %i, %c1 : index
      %isLast = arith.cmpi eq, %last, %t : index
      %bad = arith.andi %isLast, %skip : i1
      %good = arith.xori %bad, %isLast : i1
      %notLast = arith.cmpi ne, %last, %t : index
      %w = arith.ori %good, %notLast : i1
      scf.if %w {
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
    kda.async_wait 0
    kda.lds_barrier
  }
  return
}

// -----

// The same with an unsigned residue of T - 100 (huge below T = 100).
kda.lds_buffer @h slots(2) slot_bytes(4096) offset(0)
func.func @remui_cross_zero(%t: index) {
  // expected-error @+1 {{R1: iteration 100 reads @h slot 0 before any wait covers its async copy}}
  kda.schedule "remu" dynamic_trip_count(%t) depth(2) target("sm_90") {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %c100 = arith.constant 100 : index
    %c7 = arith.constant 7 : index
    %p0 = arith.cmpi slt, %c0, %t : index
    kda.async_copy @h[%c0] iter(%c0) if(%p0)
    // x = T - 100; y = remui(x, 3) - remsi(x, 3) is 0 for T >= 100 and
    // nonzero for most T < 100: skip the final wait only when y == 0 and
    // T > 7 would be caught by the horizon; use remui vs floor instead:
    %x = arith.subi %t, %c100 : index
    %ru = arith.remui %x, %c3 : index
    %rs = arith.remsi %x, %c3 : index
    %same = arith.cmpi eq, %ru, %rs : index
    %nz = arith.cmpi ne, %rs, %c0 : index
    %drop = arith.andi %same, %nz : i1
    scf.for %i = %c0 to %t step %c1 {
      %n = arith.addi %i, %c1 : index
      %last = arith.cmpi eq, %n, %t : index
      %dl = arith.andi %last, %drop : i1
      %true = arith.constant true
      %w = arith.xori %dl, %true : i1
      scf.if %w {
        kda.async_wait 0
      }
      kda.lds_barrier
      %s = kda.ring_slot %i of @h
      kda.lds_read @h[%s] iter(%i)
      %p = arith.cmpi slt, %n, %t : index
      %sn = kda.ring_slot %n of @h
      kda.async_copy @h[%sn] iter(%n) if(%p)
    }
    kda.async_wait 0
    kda.lds_barrier
  }
  return
}

// -----

// remsi(INT64_MIN, -1) overflows: undefined for arith (and LLVM's srem),
// not 0 (it trapped the evaluator once, then was read as 0).
kda.lds_buffer @m slots(2) slot_bytes(4096) offset(0)
func.func @minint_rem() {
  // expected-error @+1 {{R0: cannot analyse arith.remsi: it divides the smallest signed value by -1, which is undefined (not a wrap)}}
  kda.schedule "minint" trip_count(1) depth(1) target("sm_90") {
    %c0 = arith.constant 0 : index
    %c = arith.constant -9223372036854775808 : index
    %m1 = arith.constant -1 : index
    %s = arith.remsi %c, %m1 : index
    kda.staged_copy @m[%s] iter(%c0)
    kda.lds_barrier
    kda.lds_read @m[%s] iter(%c0)
    kda.lds_barrier
  }
  return
}

// -----

// divsi(INT64_MIN, -1) overflows: undefined, not a wrap to INT64_MIN.
kda.lds_buffer @m slots(2) slot_bytes(4096) offset(0)
func.func @minint_rem() {
  // expected-error @+1 {{R0: cannot analyse arith.divsi: it divides the smallest signed value by -1, which is undefined (not a wrap)}}
  kda.schedule "minint" trip_count(1) depth(1) target("sm_90") {
    %c0 = arith.constant 0 : index
    %c = arith.constant -9223372036854775808 : index
    %m1 = arith.constant -1 : index
    %s = arith.divsi %c, %m1 : index
    kda.staged_copy @m[%s] iter(%c0)
    kda.lds_barrier
    kda.lds_read @m[%s] iter(%c0)
    kda.lds_barrier
  }
  return
}

// -----

// An i8 counter from 0 to 120 by 100 steps from 100 to 200, which wraps to
// -56: the loop runs on (-56, 44, -112, ...), trips the 64-bit run would
// not see. R0; the same loop to 27 (one trip, its step ends at 100) is
// interpreted.
kda.lds_buffer @r slots(1) slot_bytes(1024) offset(0)
func.func @i8_counter_wraps() {
  // expected-error @+1 {{R0: cannot analyse scf.for: its i8 counter steps from its last trip, 100, to 200, past the largest i8 value 127: it wraps and the loop runs on past its bound}}
  kda.schedule "w" depth(1) target("sm_90") {
    %b0 = arith.constant 0 : i8
    %b120 = arith.constant 120 : i8
    %b100 = arith.constant 100 : i8
    scf.for %j = %b0 to %b120 step %b100 : i8 {
      %i = arith.index_cast %j : i8 to index
      %s = kda.ring_slot %i of @r
      kda.async_copy @r[%s] iter(%i)
      kda.async_wait 0
      kda.lds_barrier
      kda.lds_read @r[%s] iter(%i)
      kda.lds_barrier
    }
  }
  return
}

// -----

kda.lds_buffer @r slots(1) slot_bytes(1024) offset(0)
func.func @i8_counter_fits() {
  kda.schedule "w" depth(1) target("sm_90") {
    %b0 = arith.constant 0 : i8
    %b27 = arith.constant 27 : i8
    %b100 = arith.constant 100 : i8
    scf.for %j = %b0 to %b27 step %b100 : i8 {
      %i = arith.index_cast %j : i8 to index
      %s = kda.ring_slot %i of @r
      kda.async_copy @r[%s] iter(%i)
      kda.async_wait 0
      kda.lds_barrier
      kda.lds_read @r[%s] iter(%i)
      kda.lds_barrier
    }
  }
  return
}
