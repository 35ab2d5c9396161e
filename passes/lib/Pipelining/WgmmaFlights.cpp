//===- WgmmaFlights.cpp - a warpgroup atom's flight, issue to wait --------===//
#include "kda/Passes/WgmmaFlights.h"
#include "kda/Dialect/KDA/KDAOps.h"
#include "kda/Passes/LdsModel.h"
#include "kda/Passes/ThreadUniformity.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace mlir::kda;

namespace {

bool isWorkgroup(Type t) { return isWorkgroupMemRefType(t); }

/// Whether `op` (or an op nested in it) may write workgroup memory: a write
/// effect on a workgroup memref, or effects it does not declare while it
/// takes one.
bool mayWriteWorkgroup(Operation *op) {
  WalkResult r = op->walk([](Operation *inner) {
    if (isa<WgmmaOp>(inner))
      return WalkResult::advance(); // reads B only
    auto iface = dyn_cast<MemoryEffectOpInterface>(inner);
    const bool takes = llvm::any_of(inner->getOperandTypes(), isWorkgroup);
    if (!iface)
      return takes && !inner->hasTrait<OpTrait::HasRecursiveMemoryEffects>()
                 ? WalkResult::interrupt()
                 : WalkResult::advance();
    SmallVector<MemoryEffects::EffectInstance> effects;
    iface.getEffects(effects);
    for (const MemoryEffects::EffectInstance &e : effects) {
      if (!isa<MemoryEffects::Write>(e.getEffect()))
        continue;
      Value v = e.getValue();
      if (!v ? takes : isWorkgroup(v.getType()))
        return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return r.wasInterrupted();
}

bool holdsBarrier(Operation *op) {
  return op
      ->walk([](Operation *inner) {
        return isBarrier(inner) ? WalkResult::interrupt()
                                : WalkResult::advance();
      })
      .wasInterrupted();
}

LogicalResult verifyFlight(WgmmaOp atom) {
  auto fail = [&](StringRef rule, Operation *at, const Twine &what) {
    InFlightDiagnostic d = atom.emitOpError()
                           << rule << ": in flight from its issue until the "
                           << "kda.wgmma_wait that covers its commit group, "
                           << what;
    if (at)
      d.attachNote(at->getLoc()) << "here";
    return d;
  };
  int64_t commits = 0;
  for (Operation *op = atom->getNextNode(); op; op = op->getNextNode()) {
    if (auto wait = dyn_cast<WgmmaWaitOp>(op)) {
      if (commits > wait.getPending())
        return success();
      continue;
    }
    if (isa<WgmmaCommitOp>(op)) {
      ++commits;
      continue;
    }
    if (holdsBarrier(op))
      return fail("R3", op,
                  "and a barrier lies between them (it would publish bytes "
                  "the atom may still read)");
    if (mayWriteWorkgroup(op))
      return fail("R2", op,
                  "and this op may write workgroup memory before that wait "
                  "(a store is not ordered after the atom's read)");
  }
  return fail("R5", nullptr,
              "but no kda.wgmma_wait after it in its block covers it (" +
                  Twine(commits) +
                  " kda.wgmma_commit follow it there; a wait covers the "
                  "groups committed before it but its `pending` latest)");
}

/// Each result a wait returns must be of an atom whose group it covers:
/// earlier in the same block, with more commits between them than the
/// wait's `pending`.
LogicalResult verifyWait(WgmmaWaitOp wait) {
  for (Value v : wait.getValues()) {
    auto atom = v.getDefiningOp<WgmmaOp>();
    int64_t commits = 0;
    bool before = false;
    if (atom && atom->getBlock() == wait->getBlock())
      for (Operation *op = atom->getNextNode(); op; op = op->getNextNode()) {
        if (op == wait.getOperation()) {
          before = true;
          break;
        }
        commits += isa<WgmmaCommitOp>(op);
      }
    if (before && commits > wait.getPending())
      continue;
    return wait.emitOpError()
           << "R5: returns a kda.wgmma result whose commit group it does "
              "not cover ("
           << (before ? Twine(commits).str() +
                            " kda.wgmma_commit between "
                            "them, pending " +
                            Twine(wait.getPending()).str()
                      : std::string("not issued before it in its block"))
           << "): the value may still be in flight";
  }
  return success();
}

bool isGroupOp(Operation *op) {
  return isa<WgmmaOp, WgmmaCommitOp, WgmmaWaitOp>(op);
}

/// Why `op` (in a kernel that issues warpgroup atoms) hides what the
/// flights' check must see, or empty: a call (a barrier or store in the
/// callee), LDS reached as a pointer or integer address space, or LDS cast
/// out of the workgroup space (stores through the cast).
std::string hides(Operation *op) {
  if (isa<CallOpInterface>(op))
    return "a call (the callee's barriers and stores are not seen)";
  if (llvm::any_of(op->getOperandTypes(), isUntrackedLdsType) ||
      llvm::any_of(op->getResultTypes(), isUntrackedLdsType))
    return "LDS reached through a pointer or an integer address space";
  if (auto cast = dyn_cast<memref::MemorySpaceCastOp>(op);
      cast && isWorkgroup(cast.getSource().getType()))
    return "LDS cast out of the workgroup address space";
  return {};
}

/// The kernel-wide conditions of a kernel with warpgroup atoms: every
/// thread of whole warpgroups issues them (block of 128 k x 1 x 1, the
/// ops under control flow the same for every thread), and nothing hides a
/// barrier or an LDS write from the flights' check.
LogicalResult verifyKernel(gpu::GPUFuncOp kernel) {
  Operation *first = nullptr;
  kernel.walk([&](Operation *op) {
    if (isGroupOp(op) && !first)
      first = op;
  });
  if (!first)
    return success();
  std::optional<ArrayRef<int32_t>> block = kernel.getKnownBlockSize();
  if (!block || (*block)[0] % 128 || (*block)[1] != 1 || (*block)[2] != 1)
    return first->emitOpError()
           << "R0: a warpgroup atom is issued by whole warpgroups (128 "
              "threads): kernel '"
           << kernel.getName()
           << "' needs a known block size of 128 k x 1 x 1 threads";
  std::string why;
  Operation *at = nullptr;
  kernel.walk([&](Operation *op) {
    if (!why.empty())
      return;
    why = hides(op);
    at = op;
  });
  if (!why.empty())
    return at->emitOpError()
           << "R0: cannot analyse the warpgroup atoms of kernel '"
           << kernel.getName() << "' beside " << why;
  ThreadUniformity uniformity(kernel);
  auto uniform = [&](ValueRange vs) {
    return llvm::all_of(vs, [&](Value v) { return uniformity.uniform(v); });
  };
  bool ok = true;
  // B's descriptor is one value for the warpgroup (the atom reads one
  // operand for all its threads): an offset, or a view of the LDS, that
  // differs between threads names no operand. Taken as the same for every
  // thread of the block.
  kernel.walk([&](WgmmaOp atom) {
    if (!ok || uniform({atom.getLds(), atom.getOffset()}))
      return;
    atom.emitOpError() << "R0: its B operand (the LDS view it indexes, or "
                          "its offset) is not the same for every thread: "
                          "the warpgroup reads one B operand, through one "
                          "descriptor";
    ok = false;
  });
  kernel.walk([&](Operation *op) {
    if (!isGroupOp(op))
      return;
    for (Operation *p = op->getParentOp(); p && p != kernel.getOperation();
         p = p->getParentOp()) {
      bool same = false;
      if (auto branch = dyn_cast<scf::IfOp>(p))
        same = uniform(branch.getCondition());
      else if (auto loop = dyn_cast<scf::ForOp>(p))
        same = uniform(
            {loop.getLowerBound(), loop.getUpperBound(), loop.getStep()});
      if (same)
        continue;
      op->emitOpError()
          << "R0: every thread of the warpgroup executes it (.sync.aligned), "
             "but it is under "
          << p->getName()
          << " whose condition or bounds are not the same for every thread";
      ok = false;
      return;
    }
  });
  return success(ok);
}

} // namespace

LogicalResult mlir::kda::verifyWgmmaFlights(Operation *root) {
  bool ok = true;
  root->walk([&](Operation *op) {
    if (isGroupOp(op) && !op->getParentOfType<gpu::GPUFuncOp>()) {
      op->emitOpError() << "R0: cannot analyse a warpgroup op outside a "
                           "kernel (gpu.func): its flights and barriers are "
                           "checked in the kernel that issues it";
      ok = false;
    }
  });
  root->walk([&](gpu::GPUFuncOp k) { ok &= succeeded(verifyKernel(k)); });
  root->walk([&](WgmmaOp atom) { ok &= succeeded(verifyFlight(atom)); });
  root->walk([&](WgmmaWaitOp wait) { ok &= succeeded(verifyWait(wait)); });
  return success(ok);
}
