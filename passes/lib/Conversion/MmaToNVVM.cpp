//===- MmaToNVVM.cpp - matrix atoms -> nvvm (mma.sync, wgmma) -------------===//
//
// mma.sync m16n8k16 bf16 takes its A and B fragments as .b32 registers of two
// bf16 each (element 2i in the low half, as the PTX ISA numbers a0, a1, ...)
// and returns D as four f32: the fragment vectors are bitcast to i32 pairs,
// and the struct result is reassembled into the D fragment.
//
// wgmma (sm_90a) with A from registers has no op in MLIR 22's NVVM dialect
// (nvvm.wgmma.mma_async takes A by descriptor): it is inline PTX whose
// accumulators are tied in / out operands, preceded by wgmma.fence (the
// thread wrote A's and C's registers since any earlier wgmma). Its result is
// in flight until wgmma.wait_group: the wait is inline PTX too, returning
// the accumulators as tied operands, so nothing reads them before it (a
// wait without operands would let LLVM move their reads above it). B's
// descriptor comes from the shared-window address of the operand
// (wgmmaDescriptor). wgmma reads B through the async proxy: in a kernel
// that issues wgmma, every barrier is preceded by fence.proxy.async.shared
// ::cta, so the generic-proxy LDS writes it publishes are visible to the
// wgmma issued after it (the writer fences, then synchronises).
//
//===----------------------------------------------------------------------===//
#include "ScheduleLowering.h"
#include "kda/Dialect/KDA/KDAOps.h"
#include "kda/Passes/AtomLowering.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace mlir::kda;

namespace {

/// The scalars of `v`, after reinterpreting it as a vector of `elem`.
SmallVector<Value> scalarsAs(PatternRewriter &rewriter, Location loc, Value v,
                             Type elem) {
  auto type = cast<VectorType>(v.getType());
  unsigned bits = type.getNumElements() * type.getElementTypeBitWidth();
  auto as = VectorType::get({int64_t(bits / elem.getIntOrFloatBitWidth())},
                            elem);
  Value cast = as == type ? v : vector::BitCastOp::create(rewriter, loc, as, v);
  SmallVector<Value> out;
  for (int64_t i = 0; i < as.getNumElements(); ++i)
    out.push_back(vector::ExtractOp::create(rewriter, loc, cast, i));
  return out;
}

struct MmaToMmaSync : OpRewritePattern<MmaOp> {
  MmaToMmaSync(MLIRContext *ctx, const TargetInfo &target)
      : OpRewritePattern(ctx), target(target) {}

  LogicalResult matchAndRewrite(MmaOp op,
                                PatternRewriter &rewriter) const override {
    const MmaAtom *found =
        lowerableMmaAtom(op, MmaFamily::MmaSync, target, rewriter);
    if (!found)
      return failure();
    const MmaAtom &atom = *found;
    Location loc = op.getLoc();
    Type i32 = rewriter.getI32Type(), f32 = rewriter.getF32Type();
    SmallVector<Value> a = scalarsAs(rewriter, loc, op.getA(), i32);
    SmallVector<Value> b = scalarsAs(rewriter, loc, op.getB(), i32);
    SmallVector<Value> c = scalarsAs(rewriter, loc, op.getC(), f32);
    auto resultType = LLVM::LLVMStructType::getLiteral(
        rewriter.getContext(), SmallVector<Type>(c.size(), f32));
    auto mma = NVVM::MmaOp::create(
        rewriter, loc, resultType, a, b, c,
        /*shape=*/{int64_t(atom.m), int64_t(atom.n), int64_t(atom.k)},
        /*b1Op=*/std::nullopt, /*intOverflow=*/std::nullopt,
        std::array<NVVM::MMATypes, 2>{NVVM::MMATypes::bf16,
                                      NVVM::MMATypes::bf16},
        std::array<NVVM::MMALayout, 2>{NVVM::MMALayout::row,
                                       NVVM::MMALayout::col});
    SmallVector<Value> d;
    for (int64_t i = 0; i < int64_t(c.size()); ++i)
      d.push_back(LLVM::ExtractValueOp::create(rewriter, loc, mma.getRes(), i));
    rewriter.replaceOpWithNewOp<vector::FromElementsOp>(op, op.getType(), d);
    return success();
  }

