// A pipeline copy writes its slot and nothing else: the race detector tags
// LDS words by the slot a copy names, so a copy row whose bytes run outside
// that slot, or a marker whose slot lies outside its ring, would otherwise
// go unseen on the emulator (on a GPU it overwrites the neighbouring slot or
// array). Each is executed here with verification off and fails the launch,
// naming the bytes, the slot or ring, and the buffer; the fixed schedule runs
// race-free. Loads a read body makes through a view of its slot are checked
// against the view (a slot viewed as 256 floats, thread t reading float 4t + 4: thread 63 one past).
// A ring @r of two 1 KiB slots fills a 2 KiB array; the rows'
// source is a private array (kda-emu-run passes no arguments).
// RUN: kda-opt %s --pass-pipeline='builtin.module(gpu.module(kda-lower-atoms),kda-gpu-to-emu,func.func(convert-scf-to-cf),convert-vector-to-llvm,convert-arith-to-llvm,expand-strided-metadata,finalize-memref-to-llvm,convert-cf-to-llvm,convert-func-to-llvm,reconcile-unrealized-casts,kda-emu-entry)' | kda-translate --mlir-to-llvmir -o %t.ll
// RUN: %clang -O1 -shared -fPIC -Wno-override-module %t.ll -o %t.so
// RUN: not kda-emu-run %t.so past_slot_packed --block 64 | FileCheck %s --check-prefix=PAST
// RUN: not kda-emu-run %t.so past_ring_packed --block 64 | FileCheck %s --check-prefix=RING
// RUN: kda-emu-run %t.so fixed_packed --block 64 | FileCheck %s --check-prefix=SAFE
// RUN: kda-emu-run %t.so second_array_packed --block 64 | FileCheck %s --check-prefix=SAFE
// RUN: not kda-emu-run %t.so past_view_packed --block 64 | FileCheck %s --check-prefix=VIEW
// RUN: kda-opt %s --pass-pipeline='builtin.module(gpu.module(kda-lower-atoms),kda-gpu-to-emu)' | FileCheck %s --check-prefix=IR

// PAST: LDS access out of bounds in block (0, 0, 0): thread 0 copies a row into bytes [512, 1536) of the 1024-byte slot of @r at bytes [0, 1024)
// RING: LDS access out of bounds in block (0, 0, 0): thread 0 copies into bytes [2048, 3072) of the 2048-byte ring @r at bytes [0, 2048)
// SAFE: race-free: 1 x 1 x 1 blocks of 64 threads
// VIEW: LDS access out of bounds in block (0, 0, 0): thread 63 reads bytes [1024, 1028) of the 1024-byte workgroup array at bytes [0, 1024)
// IR-LABEL: func.func @past_slot
// IR: call @kda_emu_copy_row(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (!llvm.ptr, i64, i64, i64, i64, i64, i64, !llvm.ptr) -> ()
// IR: call @kda_emu_lds_write(

