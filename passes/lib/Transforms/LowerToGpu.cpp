//===- LowerToGpu.cpp - kda ops -> gpu.func kernels -----------------------===//
#include "kda/Dialect/KDA/KDAAttrs.h"
#include "kda/Passes/Passes.h"
#include "kda/Passes/RecurrentKernelBuilder.h"
#include "kda/Passes/TileGemmKernelBuilder.h"

namespace mlir::kda {
#define GEN_PASS_DEF_KDALOWERTOGPU
#include "kda/Passes/Passes.h.inc"
} // namespace mlir::kda

using namespace mlir;
using namespace mlir::kda;

namespace {
struct KdaLowerToGpuPass
    : public kda::impl::KdaLowerToGpuBase<KdaLowerToGpuPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    const TargetInfo *info = lookupTargetOrEmit(module, target);
    if (!info)
      return signalPassFailure();
    SmallVector<RecurrentOp> ops;
    module.walk([&](RecurrentOp op) { ops.push_back(op); });
    SmallVector<TestTileGemmOp> tileOps;
    module.walk([&](TestTileGemmOp op) { tileOps.push_back(op); });
    if (ops.empty() && tileOps.empty())
      return;

    OpBuilder b(module.getContext());
    module->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                    b.getUnitAttr());
    auto gpuModule = module.lookupSymbol<gpu::GPUModuleOp>("kda_kernels");
    if (!gpuModule) {
      b.setInsertionPointToEnd(module.getBody());
      gpuModule = gpu::GPUModuleOp::create(b, module.getLoc(), "kda_kernels");
      gpuModule->setAttr(kTargetAttrName,
                         TargetAttr::get(module.getContext(), info->name));
    } else if (getEnclosingTarget(gpuModule) != info) {
      gpuModule.emitError() << "gpu.module @kda_kernels is not for target '"
                            << info->name << "'";
      return signalPassFailure();
    }
    SymbolTable symbols(gpuModule);
    for (RecurrentOp op : ops) {
      auto fn = op->getParentOfType<FunctionOpInterface>();
      // kda_<function>: distinct from the host function, whose name the
      // emulator target would otherwise collide with.
      std::string name =
          "kda_" + (fn ? fn.getName().str() : std::string("recurrent"));
      ConfigAttr config = op.getConfigAttr();
      if (!config)
        config = defaultRecurrentConfig(op.getLayer(), *info);
      FailureOr<gpu::GPUFuncOp> kernel =
          buildRecurrentKernel(b, gpuModule, name, op, config, *info);
      if (failed(kernel))
        return signalPassFailure();
      // Uniquify in case one function holds several computations.
      symbols.insert(*kernel);
      if (fn)
        fn->setAttr("kda.kernel",
                    SymbolRefAttr::get(gpuModule.getNameAttr(),
                                       {FlatSymbolRefAttr::get(*kernel)}));
      op.erase();
    }
    // Test-only tile-GEMM specs (the tile layer's kernels).
    for (TestTileGemmOp op : tileOps)
      if (failed(lowerTileGemm(b, gpuModule, symbols, op, *info)))
        return signalPassFailure();
  }

  static LogicalResult lowerTileGemm(OpBuilder &b, gpu::GPUModuleOp gpuModule,
                                     SymbolTable &symbols, TestTileGemmOp op,
                                     const TargetInfo &info) {
    auto fn = op->getParentOfType<FunctionOpInterface>();
    std::string name =
        "kda_" + (fn ? fn.getName().str() : std::string("tile_gemm"));
    FailureOr<gpu::GPUFuncOp> kernel =
        buildTileGemmKernel(b, gpuModule, name, op, info);
    if (failed(kernel))
      return failure();
    symbols.insert(*kernel);
    if (fn)
      fn->setAttr("kda.kernel",
                  SymbolRefAttr::get(gpuModule.getNameAttr(),
                                     {FlatSymbolRefAttr::get(*kernel)}));
    op.erase();
    return success();
  }
};
} // namespace