  const TargetInfo &target;
};

/// Inline PTX with side effects whose f32 results are tied to its last
/// operands `tied` (LLVM's spelling of "+f"), the struct unpacked.
SmallVector<Value> inlinePtxTied(PatternRewriter &rw, Location loc,
                                 StringRef text, StringRef inConstraints,
                                 ValueRange inputs, ValueRange tied) {
  Type f32 = rw.getF32Type();
  SmallVector<std::string> cons(tied.size(), "=f");
  if (!inConstraints.empty())
    cons.push_back(inConstraints.str());
  for (size_t i = 0; i < tied.size(); ++i)
    cons.push_back(std::to_string(i));
  SmallVector<Value> operands(inputs);
  llvm::append_range(operands, tied);
  Type result = tied.empty() ? Type()
                : tied.size() == 1
                    ? f32
                    : LLVM::LLVMStructType::getLiteral(
                          rw.getContext(), SmallVector<Type>(tied.size(), f32));
  LLVM::InlineAsmOp asmOp = lowering::inlinePtx(
      rw, loc, text, llvm::join(cons, ","), operands, result);
  SmallVector<Value> out;
  if (tied.size() == 1)
    out.push_back(asmOp.getResult(0));
  else
    for (int64_t i = 0; i < int64_t(tied.size()); ++i)
      out.push_back(
          LLVM::ExtractValueOp::create(rw, loc, asmOp.getResult(0), i));
  return out;
}

/// "$first, $first + 1, ..., $first + count - 1".
std::string operandList(unsigned first, unsigned count) {
  SmallVector<std::string> names;
  for (unsigned i = 0; i < count; ++i)
    names.push_back("$" + std::to_string(first + i));
  return llvm::join(names, ", ");
}

/// The 64-bit descriptor of B at byte `offset` of `lds` (rank 1, identity
/// layout, shared window): the address fields computed at run time, the
/// offsets' fields constant.
Value descriptorOf(PatternRewriter &rw, Location loc, Value lds, Value offset,
                   const SharedOperandLayout &layout) {
  Type i64 = rw.getI64Type();
  Value base = memref::ExtractAlignedPointerAsIndexOp::create(rw, loc, lds);
  Value addr = arith::IndexCastOp::create(
      rw, loc, i64, arith::AddIOp::create(rw, loc, base, offset));
  auto c64 = [&](uint64_t v) -> Value {
    return arith::ConstantIntOp::create(rw, loc, int64_t(v), 64);
  };
  Value start = arith::AndIOp::create(
      rw, loc, arith::ShRUIOp::create(rw, loc, addr, c64(4)), c64(0x3fff));
  return arith::OrIOp::create(rw, loc, start, c64(wgmmaDescriptor(0, layout)));
}

struct WgmmaToPtx : OpRewritePattern<WgmmaOp> {
  WgmmaToPtx(MLIRContext *ctx, const TargetInfo &target)
      : OpRewritePattern(ctx), target(target) {}

