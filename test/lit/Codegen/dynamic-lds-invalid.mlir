// A kernel is launched with the dynamic shared memory its
// kda.dynamic_lds_bytes states (the manifest's dynamic_lds_bytes; none: 0
// bytes). kda-compile refuses a kernel that takes gpu.dynamic_shared_memory
// without that attribute, and one with a view of it past the bytes stated,
// and writes nothing; the kernel as built compiles.
// RUN: rm -rf %t.none %t.small %t.ok
// RUN: kda-opt %s --kda-lower-to-gpu=target=gfx942 > %t.mlir
// RUN: sed 's/kda.dynamic_lds_bytes = [0-9]* : i64, //' %t.mlir > %t.none.mlir
// RUN: not kda-compile %t.none.mlir --targets=gfx942 -o %t.none -q 2>&1 | FileCheck %s --check-prefix=NONE
// RUN: not test -e %t.none
// RUN: sed 's/kda.dynamic_lds_bytes = [0-9]* : i64/kda.dynamic_lds_bytes = 32768 : i64/' %t.mlir > %t.small.mlir
// RUN: not kda-compile %t.small.mlir --targets=gfx942 -o %t.small -q 2>&1 | FileCheck %s --check-prefix=SMALL
// RUN: not test -e %t.small
// RUN: kda-compile %t.mlir --targets=gfx942 -o %t.ok -q
// RUN: FileCheck %s --check-prefix=OK --input-file=%t.ok/manifest.json

// NONE: error: 'gpu.dynamic_shared_memory' op in a kernel without kda.dynamic_lds_bytes: the launch would reserve no dynamic shared memory for it
// NONE: kda-compile: gfx942 failed
// SMALL: error: 'memref.view' op covers bytes [32768, 65536) of the dynamic shared memory, but the kernel's kda.dynamic_lds_bytes reserves 32768 at launch
// SMALL: kda-compile: gfx942 failed
// OK: "dynamic_lds_bytes": 65536

func.func @tile_gemm_dynamic(%a: memref<64x256xbf16>, %b: memref<256x128xbf16>,
                             %c: memref<64x128xf32>) {
  kda.test_tile_gemm a(%a : memref<64x256xbf16>) b(%b : memref<256x128xbf16>)
      c(%c : memref<64x128xf32>) {m = 64, n = 128, k = 256, dynamic_lds}
  return
}
