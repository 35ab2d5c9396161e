//===- LowerAtoms.cpp - kda atoms -> the target's instructions ------------===//
#include "ScheduleLowering.h"
#include "kda/Dialect/KDA/KDAOps.h"
#include "kda/Passes/AtomLowering.h"
#include "kda/Passes/KernelAbi.h"
#include "kda/Passes/Passes.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::kda {
#define GEN_PASS_DEF_KDALOWERATOMS
#include "kda/Passes/Passes.h.inc"
} // namespace mlir::kda

using namespace mlir;
using namespace mlir::kda;

namespace {
/// A builder's occupancy request (kWorkgroupsPerCuAttrName) as NVPTX's
/// minimum of resident workgroups: ptxas sizes the kernel's registers so
/// that many fit an SM.
void applyOccupancyRequests(Operation *module) {
  module->walk([](gpu::GPUFuncOp func) {
    if (auto n = func->getAttrOfType<IntegerAttr>(kWorkgroupsPerCuAttrName))
      func->setAttr(NVVM::NVVMDialect::getMinctasmAttrName(), n);
  });
}

struct KdaLowerAtomsPass
    : public kda::impl::KdaLowerAtomsBase<KdaLowerAtomsPass> {
  using Base::Base;

  /// AMDGPU's async copies and waits first, on the IR the verifier checked:
  /// nothing folded or merged (populateAsyncCopyToAMDGPUPatterns says why).
  LogicalResult lowerAsyncCopiesUnfolded(const TargetInfo &target) {
    RewritePatternSet patterns(&getContext());
    populateAsyncCopyToAMDGPUPatterns(patterns, target);
    GreedyRewriteConfig config;
    config.setUseTopDownTraversal(true)
        .enableFolding(false)
        .enableConstantCSE(false)
        .setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled);
    return applyPatternsGreedily(getOperation(), std::move(patterns), config);
  }

  void runOnOperation() override {
    const TargetInfo *target = getEnclosingTargetOrEmit(getOperation());
    if (!target)
      return signalPassFailure();
    if (failed(checkCopyAtoms(getOperation(), *target)))
      return signalPassFailure();
    lowering::clampDynamicTripCounts(getOperation());
    if (target->isEmulator())
      return; // kda-gpu-to-emu lowers the atoms to emulator calls
    if (target->family == TargetFamily::NVPTX) {
      applyOccupancyRequests(getOperation());
      fenceBarriersForWgmma(getOperation());
      markWgmmaChains(getOperation());
    }
    if (target->family == TargetFamily::AMDGPU &&
        failed(lowerAsyncCopiesUnfolded(*target)))
      return signalPassFailure();
    RewritePatternSet patterns(&getContext());
    if (target->family == TargetFamily::AMDGPU) {
      populateScheduleToAMDGPUPatterns(patterns, *target);
      populateMmaToAMDGPUPatterns(patterns, *target);
    } else {
      populateScheduleToNVVMPatterns(patterns, *target);
      populateMmaToNVVMPatterns(patterns, *target);
      populateFastMathToNVVMPatterns(patterns);
    }
    GreedyRewriteConfig config;
    config.setUseTopDownTraversal(true);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns),
                                     config)))
      return signalPassFailure();
    // The rings were the verifier's record; the kernels now address their
    // workgroup memory directly.
    for (LdsBufferOp buf :
         llvm::make_early_inc_range(getOperation().getOps<LdsBufferOp>()))
      if (SymbolTable::symbolKnownUseEmpty(buf, getOperation()))
        buf.erase();
    // Whatever atom is left has no lowering on this chip.
    WalkResult left = getOperation().walk([&](Operation *op) {
      if (!isa<KDADialect>(op->getDialect()))
        return WalkResult::advance();
      op->emitOpError() << "has no lowering on " << target->name << " ("
                        << target->stands << ")";
      return WalkResult::interrupt();
    });
    if (left.wasInterrupted())
      signalPassFailure();
  }
};
} // namespace
