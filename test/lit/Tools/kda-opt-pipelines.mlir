// The target pipelines are registered: kda-opt runs by name exactly what
// kda-compile runs after kda-lower-to-gpu, one per row of the target table.
// RUN: kda-opt --help | FileCheck %s --check-prefix=HELP
// RUN: kda-opt %s --pass-pipeline='builtin.module(kda-lower-to-gpu{target=emu},kda-to-emu)' | FileCheck %s --check-prefix=EMU

// HELP-DAG: --kda-to-gfx942
// HELP-DAG: --kda-to-gfx950
// HELP-DAG: --kda-to-sm_90
// HELP-DAG: --kda-to-emu
// HELP-DAG: --kda-to-emu950
// HELP-DAG: --kda-to-emu32
// HELP-DAG: kda kernels (after kda-lower-to-gpu{target=gfx950}) to code for gfx950: MI355X: MFMA, global_load_lds tile copies

// The emulator pipeline ends in a host function and its packed entry.
// EMU: llvm.func @kda_decode(
// EMU: llvm.func @kda_decode_packed(

#l = #kda.layer<heads = 2, value_heads = 2, head_k = 64, head_v = 64, gate = lower_bound(-5.0), qk_l2norm = true, act = bf16, state = f32, state_layout = vk>
func.func @decode(%q: memref<?x2x64xbf16>, %v: memref<?x2x64xbf16>, %beta: memref<?x2xbf16>, %i32: memref<?xi32>, %i1: memref<?xi1>, %state: memref<?x2x64x64xf32>) {
  kda.recurrent #l q(%q : memref<?x2x64xbf16>) k(%q : memref<?x2x64xbf16>) v(%v : memref<?x2x64xbf16>) g(%q : memref<?x2x64xbf16>) beta(%beta : memref<?x2xbf16>) cu_seqlens(%i32 : memref<?xi32>) slots(%i32 : memref<?xi32>) has_initial_state(%i1 : memref<?xi1>) state(%state : memref<?x2x64x64xf32>) out(%v : memref<?x2x64xbf16>)
  return
}
