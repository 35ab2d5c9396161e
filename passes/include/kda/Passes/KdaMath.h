//===- KdaMath.h - the per-element math of KDA, for kernel builders -*- C++ -*-===//
//
// The gate kinds and beta modes of KDA-MATH.md section 1 as arith/math ops
// on f32 values, shared by every kernel builder so the recurrent and chunk
// kernels compute the same function of the same inputs.
//
//===----------------------------------------------------------------------===//
#ifndef KDA_PASSES_KDAMATH_H
#define KDA_PASSES_KDAMATH_H

#include "kda/Dialect/KDA/KDAAttrs.h"
#include "mlir/IR/Builders.h"

namespace mlir::kda {

/// exp(x) where a few ulp do not matter (math.exp with fastmath afn: the
/// targets may use their native exp2, e.g. ex2.approx on NVPTX, where the
/// accurate expansion costs about ten instructions).
Value emitFastExp(OpBuilder &b, Location loc, Value x);

/// 1 / (1 + exp(-x)), both approximate (afn).
Value emitSigmoid(OpBuilder &b, Location loc, Value x);

/// exp(A_log[h]) from the loaded f32 `aLog`, at most the largest float: an
/// A_log above ~88.7 would make inf, and inf x 0 (a raw gate of exactly 0,
/// or a softplus that underflowed) is NaN where the float64 oracle's decay
/// is finite.
Value emitExpALog(OpBuilder &b, Location loc, Value aLog);

/// The lowest log decay a gate step yields, in nats. Every exp of a decay
/// sum that holds such a step is 0 in f32 (e^-104 is below its smallest
/// subnormal; the other steps are <= 0, KDA-MATH.md section 1), so the
/// floor changes no result; it keeps g finite when the softplus gate's
/// exp(A_log) x softplus overflows or the gate 'none' is given -inf (or
/// -3e38 and more: an f64 cumsum then overflows f32), where the chunk
/// path's cumulative differences would be (-inf) - (-inf) = NaN.
constexpr double kGateFloor = 256.0;

/// The per-channel log decay g = gate(raw) of `layer` (<= 0, >= -kGateFloor
/// for softplus and none), where `raw` already has dt_bias added and `expALog`
/// is emitExpALog's (null when the layer has no A_log). softplus clamps exp's
/// input so its unused branch never makes inf.
Value emitGate(OpBuilder &b, Location loc, LayerAttr layer, Value raw,
               Value expALog);

/// beta from its input: sigmoid, 2 * sigmoid, or as given.
Value emitBeta(OpBuilder &b, Location loc, LayerAttr layer, Value raw);

} // namespace mlir::kda

#endif // KDA_PASSES_KDAMATH_H