module attributes {gpu.container_module} {
  gpu.module @kernels attributes {kda.target = #kda.target<"emu">} {
    kda.lds_buffer @r slots(2) slot_bytes(1024) offset(0)
    kda.lds_buffer @s slots(2) slot_bytes(1024) offset(256)
    // Each iteration's row (1 KiB) starts half way into its slot.
    gpu.func @past_slot()
        workgroup(%lds : memref<2048xi8, #gpu.address_space<workgroup>>)
        private(%src : memref<256xf32, #gpu.address_space<private>>) kernel {
      kda.schedule "past_slot" trip_count(2) depth(1) target("emu") {
        %c0 = arith.constant 0 : index
        %c1 = arith.constant 1 : index
        %c2 = arith.constant 2 : index
        %c512 = arith.constant 512 : index
        %c1024 = arith.constant 1024 : index
        scf.for %i = %c0 to %c2 step %c1 {
          %s = kda.ring_slot %i of @r
          %at = arith.muli %s, %c1024 : index
          %byte = arith.addi %at, %c512 : index
          kda.staged_copy @r[%s] iter(%i) do {
            kda.copy_row %src[%c0] to %lds[%byte] elems(256) atom(staged) : memref<256xf32, #gpu.address_space<private>>, memref<2048xi8, #gpu.address_space<workgroup>>
          }
          kda.lds_barrier
          kda.lds_read @r[%s] iter(%i)
          kda.lds_barrier
        }
      }
      gpu.return
    }
    // Three iterations, the slot taken as the iteration itself (no mod 2).
    gpu.func @past_ring() kernel {
      kda.schedule "past_ring" trip_count(3) depth(1) target("emu") {
        %c0 = arith.constant 0 : index
        %c1 = arith.constant 1 : index
        %c3 = arith.constant 3 : index
        scf.for %i = %c0 to %c3 step %c1 {
          kda.staged_copy @r[%i] iter(%i)
          kda.lds_barrier
          kda.lds_read @r[%i] iter(%i)
          kda.lds_barrier
        }
      }
      gpu.return
    }
    // The rows at the start of their slots, the slots mod 2.
    gpu.func @fixed()
        workgroup(%lds : memref<2048xi8, #gpu.address_space<workgroup>>)
        private(%src : memref<256xf32, #gpu.address_space<private>>) kernel {
      kda.schedule "fixed" trip_count(3) depth(1) target("emu") {
        %c0 = arith.constant 0 : index
        %c1 = arith.constant 1 : index
        %c3 = arith.constant 3 : index
        %c1024 = arith.constant 1024 : index
        scf.for %i = %c0 to %c3 step %c1 {
          %s = kda.ring_slot %i of @r
          %byte = arith.muli %s, %c1024 : index
          kda.staged_copy @r[%s] iter(%i) do {
            kda.copy_row %src[%c0] to %lds[%byte] elems(256) atom(staged) : memref<256xf32, #gpu.address_space<private>>, memref<2048xi8, #gpu.address_space<workgroup>>
          }
          kda.lds_barrier
          kda.lds_read @r[%s] iter(%i)
          kda.lds_barrier
        }
      }
      gpu.return
    }
    // The ring @s in the second array (LDS bytes [256, 2304)): its rows are
    // placed at the array's offset, so the fixed schedule passes there too.
    gpu.func @second_array()
        workgroup(%pad : memref<256xi8, #gpu.address_space<workgroup>>,
                  %lds : memref<2048xi8, #gpu.address_space<workgroup>>)
        private(%src : memref<256xf32, #gpu.address_space<private>>) kernel {
      kda.schedule "second_array" trip_count(3) depth(1) target("emu") {
        %c0 = arith.constant 0 : index
        %c1 = arith.constant 1 : index
        %c3 = arith.constant 3 : index
        %c1024 = arith.constant 1024 : index
        scf.for %i = %c0 to %c3 step %c1 {
          %s = kda.ring_slot %i of @s
          %byte = arith.muli %s, %c1024 : index
          kda.staged_copy @s[%s] iter(%i) do {
            kda.copy_row %src[%c0] to %lds[%byte] elems(256) atom(staged) : memref<256xf32, #gpu.address_space<private>>, memref<2048xi8, #gpu.address_space<workgroup>>
          }
          kda.lds_barrier
          kda.lds_read @s[%s] iter(%i)
          kda.lds_barrier
        }
      }
      gpu.return
    }
    gpu.func @past_view()
        workgroup(%lds : memref<2048xi8, #gpu.address_space<workgroup>>)
        private(%src : memref<256xf32, #gpu.address_space<private>>) kernel {
      kda.schedule "past_view" trip_count(2) depth(1) target("emu") {
        %c0 = arith.constant 0 : index
        %c1 = arith.constant 1 : index
        %c2 = arith.constant 2 : index
        %c1024 = arith.constant 1024 : index
        scf.for %i = %c0 to %c2 step %c1 {
          %s = kda.ring_slot %i of @r
          %byte = arith.muli %s, %c1024 : index
          kda.staged_copy @r[%s] iter(%i) do {
            kda.copy_row %src[%c0] to %lds[%byte] elems(256) atom(staged) : memref<256xf32, #gpu.address_space<private>>, memref<2048xi8, #gpu.address_space<workgroup>>
          }
          kda.lds_barrier
          kda.lds_read @r[%s] iter(%i) do {
            %v = memref.view %lds[%byte][] : memref<2048xi8, #gpu.address_space<workgroup>> to memref<256xf32, #gpu.address_space<workgroup>>
            %t = gpu.thread_id x
            %four = arith.constant 4 : index
            %t1 = arith.addi %t, %c1 : index
            %at = arith.muli %t1, %four : index
            %x = memref.load %v[%at] : memref<256xf32, #gpu.address_space<workgroup>>
          }
          kda.lds_barrier
        }
      }
      gpu.return
    }
  }
}

