//===- ScheduleLowering.h - shared pieces of schedule lowerings -*- C++ -*-===//
//
// What the AMDGPU, NVVM and emulator lowerings of verified schedules have in
// common: how a row is split over the workgroup's threads, the trip count, how
// many instructions a copy group issues, and inlining a schedule op's body.
// Private to passes/lib/Conversion.
//
//===----------------------------------------------------------------------===//
#ifndef KDA_PASSES_CONVERSION_SCHEDULELOWERING_H
#define KDA_PASSES_CONVERSION_SCHEDULELOWERING_H

#include "kda/Dialect/KDA/KDAOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::kda::lowering {

/// Threads of the enclosing kernel's workgroup: its known block size (a
/// constant, so copy loops have static trip counts), else the product of
/// gpu.block_dim's three dimensions.
Value workgroupThreads(OpBuilder &b, Location loc, Operation *at);

/// The thread's index in its workgroup, x fastest (its wave is index /
/// wave size on every chip): thread_id x in a block known to be 1-D.
/// Copy rows split their pieces by it, so a 2-D block copies every piece
/// once.
Value linearThreadId(OpBuilder &b, Location loc, Operation *at);

/// Makes each schedule's dynamic trip count T under `root` what the
/// verifier proved it for, T >= 0: every use of T inside the schedule (its
/// own operand, its bodies' guards) reads max(T, 0). A negative T (a signed
/// index) otherwise ran the bodies outside the proof: a last read guarded by
/// `T != 0` held at T = -1 and read iteration -2 from a slot no copy wrote.
/// A T that is already `arith.maxsi` with a constant >= 0 (kda's builders
/// clamp theirs) or a constant is left as it is.
void clampDynamicTripCounts(Operation *root);

/// The trip count of `schedule` as an index value.
Value scheduleTripCount(OpBuilder &b, Location loc, ScheduleOp schedule);

/// A view of `elems` elements of `elem` at LDS byte `byte` of the i8
/// workgroup allocation `lds`.
Value ldsElementView(OpBuilder &b, Location loc, Value lds, Value byte,
                     int64_t elems, Type elem);

/// Wave-level instructions a global_load_lds copy of `rowBytes` issues: one
/// per waveSize x 16 bytes.
int64_t globalLoadLdsInstructions(int64_t rowBytes, const TargetInfo &target);

/// Instructions every async copy group of `schedule` issues (the vmcnt unit
/// of its waits); failure, with a diagnostic, when groups differ or a copy
/// has no rows to count.
FailureOr<int64_t> instructionsPerAsyncGroup(ScheduleOp schedule,
                                             const TargetInfo &target);

/// True while `schedule` still holds `OpT` ops (lowerings that need them to
/// count instructions run first).
template <typename OpT> bool scheduleHolds(Operation *op) {
  auto s = op->getParentOfType<ScheduleOp>();
  if (!s)
    return false;
  bool found = false;
  s.walk([&](OpT) { found = true; });
  return found;
}

/// The 16-byte pieces this thread copies of a row: tid, tid + threads, ...
/// (the staged and cp.async atoms). Calls `emit(pieceElem)` inside the loop
/// with the piece's first element within the row.
void forEachThreadPiece(OpBuilder &b, Location loc, CopyRowOp row,
                        function_ref<void(Value pieceElem)> emit);

/// The global_load_lds atom's split: under `tid < waveSize`, for each region
/// r of waveSize x 16 bytes, calls `emit(srcElem, regionElem)` with the row
/// element this lane copies (piece r * waveSize + lane, modulo the row's
/// pieces) and the region's first element in the destination.
void forEachWaveRegion(OpBuilder &b, Location loc, CopyRowOp row,
                       const TargetInfo &target,
                       function_ref<void(Value srcElem, int64_t regionElem)>
                           emit);

/// An async copy's body under its predicate. On targets whose waits count
/// instructions (global_load_lds), a predicated-off copy issues the same
/// instructions: the body again for iteration min(iter, T - 1) into the sink
/// slot one past the ring (nothing reads it; with T = 0 nothing is read
/// and nothing is issued).
/// `ringSlots` is the ring's slot count (the sink's slot index); a null
/// `target` counts groups.
LogicalResult emitAsyncCopyBody(OpBuilder &b, AsyncCopyOp op,
                                const TargetInfo *target, int64_t ringSlots);

/// Clones the ops of the single block of `body` before the insertion point
/// of `b`, values remapped by `map`.
void cloneBody(OpBuilder &b, Region &body, IRMapping &map);
/// Moves the ops of the single block of `body` before `op`.
void inlineBodyBefore(RewriterBase &rw, Region &body, Operation *op);

/// The byte address (i64) of element `elem` of the flat memref `memref`:
/// its aligned pointer plus elem x the element's bytes.
Value elementAddress(OpBuilder &b, Location loc, Value memref, Value elem);

/// `index` as a value and a constant part (a constant: 0 and it; an
/// arith.addi of a value and a constant: both; else the index and 0), so a
/// lowering can carry the constant as an instruction's immediate and the
/// accesses of one base share its registers.
std::pair<Value, int64_t> peelConstantIndex(OpBuilder &b, Location loc,
                                            Value index);

/// Inline PTX with side effects (never hoisted, merged or dropped), no tail
/// call, the default dialect: `text` over `operands` under `constraints`
/// (LLVM's spelling, e.g. "r,l,r" or "=f,=f,r,0,1"), one `result` type or none.
/// Every inline asm of the NVVM lowerings goes through here.
LLVM::InlineAsmOp inlinePtx(OpBuilder &b, Location loc, StringRef text,
                            StringRef constraints, ValueRange operands,
                            Type result = {});

/// A kda.copy_row of one atom being lowered: the element type and how many
/// elements a 16-byte piece holds.
struct RowCopy {
  CopyRowOp op;
  Location loc;
  Type elem;
  int64_t perPiece;
};

/// Base of the copy_row lowerings: matches rows of `atom`, erases the row
/// once `lowerRow` has emitted its instructions.
struct CopyRowPattern : OpRewritePattern<CopyRowOp> {
  CopyRowPattern(MLIRContext *ctx, CopyAtom atom)
      : OpRewritePattern<CopyRowOp>(ctx), atom(atom) {}
  LogicalResult matchAndRewrite(CopyRowOp op,
                                PatternRewriter &rw) const final;
  virtual LogicalResult lowerRow(const RowCopy &row,
                                 PatternRewriter &rw) const = 0;
  CopyAtom atom;
};

/// Base of the copy_piece lowerings, like CopyRowPattern's: matches pieces
/// of `atom`, erases the piece once `lowerPiece` has emitted its
/// instructions for its 16 bytes (`piece`: their vector type).
struct CopyPiecePattern : OpRewritePattern<CopyPieceOp> {
  CopyPiecePattern(MLIRContext *ctx, CopyAtom atom)
      : OpRewritePattern<CopyPieceOp>(ctx), atom(atom) {}
  LogicalResult matchAndRewrite(CopyPieceOp op,
                                PatternRewriter &rw) const final;
  virtual void lowerPiece(CopyPieceOp op, VectorType piece,
                          PatternRewriter &rw) const = 0;
  CopyAtom atom;
};

/// The staged atom: 16-byte pieces round-robin over the threads, each a
/// vector load into registers and a vector store to LDS. Shared by every
/// target, the emulator included.
void populateStagedCopyPatterns(RewritePatternSet &patterns);

} // namespace mlir::kda::lowering

#endif // KDA_PASSES_CONVERSION_SCHEDULELOWERING_H
