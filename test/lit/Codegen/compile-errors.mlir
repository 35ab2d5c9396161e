// kda-compile refuses bad input with a clear error and writes nothing: an
// existing bundle stays as it was.
// RUN: rm -rf %t && mkdir -p %t && echo keep > %t/marker
// RUN: not kda-compile %examples/kimi-k3-tp8.mlir --targets=gfx942,gfx1100 -o %t 2>&1 | FileCheck %s --check-prefix=TARGET
// RUN: not kda-compile %s --targets=emu -o %t 2>&1 | FileCheck %s --check-prefix=SPEC
// RUN: not kda-compile %t/no-such-spec.mlir --targets=emu -o %t 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: env KDA_CUDA_PATH=%t/no-toolkit not kda-compile %examples/kimi-k3-tp8.mlir --targets=emu,sm_90 -o %t 2>&1 | FileCheck %s --check-prefix=CUDA
// RUN: cat %t/marker | FileCheck %s --check-prefix=KEPT
// RUN: not ls %t.partial

// TARGET: kda-compile: unknown target 'gfx1100' (known: gfx942, gfx950, sm_90, emu, emu950, emu32)
// SPEC: error: 'kda.recurrent' op q must be [T, heads, head_k] = [?, 1, 64]
// MISSING: kda-compile: cannot open input file
// CUDA: error: KDA_CUDA_PATH={{.*}}no-toolkit has no nvvm/libdevice/libdevice.10.bc; sm_90 needs a CUDA toolkit's libdevice and ptxas
// KEPT: keep

#l = #kda.layer<heads = 1, value_heads = 1, head_k = 64, head_v = 64, gate = none, act = bf16, state = f32, state_layout = vk>
func.func @bad(%q: memref<?x1x32xbf16>, %b: memref<?x1xbf16>, %i32: memref<?xi32>, %i1: memref<?xi1>, %s: memref<?x1x64x64xf32>) {
  kda.recurrent #l q(%q : memref<?x1x32xbf16>) k(%q : memref<?x1x32xbf16>) v(%q : memref<?x1x32xbf16>) g(%q : memref<?x1x32xbf16>) beta(%b : memref<?x1xbf16>) cu_seqlens(%i32 : memref<?xi32>) slots(%i32 : memref<?xi32>) has_initial_state(%i1 : memref<?xi1>) state(%s : memref<?x1x64x64xf32>) out(%q : memref<?x1x32xbf16>)
  return
}
