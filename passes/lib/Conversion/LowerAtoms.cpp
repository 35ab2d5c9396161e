//===- LowerAtoms.cpp - kda atoms -> the target's instructions ------------===//
#include "kda/Dialect/KDA/KDAOps.h"
#include "kda/Passes/AtomLowering.h"
#include "kda/Passes/Passes.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::kda {
#define GEN_PASS_DEF_KDALOWERATOMS
#include "kda/Passes/Passes.h.inc"
} // namespace mlir::kda

using namespace mlir;
using namespace mlir::kda;

namespace {
struct KdaLowerAtomsPass
    : public kda::impl::KdaLowerAtomsBase<KdaLowerAtomsPass> {
  using Base::Base;

  void runOnOperation() override {
    const TargetInfo *target = getEnclosingTargetOrEmit(getOperation());
    if (!target)
      return signalPassFailure();
    if (failed(checkCopyAtoms(getOperation(), *target)))
      return signalPassFailure();
    if (target->isEmulator())
      return; // kda-gpu-to-emu lowers the atoms to emulator calls
    RewritePatternSet patterns(&getContext());
    if (target->family == TargetFamily::AMDGPU) {
      populateScheduleToAMDGPUPatterns(patterns, *target);
      populateMmaToAMDGPUPatterns(patterns, *target);
    } else {
      populateScheduleToNVVMPatterns(patterns, *target);
      populateMmaToNVVMPatterns(patterns, *target);
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
