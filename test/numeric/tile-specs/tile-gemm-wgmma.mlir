// Tile-GEMM test kernels on sm_90's warpgroup atom (kda.wgmma m64n64k16):
// the four waves of a workgroup are one warpgroup, A from registers, B read
// by the tensor core from dynamic LDS staged K-major in core matrices. For
// sm_90 and emu32 only (the other chips have no warpgroup atom).
// kda-tile-check runs them against float64.
func.func @tile_gemm_wgmma(%a: memref<128x256xbf16>, %b: memref<256x192xbf16>,
                           %c: memref<128x192xf32>) {
  kda.test_tile_gemm a(%a : memref<128x256xbf16>) b(%b : memref<256x192xbf16>)
      c(%c : memref<128x192xf32>) {m = 128, n = 192, k = 256, dynamic_lds,
                                   warpgroup}
  return
}

func.func @tile_gemm_wgmma_masked(%a: memref<64x48xbf16>,
                                  %b: memref<48x128xbf16>,
                                  %c: memref<64x128xf32>) {
  kda.test_tile_gemm a(%a : memref<64x48xbf16>) b(%b : memref<48x128xbf16>)
      c(%c : memref<64x128xf32>) {m = 64, n = 128, k = 48, masked,
                                  dynamic_lds, warpgroup}
  return
}

// B MN-major (imm-trans-b 1): core-matrix rows are 8 consecutive n of one
// k, as a row-major B gives them.
func.func @tile_gemm_wgmma_mn(%a: memref<128x160xbf16>,
                              %b: memref<160x128xbf16>,
                              %c: memref<128x128xf32>) {
  kda.test_tile_gemm a(%a : memref<128x160xbf16>) b(%b : memref<160x128xbf16>)
      c(%c : memref<128x128xf32>) {m = 128, n = 128, k = 160, dynamic_lds,
                                   warpgroup, b_mn_major}
  return
}
