// A kernel whose kda.kind the runtime does not launch is refused by
// kda-compile (the runtime's manifest reader would refuse the bundle), and
// nothing is written.
// RUN: rm -rf %t.dir && kda-opt %s --kda-lower-to-gpu=target=emu | sed 's/kda.kind = "tile_gemm"/kda.kind = "mystery"/' > %t.mlir
// RUN: not kda-compile %t.mlir --targets=emu -o %t.dir -q 2>&1 | FileCheck %s
// RUN: not test -e %t.dir

// CHECK: error: 'gpu.func' op kda.kind "mystery" is not a kind the runtime launches (tile_gemm, chunk_prep
// CHECK: kda-compile: emu failed; {{.*}} left unchanged

func.func @tg(%a: memref<64x32xbf16>, %b: memref<32x64xbf16>, %c: memref<64x64xf32>) {
  kda.test_tile_gemm a(%a : memref<64x32xbf16>) b(%b : memref<32x64xbf16>) c(%c : memref<64x64xf32>) {m = 64, n = 64, k = 32}
  return
}
