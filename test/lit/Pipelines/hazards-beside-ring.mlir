// A read body's loads and stores of LDS arrays beside the ring (its scratch)
// must stay inside those arrays: one index past them reaches the next
// array's bytes, which may be the ring's (a tile in flight), and no event of
// the schedule orders that access (R1). Indices are bounded over their
// ranges (the iteration, the slot, thread ids, the body's own loops).
// RUN: kda-opt %s -split-input-file -verify-diagnostics --kda-verify-pipeline

// At iteration 0 the body stores scratch[i - 1]: the float before the
// scratch array, the last of ring slot 1, where iteration 1's copy lands.
gpu.module @kernels attributes {kda.target = #kda.target<"sm_90">} {
  kda.lds_buffer @r slots(2) slot_bytes(1024) offset(0)
  gpu.func @under(%src: memref<?xf32>)
      workgroup(%lds : memref<2048xi8, #gpu.address_space<workgroup>>, %scr : memref<64xf32, #gpu.address_space<workgroup>>)
      kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    // expected-error @+1 {{R1: the read of iteration 0 from @r slot 0 stores elements [-1, -1] of dimension 0 of memref<64xf32, #gpu.address_space<workgroup>> (0 .. 63): past its array the bytes are another's (the ring's, a tile in flight), which the schedule does not see it touch}}
    kda.schedule "under" trip_count(4) depth(2) target("sm_90") {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c1024 = arith.constant 1024 : index
      kda.async_copy @r[%c0] iter(%c0) do {
        kda.copy_row %src[%c0] to %lds[%c0] elems(256) atom(cp_async) : memref<?xf32>, memref<2048xi8, #gpu.address_space<workgroup>>
      }
      scf.for %i = %c0 to %c4 step %c1 {
        %n = arith.addi %i, %c1 : index
        %p = arith.cmpi slt, %n, %c4 : index
        %sn = kda.ring_slot %n of @r
        kda.async_copy @r[%sn] iter(%n) if(%p) do {
          %at = arith.muli %sn, %c1024 : index
          kda.copy_row %src[%c0] to %lds[%at] elems(256) atom(cp_async) : memref<?xf32>, memref<2048xi8, #gpu.address_space<workgroup>>
        }
        kda.async_wait 1
        kda.lds_barrier
        %s = kda.ring_slot %i of @r
        kda.lds_read @r[%s] iter(%i) do {
          %rd = arith.muli %s, %c1024 : index
          %v = memref.view %lds[%rd][] : memref<2048xi8, #gpu.address_space<workgroup>> to memref<256xf32, #gpu.address_space<workgroup>>
          %x = memref.load %v[%c0] : memref<256xf32, #gpu.address_space<workgroup>>
          %j = arith.subi %i, %c1 : index
          memref.store %x, %scr[%j] : memref<64xf32, #gpu.address_space<workgroup>>
        }
        kda.lds_barrier
      }
      kda.async_wait 0
      kda.lds_barrier
    }
    gpu.return
  }
}

// -----

// Thread t stores scratch[t - 1]: thread 0 before the array.
gpu.module @kernels attributes {kda.target = #kda.target<"sm_90">} {
  kda.lds_buffer @r slots(2) slot_bytes(1024) offset(0)
  gpu.func @under_tid(%src: memref<?xf32>)
      workgroup(%lds : memref<2048xi8, #gpu.address_space<workgroup>>, %scr : memref<64xf32, #gpu.address_space<workgroup>>)
      kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    // expected-error @+1 {{R1: the read of iteration 0 from @r slot 0 may store elements [-1, 62] of dimension 0 of memref<64xf32}}
    kda.schedule "under_tid" trip_count(4) depth(2) target("sm_90") {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c1024 = arith.constant 1024 : index
      kda.async_copy @r[%c0] iter(%c0) do {
        kda.copy_row %src[%c0] to %lds[%c0] elems(256) atom(cp_async) : memref<?xf32>, memref<2048xi8, #gpu.address_space<workgroup>>
      }
      scf.for %i = %c0 to %c4 step %c1 {
        %n = arith.addi %i, %c1 : index
        %p = arith.cmpi slt, %n, %c4 : index
        %sn = kda.ring_slot %n of @r
        kda.async_copy @r[%sn] iter(%n) if(%p) do {
          %at = arith.muli %sn, %c1024 : index
          kda.copy_row %src[%c0] to %lds[%at] elems(256) atom(cp_async) : memref<?xf32>, memref<2048xi8, #gpu.address_space<workgroup>>
        }
        kda.async_wait 1
        kda.lds_barrier
        %s = kda.ring_slot %i of @r
        kda.lds_read @r[%s] iter(%i) do {
          %rd = arith.muli %s, %c1024 : index
          %v = memref.view %lds[%rd][] : memref<2048xi8, #gpu.address_space<workgroup>> to memref<256xf32, #gpu.address_space<workgroup>>
          %x = memref.load %v[%c0] : memref<256xf32, #gpu.address_space<workgroup>>
          %tid = gpu.thread_id x
          %j = arith.subi %tid, %c1 : index
          memref.store %x, %scr[%j] : memref<64xf32, #gpu.address_space<workgroup>>
        }
        kda.lds_barrier
      }
      kda.async_wait 0
      kda.lds_barrier
    }
    gpu.return
  }
}

