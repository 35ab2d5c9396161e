//===- Decompose.cpp - kda.chunk -> its stage kernels ---------------------===//
//
// kda.chunk becomes `kda.chunk_stage ... stage = prep` followed by one
// `kda.chunk_stage ... stage = scan` per state column block of
// scan_block_v (alternatives the runtime picks between by batch shape):
// the same operands, layer, config, chunk size (absent: the target's,
// chosen by kda-lower-to-gpu) and scan_stages. Why two
// stages is argued on the pass (Passes.td).
//
//===----------------------------------------------------------------------===//
#include "kda/Dialect/KDA/KDAOps.h"
#include "kda/Passes/ChunkKernelBuilder.h"
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
/// The widest column block the split scan's maps and segments take.
constexpr int64_t kMaxSegmentBlockV = 64;

struct DecomposeChunk : OpRewritePattern<ChunkOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(ChunkOp op,
                                PatternRewriter &rewriter) const override {
    SmallVector<int64_t> blocks = op.getScanBlocks();
    // The scan split within a sequence: its maps run over the K + V
    // columns of [M | B], so they take the widest block dividing head_k
    // too; the segments take the same (the split is for batches too small
    // to fill the device with the plain scan; the widest block streams the
    // chunk's rows the fewest times and the segments fill the device). The
    // join walks 16 columns a workgroup. No such block: no split. Not past
    // kMaxSegmentBlockV: the split is for few (sequence, head) pairs, and
    // wider blocks halve its workgroups again (on the H200, 2026-12-04, 1 x
    // 32768 H8: 128-column segments 0.433 ms against 0.375 at 64, before
    // their rows' copies were even counted).
    std::optional<int64_t> segmentBlock;
    for (int64_t bv : blocks)
      if (op.getLayer().getHeadK() % bv == 0 && bv <= kMaxSegmentBlockV)
        segmentBlock = bv;
    const int64_t segmentChunks =
        segmentBlock ? op.getSegmentChunksOrDefault() : 0;
    IntegerAttr segments =
        segmentChunks ? rewriter.getI64IntegerAttr(segmentChunks) : nullptr;
    auto stage = [&](ChunkStage kind, std::optional<int64_t> blockV) {
      createChunkStage(rewriter, op, kind, op.getChunkSizeAttr(),
                       op.getScanStagesAttr(), blockV, segments);
    };
    stage(ChunkStage::Prep, std::nullopt);
    // One scan per column block (ChunkOp::getScanBlocks). Measured on the
    // H200 (2026-12-01, K = V = 128, one call): 16 columns 2.10 / 4.06 /
    // 3.85 ms on 1 x 8192 H32, 4 x 4096 and varlen 16, 32 columns 1.93 /
    // 3.81 / 3.75, 64 columns 2.66 / 3.47 / 3.48, and on 1 x 32768 H8 4.63
    // / 5.09 / 8.19: no one block wins every batch, so each is built and
    // the runtime chooses per launch.
    // A head_v no block divides gets the default scan, whose kernel builder
    // names the rule it breaks.
    if (blocks.empty())
      stage(ChunkStage::Scan, std::nullopt);
    for (int64_t bv : blocks)
      stage(ChunkStage::Scan, bv);
    if (segments) {
      stage(ChunkStage::Maps, *segmentBlock);
      stage(ChunkStage::Join, 16);
      stage(ChunkStage::Segments, *segmentBlock);
    }
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
