//===- MmaToAMDGPU.cpp - kda.mma -> amdgpu.mfma ---------------------------===//
//
// A kda.mma fragment is exactly the MFMA operand register of its lane (the
// atom table's layouts are the CDNA ISA's), so the lowering is one
// amdgpu.mfma with the atom's m x n x k on the same vectors; upstream's
// AMDGPU-to-ROCDL conversion then picks the intrinsic for the chipset.
//
//===----------------------------------------------------------------------===//
#include "kda/Dialect/KDA/KDAOps.h"
#include "kda/Passes/AtomLowering.h"

#include "mlir/Dialect/AMDGPU/IR/AMDGPUDialect.h"

using namespace mlir;
using namespace mlir::kda;

InFlightDiagnostic mlir::kda::emitAtomNotOnChip(Operation *op, MmaKind kind,
                                                const TargetInfo &target) {
  const MmaAtom &atom = getMmaAtom(kind);
  return op->emitOpError()
         << "uses the matrix atom " << stringifyMmaKind(kind) << " ("
         << atom.name << "), which " << target.chip << " does not have"
         << (target.isEmulator() ? " (target " + target.name.str() +
                                       " executes " + target.chip.str() +
                                       "'s atoms)"
                                 : std::string())
         << "; " << target.chip << " has: " << describeMmaAtoms(target.chip);
}

const MmaAtom *mlir::kda::lowerableMmaAtom(MmaOp op, MmaFamily family,
                                           const TargetInfo &target,
                                           RewriterBase &rewriter) {
  static constexpr llvm::StringLiteral kReported = "kda.mma_not_on_chip";
  MmaKind kind = op.getKind().getValue();
  const MmaAtom &atom = getMmaAtom(kind);
  if (atom.family == family && chipHasMmaAtom(target.chip, kind))
    return &atom;
  if (!op->hasAttr(kReported)) {
    emitAtomNotOnChip(op, kind, target);
    op->setAttr(kReported, rewriter.getUnitAttr());
  }
  return nullptr;
}

namespace {
struct MmaToMfma : OpRewritePattern<MmaOp> {
  MmaToMfma(MLIRContext *ctx, const TargetInfo &target)
      : OpRewritePattern(ctx), target(target) {}

  LogicalResult matchAndRewrite(MmaOp op,
                                PatternRewriter &rewriter) const override {
    const MmaAtom *atom =
        lowerableMmaAtom(op, MmaFamily::Mfma, target, rewriter);
    if (!atom)
      return failure();
    rewriter.replaceOpWithNewOp<amdgpu::MFMAOp>(
        op, op.getType(), atom->m, atom->n, atom->k, /*blocks=*/1u, op.getA(),
        op.getB(), op.getC());
    return success();
  }

  const TargetInfo &target;
};
} // namespace

void mlir::kda::populateMmaToAMDGPUPatterns(RewritePatternSet &patterns,
                                            const TargetInfo &target) {
  patterns.add<MmaToMfma>(patterns.getContext(), target);
}
