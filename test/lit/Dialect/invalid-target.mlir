// #kda.target: wave 32 or 64, LDS within 256 KiB, known atom family.
// RUN: kda-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{wave_size must be 32 or 64, got 48}}
#t = #kda.target<arch = "gfx942", wave_size = 48, lds_bytes = 65536, max_workgroup_size = 1024, mma = "mfma", async_copy = 0>

// -----

// expected-error @+1 {{lds_bytes must be in [1, 262144], got 0}}
#t = #kda.target<arch = "gfx942", wave_size = 64, lds_bytes = 0, max_workgroup_size = 1024, mma = "mfma", async_copy = 0>

// -----

// expected-error @+1 {{max_workgroup_size must be a multiple of the wave size and at most 1024, got 96}}
#t = #kda.target<arch = "gfx950", wave_size = 64, lds_bytes = 163840, max_workgroup_size = 96, mma = "mfma", async_copy = 1>

// -----

// expected-error @+1 {{mma must be mfma, mma, wgmma or none, got 'xdl'}}
#t = #kda.target<arch = "gfx950", wave_size = 64, lds_bytes = 163840, max_workgroup_size = 1024, mma = "xdl", async_copy = 1>

// -----

// expected-error @+1 {{target arch must not be empty}}
#t = #kda.target<arch = "", wave_size = 32, lds_bytes = 232448, max_workgroup_size = 1024, mma = "wgmma", async_copy = 1>

// -----

// expected-error @+1 {{async_copy must be 0 or 1, got 2}}
#t = #kda.target<arch = "sm_90", wave_size = 32, lds_bytes = 232448, max_workgroup_size = 1024, mma = "wgmma", async_copy = 2>
