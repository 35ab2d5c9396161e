//===- KDAOps.h - kda operations --------------------------------*- C++ -*-===//
#ifndef KDA_DIALECT_KDA_KDAOPS_H
#define KDA_DIALECT_KDA_KDAOPS_H

#include "kda/Dialect/KDA/KDAAttrs.h"
#include "kda/Dialect/KDA/KDADialect.h"
#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/InferIntRangeInterface.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::kda {
/// kda.chunk's segment_chunks where it states none and its layer allows a
/// split scan: a sequence is split into segments of at least 8 chunks (512
/// rows at chunk 64), so the segments' maps, K x (K + V) floats each, add
/// a ninth or less to the workspace record (docs/split-scan.md).
inline constexpr int64_t kDefaultSegmentChunks = 8;
} // namespace mlir::kda

#define GET_OP_CLASSES
#include "kda/Dialect/KDA/KDAOps.h.inc"

namespace mlir::kda {
/// The mark (a fused location's metadata) of a stage op made from a
/// kda.chunk (createChunkStage): a user never writes kda.chunk_stage, so
/// errors at such a stage name the kda.chunk it came from.
inline constexpr llvm::StringLiteral kChunkOrigin = "kda.chunk";

/// An op error at `op`, named after the op of the user's input: 'kda.chunk'
/// for a stage op marked with kChunkOrigin, else the op's own name.
InFlightDiagnostic emitLayerError(Operation *op);

/// Whether `op` is a layer: kda.recurrent, kda.chunk, or the prep stage of
/// a decomposed chunk (which stands for its kda.chunk: each chunk has one).
bool isLayerOp(Operation *op);

/// A function is one layer: its kernels and manifest entries take the
/// function's name, and a chunk layer's chunk size, scan choice and record
/// layout are decided once a function, so a second layer op in it would
/// be compiled under the first's name and choices. Errors (emitLayerError,
/// with a note at the first) at the first function under `root` holding a
/// second layer op. kda-compile and kda-tune check this when they read a
/// spec, kda-lower-to-gpu when it lowers (kda-opt's input).
LogicalResult verifyOneLayerPerFunction(Operation *root);
} // namespace mlir::kda

#endif // KDA_DIALECT_KDA_KDAOPS_H
