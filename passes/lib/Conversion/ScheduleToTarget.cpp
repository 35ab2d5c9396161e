//===- ScheduleToTarget.cpp - verified schedules -> AMDGPU / NVVM ---------===//
//
// One pattern per op. The schedule's structure (which copy, wait, barrier
// and read happens where, for which iteration and slot) is what
// kda-verify-pipeline proved; these patterns only replace each atom by the
// chip's instructions, inline the copy and read bodies where the schedule
// placed them, and never move anything.
//
// Ordering inside the one greedy application: gfx950's waits count the copy
// instructions of the schedule's groups, so its copies and rows lower only
// after the waits; a schedule is inlined once no atom is left inside it.
//
//===----------------------------------------------------------------------===//
#include "ScheduleLowering.h"
#include "kda/Passes/AtomLowering.h"

#include "mlir/Dialect/AMDGPU/IR/AMDGPUDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::kda;
using namespace mlir::kda::lowering;

namespace {

/// Patterns that need the target's facts.
template <typename OpT>
struct TargetPattern : OpRewritePattern<OpT> {
  TargetPattern(MLIRContext *ctx, const TargetInfo &target)
      : OpRewritePattern<OpT>(ctx), target(target) {}
  const TargetInfo &target;
};

/// Runs `fn` under `pred` (or unconditionally when there is none).
void underPredicate(PatternRewriter &rw, Location loc, Value pred,
                    function_ref<void()> fn) {
  if (!pred)
    return fn();
  auto ifOp = scf::IfOp::create(rw, loc, pred, /*withElse=*/false);
  OpBuilder::InsertionGuard guard(rw);
  rw.setInsertionPoint(ifOp.thenBlock()->getTerminator());
  fn();
}

//===----------------------------------------------------------------------===//
// Schedule structure (every target)
//===----------------------------------------------------------------------===//

/// A schedule runs in place once its atoms are lowered.
struct InlineSchedule : OpRewritePattern<ScheduleOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ScheduleOp op,
                                PatternRewriter &rw) const override {
    bool atomsLeft = false;
    op.walk([&](Operation *inner) {
      atomsLeft |= inner != op && isa<KDADialect>(inner->getDialect());
    });
    if (atomsLeft)
      return failure();
    inlineBodyBefore(rw, op.getBody(), op);
    rw.eraseOp(op);
    return success();
  }
};

/// iter mod slots of the ring.
struct LowerRingSlot : OpRewritePattern<RingSlotOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(RingSlotOp op,
                                PatternRewriter &rw) const override {
    auto buf = SymbolTable::lookupNearestSymbolFrom<LdsBufferOp>(
        op, op.getBufferAttr());
    if (!buf)
      return rw.notifyMatchFailure(op, "unknown LDS buffer");
    Value slots =
        arith::ConstantIndexOp::create(rw, op.getLoc(), buf.getSlots());
    rw.replaceOpWithNewOp<arith::RemUIOp>(op, op.getIter(), slots);
    return success();
  }
};

/// The consumer's computation, where the schedule reads the slot.
struct InlineLdsRead : OpRewritePattern<LdsReadOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(LdsReadOp op,
                                PatternRewriter &rw) const override {
    inlineBodyBefore(rw, op.getBody(), op);
    rw.eraseOp(op);
    return success();
  }
};

