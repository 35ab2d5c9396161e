// A copy's or a read's bytes are its slot's: the events of the model take
// them so, and a copy row that writes elsewhere, or a read body that views
// other bytes of the ring, would touch LDS behind the model's back. Each copy
// row's destination and each view of the ring a read body takes is bounded
// (its array placed in the kernel's LDS, its byte offset by the op's slot and
// iteration, constants, the body's own loops and arith's range rules) and
// must lie inside the slot the op names (R2 for a copy, R1 for a read); one
// that cannot be bounded, or an array that cannot be placed, is R0. Views of
// the body's other arrays are not the schedule's business. Rings: @r two
// 1 KiB slots over a 2 KiB array.
// RUN: kda-opt %s -split-input-file -verify-diagnostics --kda-verify-pipeline

// Safe: the rows at the start of their slots, the slot taken mod 2.
gpu.module @kernels attributes {kda.target = #kda.target<"sm_90">} {
  kda.lds_buffer @r slots(2) slot_bytes(1024) offset(0)
  gpu.func @in_slot(%src: memref<?xf32>)
      workgroup(%lds : memref<2048xi8, #gpu.address_space<workgroup>>) kernel {
    kda.schedule "in_slot" trip_count(4) depth(2) target("sm_90") {
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
          %x = memref.load %v[%c0] : memref<256xf32, #gpu.address_space<workgroup>>
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

// The slot off by one: iteration n's rows go into the slot iteration n - 1
// is read from, while the copy names slot n mod 2.
gpu.module @kernels attributes {kda.target = #kda.target<"sm_90">} {
  kda.lds_buffer @r slots(2) slot_bytes(1024) offset(0)
  gpu.func @neighbour(%src: memref<?xf32>)
      workgroup(%lds : memref<2048xi8, #gpu.address_space<workgroup>>) kernel {
    // expected-error @+1 {{R2: the copy of iteration 1 into @r slot 1 has a copy row that writes bytes [0, 1024), outside the slot's bytes [1024, 2048): it would overwrite what the schedule does not track (pipeline 'neighbour' at depth 2)}}
    kda.schedule "neighbour" trip_count(4) depth(2) target("sm_90") {
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
        %s = kda.ring_slot %i of @r
        %at = arith.muli %s, %c1024 : index
        kda.async_copy @r[%sn] iter(%n) if(%p) do {
          kda.copy_row %src[%c0] to %lds[%at] elems(256) atom(cp_async) : memref<?xf32>, memref<2048xi8, #gpu.address_space<workgroup>>
        }
        kda.async_wait 1
        kda.lds_barrier
        kda.lds_read @r[%s] iter(%i)
        kda.lds_barrier
      }
      kda.async_wait 0
    }
    gpu.return
  }
}

// -----

// Rows of a body loop to min(8, rows left), a count read from memory (the
// chunk scan's form): 8 rows of 128 bytes fill the slot exactly. Safe.
gpu.module @kernels attributes {kda.target = #kda.target<"emu">} {
  kda.lds_buffer @r slots(2) slot_bytes(1024) offset(0)
  gpu.func @bounded_rows(%src: memref<?xf32>, %len: memref<?xindex>)
      workgroup(%lds : memref<2048xi8, #gpu.address_space<workgroup>>) kernel {
    %c0 = arith.constant 0 : index
    %rows = memref.load %len[%c0] : memref<?xindex>
    kda.schedule "bounded_rows" trip_count(2) depth(1) target("emu") {
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c8 = arith.constant 8 : index
      %c128 = arith.constant 128 : index
      %c1024 = arith.constant 1024 : index
      scf.for %i = %c0 to %c2 step %c1 {
        %s = kda.ring_slot %i of @r
        kda.staged_copy @r[%s] iter(%i) do {
          %base = arith.muli %s, %c1024 : index
          %left = arith.subi %rows, %i : index
          %valid = arith.minui %c8, %left : index
          scf.for %r = %c0 to %valid step %c1 {
            %off = arith.muli %r, %c128 : index
            %at = arith.addi %base, %off : index
            kda.copy_row %src[%c0] to %lds[%at] elems(32) atom(staged) : memref<?xf32>, memref<2048xi8, #gpu.address_space<workgroup>>
          }
        }
        kda.lds_barrier
        kda.lds_read @r[%s] iter(%i)
        kda.lds_barrier
      }
    }
    gpu.return
  }
}

// -----

// The same rows with one more (min(9, ...)): the ninth runs into slot 1.
gpu.module @kernels attributes {kda.target = #kda.target<"emu">} {
  kda.lds_buffer @r slots(2) slot_bytes(1024) offset(0)
  gpu.func @one_row_too_many(%src: memref<?xf32>, %len: memref<?xindex>)
      workgroup(%lds : memref<2048xi8, #gpu.address_space<workgroup>>) kernel {
    %c0 = arith.constant 0 : index
    %rows = memref.load %len[%c0] : memref<?xindex>
    // expected-error @+1 {{R2: the copy of iteration 0 into @r slot 0 has a copy row that may write bytes [0, 1152), outside the slot's bytes [0, 1024): it would overwrite what the schedule does not track (pipeline 'too_many' at depth 1)}}
    kda.schedule "too_many" trip_count(2) depth(1) target("emu") {
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c9 = arith.constant 9 : index
      %c128 = arith.constant 128 : index
      %c1024 = arith.constant 1024 : index
      scf.for %i = %c0 to %c2 step %c1 {
        %s = kda.ring_slot %i of @r
        kda.staged_copy @r[%s] iter(%i) do {
          %base = arith.muli %s, %c1024 : index
          %left = arith.subi %rows, %i : index
          %valid = arith.minui %c9, %left : index
          scf.for %r = %c0 to %valid step %c1 {
            %off = arith.muli %r, %c128 : index
            %at = arith.addi %base, %off : index
            kda.copy_row %src[%c0] to %lds[%at] elems(32) atom(staged) : memref<?xf32>, memref<2048xi8, #gpu.address_space<workgroup>>
          }
        }
        kda.lds_barrier
        kda.lds_read @r[%s] iter(%i)
        kda.lds_barrier
      }
    }
    gpu.return
  }
}

// -----

// Rows to a count read from memory with no bound: R0.
gpu.module @kernels attributes {kda.target = #kda.target<"emu">} {
  kda.lds_buffer @r slots(1) slot_bytes(1024) offset(0)
  gpu.func @unbounded_rows(%src: memref<?xf32>, %len: memref<?xindex>)
      workgroup(%lds : memref<1024xi8, #gpu.address_space<workgroup>>) kernel {
    %c0 = arith.constant 0 : index
    %rows = memref.load %len[%c0] : memref<?xindex>
    // expected-error @+1 {{R0: cannot analyse kda.copy_row: the LDS byte it starts at cannot be bounded from the slot, constants and the body's own loops (pipeline 'unbounded' at depth 1)}}
    kda.schedule "unbounded" trip_count(1) depth(1) target("emu") {
      %c1 = arith.constant 1 : index
      %c128 = arith.constant 128 : index
      kda.staged_copy @r[%c0] iter(%c0) do {
        scf.for %r = %c0 to %rows step %c1 {
          %at = arith.muli %r, %c128 : index
          kda.copy_row %src[%c0] to %lds[%at] elems(32) atom(staged) : memref<?xf32>, memref<1024xi8, #gpu.address_space<workgroup>>
        }
      }
      kda.lds_barrier
      kda.lds_read @r[%c0] iter(%c0)
      kda.lds_barrier
    }
    gpu.return
  }
}

// -----

// gfx950: a 256-byte row by global_load_lds fills a whole 1 KiB wave region,
// so a row at byte 256 of a 1 KiB slot runs 256 bytes past it.
gpu.module @kernels attributes {kda.target = #kda.target<"gfx950">} {
  kda.lds_buffer @r slots(2) slot_bytes(1024) offset(0)
  gpu.func @padded_region(%src: memref<?xf32>)
      workgroup(%lds : memref<2048xi8, #gpu.address_space<workgroup>>)
      kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    // expected-error @+1 {{R2: the copy of iteration 0 into @r slot 0 has a copy row that writes bytes [256, 1280), outside the slot's bytes [0, 1024): it would overwrite what the schedule does not track (pipeline 'padded' at depth 1)}}
    kda.schedule "padded" trip_count(1) depth(1) target("gfx950") {
      %c0 = arith.constant 0 : index
      %c256 = arith.constant 256 : index
      kda.async_copy @r[%c0] iter(%c0) {issuers = "wave0"} do {
        kda.copy_row %src[%c0] to %lds[%c256] elems(64) atom(global_load_lds) : memref<?xf32>, memref<2048xi8, #gpu.address_space<workgroup>>
      }
      kda.async_wait 0
      kda.lds_barrier
      kda.lds_read @r[%c0] iter(%c0)
      kda.lds_barrier
    }
    gpu.return
  }
}

// -----

// A read body that views the slot the next iteration is copied into.
gpu.module @kernels attributes {kda.target = #kda.target<"sm_90">} {
  kda.lds_buffer @r slots(2) slot_bytes(1024) offset(0)
  gpu.func @read_neighbour(%src: memref<?xf32>)
      workgroup(%lds : memref<2048xi8, #gpu.address_space<workgroup>>) kernel {
    // expected-error @+1 {{R1: the read of iteration 0 from @r slot 0 views bytes [1024, 2048), outside the slot's bytes [0, 1024): the wrong tile (pipeline 'read_neighbour' at depth 2)}}
    kda.schedule "read_neighbour" trip_count(4) depth(2) target("sm_90") {
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
        kda.lds_read @r[%s] iter(%i) do {
          %v = memref.view %lds[%at][] : memref<2048xi8, #gpu.address_space<workgroup>> to memref<256xf32, #gpu.address_space<workgroup>>
          %x = memref.load %v[%c0] : memref<256xf32, #gpu.address_space<workgroup>>
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

// A read body's view of another array, at an offset from memory: not the
// ring's array, but the view must stay inside that array (past it are the
// next array's bytes, hazards-beside-ring.mlir), and an offset loaded from
// memory is not bounded: R0.
gpu.module @kernels attributes {kda.target = #kda.target<"emu">} {
  kda.lds_buffer @r slots(1) slot_bytes(1024) offset(0)
  gpu.func @other_array(%src: memref<?xf32>, %at: memref<?xindex>)
      workgroup(%lds : memref<1024xi8, #gpu.address_space<workgroup>>,
                %other : memref<4096xi8, #gpu.address_space<workgroup>>) kernel {
    %c0 = arith.constant 0 : index
    %off = memref.load %at[%c0] : memref<?xindex>
    // expected-error @+1 {{R0: cannot analyse memref.view: the LDS byte it starts at cannot be bounded from the slot, constants and the body's own loops (pipeline 'other_array' at depth 1)}}
    kda.schedule "other_array" trip_count(1) depth(1) target("emu") {
      kda.staged_copy @r[%c0] iter(%c0) do {
        kda.copy_row %src[%c0] to %lds[%c0] elems(256) atom(staged) : memref<?xf32>, memref<1024xi8, #gpu.address_space<workgroup>>
      }
      kda.lds_barrier
      kda.lds_read @r[%c0] iter(%c0) do {
        %v = memref.view %other[%off][] : memref<4096xi8, #gpu.address_space<workgroup>> to memref<16xf32, #gpu.address_space<workgroup>>
        %x = memref.load %v[%c0] : memref<16xf32, #gpu.address_space<workgroup>>
        memref.store %x, %src[%c0] : memref<?xf32>
      }
      kda.lds_barrier
    }
    gpu.return
  }
}

// -----

// A read body that indexes the ring's array itself, not a view of its slot:
// its bytes are not bounded, R0.
gpu.module @kernels attributes {kda.target = #kda.target<"emu">} {
  kda.lds_buffer @r slots(1) slot_bytes(1024) offset(0)
  gpu.func @direct(%src: memref<?xf32>, %at: memref<?xindex>)
      workgroup(%lds : memref<1024xi8, #gpu.address_space<workgroup>>) kernel {
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{R0: cannot analyse memref.load: it indexes an LDS array that may hold the ring directly, not through a view of the slot: its bytes are not bounded (pipeline 'direct' at depth 1)}}
    kda.schedule "direct" trip_count(1) depth(1) target("emu") {
      kda.staged_copy @r[%c0] iter(%c0) do {
        kda.copy_row %src[%c0] to %lds[%c0] elems(256) atom(staged) : memref<?xf32>, memref<1024xi8, #gpu.address_space<workgroup>>
      }
      kda.lds_barrier
      kda.lds_read @r[%c0] iter(%c0) do {
        %x = memref.load %lds[%c0] : memref<1024xi8, #gpu.address_space<workgroup>>
      }
      kda.lds_barrier
    }
    gpu.return
  }
}
