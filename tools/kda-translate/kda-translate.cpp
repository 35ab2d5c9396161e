//===- kda-translate.cpp - the kda translation driver ---------------------===//
//
// mlir-translate with the upstream translations (mlir-to-llvmir and friends)
// and kda's own: `--kda-spec-to-json` describes each computation of a spec
// (function, op, layer facts) as JSON; `--kda-to-ptx`, `--kda-to-gfx942-asm`,
// `--kda-to-gfx950-asm` and `--kda-to-emu-llvmir` serialize a spec's kernels
// for one target (kda-compile writes the binaries and the bundle).
//
//===----------------------------------------------------------------------===//
#include "kda/Codegen/BundleOutput.h"
#include "kda/Codegen/Compile.h"
#include "kda/Dialect/KDA/KDAOps.h"
#include "kda/Passes/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/InitAllTranslations.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Tools/mlir-translate/MlirTranslateMain.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"

using namespace mlir;
using namespace mlir::kda;

static LogicalResult specToJson(Operation *module, raw_ostream &os) {
  llvm::json::Array computations;
  module->walk([&](Operation *op) {
    LayerAttr layer;
    StringRef kind;
    if (auto r = dyn_cast<RecurrentOp>(op)) {
      layer = r.getLayer();
      kind = "recurrent";
    } else if (auto c = dyn_cast<ChunkOp>(op)) {
      layer = c.getLayer();
      kind = "chunk";
    } else {
      return;
    }
    auto fn = op->getParentOfType<func::FuncOp>();
    computations.push_back(llvm::json::Object{
        {"function", fn ? fn.getSymName().str() : std::string()},
        {"op", kind},
        {"layer", describeLayer(layer)}});
  });
  if (computations.empty())
    return module->emitError("spec holds no kda.recurrent or kda.chunk op");
  os << llvm::formatv("{0:2}",
                      llvm::json::Value(llvm::json::Object{
                          {"computations", std::move(computations)}}))
     << "\n";
  return success();
}

/// Registers `--<flag>`: the spec's kernels as `target`'s assembly.
static void registerAssemblyTranslation(StringRef flag, StringRef target,
                                        StringRef description) {
  std::string name = target.str();
  TranslateFromMLIRRegistration(
      flag, description,
      [name](Operation *op, raw_ostream &os) -> LogicalResult {
        auto spec = dyn_cast<ModuleOp>(op);
        if (!spec)
          return op->emitError("expected a module");
        Toolchain tools = Toolchain::fromEnvironment();
        LogicalResult r =
            emitTargetAssembly(spec, *lookupTarget(name), tools, os);
        if (!tools.scratchDir.empty()) {
          llvm::sys::fs::remove_directories(tools.scratchDir);
          keepOnInterrupt(tools.scratchDir);
        }
        return r;
      },
      [](DialectRegistry &registry) {
        registerAllDialects(registry);
        registerAllExtensions(registry);
        registerAllToLLVMIRTranslations(registry);
        registry.insert<KDADialect>();
      });
}

int main(int argc, char **argv) {
  registerAllTranslations();
  registerAllPasses();
  registerKDAPasses();
  registerAssemblyTranslation("kda-to-ptx", "sm_90",
                              "kda spec -> sm_90 PTX of its kernels");
  registerAssemblyTranslation("kda-to-gfx942-asm", "gfx942",
                              "kda spec -> gfx942 assembly of its kernels");
  registerAssemblyTranslation("kda-to-gfx950-asm", "gfx950",
                              "kda spec -> gfx950 assembly of its kernels");
  registerAssemblyTranslation("kda-to-emu-llvmir", "emu",
                              "kda spec -> host LLVM IR of the emulator kernels");
  TranslateFromMLIRRegistration specToJsonReg(
      "kda-spec-to-json", "describe a kda spec's computations as JSON",
      specToJson, [](DialectRegistry &registry) {
        registry.insert<KDADialect, func::FuncDialect, memref::MemRefDialect>();
      });
  return failed(mlirTranslateMain(argc, argv, "kda translation driver\n"));
}