/// Register-staged copies land at their stores: the body runs under its
/// predicate and nothing else is needed.
struct LowerStagedCopy : OpRewritePattern<StagedCopyOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(StagedCopyOp op,
                                PatternRewriter &rw) const override {
    IRMapping map;
    underPredicate(rw, op.getLoc(), op.getPred(),
                   [&] { cloneBody(rw, op.getBody(), map); });
    rw.eraseOp(op);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// NVVM (sm_90): cp.async, commit/wait_group, bar.sync
//===----------------------------------------------------------------------===//

/// One cp.async.cg of 16 bytes per piece, pieces round-robin over threads.
struct CopyRowToCpAsync : CopyRowPattern {
  CopyRowToCpAsync(MLIRContext *ctx) : CopyRowPattern(ctx, CopyAtom::CpAsync) {}
  LogicalResult lowerRow(const RowCopy &r, PatternRewriter &rw) const override {
    CopyRowOp op = r.op;
    Value dst = ldsElementView(rw, r.loc, op.getLds(), op.getByte(),
                               op.getElems(), r.elem);
    forEachThreadPiece(rw, r.loc, op, [&](Value e) {
      nvgpu::DeviceAsyncCopyOp::create(
          rw, r.loc, nvgpu::DeviceAsyncTokenType::get(rw.getContext()), dst,
          ValueRange{e}, op.getSrc(),
          ValueRange{arith::AddIOp::create(rw, r.loc, op.getOffset(), e)},
          rw.getIndexAttr(r.perPiece), /*srcElements=*/Value(),
          /*bypassL1=*/rw.getUnitAttr());
    });
    return success();
  }
};

/// One `prefetch.global.L2` per 128-byte line of the row (the L2's line),
/// straight-line in the issuing thread: at the row's start and every 128
/// bytes on, and at its last byte (the row need not start on a line; a
/// line hinted twice costs one instruction). Inline asm: LLVM selects its
/// prefetch intrinsics only from PTX 8.0, and the sm_90 pipeline emits 7.8
/// (the instruction is PTX 2.0). The kernel's pointers are generic: the
/// asm converts to the global window (cvta.to.global) as .global asks.
struct PrefetchRowToL2Lines : OpRewritePattern<PrefetchRowOp> {
  using OpRewritePattern::OpRewritePattern;
  static constexpr int64_t kLineBytes = 128;
  LogicalResult matchAndRewrite(PrefetchRowOp op,
                                PatternRewriter &rw) const override {
    Location loc = op.getLoc();
    Value start =
        lowering::elementAddress(rw, loc, op.getSrc(), op.getOffset());
    auto hint = [&](int64_t byte) {
      Value addr = arith::AddIOp::create(
          rw, loc, start, arith::ConstantIntOp::create(rw, loc, byte, 64));
      lowering::inlinePtx(rw, loc,
                          "{ .reg .b64 g; cvta.to.global.u64 g, $0; "
                          "prefetch.global.L2 [g]; }",
                          "l", ValueRange{addr});
    };
    const int64_t bytes = op.getRowBytes();
    for (int64_t byte = 0; byte < bytes; byte += kLineBytes)
      hint(byte);
    hint(bytes - 1);
    rw.eraseOp(op);
    return success();
  }
};

/// An op with nothing to emit on the chip: gfx942 and gfx950 have no L2
/// prefetch instruction (kda.prefetch_row is a hint) and no per-thread async
/// copy (their pieces are staged, landed at their stores: kda.copy_fence).
template <typename OpTy> struct Drop : OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;
  LogicalResult matchAndRewrite(OpTy op, PatternRewriter &rw) const override {
    rw.eraseOp(op);
    return success();
  }
};

/// The copies of one group, then its commit: a predicated-off copy still
/// commits its (empty) group, so wait_group counts stay exact.
struct AsyncCopyToNVVM : TargetPattern<AsyncCopyOp> {
  using TargetPattern::TargetPattern;
  LogicalResult matchAndRewrite(AsyncCopyOp op,
                                PatternRewriter &rw) const override {
    // cp.async counts groups: a predicated-off copy is an empty group, no
    // sink needed (ring slots unused).
    if (failed(emitAsyncCopyBody(rw, op, &target, /*ringSlots=*/0)))
      return failure();
    NVVM::CpAsyncCommitGroupOp::create(rw, op.getLoc());
    rw.eraseOp(op);
    return success();
  }
};

