//===- KDADialect.cpp - the kda dialect -----------------------------------===//
#include "kda/Dialect/KDA/KDADialect.h"
#include "kda/Dialect/KDA/KDAAttrs.h"
#include "kda/Dialect/KDA/KDAOps.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace mlir::kda;

#include "kda/Dialect/KDA/KDAOpsDialect.cpp.inc"

namespace {
/// Short aliases keep specs readable: `#layer = #kda.layer<...>`.
struct KDAOpAsmInterface : public OpAsmDialectInterface {
  using OpAsmDialectInterface::OpAsmDialectInterface;
  AliasResult getAlias(Attribute attr, raw_ostream &os) const override {
    if (isa<LayerAttr>(attr)) {
      os << "layer";
      return AliasResult::OverridableAlias;
    }
    if (isa<ConfigAttr>(attr)) {
      os << "config";
      return AliasResult::OverridableAlias;
    }
    return AliasResult::NoAlias;
  }
};
} // namespace

void KDADialect::initialize() {
  registerAttributes();
  addOperations<
#define GET_OP_LIST
#include "kda/Dialect/KDA/KDAOps.cpp.inc"
      >();
  addInterfaces<KDAOpAsmInterface>();
}
