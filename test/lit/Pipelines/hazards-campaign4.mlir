// The fourth hand-written-schedule campaign (2026-12-06): the dynamic trip
// count's proof past unsigned and wrapping decisions, and warpgroup atoms
// whose B handoffs went unchecked. Each case was accepted before.
// RUN: kda-opt %s -split-input-file -verify-diagnostics --kda-verify-pipeline

// -----

// An unsigned comparison of a moving value flips where the value changes
// sign: (i - 100) <u -95 holds below 5, not from 5 to 99, and again from
// 100, where the wait is skipped.
kda.lds_buffer @h slots(2) slot_bytes(4096) offset(0)
func.func @ult_sign(%t: index) {
  // expected-error @+1 {{R1: iteration 100 reads @h slot 0 before any wait covers its async copy}}
  kda.schedule "ult" dynamic_trip_count(%t) depth(2) target("sm_90") {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c100 = arith.constant 100 : index
    %cm95 = arith.constant -95 : index
    %true = arith.constant true
    %p0 = arith.cmpi slt, %c0, %t : index
    kda.async_copy @h[%c0] iter(%c0) if(%p0)
    scf.for %i = %c0 to %t step %c1 {
      %x = arith.subi %i, %c100 : index
      %late = arith.cmpi ult, %x, %cm95 : index
      %c5 = arith.constant 5 : index
      %big = arith.cmpi sge, %i, %c5 : index
      %skip = arith.andi %late, %big : i1
      %do = arith.xori %skip, %true : i1
      scf.if %do {
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

// The same switch anchored on the trip count: (T - 100) <u -95.
kda.lds_buffer @h slots(2) slot_bytes(4096) offset(0)
func.func @ult_trip(%t: index) {
  // expected-error @+1 {{R1: iteration 99 reads @h slot 1 before any wait covers its async copy}}
  kda.schedule "ulttrip" dynamic_trip_count(%t) depth(2) target("sm_90") {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c5 = arith.constant 5 : index
    %c100 = arith.constant 100 : index
    %cm95 = arith.constant -95 : index
    %true = arith.constant true
    %x = arith.subi %t, %c100 : index
    %late = arith.cmpi ult, %x, %cm95 : index
    %bigT = arith.cmpi sge, %t, %c5 : index
    %skipT = arith.andi %late, %bigT : i1
    %p0 = arith.cmpi slt, %c0, %t : index
    kda.async_copy @h[%c0] iter(%c0) if(%p0)
    scf.for %i = %c0 to %t step %c1 {
      %n = arith.addi %i, %c1 : index
      %last = arith.cmpi eq, %n, %t : index
      %skip = arith.andi %skipT, %last : i1
      %do = arith.xori %skip, %true : i1
      scf.if %do {
        kda.async_wait 0
      }
      kda.lds_barrier
      %s = kda.ring_slot %i of @h
      kda.lds_read @h[%s] iter(%i)
      %p = arith.cmpi slt, %n, %t : index
      %sn = kda.ring_slot %n of @h
      kda.async_copy @h[%sn] iter(%n) if(%p)
    }
    kda.lds_barrier
  }
  return
}

// -----

// An i32 value that wraps: i + 2^31 - 50 is negative from i = 50, where
// the signed comparison flips back and the wait is skipped.
kda.lds_buffer @h slots(2) slot_bytes(4096) offset(0)
func.func @i32_wrap(%t: index) {
  // expected-error @+1 {{R1: iteration 50 reads @h slot 0 before any wait covers its async copy}}
  kda.schedule "wrap" dynamic_trip_count(%t) depth(2) target("sm_90") {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c10 = arith.constant 10 : index
    %k = arith.constant 2147483598 : i32
    %b = arith.constant 2147483608 : i32
    %true = arith.constant true
    %p0 = arith.cmpi slt, %c0, %t : index
    kda.async_copy @h[%c0] iter(%c0) if(%p0)
    scf.for %i = %c0 to %t step %c1 {
      %i32 = arith.index_cast %i : index to i32
      %x = arith.addi %i32, %k : i32
      %lt = arith.cmpi slt, %x, %b : i32
      %big = arith.cmpi sge, %i, %c10 : index
      %skip = arith.andi %lt, %big : i1
      %do = arith.xori %skip, %true : i1
      scf.if %do {
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

// A warpgroup atom's kernel whose LDS walk stops at an op it cannot model:
// R0, not dropped (the walk alone checks the atom's B handoffs; here every
// thread stores B and the atom reads it with no barrier).
!lds = memref<?xi8, #gpu.address_space<workgroup>>
!acc = vector<32xf32>
gpu.module @m attributes {kda.target = #kda.target<"sm_90">} {
  gpu.func @masked(%a: vector<8xbf16>, %c: !acc, %out: memref<64xf32>) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %lds = gpu.dynamic_shared_memory : !lds
    %o = arith.constant 0 : index
    // expected-error @+1 {{R0: LDS access in kernel}}
    %z = scf.execute_region -> index {
      %k = arith.constant 0 : index
      scf.yield %k : index
    }
    %tid = gpu.thread_id x
    %c16 = arith.constant 16 : index
    %b = arith.muli %tid, %c16 : index
    %v = arith.constant dense<1> : vector<16xi8>
    vector.store %v, %lds[%b] : !lds, vector<16xi8>
    %d = kda.wgmma %a, %lds[%o], %c {kind = #kda.mma_kind<wgmma_f32_64x64x16_bf16>, lbo = 128, sbo = 256} : vector<8xbf16>, !lds, !acc -> !acc
    kda.wgmma_commit
    %r = kda.wgmma_wait %d {pending = 0} : !acc
    vector.store %r, %out[%o] : memref<64xf32>, !acc
    gpu.return
  }
}

// -----

// The write of B is itself the op the walk cannot model.
!lds = memref<?xi8, #gpu.address_space<workgroup>>
!acc = vector<32xf32>
gpu.module @m attributes {kda.target = #kda.target<"sm_90">} {
  gpu.func @w1(%a: vector<8xbf16>, %c: !acc, %g: memref<4096xi8>, %out: memref<64xf32>) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %lds = gpu.dynamic_shared_memory : !lds
    %o = arith.constant 0 : index
    %bv = memref.view %lds[%o][] : !lds to memref<4096xi8, #gpu.address_space<workgroup>>
    // expected-error @+1 {{R0: LDS access in kernel}}
    memref.copy %g, %bv : memref<4096xi8> to memref<4096xi8, #gpu.address_space<workgroup>>
    %d = kda.wgmma %a, %lds[%o], %c {kind = #kda.mma_kind<wgmma_f32_64x64x16_bf16>, lbo = 128, sbo = 256} : vector<8xbf16>, !lds, !acc -> !acc
    kda.wgmma_commit
    %r = kda.wgmma_wait %d {pending = 0} : !acc
    vector.store %r, %out[%o] : memref<64xf32>, !acc
    gpu.return
  }
}

// -----

// B's offset differs between threads: the warpgroup reads one operand
// through one descriptor.
!lds = memref<?xi8, #gpu.address_space<workgroup>>
!acc = vector<32xf32>
gpu.module @m attributes {kda.target = #kda.target<"sm_90">} {
  gpu.func @w4(%a: vector<8xbf16>, %c: !acc, %out: memref<64xf32>) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %lds = gpu.dynamic_shared_memory : !lds
    %o = arith.constant 0 : index
    %tid = gpu.thread_id x
    %c16 = arith.constant 16 : index
    %off = arith.muli %tid, %c16 : index
    // expected-error @+1 {{R0: its B operand (the LDS view it indexes, or its offset) is not the same for every thread}}
    %d = kda.wgmma %a, %lds[%off], %c {kind = #kda.mma_kind<wgmma_f32_64x64x16_bf16>, lbo = 128, sbo = 256} : vector<8xbf16>, !lds, !acc -> !acc
    kda.wgmma_commit
    %r = kda.wgmma_wait %d {pending = 0} : !acc
    vector.store %r, %out[%o] : memref<64xf32>, !acc
    gpu.return
  }
}

// -----

// Safe: i32 iteration arithmetic (i + 1 < T in i32) whose wrap lies past the
// trip counts the model covers (below 2^30): accepted, no proof past it.
kda.lds_buffer @h slots(2) slot_bytes(4096) offset(0)
func.func @i32plus(%t: index) {
  kda.schedule "i32plus" dynamic_trip_count(%t) depth(2) target("sm_90") {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %p0 = arith.cmpi slt, %c0, %t : index
    kda.async_copy @h[%c0] iter(%c0) if(%p0)
    %t32 = arith.index_cast %t : index to i32
    %one = arith.constant 1 : i32
    scf.for %i = %c0 to %t step %c1 {
      kda.async_wait 0
      kda.lds_barrier
      %s = kda.ring_slot %i of @h
      kda.lds_read @h[%s] iter(%i)
      kda.lds_barrier
      %i32 = arith.index_cast %i : index to i32
      %n32 = arith.addi %i32, %one : i32
      %p = arith.cmpi slt, %n32, %t32 : i32
      %n = arith.addi %i, %c1 : index
      %sn = kda.ring_slot %n of @h
      kda.async_copy @h[%sn] iter(%n) if(%p)
    }
    kda.async_wait 0
    kda.lds_barrier
  }
  return
}
