//===- MmaToNVVM.cpp - kda.mma -> nvvm.mma.sync ---------------------------===//
//
// mma.sync m16n8k16 bf16 takes its A and B fragments as .b32 registers of two
// bf16 each (element 2i in the low half, as the PTX ISA numbers a0, a1, ...)
// and returns D as four f32: the fragment vectors are bitcast to i32 pairs,
// and the struct result is reassembled into the D fragment.
//
//===----------------------------------------------------------------------===//
#include "kda/Dialect/KDA/KDAOps.h"
#include "kda/Passes/AtomLowering.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

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
} // namespace

void mlir::kda::populateMmaToNVVMPatterns(RewritePatternSet &patterns,
                                          const TargetInfo &target) {
  patterns.add<MmaToMmaSync>(patterns.getContext(), target);
}
