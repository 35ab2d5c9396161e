//===- KdaMath.cpp - the per-element math of KDA --------------------------===//
#include "kda/Passes/KdaMath.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"

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

Value mlir::kda::emitGate(OpBuilder &b, Location loc, LayerAttr layer,
                          Value raw, Value expALog) {
  switch (layer.getGate()) {
  case GateKind::None:
    return raw;
  case GateKind::Softplus: {
    Value twenty = constF32(b, loc, 20.0);
    Value x20 = arith::MinimumFOp::create(b, loc, raw, twenty);
    Value sp = math::Log1pOp::create(b, loc, math::ExpOp::create(b, loc, x20));
    Value big =
        arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT, raw, twenty);
    Value softplus = arith::SelectOp::create(b, loc, big, raw, sp);
    return arith::NegFOp::create(
        b, loc, arith::MulFOp::create(b, loc, expALog, softplus));
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
