// Dynamic trip counts are checked for every trip count: an unpredicated
// prologue copy is wrong only for short sequences, and the verifier says for
// which (the first).
// RUN: kda-opt %s -verify-diagnostics --kda-verify-pipeline

kda.lds_buffer @h slots(3) slot_bytes(4096) offset(0)
func.func @scan(%t: index) {
  // expected-error @+1 {{R4: the copy of iteration 0 into @h slot 0 is issued beyond the trip count 0 and is not predicated off (pipeline 'scan' at depth 3, trip count 0)}}
  kda.schedule "scan" dynamic_trip_count(%t) depth(3) target("sm_90") {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    scf.for %j = %c0 to %c2 step %c1 {
      %s = kda.ring_slot %j of @h
      kda.async_copy @h[%s] iter(%j)
    }
    scf.for %i = %c0 to %t step %c1 {
      kda.async_wait 1
      kda.lds_barrier
      %s = kda.ring_slot %i of @h
      kda.lds_read @h[%s] iter(%i)
      %n = arith.addi %i, %c2 : index
      %p = arith.cmpi slt, %n, %t : index
      %sn = kda.ring_slot %n of @h
      kda.async_copy @h[%sn] iter(%n) if(%p)
    }
    kda.lds_barrier
  }
  return
}
