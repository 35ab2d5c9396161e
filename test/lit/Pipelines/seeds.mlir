// The regression seeds of PIPELINE-SAFETY.md, written as expanded kda IR the
// way the shipped schedules were, each rejected with a specific diagnostic
// naming the rule, buffer, slot, iteration and depth.
// RUN: kda-opt %s -split-input-file -verify-diagnostics --kda-verify-pipeline

// Seed 1 (vLLM PR #50649 / fla recompute_w_u on gfx950): the u-loop runs
// V/BV = 2 iterations; with num_stages = 4 the prologue issues a third copy
// that no iteration consumes, still in flight when the w-loop reuses the
// bytes (R3/R4).
kda.lds_buffer @u slots(4) slot_bytes(8192) offset(0)
kda.lds_buffer @w slots(4) slot_bytes(8192) offset(0)
func.func @recompute_w_u() {
  // expected-error @+1 {{R4: the copy of iteration 2 into @u slot 2 is issued beyond the trip count 2 and is not predicated off (pipeline 'recompute_w_u.u' at depth 4)}}
  kda.schedule "recompute_w_u.u" trip_count(2) depth(4) target("gfx950") {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %s0 = kda.ring_slot %c0 of @u
    kda.async_copy @u[%s0] iter(%c0)
    %s1 = kda.ring_slot %c1 of @u
    kda.async_copy @u[%s1] iter(%c1)
    %s2 = kda.ring_slot %c2 of @u
    kda.async_copy @u[%s2] iter(%c2)
    scf.for %i = %c0 to %c2 step %c1 {
      kda.async_wait 1
      kda.lds_barrier
      %s = kda.ring_slot %i of @u
      kda.lds_read @u[%s] iter(%i)
    }
    kda.lds_barrier
  }
  return
}

// -----

// Seed 1 without a trip count on the schedule (a generator that forgot it):
// the stray prologue copy is still in flight when the loop ends (R3).
kda.lds_buffer @u slots(4) slot_bytes(8192) offset(0)
func.func @recompute_w_u_no_trip_count() {
  // expected-error @+1 {{R3: the copy of iteration 2 into @u slot 2 is still outstanding when the loop ends (pipeline 'recompute_w_u.u' at depth 4)}}
  kda.schedule "recompute_w_u.u" depth(4) target("gfx950") {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %s0 = kda.ring_slot %c0 of @u
    kda.async_copy @u[%s0] iter(%c0)
    %s1 = kda.ring_slot %c1 of @u
    kda.async_copy @u[%s1] iter(%c1)
    %s2 = kda.ring_slot %c2 of @u
    kda.async_copy @u[%s2] iter(%c2)
    kda.async_wait 2
    kda.lds_barrier
    kda.lds_read @u[%s0] iter(%c0)
    kda.async_wait 1
    kda.lds_barrier
    kda.lds_read @u[%s1] iter(%c1)
    kda.lds_barrier
  }
  return
}

// -----

// Seed 2 (Triton PR #9720): 4 stages with only 3 buffers. The copy of
// iteration 3 goes into the slot iteration 0 is reading (R2).
kda.lds_buffer @b slots(3) slot_bytes(8192) offset(0)
func.func @four_stages_three_buffers() {
  // expected-error @+1 {{R2: the copy of iteration 3 into @b slot 0 may overwrite iteration 0's tile still being read from @b slot 0: no drained barrier lies between them (pipeline 'ring' at depth 4)}}
  kda.schedule "ring" trip_count(8) depth(4) target("sm_90") {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c5 = arith.constant 5 : index
    scf.for %j = %c0 to %c3 step %c1 {
      %s = kda.ring_slot %j of @b
      kda.async_copy @b[%s] iter(%j)
    }
    scf.for %i = %c0 to %c5 step %c1 {
      kda.async_wait 2
      kda.lds_barrier
      %s = kda.ring_slot %i of @b
      kda.lds_read @b[%s] iter(%i)
      %n = arith.addi %i, %c3 : index
      %sn = kda.ring_slot %n of @b
      kda.async_copy @b[%sn] iter(%n)
    }
    kda.lds_barrier
  }
  return
}

// -----

// Seed 3 (Triton issue #11696, gfx942, 8 warps, 2 stages, ping-pong): a bare
// s_barrier after the LDS reads but before their lgkmcnt drain; the other
// wave group overwrites the slot (R2, drained barrier). On gfx942 the bare
// s_barrier after the register-staged stores fails first: it does not wait
// for them either (R1).
kda.lds_buffer @t slots(2) slot_bytes(16384) offset(0)
func.func @bare_barrier_ping_pong() {
  // expected-error @+1 {{R1: iteration 0 reads @t slot 0 with no drained barrier after its register-staged store: on gfx942 a bare barrier does not wait for the store (s_waitcnt lgkmcnt(0)) (pipeline 'ping_pong' at depth 2)}}
  kda.schedule "ping_pong" trip_count(6) depth(2) target("gfx942") {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c6 = arith.constant 6 : index
    %s0 = kda.ring_slot %c0 of @t
    kda.staged_copy @t[%s0] iter(%c0)
    scf.for %i = %c0 to %c6 step %c1 {
      kda.barrier
      %s = kda.ring_slot %i of @t
      kda.lds_read @t[%s] iter(%i)
      kda.barrier
      %n = arith.addi %i, %c1 : index
      %p = arith.cmpi slt, %n, %c6 : index
      %sn = kda.ring_slot %n of @t
      kda.staged_copy @t[%sn] iter(%n) if(%p)
    }
    kda.lds_barrier
  }
  return
}

