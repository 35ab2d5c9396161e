// The gate's decay exp, and the sigmoid's exp and reciprocal (the
// lower_bound gate and beta), are approximate (fastmath afn on math.exp and
// arith.divf, KdaMath.cpp), and so are the chunk path's decay factors
// (exp2): on sm_90 one MUFU each, ex2.approx.ftz and rcp.approx.ftz
// (FastMathToNVVM.cpp), with no IEEE reciprocal or division and no
// subnormal-keeping approximate form left (ptxas wraps those in range
// checks: 4 and 7 instructions); on gfx942 v_exp_f32 and v_rcp_f32 (the
// l2norm's 1 / sqrt, afn too, as v_sqrt_f32 and v_rcp_f32: no accurate
// division is left); on the emulator the flags ride on the LLVM calls and
// divisions (libm executes them exactly).
// RUN: kda-translate --kda-to-ptx %examples/kimi-k3-tp8.mlir | FileCheck %s --check-prefix=PTX
// RUN: kda-translate --kda-to-gfx942-asm %examples/kimi-k3-tp8.mlir | FileCheck %s --check-prefix=GFX942
// RUN: kda-translate --kda-to-emu-llvmir %examples/kimi-k3-tp8.mlir | FileCheck %s --check-prefix=EMU

// PTX-LABEL: .visible .entry kda_kimi_k3_tp8_recurrent(
// PTX-NOT: {{rcp|div}}.{{rn|approx}}.f32
// PTX-NOT: ex2.approx.f32
// PTX: ex2.approx.ftz.f32
// PTX-NOT: {{rcp|div}}.{{rn|approx}}.f32
// PTX: rcp.approx.ftz.f32
// PTX-NOT: {{rcp|div}}.{{rn|approx}}.f32
// PTX-NOT: ex2.approx.f32
// PTX: {{^}}}
// PTX-LABEL: .visible .entry kda_kimi_k3_tp8_chunk_prep(
// PTX-NOT: ex2.approx.f32
// PTX-NOT: {{rcp|div}}.{{rn|approx}}.f32
// PTX: ex2.approx.ftz.f32
// PTX-NOT: ex2.approx.f32
// PTX-NOT: {{rcp|div}}.{{rn|approx}}.f32
// PTX: {{^}}}

// GFX942-LABEL: {{^}}kda_kimi_k3_tp8_recurrent:
// GFX942-NOT: v_div_scale
// GFX942: v_exp_f32
// GFX942: v_rcp_f32
// GFX942-NOT: v_div_scale
// GFX942: s_endpgm

// EMU-LABEL: define void @kda_kimi_k3_tp8_recurrent(
// EMU: call afn float @llvm.exp.f32
// EMU: fdiv afn float 1.000000e+00