  LogicalResult matchAndRewrite(WgmmaOp op,
                                PatternRewriter &rw) const override {
    MmaKind kind = op.getKind().getValue();
    if (!chipHasMmaAtom(target.chip, kind)) {
      emitAtomNotOnChip(op, kind, target);
      return failure();
    }
    const MmaAtom &atom = getMmaAtom(kind);
    Location loc = op.getLoc();
    SmallVector<Value> a = scalarsAs(rw, loc, op.getA(), rw.getI32Type());
    SmallVector<Value> c = scalarsAs(rw, loc, op.getC(), rw.getF32Type());
    // A constant part of B's offset is added to the descriptor in the PTX
    // (its start field, bytes >> 4: no carry, the shared window is below
    // 2^18 bytes), so the atoms of one buffer share one descriptor; as
    // values of their own, every atom's descriptor was loop-invariant and
    // LLVM hoisted them all out of the scan's chunk loop (sm_90's warpgroup
    // scan: 48 of them live across it, 1184 bytes spilled).
    // Only a multiple of 16: the descriptor keeps an address's bits from
    // the 16th, so a part carried apart must lose none (x + 8 with x = 8
    // mod 16 is aligned; x and 8 dropped apart would not be).
    auto [dynamic, constant] =
        lowering::peelConstantIndex(rw, loc, op.getOffset());
    if (constant % 16) {
      dynamic = op.getOffset();
      constant = 0;
    }
    Value desc =
        descriptorOf(rw, loc, op.getLds(), dynamic, op.getSharedLayout());
    const unsigned nd = unsigned(c.size());
    std::string descOperand = "$" + std::to_string(nd + 4);
    std::string add;
    if (constant) {
      add = ".reg .b64 d;\nadd.s64 d, " + descOperand + ", " +
            std::to_string(constant >> 4) + ";\n";
      descOperand = "d";
    }
    // D = A B + D (scale-d true), A and B unscaled, B K-major (imm-trans-b
    // 0) or MN-major (1).
    const char *transB = op.getBMnMajor() ? "1" : "0";
    std::string text = "{\n.reg .pred p;\nsetp.ne.b32 p, 1, 0;\n" + add +
                       atom.name.str() + " {" + operandList(0, nd) + "}, {" +
                       operandList(nd, 4) + "}, " + descOperand +
                       ", p, 1, 1, " + transB + ";\n}";
    if (!op->hasAttr(kWgmmaChainedAttr))
      NVVM::WgmmaFenceAlignedOp::create(rw, loc);
    SmallVector<Value> inputs(a);
    inputs.push_back(desc);
    SmallVector<Value> d = inlinePtxTied(rw, loc, text, "r,r,r,r,l", inputs, c);
    rw.replaceOpWithNewOp<vector::FromElementsOp>(op, op.getType(), d);
    return success();
  }

  const TargetInfo &target;
};

struct WgmmaCommitToNvvm : OpRewritePattern<WgmmaCommitOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(WgmmaCommitOp op,
                                PatternRewriter &rw) const override {
    rw.replaceOpWithNewOp<NVVM::WgmmaGroupSyncAlignedOp>(op);
    return success();
  }
};

struct WgmmaWaitToPtx : OpRewritePattern<WgmmaWaitOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(WgmmaWaitOp op,
                                PatternRewriter &rw) const override {
    Location loc = op.getLoc();
    SmallVector<Value> tied;
    for (Value v : op.getValues())
      llvm::append_range(tied, scalarsAs(rw, loc, v, rw.getF32Type()));
    std::string text = "wgmma.wait_group.sync.aligned " +
                       std::to_string(op.getPending()) + ";";
    SmallVector<Value> out = inlinePtxTied(rw, loc, text, "", {}, tied);
    SmallVector<Value> results;
    size_t at = 0;
    for (Value v : op.getValues()) {
      auto type = cast<VectorType>(v.getType());
      ArrayRef<Value> part(out.data() + at, type.getNumElements());
      at += type.getNumElements();
      results.push_back(vector::FromElementsOp::create(rw, loc, type, part));
    }
    rw.replaceOp(op, results);
    return success();
  }
};
} // namespace

void mlir::kda::populateMmaToNVVMPatterns(RewritePatternSet &patterns,
                                          const TargetInfo &target) {
  patterns.add<MmaToMmaSync, WgmmaToPtx>(patterns.getContext(), target);
  patterns.add<WgmmaCommitToNvvm, WgmmaWaitToPtx>(patterns.getContext());
}

void mlir::kda::fenceBarriersForWgmma(Operation *module) {
  // Module-wide: a wgmma in a function a kernel calls reads B its
  // kernel's barrier published.
  if (!module->walk([](WgmmaOp) { return WalkResult::interrupt(); })
           .wasInterrupted())
    return;
  module->walk([](Operation *op) {
    if (!isa<gpu::BarrierOp, BarrierOp, LdsBarrierOp, NVVM::Barrier0Op,
             NVVM::BarrierOp>(op))
      return;
    OpBuilder b(op);
    NVVM::FenceProxyOp::create(
        b, op->getLoc(),
        NVVM::ProxyKindAttr::get(b.getContext(), NVVM::ProxyKind::async_shared),
        NVVM::SharedSpaceAttr::get(b.getContext(),
                                   NVVM::SharedSpace::shared_cta));
  });
}

void mlir::kda::markWgmmaChains(Operation *module) {
  module->walk([](WgmmaOp op) {
    if (isa_and_nonnull<WgmmaOp>(op->getPrevNode()))
      op->setAttr(kWgmmaChainedAttr, UnitAttr::get(op.getContext()));
  });
}
