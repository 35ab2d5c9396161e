// Class 7 of issue 10: stage annotations are honoured or rejected. The copy
// distance is the consumers' stage minus the producers' stage; the rings keep
// `depth` slots. A stage outside 0..depth-1 contradicts the depth.
// RUN: kda-opt %s -split-input-file -verify-diagnostics --kda-expand-pipeline=target=gfx950 | FileCheck %s

// A consumer at stage 3 of a depth-2 pipeline: rejected, not silently
// turned into an ordinary depth-2 schedule.
kda.lds_buffer @u slots(1) slot_bytes(8192) offset(0)
func.func @stage_past_depth() {
  // expected-error @+1 {{R2: the consumer of @u at stage 3 lies outside the stages 0..1 of a depth-2 pipeline: a tile read 3 steps after its copy needs 4 ring slots, the depth gives 2 (pipeline 'u' at depth 2)}}
  kda.pipeline "u" trip_count(8) depth(2) {
    kda.produce @u async stage(0)
    kda.consume @u stage(3)
  }
  return
}

// -----

// Consumers at two different stages: one distance per pipeline.
kda.lds_buffer @k slots(1) slot_bytes(8192) offset(0)
kda.lds_buffer @v slots(1) slot_bytes(8192) offset(0)
func.func @mixed_stages() {
  // expected-error @+1 {{R0: cannot analyse the consumers at stages 1 and 2: the expansion takes one stage per role (pipeline 'kv' at depth 3)}}
  kda.pipeline "kv" trip_count(8) depth(3) {
    kda.produce @k async stage(0)
    kda.produce @v async stage(0)
    kda.consume @k stage(1)
    kda.consume @v stage(2)
  }
  return
}

// -----

// A consumer scheduled before its producer.
kda.lds_buffer @u slots(1) slot_bytes(8192) offset(0)
func.func @consumer_first() {
  // expected-error @+1 {{R1: the consumers at stage 0 read before the producers at stage 1 copy (pipeline 'u' at depth 2)}}
  kda.pipeline "u" trip_count(8) depth(2) {
    kda.produce @u async stage(1)
    kda.consume @u stage(0)
  }
  return
}

// -----

// Honoured: a consumer one stage after its producer in a depth-3 pipeline
// reads each tile one iteration after its copy (wait 0, one tile in flight),
// in a 3-slot ring; verified.
// CHECK: kda.lds_buffer @u slots(3)
// CHECK-LABEL: func.func @distance_one
// CHECK: kda.schedule "u" trip_count(6) depth(3)
// CHECK-COUNT-1: kda.async_copy
// CHECK: scf.for
// CHECK:   kda.async_wait 0
// CHECK:   kda.lds_barrier
// CHECK:   kda.lds_read
// CHECK:   arith.addi %{{.*}}, %c1
// CHECK:   kda.async_copy
kda.lds_buffer @u slots(1) slot_bytes(8192) offset(0)
func.func @distance_one() {
  kda.pipeline "u" trip_count(6) depth(3) {
    kda.produce @u async stage(0)
    kda.consume @u stage(1)
  }
  return
}

// -----

// Honoured: producer and consumer at stage 1 read the tile in the iteration
// that copies it (the depth-1 form).
// CHECK-LABEL: func.func @same_stage
// CHECK: scf.for
// CHECK:   kda.lds_barrier
// CHECK:   kda.async_copy
// CHECK:   kda.async_wait 0
// CHECK:   kda.lds_barrier
// CHECK:   kda.lds_read
kda.lds_buffer @u slots(1) slot_bytes(8192) offset(0)
func.func @same_stage() {
  kda.pipeline "u" trip_count(4) depth(2) {
    kda.produce @u async stage(1)
    kda.consume @u stage(1)
  }
  return
}
