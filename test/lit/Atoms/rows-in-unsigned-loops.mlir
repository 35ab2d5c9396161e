// A copy row inside `scf.for unsigned` is counted as the loop runs it: from
// -1 to 2, read unsigned, no trip (campaign 8: counted as three, the group
// taken for 4 instructions on gfx950 / emu950, `kda.async_wait 1` became
// vmcnt(4) and waited for nothing while two single-instruction groups were
// in flight). Each group issues one global_load_lds, so wait 1 is vmcnt(1).
// RUN: kda-opt %s --pass-pipeline='builtin.module(kda-verify-pipeline,gpu.module(kda-lower-atoms),kda-gpu-to-emu)' | FileCheck %s
// CHECK-LABEL: func.func @k(
// CHECK: call @kda_emu_vmcnt_wait(%{{[a-z0-9_]+}}, %c1_i64{{[_0-9]*}})
// CHECK-NOT: call @kda_emu_vmcnt_wait(%{{[a-z0-9_]+}}, %c4_i64
// CHECK: call @kda_emu_vmcnt_wait(%{{[a-z0-9_]+}}, %c0_i64{{[_0-9]*}})
module attributes {gpu.container_module} {
gpu.module @kernels attributes {kda.target = #kda.target<"emu950">} {
  kda.lds_buffer @r slots(2) slot_bytes(2048) offset(0)
  gpu.func @k()
      workgroup(%lds : memref<6144xi8, #gpu.address_space<workgroup>>)
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
    kda.schedule "k" trip_count(2) depth(2) target("emu950") {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %cm1 = arith.constant -1 : index
      %c64 = arith.constant 64 : index
      %c1024 = arith.constant 1024 : index
      %c2048 = arith.constant 2048 : index
      %c3072 = arith.constant 3072 : index
      kda.async_copy @r[%c0] iter(%c0) do {
        kda.copy_row %src[%c0] to %lds[%c0] elems(64) atom(global_load_lds) : memref<1024xf32, #gpu.address_space<private>>, memref<6144xi8, #gpu.address_space<workgroup>>
        scf.for unsigned %j = %cm1 to %c2 step %c1 {
          kda.copy_row %src[%c0] to %lds[%c1024] elems(64) atom(global_load_lds) : memref<1024xf32, #gpu.address_space<private>>, memref<6144xi8, #gpu.address_space<workgroup>>
        }
      }
      kda.async_copy @r[%c1] iter(%c1) do {
        kda.copy_row %src[%c64] to %lds[%c2048] elems(64) atom(global_load_lds) : memref<1024xf32, #gpu.address_space<private>>, memref<6144xi8, #gpu.address_space<workgroup>>
        scf.for unsigned %j = %cm1 to %c2 step %c1 {
          kda.copy_row %src[%c64] to %lds[%c3072] elems(64) atom(global_load_lds) : memref<1024xf32, #gpu.address_space<private>>, memref<6144xi8, #gpu.address_space<workgroup>>
        }
      }
      scf.for %i = %c0 to %c2 step %c1 {
        kda.async_wait 1
        kda.lds_barrier
        %s = kda.ring_slot %i of @r
        %rd = arith.muli %s, %c2048 : index
        kda.lds_read @r[%s] iter(%i) do {
          %v = memref.view %lds[%rd][] : memref<6144xi8, #gpu.address_space<workgroup>> to memref<64xf32, #gpu.address_space<workgroup>>
          %q = arith.remui %tid, %c64 : index
          %x = memref.load %v[%q] : memref<64xf32, #gpu.address_space<workgroup>>
          memref.store %x, %out[%i] : memref<2xf32, #gpu.address_space<private>>
        }
        %n = arith.addi %i, %c2 : index
        %p = arith.cmpi slt, %n, %c2 : index
        %sn = kda.ring_slot %n of @r
        kda.async_copy @r[%sn] iter(%n) if(%p) do {
          %at = arith.muli %sn, %c2048 : index
          %at2 = arith.addi %at, %c1024 : index
          %so = arith.muli %n, %c64 : index
          kda.copy_row %src[%so] to %lds[%at] elems(64) atom(global_load_lds) : memref<1024xf32, #gpu.address_space<private>>, memref<6144xi8, #gpu.address_space<workgroup>>
          scf.for unsigned %j = %cm1 to %c2 step %c1 {
            kda.copy_row %src[%so] to %lds[%at2] elems(64) atom(global_load_lds) : memref<1024xf32, #gpu.address_space<private>>, memref<6144xi8, #gpu.address_space<workgroup>>
          }
        }
      }
      kda.async_wait 0
      kda.lds_barrier
    }
    // A thread that read anything but 1.0 at iteration 0 indexes past %lds.
    %got = memref.load %out[%z0] : memref<2xf32, #gpu.address_space<private>>
    %bad = arith.cmpf une, %got, %one : f32
    %c8192 = arith.constant 8192 : index
    %idx = arith.select %bad, %c8192, %z0 : index
    %probe = memref.load %lds[%idx] : memref<6144xi8, #gpu.address_space<workgroup>>
    gpu.return
  }
}
}
