//===- kda-opt.cpp - the kda optimizer driver -----------------------------===//
//
// mlir-opt with the kda dialect and passes, plus the upstream dialects and
// passes the kda pipelines use (GPU, LLVM, NVVM, ROCDL, AMDGPU and the rest of
// the upstream set: kda specs are ordinary MLIR modules).
//
//===----------------------------------------------------------------------===//
#include "kda/Codegen/TargetPipelines.h"
#include "kda/Dialect/KDA/KDADialect.h"
#include "kda/Passes/Passes.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  // gpu-module-to-binary translates kernels to LLVM IR inside kda-opt.
  mlir::registerAllToLLVMIRTranslations(registry);
  mlir::registerAllPasses();
  registry.insert<mlir::kda::KDADialect>();
  mlir::kda::registerKDAPasses();
  // kda-to-<target>: what kda-compile runs after kda-lower-to-gpu.
  mlir::kda::registerTargetPipelines();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "kda optimizer driver\n", registry));
}
