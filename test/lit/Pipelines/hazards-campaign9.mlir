// The ninth hand-written-schedule campaign (2026-12-07, fifty-third
// session). Each case was accepted before, and the emulator stopped its
// launch with an LDS bounds error (a row outside its slot).
// RUN: kda-opt %s -split-input-file -verify-diagnostics --kda-verify-pipeline

// -----

// A copy row in a body loop whose 64-bit (index) counter wraps: from
// 0x3000... by 0x6000...0400 below 0x4000..., scf.for's increment (no
// overflow flag) is negative, still below the bound, and the loop runs
// three trips where the model bounded the counter by its first. The wrap
// rule, once for counters narrower than 64 bits, now counts in 128 bits:
// no bound, so the row may reach past its slot (R2).
module attributes {gpu.container_module} {
  gpu.module @kernels attributes {kda.target = #kda.target<"emu">} {
    kda.lds_buffer @r slots(2) slot_bytes(1024) offset(0)
    gpu.func @k()
        workgroup(%lds : memref<2048xi8, #gpu.address_space<workgroup>>)
        private(%src : memref<256xf32, #gpu.address_space<private>>)
        kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
      // expected-error @+1 {{R2: the copy of iteration 0 into @r slot 0 has a copy row that may write bytes [0, 3071), outside the slot's bytes [0, 1024)}}
      kda.schedule "k" trip_count(2) depth(1) target("emu") {
        %c0 = arith.constant 0 : index
        %c1 = arith.constant 1 : index
        %c2 = arith.constant 2 : index
        %c1024 = arith.constant 1024 : index
        %c2048 = arith.constant 2048 : index
        %L = arith.constant 3458764513820540928 : index
        %U = arith.constant 4611686018427387904 : index
        %S = arith.constant 6917529027641082880 : index
        scf.for %i = %c0 to %c2 step %c1 {
          %s = kda.ring_slot %i of @r
          %byte = arith.muli %s, %c1024 : index
          kda.staged_copy @r[%s] iter(%i) do {
            scf.for %j = %L to %U step %S {
              %o = arith.remui %j, %c2048 : index
              %b = arith.addi %byte, %o : index
              kda.copy_row %src[%c0] to %lds[%b] elems(256) atom(staged) : memref<256xf32, #gpu.address_space<private>>, memref<2048xi8, #gpu.address_space<workgroup>>
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
}

// -----

// gfx950's sink (emu950): a predicated copy whose slot and iteration are
// one value (%n, with a slot per trip). The lowering's sink clone maps the
// iteration and then the slot, so the slot won and the row landed in live
// slot 1; the model mapped them in the other order and put it in the sink.
// One value its body uses cannot take both: R0 where the model sees the
// copy predicated off.
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
    // expected-error @+1 {{R0: cannot analyse kda.async_copy: a copy predicated off on emu950 whose slot and iteration are one value: its sink clone maps them two ways}}
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
