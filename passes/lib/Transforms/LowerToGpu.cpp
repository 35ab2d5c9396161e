//===- LowerToGpu.cpp - kda ops -> gpu.func kernels -----------------------===//
#include "kda/Dialect/KDA/KDAAttrs.h"
#include "kda/Passes/Passes.h"
#include "kda/Passes/RecurrentKernelBuilder.h"

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
    if (ops.empty())
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
  }
};
} // namespace
