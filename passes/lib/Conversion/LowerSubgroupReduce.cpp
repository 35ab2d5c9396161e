//===- LowerSubgroupReduce.cpp - cross-lane reduction atoms ---------------===//
#include "kda/Dialect/KDA/KDAAttrs.h"
#include "kda/Passes/Passes.h"

#include "mlir/Dialect/AMDGPU/Utils/Chipset.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::kda {
#define GEN_PASS_DEF_KDALOWERSUBGROUPREDUCE
#include "kda/Passes/Passes.h.inc"
} // namespace mlir::kda

using namespace mlir;
using namespace mlir::kda;

namespace {
struct KdaLowerSubgroupReducePass
    : public kda::impl::KdaLowerSubgroupReduceBase<KdaLowerSubgroupReducePass> {
  using Base::Base;

  void runOnOperation() override {
    const TargetInfo *info = getEnclosingTargetOrEmit(getOperation());
    if (!info)
      return signalPassFailure();
    RewritePatternSet patterns(&getContext());
    if (info->family == TargetFamily::AMDGPU) {
      FailureOr<amdgpu::Chipset> chipset = amdgpu::Chipset::parse(info->chip);
      if (failed(chipset)) {
        getOperation().emitError() << "bad AMDGPU chip " << info->chip;
        return signalPassFailure();
      }
      // DPP where it applies (unit-stride clusters); shuffles for the rest.
      populateGpuLowerSubgroupReduceToDPPPatterns(patterns, info->waveSize,
                                                  *chipset, /*benefit=*/2);
      populateGpuLowerClusteredSubgroupReduceToDPPPatterns(
          patterns, info->waveSize, *chipset, /*benefit=*/2);
    }
    populateGpuBreakDownSubgroupReducePatterns(patterns, 32);
    populateGpuLowerSubgroupReduceToShufflePatterns(patterns, info->waveSize);
    populateGpuLowerClusteredSubgroupReduceToShufflePatterns(patterns,
                                                             info->waveSize);
    // Only the reductions and what their patterns create: the rest of the
    // module stays as the pipeline verifier saw it. The emulators lower
    // their schedules after this pass, and a copy's sink clone maps its own
    // slot and iteration operands; constants hoisted and merged module-wide
    // would make the body's constants of equal value those operands.
    SmallVector<Operation *> reductions;
    getOperation().walk(
        [&](gpu::SubgroupReduceOp op) { reductions.push_back(op); });
    GreedyRewriteConfig config;
    config.setStrictness(GreedyRewriteStrictness::ExistingAndNewOps)
        .enableConstantCSE(false);
    if (failed(
            applyOpPatternsGreedily(reductions, std::move(patterns), config)))
      return signalPassFailure();
    WalkResult left = getOperation().walk([](gpu::SubgroupReduceOp op) {
      op.emitError("no cross-lane lowering applies to this reduction");
      return WalkResult::interrupt();
    });
    if (left.wasInterrupted())
      signalPassFailure();
  }
};
} // namespace
