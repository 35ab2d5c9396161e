// What a read's or a copy's body may do to LDS besides the slot it names:
// reads write no ring, copies write only through their copy rows, and LDS
// beside the read's own ring may hold another ring's tiles.
// RUN: kda-opt %s -split-input-file -verify-diagnostics --kda-verify-pipeline

// A read's body stores into its own slot (thread t loads element t and
// stores element 255 - t): the other threads read the same tile, so a read
// may not write the ring at all (R1), inside its slot or not.
gpu.module @kernels attributes {kda.target = #kda.target<"sm_90">} {
  kda.lds_buffer @r slots(2) slot_bytes(1024) offset(0)
  gpu.func @store_in_read(%src: memref<?xf32>)
      workgroup(%lds : memref<2048xi8, #gpu.address_space<workgroup>>)
      kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
    %tid = gpu.thread_id x
    // expected-error @+1 {{R1: the read of iteration 0 from @r slot 0 may store bytes [0, 1024) of the ring (the slot is [0, 1024)): a read may not write the ring, whose tiles the other threads read and the copies refill}}
    kda.schedule "store_in_read" trip_count(4) depth(2) target("sm_90") {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c255 = arith.constant 255 : index
      %c1024 = arith.constant 1024 : index
      kda.async_copy @r[%c0] iter(%c0) do {
        kda.copy_row %src[%c0] to %lds[%c0] elems(256) atom(cp_async) : memref<?xf32>, memref<2048xi8, #gpu.address_space<workgroup>>
      }
      scf.for %i = %c0 to %c4 step %c1 {
        %n = arith.addi %i, %c1 : index
        %p = arith.cmpi slt, %n, %c4 : index
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
          %z = memref.load %v[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
          %o = arith.subi %c255, %tid : index
          %z2 = arith.addf %z, %z : f32
          memref.store %z2, %v[%o] : memref<256xf32, #gpu.address_space<workgroup>>
          memref.store %z, %src[%tid] : memref<?xf32>
        }
        kda.lds_barrier
      }
      kda.async_wait 0
    }
    gpu.return
  }
}

// -----