// -----

// Safe: thread t stores scratch[t], inside the array.
gpu.module @kernels attributes {kda.target = #kda.target<"sm_90">} {
  kda.lds_buffer @r slots(2) slot_bytes(1024) offset(0)
  gpu.func @inside(%src: memref<?xf32>)
      workgroup(%lds : memref<2048xi8, #gpu.address_space<workgroup>>, %scr : memref<64xf32, #gpu.address_space<workgroup>>)
      kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    kda.schedule "inside" trip_count(4) depth(2) target("sm_90") {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c1024 = arith.constant 1024 : index
      kda.async_copy @r[%c0] iter(%c0) do {
        kda.copy_row %src[%c0] to %lds[%c0] elems(256) atom(cp_async) : memref<?xf32>, memref<2048xi8, #gpu.address_space<workgroup>>
      }
      scf.for %i = %c0 to %c4 step %c1 {
        %n = arith.addi %i, %c1 : index
        %p = arith.cmpi slt, %n, %c4 : index
        %sn = kda.ring_slot %n of @r
        kda.async_copy @r[%sn] iter(%n) if(%p) do {
          %at = arith.muli %sn, %c1024 : index
          kda.copy_row %src[%c0] to %lds[%at] elems(256) atom(cp_async) : memref<?xf32>, memref<2048xi8, #gpu.address_space<workgroup>>
        }
        kda.async_wait 1
        kda.lds_barrier
        %s = kda.ring_slot %i of @r
        kda.lds_read @r[%s] iter(%i) do {
          %rd = arith.muli %s, %c1024 : index
          %v = memref.view %lds[%rd][] : memref<2048xi8, #gpu.address_space<workgroup>> to memref<256xf32, #gpu.address_space<workgroup>>
          %x = memref.load %v[%c0] : memref<256xf32, #gpu.address_space<workgroup>>
          %tid = gpu.thread_id x
          memref.store %x, %scr[%tid] : memref<64xf32, #gpu.address_space<workgroup>>
        }
        kda.lds_barrier
      }
      kda.async_wait 0
      kda.lds_barrier
    }
    gpu.return
  }
}

// -----

// A view of 64 floats at byte 16 of a 256-byte scratch array: its last 16
// bytes lie past the array.
gpu.module @kernels attributes {kda.target = #kda.target<"sm_90">} {
  kda.lds_buffer @r slots(2) slot_bytes(1024) offset(0)
  gpu.func @view_past(%src: memref<?xf32>)
      workgroup(%lds : memref<2048xi8, #gpu.address_space<workgroup>>, %scr : memref<256xi8, #gpu.address_space<workgroup>>)
      kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    // expected-error @+1 {{R1: the read of iteration 0 from @r slot 0 views bytes [2064, 2320) of an LDS array at bytes [2048, 2304): past it the bytes are another array's}}
    kda.schedule "view_past" trip_count(2) depth(1) target("sm_90") {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c16 = arith.constant 16 : index
      scf.for %i = %c0 to %c2 step %c1 {
        kda.async_copy @r[%c0] iter(%i) do {
          kda.copy_row %src[%c0] to %lds[%c0] elems(256) atom(cp_async) : memref<?xf32>, memref<2048xi8, #gpu.address_space<workgroup>>
        }
        kda.async_wait 0
        kda.lds_barrier
        kda.lds_read @r[%c0] iter(%i) do {
          %v = memref.view %lds[%c0][] : memref<2048xi8, #gpu.address_space<workgroup>> to memref<256xf32, #gpu.address_space<workgroup>>
          %x = memref.load %v[%c0] : memref<256xf32, #gpu.address_space<workgroup>>
          %w = memref.view %scr[%c16][] : memref<256xi8, #gpu.address_space<workgroup>> to memref<64xf32, #gpu.address_space<workgroup>>
          %tid = gpu.thread_id x
          memref.store %x, %w[%tid] : memref<64xf32, #gpu.address_space<workgroup>>
        }
        kda.lds_barrier
      }
    }
    gpu.return
  }
}
