// A predicated copy on a target with a sink (gfx950, emu950) whose slot
// and iteration are one value: the sink clone would map it two ways (the
// verifier refuses it too: Pipelines/hazards-campaign9.mlir).
// RUN: not kda-opt %s --pass-pipeline='builtin.module(gpu.module(kda-lower-atoms),kda-gpu-to-emu)' 2>&1 | FileCheck %s --check-prefix=EMU950
// RUN: sed 's/emu950/gfx950/g' %s | not kda-opt --pass-pipeline='builtin.module(gpu.module(kda-lower-atoms))' 2>&1 | FileCheck %s --check-prefix=GFX950
// EMU950: error: 'kda.async_copy' op a predicated copy on emu950 takes its slot and its iteration from one value, which the sink clone would map two ways
// GFX950: error: 'kda.async_copy' op a predicated copy on gfx950 takes its slot and its iteration from one value, which the sink clone would map two ways
module attributes {gpu.container_module} {
gpu.module @kernels attributes {kda.target = #kda.target<"emu950">} {
  kda.lds_buffer @r slots(3) slot_bytes(1024) offset(0)
  gpu.func @k()
      workgroup(%lds : memref<4096xi8, #gpu.address_space<workgroup>>)
      private(%src : memref<1024xf32, #gpu.address_space<private>>)
      kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %z0 = arith.constant 0 : index
    %z1 = arith.constant 1 : index
    %z1024 = arith.constant 1024 : index
    %one = arith.constant 1.0 : f32
    scf.for %j = %z0 to %z1024 step %z1 {
      memref.store %one, %src[%j] : memref<1024xf32, #gpu.address_space<private>>
    }
    kda.schedule "k" trip_count(2) depth(2) target("emu950") {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c1024 = arith.constant 1024 : index
      %c4096 = arith.constant 4096 : index
      kda.async_copy @r[%c0] iter(%c0) do {
        kda.copy_row %src[%c0] to %lds[%c0] elems(256) atom(global_load_lds) : memref<1024xf32, #gpu.address_space<private>>, memref<4096xi8, #gpu.address_space<workgroup>>
      }
      scf.for %i = %c0 to %c2 step %c1 {
        %n = arith.addi %i, %c1 : index
        %p = arith.cmpi slt, %n, %c2 : index
        %pi = arith.index_castui %p : i1 to index
        %q = arith.subi %c1, %pi : index
        kda.async_copy @r[%n] iter(%n) if(%p) do {
          %t = arith.muli %n, %c1024 : index
          %g = arith.subi %c4096, %t : index
          %a = arith.muli %pi, %t : index
          %b = arith.muli %q, %g : index
          %at = arith.addi %a, %b : index
          kda.copy_row %src[%c0] to %lds[%at] elems(256) atom(global_load_lds) : memref<1024xf32, #gpu.address_space<private>>, memref<4096xi8, #gpu.address_space<workgroup>>
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
}
