// #kda.target names a row of the target table; any other name is refused
// with the known ones.
// RUN: kda-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{unknown kda target 'gfx1100' (known: gfx942, gfx950, sm_90, emu, emu950, emu32)}}
#t = #kda.target<"gfx1100">

// -----

// expected-error @+1 {{unknown kda target '' (known: gfx942, gfx950, sm_90, emu, emu950, emu32)}}
#t = #kda.target<"">
