// #kda.target names a row of the target table (kda/Target/TargetInfo.h); its
// facts are the table's, so the attribute carries nothing else.
// RUN: kda-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{unknown kda target 'gfx90a' (known: gfx942, gfx950, sm_90, emu, emu950, emu32)}}
#t = #kda.target<"gfx90a">

// -----

// expected-error @+1 {{unknown kda target '' (known: gfx942, gfx950, sm_90, emu, emu950, emu32)}}
#t = #kda.target<"">

// -----

// The old form restated the table's facts; it is not accepted.
// expected-error @+2 {{expected string}}
// expected-error @+1 {{failed to parse KDA_TargetAttr parameter 'name' which is to be a `::llvm::StringRef`}}
#t = #kda.target<arch = "gfx942", wave_size = 64>
