// gfx950's waits count instructions (vmcnt), so a predicated-off async copy
// still issues its loads, into the ring's sink slot just past its last
// (lowering::emitAsyncCopyBody). No other ring may hold those bytes.
// RUN: kda-opt %s -split-input-file -verify-diagnostics --kda-verify-pipeline

// @b right after @a's two slots: in @a's sink (R2).
gpu.module @kernels attributes {kda.target = #kda.target<"gfx950">} {
  kda.lds_buffer @a slots(2) slot_bytes(1024) offset(0)
  kda.lds_buffer @b slots(1) slot_bytes(1024) offset(2048)
  gpu.func @sink(%src: memref<?xf32>, %dst: memref<?xf32>)
      workgroup(%lds : memref<3072xi8, #gpu.address_space<workgroup>>)
      kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
    // expected-error @+1 {{R2: @b shares bytes [2048, 3072) with the sink slot of @a (slot 2, past its last), where gfx950's predicated-off async copies land at any time}}
    kda.schedule "sink" trip_count(4) depth(2) target("gfx950") {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c1024 = arith.constant 1024 : index
      %c2048 = arith.constant 2048 : index
      kda.staged_copy @b[%c0] iter(%c0) do {
        kda.copy_row %src[%c0] to %lds[%c2048] elems(256) atom(staged) : memref<?xf32>, memref<3072xi8, #gpu.address_space<workgroup>>
      }
      kda.async_copy @a[%c0] iter(%c0) do {
        kda.copy_row %src[%c0] to %lds[%c0] elems(64) atom(global_load_lds) : memref<?xf32>, memref<3072xi8, #gpu.address_space<workgroup>>
      }
      scf.for %i = %c0 to %c4 step %c1 {
        kda.async_wait 0
        kda.lds_barrier
        %s = kda.ring_slot %i of @a
        kda.lds_read @a[%s] iter(%i)
        %n = arith.addi %i, %c1 : index
        %p = arith.cmpi slt, %n, %c4 : index
        %sn = kda.ring_slot %n of @a
        kda.async_copy @a[%sn] iter(%n) if(%p) do {
          %at = arith.muli %sn, %c1024 : index
          kda.copy_row %src[%n] to %lds[%at] elems(64) atom(global_load_lds) : memref<?xf32>, memref<3072xi8, #gpu.address_space<workgroup>>
        }
      }
      kda.async_wait 0
      kda.lds_barrier
      kda.lds_read @b[%c0] iter(%c0)
      kda.lds_barrier
    }
    gpu.return
  }
}

// -----

// The same with @b past the sink: safe.
gpu.module @kernels attributes {kda.target = #kda.target<"gfx950">} {
  kda.lds_buffer @a slots(2) slot_bytes(1024) offset(0)
  kda.lds_buffer @b slots(1) slot_bytes(1024) offset(3072)
  gpu.func @sink(%src: memref<?xf32>, %dst: memref<?xf32>)
      workgroup(%lds : memref<4096xi8, #gpu.address_space<workgroup>>)
      kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
    kda.schedule "sink" trip_count(4) depth(2) target("gfx950") {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c1024 = arith.constant 1024 : index
      %c3072 = arith.constant 3072 : index
      kda.staged_copy @b[%c0] iter(%c0) do {
        kda.copy_row %src[%c0] to %lds[%c3072] elems(256) atom(staged) : memref<?xf32>, memref<4096xi8, #gpu.address_space<workgroup>>
      }
      kda.async_copy @a[%c0] iter(%c0) do {
        kda.copy_row %src[%c0] to %lds[%c0] elems(64) atom(global_load_lds) : memref<?xf32>, memref<4096xi8, #gpu.address_space<workgroup>>
      }
      scf.for %i = %c0 to %c4 step %c1 {
        kda.async_wait 0
        kda.lds_barrier
        %s = kda.ring_slot %i of @a
        kda.lds_read @a[%s] iter(%i)
        %n = arith.addi %i, %c1 : index
        %p = arith.cmpi slt, %n, %c4 : index
        %sn = kda.ring_slot %n of @a
        kda.async_copy @a[%sn] iter(%n) if(%p) do {
          %at = arith.muli %sn, %c1024 : index
          kda.copy_row %src[%n] to %lds[%at] elems(64) atom(global_load_lds) : memref<?xf32>, memref<4096xi8, #gpu.address_space<workgroup>>
        }
      }
      kda.async_wait 0
      kda.lds_barrier
      kda.lds_read @b[%c0] iter(%c0)
      kda.lds_barrier
    }
    gpu.return
  }
}

