//===- KDAAttrs.h - kda attributes and enums --------------------*- C++ -*-===//
#ifndef KDA_DIALECT_KDA_KDAATTRS_H
#define KDA_DIALECT_KDA_KDAATTRS_H

#include "mlir/IR/Attributes.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectImplementation.h"

#include "kda/Dialect/KDA/KDAEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "kda/Dialect/KDA/KDAAttrs.h.inc"

#endif // KDA_DIALECT_KDA_KDAATTRS_H
