// The pipeline ops' own verifiers read their integer attributes as signed
// values (an I64Attr's getter is unsigned, where -1 reads as 2^64 - 1) and
// refuse a ring whose extent overflows 64 bits (it wrapped past R6).
// RUN: kda-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{'kda.lds_buffer' op needs positive slot_bytes and a non-negative offset, got slot_bytes 4096 and offset -8192}}
kda.lds_buffer @h slots(2) slot_bytes(4096) offset(-8192)

// -----

// expected-error @+1 {{'kda.lds_buffer' op needs at least one slot, got -1}}
kda.lds_buffer @h slots(-1) slot_bytes(4096) offset(0)

// -----

// expected-error @+1 {{'kda.lds_buffer' op needs positive slot_bytes and a non-negative offset, got slot_bytes -4 and offset 0}}
kda.lds_buffer @h slots(2) slot_bytes(-4) offset(0)

// -----

// expected-error @+1 {{'kda.lds_buffer' op extent offset + slots x slot_bytes (0 + 4 x 4611686018427387904) overflows 64 bits}}
kda.lds_buffer @h slots(4) slot_bytes(4611686018427387904) offset(0)

// -----

// expected-error @+1 {{'kda.lds_buffer' op extent offset + slots x slot_bytes (9223372036854771712 + 1 x 8192) overflows 64 bits}}
kda.lds_buffer @h slots(1) slot_bytes(8192) offset(9223372036854771712)

// -----

func.func @negative_trip_count() {
  // expected-error @+1 {{'kda.schedule' op trip_count must be non-negative, got -1}}
  kda.schedule "s" trip_count(-1) depth(2) target("sm_90") {
  }
  return
}

// -----

func.func @depth_out_of_range() {
  // expected-error @+1 {{'kda.schedule' op depth must be in [1, 8], got -3}}
  kda.schedule "s" trip_count(1) depth(-3) target("sm_90") {
  }
  return
}

// -----

func.func @negative_wait() {
  kda.schedule "s" trip_count(1) depth(1) target("sm_90") {
    // expected-error @+1 {{'kda.async_wait' op count must be non-negative, got -1}}
    kda.async_wait -1
  }
  return
}

// -----

kda.lds_buffer @r slots(2) slot_bytes(1024) offset(0)
func.func @copy_in_read() {
  kda.schedule "s" trip_count(1) depth(1) target("sm_90") {
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{'kda.lds_read' op holds kda.async_copy in its body: schedule events (copies, reads, waits, drains, barriers) belong to the schedule, not to another event's body}}
    kda.lds_read @r[%c0] iter(%c0) do {
      kda.async_copy @r[%c0] iter(%c0)
    }
  }
  return
}

// -----

kda.lds_buffer @r slots(1) slot_bytes(1024) offset(0)
func.func @read_in_copy() {
  kda.schedule "s" trip_count(1) depth(1) target("emu32") {
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{'kda.async_copy' op holds kda.lds_read in its body}}
    kda.async_copy @r[%c0] iter(%c0) do {
      kda.lds_read @r[%c0] iter(%c0)
    }
  }
  return
}

// -----

kda.lds_buffer @r slots(1) slot_bytes(1024) offset(0)
func.func @wait_in_staged_copy() {
  kda.schedule "s" trip_count(1) depth(1) target("gfx942") {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{'kda.staged_copy' op holds kda.lds_barrier in its body}}
    kda.staged_copy @r[%c0] iter(%c0) do {
      scf.for %k = %c0 to %c1 step %c1 {
        kda.lds_barrier
      }
    }
  }
  return
}

// -----

kda.lds_buffer @r slots(2) slot_bytes(1024) offset(0)
func.func @wait_in_consume() {
  kda.pipeline "p" trip_count(4) depth(2) {
    kda.produce @r async stage(0)
    // expected-error @+1 {{'kda.consume' op holds kda.async_wait in its body}}
    kda.consume @r stage(1) do {
      kda.async_wait 0
    }
  }
  return
}

// -----

// The verifier applies the schedule's target's rules; the lowerings follow
// the module's kda.target: the two must agree.
gpu.module @kernels attributes {kda.target = #kda.target<"gfx942">} {
  kda.lds_buffer @r slots(1) slot_bytes(1024) offset(0)
  gpu.func @mismatch() kernel {
    // expected-error @+1 {{'kda.schedule' op is checked for target 'sm_90' but its module is compiled for 'gfx942' (kda.target): the two must agree, or the schedule is proven safe on one chip and run on another}}
    kda.schedule "s" trip_count(1) depth(1) target("sm_90") {
    }
    gpu.return
  }
}
