//===- ScheduleLowering.cpp - shared pieces of schedule lowerings ---------===//
#include "ScheduleLowering.h"
#include "kda/Passes/AtomLowering.h"
#include "kda/Passes/PipelineHazards.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::kda;

/// The kernel's known_block_size around `at`, if it has one.
static DenseI32ArrayAttr knownBlockSize(Operation *at) {
  auto fn = at->getParentOfType<gpu::GPUFuncOp>();
  return fn ? fn.getKnownBlockSizeAttr() : DenseI32ArrayAttr();
}

/// The block's size in dimension `d`: known, else gpu.block_dim.
static Value blockDim(OpBuilder &b, Location loc, Operation *at,
                      gpu::Dimension d) {
  if (DenseI32ArrayAttr known = knownBlockSize(at))
    return arith::ConstantIndexOp::create(b, loc, known[unsigned(d)]);
  return gpu::BlockDimOp::create(b, loc, d);
}

Value lowering::workgroupThreads(OpBuilder &b, Location loc, Operation *at) {
  if (DenseI32ArrayAttr known = knownBlockSize(at))
    return arith::ConstantIndexOp::create(
        b, loc, int64_t(known[0]) * known[1] * known[2]);
  Value xy =
      arith::MulIOp::create(b, loc, blockDim(b, loc, at, gpu::Dimension::x),
                            blockDim(b, loc, at, gpu::Dimension::y));
  return arith::MulIOp::create(b, loc, xy,
                               blockDim(b, loc, at, gpu::Dimension::z));
}

Value lowering::linearThreadId(OpBuilder &b, Location loc, Operation *at) {
  Value x = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  if (DenseI32ArrayAttr known = knownBlockSize(at);
      known && known[1] == 1 && known[2] == 1)
    return x; // a 1-D block: the common case, no extra instructions
  Value y = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::y);
  Value z = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::z);
  Value zy = arith::AddIOp::create(
      b, loc, y,
      arith::MulIOp::create(b, loc, z,
                            blockDim(b, loc, at, gpu::Dimension::y)));
  return arith::AddIOp::create(
      b, loc, x,
      arith::MulIOp::create(b, loc, zy,
                            blockDim(b, loc, at, gpu::Dimension::x)));
}

static bool clampedAtZero(Value t) {
  auto nonNegative = [](Value v) {
    std::optional<int64_t> c = getConstantIntValue(v);
    return c && *c >= 0;
  };
  if (nonNegative(t))
    return true;
  auto max = t.getDefiningOp<arith::MaxSIOp>();
  return max && (nonNegative(max.getLhs()) || nonNegative(max.getRhs()));
}

void lowering::clampDynamicTripCounts(Operation *root) {
  root->walk([](ScheduleOp schedule) {
    Value t = schedule.getDynamicTripCount();
    if (!t || clampedAtZero(t))
      return;
    OpBuilder b(schedule);
    Location loc = schedule.getLoc();
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    Value clamped = arith::MaxSIOp::create(b, loc, t, zero);
    t.replaceUsesWithIf(clamped, [&](OpOperand &use) {
      return schedule->isAncestor(use.getOwner());
    });
  });
}

Value lowering::scheduleTripCount(OpBuilder &b, Location loc,
                                ScheduleOp schedule) {
  if (Value t = schedule.getDynamicTripCount())
    return t;
  return arith::ConstantIndexOp::create(b, loc,
                                        schedule.getTripCount().value_or(0));
}

Value lowering::ldsElementView(OpBuilder &b, Location loc, Value lds,
                             Value byte, int64_t elems, Type elem) {
  auto space = cast<MemRefType>(lds.getType()).getMemorySpace();
  return memref::ViewOp::create(
      b, loc, MemRefType::get({elems}, elem, nullptr, space), lds, byte,
      ValueRange{});
}

int64_t lowering::globalLoadLdsInstructions(int64_t rowBytes,
                                          const TargetInfo &target) {
  const int64_t region = target.copyRegionBytes();
  return (rowBytes + region - 1) / region;
}

