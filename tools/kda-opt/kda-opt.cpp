//===- kda-opt.cpp - the kda optimizer driver -----------------------------===//
//
// mlir-opt with the kda dialect and passes, plus the upstream dialects and
// passes the kda pipelines use (GPU, LLVM, NVVM, ROCDL, AMDGPU and the rest of
// the upstream set: kda specs are ordinary MLIR modules).
//
//===----------------------------------------------------------------------===//
#include "kda/Dialect/KDA/KDADialect.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  mlir::registerAllPasses();
  registry.insert<mlir::kda::KDADialect>();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "kda optimizer driver\n", registry));
}
