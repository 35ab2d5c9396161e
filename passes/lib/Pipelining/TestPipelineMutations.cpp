//===- TestPipelineMutations.cpp - mutation test of the verifier ----------===//
#include "kda/Passes/PipelineHazards.h"
#include "kda/Passes/Passes.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/Support/FormatVariadic.h"

namespace mlir::kda {
#define GEN_PASS_DEF_KDATESTPIPELINEMUTATIONS
#include "kda/Passes/Passes.h.inc"
} // namespace mlir::kda

using namespace mlir;
using namespace mlir::kda;

namespace {

enum class Mutation {
  RemoveSync,      // a barrier, drained barrier or drain removed
  RaiseWait,       // a wait count raised by one
  DropSlot,        // a ring loses a slot
  MoveOffset,      // a buffer placed over the bytes of another one it uses
  StagedAfterAsync,// a staged store moved after an async copy of its buffer
  DropPredicate,   // a predicated copy issued unconditionally
  ReadOtherSlot,   // a read of the next slot, naming the same iteration
  ReadOtherIter,   // a read naming the next iteration, from the same slot
  WrapLoop,        // a loop wrapped in scf.execute_region (unmodelled)
};

const Mutation kAllMutations[] = {
    Mutation::RemoveSync,     Mutation::RaiseWait,
    Mutation::DropSlot,       Mutation::MoveOffset,
    Mutation::StagedAfterAsync, Mutation::DropPredicate,
    Mutation::ReadOtherSlot,  Mutation::ReadOtherIter,
    Mutation::WrapLoop};

/// The buffers `s` names, in walk order.
SmallVector<LdsBufferOp> buffersOf(ScheduleOp s) {
  SmallVector<LdsBufferOp> buffers;
  s.walk([&](Operation *op) {
    if (auto sym = op->getAttrOfType<FlatSymbolRefAttr>("buffer"))
      if (auto b = SymbolTable::lookupNearestSymbolFrom<LdsBufferOp>(op, sym))
        if (!llvm::is_contained(buffers, b))
          buffers.push_back(b);
  });
  return buffers;
}

/// The `which`-th op of `s` (walk order) that `pick` accepts.
template <typename OpT>
OpT nth(ScheduleOp s, unsigned which, function_ref<bool(OpT)> pick) {
  unsigned n = 0;
  OpT found;
  s.walk([&](OpT op) {
    if (!found && pick(op) && n++ == which)
      found = op;
  });
  return found;
}

std::string describe(Operation *op) {
  std::string loc;
  llvm::raw_string_ostream(loc) << op->getLoc();
  return (op->getName().getStringRef() + " at " + loc).str();
}

/// The mutations that add, move or rewrite ops rather than remove them.
ScheduleOp mutateMore(ScheduleOp s, Mutation kind, unsigned which,
                      std::string &what) {
  OpBuilder b(s.getContext());
  if (kind == Mutation::MoveOffset) {
    // Ordered pairs of distinct buffers that do not share bytes yet.
    SmallVector<LdsBufferOp> bufs = buffersOf(s);
    unsigned n = 0;
    for (LdsBufferOp x : bufs)
      for (LdsBufferOp y : bufs) {
        if (x == y || x.getOffset() == y.getOffset() || n++ != which)
          continue;
        what = llvm::formatv("move @{0} to @{1}'s offset {2}", x.getSymName(),
                             y.getSymName(), y.getOffset());
        x.setOffset(y.getOffset());
        return s;
      }
    return nullptr;
  }
  if (kind == Mutation::StagedAfterAsync) {
    // A staged store and a later async copy of the same buffer, the store's
    // operands still defined there.
    unsigned n = 0;
    StagedCopyOp staged;
    AsyncCopyOp after;
    s.walk([&](StagedCopyOp st) {
      s.walk([&](AsyncCopyOp ac) {
        if (staged || ac.getBuffer() != st.getBuffer())
          return;
        Operation *anc =
            st->getBlock()->findAncestorOpInBlock(*ac.getOperation());
        if (anc && st->isBeforeInBlock(anc) && n++ == which)
          staged = st, after = ac;
      });
    });
    if (!staged)
      return nullptr;
    what = "move the staged copy " + describe(staged) + " after the async copy " +
           describe(after);
    staged->moveAfter(after);
    return s;
  }
  if (kind == Mutation::DropPredicate) {
    Operation *c = nullptr;
    unsigned n = 0;
    auto predicated = [](Operation *op) {
      if (auto a = dyn_cast<AsyncCopyOp>(op))
        return bool(a.getPred());
      if (auto st = dyn_cast<StagedCopyOp>(op))
        return bool(st.getPred());
      return false;
    };
    s.walk([&](Operation *op) {
      if (!c && predicated(op) && n++ == which)
        c = op;
    });
    if (!c)
      return nullptr;
    what = "drop the predicate of " + describe(c);
    if (auto a = dyn_cast<AsyncCopyOp>(c))
      a.getPredMutable().clear();
    else
      cast<StagedCopyOp>(c).getPredMutable().clear();
    return s;
  }
  if (kind == Mutation::ReadOtherSlot || kind == Mutation::ReadOtherIter) {
    const bool slot = kind == Mutation::ReadOtherSlot;
    LdsReadOp r = nth<LdsReadOp>(s, which, [&](LdsReadOp r) {
      if (!slot)
        return true;
      auto buf = SymbolTable::lookupNearestSymbolFrom<LdsBufferOp>(
          r, r.getBufferAttr());
      return buf && buf.getSlots() > 1; // one slot: no other slot to read
    });
    if (!r)
      return nullptr;
    b.setInsertionPoint(r);
    Value one = arith::ConstantIndexOp::create(b, r.getLoc(), 1);
    Value next = arith::AddIOp::create(b, r.getLoc(), r.getIter(), one);
    if (slot) {
      r.getSlotMutable().assign(RingSlotOp::create(b, r.getLoc(),
                                                   b.getIndexType(), next,
                                                   r.getBufferAttr()));
      what = "read the next slot in " + describe(r);
    } else {
      r.getIterMutable().assign(next);
      what = "name the next iteration in " + describe(r);
    }
    return s;
  }
  if (kind == Mutation::WrapLoop) {
    // Loops of the schedule's control flow only: a loop in a copy's or a
    // read's body (a kernel's row copies, its computation on the tile) is
    // data the verifier never enters, so wrapping it changes nothing it
    // checks.
    scf::ForOp loop = nth<scf::ForOp>(s, which, [](scf::ForOp f) {
      return f.getNumResults() == 0 && !f->getParentOfType<AsyncCopyOp>() &&
             !f->getParentOfType<StagedCopyOp>() &&
             !f->getParentOfType<LdsReadOp>();
    });
    if (!loop)
      return nullptr;
    b.setInsertionPoint(loop);
    auto wrap = scf::ExecuteRegionOp::create(b, loop.getLoc(), TypeRange{});
    Block *body = b.createBlock(&wrap.getRegion());
    scf::YieldOp::create(b, loop.getLoc());
    loop->moveBefore(body->getTerminator());
    what = "wrap " + describe(loop) + " in scf.execute_region";
    return s;
  }
  return nullptr;
}

/// Applies mutation `kind` to the `which`-th candidate of schedule
/// `schedIndex` in `module`; returns the mutated schedule, or null when the
/// candidate does not exist.
ScheduleOp mutate(ModuleOp module, unsigned schedIndex, Mutation kind,
                  unsigned which, std::string &what) {
  SmallVector<ScheduleOp> schedules;
  module.walk([&](ScheduleOp s) { schedules.push_back(s); });
  ScheduleOp s = schedules[schedIndex];
  if (kind != Mutation::RemoveSync && kind != Mutation::RaiseWait &&
      kind != Mutation::DropSlot)
    return mutateMore(s, kind, which, what);
  unsigned n = 0;
  Operation *target = nullptr;
  s.walk([&](Operation *op) {
    if (kind == Mutation::RemoveSync &&
        isa<LdsBarrierOp, BarrierOp, LdsDrainOp>(op) && n++ == which)
      target = op;
    if (kind == Mutation::RaiseWait && isa<AsyncWaitOp>(op) && n++ == which)
      target = op;
  });
  SmallVector<LdsBufferOp> buffers = buffersOf(s);
  if (kind == Mutation::DropSlot) {
    if (which >= buffers.size())
      return nullptr;
    LdsBufferOp b = buffers[which];
    what = llvm::formatv("drop a slot of @{0} ({1} -> {2})", b.getSymName(),
                         b.getSlots(), b.getSlots() - 1);
    b.setSlots(b.getSlots() - 1);
    return s;
  }
  if (!target)
    return nullptr;
  std::string loc;
  llvm::raw_string_ostream(loc) << target->getLoc();
  if (auto w = dyn_cast<AsyncWaitOp>(target)) {
    what = llvm::formatv("raise async_wait {0} -> {1}", w.getCount(),
                         w.getCount() + 1);
    w.setCount(w.getCount() + 1);
  } else {
    what = ("remove " + target->getName().getStringRef()).str();
    target->erase();
  }
  return s;
}

struct KdaTestPipelineMutationsPass
    : public kda::impl::KdaTestPipelineMutationsBase<
          KdaTestPipelineMutationsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<ScheduleOp> schedules;
    module.walk([&](ScheduleOp s) { schedules.push_back(s); });
    unsigned total = 0, killed = 0;
    llvm::raw_ostream &os = llvm::outs();
    for (auto [k, s] : llvm::enumerate(schedules)) {
      PipelineProof proof;
      if (findPipelineHazard(s, &proof)) {
        os << "schedule '" << s.getName() << "': unsafe as written, skipped\n";
        continue;
      }
      if (proof.dynamic)
        os << llvm::formatv("schedule '{0}' depth {1}: every trip count "
                            "proven: T < {2} run, T = {2}..{3} repeat with "
                            "period {4} past horizon {5}\n",
                            s.getName(), s.getDepth(), proof.bound,
                            proof.bound + proof.period - 1, proof.period,
                            proof.horizon);
      unsigned mine = 0, mineKilled = 0;
      for (Mutation kind : kAllMutations)
        for (unsigned which = 0;; ++which) {
          OwningOpRef<ModuleOp> copy = module.clone();
          std::string what;
          ScheduleOp m = mutate(*copy, k, kind, which, what);
          if (!m)
            break;
          ++mine;
          bool rejected = false;
          // A ring with no slot left is invalid IR: rejected by the op verifier.
          m.walk([&](Operation *op) {
            if (auto b = dyn_cast<LdsBufferOp>(op); b && b.getSlots() < 1)
              rejected = true;
          });
          copy->walk([&](LdsBufferOp b) { rejected |= b.getSlots() < 1; });
          if (!rejected)
            rejected = findPipelineHazard(m).has_value();
          if (rejected)
            ++mineKilled;
          else
            os << "  SURVIVOR in '" << s.getName() << "': " << what << "\n";
        }
      os << llvm::formatv("schedule '{0}' depth {1}: {2} mutants, {3} "
                          "rejected\n",
                          s.getName(), s.getDepth(), mine, mineKilled);
      total += mine;
      killed += mineKilled;
    }
    os << llvm::formatv("mutation kill rate: {0}/{1} ({2:F1}%)\n", killed,
                        total, total ? 100.0 * killed / total : 100.0);
    if (killed != total)
      signalPassFailure();
  }
};
} // namespace
