//===- LdsModel.cpp - what the pipeline verifier's LDS models cover -------===//
#include "kda/Passes/LdsModel.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Index/IR/IndexOps.h"

#include "mlir/Dialect/LLVMIR/LLVMTypes.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"
#include <limits>

using namespace mlir;
using namespace mlir::kda;

bool mlir::kda::isBarrier(Operation *op) {
  StringRef name = op->getName().getStringRef();
  return llvm::StringSwitch<bool>(name)
      .Cases({"gpu.barrier", "kda.barrier", "kda.lds_barrier",
              "amdgpu.lds_barrier"},
             true)
      .Cases({"nvvm.barrier", "nvvm.barrier0", "nvvm.barrier.arrive"}, true)
      .Cases({"rocdl.barrier", "rocdl.s.barrier", "rocdl.s.barrier.signal",
              "rocdl.s.barrier.signal.var", "rocdl.s.barrier.signal.isfirst",
              "rocdl.s.barrier.wait", "rocdl.s.barrier.join"},
             true)
      .Default(name.contains("barrier"));
}

bool mlir::kda::keepsBase(Operation *op) {
  return isa<memref::CastOp, memref::SubViewOp, memref::ReinterpretCastOp,
             memref::ExpandShapeOp, memref::CollapseShapeOp>(op);
}

bool mlir::kda::staticStridedLayout(MemRefType type,
                                    SmallVectorImpl<int64_t> &strides,
                                    int64_t &offset) {
  return succeeded(type.getStridesAndOffset(strides, offset)) &&
         !ShapedType::isDynamic(offset) &&
         llvm::none_of(strides, ShapedType::isDynamic);
}

bool mlir::kda::isWorkgroupMemRefType(Type t) {
  auto m = dyn_cast<MemRefType>(t);
  return m && gpu::GPUDialect::hasWorkgroupMemoryAddressSpace(m);
}

bool mlir::kda::isUntrackedLdsType(Type t) {
  if (auto m = dyn_cast<MemRefType>(t)) {
    auto space = dyn_cast_or_null<IntegerAttr>(m.getMemorySpace());
    return space && space.getInt() == 3;
  }
  if (auto ptr = dyn_cast<LLVM::LLVMPointerType>(t))
    return ptr.getAddressSpace() == 3;
  return t.getDialect().getNamespace() == "ptr";
}

bool mlir::kda::endsThreads(Operation *op) {
  StringRef name = op->getName().getStringRef();
  return name.ends_with(".exit") || name.contains("trap") ||
         name.contains("endpgm") || name == "llvm.unreachable";
}

std::optional<int64_t> mlir::kda::elementBytes(Type t) {
  int64_t bits = 0;
  if (t.isIndex())
    bits = 64;
  else if (t.isIntOrFloat())
    bits = t.getIntOrFloatBitWidth();
  else if (auto v = dyn_cast<VectorType>(t); v && v.hasStaticShape() &&
                                             !v.isScalable() &&
                                             v.getElementType().isIntOrFloat())
    bits = v.getNumElements() * int64_t(v.getElementTypeBitWidth());
  const int64_t bytes = (bits + 7) / 8;
  if (bytes <= 0)
    return std::nullopt;
  // LLVM pads an element to its alignment, the next power of two on the
  // targets here (i24: 4 bytes, vector<3xf32>: 16).
  return int64_t(llvm::PowerOf2Ceil(uint64_t(bytes)));
}

std::optional<int64_t> mlir::kda::memrefBytes(MemRefType t) {
  std::optional<int64_t> total = elementBytes(t.getElementType());
  if (!total || !t.hasStaticShape())
    return std::nullopt;
  for (int64_t d : t.getShape())
    if (llvm::MulOverflow(*total, d, *total))
      return std::nullopt;
  return total;
}

std::optional<int64_t> mlir::kda::reservedDynamicLds(Operation *kernel) {
  Attribute a = kernel ? kernel->getAttr("kda.dynamic_lds_bytes") : nullptr;
  if (!a)
    return std::nullopt;
  auto bytes = dyn_cast<IntegerAttr>(a);
  if (!bytes || bytes.getType().isInteger(1) || bytes.getValue().isNegative())
    return 0;
  if (bytes.getValue().getActiveBits() > 62)
    return std::numeric_limits<int64_t>::max() / 2;
  return bytes.getValue().getZExtValue();
}

