// Campaign 14 of hand-written schedules (2026-12-07): accepted before and
// shown unsafe on the emulator.
// RUN: kda-opt %s -split-input-file -verify-diagnostics --kda-verify-pipeline

// Two async copies of one tile in flight at once: the first's only row is
// under a loop of no trip (it writes nothing), the second writes the slot.
// wait(1) retired the first group, and the model cleared the pending bytes
// of every segment of that tile: the second group's bytes counted as landed
// and the read passed. A second copy of a tile whose group no wait has
// retired is R2 (as it was while the first copy's rows counted as written).
module attributes {gpu.container_module} {
gpu.module @kernels attributes {kda.target = #kda.target<"emu32">} {
  kda.lds_buffer @r slots(1) slot_bytes(1024) offset(0)
  gpu.func @k()
      workgroup(%lds : memref<1024xi8, #gpu.address_space<workgroup>>)
      private(%src : memref<256xf32, #gpu.address_space<private>>)
      kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %tid = gpu.thread_id x
    // expected-error @+1 {{R2: the copy of iteration 0 into @r slot 0 is issued while an earlier copy of the same tile is still in flight}}
    kda.schedule "k" trip_count(1) depth(1) target("emu32") {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      kda.async_copy @r[%c0] iter(%c0) do {
        scf.for %j = %c0 to %c0 step %c1 {
          kda.copy_row %src[%c0] to %lds[%c0] elems(256) atom(cp_async) : memref<256xf32, #gpu.address_space<private>>, memref<1024xi8, #gpu.address_space<workgroup>>
        }
      }
      kda.async_copy @r[%c0] iter(%c0) do {
        kda.copy_row %src[%c0] to %lds[%c0] elems(256) atom(cp_async) : memref<256xf32, #gpu.address_space<private>>, memref<1024xi8, #gpu.address_space<workgroup>>
      }
      kda.async_wait 1
      kda.lds_barrier
      kda.lds_read @r[%c0] iter(%c0) do {
        %v = memref.view %lds[%c0][] : memref<1024xi8, #gpu.address_space<workgroup>> to memref<256xf32, #gpu.address_space<workgroup>>
        %y = memref.load %v[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
      }
      kda.async_wait 0
      kda.lds_barrier
    }
    gpu.return
  }
}
}

