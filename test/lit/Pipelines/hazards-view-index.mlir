// A read body's loads and stores through a view of its slot are bounded too,
// not only the view: an index past the view's end reaches the next bytes of
// LDS - at depth 2, the slot the next iteration's copy is landing in - and
// the model would not see that read. Each access's bytes (the view's place,
// each index over its range: constants, the slot and iteration, the body's
// own loops by their start, step and bound, thread and lane ids within the
// kernel's known_block_size, a select narrowed by the comparison that picks
// it, arith's range rules; a vector's span) must lie in the slot the read
// names where they reach the ring (R1); an index that cannot be bounded is
// R0, and so is any other op of the body that takes LDS which may hold the
// ring (a transfer read: not modelled). The views are checked as before (hazards-slot-bytes.mlir). Rings: @r
// two 1 KiB slots over a 2 KiB array, iteration n + 1 copied while n is read.
// RUN: kda-opt %s -split-input-file -verify-diagnostics --kda-verify-pipeline

// Safe: a body loop by vectors of 4 whose last start, 252, its step
// decides (its bound, 255, would not), a clamped index
// (select(j < 253, j, 0) over j to 260: a vector of 4 at 252 at most) and a thread's own element
// (256 threads).
gpu.module @kernels attributes {kda.target = #kda.target<"sm_90">} {
  kda.lds_buffer @r slots(2) slot_bytes(1024) offset(0)
  gpu.func @in_view(%src: memref<?xf32>)
      workgroup(%lds : memref<2048xi8, #gpu.address_space<workgroup>>)
      kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
    %tid = gpu.thread_id x
    kda.schedule "in_view" trip_count(4) depth(2) target("sm_90") {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c253 = arith.constant 253 : index
      %c255 = arith.constant 255 : index
      %c264 = arith.constant 264 : index
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
          scf.for %j = %c0 to %c255 step %c4 {
            %x = vector.load %v[%j] : memref<256xf32, #gpu.address_space<workgroup>>, vector<4xf32>
            vector.store %x, %src[%j] : memref<?xf32>, vector<4xf32>
          }
          scf.for %j = %c0 to %c264 step %c4 {
            %in = arith.cmpi ult, %j, %c253 : index
            %k = arith.select %in, %j, %c0 : index
            %y = vector.load %v[%k] : memref<256xf32, #gpu.address_space<workgroup>>, vector<4xf32>
            vector.store %y, %src[%k] : memref<?xf32>, vector<4xf32>
          }
          %z = memref.load %v[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
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

// One float past the view: the first float of the slot being filled.
gpu.module @kernels attributes {kda.target = #kda.target<"sm_90">} {
  kda.lds_buffer @r slots(2) slot_bytes(1024) offset(0)
  gpu.func @past_end(%src: memref<?xf32>)
      workgroup(%lds : memref<2048xi8, #gpu.address_space<workgroup>>) kernel {
    // expected-error @+1 {{R1: the read of iteration 0 from @r slot 0 loads bytes [1024, 1028) through a view of the ring, outside the slot's bytes [0, 1024): the wrong tile (pipeline 'past_end' at depth 2)}}
    kda.schedule "past_end" trip_count(4) depth(2) target("sm_90") {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c256 = arith.constant 256 : index
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
          %x = memref.load %v[%c256] : memref<256xf32, #gpu.address_space<workgroup>>
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

// A body loop one element too long (j <= 256).
gpu.module @kernels attributes {kda.target = #kda.target<"sm_90">} {
  kda.lds_buffer @r slots(2) slot_bytes(1024) offset(0)
  gpu.func @loop_past(%src: memref<?xf32>)
      workgroup(%lds : memref<2048xi8, #gpu.address_space<workgroup>>) kernel {
    // expected-error @+1 {{R1: the read of iteration 0 from @r slot 0 may load bytes [0, 1028) through a view of the ring, outside the slot's bytes [0, 1024): the wrong tile (pipeline 'loop_past' at depth 2)}}
    kda.schedule "loop_past" trip_count(4) depth(2) target("sm_90") {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c257 = arith.constant 257 : index
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
          scf.for %j = %c0 to %c257 step %c1 {
            %x = memref.load %v[%j] : memref<256xf32, #gpu.address_space<workgroup>>
            memref.store %x, %src[%j] : memref<?xf32>
          }
        }
        kda.lds_barrier
      }
      kda.async_wait 0
    }
    gpu.return
  }
}

// -----

// A vector of 4 at the view's last float but 3: its span runs 12 bytes on.
gpu.module @kernels attributes {kda.target = #kda.target<"sm_90">} {
  kda.lds_buffer @r slots(2) slot_bytes(1024) offset(0)
  gpu.func @vector_tail(%src: memref<?xf32>)
      workgroup(%lds : memref<2048xi8, #gpu.address_space<workgroup>>) kernel {
    // expected-error @+1 {{R1: the read of iteration 0 from @r slot 0 loads bytes [1012, 1028) through a view of the ring, outside the slot's bytes [0, 1024): the wrong tile (pipeline 'vector_tail' at depth 2)}}
    kda.schedule "vector_tail" trip_count(4) depth(2) target("sm_90") {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c253 = arith.constant 253 : index
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
          %x = vector.load %v[%c253] : memref<256xf32, #gpu.address_space<workgroup>>, vector<4xf32>
          vector.store %x, %src[%c0] : memref<?xf32>, vector<4xf32>
        }
        kda.lds_barrier
      }
      kda.async_wait 0
    }
    gpu.return
  }
}

// -----

// One float before the view: in slot 1's read, the last float of slot 0,
// which the copy of iteration 2 is filling (in slot 0's, the array's byte
// before the ring: its own, outside the ring, which a body may use).
gpu.module @kernels attributes {kda.target = #kda.target<"sm_90">} {
  kda.lds_buffer @r slots(2) slot_bytes(1024) offset(1024)
  gpu.func @before_start(%src: memref<?xf32>)
      workgroup(%lds : memref<3072xi8, #gpu.address_space<workgroup>>) kernel {
    // expected-error @+1 {{R1: the read of iteration 1 from @r slot 1 loads bytes [2044, 2048) through a view of the ring, outside the slot's bytes [2048, 3072): the wrong tile (pipeline 'before_start' at depth 2)}}
    kda.schedule "before_start" trip_count(4) depth(2) target("sm_90") {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c1024 = arith.constant 1024 : index
      %m1 = arith.subi %c0, %c1 : index
      kda.async_copy @r[%c0] iter(%c0) do {
        kda.copy_row %src[%c0] to %lds[%c1024] elems(256) atom(cp_async) : memref<?xf32>, memref<3072xi8, #gpu.address_space<workgroup>>
      }
      scf.for %i = %c0 to %c4 step %c1 {
        %n = arith.addi %i, %c1 : index
        %p = arith.cmpi slt, %n, %c4 : index
        %sn = kda.ring_slot %n of @r
        %sb = arith.muli %sn, %c1024 : index
        %at = arith.addi %sb, %c1024 : index
        kda.async_copy @r[%sn] iter(%n) if(%p) do {
          kda.copy_row %src[%c0] to %lds[%at] elems(256) atom(cp_async) : memref<?xf32>, memref<3072xi8, #gpu.address_space<workgroup>>
        }
        kda.async_wait 1
        kda.lds_barrier
        %s = kda.ring_slot %i of @r
        %sr = arith.muli %s, %c1024 : index
        %rd = arith.addi %sr, %c1024 : index
        kda.lds_read @r[%s] iter(%i) do {
          %v = memref.view %lds[%rd][] : memref<3072xi8, #gpu.address_space<workgroup>> to memref<256xf32, #gpu.address_space<workgroup>>
          %x = memref.load %v[%m1] : memref<256xf32, #gpu.address_space<workgroup>>
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

// A thread's own element with 512 threads to a 256-float view.
gpu.module @kernels attributes {kda.target = #kda.target<"sm_90">} {
  kda.lds_buffer @r slots(2) slot_bytes(1024) offset(0)
  gpu.func @threads(%src: memref<?xf32>)
      workgroup(%lds : memref<2048xi8, #gpu.address_space<workgroup>>)
      kernel attributes {known_block_size = array<i32: 512, 1, 1>} {
    %tid = gpu.thread_id x
    // expected-error @+1 {{R1: the read of iteration 0 from @r slot 0 may load bytes [0, 2048) through a view of the ring, outside the slot's bytes [0, 1024): the wrong tile (pipeline 'threads' at depth 2)}}
    kda.schedule "threads" trip_count(4) depth(2) target("sm_90") {
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
          %x = memref.load %v[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
          memref.store %x, %src[%tid] : memref<?xf32>
        }
        kda.lds_barrier
      }
      kda.async_wait 0
    }
    gpu.return
  }
}

// -----

// An index read from memory: nothing bounds it, R0.
gpu.module @kernels attributes {kda.target = #kda.target<"sm_90">} {
  kda.lds_buffer @r slots(2) slot_bytes(1024) offset(0)
  gpu.func @from_memory(%src: memref<?xf32>, %idx: memref<?xindex>)
      workgroup(%lds : memref<2048xi8, #gpu.address_space<workgroup>>) kernel {
    // expected-error @+1 {{R0: cannot analyse memref.load: the LDS element it indexes through a view of the ring cannot be bounded from the slot, constants and the body's own loops (pipeline 'from_memory' at depth 2)}}
    kda.schedule "from_memory" trip_count(4) depth(2) target("sm_90") {
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
          %j = memref.load %idx[%i] : memref<?xindex>
          %x = memref.load %v[%j] : memref<256xf32, #gpu.address_space<workgroup>>
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

// A transfer read of a view of the slot is bounded like a vector load
// (elements 0..3 of the slot's 256): accepted. (It was R0 before the fifth
// campaign bounded transfers, masked accesses and atomics.)
gpu.module @kernels attributes {kda.target = #kda.target<"sm_90">} {
  kda.lds_buffer @r slots(2) slot_bytes(1024) offset(0)
  gpu.func @unmodelled(%src: memref<?xf32>)
      workgroup(%lds : memref<2048xi8, #gpu.address_space<workgroup>>) kernel {
    kda.schedule "unmodelled" trip_count(4) depth(2) target("sm_90") {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c1024 = arith.constant 1024 : index
      %pad = arith.constant 0.0 : f32
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
          %x = vector.transfer_read %v[%c0], %pad : memref<256xf32, #gpu.address_space<workgroup>>, vector<4xf32>
          vector.store %x, %src[%c0] : memref<?xf32>, vector<4xf32>
        }
        kda.lds_barrier
      }
      kda.async_wait 0
    }
    gpu.return
  }
}

// -----

// Its twin reads elements 254..257 of the 256 (a transfer pads, on paper,
// what is out of bounds; the bytes are the next slot's, in flight).
gpu.module @kernels attributes {kda.target = #kda.target<"sm_90">} {
  kda.lds_buffer @r slots(2) slot_bytes(1024) offset(0)
  gpu.func @transfer_past(%src: memref<?xf32>)
      workgroup(%lds : memref<2048xi8, #gpu.address_space<workgroup>>) kernel {
    // expected-error @+1 {{R1: the read of iteration 0 from @r slot 0 loads bytes [1016, 1032) through a view of the ring, outside the slot's bytes [0, 1024): the wrong tile}}
    kda.schedule "transfer_past" trip_count(4) depth(2) target("sm_90") {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c1024 = arith.constant 1024 : index
      %pad = arith.constant 0.0 : f32
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
          %c254 = arith.constant 254 : index
          %x = vector.transfer_read %v[%c254], %pad : memref<256xf32, #gpu.address_space<workgroup>>, vector<4xf32>
          vector.store %x, %src[%c0] : memref<?xf32>, vector<4xf32>
        }
        kda.lds_barrier
      }
      kda.async_wait 0
    }
    gpu.return
  }
}

// -----

// A lane id whose upper_bound (32) is below the target's wave (64): lanes
// 32..63 exist, and their 4 l + 128 passes the 256-float view. The range is
// the wave's, not the attribute's.
gpu.module @kernels attributes {kda.target = #kda.target<"gfx942">} {
  kda.lds_buffer @r slots(2) slot_bytes(1024) offset(0)
  gpu.func @lane_bound(%src: memref<?xf32>)
      workgroup(%lds : memref<2048xi8, #gpu.address_space<workgroup>>)
      kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    // expected-error @+1 {{R1: the read of iteration 0 from @r slot 0 may load bytes [512, 1524) through a view of the ring, outside the slot's bytes [0, 1024): the wrong tile}}
    kda.schedule "lane_bound" trip_count(2) depth(1) target("gfx942") {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c4 = arith.constant 4 : index
      %c128 = arith.constant 128 : index
      scf.for %i = %c0 to %c2 step %c1 {
        kda.staged_copy @r[%c0] iter(%i) do {
          kda.copy_row %src[%c0] to %lds[%c0] elems(256) atom(staged) : memref<?xf32>, memref<2048xi8, #gpu.address_space<workgroup>>
        }
        kda.lds_barrier
        kda.lds_read @r[%c0] iter(%i) do {
          %v = memref.view %lds[%c0][] : memref<2048xi8, #gpu.address_space<workgroup>> to memref<256xf32, #gpu.address_space<workgroup>>
          %l = gpu.lane_id upper_bound 32
          %l4 = arith.muli %l, %c4 : index
          %ix = arith.addi %l4, %c128 : index
          %x = memref.load %v[%ix] : memref<256xf32, #gpu.address_space<workgroup>>
          memref.store %x, %src[%c0] : memref<?xf32>
        }
        kda.lds_barrier
      }
    }
    gpu.return
  }
}