bool mlir::kda::mayBeUndefinedDivision(Operation *def,
                                       ArrayRef<ConstantIntRanges> args) {
  // The index dialect's divisions are as undefined there (its range rules
  // assume the same): index.remu(x, index.minu(bid, 256)) went through.
  if (!isa<arith::DivUIOp, arith::DivSIOp, arith::RemUIOp, arith::RemSIOp,
           arith::CeilDivUIOp, arith::CeilDivSIOp, arith::FloorDivSIOp,
           index::DivUOp, index::DivSOp, index::RemUOp, index::RemSOp,
           index::CeilDivUOp, index::CeilDivSOp, index::FloorDivSOp>(def) ||
      args.size() != 2)
    return false;
  const ConstantIntRanges &num = args[0], &den = args[1];
  auto contains = [](const ConstantIntRanges &r, const APInt &v) {
    return r.smin().sle(v) && r.smax().sge(v) && r.umin().ule(v) &&
           r.umax().uge(v);
  };
  const unsigned width = den.umin().getBitWidth();
  if (contains(den, APInt::getZero(width)))
    return true;
  const bool isSigned = isa<arith::DivSIOp, arith::RemSIOp, arith::CeilDivSIOp,
                            arith::FloorDivSIOp, index::DivSOp, index::RemSOp,
                            index::CeilDivSOp, index::FloorDivSOp>(def);
  if (isSigned && contains(den, APInt::getAllOnes(width)) &&
      contains(num, APInt::getSignedMinValue(width)))
    return true;
  // MLIR's rule for ceildivsi takes ceildivsi(INT_MIN, 2) as +2^(w-2),
  // where the expansion every lowering runs (a / b, plus one where inexact
  // and the signs agree) computes -2^(w-2) (campaign 16): no range where
  // the numerator may be the smallest value. (index.ceildivs unions the
  // 32-bit result and stays sound.)
  return isa<arith::CeilDivSIOp>(def) &&
         contains(num, APInt::getSignedMinValue(width));
}

std::optional<StringRef> mlir::kda::poisonFlags(Operation *op) {
  if (auto flags = dyn_cast<arith::ArithIntegerOverflowFlagsInterface>(op);
      flags &&
      flags.getOverflowAttr().getValue() != arith::IntegerOverflowFlags::none)
    return StringRef("overflow flags (nsw, nuw)");
  const bool exact =
      llvm::TypeSwitch<Operation *, bool>(op)
          .Case<arith::DivUIOp, arith::DivSIOp, arith::ShRUIOp, arith::ShRSIOp>(
              [](auto x) { return x.getIsExact(); })
          .Default(false);
  if (exact)
    return StringRef("the exact flag");
  return std::nullopt;
}

std::optional<std::string> mlir::kda::outsideLdsModel(Operation *op) {
  if (endsThreads(op))
    return std::string("it may end threads early, and the threads that leave "
                       "are ordered by none of the barriers the others meet");
  if (llvm::any_of(op->getOperandTypes(), isUntrackedLdsType) ||
      llvm::any_of(op->getResultTypes(), isUntrackedLdsType))
    return std::string("it reaches LDS as integer address space 3 or through "
                       "a pointer, which the verifier neither places nor "
                       "counts (use #gpu.address_space<workgroup>)");
  return std::nullopt;
}

/// `x` where `x pred bound` holds (signed; unsigned predicates only where
/// both ranges are non-negative, where they agree); nullopt when the
/// predicate cannot narrow it.
static std::optional<ConstantIntRanges> narrow(const ConstantIntRanges &x,
                                               arith::CmpIPredicate pred,
                                               const ConstantIntRanges &bound) {
  using P = arith::CmpIPredicate;
  const bool isUnsigned =
      pred == P::ult || pred == P::ule || pred == P::ugt || pred == P::uge;
  if (isUnsigned && (x.smin().isNegative() || bound.smin().isNegative()))
    return std::nullopt;
  APInt lo = x.smin(), hi = x.smax();
  const unsigned w = lo.getBitWidth();
  switch (pred) {
  case P::ult:
  case P::slt:
    if (bound.smax().isMinSignedValue())
      return std::nullopt;
    hi = llvm::APIntOps::smin(hi, bound.smax() - APInt(w, 1));
    break;
  case P::ule:
  case P::sle:
    hi = llvm::APIntOps::smin(hi, bound.smax());
    break;
  case P::ugt:
  case P::sgt:
    if (bound.smin().isMaxSignedValue())
      return std::nullopt;
    lo = llvm::APIntOps::smax(lo, bound.smin() + APInt(w, 1));
    break;
  case P::uge:
  case P::sge:
    lo = llvm::APIntOps::smax(lo, bound.smin());
    break;
  default:
    return std::nullopt;
  }
  if (lo.sgt(hi))
    return std::nullopt; // the branch never runs: leave it to the union
  return ConstantIntRanges::fromSigned(lo, hi);
}