FailureOr<int64_t> lowering::instructionsPerAsyncGroup(ScheduleOp schedule,
                                                     const TargetInfo &target) {
  std::optional<int64_t> perGroup;
  WalkResult r = schedule.walk([&](AsyncCopyOp copy) {
    int64_t n = 0;
    // A row in loops of constant bounds issues once a trip (copyRowTrips);
    // the verifier refuses rows under anything else on such targets (R0),
    // so a group always issues what is counted here.
    copy.walk([&](CopyRowOp row) {
      std::optional<int64_t> trips = copyRowTrips(row, copy);
      if (!trips)
        n = -1;
      else if (n >= 0)
        n += *trips * globalLoadLdsInstructions(row.getRowBytes(), target);
    });
    if (n < 0) {
      copy.emitOpError() << "has a kda.copy_row that runs a number of times "
                            "known only at run time: "
                         << target.name
                         << " waits count copy instructions (vmcnt)";
      return WalkResult::interrupt();
    }
    if (n == 0) {
      copy.emitOpError() << "has no kda.copy_row to count: " << target.name
                         << " waits count copy instructions (vmcnt), so an "
                            "async copy must carry its rows";
      return WalkResult::interrupt();
    }
    if (perGroup && *perGroup != n) {
      copy.emitOpError() << "issues " << n << " copy instructions but "
                         << "another group of this schedule issues "
                         << *perGroup << ": vmcnt waits on " << target.name
                         << " need every group to issue the same number";
      return WalkResult::interrupt();
    }
    perGroup = n;
    return WalkResult::advance();
  });
  if (r.wasInterrupted())
    return failure();
  return perGroup.value_or(1);
}

void lowering::cloneBody(OpBuilder &b, Region &body, IRMapping &map) {
  if (body.empty())
    return;
  for (Operation &op : body.front())
    b.clone(op, map);
}

void lowering::inlineBodyBefore(RewriterBase &rw, Region &body, Operation *op) {
  if (body.empty())
    return;
  rw.inlineBlockBefore(&body.front(), op);
}

Value lowering::elementAddress(OpBuilder &b, Location loc, Value memref,
                               Value elem) {
  auto type = cast<MemRefType>(memref.getType());
  Value base = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, memref);
  Value bytes =
      arith::MulIOp::create(b, loc, elem,
                            arith::ConstantIndexOp::create(
                                b, loc, type.getElementTypeBitWidth() / 8));
  return arith::IndexCastOp::create(b, loc, b.getI64Type(),
                                    arith::AddIOp::create(b, loc, base, bytes));
}

LLVM::InlineAsmOp lowering::inlinePtx(OpBuilder &b, Location loc,
                                      StringRef text, StringRef constraints,
                                      ValueRange operands, Type result) {
  MLIRContext *ctx = b.getContext();
  return LLVM::InlineAsmOp::create(
      b, loc, result ? TypeRange{result} : TypeRange{}, operands,
      b.getStringAttr(text), b.getStringAttr(constraints),
      /*has_side_effects=*/b.getUnitAttr(), /*is_align_stack=*/UnitAttr(),
      LLVM::TailCallKindAttr::get(ctx, LLVM::tailcallkind::TailCallKind::None),
      /*asm_dialect=*/LLVM::AsmDialectAttr(), /*operand_attrs=*/ArrayAttr());
}

std::pair<Value, int64_t>
lowering::peelConstantIndex(OpBuilder &b, Location loc, Value index) {
  llvm::APInt c;
  if (matchPattern(index, m_ConstantInt(&c)))
    return {arith::ConstantIndexOp::create(b, loc, 0), c.getSExtValue()};
  if (auto sum = index.getDefiningOp<arith::AddIOp>())
    for (int side = 0; side < 2; ++side)
      if (matchPattern(sum->getOperand(side), m_ConstantInt(&c)))
        return {sum->getOperand(1 - side), c.getSExtValue()};
  return {index, 0};
}

static int64_t elemsPerPiece(CopyRowOp row) {
  return 128 / cast<MemRefType>(row.getSrc().getType()).getElementTypeBitWidth();
}

void lowering::forEachThreadPiece(OpBuilder &b, Location loc, CopyRowOp row,
                                function_ref<void(Value)> emit) {
  Value tid = linearThreadId(b, loc, row);
  auto loop = scf::ForOp::create(
      b, loc, tid,
      arith::ConstantIndexOp::create(b, loc, row.getRowBytes() / 16),
      workgroupThreads(b, loc, row));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(loop.getBody()->getTerminator());
  emit(arith::MulIOp::create(
      b, loc, loop.getInductionVar(),
      arith::ConstantIndexOp::create(b, loc, elemsPerPiece(row))));
}

