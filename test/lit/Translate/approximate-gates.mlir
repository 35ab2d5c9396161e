// The gate's decay exp, and the sigmoid's exp and reciprocal (the
// lower_bound gate and beta), are approximate (fastmath afn on math.exp and
// arith.divf, KdaMath.cpp): on sm_90 ex2.approx and rcp.approx, with no
// IEEE reciprocal or division left in the decode kernel (the accurate
// expansions took ~27 instructions per k element of every token); on
// gfx942 v_exp_f32 and v_rcp_f32 (the two accurate divisions left are the
// l2norm's, 1 / sqrt); on the emulator the flags ride on the LLVM calls
// and divisions (libm's expf executes them exactly).
// RUN: kda-translate --kda-to-ptx %examples/kimi-k3-tp8.mlir | FileCheck %s --check-prefix=PTX
// RUN: kda-translate --kda-to-gfx942-asm %examples/kimi-k3-tp8.mlir | FileCheck %s --check-prefix=GFX942
// RUN: kda-translate --kda-to-emu-llvmir %examples/kimi-k3-tp8.mlir | FileCheck %s --check-prefix=EMU

// PTX-LABEL: .visible .entry kda_kimi_k3_tp8_recurrent(
// PTX-NOT: {{rcp|div}}.rn.f32
// PTX: ex2.approx.f32
// PTX-NOT: {{rcp|div}}.rn.f32
// PTX: rcp.approx.f32
// PTX-NOT: {{rcp|div}}.rn.f32
// PTX: {{^}}}

// GFX942-LABEL: {{^}}kda_kimi_k3_tp8_recurrent:
// GFX942: v_exp_f32
// GFX942: v_rcp_f32
// GFX942: s_endpgm

// EMU-LABEL: define void @kda_kimi_k3_tp8_recurrent(
// EMU: call afn float @llvm.exp.f32
// EMU: fdiv afn float 1.000000e+00
