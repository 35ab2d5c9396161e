// Class 6 of issue 10: R6 counts every workgroup allocation of the kernel
// around the schedule - gpu.func workgroup attributions, memref.alloc and
// memref.global in workgroup memory, views of gpu.dynamic_shared_memory -
// plus every kda.lds_buffer the kernel uses, against the target's LDS.
// Dynamic shared memory counts its views or its kda.dynamic_lds_bytes (what a
// launch reserves), whichever is more.
// A ring placed inside a view of the dynamic shared memory (its copies write
// there, all its slots within the view) is counted once, as the view.
// RUN: kda-opt %s -split-input-file -verify-diagnostics --kda-verify-pipeline

// 2 x 16 KiB of ring and a 40 KiB exchange attribution on gfx942 (64 KiB).
module attributes {gpu.container_module} {
  gpu.module @m {
    kda.lds_buffer @k slots(2) slot_bytes(16384) offset(0)
    gpu.func @with_exchange() workgroup(%x : memref<10240xf32, #gpu.address_space<workgroup>>) kernel {
      // expected-error @+1 {{R6: the kernel needs 73728 bytes of LDS (@k 2 x 16384, workgroup attribution 0 of 40960 bytes) but gfx942 has 65536 (pipeline 'ring' at depth 2)}}
      kda.schedule "ring" trip_count(1) depth(2) target("gfx942") {
        %c0 = arith.constant 0 : index
        kda.staged_copy @k[%c0] iter(%c0)
        kda.lds_barrier
        kda.lds_read @k[%c0] iter(%c0)
        kda.lds_barrier
      }
      gpu.return
    }
  }
}

// -----

// Scratch from memref.alloc in workgroup memory, beside the ring.
kda.lds_buffer @k slots(2) slot_bytes(16384) offset(0)
func.func @with_alloc() {
  %scratch = memref.alloc() : memref<8192xf32, #gpu.address_space<workgroup>>
  // expected-error @+1 {{R6: the kernel needs 65552 bytes of LDS (@k 2 x 16384, memref.alloc of 32768 bytes, memref.alloc of 16 bytes) but gfx942 has 65536 (pipeline 'ring' at depth 2)}}
  kda.schedule "ring" trip_count(1) depth(2) target("gfx942") {
    %c0 = arith.constant 0 : index
    kda.staged_copy @k[%c0] iter(%c0)
    kda.lds_barrier
    kda.lds_read @k[%c0] iter(%c0)
    kda.lds_barrier
  }
  %flag = memref.alloc() : memref<4xi32, #gpu.address_space<workgroup>>
  return
}

// -----