// A read of @a stores into the bytes of ring @b, whose async copy is in
// flight: LDS beside the read's own ring may still hold another ring of the
// schedule (R2).
gpu.module @kernels attributes {kda.target = #kda.target<"sm_90">} {
  kda.lds_buffer @a slots(1) slot_bytes(1024) offset(0)
  kda.lds_buffer @b slots(1) slot_bytes(1024) offset(1024)
  gpu.func @other_ring(%src: memref<?xf32>)
      workgroup(%la : memref<1024xi8, #gpu.address_space<workgroup>>,
                %lb : memref<1024xi8, #gpu.address_space<workgroup>>)
      kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
    %tid = gpu.thread_id x
    // expected-error @+1 {{R2: the read of iteration 0 from @a slot 0 may store bytes [1024, 2048) of ring @b ([1024, 2048)), outside any read or copy of it: an access the schedule does not order}}
    kda.schedule "other_ring" trip_count(1) depth(1) target("sm_90") {
      %c0 = arith.constant 0 : index
      kda.async_copy @a[%c0] iter(%c0) do {
        kda.copy_row %src[%c0] to %la[%c0] elems(256) atom(cp_async) : memref<?xf32>, memref<1024xi8, #gpu.address_space<workgroup>>
      }
      kda.async_wait 0
      kda.lds_barrier
      kda.async_copy @b[%c0] iter(%c0) do {
        kda.copy_row %src[%c0] to %lb[%c0] elems(256) atom(cp_async) : memref<?xf32>, memref<1024xi8, #gpu.address_space<workgroup>>
      }
      kda.lds_read @a[%c0] iter(%c0) do {
        %v = memref.view %la[%c0][] : memref<1024xi8, #gpu.address_space<workgroup>> to memref<256xf32, #gpu.address_space<workgroup>>
        %x = memref.load %v[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
        %w = memref.view %lb[%c0][] : memref<1024xi8, #gpu.address_space<workgroup>> to memref<256xf32, #gpu.address_space<workgroup>>
        memref.store %x, %w[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
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

// Its safe twin: the store goes to a third attribution that holds no ring.
gpu.module @kernels attributes {kda.target = #kda.target<"sm_90">} {
  kda.lds_buffer @a slots(1) slot_bytes(1024) offset(0)
  kda.lds_buffer @b slots(1) slot_bytes(1024) offset(1024)
  gpu.func @other_ring(%src: memref<?xf32>)
      workgroup(%la : memref<1024xi8, #gpu.address_space<workgroup>>,
                %lb : memref<1024xi8, #gpu.address_space<workgroup>>,
                %lc : memref<1024xi8, #gpu.address_space<workgroup>>)
      kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
    %tid = gpu.thread_id x
    kda.schedule "other_ring" trip_count(1) depth(1) target("sm_90") {
      %c0 = arith.constant 0 : index
      kda.async_copy @a[%c0] iter(%c0) do {
        kda.copy_row %src[%c0] to %la[%c0] elems(256) atom(cp_async) : memref<?xf32>, memref<1024xi8, #gpu.address_space<workgroup>>
      }
      kda.async_wait 0
      kda.lds_barrier
      kda.async_copy @b[%c0] iter(%c0) do {
        kda.copy_row %src[%c0] to %lb[%c0] elems(256) atom(cp_async) : memref<?xf32>, memref<1024xi8, #gpu.address_space<workgroup>>
      }
      kda.lds_read @a[%c0] iter(%c0) do {
        %v = memref.view %la[%c0][] : memref<1024xi8, #gpu.address_space<workgroup>> to memref<256xf32, #gpu.address_space<workgroup>>
        %x = memref.load %v[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
        %w = memref.view %lc[%c0][] : memref<1024xi8, #gpu.address_space<workgroup>> to memref<256xf32, #gpu.address_space<workgroup>>
        memref.store %x, %w[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
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

// A copy's body writes LDS only through kda.copy_row: a plain store into
// the other slot (a tile other threads are reading) is an access no rule
// orders (R0).
gpu.module @kernels attributes {kda.target = #kda.target<"gfx942">} {
  kda.lds_buffer @r slots(2) slot_bytes(1024) offset(0)
  gpu.func @plain_store_in_copy(%src: memref<?xf32>)
      workgroup(%lds : memref<2048xi8, #gpu.address_space<workgroup>>)
      kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
    %tid = gpu.thread_id x
    // expected-error @+1 {{R0: cannot analyse memref.store: a copy's body touches LDS other than through kda.copy_row: its bytes are not modelled}}
    kda.schedule "plain_store" trip_count(4) depth(2) target("gfx942") {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c1024 = arith.constant 1024 : index
      kda.staged_copy @r[%c0] iter(%c0) do {
        kda.copy_row %src[%c0] to %lds[%c0] elems(256) atom(staged) : memref<?xf32>, memref<2048xi8, #gpu.address_space<workgroup>>
      }
      scf.for %i = %c0 to %c4 step %c1 {
        kda.lds_barrier
        %s = kda.ring_slot %i of @r
        %rd = arith.muli %s, %c1024 : index
        kda.lds_read @r[%s] iter(%i) do {
          %v = memref.view %lds[%rd][] : memref<2048xi8, #gpu.address_space<workgroup>> to memref<256xf32, #gpu.address_space<workgroup>>
          %z = memref.load %v[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
          memref.store %z, %src[%tid] : memref<?xf32>
        }
        %n = arith.addi %i, %c1 : index
        %p = arith.cmpi slt, %n, %c4 : index
        %sn = kda.ring_slot %n of @r
        %at = arith.muli %sn, %c1024 : index
        kda.staged_copy @r[%sn] iter(%n) if(%p) do {
          kda.copy_row %src[%c0] to %lds[%at] elems(256) atom(staged) : memref<?xf32>, memref<2048xi8, #gpu.address_space<workgroup>>
          %w = memref.view %lds[%rd][] : memref<2048xi8, #gpu.address_space<workgroup>> to memref<256xf32, #gpu.address_space<workgroup>>
          %f = arith.constant 0.0 : f32
          %c255 = arith.constant 255 : index
          %o = arith.subi %c255, %tid : index
          memref.store %f, %w[%o] : memref<256xf32, #gpu.address_space<workgroup>>
        }
      }
      kda.lds_barrier
    }
    gpu.return
  }
}