void lowering::forEachWaveRegion(OpBuilder &b, Location loc, CopyRowOp row,
                               const TargetInfo &target,
                               function_ref<void(Value, int64_t)> emit) {
  const int64_t perPiece = elemsPerPiece(row);
  const int64_t pieces = row.getRowBytes() / 16, wave = target.waveSize;
  auto c = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  Value tid = linearThreadId(b, loc, row);
  Value firstWave =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, tid, c(wave));
  auto ifOp = scf::IfOp::create(b, loc, firstWave, /*withElse=*/false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(ifOp.thenBlock()->getTerminator());
  for (int64_t r = 0; r < globalLoadLdsInstructions(row.getRowBytes(), target);
       ++r) {
    Value piece = arith::RemUIOp::create(
        b, loc, arith::AddIOp::create(b, loc, tid, c(r * wave)), c(pieces));
    emit(arith::MulIOp::create(b, loc, piece, c(perPiece)),
         r * wave * perPiece);
  }
}

LogicalResult lowering::emitAsyncCopyBody(OpBuilder &b, AsyncCopyOp op,
                                          const TargetInfo *target,
                                          int64_t ringSlots) {
  Location loc = op.getLoc();
  IRMapping map;
  Value pred = op.getPred();
  if (!pred) {
    cloneBody(b, op.getBody(), map);
    return success();
  }
  const bool sink = target && target->waitsCountInstructions();
  auto ifOp = scf::IfOp::create(b, loc, pred, /*withElse=*/sink);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(ifOp.thenBlock()->getTerminator());
  cloneBody(b, op.getBody(), map);
  if (!sink)
    return success();
  // Without a trip count the sink rows would issue nothing (the group
  // empty where the waits count instructions): refused, as the verifier
  // refuses it (R0).
  auto schedule = op->getParentOfType<ScheduleOp>();
  if (!schedule ||
      (!schedule.getTripCount() && !schedule.getDynamicTripCount()))
    return op.emitOpError("a predicated copy on ")
           << target->name << " needs its schedule's trip count (for the sink)";
  b.setInsertionPoint(ifOp.elseBlock()->getTerminator());
  auto c = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  Value trips = scheduleTripCount(b, loc, schedule);
  auto ifAny = scf::IfOp::create(
      b, loc,
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sgt, trips, c(0)),
      /*withElse=*/false);
  b.setInsertionPoint(ifAny.thenBlock()->getTerminator());
  IRMapping toSink;
  toSink.map(op.getIter(),
             arith::MinUIOp::create(b, loc, op.getIter(),
                                    arith::SubIOp::create(b, loc, trips, c(1))));
  toSink.map(op.getSlot(), c(ringSlots));
  cloneBody(b, op.getBody(), toSink);
  return success();
}

LogicalResult lowering::CopyRowPattern::matchAndRewrite(
    CopyRowOp op, PatternRewriter &rw) const {
  if (!op.getAtom() || *op.getAtom() != atom)
    return failure();
  RowCopy row{op, op.getLoc(),
              cast<MemRefType>(op.getSrc().getType()).getElementType(),
              elemsPerPiece(op)};
  if (failed(lowerRow(row, rw)))
    return failure();
  rw.eraseOp(op);
  return success();
}

LogicalResult
lowering::CopyPiecePattern::matchAndRewrite(CopyPieceOp op,
                                            PatternRewriter &rw) const {
  if (op.getAtom() != atom)
    return failure();
  lowerPiece(
      op,
      VectorType::get({op.getPieceElems()},
                      cast<MemRefType>(op.getSrc().getType()).getElementType()),
      rw);
  rw.eraseOp(op);
  return success();
}