/// cp.async.cg of one 16-byte piece, src-size 0 (16 zero bytes, nothing
/// read) where it is not valid. Where the LDS index has a constant part
/// (lowering::peelConstantIndex), the piece is inline PTX carrying it, and
/// the source offset's, as its addresses' immediates, so the pieces of one
/// base share its registers: as values of their own, every piece's
/// addresses were loop-invariant and LLVM hoisted each one out of the
/// warpgroup scan's chunk loop, live across it. Otherwise nvgpu's copy
/// (the register scans' pieces, whose LDS indices have none: carried the
/// same way, the 128-column scan spilled 8 bytes where, with LICM off for
/// its chunk loop, it spills none).
struct CopyPieceToCpAsync : CopyPiecePattern {
  CopyPieceToCpAsync(MLIRContext *ctx)
      : CopyPiecePattern(ctx, CopyAtom::CpAsync) {}
  void lowerPiece(CopyPieceOp op, VectorType piece,
                  PatternRewriter &rw) const override {
    Location loc = op.getLoc();
    const int64_t n = piece.getNumElements();
    auto [dst, dstImm] = lowering::peelConstantIndex(rw, loc, op.getIndex());
    auto [src, srcImm] = lowering::peelConstantIndex(rw, loc, op.getOffset());
    if (dstImm) {
      const int64_t bytes = piece.getElementTypeBitWidth() / 8;
      auto i32 = rw.getI32Type();
      Value dstAddr = arith::TruncIOp::create(
          rw, loc, i32, lowering::elementAddress(rw, loc, op.getLds(), dst));
      Value srcAddr = lowering::elementAddress(rw, loc, op.getSrc(), src);
      Value srcBytes = arith::SelectOp::create(
          rw, loc, op.getValid(),
          arith::ConstantIntOp::create(rw, loc, n * bytes, 32),
          arith::ConstantIntOp::create(rw, loc, 0, 32));
      std::string text = "{ .reg .b64 g; cvta.to.global.u64 g, $1; "
                         "cp.async.cg.shared.global [$0+" +
                         std::to_string(dstImm * bytes) + "], [g+" +
                         std::to_string(srcImm * bytes) + "], " +
                         std::to_string(n * bytes) + ", $2; }";
      lowering::inlinePtx(rw, loc, text, "r,l,r",
                          ValueRange{dstAddr, srcAddr, srcBytes});
      return;
    }
    Value srcElems = arith::SelectOp::create(
        rw, loc, op.getValid(), arith::ConstantIndexOp::create(rw, loc, n),
        arith::ConstantIndexOp::create(rw, loc, 0));
    nvgpu::DeviceAsyncCopyOp::create(
        rw, loc, nvgpu::DeviceAsyncTokenType::get(rw.getContext()), op.getLds(),
        ValueRange{op.getIndex()}, op.getSrc(), ValueRange{op.getOffset()},
        rw.getIndexAttr(n), srcElems,
        /*bypassL1=*/rw.getUnitAttr());
  }
};

/// The thread's pieces as one group, then a wait for every group.
struct CopyFenceToNVVM : OpRewritePattern<CopyFenceOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(CopyFenceOp op,
                                PatternRewriter &rw) const override {
    NVVM::CpAsyncCommitGroupOp::create(rw, op.getLoc());
    rw.replaceOpWithNewOp<NVVM::CpAsyncWaitGroupOp>(op, 0);
    return success();
  }
};

struct AsyncWaitToNVVM : OpRewritePattern<AsyncWaitOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(AsyncWaitOp op,
                                PatternRewriter &rw) const override {
    rw.replaceOpWithNewOp<NVVM::CpAsyncWaitGroupOp>(op, op.getCount());
    return success();
  }
};

/// An atom that is one instruction of the chip, without operands.
template <typename OpT, typename NewOpT>
struct OneInstruction : OpRewritePattern<OpT> {
  using OpRewritePattern<OpT>::OpRewritePattern;
  LogicalResult matchAndRewrite(OpT op, PatternRewriter &rw) const override {
    rw.replaceOpWithNewOp<NewOpT>(op);
    return success();
  }
};

