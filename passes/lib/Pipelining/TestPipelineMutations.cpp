//===- TestPipelineMutations.cpp - mutation test of the verifier ----------===//
#include "kda/Passes/PipelineHazards.h"
#include "kda/Passes/Passes.h"
#include "llvm/Support/FormatVariadic.h"

namespace mlir::kda {
#define GEN_PASS_DEF_KDATESTPIPELINEMUTATIONS
#include "kda/Passes/Passes.h.inc"
} // namespace mlir::kda

using namespace mlir;
using namespace mlir::kda;

namespace {

enum class Mutation { RemoveSync, RaiseWait, DropSlot };

/// Applies mutation `kind` to the `which`-th candidate of schedule
/// `schedIndex` in `module`; returns the mutated schedule, or null when the
/// candidate does not exist.
ScheduleOp mutate(ModuleOp module, unsigned schedIndex, Mutation kind,
                  unsigned which, std::string &what) {
  SmallVector<ScheduleOp> schedules;
  module.walk([&](ScheduleOp s) { schedules.push_back(s); });
  ScheduleOp s = schedules[schedIndex];
  unsigned n = 0;
  Operation *target = nullptr;
  SmallVector<LdsBufferOp> buffers;
  s.walk([&](Operation *op) {
    if (kind == Mutation::RemoveSync &&
        isa<LdsBarrierOp, BarrierOp, LdsDrainOp>(op) && n++ == which)
      target = op;
    if (kind == Mutation::RaiseWait && isa<AsyncWaitOp>(op) && n++ == which)
      target = op;
    if (kind == Mutation::DropSlot)
      if (auto sym = op->getAttrOfType<FlatSymbolRefAttr>("buffer"))
        if (auto b = SymbolTable::lookupNearestSymbolFrom<LdsBufferOp>(op, sym))
          if (!llvm::is_contained(buffers, b))
            buffers.push_back(b);
  });
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
      if (findPipelineHazard(s)) {
        os << "schedule '" << s.getName() << "': unsafe as written, skipped\n";
        continue;
      }
      unsigned mine = 0, mineKilled = 0;
      for (Mutation kind :
           {Mutation::RemoveSync, Mutation::RaiseWait, Mutation::DropSlot})
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
