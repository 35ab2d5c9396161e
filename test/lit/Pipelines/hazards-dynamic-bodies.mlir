// With a dynamic trip count the proof pumps the loop only as far as the
// decisions it sees (comparisons, remainders of the iteration in the
// schedule's own arithmetic). A copy's or read's body is bounded by ranges,
// which record no decision, so there a value that moves with the iteration
// counts as any value: `i` indexing a view past its slot from i = 256, or
// `i / 300` shifting a row, is not bounded (R0) instead of passing because
// the proof stopped at a few trips. Their static twins name the iteration
// (R1, R2); a body whose bytes depend on the iteration only through a
// bounded remainder is accepted.
// RUN: kda-opt %s -split-input-file -verify-diagnostics --kda-verify-pipeline

gpu.module @kernels attributes {kda.target = #kda.target<"sm_90">} {
  kda.lds_buffer @r slots(2) slot_bytes(1024) offset(0)
  gpu.func @dyn_index(%src: memref<?xf32>, %t: index)
      workgroup(%lds : memref<2048xi8, #gpu.address_space<workgroup>>) kernel {
    // expected-error @+1 {{R0: cannot analyse memref.load: the LDS element it indexes through a view of the ring cannot be bounded from the slot, constants and the body's own loops}}
    kda.schedule "dyn_index" dynamic_trip_count(%t) depth(2) target("sm_90") {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c1024 = arith.constant 1024 : index
      %p0 = arith.cmpi slt, %c0, %t : index
      kda.async_copy @r[%c0] iter(%c0) if(%p0) do {
        kda.copy_row %src[%c0] to %lds[%c0] elems(256) atom(cp_async) : memref<?xf32>, memref<2048xi8, #gpu.address_space<workgroup>>
      }
      scf.for %i = %c0 to %t step %c1 {
        %n = arith.addi %i, %c1 : index
        %p = arith.cmpi slt, %n, %t : index
        %sn = kda.ring_slot %n of @r
        %at = arith.muli %sn, %c1024 : index
        kda.async_copy @r[%sn] iter(%n) if(%p) do {
          kda.copy_row %src[%c0] to %lds[%at] elems(256) atom(cp_async) : memref<?xf32>, memref<2048xi8, #gpu.address_space<workgroup>>
        }
        kda.async_wait 1
        kda.lds_barrier
        %s = kda.ring_slot %i of @r
        %rd = arith.muli %s, %c1024 : index
        kda.lds_read @r[%s] iter(%i) do {
          %v = memref.view %lds[%rd][] : memref<2048xi8, #gpu.address_space<workgroup>> to memref<256xf32, #gpu.address_space<workgroup>>
          %x = memref.load %v[%i] : memref<256xf32, #gpu.address_space<workgroup>>
          memref.store %x, %src[%c0] : memref<?xf32>
        }
        kda.lds_barrier
      }
      kda.async_wait 0
    }
    gpu.return
  }
}

// -----

// The static twin: iteration 256 reads past its slot.
gpu.module @kernels attributes {kda.target = #kda.target<"sm_90">} {
  kda.lds_buffer @r slots(2) slot_bytes(1024) offset(0)
  gpu.func @static_index(%src: memref<?xf32>)
      workgroup(%lds : memref<2048xi8, #gpu.address_space<workgroup>>) kernel {
    // expected-error @+1 {{R1: the read of iteration 256 from @r slot 0 loads bytes [1024, 1028) through a view of the ring, outside the slot's bytes [0, 1024): the wrong tile}}
    kda.schedule "static_index" trip_count(300) depth(2) target("sm_90") {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %t = arith.constant 300 : index
      %c1024 = arith.constant 1024 : index
      kda.async_copy @r[%c0] iter(%c0) do {
        kda.copy_row %src[%c0] to %lds[%c0] elems(256) atom(cp_async) : memref<?xf32>, memref<2048xi8, #gpu.address_space<workgroup>>
      }
      scf.for %i = %c0 to %t step %c1 {
        %n = arith.addi %i, %c1 : index
        %p = arith.cmpi slt, %n, %t : index
        %sn = kda.ring_slot %n of @r
        %at = arith.muli %sn, %c1024 : index
        kda.async_copy @r[%sn] iter(%n) if(%p) do {
          kda.copy_row %src[%c0] to %lds[%at] elems(256) atom(cp_async) : memref<?xf32>, memref<2048xi8, #gpu.address_space<workgroup>>
        }
        kda.async_wait 1
        kda.lds_barrier
        %s = kda.ring_slot %i of @r
        %rd = arith.muli %s, %c1024 : index
        kda.lds_read @r[%s] iter(%i) do {
          %v = memref.view %lds[%rd][] : memref<2048xi8, #gpu.address_space<workgroup>> to memref<256xf32, #gpu.address_space<workgroup>>
          %x = memref.load %v[%i] : memref<256xf32, #gpu.address_space<workgroup>>
          memref.store %x, %src[%c0] : memref<?xf32>
        }
        kda.lds_barrier
      }
      kda.async_wait 0
    }
    gpu.return
  }
}