// -----

// The sink slot must lie inside the array the copy rows write: here the
// array holds only the two slots, so iteration 4's predicated-off copy
// (its iteration clamped to 3, as the lowering clones it) writes the 1 KiB
// past the array, where the scratch attribution lies.
gpu.module @kernels attributes {kda.target = #kda.target<"gfx950">} {
  kda.lds_buffer @r slots(2) slot_bytes(1024) offset(0)
  gpu.func @sink_past(%src: memref<?xf32>)
      workgroup(%lds : memref<2048xi8, #gpu.address_space<workgroup>>, %scr : memref<256xf32, #gpu.address_space<workgroup>>)
      kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    // expected-error @+1 {{R2: the copy of iteration 3 into @r slot 2 (the sink slot, where it lands predicated off) has a copy row that writes bytes [2048, 3072), past the end of the LDS array it writes (bytes [0, 2048))}}
    kda.schedule "sink_past" trip_count(4) depth(2) target("gfx950") {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c1024 = arith.constant 1024 : index
      kda.async_copy @r[%c0] iter(%c0) do {
        kda.copy_row %src[%c0] to %lds[%c0] elems(256) atom(global_load_lds) : memref<?xf32>, memref<2048xi8, #gpu.address_space<workgroup>>
      }
      scf.for %i = %c0 to %c4 step %c1 {
        %n = arith.addi %i, %c1 : index
        %p = arith.cmpi slt, %n, %c4 : index
        %sn = kda.ring_slot %n of @r
        kda.async_copy @r[%sn] iter(%n) if(%p) do {
          %at = arith.muli %sn, %c1024 : index
          kda.copy_row %src[%c0] to %lds[%at] elems(256) atom(global_load_lds) : memref<?xf32>, memref<2048xi8, #gpu.address_space<workgroup>>
        }
        kda.async_wait 1
        kda.lds_barrier
        %s = kda.ring_slot %i of @r
        kda.lds_read @r[%s] iter(%i)
        kda.lds_barrier
      }
      kda.async_wait 0
      kda.lds_barrier
    }
    gpu.return
  }
}

// -----

// vmcnt counts copy instructions: a row in a loop of run-time trips (none
// for iteration 3) would let a group issue fewer than the wait counts, and
// an older group's row pass `kda.async_wait 1`.
gpu.module @kernels attributes {kda.target = #kda.target<"gfx950">} {
  kda.lds_buffer @r slots(2) slot_bytes(1024) offset(0)
  gpu.func @rows_dynamic(%src: memref<?xf32>)
      workgroup(%lds : memref<3072xi8, #gpu.address_space<workgroup>>)
      kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    // expected-error @+1 {{R0: cannot analyse kda.copy_row: it runs under scf.for in an async copy, a number of times known only at run time, and gfx950's waits count copy instructions (vmcnt)}}
    kda.schedule "rows_dynamic" trip_count(4) depth(2) target("gfx950") {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c3 = arith.constant 3 : index
      %c4 = arith.constant 4 : index
      %c1024 = arith.constant 1024 : index
      kda.async_copy @r[%c0] iter(%c0) do {
        kda.copy_row %src[%c0] to %lds[%c0] elems(256) atom(global_load_lds) : memref<?xf32>, memref<3072xi8, #gpu.address_space<workgroup>>
      }
      scf.for %i = %c0 to %c4 step %c1 {
        %n = arith.addi %i, %c1 : index
        %p = arith.cmpi slt, %n, %c4 : index
        %sn = kda.ring_slot %n of @r
        %last = arith.cmpi eq, %n, %c3 : index
        %rows = arith.select %last, %c0, %c1 : index
        kda.async_copy @r[%sn] iter(%n) if(%p) do {
          %at = arith.muli %sn, %c1024 : index
          scf.for %k = %c0 to %rows step %c1 {
            kda.copy_row %src[%c0] to %lds[%at] elems(256) atom(global_load_lds) : memref<?xf32>, memref<3072xi8, #gpu.address_space<workgroup>>
          }
        }
        kda.async_wait 1
        kda.lds_barrier
        %s = kda.ring_slot %i of @r
        kda.lds_read @r[%s] iter(%i)
        kda.lds_barrier
      }
      kda.async_wait 0
      kda.lds_barrier
    }
    gpu.return
  }
}
