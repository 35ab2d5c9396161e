// kda.copy_row's verifier: 16-byte pieces, LDS bytes as the destination,
// flat memrefs.
// RUN: kda-opt %s -split-input-file -verify-diagnostics

func.func @odd_row(%q: memref<?xbf16>, %lds: memref<4096xi8, #gpu.address_space<workgroup>>) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{row of 60 x 'bf16' is not a positive multiple of 16 bytes (copy atoms move 16-byte pieces)}}
  kda.copy_row %q[%c0] to %lds[%c0] elems(60) atom(staged) : memref<?xbf16>, memref<4096xi8, #gpu.address_space<workgroup>>
  return
}

// -----

func.func @global_destination(%q: memref<?xbf16>, %dst: memref<4096xi8>) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{destination must be workgroup memory of bytes (i8), got 'memref<4096xi8>'}}
  kda.copy_row %q[%c0] to %dst[%c0] elems(128) atom(staged) : memref<?xbf16>, memref<4096xi8>
  return
}

// -----

func.func @not_flat(%q: memref<?x128xbf16>, %lds: memref<4096xi8, #gpu.address_space<workgroup>>) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{copies between flat (rank-1) memrefs}}
  kda.copy_row %q[%c0] to %lds[%c0] elems(128) atom(staged) : memref<?x128xbf16>, memref<4096xi8, #gpu.address_space<workgroup>>
  return
}