// Another schedule's ring in the same kernel counts too, and so do views of
// dynamic shared memory at known offsets.
module attributes {gpu.container_module} {
  gpu.module @m {
    kda.lds_buffer @a slots(2) slot_bytes(16384) offset(0)
    kda.lds_buffer @b slots(2) slot_bytes(16384) offset(32768)
    gpu.func @two_rings() kernel {
      %c0 = arith.constant 0 : index
      %c4096 = arith.constant 4096 : index
      %dyn = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %v = memref.view %dyn[%c4096][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<1024xf32, #gpu.address_space<workgroup>>
      // expected-error @+1 {{R6: the kernel needs 73728 bytes of LDS (@a 2 x 16384, @b 2 x 16384, gpu.dynamic_shared_memory of 8192 bytes) but gfx942 has 65536 (pipeline 'a' at depth 2)}}
      kda.schedule "a" trip_count(1) depth(2) target("gfx942") {
        %z = arith.constant 0 : index
        kda.staged_copy @a[%z] iter(%z)
        kda.lds_barrier
        kda.lds_read @a[%z] iter(%z)
        kda.lds_barrier
      }
      // expected-error @+1 {{R6: the kernel needs 73728 bytes of LDS}}
      kda.schedule "b" trip_count(1) depth(2) target("gfx942") {
        %z = arith.constant 0 : index
        kda.staged_copy @b[%z] iter(%z)
        kda.lds_barrier
        kda.lds_read @b[%z] iter(%z)
        kda.lds_barrier
      }
      gpu.return
    }
  }
}

// -----

// Dynamic shared memory whose size cannot be read off its uses: R0.
func.func @unknown_dynamic(%off: index) {
  %dyn = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
  %v = memref.view %dyn[%off][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<1024xf32, #gpu.address_space<workgroup>>
  // expected-error @+1 {{R0: cannot analyse the LDS of the kernel: gpu.dynamic_shared_memory has no static size (or one past 2^63 bytes) (pipeline 'dyn' at depth 1)}}
  kda.schedule "dyn" depth(1) target("gfx942") {
  }
  return
}

// -----

// Safe: ring and exchange fit gfx942 together.
module attributes {gpu.container_module} {
  gpu.module @m {
    kda.lds_buffer @k slots(2) slot_bytes(16384) offset(0)
    gpu.func @fits() workgroup(%x : memref<8192xf32, #gpu.address_space<workgroup>>) kernel {
      kda.schedule "ring" trip_count(1) depth(2) target("gfx942") {
        %c0 = arith.constant 0 : index
        kda.staged_copy @k[%c0] iter(%c0)
        kda.lds_barrier
        kda.lds_read @k[%c0] iter(%c0)
        kda.lds_barrier
      }
      gpu.return
    }
  }
}

// -----

// A ring whose copies write into a view of the dynamic shared memory that
// holds all its slots at its offset (how the chunk scan places its row ring)
// is counted once, as that view: 16 KiB of other arrays and 3 x 16 KiB of
// ring fill gfx942's 64 KiB exactly (counting the ring twice would claim
// 112 KiB).
module attributes {gpu.container_module} {
  gpu.module @m {
    kda.lds_buffer @rows slots(3) slot_bytes(16384) offset(16384)
    gpu.func @ring_in_dynamic_lds(%src: memref<?xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c16384 = arith.constant 16384 : index
      %dyn = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %state = memref.view %dyn[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<4096xf32, #gpu.address_space<workgroup>>
      %ring = memref.view %dyn[%c16384][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<49152xi8, #gpu.address_space<workgroup>>
      kda.schedule "rows" trip_count(1) depth(3) target("gfx942") {
        %z = arith.constant 0 : index
        kda.staged_copy @rows[%z] iter(%z) do {
          kda.copy_row %src[%z] to %ring[%z] elems(4096) atom(staged) : memref<?xf32>, memref<49152xi8, #gpu.address_space<workgroup>>
        }
        kda.lds_barrier
        kda.lds_read @rows[%z] iter(%z)
        kda.lds_barrier
      }
      gpu.return
    }
  }
}

// -----

// The same ring declared with a fourth slot that its view does not hold:
// its bytes reach past the view, so it is counted on its own (never less
// than it takes).
module attributes {gpu.container_module} {
  gpu.module @m {
    kda.lds_buffer @rows slots(4) slot_bytes(16384) offset(16384)
    gpu.func @ring_past_its_view(%src: memref<?xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c16384 = arith.constant 16384 : index
      %dyn = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %state = memref.view %dyn[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<4096xf32, #gpu.address_space<workgroup>>
      %ring = memref.view %dyn[%c16384][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<49152xi8, #gpu.address_space<workgroup>>
      // expected-error @+1 {{R6: the kernel needs 147456 bytes of LDS (@rows 4 x 16384, gpu.dynamic_shared_memory of 65536 bytes) but gfx942 has 65536 (pipeline 'rows' at depth 4)}}
      kda.schedule "rows" trip_count(1) depth(4) target("gfx942") {
        %z = arith.constant 0 : index
        kda.staged_copy @rows[%z] iter(%z) do {
          kda.copy_row %src[%z] to %ring[%z] elems(4096) atom(staged) : memref<?xf32>, memref<49152xi8, #gpu.address_space<workgroup>>
        }
        kda.lds_barrier
        kda.lds_read @rows[%z] iter(%z)
        kda.lds_barrier
      }
      gpu.return
    }
  }
}

// -----

// A ring whose copies carry no rows says nothing of where its bytes are:
// counted on its own beside the dynamic shared memory.
module attributes {gpu.container_module} {
  gpu.module @m {
    kda.lds_buffer @rows slots(3) slot_bytes(16384) offset(16384)
    gpu.func @ring_without_rows() kernel {
      %c0 = arith.constant 0 : index
      %c16384 = arith.constant 16384 : index
      %dyn = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %state = memref.view %dyn[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<4096xf32, #gpu.address_space<workgroup>>
      %ring = memref.view %dyn[%c16384][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<49152xi8, #gpu.address_space<workgroup>>
      // expected-error @+1 {{R6: the kernel needs 131072 bytes of LDS (@rows 3 x 16384, gpu.dynamic_shared_memory of 65536 bytes) but gfx942 has 65536 (pipeline 'rows' at depth 3)}}
      kda.schedule "rows" trip_count(1) depth(3) target("gfx942") {
        %z = arith.constant 0 : index
        kda.staged_copy @rows[%z] iter(%z)
        kda.lds_barrier
        kda.lds_read @rows[%z] iter(%z)
        kda.lds_barrier
      }
      gpu.return
    }
  }
}

// -----

// sm_90 caps static shared memory at 48 KiB (more only as dynamic shared
// memory, with the opt-in): a 64 KiB attribution is refused though the
// chip's 227 KiB would hold it and the ring.
module attributes {gpu.container_module} {
  gpu.module @m {
    kda.lds_buffer @k slots(2) slot_bytes(4096) offset(0)
    gpu.func @static_big() workgroup(%x : memref<16384xf32, #gpu.address_space<workgroup>>) kernel {
      // expected-error @+1 {{R6: the kernel declares 65536 bytes of static LDS (workgroup attribution 0 of 65536 bytes) but sm_90 allows 49152 static (more only as dynamic shared memory)}}
      kda.schedule "ring" trip_count(1) depth(2) target("sm_90") {
        %c0 = arith.constant 0 : index
        kda.staged_copy @k[%c0] iter(%c0)
        kda.lds_barrier
        kda.lds_read @k[%c0] iter(%c0)
        kda.lds_barrier
      }
      gpu.return
    }
  }
}

// -----

// 2^62 floats: 2^64 bytes, which a 64-bit product wraps to 0; not a size.
gpu.module @kernels attributes {kda.target = #kda.target<"gfx942">} {
  kda.lds_buffer @r slots(1) slot_bytes(1024) offset(0)
  gpu.func @huge() workgroup(%big : memref<4611686018427387904xf32, #gpu.address_space<workgroup>>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    // expected-error @+1 {{R0: cannot analyse the LDS of the kernel: workgroup attribution 0 has no static size (or one past 2^63 bytes)}}
    kda.schedule "s" trip_count(1) depth(1) target("gfx942") {
      %c0 = arith.constant 0 : index
      kda.staged_copy @r[%c0] iter(%c0)
      kda.lds_barrier
      kda.lds_read @r[%c0] iter(%c0)
      kda.lds_barrier
    }
    gpu.return
  }
}

// -----

// The dynamic shared memory a launch reserves is the kernel's
// kda.dynamic_lds_bytes, whatever its views reach: 48 KiB reserved beside a
// 2 x 16 KiB ring does not fit gfx942, though the one view takes 4 KiB.
module attributes {gpu.container_module} {
  gpu.module @m {
    kda.lds_buffer @k slots(2) slot_bytes(16384) offset(0)
    gpu.func @reserved() kernel attributes {kda.dynamic_lds_bytes = 49152 : i64} {
      %c32768 = arith.constant 32768 : index
      %dyn = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %v = memref.view %dyn[%c32768][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<1024xf32, #gpu.address_space<workgroup>>
      // expected-error @+1 {{R6: the kernel needs 81920 bytes of LDS (@k 2 x 16384, gpu.dynamic_shared_memory of 49152 bytes) but gfx942 has 65536 (pipeline 'ring' at depth 2)}}
      kda.schedule "ring" trip_count(1) depth(2) target("gfx942") {
        %c0 = arith.constant 0 : index
        kda.staged_copy @k[%c0] iter(%c0)
        kda.lds_barrier
        kda.lds_read @k[%c0] iter(%c0)
        kda.lds_barrier
      }
      gpu.return
    }
  }
}
