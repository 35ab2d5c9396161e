// The seed configuration (fla's recompute_w_u on gfx950: a loop of two
// iterations at num_stages 4, PIPELINE-SAFETY.md seed 1) in the chunk
// kernels: the scan's row pipeline over a sequence of two chunks at depth 4.
// The expansion issues no copy past the trip count - statically the
// prologue copies chunks 0 and 1 only (and the ring keeps 2 slots), with a
// dynamic trip count (what the scan builds) the prologue copies of chunks
// 1 and 2 and the loop's copies are predicated on the chunk existing - and
// ends with a drained barrier, so the bytes are free for what follows. The
// verifier accepts both (the dynamic one for every trip count, 2 included).
// The hand-mutated twins are in chunk-seed-invalid.mlir.
// RUN: kda-opt %s --kda-expand-pipeline=target=sm_90 | FileCheck %s
// RUN: kda-opt %s --kda-expand-pipeline=target=sm_90 --kda-verify-pipeline -o /dev/null
// RUN: kda-opt %s --kda-expand-pipeline=target=gfx950 --kda-verify-pipeline -o /dev/null
// RUN: kda-opt %s --kda-expand-pipeline=target=emu32 --kda-test-pipeline-mutations -o /dev/null | FileCheck %s --check-prefix=MUT

// Slot bytes of the chunk_k3 layer's ring (64 rows of W, 64 x 128 bytes,
// and of 16 U columns, 64 x 64 bytes).
kda.lds_buffer @two_chunks slots(4) slot_bytes(20480) offset(40960)
kda.lds_buffer @chunks slots(4) slot_bytes(20480) offset(40960)

// CHECK: kda.lds_buffer @two_chunks slots(2) slot_bytes(20480) offset(40960)
// CHECK-LABEL: func.func @two_chunks_static
// CHECK: kda.schedule "scan_rows" trip_count(2) depth(4) target("sm_90")
// CHECK: kda.async_copy @two_chunks[%{{.*}}] iter(%c0)
// CHECK: kda.async_copy @two_chunks[%{{.*}}] iter(%c1)
// CHECK-NOT: kda.async_copy
// CHECK: kda.async_wait 1
// CHECK-NEXT: kda.lds_barrier
// CHECK: kda.lds_read @two_chunks
// CHECK: kda.async_wait 0
// CHECK-NEXT: kda.lds_barrier
// CHECK: kda.lds_read @two_chunks
// CHECK-NEXT: kda.lds_barrier
// CHECK-NEXT: }
func.func @two_chunks_static() {
  kda.pipeline "scan_rows" trip_count(2) depth(4) {
    kda.produce @two_chunks async stage(0)
    kda.consume @two_chunks stage(3)
  }
  return
}

// CHECK-LABEL: func.func @chunks_dynamic
// CHECK: kda.schedule "scan_rows" dynamic_trip_count(%[[T:.*]]) depth(4) target("sm_90")
// CHECK: %[[P0:.*]] = arith.cmpi slt, %c0, %[[T]]
// CHECK: kda.async_copy @chunks[%{{.*}}] iter(%c0{{.*}}) if(%[[P0]])
// CHECK: %[[P1:.*]] = arith.cmpi slt, %c1, %[[T]]
// CHECK: kda.async_copy @chunks[%{{.*}}] iter(%c1{{.*}}) if(%[[P1]])
// CHECK: %[[P2:.*]] = arith.cmpi slt, %c2, %[[T]]
// CHECK: kda.async_copy @chunks[%{{.*}}] iter(%c2{{.*}}) if(%[[P2]])
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %[[T]]
// CHECK: kda.async_wait 2
// CHECK-NEXT: kda.lds_barrier
// CHECK: kda.lds_read @chunks[%{{.*}}] iter(%[[I]])
// CHECK: %[[N:.*]] = arith.addi %[[I]], %c3
// CHECK: %[[PN:.*]] = arith.cmpi slt, %[[N]], %[[T]]
// CHECK: kda.async_copy @chunks[%{{.*}}] iter(%[[N]]) if(%[[PN]])
// CHECK: }
// CHECK-NEXT: kda.lds_barrier
func.func @chunks_dynamic(%chunks: index) {
  kda.pipeline "scan_rows" dynamic_trip_count(%chunks) depth(4) {
    kda.produce @chunks async stage(0)
    kda.consume @chunks stage(3)
  }
  return
}

// Every single mutant of both schedules is rejected (the dynamic one's
// proof covers every trip count).
// MUT-NOT: SURVIVOR
// MUT: schedule 'scan_rows' depth 4: {{[0-9]+}} mutants, {{[0-9]+}} rejected
// MUT: schedule 'scan_rows' depth 4: every trip count proven
// MUT: mutation kill rate: [[K:[0-9]+]]/[[K]] (100.0%)
