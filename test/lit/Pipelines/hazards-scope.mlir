// Escapes found by a review of the hazard model (thirty-sixth session): each
// schedule is unsafe and was accepted. What the interpreter takes for granted
// about a schedule's scope is now checked before it runs (checkScope, R0), a
// row's atom matches its copy and reads no LDS (op verifiers), and the index
// evaluator follows arith's semantics (i1 true is -1; ceildivui and remui
// read unsigned values without wrapping; unsigned loops only where their
// bounds are non-negative). The accepted twins at the end hold what real
// kernels do: rows in a loop to a bound every thread shares, and a barrier
// under a branch every thread takes alike.
// RUN: kda-opt %s -split-input-file -verify-diagnostics --kda-verify-pipeline

// -----

// A row whose atom is not its copy's kind: the lowering would emit cp.async inside a register-staged copy, with no wait.
gpu.module @kernels attributes {kda.target = #kda.target<"sm_90">} {
  kda.lds_buffer @r slots(2) slot_bytes(1024) offset(0)
  gpu.func @staged_cp_async(%src: memref<?xf32>, %dst: memref<?xf32>)
      workgroup(%lds : memref<2048xi8, #gpu.address_space<workgroup>>)
      kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
    %tid = gpu.thread_id x
    kda.schedule "staged_cp_async" trip_count(4) depth(2) target("sm_90") {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c1024 = arith.constant 1024 : index
      kda.staged_copy @r[%c0] iter(%c0) do {
        // expected-error @+1 {{'kda.copy_row' op a row of kda.staged_copy takes the staged atom, not cp_async}}
        kda.copy_row %src[%c0] to %lds[%c0] elems(256) atom(cp_async) : memref<?xf32>, memref<2048xi8, #gpu.address_space<workgroup>>
      }
      scf.for %i = %c0 to %c4 step %c1 {
        kda.lds_barrier
        %s = kda.ring_slot %i of @r
        %rd = arith.muli %s, %c1024 : index
        kda.lds_read @r[%s] iter(%i) do {
          %v = memref.view %lds[%rd][] : memref<2048xi8, #gpu.address_space<workgroup>> to memref<256xf32, #gpu.address_space<workgroup>>
          %z = memref.load %v[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
          memref.store %z, %dst[%tid] : memref<?xf32>
        }
        %n = arith.addi %i, %c1 : index
        %p = arith.cmpi slt, %n, %c4 : index
        %sn = kda.ring_slot %n of @r
        %at = arith.muli %sn, %c1024 : index
        kda.staged_copy @r[%sn] iter(%n) if(%p) do {
          kda.copy_row %src[%c0] to %lds[%at] elems(256) atom(cp_async) : memref<?xf32>, memref<2048xi8, #gpu.address_space<workgroup>>
        }
      }
      kda.lds_barrier
    }
    gpu.return
  }
}

// -----

// A copy row reading the ring itself (an LDS source): a read of LDS no rule orders.
gpu.module @kernels attributes {kda.target = #kda.target<"gfx942">} {
  kda.lds_buffer @r slots(2) slot_bytes(1024) offset(0)
  gpu.func @lds_source(%src: memref<?xi8>, %dst: memref<?xf32>)
      workgroup(%lds : memref<2048xi8, #gpu.address_space<workgroup>>)
      kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
    %tid = gpu.thread_id x
    kda.schedule "lds_source" trip_count(2) depth(2) target("gfx942") {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c1024 = arith.constant 1024 : index
      %c16 = arith.constant 16 : index
      kda.staged_copy @r[%c0] iter(%c0) do {
        kda.copy_row %src[%c0] to %lds[%c0] elems(1024) atom(staged) : memref<?xi8>, memref<2048xi8, #gpu.address_space<workgroup>>
      }
      // Source: LDS bytes [16, 1040): thread t loads piece t + 1 of slot 0, which
      // thread t + 1 has just stored (thread 63 loads slot 1's piece 0).
      kda.staged_copy @r[%c1] iter(%c1) do {
        // expected-error @+1 {{'kda.copy_row' op source must not be workgroup memory (LDS), got 'memref<2048xi8, #gpu.address_space<workgroup>>'}}
        kda.copy_row %lds[%c16] to %lds[%c1024] elems(1024) atom(staged) : memref<2048xi8, #gpu.address_space<workgroup>>, memref<2048xi8, #gpu.address_space<workgroup>>
      }
      kda.lds_barrier
      kda.lds_read @r[%c0] iter(%c0) do {
        %v = memref.view %lds[%c0][] : memref<2048xi8, #gpu.address_space<workgroup>> to memref<256xf32, #gpu.address_space<workgroup>>
        %z = memref.load %v[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
        memref.store %z, %dst[%tid] : memref<?xf32>
      }
      kda.lds_read @r[%c1] iter(%c1) do {
        %v = memref.view %lds[%c1024][] : memref<2048xi8, #gpu.address_space<workgroup>> to memref<256xf32, #gpu.address_space<workgroup>>
        %z = memref.load %v[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
        memref.store %z, %dst[%tid] : memref<?xf32>
      }
      kda.lds_barrier
    }
    gpu.return
  }
}

// -----

// A cooperative copy row issued by a quarter of the threads: 3/4 of the slot keeps an older tile.
gpu.module @kernels attributes {kda.target = #kda.target<"sm_90">} {
  kda.lds_buffer @r slots(2) slot_bytes(4096) offset(0)
  gpu.func @row_by_subset(%src: memref<?xf32>, %dst: memref<?xf32>)
      workgroup(%lds : memref<8192xi8, #gpu.address_space<workgroup>>)
      kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
    %tid = gpu.thread_id x
    // expected-error @+1 {{R0: cannot analyse kda.copy_row: a copy row under scf.if: the model takes every row of a copy as issued by every thread whenever the copy is (the copy's own pre}}
    kda.schedule "row_by_subset" trip_count(4) depth(2) target("sm_90") {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c1024 = arith.constant 4096 : index
      kda.async_copy @r[%c0] iter(%c0) do {
        kda.copy_row %src[%c0] to %lds[%c0] elems(1024) atom(cp_async) : memref<?xf32>, memref<8192xi8, #gpu.address_space<workgroup>>
      }
      scf.for %i = %c0 to %c4 step %c1 {
        %n = arith.addi %i, %c1 : index
        %p = arith.cmpi slt, %n, %c4 : index
        %sn = kda.ring_slot %n of @r
        %at = arith.muli %sn, %c1024 : index
        kda.async_copy @r[%sn] iter(%n) if(%p) do {
          %c64 = arith.constant 64 : index
          %w0 = arith.cmpi ult, %tid, %c64 : index
          scf.if %w0 {
            kda.copy_row %src[%c0] to %lds[%at] elems(1024) atom(cp_async) : memref<?xf32>, memref<8192xi8, #gpu.address_space<workgroup>>
          }
        }
        kda.async_wait 1
        kda.lds_barrier
        %s = kda.ring_slot %i of @r
        %rd = arith.muli %s, %c1024 : index
        kda.lds_read @r[%s] iter(%i) do {
          %v = memref.view %lds[%rd][] : memref<8192xi8, #gpu.address_space<workgroup>> to memref<1024xf32, #gpu.address_space<workgroup>>
          %z = memref.load %v[%tid] : memref<1024xf32, #gpu.address_space<workgroup>>
          memref.store %z, %dst[%tid] : memref<?xf32>
        }
        kda.lds_barrier
      }
      kda.async_wait 0
    }
    gpu.return
  }
}

// -----

// A row under a branch that never holds (gfx950): the wait counts the row's loads, which never issue.
gpu.module @kernels attributes {kda.target = #kda.target<"gfx950">} {
  kda.lds_buffer @r slots(2) slot_bytes(2048) offset(0)
  gpu.func @vmcnt_rows(%src: memref<?xf32>, %dst: memref<?xf32>)
      workgroup(%lds : memref<4096xi8, #gpu.address_space<workgroup>>)
      kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
    %tid = gpu.thread_id x
    // expected-error @+1 {{R0: cannot analyse kda.copy_row: a copy row under scf.if: the model takes every row of a copy as issued by every thread whenever the copy is (the copy's own pre}}
    kda.schedule "vmcnt_rows" trip_count(4) depth(2) target("gfx950") {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c3 = arith.constant 3 : index
      %c1024 = arith.constant 1024 : index
      %c2048 = arith.constant 2048 : index
      %never = arith.cmpi slt, %c1, %c0 : index
      kda.async_copy @r[%c0] iter(%c0) {issuers = "wave0"} do {
        kda.copy_row %src[%c0] to %lds[%c0] elems(256) atom(global_load_lds) : memref<?xf32>, memref<4096xi8, #gpu.address_space<workgroup>>
        scf.if %never {
          kda.copy_row %src[%c0] to %lds[%c1024] elems(256) atom(global_load_lds) : memref<?xf32>, memref<4096xi8, #gpu.address_space<workgroup>>
        }
      }
      scf.for %i = %c0 to %c3 step %c1 {
        %n = arith.addi %i, %c1 : index
        %sn = kda.ring_slot %n of @r
        %at = arith.muli %sn, %c2048 : index
        %at2 = arith.addi %at, %c1024 : index
        kda.async_copy @r[%sn] iter(%n) {issuers = "wave0"} do {
          kda.copy_row %src[%c0] to %lds[%at] elems(256) atom(global_load_lds) : memref<?xf32>, memref<4096xi8, #gpu.address_space<workgroup>>
          scf.if %never {
            kda.copy_row %src[%c0] to %lds[%at2] elems(256) atom(global_load_lds) : memref<?xf32>, memref<4096xi8, #gpu.address_space<workgroup>>
          }
        }
        kda.async_wait 1
        kda.lds_barrier
        %s = kda.ring_slot %i of @r
        %rd = arith.muli %s, %c2048 : index
        kda.lds_read @r[%s] iter(%i) do {
          %v = memref.view %lds[%rd][] : memref<4096xi8, #gpu.address_space<workgroup>> to memref<256xf32, #gpu.address_space<workgroup>>
          %z = memref.load %v[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
          memref.store %z, %dst[%tid] : memref<?xf32>
        }
        kda.lds_barrier
      }
      kda.async_wait 0
      kda.lds_barrier
      kda.lds_read @r[%c1] iter(%c3) do {
        %v = memref.view %lds[%c2048][] : memref<4096xi8, #gpu.address_space<workgroup>> to memref<256xf32, #gpu.address_space<workgroup>>
        %z = memref.load %v[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
        memref.store %z, %dst[%tid] : memref<?xf32>
      }
      kda.lds_barrier
    }
    gpu.return
  }
}

// -----

// A barrier in a read body that only the first wave reaches.
gpu.module @kernels attributes {kda.target = #kda.target<"sm_90">} {
  kda.lds_buffer @r slots(2) slot_bytes(1024) offset(0)
  gpu.func @divergent_barrier(%src: memref<?xf32>, %dst: memref<?xf32>)
      workgroup(%lds : memref<2048xi8, #gpu.address_space<workgroup>>)
      kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
    %tid = gpu.thread_id x
    // expected-error @+1 {{R0: cannot analyse gpu.barrier: a barrier under scf.if whose condition or bounds are not shown the same for every thread: not every thread may reach it}}
    kda.schedule "divergent_barrier" trip_count(4) depth(2) target("sm_90") {
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
          %z = memref.load %v[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
          memref.store %z, %dst[%tid] : memref<?xf32>
          %c64 = arith.constant 64 : index
          %w0 = arith.cmpi ult, %tid, %c64 : index
          scf.if %w0 {
            gpu.barrier
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

// The ring cast out of the workgroup address space and stored to in a read body.
gpu.module @kernels attributes {kda.target = #kda.target<"sm_90">} {
  kda.lds_buffer @r slots(2) slot_bytes(1024) offset(0)
  gpu.func @generic_alias(%src: memref<?xf32>, %dst: memref<?xf32>)
      workgroup(%lds : memref<2048xi8, #gpu.address_space<workgroup>>)
      kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
    %tid = gpu.thread_id x
    // expected-error @+1 {{R0: cannot analyse memref.memory_space_cast: it casts LDS out of the workgroup address space, where its accesses are not tracked}}
    kda.schedule "generic_alias" trip_count(4) depth(2) target("sm_90") {
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
        %gen = memref.memory_space_cast %lds : memref<2048xi8, #gpu.address_space<workgroup>> to memref<2048xi8>
        %s = kda.ring_slot %i of @r
        %rd = arith.muli %s, %c1024 : index
        kda.lds_read @r[%s] iter(%i) do {
          %v = memref.view %lds[%rd][] : memref<2048xi8, #gpu.address_space<workgroup>> to memref<256xf32, #gpu.address_space<workgroup>>
          %z = memref.load %v[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
          memref.store %z, %dst[%tid] : memref<?xf32>
          %c7 = arith.constant 7 : i8
          %o = arith.addi %tid, %c1024 : index
          memref.store %c7, %gen[%o] : memref<2048xi8>
        }
        kda.lds_barrier
      }
      kda.async_wait 0
    }
    gpu.return
  }
}

// -----

// LDS reached through an LLVM global in address space 3 (not placed, not counted by R6).
gpu.module @kernels attributes {kda.target = #kda.target<"gfx942">} {
  llvm.mlir.global internal @extra() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<10240 x f32>
  kda.lds_buffer @r slots(2) slot_bytes(16384) offset(0)
  gpu.func @k(%src: memref<?xf32>, %dst: memref<?xf32>)
      workgroup(%lds : memref<32768xi8, #gpu.address_space<workgroup>>)
      kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
    %tid = gpu.thread_id x
    // expected-error @+1 {{R0: cannot analyse llvm.mlir.addressof: it reaches LDS as integer address space 3 or through a pointer, which the verifier neither places nor counts (use #gpu.address_space<workgroup>)}}
    kda.schedule "llvm_global" trip_count(4) depth(2) target("gfx942") {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c16384 = arith.constant 16384 : index
      kda.staged_copy @r[%c0] iter(%c0) do {
        kda.copy_row %src[%c0] to %lds[%c0] elems(4096) atom(staged) : memref<?xf32>, memref<32768xi8, #gpu.address_space<workgroup>>
      }
      scf.for %i = %c0 to %c4 step %c1 {
        kda.lds_barrier
        %s = kda.ring_slot %i of @r
        %rd = arith.muli %s, %c16384 : index
        kda.lds_read @r[%s] iter(%i) do {
          %v = memref.view %lds[%rd][] : memref<32768xi8, #gpu.address_space<workgroup>> to memref<4096xf32, #gpu.address_space<workgroup>>
          %z = memref.load %v[%tid] : memref<4096xf32, #gpu.address_space<workgroup>>
          %g = llvm.mlir.addressof @extra : !llvm.ptr<3>
          llvm.store %z, %g : f32, !llvm.ptr<3>
          memref.store %z, %dst[%tid] : memref<?xf32>
        }
        %n = arith.addi %i, %c1 : index
        %p = arith.cmpi slt, %n, %c4 : index
        %sn = kda.ring_slot %n of @r
        %at = arith.muli %sn, %c16384 : index
        kda.staged_copy @r[%sn] iter(%n) if(%p) do {
          kda.copy_row %src[%c0] to %lds[%at] elems(4096) atom(staged) : memref<?xf32>, memref<32768xi8, #gpu.address_space<workgroup>>
        }
      }
      kda.lds_barrier
    }
    gpu.return
  }
}

// -----

// A schedule in a function the kernel calls under a branch on the thread id.
gpu.module @kernels attributes {kda.target = #kda.target<"gfx942">} {
  kda.lds_buffer @r slots(2) slot_bytes(16384) offset(0)
  func.func @dev(%src: memref<?xf32>, %dst: memref<?xf32>, %tid: index) {
    %dyn = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %c0i = arith.constant 0 : index
    %lds = memref.view %dyn[%c0i][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<32768xi8, #gpu.address_space<workgroup>>
    // expected-error @+1 {{R0: cannot analyse kda.schedule: the schedule is in function @dev, which is called: its entry and its LDS are verified in the kernel that runs it, so a schedule}}
    kda.schedule "in_callee" trip_count(4) depth(2) target("gfx942") {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c16384 = arith.constant 16384 : index
      kda.staged_copy @r[%c0] iter(%c0) do {
        kda.copy_row %src[%c0] to %lds[%c0] elems(4096) atom(staged) : memref<?xf32>, memref<32768xi8, #gpu.address_space<workgroup>>
      }
      scf.for %i = %c0 to %c4 step %c1 {
        kda.lds_barrier
        %s = kda.ring_slot %i of @r
        %rd = arith.muli %s, %c16384 : index
        kda.lds_read @r[%s] iter(%i) do {
          %v = memref.view %lds[%rd][] : memref<32768xi8, #gpu.address_space<workgroup>> to memref<4096xf32, #gpu.address_space<workgroup>>
          %z = memref.load %v[%c0] : memref<4096xf32, #gpu.address_space<workgroup>>
          memref.store %z, %dst[%c0] : memref<?xf32>
        }
        %n = arith.addi %i, %c1 : index
        %p = arith.cmpi slt, %n, %c4 : index
        %sn = kda.ring_slot %n of @r
        %at = arith.muli %sn, %c16384 : index
        kda.staged_copy @r[%sn] iter(%n) if(%p) do {
          kda.copy_row %src[%c0] to %lds[%at] elems(4096) atom(staged) : memref<?xf32>, memref<32768xi8, #gpu.address_space<workgroup>>
        }
      }
      kda.lds_barrier
    }
    return
  }
  gpu.func @kernel(%src: memref<?xf32>, %dst: memref<?xf32>)
      workgroup(%big : memref<61440xi8, #gpu.address_space<workgroup>>)
      kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
    %tid = gpu.thread_id x
    %c64 = arith.constant 64 : index
    %first = arith.cmpi ult, %tid, %c64 : index
    scf.if %first {
      func.call @dev(%src, %dst, %tid) : (memref<?xf32>, memref<?xf32>, index) -> ()
    }
    gpu.return
  }
}

// -----

// Dynamic LDS beside a static attribution: on the chips dynamic LDS starts after it.
gpu.module @kernels attributes {kda.target = #kda.target<"sm_90">} {
  kda.lds_buffer @r slots(2) slot_bytes(1024) offset(0)
  gpu.func @dsm_vs_attribution(%src: memref<?xf32>, %dst: memref<?xf32>)
      workgroup(%lds : memref<2048xi8, #gpu.address_space<workgroup>>)
      kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
    %tid = gpu.thread_id x
    %dyn = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %z0 = arith.constant 0 : index
    %dv = memref.view %dyn[%z0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<2048xi8, #gpu.address_space<workgroup>>
    // expected-error @+1 {{R0: cannot analyse gpu.dynamic_shared_memory: the kernel takes dynamic LDS beside static workgroup attributions, which the chips place before it and the model a}}
    kda.schedule "dsm_vs_attribution" trip_count(4) depth(2) target("sm_90") {
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
          %v = memref.view %dv[%rd][] : memref<2048xi8, #gpu.address_space<workgroup>> to memref<256xf32, #gpu.address_space<workgroup>>
          %z = memref.load %v[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
          memref.store %z, %dst[%tid] : memref<?xf32>
        }
        kda.lds_barrier
      }
      kda.async_wait 0
    }
    gpu.return
  }
}

// -----

// An i1 true is -1 to a signed compare: `cmpi slt, true, false` holds, so the wait it guards never runs.
gpu.module @kernels attributes {kda.target = #kda.target<"sm_90">} {
  kda.lds_buffer @r slots(2) slot_bytes(1024) offset(0)
  gpu.func @i1_signed(%src: memref<?xf32>, %dst: memref<?xf32>)
      workgroup(%lds : memref<2048xi8, #gpu.address_space<workgroup>>)
      kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
    %tid = gpu.thread_id x
    // expected-error @+1 {{R1: iteration 0 reads @r slot 0 before any wait covers its async copy}}
    kda.schedule "i1_signed" trip_count(4) depth(2) target("sm_90") {
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
        %tr = arith.constant true
        %fa = arith.constant false
        // i1 is signed: true is -1, so true < false holds.
        %skip = arith.cmpi slt, %tr, %fa : i1
        scf.if %skip {
        } else {
          kda.async_wait 1
        }
        kda.lds_barrier
        %s = kda.ring_slot %i of @r
        %rd = arith.muli %s, %c1024 : index
        kda.lds_read @r[%s] iter(%i) do {
          %v = memref.view %lds[%rd][] : memref<2048xi8, #gpu.address_space<workgroup>> to memref<256xf32, #gpu.address_space<workgroup>>
          %z = memref.load %v[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
          memref.store %z, %dst[%tid] : memref<?xf32>
        }
        kda.lds_barrier
      }
      kda.async_wait 0
    }
    gpu.return
  }
}

// -----

// `extsi true` is -1: the view lands in the other slot.
gpu.module @kernels attributes {kda.target = #kda.target<"sm_90">} {
  kda.lds_buffer @r slots(2) slot_bytes(1024) offset(0)
  gpu.func @i1_extsi(%src: memref<?xf32>, %dst: memref<?xf32>)
      workgroup(%lds : memref<2048xi8, #gpu.address_space<workgroup>>)
      kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
    %tid = gpu.thread_id x
    // expected-error @+1 {{R1: the read of iteration 0 from @r slot 0 views bytes [1024, 2048), outside the slot's bytes [0, 1024): the wrong tile}}
    kda.schedule "i1_extsi" trip_count(4) depth(2) target("sm_90") {
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
        %tr = arith.constant true
        %m64 = arith.extsi %tr : i1 to i64
        %m = arith.index_cast %m64 : i64 to index
        %c2 = arith.constant 2 : index
        %h = arith.addi %m, %c1 : index
        %q = arith.divsi %h, %c2 : index
        %s1 = arith.addi %s, %c1 : index
        %s2 = arith.subi %s1, %q : index
        %s3 = arith.remui %s2, %c2 : index
        %rd = arith.muli %s3, %c1024 : index
        kda.lds_read @r[%s] iter(%i) do {
          %v = memref.view %lds[%rd][] : memref<2048xi8, #gpu.address_space<workgroup>> to memref<256xf32, #gpu.address_space<workgroup>>
          %z = memref.load %v[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
          memref.store %z, %dst[%tid] : memref<?xf32>
        }
        kda.lds_barrier
      }
      kda.async_wait 0
    }
    gpu.return
  }
}

// -----

// ceildivui(2^64 - 1, 2) is 2^63, not 0.
gpu.module @kernels attributes {kda.target = #kda.target<"sm_90">} {
  kda.lds_buffer @r slots(2) slot_bytes(1024) offset(0)
  gpu.func @ceildivui(%src: memref<?xf32>, %dst: memref<?xf32>)
      workgroup(%lds : memref<2048xi8, #gpu.address_space<workgroup>>)
      kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
    %tid = gpu.thread_id x
    // expected-error @+1 {{R1: iteration 0 reads @r slot 0 before any wait covers its async copy}}
    kda.schedule "ceildivui" trip_count(4) depth(2) target("sm_90") {
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
        %cm1 = arith.constant -1 : index
        %c2 = arith.constant 2 : index
        // ceildivui(2^64 - 1, 2) = 2^63, not 0.
        %cd = arith.ceildivui %cm1, %c2 : index
        %zero = arith.cmpi eq, %cd, %c0 : index
        scf.if %zero {
          kda.async_wait 1
        }
        kda.lds_barrier
        %s = kda.ring_slot %i of @r
        %rd = arith.muli %s, %c1024 : index
        kda.lds_read @r[%s] iter(%i) do {
          %v = memref.view %lds[%rd][] : memref<2048xi8, #gpu.address_space<workgroup>> to memref<256xf32, #gpu.address_space<workgroup>>
          %z = memref.load %v[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
          memref.store %z, %dst[%tid] : memref<?xf32>
        }
        kda.lds_barrier
      }
      kda.async_wait 0
    }
    gpu.return
  }
}

// -----

// An unsigned i8 loop to 200 runs 200 trips (signed, 200 is -56): its loads pass the slot.
gpu.module @kernels attributes {kda.target = #kda.target<"sm_90">} {
  kda.lds_buffer @r slots(2) slot_bytes(1024) offset(0)
  gpu.func @unsigned_body_loop(%src: memref<?xf32>, %dst: memref<?xf32>)
      workgroup(%lds : memref<2048xi8, #gpu.address_space<workgroup>>)
      kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
    %tid = gpu.thread_id x
    // expected-error @+1 {{R1: the read of iteration 0 from @r slot 0 may load bytes [400, 1424) through a view of the ring, outside the slot's bytes [0, 1024): the wrong tile}}
    kda.schedule "unsigned_body_loop" trip_count(4) depth(2) target("sm_90") {
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
          %b0 = arith.constant 0 : i8
          %b1 = arith.constant 1 : i8
          %b200 = arith.constant 200 : i8
          %c100 = arith.constant 100 : index
          scf.for unsigned %k = %b0 to %b200 step %b1 : i8 {
            %ki = arith.index_castui %k : i8 to index
            %e = arith.addi %ki, %c100 : index
            %z = memref.load %v[%e] : memref<256xf32, #gpu.address_space<workgroup>>
            memref.store %z, %dst[%e] : memref<?xf32>
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

// remui(i, -1) is i (the divisor read unsigned), not a residue of period 1: the wait skipped from iteration 1000 on must not pass the dynamic proof.
kda.lds_buffer @h slots(2) slot_bytes(4096) offset(0)
func.func @hidden_late_hazard(%t: index) {
  // expected-error @+1 {{R0: cannot analyse arith.remui: its modulus 18446744073709551615 is too long a period to prove (an operand of scf.if)}}
  kda.schedule "hidden_late" dynamic_trip_count(%t) depth(2) target("sm_90") {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %cm1 = arith.constant -1 : index
    %c1000 = arith.constant 1000 : index
    %p0 = arith.cmpi slt, %c0, %t : index
    kda.async_copy @h[%c0] iter(%c0) if(%p0)
    scf.for %i = %c0 to %t step %c1 {
      %same = arith.remui %i, %cm1 : index
      %early = arith.cmpi slt, %same, %c1000 : index
      scf.if %early {
        kda.async_wait 0
      }
      kda.lds_barrier
      %s = kda.ring_slot %i of @h
      kda.lds_read @h[%s] iter(%i)
      %n = arith.addi %i, %c1 : index
      %p = arith.cmpi slt, %n, %t : index
      %sn = kda.ring_slot %n of @h
      kda.async_copy @h[%sn] iter(%n) if(%p)
    }
    kda.lds_barrier
  }
  return
}
// -----

// A copy that writes half its slot, read whole: the other half holds
// nothing, then iteration i - 2's tile.
gpu.module @kernels attributes {kda.target = #kda.target<"sm_90">} {
  kda.lds_buffer @r slots(2) slot_bytes(1024) offset(0)
  gpu.func @half_row(%src: memref<?xf32>, %dst: memref<?xf32>)
      workgroup(%lds : memref<2048xi8, #gpu.address_space<workgroup>>)
      kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
    %tid = gpu.thread_id x
    // expected-error @+1 {{R1: iteration 0 reads @r slot 0, whose bytes [512, 1024) no copy has written}}
    kda.schedule "half_row" trip_count(4) depth(2) target("sm_90") {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c1024 = arith.constant 1024 : index
      kda.async_copy @r[%c0] iter(%c0) do {
        kda.copy_row %src[%c0] to %lds[%c0] elems(128) atom(cp_async) : memref<?xf32>, memref<2048xi8, #gpu.address_space<workgroup>>
      }
      scf.for %i = %c0 to %c4 step %c1 {
        %n = arith.addi %i, %c1 : index
        %p = arith.cmpi slt, %n, %c4 : index
        %sn = kda.ring_slot %n of @r
        %at = arith.muli %sn, %c1024 : index
        kda.async_copy @r[%sn] iter(%n) if(%p) do {
          kda.copy_row %src[%c0] to %lds[%at] elems(128) atom(cp_async) : memref<?xf32>, memref<2048xi8, #gpu.address_space<workgroup>>
        }
        kda.async_wait 1
        kda.lds_barrier
        %s = kda.ring_slot %i of @r
        %rd = arith.muli %s, %c1024 : index
        kda.lds_read @r[%s] iter(%i) do {
          %v = memref.view %lds[%rd][] : memref<2048xi8, #gpu.address_space<workgroup>> to memref<256xf32, #gpu.address_space<workgroup>>
          %z = memref.load %v[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
          memref.store %z, %dst[%tid] : memref<?xf32>
        }
        kda.lds_barrier
      }
      kda.async_wait 0
    }
    gpu.return
  }
}

// -----

// Accepted: the same copy, read only where it writes.
gpu.module @kernels attributes {kda.target = #kda.target<"sm_90">} {
  kda.lds_buffer @r slots(2) slot_bytes(1024) offset(0)
  gpu.func @half_row_read_half(%src: memref<?xf32>, %dst: memref<?xf32>)
      workgroup(%lds : memref<2048xi8, #gpu.address_space<workgroup>>)
      kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
    %tid = gpu.thread_id x
    kda.schedule "half_row_read_half" trip_count(4) depth(2) target("sm_90") {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c1024 = arith.constant 1024 : index
      kda.async_copy @r[%c0] iter(%c0) do {
        kda.copy_row %src[%c0] to %lds[%c0] elems(128) atom(cp_async) : memref<?xf32>, memref<2048xi8, #gpu.address_space<workgroup>>
      }
      scf.for %i = %c0 to %c4 step %c1 {
        %n = arith.addi %i, %c1 : index
        %p = arith.cmpi slt, %n, %c4 : index
        %sn = kda.ring_slot %n of @r
        %at = arith.muli %sn, %c1024 : index
        kda.async_copy @r[%sn] iter(%n) if(%p) do {
          kda.copy_row %src[%c0] to %lds[%at] elems(128) atom(cp_async) : memref<?xf32>, memref<2048xi8, #gpu.address_space<workgroup>>
        }
        kda.async_wait 1
        kda.lds_barrier
        %s = kda.ring_slot %i of @r
        %rd = arith.muli %s, %c1024 : index
        kda.lds_read @r[%s] iter(%i) do {
          %v = memref.view %lds[%rd][] : memref<2048xi8, #gpu.address_space<workgroup>> to memref<256xf32, #gpu.address_space<workgroup>>
          %c128 = arith.constant 128 : index
          %h = arith.remui %tid, %c128 : index
          %z = memref.load %v[%h] : memref<256xf32, #gpu.address_space<workgroup>>
          memref.store %z, %dst[%tid] : memref<?xf32>
        }
        kda.lds_barrier
      }
      kda.async_wait 0
    }
    gpu.return
  }
}

// -----

// Accepted: a barrier in a read body under a branch on the iteration, which
// every thread takes alike.
gpu.module @kernels attributes {kda.target = #kda.target<"sm_90">} {
  kda.lds_buffer @r slots(2) slot_bytes(1024) offset(0)
  gpu.func @uniform_barrier(%src: memref<?xf32>, %dst: memref<?xf32>)
      workgroup(%lds : memref<2048xi8, #gpu.address_space<workgroup>>)
      kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
    %tid = gpu.thread_id x
    kda.schedule "uniform_barrier" trip_count(4) depth(2) target("sm_90") {
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
          %z = memref.load %v[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
          memref.store %z, %dst[%tid] : memref<?xf32>
          %c2 = arith.constant 2 : index
          %w0 = arith.cmpi ult, %i, %c2 : index
          scf.if %w0 {
            gpu.barrier
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

// Accepted: a copy's rows in a loop to a bound every thread shares (a load
// of a kernel argument the kernel never writes), as the chunk scan's ring
// copies a chunk's rows up to the sequence's end.
gpu.module @kernels attributes {kda.target = #kda.target<"sm_90">} {
  kda.lds_buffer @r slots(2) slot_bytes(4096) offset(0)
  gpu.func @rows_in_a_loop(%src: memref<?xf32>, %dst: memref<?xf32>, %len: memref<?xindex>)
      workgroup(%lds : memref<8192xi8, #gpu.address_space<workgroup>>)
      kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
    %tid = gpu.thread_id x
    kda.schedule "rows_in_a_loop" trip_count(4) depth(2) target("sm_90") {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c1024 = arith.constant 4096 : index
      kda.async_copy @r[%c0] iter(%c0) do {
        kda.copy_row %src[%c0] to %lds[%c0] elems(1024) atom(cp_async) : memref<?xf32>, memref<8192xi8, #gpu.address_space<workgroup>>
      }
      scf.for %i = %c0 to %c4 step %c1 {
        %n = arith.addi %i, %c1 : index
        %p = arith.cmpi slt, %n, %c4 : index
        %sn = kda.ring_slot %n of @r
        %at = arith.muli %sn, %c1024 : index
        kda.async_copy @r[%sn] iter(%n) if(%p) do {
          %len0 = memref.load %len[%c0] : memref<?xindex>
          %rows = arith.minui %len0, %c4 : index
          scf.for %r = %c0 to %rows step %c1 {
            %c1k = arith.constant 1024 : index
            %off = arith.muli %r, %c1k : index
            %row = arith.addi %at, %off : index
            kda.copy_row %src[%c0] to %lds[%row] elems(256) atom(cp_async) : memref<?xf32>, memref<8192xi8, #gpu.address_space<workgroup>>
          }
        }
        kda.async_wait 1
        kda.lds_barrier
        %s = kda.ring_slot %i of @r
        %rd = arith.muli %s, %c1024 : index
        kda.lds_read @r[%s] iter(%i) do {
          %v = memref.view %lds[%rd][] : memref<8192xi8, #gpu.address_space<workgroup>> to memref<1024xf32, #gpu.address_space<workgroup>>
          %z = memref.load %v[%tid] : memref<1024xf32, #gpu.address_space<workgroup>>
          memref.store %z, %dst[%tid] : memref<?xf32>
        }
        kda.lds_barrier
      }
      kda.async_wait 0
    }
    gpu.return
  }
}