/// The predicate with its operands exchanged (a < b as b > a).
static arith::CmpIPredicate swapped(arith::CmpIPredicate pred) {
  using P = arith::CmpIPredicate;
  static constexpr std::pair<P, P> kPairs[] = {
      {P::slt, P::sgt}, {P::sle, P::sge}, {P::ult, P::ugt}, {P::ule, P::uge}};
  for (auto [x, y] : kPairs) {
    if (pred == x)
      return y;
    if (pred == y)
      return x;
  }
  return pred; // eq, ne
}

// The builders' clamp, select(x < n, x, 0) (a wave past the last piece
// takes piece 0): each operand narrowed by the condition that picks it,
// which InferIntRangeInterface's union of the two does not do.
static std::optional<ConstantIntRanges>
selectRange(arith::SelectOp select,
            llvm::function_ref<ConstantIntRanges(Value)> rangeOf) {
  auto cmp = select.getCondition().getDefiningOp<arith::CmpIOp>();
  if (!cmp || !select.getType().isIntOrIndex())
    return std::nullopt;
  using P = arith::CmpIPredicate;
  // A branch's value narrowed where the comparison (or its negation) holds.
  auto branch = [&](Value v, bool whenTrue) {
    ConstantIntRanges r = rangeOf(v);
    P pred = whenTrue ? cmp.getPredicate()
                      : arith::invertPredicate(cmp.getPredicate());
    std::optional<ConstantIntRanges> n;
    if (cmp.getLhs() == v)
      n = narrow(r, pred, rangeOf(cmp.getRhs()));
    else if (cmp.getRhs() == v)
      n = narrow(r, swapped(pred), rangeOf(cmp.getLhs()));
    return n ? *n : r;
  };
  return branch(select.getTrueValue(), true)
      .rangeUnion(branch(select.getFalseValue(), false));
}

unsigned mlir::kda::rangeWidth(Value v) {
  return v.getType().isIndex() ? IndexType::kInternalStorageBitWidth
                               : v.getType().getIntOrFloatBitWidth();
}

ConstantIntRanges
mlir::kda::rangeByRules(Value v,
                        llvm::function_ref<ConstantIntRanges(Value)> rangeOf) {
  const ConstantIntRanges unbounded =
      ConstantIntRanges::maxRange(rangeWidth(v));
  Operation *def = v.getDefiningOp();
  if (!def)
    return unbounded;
  if (auto select = dyn_cast<arith::SelectOp>(def))
    if (std::optional<ConstantIntRanges> r = selectRange(select, rangeOf))
      return *r;
  // The chips' own id registers (nvvm.read.ptx.sreg.tid.x, rocdl.workitem.
  // id.x, ...) take their range from a `range` annotation the kernel
  // states, as gpu's upper_bound: no range (campaign 16: tid.x range
  // <0, 63> in a 256-thread kernel).
  if (Dialect *d = def->getDialect();
      d && (d->getNamespace() == "nvvm" || d->getNamespace() == "rocdl"))
    return unbounded;
  // nsw / nuw / exact: the inferred range assumes the flag holds (tid -nuw
  // bid is taken as at least 0; (tid divui exact 4) * 4 as at most tid),
  // but where it does not the result is poison the code computes anyway
  // (-1 on the emulator; tid itself once LLVM folds the exact pair): no
  // bound, as the evaluators refuse them. The affine dialect's rules
  // likewise reason over unbounded integers while lower-affine emits nsw
  // arithmetic (d0 * 2^62 + 1 was ranged non-negative): no bound either.
  if (poisonFlags(def) ||
      isa_and_nonnull<affine::AffineDialect>(def->getDialect()))
    return unbounded;
  auto infer = dyn_cast<InferIntRangeInterface>(def);
  if (!infer)
    return unbounded;
  SmallVector<ConstantIntRanges> args;
  for (Value operand : def->getOperands()) {
    if (!operand.getType().isIntOrIndex())
      return unbounded;
    args.push_back(rangeOf(operand));
  }
  if (mayBeUndefinedDivision(def, args))
    return unbounded;
  ConstantIntRanges out = unbounded;
  infer.inferResultRanges(args, [&](Value r, const ConstantIntRanges &range) {
    if (r == v)
      out = range;
  });
  return out;
}

// Whether a loop counter of `width` bits (unsigned: compared as unsigned)
// steps from `last` by `step` past its type's largest value, where it
// wraps. In 128 bits: no 64-bit sum overflows there.
bool mlir::kda::steppedPastMax(const APInt &last, const APInt &step,
                               unsigned width, bool isUnsigned) {
  const APInt after = last.sext(128) + step.sext(128);
  const APInt max = isUnsigned ? APInt::getMaxValue(width).zext(128)
                               : APInt::getSignedMaxValue(width).sext(128);
  return after.sgt(max);
}
