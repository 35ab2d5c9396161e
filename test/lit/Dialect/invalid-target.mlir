// #kda.target names a row of the target table (kda/Target/TargetInfo.h);
// its facts (wave size, LDS, atoms) come from there, never from the IR.
// RUN: kda-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{unknown kda target 'gfx1100' (known: gfx942, gfx950, sm_90, emu, emu950, emu32)}}
#t = #kda.target<"gfx1100">
module attributes {kda.target = #t} {
}

// -----

// expected-error @+1 {{unknown kda target ''}}
#t = #kda.target<"">
module attributes {kda.target = #t} {
}
