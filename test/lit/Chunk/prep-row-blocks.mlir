// The prep's A_kk / A_qk by row block (ChunkKernelBuilder.cpp,
// intraSchedule): at chunk 64 a wave takes a run of consecutive column
// tiles of one 16-row block and builds that block's A fragments (k and q)
// once a k step for all of them, each (tile, product) three atoms (split
// bf16). A lower_bound layer anchors all of a row block at its middle row,
// so its diagonal block joins the run: sm_90 (mma.sync 16x8, 20 tiles)
// takes runs of 3, 18 atoms a k step; gfx942 and gfx950 (MFMA 16x16, 10
// tiles) runs of 2, 12. A softplus layer (no bound a token) chooses a
// chunk at a time (chunkAnchorable): the same runs of 3 where the chunk's
// gates allow, else its diagonal blocks pairwise and runs of 2 (12): its
// prep holds both. The figures: no spills on
// the MFMA targets at 4 waves a SIMD, nor on sm_90 at its 80 registers (3
// workgroups an SM) since q's fragments read q's rows staged in LDS: the
// k loop's global q addresses were what spilled (32 bytes here; the
// lower_bound layer of test/device/chunk-bench.mlir 40 -> 8).
// RUN: rm -rf %t && kda-compile %kda_src_root/test/numeric/chunk-specs/chunk_k3.mlir --targets=gfx942,gfx950,sm_90 -o %t/lb -q
// RUN: %python %lit_lib/atoms_per_block.py %t/lb/sm_90/kda_kernels.ptx kda_chunk_k3_prep "mma\.sync" | FileCheck %s --check-prefix=SM90
// RUN: %python %lit_lib/atoms_per_block.py %t/lb/gfx942/kda_kernels.s kda_chunk_k3_prep "v_mfma" | FileCheck %s --check-prefix=MFMA
// RUN: %python %lit_lib/atoms_per_block.py %t/lb/gfx950/kda_kernels.s kda_chunk_k3_prep "v_mfma" | FileCheck %s --check-prefix=MFMA
// RUN: %python %lit_lib/check_figures.py %t/lb/manifest.json gfx942 65536 | FileCheck %s --check-prefix=FIG
// RUN: %python %lit_lib/check_figures.py %t/lb/manifest.json gfx950 163840 | FileCheck %s --check-prefix=FIG
// RUN: %python %lit_lib/check_figures.py %t/lb/manifest.json sm_90 232448 | FileCheck %s --check-prefix=FIG90
// RUN: kda-compile %kda_src_root/test/numeric/chunk-specs/chunk_heads128.mlir --targets=sm_90 -o %t/sp -q
// RUN: %python %lit_lib/atoms_per_block.py %t/sp/sm_90/kda_kernels.ptx kda_chunk_heads128_prep "mma\.sync" | FileCheck %s --check-prefix=SOFTPLUS

// SM90: kda_chunk_k3_prep: most 18 in one block
// MFMA: kda_chunk_k3_prep: most 12 in one block
// SOFTPLUS: kda_chunk_heads128_prep: most 18 in one block
// FIG: kda_chunk_k3_prep: {{.*}}occupancy_waves_per_simd 4, scratch_bytes 0, {{.*}}spills 0
// FIG90: sm_90 kda_chunk_k3_prep: lds_bytes {{[0-9]+}}, registers 80, scratch_bytes 0, spills 0