namespace {
/// kda.copy_row atom(staged): each piece a vector load into registers and a
/// vector store to LDS.
struct StagedCopyRowLowering : lowering::CopyRowPattern {
  StagedCopyRowLowering(MLIRContext *ctx)
      : CopyRowPattern(ctx, CopyAtom::Staged) {}
  LogicalResult lowerRow(const lowering::RowCopy &r,
                         PatternRewriter &rw) const override {
    CopyRowOp op = r.op;
    Location loc = r.loc;
    auto vt = VectorType::get({r.perPiece}, r.elem);
    Value dst = lowering::ldsElementView(rw, loc, op.getLds(), op.getByte(),
                                       op.getElems(), r.elem);
    lowering::forEachThreadPiece(rw, loc, op, [&](Value e) {
      Value v = vector::LoadOp::create(
          rw, loc, vt, op.getSrc(),
          ValueRange{arith::AddIOp::create(rw, loc, op.getOffset(), e)},
          /*nontemporal=*/false, llvm::MaybeAlign(16));
      vector::StoreOp::create(rw, loc, v, dst, ValueRange{e},
                              /*nontemporal=*/false, llvm::MaybeAlign(16));
    });
    return success();
  }
};
/// kda.copy_piece atom(staged): the piece loaded into registers where it
/// is valid (zeros where not: nothing read), then stored to LDS.
struct StagedCopyPieceLowering : lowering::CopyPiecePattern {
  StagedCopyPieceLowering(MLIRContext *ctx)
      : CopyPiecePattern(ctx, CopyAtom::Staged) {}
  void lowerPiece(CopyPieceOp op, VectorType vt,
                  PatternRewriter &rw) const override {
    Location loc = op.getLoc();
    auto ifOp = scf::IfOp::create(rw, loc, TypeRange{vt}, op.getValid(),
                                  /*withElse=*/true);
    {
      OpBuilder::InsertionGuard guard(rw);
      rw.setInsertionPointToStart(ifOp.thenBlock());
      Value v = vector::LoadOp::create(
          rw, loc, vt, op.getSrc(), ValueRange{op.getOffset()},
          /*nontemporal=*/false, llvm::MaybeAlign(16));
      scf::YieldOp::create(rw, loc, v);
      rw.setInsertionPointToStart(ifOp.elseBlock());
      scf::YieldOp::create(
          rw, loc,
          Value(arith::ConstantOp::create(rw, loc, vt, rw.getZeroAttr(vt))));
    }
    vector::StoreOp::create(rw, loc, ifOp.getResult(0), op.getLds(),
                            ValueRange{op.getIndex()}, /*nontemporal=*/false,
                            llvm::MaybeAlign(16));
  }
};
} // namespace

void lowering::populateStagedCopyPatterns(RewritePatternSet &patterns) {
  patterns.add<StagedCopyRowLowering, StagedCopyPieceLowering>(
      patterns.getContext());
}

LogicalResult mlir::kda::checkCopyAtoms(Operation *root,
                                        const TargetInfo &target) {
  // A per-thread piece: staged anywhere, cp_async where it is the chip's.
  WalkResult pieces = root->walk([&](CopyPieceOp piece) {
    CopyAtomKind kind = toCopyAtomKind(piece.getAtom());
    if (kind == CopyAtomKind::Staged || kind == target.copyAtom)
      return WalkResult::advance();
    piece.emitOpError() << "copy atom " << stringifyCopyAtom(kind)
                        << " is not available on " << target.name << " ("
                        << target.stands << "; its per-thread pieces are "
                        << "staged)";
    return WalkResult::interrupt();
  });
  if (pieces.wasInterrupted())
    return failure();
  WalkResult r = root->walk([&](CopyRowOp row) {
    if (!row.getAtom()) {
      row.emitOpError("has no copy atom: it must sit in a kda.produce body "
                      "(kda-expand-pipeline sets the atom) or name one");
      return WalkResult::interrupt();
    }
    CopyAtomKind kind = toCopyAtomKind(*row.getAtom());
    if (kind != CopyAtomKind::Staged && kind != target.copyAtom) {
      row.emitOpError() << "copy atom " << stringifyCopyAtom(kind)
                        << " is not available on " << target.name << " ("
                        << target.stands << "; it has staged"
                        << (target.asyncCopy()
                                ? (", " + stringifyCopyAtom(target.copyAtom))
                                      .str()
                                : std::string())
                        << ")";
      return WalkResult::interrupt();
    }
    if (std::optional<std::string> why =
            globalLoadLdsWaveProblem(row, target)) {
      row.emitOpError() << "cannot be issued as global_load_lds: " << *why;
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return failure(r.wasInterrupted());
}
