// The prep's diagonal 16-row blocks of A_kk / A_qk (ChunkKernelBuilder.cpp,
// diagonalByAtoms and chunkAnchorable). A gate bounded a token (lower_bound
// with 8 |lb| <= 64) lets every chunk anchor each block at its middle row
// and take it by atoms: no check. A softplus gate (or none: g is the log
// decay itself) has no bound, so the prep checks each chunk's own gates
// once G is known: for every
// block and column, G's fall over each half block (two `ugt` compares
// against the bound, NaN counting as too large), summed over the wave and
// through LDS over the workgroup, then one uniform branch: the atoms with
// the diagonal blocks, or the off-diagonal atoms and the pairwise diagonal
// blocks (their sums reduced over the wave).
// RUN: kda-opt %kda_src_root/test/numeric/chunk-specs/chunk_heads128.mlir --kda-decompose --kda-lower-to-gpu=target=sm_90 | FileCheck %s --check-prefix=SOFTPLUS
// RUN: kda-opt %kda_src_root/test/numeric/chunk-specs/chunk_heads128.mlir --kda-decompose --kda-lower-to-gpu=target=gfx942 | FileCheck %s --check-prefix=SOFTPLUS
// RUN: kda-opt %kda_src_root/test/numeric/chunk-specs/chunk_k3.mlir --kda-decompose --kda-lower-to-gpu=target=sm_90 | FileCheck %s --check-prefix=BOUNDED

// SOFTPLUS-LABEL: gpu.func @kda_chunk_heads128_prep(
// SOFTPLUS: arith.cmpf ugt
// SOFTPLUS: arith.cmpf ugt
// SOFTPLUS: %[[OVER:.*]] = gpu.subgroup_reduce add
// SOFTPLUS: memref.store %[[OVER]]
// SOFTPLUS: gpu.barrier
// SOFTPLUS: %[[OK:.*]] = arith.cmpf oeq
// SOFTPLUS-NEXT: scf.if %[[OK]] {
// SOFTPLUS: kda.mma
// SOFTPLUS: } else {
// SOFTPLUS: kda.mma
// SOFTPLUS: gpu.subgroup_reduce add
// SOFTPLUS-LABEL: gpu.func @kda_chunk_heads128_scan(

// BOUNDED-LABEL: gpu.func @kda_chunk_k3_prep(
// BOUNDED-NOT: arith.cmpf ugt
// BOUNDED-NOT: gpu.subgroup_reduce
// BOUNDED: kda.mma
// BOUNDED-LABEL: gpu.func @kda_chunk_k3_scan(
