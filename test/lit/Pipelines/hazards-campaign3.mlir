// The third hand-written-schedule campaign (2026-12-06): five ways through
// the verifier, closed. Each case is unsafe; the last two are their safe
// twins (the sink's bytes left alone; the schedule waits for every group).
// RUN: kda-opt %s -split-input-file -verify-diagnostics --kda-verify-pipeline

// A read body's i8 loop whose counter wraps past its bound (0, 100, -56,
// 44, ... for 0 to 120 by 100): its range is not [0, 100] but its type's.
gpu.module @kernels attributes {kda.target = #kda.target<"sm_90">} {
  kda.lds_buffer @r slots(2) slot_bytes(1024) offset(0)
  gpu.func @k(%src: memref<?xf32>, %dst: memref<?xf32>)
      workgroup(%lds : memref<2048xi8, #gpu.address_space<workgroup>>)
      kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
    %tid = gpu.thread_id x
    // expected-error @+1 {{R1: the read of iteration 0 from @r slot 0 may load bytes [-512, 512) through a view of the ring}}
    kda.schedule "k" trip_count(4) depth(2) target("sm_90") {
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
          %a0 = arith.constant 0 : i8
          %a1 = arith.constant 120 : i8
          %a2 = arith.constant 100 : i8
          scf.for %j = %a0 to %a1 step %a2 : i8 {
            %jj = arith.index_cast %j : i8 to index
            %x = memref.load %v[%jj] : memref<256xf32, #gpu.address_space<workgroup>>
            memref.store %x, %dst[%tid] : memref<?xf32>
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

// The same counter in a copy body: its rows reach the slot being read.

gpu.module @kernels attributes {kda.target = #kda.target<"emu32">} {
  kda.lds_buffer @r slots(2) slot_bytes(1024) offset(0)
  gpu.func @k()
      workgroup(%lds : memref<2048xi8, #gpu.address_space<workgroup>>)
      private(%src : memref<1024xf32, #gpu.address_space<private>>, %dst : memref<256xf32, #gpu.address_space<private>>)
      kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %tid = gpu.thread_id x
    // expected-error @+1 {{R2: the copy of iteration 1 into @r slot 1 has a copy row that may write bytes [512, 1788), outside the slot}}
    kda.schedule "k" trip_count(4) depth(2) target("emu32") {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c1024 = arith.constant 1024 : index
      kda.async_copy @r[%c0] iter(%c0) do {
        kda.copy_row %src[%c0] to %lds[%c0] elems(256) atom(cp_async) : memref<1024xf32, #gpu.address_space<private>>, memref<2048xi8, #gpu.address_space<workgroup>>
      }
      scf.for %i = %c0 to %c4 step %c1 {
        %n = arith.addi %i, %c1 : index
        %p = arith.cmpi slt, %n, %c4 : index
        %sn = kda.ring_slot %n of @r
        %at = arith.muli %sn, %c1024 : index
        kda.async_copy @r[%sn] iter(%n) if(%p) do {
          %a0 = arith.constant 0 : i8
          %a1 = arith.constant 120 : i8
          %a2 = arith.constant 100 : i8
          scf.for %j = %a0 to %a1 step %a2 : i8 {
            %jj = arith.index_cast %j : i8 to index
            %c4i = arith.constant 4 : index
            %off = arith.muli %jj, %c4i : index
            %b = arith.addi %at, %off : index
            kda.copy_row %src[%c0] to %lds[%b] elems(64) atom(cp_async) : memref<1024xf32, #gpu.address_space<private>>, memref<2048xi8, #gpu.address_space<workgroup>>
          }
        }
        kda.async_wait 1
        kda.lds_barrier
        %s = kda.ring_slot %i of @r
        %rd = arith.muli %s, %c1024 : index
        kda.lds_read @r[%s] iter(%i) do {
          %v = memref.view %lds[%rd][] : memref<2048xi8, #gpu.address_space<workgroup>> to memref<256xf32, #gpu.address_space<workgroup>>
          %x = memref.load %v[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
          memref.store %x, %dst[%tid] : memref<256xf32, #gpu.address_space<private>>
        }
        kda.lds_barrier
      }
      kda.async_wait 0
    }
    gpu.return
  }
}

// -----

// A thread id whose upper_bound (64) contradicts the kernel's 256 threads:
// the block size bounds it, not the annotation.
gpu.module @kernels attributes {kda.target = #kda.target<"sm_90">} {
  kda.lds_buffer @r slots(2) slot_bytes(1024) offset(0)
  gpu.func @k(%src: memref<?xf32>, %dst: memref<?xf32>)
      workgroup(%lds : memref<2048xi8, #gpu.address_space<workgroup>>)
      kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
    %tid = gpu.thread_id x
    // expected-error @+1 {{R1: the read of iteration 0 from @r slot 0 may load bytes [768, 1792) through a view of the ring}}
    kda.schedule "k" trip_count(4) depth(2) target("sm_90") {
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
          %t2 = gpu.thread_id x upper_bound 64
          %c192 = arith.constant 192 : index
          %ix = arith.addi %t2, %c192 : index
          %x = memref.load %v[%ix] : memref<256xf32, #gpu.address_space<workgroup>>
          memref.store %x, %dst[%tid] : memref<?xf32>
        }
        kda.lds_barrier
      }
      kda.async_wait 0
    }
    gpu.return
  }
}

// -----

// gfx950: a read body uses its own ring's sink slot (bytes [2048, 3072))
// as scratch while a predicated-off copy's loads may be landing there.
gpu.module @kernels attributes {kda.target = #kda.target<"gfx950">} {
  kda.lds_buffer @r slots(2) slot_bytes(1024) offset(0)
  gpu.func @sink_scratch(%src: memref<?xf32>, %dst: memref<?xf32>)
      workgroup(%lds : memref<3072xi8, #gpu.address_space<workgroup>>)
      kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
    %tid = gpu.thread_id x
    // expected-error @+1 {{R1: the read of iteration 0 from @r slot 0 views bytes [2048, 3072), outside the slot}}
    kda.schedule "sink_scratch" trip_count(4) depth(2) target("gfx950") {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c1024 = arith.constant 1024 : index
      %c2048 = arith.constant 2048 : index
      kda.async_copy @r[%c0] iter(%c0) do {
        kda.copy_row %src[%c0] to %lds[%c0] elems(256) atom(global_load_lds) : memref<?xf32>, memref<3072xi8, #gpu.address_space<workgroup>>
      }
      scf.for %i = %c0 to %c4 step %c1 {
        %n = arith.addi %i, %c1 : index
        %p = arith.cmpi slt, %n, %c4 : index
        %sn = kda.ring_slot %n of @r
        kda.async_copy @r[%sn] iter(%n) if(%p) do {
          %at = arith.muli %sn, %c1024 : index
          kda.copy_row %src[%c0] to %lds[%at] elems(256) atom(global_load_lds) : memref<?xf32>, memref<3072xi8, #gpu.address_space<workgroup>>
        }
        kda.async_wait 1
        kda.lds_barrier
        %s = kda.ring_slot %i of @r
        kda.lds_read @r[%s] iter(%i) do {
          %rd = arith.muli %s, %c1024 : index
          %v = memref.view %lds[%rd][] : memref<3072xi8, #gpu.address_space<workgroup>> to memref<256xf32, #gpu.address_space<workgroup>>
          %x = memref.load %v[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
          %w = memref.view %lds[%c2048][] : memref<3072xi8, #gpu.address_space<workgroup>> to memref<256xf32, #gpu.address_space<workgroup>>
          memref.store %x, %w[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
          %y = memref.load %w[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
          memref.store %y, %dst[%tid] : memref<?xf32>
        }
        kda.lds_barrier
      }
      kda.async_wait 0
    }
    gpu.return
  }
}

// -----

// gfx950: the schedule ends with the predicated-off copy of iteration 4
// outstanding; its loads land in the sink after the loop, on bytes the
// kernel then uses.
gpu.module @kernels attributes {kda.target = #kda.target<"gfx950">} {
  kda.lds_buffer @r slots(2) slot_bytes(1024) offset(0)
  gpu.func @sink_after(%src: memref<?xf32>, %dst: memref<?xf32>)
      workgroup(%lds : memref<3072xi8, #gpu.address_space<workgroup>>)
      kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
    %tid = gpu.thread_id x
    // expected-error @+1 {{R3: the predicated-off copy of iteration 4 into @r slot 0 is still outstanding in the first wave when the loop ends: on gfx950 it issues its loads all the same, into the sink slot}}
    kda.schedule "sink_after" trip_count(4) depth(2) target("gfx950") {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c1024 = arith.constant 1024 : index
      kda.async_copy @r[%c0] iter(%c0) do {
        kda.copy_row %src[%c0] to %lds[%c0] elems(256) atom(global_load_lds) : memref<?xf32>, memref<3072xi8, #gpu.address_space<workgroup>>
      }
      scf.for %i = %c0 to %c4 step %c1 {
        %n = arith.addi %i, %c1 : index
        %p = arith.cmpi slt, %n, %c4 : index
        %sn = kda.ring_slot %n of @r
        kda.async_copy @r[%sn] iter(%n) if(%p) do {
          %at = arith.muli %sn, %c1024 : index
          kda.copy_row %src[%c0] to %lds[%at] elems(256) atom(global_load_lds) : memref<?xf32>, memref<3072xi8, #gpu.address_space<workgroup>>
        }
        kda.async_wait 1
        kda.lds_barrier
        %s = kda.ring_slot %i of @r
        kda.lds_read @r[%s] iter(%i)
        kda.lds_barrier
      }
    }
    // The kernel's own use of bytes [2048, 3072) after the schedule.
    %c2048 = arith.constant 2048 : index
    %w = memref.view %lds[%c2048][] : memref<3072xi8, #gpu.address_space<workgroup>> to memref<256xf32, #gpu.address_space<workgroup>>
    %one = arith.constant 1.0 : f32
    memref.store %one, %w[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
    gpu.barrier
    %y = memref.load %w[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
    memref.store %y, %dst[%tid] : memref<?xf32>
    gpu.return
  }
}

// -----

// Safe twin of the sink scratch: the array has 1 KiB past the sink, and
// the body's scratch is there.
gpu.module @kernels attributes {kda.target = #kda.target<"gfx950">} {
  kda.lds_buffer @r slots(2) slot_bytes(1024) offset(0)
  gpu.func @beside_sink(%src: memref<?xf32>, %dst: memref<?xf32>)
      workgroup(%lds : memref<4096xi8, #gpu.address_space<workgroup>>)
      kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
    %tid = gpu.thread_id x
    kda.schedule "beside_sink" trip_count(4) depth(2) target("gfx950") {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c1024 = arith.constant 1024 : index
      %c3072 = arith.constant 3072 : index
      kda.async_copy @r[%c0] iter(%c0) do {
        kda.copy_row %src[%c0] to %lds[%c0] elems(256) atom(global_load_lds) : memref<?xf32>, memref<4096xi8, #gpu.address_space<workgroup>>
      }
      scf.for %i = %c0 to %c4 step %c1 {
        %n = arith.addi %i, %c1 : index
        %p = arith.cmpi slt, %n, %c4 : index
        %sn = kda.ring_slot %n of @r
        kda.async_copy @r[%sn] iter(%n) if(%p) do {
          %at = arith.muli %sn, %c1024 : index
          kda.copy_row %src[%c0] to %lds[%at] elems(256) atom(global_load_lds) : memref<?xf32>, memref<4096xi8, #gpu.address_space<workgroup>>
        }
        kda.async_wait 1
        kda.lds_barrier
        %s = kda.ring_slot %i of @r
        kda.lds_read @r[%s] iter(%i) do {
          %rd = arith.muli %s, %c1024 : index
          %v = memref.view %lds[%rd][] : memref<4096xi8, #gpu.address_space<workgroup>> to memref<256xf32, #gpu.address_space<workgroup>>
          %x = memref.load %v[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
          %w = memref.view %lds[%c3072][] : memref<4096xi8, #gpu.address_space<workgroup>> to memref<256xf32, #gpu.address_space<workgroup>>
          memref.store %x, %w[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
          %y = memref.load %w[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
          memref.store %y, %dst[%tid] : memref<?xf32>
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

// Safe twin of the schedule's end: every group waited for (the predicated-
// off one's loads included) before the loop ends.
gpu.module @kernels attributes {kda.target = #kda.target<"gfx950">} {
  kda.lds_buffer @r slots(2) slot_bytes(1024) offset(0)
  gpu.func @sink_waited(%src: memref<?xf32>, %dst: memref<?xf32>)
      workgroup(%lds : memref<3072xi8, #gpu.address_space<workgroup>>)
      kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
    %tid = gpu.thread_id x
    kda.schedule "sink_waited" trip_count(4) depth(2) target("gfx950") {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c1024 = arith.constant 1024 : index
      kda.async_copy @r[%c0] iter(%c0) do {
        kda.copy_row %src[%c0] to %lds[%c0] elems(256) atom(global_load_lds) : memref<?xf32>, memref<3072xi8, #gpu.address_space<workgroup>>
      }
      scf.for %i = %c0 to %c4 step %c1 {
        %n = arith.addi %i, %c1 : index
        %p = arith.cmpi slt, %n, %c4 : index
        %sn = kda.ring_slot %n of @r
        kda.async_copy @r[%sn] iter(%n) if(%p) do {
          %at = arith.muli %sn, %c1024 : index
          kda.copy_row %src[%c0] to %lds[%at] elems(256) atom(global_load_lds) : memref<?xf32>, memref<3072xi8, #gpu.address_space<workgroup>>
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
    %c2048 = arith.constant 2048 : index
    %w = memref.view %lds[%c2048][] : memref<3072xi8, #gpu.address_space<workgroup>> to memref<256xf32, #gpu.address_space<workgroup>>
    %one = arith.constant 1.0 : f32
    memref.store %one, %w[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
    gpu.barrier
    %y = memref.load %w[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
    memref.store %y, %dst[%tid] : memref<?xf32>
    gpu.return
  }
}
