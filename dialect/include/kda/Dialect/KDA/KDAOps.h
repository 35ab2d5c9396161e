//===- KDAOps.h - kda operations --------------------------------*- C++ -*-===//
#ifndef KDA_DIALECT_KDA_KDAOPS_H
#define KDA_DIALECT_KDA_KDAOPS_H

#include "kda/Dialect/KDA/KDAAttrs.h"
#include "kda/Dialect/KDA/KDADialect.h"
#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#define GET_OP_CLASSES
#include "kda/Dialect/KDA/KDAOps.h.inc"

#endif // KDA_DIALECT_KDA_KDAOPS_H