/// bar.sync orders a thread's shared-memory accesses: both barriers are it,
/// and a drain alone needs nothing.
struct DrainToNVVM : OpRewritePattern<LdsDrainOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(LdsDrainOp op,
                                PatternRewriter &rw) const override {
    rw.eraseOp(op);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// AMDGPU (gfx942, gfx950): global_load_lds, vmcnt / lgkmcnt, s_barrier
//===----------------------------------------------------------------------===//

/// The first wave issues one global_load_lds_dwordx4 per region of
/// waveSize x 16 bytes from a wave-uniform LDS base; other waves issue
/// nothing.
struct CopyRowToGlobalLoadLds : CopyRowPattern {
  CopyRowToGlobalLoadLds(MLIRContext *ctx, const TargetInfo &target)
      : CopyRowPattern(ctx, CopyAtom::GlobalLoadLds), target(target) {}
  LogicalResult lowerRow(const RowCopy &r, PatternRewriter &rw) const override {
    CopyRowOp op = r.op;
    if (scheduleHolds<AsyncWaitOp>(op))
      return failure(); // the waits count these instructions first
    const int64_t regionElems =
        globalLoadLdsInstructions(op.getRowBytes(), target) *
        target.waveSize * r.perPiece;
    Value dst;
    forEachWaveRegion(rw, r.loc, op, target, [&](Value src, int64_t region) {
      if (!dst)
        dst = ldsElementView(rw, r.loc, op.getLds(), op.getByte(),
                             regionElems, r.elem);
      amdgpu::GatherToLDSOp::create(
          rw, r.loc, op.getSrc(),
          ValueRange{arith::AddIOp::create(rw, r.loc, op.getOffset(), src)},
          dst, ValueRange{arith::ConstantIndexOp::create(rw, r.loc, region)},
          VectorType::get({r.perPiece}, r.elem));
    });
    return success();
  }
  const TargetInfo &target;
};

/// vmcnt counts instructions, not groups: see emitAsyncCopyBody for how a
/// predicated-off copy keeps the counts exact.
struct AsyncCopyToAMDGPU : TargetPattern<AsyncCopyOp> {
  using TargetPattern::TargetPattern;
  LogicalResult matchAndRewrite(AsyncCopyOp op,
                                PatternRewriter &rw) const override {
    if (scheduleHolds<AsyncWaitOp>(op))
      return failure();
    auto buf = SymbolTable::lookupNearestSymbolFrom<LdsBufferOp>(
        op, op.getBufferAttr());
    if (!buf)
      return rw.notifyMatchFailure(op, "unknown LDS buffer");
    if (failed(emitAsyncCopyBody(rw, op, &target, buf.getSlots())))
      return failure();
    rw.eraseOp(op);
    return success();
  }
};

/// A wait for all but `count` groups: vmcnt(count x instructions per group).
/// Waves that issued nothing pass at once; the schedule's barrier after the
/// wait orders them after the issuing wave.
struct AsyncWaitToAMDGPU : TargetPattern<AsyncWaitOp> {
  using TargetPattern::TargetPattern;
  LogicalResult matchAndRewrite(AsyncWaitOp op,
                                PatternRewriter &rw) const override {
    int64_t perGroup = 1;
    if (auto schedule = op->getParentOfType<ScheduleOp>()) {
      FailureOr<int64_t> n = instructionsPerAsyncGroup(schedule, target);
      if (failed(n))
        return failure();
      perGroup = *n;
    }
    rw.replaceOpWithNewOp<amdgpu::MemoryCounterWaitOp>(
        op, /*load=*/rw.getI32IntegerAttr(int32_t(op.getCount() * perGroup)),
        /*store=*/nullptr, /*ds=*/nullptr, /*exp=*/nullptr,
        /*tensor=*/nullptr);
    return success();
  }
};

/// lgkmcnt(0): the thread's LDS reads have returned.
struct DrainToAMDGPU : OpRewritePattern<LdsDrainOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(LdsDrainOp op,
                                PatternRewriter &rw) const override {
    rw.replaceOpWithNewOp<amdgpu::MemoryCounterWaitOp>(
        op, /*load=*/nullptr, /*store=*/nullptr,
        /*ds=*/rw.getI32IntegerAttr(0), /*exp=*/nullptr, /*tensor=*/nullptr);
    return success();
  }
};

void populateScheduleStructure(RewritePatternSet &patterns) {
  patterns.add<InlineSchedule, LowerRingSlot, InlineLdsRead, LowerStagedCopy>(
      patterns.getContext());
  populateStagedCopyPatterns(patterns);
}

} // namespace

void mlir::kda::populateAsyncCopyToAMDGPUPatterns(RewritePatternSet &patterns,
                                                  const TargetInfo &target) {
  patterns.add<AsyncCopyToAMDGPU, AsyncWaitToAMDGPU>(patterns.getContext(),
                                                     target);
}

void mlir::kda::populateScheduleToAMDGPUPatterns(RewritePatternSet &patterns,
                                                 const TargetInfo &target) {
  populateScheduleStructure(patterns);
  MLIRContext *ctx = patterns.getContext();
  patterns.add<CopyRowToGlobalLoadLds>(ctx, target);
  // A bare s_barrier does not wait for the wave's LDS reads; the drained
  // barrier is lgkmcnt(0) then s_barrier.
  patterns.add<DrainToAMDGPU, Drop<PrefetchRowOp>, Drop<CopyFenceOp>,
               OneInstruction<BarrierOp, ROCDL::SBarrierOp>,
               OneInstruction<LdsBarrierOp, amdgpu::LDSBarrierOp>>(ctx);
}

void mlir::kda::populateScheduleToNVVMPatterns(RewritePatternSet &patterns,
                                               const TargetInfo &target) {
  populateScheduleStructure(patterns);
  patterns.add<AsyncCopyToNVVM>(patterns.getContext(), target);
  patterns.add<CopyRowToCpAsync, CopyPieceToCpAsync, CopyFenceToNVVM,
               AsyncWaitToNVVM, PrefetchRowToL2Lines,
               OneInstruction<BarrierOp, gpu::BarrierOp>,
               OneInstruction<LdsBarrierOp, gpu::BarrierOp>, DrainToNVVM>(
      patterns.getContext());
}
