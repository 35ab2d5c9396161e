//===- KDAAttrs.h - kda attributes and enums --------------------*- C++ -*-===//
#ifndef KDA_DIALECT_KDA_KDAATTRS_H
#define KDA_DIALECT_KDA_KDAATTRS_H

#include "mlir/IR/Attributes.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectImplementation.h"
#include "kda/Target/MmaAtoms.h"
#include "kda/Target/TargetInfo.h"

#include "kda/Dialect/KDA/KDAEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "kda/Dialect/KDA/KDAAttrs.h.inc"

namespace mlir {
class Operation;
namespace kda {
/// Name of the discardable attribute that places kernels on a target (set
/// on the gpu.module kda-lower-to-gpu creates).
inline constexpr llvm::StringLiteral kTargetAttrName = "kda.target";
/// The target of the nearest enclosing op (itself included) carrying
/// `kda.target`, or null.
const TargetInfo *getEnclosingTarget(Operation *op);
/// Like getEnclosingTarget, but emits "no enclosing kda.target" at `op`.
const TargetInfo *getEnclosingTargetOrEmit(Operation *op);
/// The dialect's copy atom enum mirrors the target table's (same cases, same
/// order), so the two convert by value.
CopyAtomKind toCopyAtomKind(CopyAtom atom);
CopyAtom toCopyAtom(CopyAtomKind kind);
/// The table's target `name`, or an error at `at` listing the known names.
const TargetInfo *lookupTargetOrEmit(Operation *at, llvm::StringRef name);
} // namespace kda
} // namespace mlir

#endif // KDA_DIALECT_KDA_KDAATTRS_H
