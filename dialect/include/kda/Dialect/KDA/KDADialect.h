//===- KDADialect.h - the kda dialect ---------------------------*- C++ -*-===//
#ifndef KDA_DIALECT_KDA_KDADIALECT_H
#define KDA_DIALECT_KDA_KDADIALECT_H

#include "mlir/IR/Dialect.h"

#include "kda/Dialect/KDA/KDAOpsDialect.h.inc"

#endif // KDA_DIALECT_KDA_KDADIALECT_H
