// A schedule's dynamic trip count T is proven for T >= 0 (the verifier's
// model); a signed index may be negative. T = 1 - block_id is -1 in block 2,
// where a last read guarded by T != 0 read iteration -2 from a slot no copy
// wrote (campaign 12, on the emulator). Every lowering makes the schedule
// read max(T, 0): kda-lower-atoms and kda-gpu-to-emu clamp it, once; a T
// already clamped (as kda's builders write it) is left alone.
// RUN: kda-opt %s -split-input-file --kda-verify-pipeline -o /dev/null
// RUN: kda-opt %s -split-input-file --pass-pipeline='builtin.module(gpu.module(kda-lower-atoms))' | FileCheck %s --check-prefix=ATOMS
// RUN: kda-opt %s -split-input-file --kda-gpu-to-emu | FileCheck %s --check-prefix=EMU

// ATOMS: %[[T:.*]] = arith.subi %{{.*}}, %block_id_x : index
// ATOMS: %[[C:.*]] = arith.maxsi %[[T]], %{{.*}} : index
// ATOMS: kda.schedule "k" dynamic_trip_count(%[[C]])
// ATOMS: arith.subi %[[C]], %{{.*}} : index
// ATOMS: arith.cmpi ne, %[[C]], %{{.*}} : index
// ATOMS: gpu.func @k
// ATOMS: %[[T2:.*]] = arith.maxsi %{{.*}}, %{{.*}} : index
// ATOMS-NOT: arith.maxsi
// ATOMS: kda.schedule "k" dynamic_trip_count(%[[T2]])
// EMU: %[[T:.*]] = arith.subi %{{.*}}, %{{.*}} : index
// EMU: %[[C:.*]] = arith.maxsi %[[T]], %{{.*}} : index
// EMU: arith.cmpi ne, %[[C]], %{{.*}} : index

module attributes {gpu.container_module} {
gpu.module @kernels attributes {kda.target = #kda.target<"emu">} {
  kda.lds_buffer @r slots(2) slot_bytes(1024) offset(0)
  gpu.func @k()
      workgroup(%lds : memref<2048xi8, #gpu.address_space<workgroup>>)
      private(%src : memref<1024xf32, #gpu.address_space<private>>)
      kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
    %tid = gpu.thread_id x
    %bid = gpu.block_id x
    %one = arith.constant 1 : index
    %t = arith.subi %one, %bid : index
    kda.schedule "k" dynamic_trip_count(%t) depth(2) target("emu") {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c256 = arith.constant 256 : index
      %c1024 = arith.constant 1024 : index
      %p0 = arith.cmpi slt, %c0, %t : index
      kda.staged_copy @r[%c0] iter(%c0) if(%p0) do {
        kda.copy_row %src[%c0] to %lds[%c0] elems(256) atom(staged) : memref<1024xf32, #gpu.address_space<private>>, memref<2048xi8, #gpu.address_space<workgroup>>
      }
      %tm1 = arith.subi %t, %c1 : index
      scf.for %i = %c0 to %tm1 step %c1 {
        kda.lds_barrier
        %n = arith.addi %i, %c1 : index
        %sn = kda.ring_slot %n of @r
        kda.staged_copy @r[%sn] iter(%n) do {
          %at = arith.muli %sn, %c1024 : index
          kda.copy_row %src[%c0] to %lds[%at] elems(256) atom(staged) : memref<1024xf32, #gpu.address_space<private>>, memref<2048xi8, #gpu.address_space<workgroup>>
        }
        %s = kda.ring_slot %i of @r
        %rd = arith.muli %s, %c1024 : index
        kda.lds_read @r[%s] iter(%i) do {
          %v = memref.view %lds[%rd][] : memref<2048xi8, #gpu.address_space<workgroup>> to memref<256xf32, #gpu.address_space<workgroup>>
          %x = memref.load %v[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
        }
      }
      %pe = arith.cmpi ne, %t, %c0 : index
      scf.if %pe {
        kda.lds_barrier
        %s = kda.ring_slot %tm1 of @r
        %rd = arith.muli %s, %c1024 : index
        kda.lds_read @r[%s] iter(%tm1) do {
          %v = memref.view %lds[%rd][] : memref<2048xi8, #gpu.address_space<workgroup>> to memref<256xf32, #gpu.address_space<workgroup>>
          %x = memref.load %v[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
        }
      }
      kda.lds_barrier
    }
    gpu.return
  }
}
}

// -----

// Clamped by the kernel itself: no second clamp.
module attributes {gpu.container_module} {
gpu.module @kernels attributes {kda.target = #kda.target<"emu">} {
  kda.lds_buffer @r slots(2) slot_bytes(1024) offset(0)
  gpu.func @k()
      workgroup(%lds : memref<2048xi8, #gpu.address_space<workgroup>>)
      private(%src : memref<1024xf32, #gpu.address_space<private>>)
      kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
    %tid = gpu.thread_id x
    %bid = gpu.block_id x
    %one = arith.constant 1 : index
    %t0 = arith.subi %one, %bid : index
    %zero = arith.constant 0 : index
    %t = arith.maxsi %t0, %zero : index
    kda.schedule "k" dynamic_trip_count(%t) depth(2) target("emu") {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c256 = arith.constant 256 : index
      %c1024 = arith.constant 1024 : index
      %p0 = arith.cmpi slt, %c0, %t : index
      kda.staged_copy @r[%c0] iter(%c0) if(%p0) do {
        kda.copy_row %src[%c0] to %lds[%c0] elems(256) atom(staged) : memref<1024xf32, #gpu.address_space<private>>, memref<2048xi8, #gpu.address_space<workgroup>>
      }
      %tm1 = arith.subi %t, %c1 : index
      scf.for %i = %c0 to %tm1 step %c1 {
        kda.lds_barrier
        %n = arith.addi %i, %c1 : index
        %sn = kda.ring_slot %n of @r
        kda.staged_copy @r[%sn] iter(%n) do {
          %at = arith.muli %sn, %c1024 : index
          kda.copy_row %src[%c0] to %lds[%at] elems(256) atom(staged) : memref<1024xf32, #gpu.address_space<private>>, memref<2048xi8, #gpu.address_space<workgroup>>
        }
        %s = kda.ring_slot %i of @r
        %rd = arith.muli %s, %c1024 : index
        kda.lds_read @r[%s] iter(%i) do {
          %v = memref.view %lds[%rd][] : memref<2048xi8, #gpu.address_space<workgroup>> to memref<256xf32, #gpu.address_space<workgroup>>
          %x = memref.load %v[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
        }
      }
      %pe = arith.cmpi ne, %t, %c0 : index
      scf.if %pe {
        kda.lds_barrier
        %s = kda.ring_slot %tm1 of @r
        %rd = arith.muli %s, %c1024 : index
        kda.lds_read @r[%s] iter(%tm1) do {
          %v = memref.view %lds[%rd][] : memref<2048xi8, #gpu.address_space<workgroup>> to memref<256xf32, #gpu.address_space<workgroup>>
          %x = memref.load %v[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
        }
      }
      kda.lds_barrier
    }
    gpu.return
  }
}
}
