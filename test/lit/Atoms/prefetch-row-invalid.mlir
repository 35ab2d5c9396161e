// The -invalid twin of prefetch-row.mlir: a row that is not a 16-byte
// multiple, a memref that is not flat, a row in workgroup memory, elements
// with no bit width of their own (index, vectors).
// RUN: kda-opt %s --split-input-file --verify-diagnostics

func.func @not_16_bytes(%ws: memref<?xf32>, %t: index) {
  // expected-error @+1 {{row of 3 x 'f32' is not a positive multiple of 16 bytes (the L2 prefetch takes 16-byte multiples)}}
  kda.prefetch_row %ws[%t] elems(3) : memref<?xf32>
  return
}

// -----

func.func @not_flat(%ws: memref<?x4xf32>, %t: index) {
  // expected-error @+1 {{prefetches from a flat (rank-1, identity layout) memref, got 'memref<?x4xf32>'}}
  kda.prefetch_row %ws[%t] elems(4) : memref<?x4xf32>
  return
}

// -----

func.func @workgroup(%lds: memref<64xf32, #gpu.address_space<workgroup>>, %t: index) {
  // expected-error @+1 {{prefetches from global memory, got 'memref<64xf32, #gpu.address_space<workgroup>>'}}
  kda.prefetch_row %lds[%t] elems(4) : memref<64xf32, #gpu.address_space<workgroup>>
  return
}

// -----

func.func @vector_elements(%ws: memref<?xvector<4xf32>>, %t: index) {
  // expected-error @+1 {{prefetches integer or float elements, got 'vector<4xf32>'}}
  kda.prefetch_row %ws[%t] elems(1) : memref<?xvector<4xf32>>
  return
}

// -----

func.func @index_elements(%ws: memref<?xindex>, %t: index) {
  // expected-error @+1 {{prefetches integer or float elements, got 'index'}}
  kda.prefetch_row %ws[%t] elems(2) : memref<?xindex>
  return
}
