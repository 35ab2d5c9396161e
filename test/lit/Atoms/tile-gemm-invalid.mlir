// kda.test_tile_gemm errors: shapes the kernel does not tile (verifier), and
// what the target's atom or LDS cannot do (kda-lower-to-gpu).
// RUN: kda-opt %s --split-input-file --kda-lower-to-gpu=target=gfx942 --verify-diagnostics

func.func @m_not_tiled(%a: memref<100x64xbf16>, %b: memref<64x64xbf16>, %c: memref<100x64xf32>) {
  // expected-error @+1 {{needs m and n positive multiples of the 64 x 64 workgroup tile and k > 0, got m = 100, n = 64, k = 64}}
  kda.test_tile_gemm a(%a : memref<100x64xbf16>) b(%b : memref<64x64xbf16>) c(%c : memref<100x64xf32>) {m = 100, n = 64, k = 64}
  return
}

// -----

func.func @shape_mismatch(%a: memref<64x32xbf16>, %b: memref<64x64xbf16>, %c: memref<64x64xf32>) {
  // expected-error @+1 {{a must be memref<64x64xbf16>, got 'memref<64x32xbf16>'}}
  kda.test_tile_gemm a(%a : memref<64x32xbf16>) b(%b : memref<64x64xbf16>) c(%c : memref<64x64xf32>) {m = 64, n = 64, k = 64}
  return
}

// -----

func.func @k_not_atom_multiple(%a: memref<64x72xbf16>, %b: memref<72x64xbf16>, %c: memref<64x64xf32>) {
  // expected-error @+1 {{k = 72 is not a multiple of the k of gfx942's atom mfma_f32_16x16x16_bf16 (16)}}
  kda.test_tile_gemm a(%a : memref<64x72xbf16>) b(%b : memref<72x64xbf16>) c(%c : memref<64x64xf32>) {m = 64, n = 64, k = 72}
  return
}

// -----

func.func @lds_too_small(%a: memref<64x1024xbf16>, %b: memref<1024x64xbf16>, %c: memref<64x64xf32>) {
  // expected-error @+1 {{needs 262144 bytes of dynamic LDS for k = 1024; gfx942 allows 65536}}
  kda.test_tile_gemm a(%a : memref<64x1024xbf16>) b(%b : memref<1024x64xbf16>) c(%c : memref<64x64xf32>) {m = 64, n = 64, k = 1024, dynamic_lds}
  return
}

// -----

func.func @mn_major_without_warpgroup(%a: memref<64x64xbf16>, %b: memref<64x64xbf16>, %c: memref<64x64xf32>) {
  // expected-error @+1 {{b_mn_major places B for the warpgroup atom; it needs warpgroup}}
  kda.test_tile_gemm a(%a : memref<64x64xbf16>) b(%b : memref<64x64xbf16>) c(%c : memref<64x64xf32>) {m = 64, n = 64, k = 64, dynamic_lds, b_mn_major}
  return
}
