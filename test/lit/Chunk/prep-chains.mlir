// Two serial phases of the prep without chains of LDS latencies
// (docs/chunk-path.md, forty-third session):
// - G's cumsum down each column (prepGateCumsum): a thread's rows 16 at a
//   time, all 16 loaded before the first sum is stored, summed in row order
//   in f64, each sum stored as its f32 rounding and (after the 16) the
//   rest, in G's array and the rests';
// - the forward substitution of the inverse's 16 x 16 diagonal blocks
//   (prepInverse): a thread's column x in registers (the branch's 16
//   results), every A element of the block's lower triangle read once (120
//   loads), no x through LDS; x's elements below the diagonal are stored
//   into A after the barrier that ends the block's reads.
// RUN: kda-opt %kda_src_root/test/numeric/chunk-specs/chunk_k3.mlir --kda-decompose --kda-lower-to-gpu=target=sm_90 > %t.mlir
// RUN: FileCheck %s --check-prefix=CUMSUM --input-file=%t.mlir
// RUN: FileCheck %s --check-prefix=INV --input-file=%t.mlir

// CUMSUM-LABEL: gpu.func @kda_chunk_k3_prep(
// CUMSUM: scf.for %[[R:[a-z0-9_]+]] = %{{[a-z0-9_]+}} to %c64{{[_0-9]*}} step %c16{{[_0-9]*}} iter_args(%[[ACC:[a-z0-9_]+]] = %{{[a-z0-9_]+}}) -> (f64) {
// CUMSUM-COUNT-16: memref.load %view[
// CUMSUM-NOT: memref.{{load|store}}
// CUMSUM: %[[W0:[0-9]+]] = arith.extf %{{[0-9]+}} : f32 to f64
// CUMSUM-NEXT: %[[S0:[0-9]+]] = arith.addf %[[ACC]], %[[W0]] : f64
// CUMSUM-NEXT: %[[H0:[0-9]+]] = arith.truncf %[[S0]] : f64 to f32
// CUMSUM-NOT: memref.load
// CUMSUM: memref.store %[[H0]], %view[
// CUMSUM: arith.select
// CUMSUM-NEXT: %[[W1:[0-9]+]] = arith.extf %{{[0-9]+}} : f32 to f64
// CUMSUM-NEXT: %[[S1:[0-9]+]] = arith.addf %[[S0]], %[[W1]] : f64
// The rests after the 16 sums, into their own array.
// CUMSUM-COUNT-14: memref.store %{{[0-9]+}}, %view[
// CUMSUM-NOT: memref.load
// CUMSUM-COUNT-16: memref.store %{{[0-9]+}}, %view_{{[0-9]+}}[
// CUMSUM-NOT: memref.store
// CUMSUM: scf.yield

// INV-LABEL: gpu.func @kda_chunk_k3_prep(
// INV: %[[X:[0-9]+]]:16 = scf.if %{{[0-9]+}} -> (f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32) {
// INV-NOT: memref.store
// INV-COUNT-120: memref.load %view_{{[0-9]+}}[
// INV-NOT: memref.store
// INV: scf.yield
// INV: } else {
// INV: gpu.barrier
// INV: memref.store %[[X]]#1, %view_{{[0-9]+}}[
