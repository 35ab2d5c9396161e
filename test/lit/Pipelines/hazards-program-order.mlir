// Class 3 of issue 10: the latest write into a slot is the last one in
// program order, whatever its kind (async copy or register-staged store).
// RUN: kda-opt %s -split-input-file -verify-diagnostics --kda-verify-pipeline

// A later async copy replaced the staged tile the read names.
kda.lds_buffer @r slots(2) slot_bytes(4096) offset(0)
func.func @async_replaced_staged() {
  // expected-error @+1 {{R2: iteration 0 reads @r slot 0, but the copy of iteration 2 has already replaced its tile (pipeline 'replaced' at depth 2)}}
  kda.schedule "replaced" trip_count(3) depth(2) target("gfx950") {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    kda.staged_copy @r[%c0] iter(%c0)
    kda.async_copy @r[%c1] iter(%c1)
    kda.lds_barrier
    kda.async_copy @r[%c0] iter(%c2)
    kda.async_wait 0
    kda.lds_barrier
    kda.lds_read @r[%c0] iter(%c0)
    kda.lds_read @r[%c1] iter(%c1)
    kda.lds_read @r[%c0] iter(%c2)
    kda.lds_barrier
  }
  return
}

// -----

// A later staged store replaced the async tile the read names.
kda.lds_buffer @r slots(2) slot_bytes(4096) offset(0)
func.func @staged_replaced_async() {
  // expected-error @+1 {{R2: iteration 1 reads @r slot 1, but the copy of iteration 3 has already replaced its tile (pipeline 'staged_later' at depth 2)}}
  kda.schedule "staged_later" trip_count(4) depth(2) target("gfx950") {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    kda.async_copy @r[%c0] iter(%c0)
    kda.async_copy @r[%c1] iter(%c1)
    kda.async_wait 0
    kda.lds_barrier
    kda.lds_read @r[%c0] iter(%c0)
    kda.lds_barrier
    kda.staged_copy @r[%c0] iter(%c2)
    kda.staged_copy @r[%c1] iter(%c3)
    kda.lds_barrier
    kda.lds_read @r[%c1] iter(%c1)
    kda.lds_read @r[%c0] iter(%c2)
    kda.lds_read @r[%c1] iter(%c3)
    kda.lds_barrier
  }
  return
}

// -----

// A staged store into a slot whose async copy is still in flight.
kda.lds_buffer @r slots(2) slot_bytes(4096) offset(0)
func.func @staged_over_in_flight() {
  // expected-error @+1 {{R2: the register-staged copy of iteration 2 into @r slot 0 is issued while the copy of iteration 0 into @r slot 0 is still in flight (pipeline 'in_flight' at depth 2)}}
  kda.schedule "in_flight" trip_count(3) depth(2) target("gfx950") {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    kda.async_copy @r[%c0] iter(%c0)
    kda.staged_copy @r[%c0] iter(%c2)
    kda.async_wait 0
    kda.lds_barrier
    kda.lds_read @r[%c0] iter(%c2)
    kda.lds_barrier
  }
  return
}

// -----

// Safe: the first tile is staged through registers, the others are copied
// asynchronously into the same ring (the old check took the staged tile for
// the latest and rejected this "backwards").
kda.lds_buffer @r slots(2) slot_bytes(4096) offset(0)
func.func @first_staged_rest_async() {
  kda.schedule "mixed" trip_count(6) depth(2) target("gfx950") {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c6 = arith.constant 6 : index
    kda.staged_copy @r[%c0] iter(%c0)
    scf.for %i = %c0 to %c6 step %c1 {
      kda.async_wait 0
      kda.lds_barrier
      %s = kda.ring_slot %i of @r
      kda.lds_read @r[%s] iter(%i)
      %n = arith.addi %i, %c1 : index
      %p = arith.cmpi slt, %n, %c6 : index
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

// Safe: async copies first, then the last tiles staged after a wait and a
// drained barrier.
kda.lds_buffer @r slots(2) slot_bytes(4096) offset(0)
func.func @async_then_staged() {
  kda.schedule "async_then_staged" trip_count(4) depth(2) target("gfx950") {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    kda.async_copy @r[%c0] iter(%c0)
    kda.async_copy @r[%c1] iter(%c1)
    kda.async_wait 0
    kda.lds_barrier
    kda.lds_read @r[%c0] iter(%c0)
    kda.lds_read @r[%c1] iter(%c1)
    kda.lds_barrier
    kda.staged_copy @r[%c0] iter(%c2)
    kda.staged_copy @r[%c1] iter(%c3)
    kda.lds_barrier
    kda.lds_read @r[%c0] iter(%c2)
    kda.lds_read @r[%c1] iter(%c3)
    kda.lds_barrier
  }
  return
}
