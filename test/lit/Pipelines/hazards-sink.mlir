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
