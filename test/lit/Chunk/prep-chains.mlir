// Two serial phases of the prep without chains of LDS latencies
// (docs/chunk-path.md, forty-third session):
// - G's cumsum down each column (prepGateCumsum): a thread's rows 16 at a
//   time, all 16 loaded before the first sum is stored, summed in row order;
// - the forward substitution of the inverse's 16 x 16 diagonal blocks
//   (prepInverse): a thread's column x in registers (the branch's 16
//   results), every A element of the block's lower triangle read once (120
//   loads), no x through LDS; x's elements below the diagonal are stored
//   into A after the barrier that ends the block's reads.
// RUN: kda-opt %kda_src_root/test/numeric/chunk-specs/chunk_k3.mlir --kda-decompose --kda-lower-to-gpu=target=sm_90 > %t.mlir
// RUN: FileCheck %s --check-prefix=CUMSUM --input-file=%t.mlir
// RUN: FileCheck %s --check-prefix=INV --input-file=%t.mlir

// CUMSUM-LABEL: gpu.func @kda_chunk_k3_prep(
// CUMSUM: scf.for %[[R:[a-z0-9_]+]] = %{{[a-z0-9_]+}} to %c64{{[_0-9]*}} step %c16{{[_0-9]*}} iter_args(%[[ACC:[a-z0-9_]+]] = %{{[a-z0-9_]+}}) -> (f32) {
// CUMSUM-COUNT-16: memref.load %view[
// CUMSUM-NOT: memref.{{load|store}}
// CUMSUM: %[[S0:[0-9]+]] = arith.addf %[[ACC]], %{{[0-9]+}} : f32
// CUMSUM-NEXT: memref.store %[[S0]], %view[
// CUMSUM-NEXT: %[[S1:[0-9]+]] = arith.addf %[[S0]], %{{[0-9]+}} : f32
// CUMSUM-NEXT: memref.store %[[S1]], %view[

// INV-LABEL: gpu.func @kda_chunk_k3_prep(
// INV: %[[X:[0-9]+]]:16 = scf.if %{{[0-9]+}} -> (f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32) {
// INV-NOT: memref.store
// INV-COUNT-120: memref.load %view_{{[0-9]+}}[
// INV-NOT: memref.store
// INV: scf.yield
// INV: } else {
// INV: gpu.barrier
// INV: memref.store %[[X]]#1, %view_{{[0-9]+}}[
