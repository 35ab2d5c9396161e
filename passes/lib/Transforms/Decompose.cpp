//===- Decompose.cpp - kda.chunk -> its stage kernels ---------------------===//
//
// kda.chunk becomes `kda.chunk_stage ... stage = prep` followed by one
// `kda.chunk_stage ... stage = scan` per state column block of
// scan_block_v (alternatives the runtime picks between by batch shape):
// the same operands, layer, config, chunk size and scan_stages. Why two
// stages is argued on the pass (Passes.td).
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
    auto stage = [&](ChunkStage kind, IntegerAttr blockV) {
      ChunkStageOp::create(
          rewriter, op.getLoc(), op.getLayer(), op.getConfigAttr(), op.getQ(),
          op.getK(), op.getV(), op.getG(), op.getBeta(), op.getALog(),
          op.getDtBias(), op.getCuSeqlens(), op.getSlots(),
          op.getHasInitialState(), op.getState(), op.getO(), op.getChunkSize(),
          kind, op.getScanStagesAttr(), blockV);
    };
    stage(ChunkStage::Prep, nullptr);
    // One scan per column block (ChunkOp::getScanBlocks). Measured on the
    // H200 (2026-12-01, K = V = 128, one call): 16 columns 2.10 / 4.06 /
    // 3.85 ms on 1 x 8192 H32, 4 x 4096 and varlen 16, 32 columns 1.93 /
    // 3.81 / 3.75, 64 columns 2.66 / 3.47 / 3.48, and on 1 x 32768 H8 4.63
    // / 5.09 / 8.19: no one block wins every batch, so each is built and
    // the runtime chooses per launch.
    SmallVector<int64_t> blocks = op.getScanBlocks();
    // A head_v no block divides gets the default scan, whose kernel builder
    // names the rule it breaks.
    if (blocks.empty())
      stage(ChunkStage::Scan, nullptr);
    for (int64_t bv : blocks)
      stage(ChunkStage::Scan, rewriter.getI64IntegerAttr(bv));
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