// -----

// A copy row shifted by 4 bytes from iteration 300 on (i / 300 in the body).
gpu.module @kernels attributes {kda.target = #kda.target<"sm_90">} {
  kda.lds_buffer @r slots(2) slot_bytes(1024) offset(0)
  gpu.func @dyn_row(%src: memref<?xf32>, %t: index)
      workgroup(%lds : memref<2048xi8, #gpu.address_space<workgroup>>) kernel {
    // expected-error @+1 {{R0: cannot analyse kda.copy_row: the LDS byte it starts at cannot be bounded from the slot, constants and the body's own loops}}
    kda.schedule "dyn_row" dynamic_trip_count(%t) depth(2) target("sm_90") {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c300 = arith.constant 300 : index
      %c1024 = arith.constant 1024 : index
      %p0 = arith.cmpi slt, %c0, %t : index
      kda.async_copy @r[%c0] iter(%c0) if(%p0) do {
        kda.copy_row %src[%c0] to %lds[%c0] elems(256) atom(cp_async) : memref<?xf32>, memref<2048xi8, #gpu.address_space<workgroup>>
      }
      scf.for %i = %c0 to %t step %c1 {
        %n = arith.addi %i, %c1 : index
        %p = arith.cmpi slt, %n, %t : index
        %sn = kda.ring_slot %n of @r
        kda.async_copy @r[%sn] iter(%n) if(%p) do {
          %base = arith.muli %sn, %c1024 : index
          %q = arith.divui %n, %c300 : index
          %sh = arith.muli %q, %c4 : index
          %at = arith.addi %base, %sh : index
          kda.copy_row %src[%c0] to %lds[%at] elems(256) atom(cp_async) : memref<?xf32>, memref<2048xi8, #gpu.address_space<workgroup>>
        }
        kda.async_wait 1
        kda.lds_barrier
        %s = kda.ring_slot %i of @r
        kda.lds_read @r[%s] iter(%i)
        kda.lds_barrier
      }
      kda.async_wait 0
    }
    gpu.return
  }
}

// -----

// Safe: the body indexes by the iteration only through a remainder that
// stays inside the slot (i mod 256 of 256 floats), and copies by the slot.
gpu.module @kernels attributes {kda.target = #kda.target<"sm_90">} {
  kda.lds_buffer @r slots(2) slot_bytes(1024) offset(0)
  gpu.func @dyn_rem(%src: memref<?xf32>, %t: index)
      workgroup(%lds : memref<2048xi8, #gpu.address_space<workgroup>>) kernel {
    kda.schedule "dyn_rem" dynamic_trip_count(%t) depth(2) target("sm_90") {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c256 = arith.constant 256 : index
      %c1024 = arith.constant 1024 : index
      %p0 = arith.cmpi slt, %c0, %t : index
      kda.async_copy @r[%c0] iter(%c0) if(%p0) do {
        kda.copy_row %src[%c0] to %lds[%c0] elems(256) atom(cp_async) : memref<?xf32>, memref<2048xi8, #gpu.address_space<workgroup>>
      }
      scf.for %i = %c0 to %t step %c1 {
        %n = arith.addi %i, %c1 : index
        %p = arith.cmpi slt, %n, %t : index
        %sn = kda.ring_slot %n of @r
        kda.async_copy @r[%sn] iter(%n) if(%p) do {
          %at = arith.muli %sn, %c1024 : index
          kda.copy_row %src[%n] to %lds[%at] elems(256) atom(cp_async) : memref<?xf32>, memref<2048xi8, #gpu.address_space<workgroup>>
        }
        kda.async_wait 1
        kda.lds_barrier
        %s = kda.ring_slot %i of @r
        %rd = arith.muli %s, %c1024 : index
        kda.lds_read @r[%s] iter(%i) do {
          %v = memref.view %lds[%rd][] : memref<2048xi8, #gpu.address_space<workgroup>> to memref<256xf32, #gpu.address_space<workgroup>>
          %j = arith.remui %i, %c256 : index
          %x = memref.load %v[%j] : memref<256xf32, #gpu.address_space<workgroup>>
          memref.store %x, %src[%i] : memref<?xf32>
        }
        kda.lds_barrier
      }
      kda.async_wait 0
    }
    gpu.return
  }
}
