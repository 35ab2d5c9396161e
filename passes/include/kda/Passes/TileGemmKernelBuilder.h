//===- TileGemmKernelBuilder.h - tile-GEMM test kernels ---------*- C++ -*-===//
//
// C = A B (bf16 A [M, K], B [K, N], f32 C [M, N]) and its lower-triangular
// masked twin, built from the target's matrix atom through the tile layer:
// the test that every target's kda.mma lowering, fragment layouts and LDS
// staging (static, or dynamic above 48 KiB) agree with a float64 reference.
//
//===----------------------------------------------------------------------===//
#ifndef KDA_PASSES_TILEGEMMKERNELBUILDER_H
#define KDA_PASSES_TILEGEMMKERNELBUILDER_H

#include "kda/Dialect/KDA/KDAOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"

namespace mlir::kda {

/// Builds kernel `name` for `op` into `module` with kda.abi (a, b, c),
/// kda.grid, kda.kind = "tile_gemm", kda.tile (the figures a test checks)
/// and, with dynamic LDS, kda.dynamic_lds_bytes. Errors name what `target`
/// cannot do (no bf16 -> f32 atom, k not a multiple of the atom's k, LDS).
FailureOr<gpu::GPUFuncOp> buildTileGemmKernel(OpBuilder &builder,
                                              gpu::GPUModuleOp module,
                                              StringRef name,
                                              TestTileGemmOp op,
                                              const TargetInfo &target);

} // namespace mlir::kda

#endif // KDA_PASSES_TILEGEMMKERNELBUILDER_H
