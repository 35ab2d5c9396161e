//===- FastMathToNVVM.cpp - approximate f32 math -> ex2 / rcp .approx.ftz -===//
//
// The kernel builders mark the gate's exponentials, the sigmoid's
// reciprocal (KdaMath.cpp), the decode kernel's l2norm factors and the
// chunk path's decay factors (exp2) approximate (fastmath afn). Left to the default
// lowering, NVPTX takes libdevice's __nv_fast_expf and the approximate
// division, both in their forms that keep subnormals: ptxas wraps each
// MUFU in range checks and rescaling (an exp becomes 4 instructions, a
// division 7). ncu on the H200 decode kernels at N 128 (2026-12-01) counted
// those wrappers at 9-12% of the bf16-state pools' instructions, which are
// issue-bound.
//
// The .ftz forms are one MUFU each. Flushing is exact enough for every afn
// use the builders make: the sigmoid's reciprocal takes 1 + e >= 1 (never
// subnormal; 1 / inf is 0 either way), the norms' sums take eps = 1e-6, and a decay factor below 2^-126
// multiplies a state whose f32 rounding is already larger than the factor's
// whole contribution (the chunk path's anchored factors are bounded within
// e^+-40, ChunkKernelBuilder.cpp). Only f32 scalars with afn are rewritten; everything
// else keeps the default (IEEE) lowering.
//
//===----------------------------------------------------------------------===//
#include "kda/Passes/AtomLowering.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Matchers.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::kda;

namespace {

/// An f32 scalar op that carries fastmath afn.
template <typename OpT> bool isApproximateF32(OpT op) {
  return op.getType().isF32() &&
         arith::bitEnumContainsAll(op.getFastmath(),
                                   arith::FastMathFlags::afn);
}

Value approxRcp(PatternRewriter &rewriter, Location loc, Value x) {
  return NVVM::RcpApproxFtzF32Op::create(rewriter, loc, x.getType(), x);
}

/// An f32 -> f32 NVVM intrinsic that the NVVM dialect has no op for.
Value approxIntrinsic(PatternRewriter &rewriter, Location loc, StringRef name,
                      Value x) {
  return LLVM::CallIntrinsicOp::create(rewriter, loc, x.getType(),
                                       rewriter.getStringAttr(name),
                                       ValueRange{x})
      .getResult(0);
}

/// exp(x) {afn} -> ex2.approx.ftz.f32(x * log2(e)) (the form of
/// __nv_fast_expf without its subnormal wrapper), exp2(x) {afn} ->
/// ex2.approx.ftz.f32(x): `log2Scale` is log2(e) or 1.
template <typename OpT> struct ApproxToEx2 : OpRewritePattern<OpT> {
  ApproxToEx2(MLIRContext *ctx, double log2Scale)
      : OpRewritePattern<OpT>(ctx), log2Scale(log2Scale) {}
  LogicalResult matchAndRewrite(OpT op,
                                PatternRewriter &rewriter) const override {
    if (!isApproximateF32(op))
      return failure();
    Location loc = op.getLoc();
    Value x = op.getOperand();
    if (log2Scale != 1.0)
      x = arith::MulFOp::create(
          rewriter, loc, x,
          arith::ConstantOp::create(rewriter, loc,
                                    rewriter.getF32FloatAttr(log2Scale)));
    rewriter.replaceOp(
        op, approxIntrinsic(rewriter, loc, "llvm.nvvm.ex2.approx.ftz.f", x));
    return success();
  }
  double log2Scale;
};

/// a / b {afn} -> a * rcp.approx.ftz.f32(b); 1 / b -> the reciprocal alone;
/// 1 / sqrt(x) -> rsqrt.approx.ftz.f32(x) (the l2norm's factors).
struct ApproxDivToRcp : OpRewritePattern<arith::DivFOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(arith::DivFOp op,
                                PatternRewriter &rewriter) const override {
    if (!isApproximateF32(op))
      return failure();
    Location loc = op.getLoc();
    bool one = matchPattern(op.getLhs(), m_OneFloat());
    if (auto sqrt = op.getRhs().getDefiningOp<math::SqrtOp>();
        one && sqrt && sqrt.getType().isF32()) { // 1 / sqrt(x): one rsqrt
      rewriter.replaceOp(op, approxIntrinsic(rewriter, loc,
                                             "llvm.nvvm.rsqrt.approx.ftz.f",
                                             sqrt.getOperand()));
      return success();
    }
    Value r = approxRcp(rewriter, loc, op.getRhs());
    if (one) {
      rewriter.replaceOp(op, r);
      return success();
    }
    rewriter.replaceOpWithNewOp<arith::MulFOp>(op, op.getLhs(), r);
    return success();
  }
};

} // namespace

void mlir::kda::populateFastMathToNVVMPatterns(RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<ApproxToEx2<math::ExpOp>>(ctx, llvm::numbers::log2e);
  patterns.add<ApproxToEx2<math::Exp2Op>>(ctx, 1.0);
  patterns.add<ApproxDivToRcp>(ctx);
}
