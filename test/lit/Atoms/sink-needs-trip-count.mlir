// A copy predicated off on a target whose waits count instructions needs
// its schedule's trip count: its rows go to the sink slot only up to it
// (the verifier refuses the same schedule with R0:
// Pipelines/hazards-campaign8.mlir).
// RUN: not kda-opt %s --pass-pipeline='builtin.module(gpu.module(kda-lower-atoms),kda-gpu-to-emu)' 2>&1 | FileCheck %s --check-prefix=EMU950
// RUN: sed 's/emu950/gfx950/g' %s | not kda-opt --pass-pipeline='builtin.module(gpu.module(kda-lower-atoms))' 2>&1 | FileCheck %s --check-prefix=GFX950
// EMU950: error: 'kda.async_copy' op a predicated copy on emu950 needs its schedule's trip count (for the sink)
// GFX950: error: 'kda.async_copy' op a predicated copy on gfx950 needs its schedule's trip count (for the sink)
module attributes {gpu.container_module} {
gpu.module @kernels attributes {kda.target = #kda.target<"emu950">} {
  kda.lds_buffer @r slots(2) slot_bytes(1024) offset(0)
  gpu.func @k()
      workgroup(%lds : memref<3072xi8, #gpu.address_space<workgroup>>)
      private(%src : memref<1024xf32, #gpu.address_space<private>>,
              %out : memref<2xf32, #gpu.address_space<private>>)
      kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %tid = gpu.thread_id x
    %z0 = arith.constant 0 : index
    %z1 = arith.constant 1 : index
    %z1024 = arith.constant 1024 : index
    %one = arith.constant 1.0 : f32
    scf.for %j = %z0 to %z1024 step %z1 {
      memref.store %one, %src[%j] : memref<1024xf32, #gpu.address_space<private>>
    }
    kda.schedule "k" depth(2) target("emu950") {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c64 = arith.constant 64 : index
      %c1024 = arith.constant 1024 : index
      kda.async_copy @r[%c0] iter(%c0) do {
        kda.copy_row %src[%c0] to %lds[%c0] elems(64) atom(global_load_lds) : memref<1024xf32, #gpu.address_space<private>>, memref<3072xi8, #gpu.address_space<workgroup>>
      }
      kda.async_copy @r[%c1] iter(%c1) do {
        kda.copy_row %src[%c64] to %lds[%c1024] elems(64) atom(global_load_lds) : memref<1024xf32, #gpu.address_space<private>>, memref<3072xi8, #gpu.address_space<workgroup>>
      }
      scf.for %i = %c0 to %c2 step %c1 {
        kda.async_wait 1
        kda.lds_barrier
        %s = kda.ring_slot %i of @r
        %rd = arith.muli %s, %c1024 : index
        kda.lds_read @r[%s] iter(%i) do {
          %v = memref.view %lds[%rd][] : memref<3072xi8, #gpu.address_space<workgroup>> to memref<64xf32, #gpu.address_space<workgroup>>
          %q = arith.remui %tid, %c64 : index
          %x = memref.load %v[%q] : memref<64xf32, #gpu.address_space<workgroup>>
          memref.store %x, %out[%i] : memref<2xf32, #gpu.address_space<private>>
        }
        %n = arith.addi %i, %c2 : index
        %p = arith.cmpi slt, %n, %c2 : index
        %sn = kda.ring_slot %n of @r
        kda.async_copy @r[%sn] iter(%n) if(%p) do {
          %at = arith.muli %sn, %c1024 : index
          %so = arith.muli %n, %c64 : index
          kda.copy_row %src[%so] to %lds[%at] elems(64) atom(global_load_lds) : memref<1024xf32, #gpu.address_space<private>>, memref<3072xi8, #gpu.address_space<workgroup>>
        }
      }
      kda.async_wait 0
      kda.lds_barrier
    }
    // A thread that read anything but 1.0 at iteration 1 indexes past %lds.
    %got = memref.load %out[%z1] : memref<2xf32, #gpu.address_space<private>>
    %bad = arith.cmpf une, %got, %one : f32
    %c4096 = arith.constant 4096 : index
    %idx = arith.select %bad, %c4096, %z0 : index
    %probe = memref.load %lds[%idx] : memref<3072xi8, #gpu.address_space<workgroup>>
    gpu.return
  }
}
}
