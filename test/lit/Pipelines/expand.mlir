// kda-expand-pipeline: prologue, steady state with N-slot rings, peeled
// epilogue with exact wait counts, exit drain; dynamic trip counts predicate
// the copies instead.
// RUN: kda-opt %s -split-input-file --kda-expand-pipeline=target=gfx950 | FileCheck %s

// CHECK: kda.lds_buffer @u slots(3) slot_bytes(8192) offset(0)
// CHECK-LABEL: func.func @static
// CHECK: kda.schedule "u_loop" trip_count(5) depth(3) target("gfx950") {
// CHECK:   kda.async_copy @u[%{{.*}}] iter(%c0)
// CHECK:   kda.async_copy @u[%{{.*}}] iter(%c1)
// CHECK:   scf.for %[[I:.*]] = %{{.*}} to %c3 step
// CHECK:     kda.async_wait 1
// CHECK:     kda.lds_barrier
// CHECK:     %[[S:.*]] = kda.ring_slot %[[I]] of @u
// CHECK:     kda.lds_read @u[%[[S]]] iter(%[[I]])
// CHECK:     %[[N:.*]] = arith.addi %[[I]], %c2
// CHECK:     %[[SN:.*]] = kda.ring_slot %[[N]] of @u
// CHECK:     kda.async_copy @u[%[[SN]]] iter(%[[N]])
// CHECK:   kda.async_wait 1
// CHECK:   kda.lds_read
// CHECK:   kda.async_wait 0
// CHECK:   kda.lds_read
// CHECK:   kda.lds_barrier
// CHECK-NEXT: }
kda.lds_buffer @u slots(1) slot_bytes(8192) offset(0)
func.func @static() {
  kda.pipeline "u_loop" trip_count(5) depth(3) {
    kda.produce @u async stage(0)
    kda.consume @u stage(2)
  }
  return
}

// -----

// gfx942 has no global -> LDS async copy: register-staged copies, no waits.
// RUN: kda-opt %s -split-input-file --kda-expand-pipeline=target=gfx942 | FileCheck %s --check-prefix=GFX942
// GFX942-LABEL: func.func @staged
// GFX942-NOT: kda.async_wait
// GFX942: kda.staged_copy @t
// GFX942-NOT: kda.async_wait
kda.lds_buffer @t slots(1) slot_bytes(8192) offset(0)
func.func @staged() {
  kda.pipeline "t_loop" trip_count(4) depth(2) {
    kda.produce @t async stage(0)
    kda.consume @t stage(1)
  }
  return
}

// -----

// A dynamic trip count (the chunk scan): predicated copies, uniform counts;
// the verifier proves every trip count.
// CHECK-LABEL: func.func @dynamic
// CHECK: kda.schedule "scan" dynamic_trip_count(%{{.*}}) depth(3)
// CHECK:   %[[P0:.*]] = arith.cmpi slt, %c0, %{{.*}}
// CHECK:   kda.async_copy @h[%{{.*}}] iter(%{{.*}}) if(%[[P0]])
// CHECK:   scf.for
// CHECK:     kda.async_wait 1
// CHECK:     kda.async_copy @h[%{{.*}}] iter(%{{.*}}) if(%{{.*}})
kda.lds_buffer @h slots(1) slot_bytes(4096) offset(0)
func.func @dynamic(%chunks: index) {
  kda.pipeline "scan" dynamic_trip_count(%chunks) depth(3) {
    kda.produce @h async stage(0)
    kda.consume @h stage(2)
  }
  return
}

// -----

// Two rings of one pipeline are laid out side by side.
// CHECK: kda.lds_buffer @k slots(2) slot_bytes(16384) offset(0)
// CHECK: kda.lds_buffer @v slots(2) slot_bytes(16384) offset(32768)
kda.lds_buffer @k slots(1) slot_bytes(16384) offset(0)
kda.lds_buffer @v slots(1) slot_bytes(16384) offset(0)
func.func @two_rings() {
  kda.pipeline "kv" trip_count(8) depth(2) {
    kda.produce @k async stage(0)
    kda.produce @v async stage(0)
    kda.consume @k stage(1)
    kda.consume @v stage(1)
  }
  return
}
