//===- KDATileOps.cpp - the tile layer's ops ------------------------------===//
#include "kda/Dialect/KDA/KDAOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::kda;

/// The element type an atom's ScalarKind stands for.
static bool isScalar(Type t, ScalarKind kind) {
  switch (kind) {
  case ScalarKind::BF16:
    return t.isBF16();
  case ScalarKind::F16:
    return t.isF16();
  case ScalarKind::F32:
    return t.isF32();
  }
  return false;
}

LogicalResult MmaOp::verify() {
  const MmaAtom &atom = getKind().getAtom();
  if (atom.bFromSharedMemory())
    return emitOpError() << stringifyMmaKind(atom.kind)
                         << " is a warpgroup atom reading B from workgroup "
                            "memory: issue it with kda.wgmma";
  auto check = [&](StringRef operand, Value v, const FragmentLayout &layout,
                   ScalarKind elem) -> LogicalResult {
    auto type = cast<VectorType>(v.getType());
    if (type.getNumElements() != int64_t(layout.elems))
      return emitOpError() << "operand " << operand << " of "
                           << stringifyMmaKind(atom.kind) << " is a fragment of "
                           << layout.elems << " elements per lane, got "
                           << type;
    if (!isScalar(type.getElementType(), elem))
      return emitOpError() << "operand " << operand << " of "
                           << stringifyMmaKind(atom.kind) << " holds "
                           << stringifyScalar(elem) << ", got " << type;
    return success();
  };
  return success(succeeded(check("A", getA(), atom.a, atom.ab)) &&
                 succeeded(check("B", getB(), atom.b, atom.ab)) &&
                 succeeded(check("C", getC(), atom.c, atom.acc)));
}

/// Whether `v`'s type is a fragment of `elems` elements of `kind`, else
/// the error, naming the operand.
static LogicalResult checkFragment(Operation *op, StringRef operand, Value v,
                                   const MmaAtom &atom, unsigned elems,
                                   ScalarKind kind) {
  auto type = cast<VectorType>(v.getType());
  if (type.getNumElements() == int64_t(elems) &&
      isScalar(type.getElementType(), kind))
    return success();
  return op->emitOpError() << "operand " << operand << " of "
                           << stringifyMmaKind(atom.kind)
                           << " is a fragment of " << elems << " "
                           << stringifyScalar(kind)
                           << " elements per thread, got " << type;
}

LogicalResult WgmmaOp::verify() {
  const MmaAtom &atom = getKind().getAtom();
  if (!atom.bFromSharedMemory())
    return emitOpError() << stringifyMmaKind(atom.kind)
                         << " is a wave atom (B from registers): issue it with "
                            "kda.mma";
  if (failed(checkFragment(*this, "A", getA(), atom, atom.a.elems, atom.ab)) ||
      failed(checkFragment(*this, "C", getC(), atom, atom.c.elems, atom.acc)))
    return failure();
  auto space = dyn_cast_or_null<gpu::AddressSpaceAttr>(
      getLds().getType().getMemorySpace());
  if (!space || space.getValue() != gpu::AddressSpace::Workgroup)
    return emitOpError() << "reads B from workgroup memory; "
                         << getLds().getType() << " is not in it";
  if (!getLds().getType().getLayout().isIdentity())
    return emitOpError() << "addresses B from the start of its buffer: "
                         << getLds().getType()
                         << " must have the identity layout";
  std::string why = getSharedLayout().invalidReason(atom.k, atom.n);
  if (!why.empty())
    return emitOpError() << "B's shared layout ("
                         << (getBMnMajor() ? "MN" : "K") << "-major, lbo "
                         << getLbo() << ", sbo " << getSbo() << "): " << why;
  // The descriptor keeps the start's bits from the 16th: a constant
  // offset must be 16-byte aligned and, in a buffer of known size, hold
  // the operand.
  llvm::APInt offBits;
  if (matchPattern(getOffset(), m_ConstantInt(&offBits))) {
    std::optional<int64_t> off = offBits.getSExtValue();
    if (*off % 16)
      return emitOpError() << "B's start (byte " << *off
                           << ") must be 16-byte aligned: the descriptor "
                              "drops its low 4 bits";
    int64_t size = getLds().getType().getDimSize(0);
    int64_t end = *off + getSharedLayout().extentBytes(atom.k, atom.n);
    if (!ShapedType::isDynamic(size) && end > size)
      return emitOpError() << "B's bytes [" << *off << ", " << end
                           << ") do not fit its buffer of " << size << " bytes";
  }
  // In flight until a wait returns it: only a chained atom or a wait may
  // take the result, and once (the hardware orders a chain on one
  // accumulator; a second reader would copy registers still being
  // written).
  if (!getD().use_empty() && !getD().hasOneUse())
    return emitOpError() << "result is in flight until a kda.wgmma_wait "
                            "returns it; it may have one use (a chained "
                            "kda.wgmma or a wait), it has more";
  for (OpOperand &use : getD().getUses()) {
    Operation *user = use.getOwner();
    if (isa<WgmmaWaitOp>(user))
      continue;
    if (auto next = dyn_cast<WgmmaOp>(user);
        next && use.getOperandNumber() == next.getCMutable().getOperandNumber())
      continue;
    return emitOpError()
           << "result is in flight until a kda.wgmma_wait returns it; it "
              "may only be the accumulator of another kda.wgmma or an "
              "operand of kda.wgmma_wait, not of "
           << user->getName();
  }
  return success();
}

LogicalResult WgmmaWaitOp::verify() {
  if (getPending() < 0 || getPending() > 7)
    return emitOpError() << "pending must be 0..7 (wgmma.wait_group's "
                            "immediate), got "
                         << getPending();
  for (Value v : getValues())
    if (!v.getDefiningOp<WgmmaOp>())
      return emitOpError() << "waits for kda.wgmma results; an operand is "
                              "not one ("
                           << v << ")";
  return success();
}

LogicalResult WgmmaWaitOp::inferReturnTypes(MLIRContext *,
                                            std::optional<Location>,
                                            ValueRange operands, DictionaryAttr,
                                            OpaqueProperties, RegionRange,
                                            SmallVectorImpl<Type> &types) {
  for (Value v : operands)
    types.push_back(v.getType());
  return success();
}

LogicalResult TestTileGemmOp::verify() {
  const int64_t m = getM(), n = getN(), k = getK();
  if (getBMnMajor() && !getWarpgroup())
    return emitOpError() << "b_mn_major places B for the warpgroup atom; it "
                            "needs warpgroup";
  if (m <= 0 || n <= 0 || k <= 0 || m % 64 || n % 64)
    return emitOpError() << "needs m and n positive multiples of the 64 x 64 "
                            "workgroup tile and k > 0, got m = "
                         << m << ", n = " << n << ", k = " << k;
  auto check = [&](StringRef name, Value v, ArrayRef<int64_t> shape,
                   bool isF32) -> LogicalResult {
    auto type = cast<MemRefType>(v.getType());
    Type elem = type.getElementType();
    if (type.getShape() != shape || (isF32 ? !elem.isF32() : !elem.isBF16()))
      return emitOpError() << name << " must be memref<" << shape[0] << "x"
                           << shape[1] << "x" << (isF32 ? "f32" : "bf16")
                           << ">, got " << type;
    return success();
  };
  return success(succeeded(check("a", getA(), {m, k}, false)) &&
                 succeeded(check("b", getB(), {k, n}, false)) &&
                 succeeded(check("c", getC(), {m, n}, true)));
}
