// The -invalid twin of copy-piece.mlir: kda.copy_piece's verifier (flat
// memrefs of one element type, a piece a whole number of elements, LDS as
// the destination, no wave-collective atom) and the chip's atoms.
// RUN: sed '/^\/\/ ATOMS$/,$d' %s | kda-opt -split-input-file -verify-diagnostics
// RUN: sed -n '/^\/\/ ATOMS$/,$p' %s | sed 's/@TARGET@/gfx942/;s/@ATOM@/cp_async/' | not kda-opt --pass-pipeline='builtin.module(gpu.module(kda-lower-atoms))' 2>&1 | FileCheck %s --check-prefix=GFX942
// RUN: sed -n '/^\/\/ ATOMS$/,$p' %s | sed 's/@TARGET@/gfx950/;s/@ATOM@/cp_async/' | not kda-opt --pass-pipeline='builtin.module(gpu.module(kda-lower-atoms))' 2>&1 | FileCheck %s --check-prefix=GFX950
// RUN: sed -n '/^\/\/ ATOMS$/,$p' %s | sed 's/@TARGET@/emu/;s/@ATOM@/cp_async/' | not kda-opt --pass-pipeline='builtin.module(kda-gpu-to-emu)' 2>&1 | FileCheck %s --check-prefix=EMU

// GFX942: error: 'kda.copy_piece' op copy atom cp_async is not available on gfx942 (MI300X: MFMA, register-staged tile copies; its per-thread pieces are staged)
// GFX950: error: 'kda.copy_piece' op copy atom cp_async is not available on gfx950 (MI355X: MFMA, global_load_lds tile copies; its per-thread pieces are staged)
// EMU: error: 'kda.copy_piece' op copy atom cp_async is not available on emu (host emulator executing gfx942's atoms (wave 64); its per-thread pieces are staged)

func.func @wave_atom(%src: memref<?xf32>, %lds: memref<256xf32, #gpu.address_space<workgroup>>, %i: index, %v: i1) {
  // expected-error @+1 {{global_load_lds is a wave's instruction into one contiguous region, not a per-thread piece: use staged or cp_async}}
  kda.copy_piece %src[%i] to %lds[%i] if (%v) atom(global_load_lds) : memref<?xf32>, memref<256xf32, #gpu.address_space<workgroup>>
  return
}

// -----

func.func @two_types(%src: memref<?xbf16>, %lds: memref<256xf32, #gpu.address_space<workgroup>>, %i: index, %v: i1) {
  // expected-error @+1 {{copies 'bf16' into an array of 'f32' (one element type at both ends)}}
  kda.copy_piece %src[%i] to %lds[%i] if (%v) atom(staged) : memref<?xbf16>, memref<256xf32, #gpu.address_space<workgroup>>
  return
}

// -----

func.func @global_destination(%src: memref<?xf32>, %dst: memref<256xf32>, %i: index, %v: i1) {
  // expected-error @+1 {{destination must be workgroup memory, got 'memref<256xf32>'}}
  kda.copy_piece %src[%i] to %dst[%i] if (%v) atom(staged) : memref<?xf32>, memref<256xf32>
  return
}

// -----

func.func @two_dims(%src: memref<?x4xf32>, %lds: memref<256xf32, #gpu.address_space<workgroup>>, %i: index, %v: i1) {
  // expected-error @+1 {{copies between flat (rank-1) memrefs}}
  kda.copy_piece %src[%i] to %lds[%i] if (%v) atom(staged) : memref<?x4xf32>, memref<256xf32, #gpu.address_space<workgroup>>
  return
}

// -----

func.func @small_array(%src: memref<?xf32>, %lds: memref<2xf32, #gpu.address_space<workgroup>>, %i: index, %v: i1) {
  // expected-error @+1 {{the array of 2 elements cannot hold a piece of 4}}
  kda.copy_piece %src[%i] to %lds[%i] if (%v) atom(staged) : memref<?xf32>, memref<2xf32, #gpu.address_space<workgroup>>
  return
}

// ATOMS
gpu.module @kernels attributes {kda.target = #kda.target<"@TARGET@">} {
  gpu.func @piece(%src: memref<?xf32>)
      workgroup(%lds : memref<256xf32, #gpu.address_space<workgroup>>)
      kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    %true = arith.constant true
    kda.copy_piece %src[%c0] to %lds[%c0] if (%true) atom(@ATOM@) : memref<?xf32>, memref<256xf32, #gpu.address_space<workgroup>>
    kda.copy_fence
    gpu.return
  }
}
