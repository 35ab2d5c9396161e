// Class 4 of issue 10: buffers placed over the same bytes. Every write,
// whatever its kind, is checked per byte range against the reads and writes
// of every buffer, so a buffer may reuse another's bytes only once the other
// is dead (its reads behind a drained barrier, nothing in flight).
// RUN: kda-opt %s -split-input-file -verify-diagnostics --kda-verify-pipeline

// Register-staged @v over @k's live tile: @k's read sees @v's bytes.
kda.lds_buffer @k slots(1) slot_bytes(4096) offset(0)
kda.lds_buffer @v slots(1) slot_bytes(4096) offset(0)
func.func @staged_over_live_buffer() {
  // expected-error @+1 {{R2: iteration 0 reads @k slot 0, but @v's copy of iteration 0 into @v slot 0 has overwritten bytes [0, 4096) of it: @k and @v share bytes while both are live (pipeline 'kv' at depth 1)}}
  kda.schedule "kv" trip_count(1) depth(1) target("gfx942") {
    %c0 = arith.constant 0 : index
    kda.staged_copy @k[%c0] iter(%c0)
    kda.lds_barrier
    kda.staged_copy @v[%c0] iter(%c0)
    kda.lds_barrier
    kda.lds_read @k[%c0] iter(%c0)
    kda.lds_read @v[%c0] iter(%c0)
    kda.lds_barrier
  }
  return
}

// -----

// Partial overlap: @b's single slot covers the second half of @a's slot 1.
kda.lds_buffer @a slots(2) slot_bytes(4096) offset(0)
kda.lds_buffer @b slots(1) slot_bytes(4096) offset(6144)
func.func @partial_overlap() {
  // expected-error @+1 {{R2: iteration 1 reads @a slot 1, but @b's copy of iteration 0 into @b slot 0 has overwritten bytes [6144, 8192) of it: @a and @b share bytes while both are live (pipeline 'partial' at depth 2)}}
  kda.schedule "partial" trip_count(2) depth(2) target("gfx950") {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    kda.async_copy @a[%c0] iter(%c0)
    kda.async_copy @a[%c1] iter(%c1)
    kda.async_wait 0
    kda.lds_barrier
    kda.async_copy @b[%c0] iter(%c0)
    kda.async_wait 0
    kda.lds_barrier
    kda.lds_read @a[%c0] iter(%c0)
    kda.lds_read @a[%c1] iter(%c1)
    kda.lds_read @b[%c0] iter(%c0)
    kda.lds_barrier
  }
  return
}

// -----

// A staged store into bytes another buffer's tile is still being read from.
kda.lds_buffer @k slots(2) slot_bytes(4096) offset(0)
kda.lds_buffer @v slots(2) slot_bytes(4096) offset(4096)
func.func @staged_war_across_buffers() {
  // expected-error @+1 {{R2: the copy of iteration 0 into @v slot 0 may overwrite iteration 1's tile still being read from @k slot 1 (@k and @v share bytes [4096, 8192) while both are live): no drained barrier lies between them (pipeline 'war' at depth 2)}}
  kda.schedule "war" trip_count(2) depth(2) target("gfx942") {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    kda.staged_copy @k[%c0] iter(%c0)
    kda.staged_copy @k[%c1] iter(%c1)
    kda.lds_barrier
    kda.lds_read @k[%c0] iter(%c0)
    kda.lds_read @k[%c1] iter(%c1)
    kda.staged_copy @v[%c0] iter(%c0)
    kda.lds_barrier
    kda.lds_read @v[%c0] iter(%c0)
    kda.lds_barrier
  }
  return
}

// -----

// Two stores into shared bytes that no barrier orders: a write-write race.
kda.lds_buffer @k slots(1) slot_bytes(4096) offset(0)
kda.lds_buffer @v slots(1) slot_bytes(4096) offset(2048)
func.func @unordered_stores() {
  // expected-error @+1 {{R2: the register-staged copy of iteration 0 into @v slot 0 races the register-staged copy of iteration 0 into @k slot 0 (bytes [2048, 4096)): no barrier orders them (pipeline 'waw' at depth 1)}}
  kda.schedule "waw" trip_count(1) depth(1) target("gfx942") {
    %c0 = arith.constant 0 : index
    kda.staged_copy @k[%c0] iter(%c0)
    kda.staged_copy @v[%c0] iter(%c0)
    kda.lds_barrier
    kda.lds_read @k[%c0] iter(%c0)
    kda.lds_read @v[%c0] iter(%c0)
    kda.lds_barrier
  }
  return
}

// -----

// Safe: @w reuses @u's bytes after @u's loop is dead (every read behind a
// drained barrier, nothing in flight) - seed 1's two loops, correctly.
kda.lds_buffer @u slots(2) slot_bytes(8192) offset(0)
kda.lds_buffer @w slots(2) slot_bytes(8192) offset(0)
func.func @reuse_after_live_range() {
  kda.schedule "u_then_w" trip_count(2) depth(2) target("gfx950") {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    kda.async_copy @u[%c0] iter(%c0)
    scf.for %i = %c0 to %c2 step %c1 {
      kda.async_wait 0
      kda.lds_barrier
      %s = kda.ring_slot %i of @u
      kda.lds_read @u[%s] iter(%i)
      %n = arith.addi %i, %c1 : index
      %p = arith.cmpi slt, %n, %c2 : index
      %sn = kda.ring_slot %n of @u
      kda.async_copy @u[%sn] iter(%n) if(%p)
    }
    kda.async_wait 0
    kda.lds_barrier
    kda.staged_copy @w[%c0] iter(%c0)
    kda.staged_copy @w[%c1] iter(%c1)
    kda.lds_barrier
    kda.lds_read @w[%c0] iter(%c0)
    kda.lds_read @w[%c1] iter(%c1)
    kda.lds_barrier
  }
  return
}
