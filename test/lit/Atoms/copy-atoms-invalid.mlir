// The -invalid twin of copy-atoms.mlir: a copy atom the chip does not have,
// a copy_row with no atom outside a produce body, rows that are not 16-byte
// pieces, a destination that is not LDS bytes.
// RUN: sed 's/@TARGET@/gfx942/;s/@ATOM@/cp_async/' %s | not kda-opt --pass-pipeline='builtin.module(gpu.module(kda-lower-atoms))' 2>&1 | FileCheck %s --check-prefix=GFX942
// RUN: sed 's/@TARGET@/sm_90/;s/@ATOM@/global_load_lds/' %s | not kda-opt --pass-pipeline='builtin.module(gpu.module(kda-lower-atoms))' 2>&1 | FileCheck %s --check-prefix=SM90
// RUN: sed 's/@TARGET@/gfx950/;s/@ATOM@/cp_async/' %s | not kda-opt --pass-pipeline='builtin.module(gpu.module(kda-lower-atoms))' 2>&1 | FileCheck %s --check-prefix=GFX950
// RUN: sed 's/@TARGET@/emu/;s/@ATOM@/global_load_lds/' %s | not kda-opt --pass-pipeline='builtin.module(kda-gpu-to-emu)' 2>&1 | FileCheck %s --check-prefix=EMU
// A global_load_lds row needs the first wave whole (each lane writes its own
// 16 bytes of a region): a block of half a wave, or of no known size, is
// refused on the chip and on the emulator that stands for it.
// RUN: sed 's/@TARGET@/gfx950/;s/@ATOM@/global_load_lds/;s/i32: 64, 1, 1/i32: 32, 1, 1/' %s | not kda-opt --pass-pipeline='builtin.module(gpu.module(kda-lower-atoms))' 2>&1 | FileCheck %s --check-prefix=HALFWAVE
// RUN: sed 's/@TARGET@/emu950/;s/@ATOM@/global_load_lds/;s/i32: 64, 1, 1/i32: 32, 1, 1/' %s | not kda-opt --pass-pipeline='builtin.module(kda-gpu-to-emu)' 2>&1 | FileCheck %s --check-prefix=HALFWAVE-EMU
// RUN: sed 's/@TARGET@/gfx950/;s/@ATOM@/global_load_lds/;s/ kernel attributes {known_block_size = array<i32: 64, 1, 1>}/ kernel/' %s | not kda-opt --pass-pipeline='builtin.module(gpu.module(kda-lower-atoms))' 2>&1 | FileCheck %s --check-prefix=NOBLOCK
// RUN: sed 's/@TARGET@/emu32/;s/ atom(@ATOM@)//' %s | not kda-opt --pass-pipeline='builtin.module(gpu.module(kda-lower-atoms))' 2>&1 | FileCheck %s --check-prefix=NOATOM

// GFX942: error: 'kda.copy_row' op copy atom cp_async is not available on gfx942 (MI300X: MFMA, register-staged tile copies; it has staged)
// SM90: error: 'kda.copy_row' op copy atom global_load_lds is not available on sm_90 (H100/H200: mma.sync, cp.async tile copies; it has staged, cp_async)
// GFX950: error: 'kda.copy_row' op copy atom cp_async is not available on gfx950 (MI355X: MFMA, global_load_lds tile copies; it has staged, global_load_lds)
// EMU: error: 'kda.copy_row' op copy atom global_load_lds is not available on emu (host emulator executing gfx942's atoms (wave 64); it has staged)
// HALFWAVE: error: 'kda.copy_row' op cannot be issued as global_load_lds: its kernel's block of 32 threads is less than a wave of 64 on gfx950: global_load_lds writes 16 bytes a lane, and lanes 32..63 do not exist, so part of each region is never written
// HALFWAVE-EMU: error: 'kda.copy_row' op cannot be issued as global_load_lds: its kernel's block of 32 threads is less than a wave of 64 on emu950
// NOBLOCK: error: 'kda.copy_row' op cannot be issued as global_load_lds: its kernel declares no known_block_size: global_load_lds writes 16 bytes a lane of the first wave, which must be whole (64 lanes on gfx950)
// NOATOM: error: 'kda.copy_row' op has no copy atom: it must sit in a kda.produce body (kda-expand-pipeline sets the atom) or name one

gpu.module @kernels attributes {kda.target = #kda.target<"@TARGET@">} {
  gpu.func @copy(%q: memref<?xbf16>)
      workgroup(%lds : memref<4096xi8, #gpu.address_space<workgroup>>)
      kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    kda.copy_row %q[%c0] to %lds[%c0] elems(128) atom(@ATOM@) : memref<?xbf16>, memref<4096xi8, #gpu.address_space<workgroup>>
    gpu.return
  }
}
