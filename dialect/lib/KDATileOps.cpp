//===- KDATileOps.cpp - the tile layer's ops ------------------------------===//
#include "kda/Dialect/KDA/KDAOps.h"
#include "mlir/IR/BuiltinTypes.h"

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

LogicalResult TestTileGemmOp::verify() {
  const int64_t m = getM(), n = getN(), k = getK();
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
