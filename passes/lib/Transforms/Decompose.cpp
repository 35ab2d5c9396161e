//===- Decompose.cpp - kda.chunk -> its stage kernels ---------------------===//
//
// kda.chunk becomes `kda.chunk_stage ... stage = prep` followed by
// `kda.chunk_stage ... stage = scan`: the same operands, layer, config,
// chunk size and scan_stages. Why two stages is argued on the pass (Passes.td).
//
//===----------------------------------------------------------------------===//
#include "kda/Dialect/KDA/KDAOps.h"
#include "kda/Passes/Passes.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"

namespace mlir::kda {
#define GEN_PASS_DEF_KDADECOMPOSE
#include "kda/Passes/Passes.h.inc"
} // namespace mlir::kda

using namespace mlir;
using namespace mlir::kda;

namespace {
struct DecomposeChunk : OpRewritePattern<ChunkOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(ChunkOp op,
                                PatternRewriter &rewriter) const override {
    for (ChunkStage stage : {ChunkStage::Prep, ChunkStage::Scan})
      ChunkStageOp::create(
          rewriter, op.getLoc(), op.getLayer(), op.getConfigAttr(), op.getQ(),
          op.getK(), op.getV(), op.getG(), op.getBeta(), op.getALog(),
          op.getDtBias(), op.getCuSeqlens(), op.getSlots(),
          op.getHasInitialState(), op.getState(), op.getO(),
          op.getChunkSize(), stage, op.getScanStagesAttr());
    rewriter.eraseOp(op);
    return success();
  }
};

struct KdaDecomposePass : kda::impl::KdaDecomposeBase<KdaDecomposePass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<DecomposeChunk>(&getContext());
    walkAndApplyPatterns(getOperation(), std::move(patterns));
  }
};
} // namespace
