//===- KDAOps.h - kda operations --------------------------------*- C++ -*-===//
#ifndef KDA_DIALECT_KDA_KDAOPS_H
#define KDA_DIALECT_KDA_KDAOPS_H

#include "kda/Dialect/KDA/KDAAttrs.h"
#include "kda/Dialect/KDA/KDADialect.h"
#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/SymbolTable.h"
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

#endif // KDA_DIALECT_KDA_KDAOPS_H
