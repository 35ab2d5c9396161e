// sm_90: PTX from the NVVM pipeline, a cubin from the machine's ptxas, and
// register / spill / shared-memory figures read from ptxas -v (no spills
// but the prep's, below; the 32-column chunk scan with its state in
// registers none since its split atoms issue round by round
// (ChunkPlan::slabRoundTiles), 8 bytes at 255 registers before, since q o
// exp G's records are pair words, 32 before that - its two products of
// V_new together, measured faster than apart without spills:
// ChunkKernelBuilder.cpp, Chunk/chunk-sm90.mlir; the 64-column scan and the
// split scan's segments none since then, 12 and 56 while W went through
// the workspace as fragment runs and q o exp G as split words (4, 0 and 0
// before the runs, Chunk/chunk-sm90.mlir); 36,
// and 8 in the 64-column scan, before the staging waves addressed a
// field's pieces from one base, 24 and 16 before LDS took 32-bit pointers,
// TargetPipelines.cpp; the 16-column scan, split along K, none; and the
// prep none at two workgroups an SM since G's rest takes its LDS
// (2026-12-07; 12 bytes at the 80 registers of three before:
// Chunk/chunk-sm90.mlir).
// RUN: rm -rf %t && kda-compile %examples/kimi-linear-48b.mlir --targets=sm_90 -o %t -q
// RUN: FileCheck %s --check-prefix=PTX --input-file=%t/sm_90/kda_kernels.ptx
// RUN: llvm-readelf -h %t/sm_90/kda_kernels.cubin | FileCheck %s --check-prefix=ELF
// RUN: %python %lit_lib/check_figures.py %t/manifest.json sm_90 232448 kda_kimi_linear_chunk_prep=0,0 kda_kimi_linear_chunk_scan=0,0 kda_kimi_linear_chunk_scan_v64=0,0 kda_kimi_linear_chunk_segments_v64=0,0 | FileCheck %s --check-prefix=FIG
// A ptxas first on PATH that is not in a CUDA toolkit (a wrapper script, as
// /usr/local/bin/ptxas is on some machines) must not decide where libdevice
// and ptxas come from: the toolkit is found by its libdevice.
// RUN: rm -rf %t.bin %t.wrapped && mkdir -p %t.bin && printf '#!/bin/sh\nexit 3\n' > %t.bin/ptxas && chmod +x %t.bin/ptxas
// RUN: env PATH=%t.bin:$PATH kda-compile %examples/kimi-linear-48b.mlir --targets=sm_90 -o %t.wrapped -q
// RUN: llvm-readelf -h %t.wrapped/sm_90/kda_kernels.cubin | FileCheck %s --check-prefix=ELF

// PTX: .target sm_90
// PTX: .visible .entry kda_kimi_linear_recurrent_kd{{[0-9a-f]+}}(
// PTX: .maxntid 32, 1, 1
// PTX: shfl.sync.bfly.b32
// PTX: ex2.approx
// PTX: st.global
// ELF: Machine: NVIDIA CUDA architecture
// FIG: sm_90 kda_kimi_linear_recurrent: lds_bytes 0, registers {{[0-9]+}}, scratch_bytes 0, spills 0
