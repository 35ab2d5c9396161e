//===- KdaMath.cpp - the per-element math of KDA --------------------------===//
#include "kda/Passes/KdaMath.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"

#include <limits>

using namespace mlir;
using namespace mlir::kda;

static Value constF32(OpBuilder &b, Location loc, double v) {
  return arith::ConstantOp::create(b, loc, b.getF32FloatAttr(v));
}

Value mlir::kda::emitFastExp(OpBuilder &b, Location loc, Value x) {
  return math::ExpOp::create(b, loc, x, arith::FastMathFlags::afn);
}

Value mlir::kda::emitSigmoid(OpBuilder &b, Location loc, Value x) {
  Value e = emitFastExp(b, loc, arith::NegFOp::create(b, loc, x));
  Value one = constF32(b, loc, 1.0);
  return arith::DivFOp::create(b, loc, one,
                               arith::AddFOp::create(b, loc, one, e),
                               arith::FastMathFlags::afn);
}

/// log(1 + y) accurate for small y (Kahan's form: log(u) y / (u - 1) with
/// u = 1 + y rounded, y itself where u rounds to 1). MathToLLVM lowers
/// math.log1p to log(1 + y), which is 0 below y ~ 6e-8, so softplus(-20)
/// came out 0: a decay of 1 where exp(A_log) softplus is large (A_log 30).
static Value emitLog1p(OpBuilder &b, Location loc, Value y) {
  Value one = constF32(b, loc, 1.0);
  Value u = arith::AddFOp::create(b, loc, one, y);
  Value exact =
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, u, one);
  Value scale =
      arith::DivFOp::create(b, loc, y, arith::SubFOp::create(b, loc, u, one));
  Value corrected =
      arith::MulFOp::create(b, loc, math::LogOp::create(b, loc, u), scale);
  return arith::SelectOp::create(b, loc, exact, y, corrected);
}

Value mlir::kda::emitExpALog(OpBuilder &b, Location loc, Value aLog) {
  Value e = math::ExpOp::create(b, loc, aLog);
  return arith::MinimumFOp::create(
      b, loc, e, constF32(b, loc, double(std::numeric_limits<float>::max())));
}

Value mlir::kda::emitGate(OpBuilder &b, Location loc, LayerAttr layer,
                          Value raw, Value expALog) {
  switch (layer.getGate()) {
  case GateKind::None:
    return arith::MaximumFOp::create(b, loc, raw,
                                     constF32(b, loc, -kGateFloor));
  case GateKind::Softplus: {
    Value twenty = constF32(b, loc, 20.0);
    Value x20 = arith::MinimumFOp::create(b, loc, raw, twenty);
    Value sp = emitLog1p(b, loc, math::ExpOp::create(b, loc, x20));
    Value big =
        arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT, raw, twenty);
    Value softplus = arith::SelectOp::create(b, loc, big, raw, sp);
    Value g = arith::NegFOp::create(
        b, loc, arith::MulFOp::create(b, loc, expALog, softplus));
    return arith::MaximumFOp::create(b, loc, g, constF32(b, loc, -kGateFloor));
  }
  case GateKind::LowerBound: {
    Value x = expALog ? arith::MulFOp::create(b, loc, expALog, raw).getResult()
                      : raw;
    double lb = layer.getLowerBound().convertToDouble();
    return arith::MulFOp::create(b, loc, constF32(b, loc, lb),
                                 emitSigmoid(b, loc, x));
  }
  }
  llvm_unreachable("gate kind");
}

Value mlir::kda::emitBeta(OpBuilder &b, Location loc, LayerAttr layer,
                          Value raw) {
  switch (layer.getBeta()) {
  case BetaMode::Given:
    return raw;
  case BetaMode::Sigmoid:
    return emitSigmoid(b, loc, raw);
  case BetaMode::SigmoidX2:
    return arith::MulFOp::create(b, loc, constF32(b, loc, 2.0),
                                 emitSigmoid(b, loc, raw));
  }
  llvm_unreachable("beta mode");
}
