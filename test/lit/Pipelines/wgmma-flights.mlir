// kda-verify-pipeline holds a warpgroup atom's flight (issue to the
// kda.wgmma_wait covering its commit group) to straight-line code: R5 when
// no wait in its block covers it, or a wait returns a result its group is
// not covered by; R3 when a barrier lies in between; R2 when an op in
// between may write workgroup memory. Global stores and other atoms may.
// RUN: kda-opt %s --split-input-file --kda-verify-pipeline --verify-diagnostics

!lds = memref<?xi8, #gpu.address_space<workgroup>>
!acc = vector<32xf32>
gpu.module @m attributes {kda.target = #kda.target<"sm_90">} {
  gpu.func @accepted(%a: vector<8xbf16>, %c: !acc, %out: memref<64xf32>) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %lds = gpu.dynamic_shared_memory : !lds
    %o = arith.constant 0 : index
    %d0 = kda.wgmma %a, %lds[%o], %c {kind = #kda.mma_kind<wgmma_f32_64x64x16_bf16>, lbo = 128, sbo = 256} : vector<8xbf16>, !lds, !acc -> !acc
    kda.wgmma_commit
    %d1 = kda.wgmma %a, %lds[%o], %c {kind = #kda.mma_kind<wgmma_f32_64x64x16_bf16>, lbo = 128, sbo = 256} : vector<8xbf16>, !lds, !acc -> !acc
    kda.wgmma_commit
    // A global store while both are in flight; the first group waited for
    // with the second still open.
    %x = arith.constant 1.0 : f32
    memref.store %x, %out[%o] : memref<64xf32>
    %r0 = kda.wgmma_wait %d0 {pending = 1} : !acc
    %r1 = kda.wgmma_wait %d1 {pending = 0} : !acc
    vector.store %r0, %out[%o] : memref<64xf32>, !acc
    gpu.barrier
    vector.store %r1, %out[%o] : memref<64xf32>, !acc
    gpu.return
  }
}

// -----

!lds = memref<?xi8, #gpu.address_space<workgroup>>
!acc = vector<32xf32>
gpu.module @m attributes {kda.target = #kda.target<"sm_90">} {
  gpu.func @never_committed(%a: vector<8xbf16>, %c: !acc, %out: memref<64xf32>) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %lds = gpu.dynamic_shared_memory : !lds
    %o = arith.constant 0 : index
    // expected-error @+1 {{R5: in flight from its issue until the kda.wgmma_wait that covers its commit group, but no kda.wgmma_wait after it in its block covers it (0 kda.wgmma_commit follow it there}}
    %d = kda.wgmma %a, %lds[%o], %c {kind = #kda.mma_kind<wgmma_f32_64x64x16_bf16>, lbo = 128, sbo = 256} : vector<8xbf16>, !lds, !acc -> !acc
    // expected-error @+1 {{R5: returns a kda.wgmma result whose commit group it does not cover (0 kda.wgmma_commit between them, pending 0)}}
    %r = kda.wgmma_wait %d {pending = 0} : !acc
    vector.store %r, %out[%o] : memref<64xf32>, !acc
    gpu.return
  }
}

// -----

!lds = memref<?xi8, #gpu.address_space<workgroup>>
!acc = vector<32xf32>
gpu.module @m attributes {kda.target = #kda.target<"sm_90">} {
  gpu.func @newest_still_open(%a: vector<8xbf16>, %c: !acc, %out: memref<64xf32>) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %lds = gpu.dynamic_shared_memory : !lds
    %o = arith.constant 0 : index
    %d0 = kda.wgmma %a, %lds[%o], %c {kind = #kda.mma_kind<wgmma_f32_64x64x16_bf16>, lbo = 128, sbo = 256} : vector<8xbf16>, !lds, !acc -> !acc
    kda.wgmma_commit
    %d1 = kda.wgmma %a, %lds[%o], %c {kind = #kda.mma_kind<wgmma_f32_64x64x16_bf16>, lbo = 128, sbo = 256} : vector<8xbf16>, !lds, !acc -> !acc
    kda.wgmma_commit
    // expected-error @+1 {{R5: returns a kda.wgmma result whose commit group it does not cover (1 kda.wgmma_commit between them, pending 1)}}
    %r = kda.wgmma_wait %d1 {pending = 1} : !acc
    %z = kda.wgmma_wait %d0 {pending = 0} : !acc
    vector.store %z, %out[%o] : memref<64xf32>, !acc
    gpu.return
  }
}

// -----

!lds = memref<?xi8, #gpu.address_space<workgroup>>
!acc = vector<32xf32>
gpu.module @m attributes {kda.target = #kda.target<"sm_90">} {
  gpu.func @barrier_in_flight(%a: vector<8xbf16>, %c: !acc, %out: memref<64xf32>) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %lds = gpu.dynamic_shared_memory : !lds
    %o = arith.constant 0 : index
    // expected-error @+1 {{R3: in flight from its issue until the kda.wgmma_wait that covers its commit group, and a barrier lies between them}}
    %d = kda.wgmma %a, %lds[%o], %c {kind = #kda.mma_kind<wgmma_f32_64x64x16_bf16>, lbo = 128, sbo = 256} : vector<8xbf16>, !lds, !acc -> !acc
    kda.wgmma_commit
    // expected-note @+1 {{here}}
    gpu.barrier
    %r = kda.wgmma_wait %d {pending = 0} : !acc
    vector.store %r, %out[%o] : memref<64xf32>, !acc
    gpu.return
  }
}

// -----

!lds = memref<?xi8, #gpu.address_space<workgroup>>
!acc = vector<32xf32>
gpu.module @m attributes {kda.target = #kda.target<"sm_90">} {
  gpu.func @store_in_flight(%a: vector<8xbf16>, %c: !acc, %out: memref<64xf32>) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %lds = gpu.dynamic_shared_memory : !lds
    %o = arith.constant 0 : index
    // expected-error @+2 {{R2: in flight from its issue until the kda.wgmma_wait that covers its commit group, and this op may write workgroup memory before that wait}}
    // expected-note @+1 {{the other access}}
    %d = kda.wgmma %a, %lds[%o], %c {kind = #kda.mma_kind<wgmma_f32_64x64x16_bf16>, lbo = 128, sbo = 256} : vector<8xbf16>, !lds, !acc -> !acc
    kda.wgmma_commit
    %x = arith.constant 7 : i8
    %far = arith.constant 60000 : index
    // The handoff check refuses it too: any thread's write of the array in
    // the atom's barrier interval.
    // expected-note @+2 {{here}}
    // expected-error @+1 {{R2: LDS access in kernel 'store_in_flight': write of the dynamic LDS by threads [0, 128) in the barrier interval of a kda.wgmma that reads its B operand from that array for its whole warpgroup (threads [0, 128))}}
    memref.store %x, %lds[%far] : !lds
    %r = kda.wgmma_wait %d {pending = 0} : !acc
    vector.store %r, %out[%o] : memref<64xf32>, !acc
    gpu.return
  }
}

// -----

!lds = memref<?xi8, #gpu.address_space<workgroup>>
!acc = vector<32xf32>
gpu.module @m attributes {kda.target = #kda.target<"sm_90">} {
  gpu.func @store_in_branch(%a: vector<8xbf16>, %c: !acc, %p: i1, %out: memref<64xf32>) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %lds = gpu.dynamic_shared_memory : !lds
    %o = arith.constant 0 : index
    // expected-error @+2 {{R2: in flight}}
    // expected-note @+1 {{the other access}}
    %d = kda.wgmma %a, %lds[%o], %c {kind = #kda.mma_kind<wgmma_f32_64x64x16_bf16>, lbo = 128, sbo = 256} : vector<8xbf16>, !lds, !acc -> !acc
    kda.wgmma_commit
    // expected-note @+1 {{here}}
    scf.if %p {
      %x = arith.constant dense<0> : vector<4xi8>
      // expected-error @+1 {{R2: LDS access in kernel 'store_in_branch': write of the dynamic LDS}}
      vector.store %x, %lds[%o] : !lds, vector<4xi8>
    }
    %r = kda.wgmma_wait %d {pending = 0} : !acc
    vector.store %r, %out[%o] : memref<64xf32>, !acc
    gpu.return
  }
}

// -----

!lds = memref<?xi8, #gpu.address_space<workgroup>>
!acc = vector<32xf32>
gpu.module @m attributes {kda.target = #kda.target<"sm_90">} {
  gpu.func @wait_in_other_block(%a: vector<8xbf16>, %c: !acc, %p: i1, %out: memref<64xf32>) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %lds = gpu.dynamic_shared_memory : !lds
    %o = arith.constant 0 : index
    // expected-error @+1 {{R5: in flight}}
    %d = kda.wgmma %a, %lds[%o], %c {kind = #kda.mma_kind<wgmma_f32_64x64x16_bf16>, lbo = 128, sbo = 256} : vector<8xbf16>, !lds, !acc -> !acc
    kda.wgmma_commit
    scf.if %p {
      // expected-error @+1 {{R5: returns a kda.wgmma result whose commit group it does not cover (not issued before it in its block)}}
      %r = kda.wgmma_wait %d {pending = 0} : !acc
      vector.store %r, %out[%o] : memref<64xf32>, !acc
    }
    gpu.return
  }
}

// -----

// Whole warpgroups: a block that is not 128 k x 1 x 1 threads, or an atom
// under a branch on the thread id, is refused (.sync.aligned: every thread
// of the group executes it).
!lds = memref<?xi8, #gpu.address_space<workgroup>>
!acc = vector<32xf32>
gpu.module @m attributes {kda.target = #kda.target<"sm_90">} {
  gpu.func @half_group(%a: vector<8xbf16>, %c: !acc, %out: memref<64xf32>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %lds = gpu.dynamic_shared_memory : !lds
    %o = arith.constant 0 : index
    // expected-error @+1 {{R0: a warpgroup atom is issued by whole warpgroups (128 threads): kernel 'half_group' needs a known block size of 128 k x 1 x 1 threads}}
    %d = kda.wgmma %a, %lds[%o], %c {kind = #kda.mma_kind<wgmma_f32_64x64x16_bf16>, lbo = 128, sbo = 256} : vector<8xbf16>, !lds, !acc -> !acc
    kda.wgmma_commit
    %r = kda.wgmma_wait %d {pending = 0} : !acc
    vector.store %r, %out[%o] : memref<64xf32>, !acc
    gpu.return
  }
}

// -----

!lds = memref<?xi8, #gpu.address_space<workgroup>>
!acc = vector<32xf32>
gpu.module @m attributes {kda.target = #kda.target<"sm_90">} {
  gpu.func @divergent(%a: vector<8xbf16>, %c: !acc, %out: memref<64xf32>) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %lds = gpu.dynamic_shared_memory : !lds
    %o = arith.constant 0 : index
    %tid = gpu.thread_id x
    %c64 = arith.constant 64 : index
    %low = arith.cmpi ult, %tid, %c64 : index
    scf.if %low {
      // expected-error @+1 {{R0: every thread of the warpgroup executes it (.sync.aligned), but it is under scf.if whose condition or bounds are not the same for every thread}}
      %d = kda.wgmma %a, %lds[%o], %c {kind = #kda.mma_kind<wgmma_f32_64x64x16_bf16>, lbo = 128, sbo = 256} : vector<8xbf16>, !lds, !acc -> !acc
      // expected-error @+1 {{R0: every thread of the warpgroup executes it}}
      kda.wgmma_commit
      // expected-error @+1 {{R0: every thread of the warpgroup executes it}}
      %r = kda.wgmma_wait %d {pending = 0} : !acc
      vector.store %r, %out[%o] : memref<64xf32>, !acc
    }
    gpu.return
  }
}

// -----

// A call may hide a barrier or a store of B (anywhere in the kernel: a
// store before the issue in its barrier interval too); an atom outside a
// kernel is not checked against the kernel's barriers.
!lds = memref<?xi8, #gpu.address_space<workgroup>>
!acc = vector<32xf32>
gpu.module @m attributes {kda.target = #kda.target<"sm_90">} {
  func.func private @helper()
  gpu.func @calls(%a: vector<8xbf16>, %c: !acc, %out: memref<64xf32>) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %lds = gpu.dynamic_shared_memory : !lds
    %o = arith.constant 0 : index
    // The LDS walk, which checks the atom's B handoffs, cannot see into the
    // call either (R0 kept where a kernel issues warpgroup atoms).
    // expected-error @+2 {{R0: LDS access in kernel 'calls': cannot analyse func.call}}
    // expected-error @+1 {{R0: cannot analyse the warpgroup atoms of kernel 'calls' beside a call (the callee's barriers and stores are not seen)}}
    func.call @helper() : () -> ()
    %d = kda.wgmma %a, %lds[%o], %c {kind = #kda.mma_kind<wgmma_f32_64x64x16_bf16>, lbo = 128, sbo = 256} : vector<8xbf16>, !lds, !acc -> !acc
    kda.wgmma_commit
    %r = kda.wgmma_wait %d {pending = 0} : !acc
    vector.store %r, %out[%o] : memref<64xf32>, !acc
    gpu.return
  }
}

// -----

!lds = memref<?xi8, #gpu.address_space<workgroup>>
!acc = vector<32xf32>
gpu.module @m attributes {kda.target = #kda.target<"sm_90">} {
  func.func @outside(%a: vector<8xbf16>, %c: !acc, %lds: !lds) -> !acc {
    %o = arith.constant 0 : index
    // expected-error @+1 {{R0: cannot analyse a warpgroup op outside a kernel (gpu.func)}}
    %d = kda.wgmma %a, %lds[%o], %c {kind = #kda.mma_kind<wgmma_f32_64x64x16_bf16>, lbo = 128, sbo = 256} : vector<8xbf16>, !lds, !acc -> !acc
    // expected-error @+1 {{R0: cannot analyse a warpgroup op outside a kernel}}
    kda.wgmma_commit
    // expected-error @+1 {{R0: cannot analyse a warpgroup op outside a kernel}}
    %r = kda.wgmma_wait %d {pending = 0} : !acc
    return %r : !acc
  }
}

// -----

// A wait that leaves `pending` groups open does not cover the newest of
// them: with one commit after the atom, pending 1 leaves it in flight.
!lds = memref<?xi8, #gpu.address_space<workgroup>>
!acc = vector<32xf32>
gpu.module @m attributes {kda.target = #kda.target<"sm_90">} {
  gpu.func @left_open(%a: vector<8xbf16>, %c: !acc, %out: memref<64xf32>) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %lds = gpu.dynamic_shared_memory : !lds
    %o = arith.constant 0 : index
    // expected-error @+1 {{R5: in flight from its issue until the kda.wgmma_wait that covers its commit group, but no kda.wgmma_wait after it in its block covers it (1 kda.wgmma_commit follow it there}}
    %d = kda.wgmma %a, %lds[%o], %c {kind = #kda.mma_kind<wgmma_f32_64x64x16_bf16>, lbo = 128, sbo = 256} : vector<8xbf16>, !lds, !acc -> !acc
    kda.wgmma_commit
    kda.wgmma_wait {pending = 1}
    gpu.return
  }
}
