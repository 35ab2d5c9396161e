// Tile-GEMM test kernels (kda.test_tile_gemm): C = A B through each target's
// matrix atom, its lower-triangular masked twin, and a k = 256 variant that
// stages all of A and B in 64 KiB of dynamic LDS (above sm_90's 48 KiB
// static limit). kda-tile-check runs them against float64.
func.func @tile_gemm(%a: memref<128x64xbf16>, %b: memref<64x192xbf16>,
                     %c: memref<128x192xf32>) {
  kda.test_tile_gemm a(%a : memref<128x64xbf16>) b(%b : memref<64x192xbf16>)
      c(%c : memref<128x192xf32>) {m = 128, n = 192, k = 64}
  return
}

func.func @tile_gemm_masked(%a: memref<128x96xbf16>, %b: memref<96x128xbf16>,
                            %c: memref<128x128xf32>) {
  kda.test_tile_gemm a(%a : memref<128x96xbf16>) b(%b : memref<96x128xbf16>)
      c(%c : memref<128x128xf32>) {m = 128, n = 128, k = 96, masked}
  return
}

func.func @tile_gemm_dynamic(%a: memref<64x256xbf16>, %b: memref<256x128xbf16>,
                             %c: memref<64x128xf32>) {
  kda.test_tile_gemm a(%a : memref<64x256xbf16>) b(%b : memref<256x128xbf16>)
      c(%c : memref<64x128xf32>) {m = 64, n = 128, k = 256, dynamic_lds}
  return
}
