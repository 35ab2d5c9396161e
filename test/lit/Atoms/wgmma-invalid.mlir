// kda.wgmma, kda.wgmma_wait and kda.mma refuse what the warpgroup atom
// cannot be: the wrong op for the kind, fragments of the wrong length, B
// outside workgroup memory or in a layout its descriptor cannot encode, and
// an in-flight result read by anything but a chained atom or a wait.
// RUN: kda-opt %s --split-input-file --verify-diagnostics

!lds = memref<?xi8, #gpu.address_space<workgroup>>

func.func @wgmma_by_mma(%a: vector<8xbf16>, %b: vector<4xbf16>, %c: vector<32xf32>) -> vector<32xf32> {
  // expected-error @+1 {{wgmma_f32_64x64x16_bf16 is a warpgroup atom reading B from workgroup memory: issue it with kda.wgmma}}
  %d = kda.mma %a, %b, %c {kind = #kda.mma_kind<wgmma_f32_64x64x16_bf16>} : vector<8xbf16>, vector<4xbf16>, vector<32xf32> -> vector<32xf32>
  return %d : vector<32xf32>
}

// -----

!lds = memref<?xi8, #gpu.address_space<workgroup>>
func.func @mma_by_wgmma(%a: vector<8xbf16>, %lds: !lds, %o: index, %c: vector<4xf32>) {
  // expected-error @+1 {{mma_sync_f32_16x8x16_bf16 is a wave atom (B from registers): issue it with kda.mma}}
  %d = kda.wgmma %a, %lds[%o], %c {kind = #kda.mma_kind<mma_sync_f32_16x8x16_bf16>, lbo = 128, sbo = 256} : vector<8xbf16>, !lds, vector<4xf32> -> vector<4xf32>
  return
}

// -----

!lds = memref<?xi8, #gpu.address_space<workgroup>>
func.func @short_accumulator(%a: vector<8xbf16>, %lds: !lds, %o: index, %c: vector<16xf32>) {
  // expected-error @+1 {{operand C of wgmma_f32_64x64x16_bf16 is a fragment of 32 f32 elements per thread, got 'vector<16xf32>'}}
  %d = kda.wgmma %a, %lds[%o], %c {kind = #kda.mma_kind<wgmma_f32_64x64x16_bf16>, lbo = 128, sbo = 256} : vector<8xbf16>, !lds, vector<16xf32> -> vector<16xf32>
  return
}

// -----

!lds = memref<?xi8, #gpu.address_space<workgroup>>
func.func @short_a(%a: vector<4xbf16>, %lds: !lds, %o: index, %c: vector<8xf32>) {
  // expected-error @+1 {{operand A of wgmma_f32_64x16x16_bf16 is a fragment of 8 bf16 elements per thread, got 'vector<4xbf16>'}}
  %d = kda.wgmma %a, %lds[%o], %c {kind = #kda.mma_kind<wgmma_f32_64x16x16_bf16>, lbo = 128, sbo = 256} : vector<4xbf16>, !lds, vector<8xf32> -> vector<8xf32>
  return
}

// -----

func.func @global_b(%a: vector<8xbf16>, %g: memref<?xi8>, %o: index, %c: vector<32xf32>) {
  // expected-error @+1 {{reads B from workgroup memory; 'memref<?xi8>' is not in it}}
  %d = kda.wgmma %a, %g[%o], %c {kind = #kda.mma_kind<wgmma_f32_64x64x16_bf16>, lbo = 128, sbo = 256} : vector<8xbf16>, memref<?xi8>, vector<32xf32> -> vector<32xf32>
  return
}

// -----

!lds = memref<?xi8, #gpu.address_space<workgroup>>
func.func @unaligned_lbo(%a: vector<8xbf16>, %lds: !lds, %o: index, %c: vector<32xf32>) {
  // expected-error @+1 {{B's shared layout (K-major, lbo 120, sbo 256): the leading-dimension byte offset 120 is not a multiple of 16 below 2^18}}
  %d = kda.wgmma %a, %lds[%o], %c {kind = #kda.mma_kind<wgmma_f32_64x64x16_bf16>, lbo = 120, sbo = 256} : vector<8xbf16>, !lds, vector<32xf32> -> vector<32xf32>
  return
}

// -----

!lds = memref<?xi8, #gpu.address_space<workgroup>>
func.func @overlapping_core_matrices(%a: vector<8xbf16>, %lds: !lds, %o: index, %c: vector<32xf32>) {
  // expected-error @+1 {{core matrices at bytes 0 and 64 overlap}}
  %d = kda.wgmma %a, %lds[%o], %c {kind = #kda.mma_kind<wgmma_f32_64x64x16_bf16>, lbo = 64, sbo = 256} : vector<8xbf16>, !lds, vector<32xf32> -> vector<32xf32>
  return
}

// -----

// MN-major, the B of a row-major 16 x 64 slice: 64 n-bytes of 16 bytes each
// a k row put n-adjacent core matrices 16 bytes apart, inside each other.
!lds = memref<4096xi8, #gpu.address_space<workgroup>>
func.func @mn_major_rows_as_is(%a: vector<8xbf16>, %lds: !lds, %c: vector<32xf32>) {
  %o = arith.constant 0 : index
  // expected-error @+1 {{B's shared layout (MN-major, lbo 1024, sbo 16): core matrices at bytes 0 and 16 overlap}}
  %d = kda.wgmma %a, %lds[%o], %c {kind = #kda.mma_kind<wgmma_f32_64x64x16_bf16>, lbo = 1024, sbo = 16, b_mn_major} : vector<8xbf16>, !lds, vector<32xf32> -> vector<32xf32>
  return
}

// -----

!lds = memref<?xi8, #gpu.address_space<workgroup>>
func.func @read_in_flight(%a: vector<8xbf16>, %lds: !lds, %o: index, %c: vector<32xf32>) -> vector<32xf32> {
  // expected-error @+1 {{result is in flight until a kda.wgmma_wait returns it; it may only be the accumulator of another kda.wgmma or an operand of kda.wgmma_wait, not of arith.addf}}
  %d = kda.wgmma %a, %lds[%o], %c {kind = #kda.mma_kind<wgmma_f32_64x64x16_bf16>, lbo = 128, sbo = 256} : vector<8xbf16>, !lds, vector<32xf32> -> vector<32xf32>
  %e = arith.addf %d, %c : vector<32xf32>
  return %e : vector<32xf32>
}

// -----

func.func @wait_for_nothing(%c: vector<32xf32>) -> vector<32xf32> {
  // expected-error @+1 {{waits for kda.wgmma results; an operand is not one}}
  %r = kda.wgmma_wait %c {pending = 0} : vector<32xf32>
  return %r : vector<32xf32>
}

// -----

!lds = memref<?xi8, #gpu.address_space<workgroup>>
func.func @pending_too_large(%a: vector<8xbf16>, %lds: !lds, %o: index, %c: vector<32xf32>) -> vector<32xf32> {
  %d = kda.wgmma %a, %lds[%o], %c {kind = #kda.mma_kind<wgmma_f32_64x64x16_bf16>, lbo = 128, sbo = 256} : vector<8xbf16>, !lds, vector<32xf32> -> vector<32xf32>
  kda.wgmma_commit
  // expected-error @+1 {{pending must be 0..7 (wgmma.wait_group's immediate), got 8}}
  %r = kda.wgmma_wait %d {pending = 8} : vector<32xf32>
  return %r : vector<32xf32>
}

// -----

!lds = memref<?xi8, #gpu.address_space<workgroup>>
func.func @two_readers(%a: vector<8xbf16>, %lds: !lds, %o: index, %c: vector<32xf32>) {
  // expected-error @+1 {{result is in flight until a kda.wgmma_wait returns it; it may have one use (a chained kda.wgmma or a wait), it has more}}
  %d0 = kda.wgmma %a, %lds[%o], %c {kind = #kda.mma_kind<wgmma_f32_64x64x16_bf16>, lbo = 128, sbo = 256} : vector<8xbf16>, !lds, vector<32xf32> -> vector<32xf32>
  %d1 = kda.wgmma %a, %lds[%o], %d0 {kind = #kda.mma_kind<wgmma_f32_64x64x16_bf16>, lbo = 128, sbo = 256} : vector<8xbf16>, !lds, vector<32xf32> -> vector<32xf32>
  kda.wgmma_commit
  %r:2 = kda.wgmma_wait %d0, %d1 {pending = 0} : vector<32xf32>, vector<32xf32>
  return
}

// -----

!lds = memref<?xi8, #gpu.address_space<workgroup>>
func.func @unaligned_start(%a: vector<8xbf16>, %lds: !lds, %c: vector<32xf32>) {
  %o = arith.constant 8 : index
  // expected-error @+1 {{B's start (byte 8) must be 16-byte aligned: the descriptor drops its low 4 bits}}
  %d = kda.wgmma %a, %lds[%o], %c {kind = #kda.mma_kind<wgmma_f32_64x64x16_bf16>, lbo = 128, sbo = 256} : vector<8xbf16>, !lds, vector<32xf32> -> vector<32xf32>
  return
}

// -----

func.func @past_the_end(%a: vector<8xbf16>, %lds: memref<1024xi8, #gpu.address_space<workgroup>>, %c: vector<32xf32>) {
  %o = arith.constant 0 : index
  // expected-error @+1 {{B's bytes [0, 2048) do not fit its buffer of 1024 bytes}}
  %d = kda.wgmma %a, %lds[%o], %c {kind = #kda.mma_kind<wgmma_f32_64x64x16_bf16>, lbo = 128, sbo = 256} : vector<8xbf16>, memref<1024xi8, #gpu.address_space<workgroup>>, vector<32xf32> -> vector<32xf32>
  return
}