// -----

// The same schedule on sm_90, where bar.sync orders the stores: the reads'
// hazard alone (R2).
kda.lds_buffer @t slots(2) slot_bytes(16384) offset(0)
func.func @bare_barrier_ping_pong() {
  // expected-error @+1 {{R2: the copy of iteration 2 into @t slot 0 may overwrite iteration 0's tile still being read from @t slot 0: only a bare barrier follows that read, which does not order a wave's pending LDS reads (pipeline 'ping_pong' at depth 2)}}
  kda.schedule "ping_pong" trip_count(6) depth(2) target("sm_90") {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c6 = arith.constant 6 : index
    %s0 = kda.ring_slot %c0 of @t
    kda.staged_copy @t[%s0] iter(%c0)
    scf.for %i = %c0 to %c6 step %c1 {
      kda.barrier
      %s = kda.ring_slot %i of @t
      kda.lds_read @t[%s] iter(%i)
      kda.barrier
      %n = arith.addi %i, %c1 : index
      %p = arith.cmpi slt, %n, %c6 : index
      %sn = kda.ring_slot %n of @t
      kda.staged_copy @t[%sn] iter(%n) if(%p)
    }
    kda.lds_barrier
  }
  return
}

// -----

// Seed 4 (Triton issue #10977 / PR #8139): the consumer sits one cluster
// after the producer (it reads iteration i - 1 while iteration i + 1 is
// copied), which needs one more buffer than the stage difference (R2).
kda.lds_buffer @c slots(2) slot_bytes(8192) offset(0)
func.func @consumer_in_later_cluster() {
  // expected-error @+1 {{R2: iteration 0 reads @c slot 0, but the copy of iteration 2 has already replaced its tile (pipeline 'clusters' at depth 2)}}
  kda.schedule "clusters" trip_count(4) depth(2) target("sm_90") {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c5 = arith.constant 5 : index
    %s0 = kda.ring_slot %c0 of @c
    kda.async_copy @c[%s0] iter(%c0)
    scf.for %i = %c0 to %c5 step %c1 {
      %n = arith.addi %i, %c1 : index
      %p = arith.cmpi slt, %n, %c4 : index
      %sn = kda.ring_slot %n of @c
      kda.async_copy @c[%sn] iter(%n) if(%p)
      kda.async_wait 0
      kda.lds_barrier
      %later = arith.cmpi sge, %i, %c1 : index
      scf.if %later {
        %r = arith.subi %i, %c1 : index
        %sr = kda.ring_slot %r of @c
        kda.lds_read @c[%sr] iter(%r)
      }
    }
    kda.lds_barrier
  }
  return
}

// -----

// Seed 5 (tilelang issue #2668): a pipelined loop reads a shared buffer and
// overwrites the same slot in the same iteration (R2).
kda.lds_buffer @s slots(2) slot_bytes(4096) offset(0)
func.func @read_then_overwrite() {
  // expected-error @+1 {{R2: the copy of iteration 2 into @s slot 0 may overwrite iteration 0's tile still being read from @s slot 0: no drained barrier lies between them (pipeline 'tilelang' at depth 2)}}
  kda.schedule "tilelang" trip_count(4) depth(2) target("gfx950") {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    scf.for %j = %c0 to %c2 step %c1 {
      %s = kda.ring_slot %j of @s
      kda.staged_copy @s[%s] iter(%j)
    }
    scf.for %i = %c0 to %c4 step %c1 {
      kda.lds_barrier
      %s = kda.ring_slot %i of @s
      kda.lds_read @s[%s] iter(%i)
      %n = arith.addi %i, %c2 : index
      %p = arith.cmpi slt, %n, %c4 : index
      %sn = kda.ring_slot %n of @s
      kda.staged_copy @s[%sn] iter(%n) if(%p)
    }
    kda.lds_barrier
  }
  return
}

// -----

// Seed 6: LDS over capacity - 3 stages of 64x128 bf16 K and V tiles
// (16 KiB each) need 96 KiB; gfx942 has 64 KiB (R6). The capacity comes from
// codegen's target table.
kda.lds_buffer @k slots(3) slot_bytes(16384) offset(0)
kda.lds_buffer @v slots(3) slot_bytes(16384) offset(49152)
func.func @over_capacity() {
  // expected-error @+1 {{R6: the ring buffers need 98304 bytes of LDS (@k 3 x 16384, @v 3 x 16384) but gfx942 has 65536 (pipeline 'attn_kv' at depth 3)}}
  kda.schedule "attn_kv" trip_count(4) depth(3) target("gfx942") {
    %c0 = arith.constant 0 : index
    %s = kda.ring_slot %c0 of @k
    kda.staged_copy @k[%s] iter(%c0)
    kda.staged_copy @v[%s] iter(%c0)
    kda.lds_barrier
    kda.lds_read @k[%s] iter(%c0)
    kda.lds_read @v[%s] iter(%c0)
    kda.lds_barrier
  }
  return
}
