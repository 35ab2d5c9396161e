//===- PipelineHazards.cpp - the LDS pipeline hazard model ----------------===//
#include "kda/Passes/PipelineHazards.h"
#include "kda/Dialect/KDA/KDAAttrs.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::kda;

namespace {

struct Buffer {
  mutable LdsBufferOp op;
  int64_t lo(int64_t slot) const {
    return op.getOffset() + slot * op.getSlotBytes();
  }
  int64_t hi(int64_t slot) const { return lo(slot) + op.getSlotBytes(); }
  StringRef name() const { return op.getSymName(); }
};

/// One async copy group of the (uniform) thread.
struct Group {
  int64_t index;
  const Buffer *buf;
  int64_t slot, iter;
  bool empty;
  bool landed = false, visible = false;
  int64_t waitsAfterIssue = 0; // waits seen since the issue
  int64_t lastWaitCount = -1;
};

/// A register-staged write: lands at once, visible after a barrier.
struct StagedWrite {
  const Buffer *buf;
  int64_t slot, iter;
  bool visible = false;
};

/// A read not yet behind a drained barrier.
struct Reader {
  const Buffer *buf;
  int64_t slot, iter;
  bool drained = false;   // this thread's LDS ops completed (lgkmcnt(0))
  bool bareBarrier = false; // a bare barrier followed, without a drain
};

bool overlaps(const Buffer *a, int64_t sa, const Buffer *b, int64_t sb) {
  return a->lo(sa) < b->hi(sb) && b->lo(sb) < a->hi(sa);
}

std::string where(const Buffer *b, int64_t slot) {
  return llvm::formatv("@{0} slot {1}", b->name(), slot).str();
}

class Interpreter {
public:
  Interpreter(ScheduleOp schedule, int64_t tripCount)
      : schedule(schedule), tripCount(tripCount) {}

  std::optional<PipelineHazard> run();

private:
  std::optional<PipelineHazard> walk(Block &block);
  std::optional<PipelineHazard> step(Operation &op);
  FailureOr<int64_t> eval(Value v);
  FailureOr<const Buffer *> buffer(Operation *at, FlatSymbolRefAttr sym);
  PipelineHazard hazard(StringRef rule, Operation *at, const std::string &what);
  std::optional<PipelineHazard> checkWrite(Operation *op, const Buffer *b,
                                           int64_t slot, int64_t iter);
  std::optional<PipelineHazard> checkSlot(Operation *op, const Buffer *b,
                                          int64_t slot);

  ScheduleOp schedule;
  int64_t tripCount; // -1: static schedule without a trip count attribute
  llvm::DenseMap<Value, int64_t> env;
  llvm::DenseMap<Operation *, Buffer> buffers;
  std::vector<Group> groups;
  std::vector<StagedWrite> staged;
  std::vector<Reader> readers;
};

PipelineHazard Interpreter::hazard(StringRef rule, Operation *at,
                                   const std::string &what) {
  std::string ctx =
      llvm::formatv("pipeline '{0}' at depth {1}", schedule.getName(),
                    schedule.getDepth())
          .str();
  if (schedule.getDynamicTripCount())
    ctx += llvm::formatv(", trip count {0}", tripCount).str();
  return PipelineHazard{rule.str(),
                        (rule + ": " + what + " (" + ctx + ")").str(), at};
}

FailureOr<const Buffer *> Interpreter::buffer(Operation *at,
                                              FlatSymbolRefAttr sym) {
  auto op = SymbolTable::lookupNearestSymbolFrom<LdsBufferOp>(at, sym);
  if (!op)
    return failure();
  auto [it, inserted] = buffers.try_emplace(op, Buffer{op});
  return &it->second;
}

FailureOr<int64_t> Interpreter::eval(Value v) {
  if (auto it = env.find(v); it != env.end())
    return it->second;
  Operation *def = v.getDefiningOp();
  if (!def)
    return failure();
  if (auto c = dyn_cast<arith::ConstantOp>(def)) {
    if (auto i = dyn_cast<IntegerAttr>(c.getValue()))
      return i.getValue().getSExtValue();
    return failure();
  }
  if (auto r = dyn_cast<RingSlotOp>(def)) {
    FailureOr<int64_t> it = eval(r.getIter());
    FailureOr<const Buffer *> b = buffer(def, r.getBufferAttr());
    if (failed(it) || failed(b))
      return failure();
    int64_t n = int64_t((*b)->op.getSlots());
    if (n < 1)
      return failure();
    return ((*it % n) + n) % n;
  }
  if (auto cast = dyn_cast<arith::IndexCastOp>(def))
    return eval(cast.getIn());
  if (def->getNumOperands() == 2) {
    FailureOr<int64_t> a = eval(def->getOperand(0)), b = eval(def->getOperand(1));
    if (failed(a) || failed(b))
      return failure();
    if (isa<arith::AddIOp>(def)) return *a + *b;
    if (isa<arith::SubIOp>(def)) return *a - *b;
    if (isa<arith::MulIOp>(def)) return *a * *b;
    if (isa<arith::MinSIOp>(def)) return std::min(*a, *b);
    if (isa<arith::MaxSIOp>(def)) return std::max(*a, *b);
    if ((isa<arith::RemUIOp, arith::RemSIOp, arith::DivUIOp, arith::DivSIOp>(
            def)) && *b == 0)
      return failure();
    if (isa<arith::RemUIOp, arith::RemSIOp>(def)) return *a % *b;
    if (isa<arith::DivUIOp, arith::DivSIOp>(def)) return *a / *b;
    if (auto cmp = dyn_cast<arith::CmpIOp>(def)) {
      switch (cmp.getPredicate()) {
      case arith::CmpIPredicate::eq: return *a == *b;
      case arith::CmpIPredicate::ne: return *a != *b;
      case arith::CmpIPredicate::slt: case arith::CmpIPredicate::ult: return *a < *b;
      case arith::CmpIPredicate::sle: case arith::CmpIPredicate::ule: return *a <= *b;
      case arith::CmpIPredicate::sgt: case arith::CmpIPredicate::ugt: return *a > *b;
      case arith::CmpIPredicate::sge: case arith::CmpIPredicate::uge: return *a >= *b;
      }
    }
  }
  return failure();
}

std::optional<PipelineHazard>
Interpreter::checkSlot(Operation *op, const Buffer *b, int64_t slot) {
  if (slot < 0 || slot >= int64_t(b->op.getSlots()))
    return hazard("R2", op,
                  llvm::formatv("slot {0} of @{1} does not exist: the ring "
                                "has {2} slots, fewer than the schedule uses",
                                slot, b->name(), b->op.getSlots()));
  return std::nullopt;
}

// WAR (R2) and write-after-write into bytes still in flight.
std::optional<PipelineHazard> Interpreter::checkWrite(Operation *op,
                                                      const Buffer *b,
                                                      int64_t slot,
                                                      int64_t iter) {
  for (const Reader &r : readers) {
    if (!overlaps(r.buf, r.slot, b, slot))
      continue;
    std::string why =
        r.bareBarrier
            ? "only a bare barrier follows that read, which does not order "
              "a wave's pending LDS reads"
            : (r.drained ? "the read is drained but no barrier follows"
                         : "no drained barrier lies between them");
    return hazard("R2", op,
                  llvm::formatv("the copy of iteration {0} into {1} may "
                                "overwrite iteration {2}'s tile still being "
                                "read from {3}: {4}",
                                iter, where(b, slot), r.iter,
                                where(r.buf, r.slot), why));
  }
  for (const Group &g : groups)
    if (!g.empty && !g.landed && overlaps(g.buf, g.slot, b, slot))
      return hazard("R2", op,
                    llvm::formatv("the copy of iteration {0} into {1} is "
                                  "issued while the copy of iteration {2} "
                                  "into {3} is still in flight",
                                  iter, where(b, slot), g.iter,
                                  where(g.buf, g.slot)));
  return std::nullopt;
}

std::optional<PipelineHazard> Interpreter::step(Operation &op) {
  auto evalOr = [&](Value v, int64_t &out) -> std::optional<PipelineHazard> {
    FailureOr<int64_t> r = eval(v);
    if (failed(r))
      return hazard("R0", &op,
                    ("cannot evaluate an index of " +
                     op.getName().getStringRef() +
                     ": slots and predicates must be static functions of the "
                     "loop counters")
                        .str());
    out = *r;
    return std::nullopt;
  };

  if (auto loop = dyn_cast<scf::ForOp>(op)) {
    int64_t lb, ub, stepV;
    if (auto h = evalOr(loop.getLowerBound(), lb)) return h;
    if (auto h = evalOr(loop.getUpperBound(), ub)) return h;
    if (auto h = evalOr(loop.getStep(), stepV)) return h;
    if (stepV <= 0)
      return hazard("R0", &op, "loop step must be positive");
    for (int64_t i = lb; i < ub; i += stepV) {
      env[loop.getInductionVar()] = i;
      if (auto h = walk(*loop.getBody()))
        return h;
    }
    return std::nullopt;
  }
  if (auto ifOp = dyn_cast<scf::IfOp>(op)) {
    int64_t c;
    if (auto h = evalOr(ifOp.getCondition(), c)) return h;
    if (c)
      return walk(*ifOp.thenBlock());
    if (ifOp.elseBlock())
      return walk(*ifOp.elseBlock());
    return std::nullopt;
  }

  auto copyCommon = [&](FlatSymbolRefAttr sym, Value slotV, Value iterV,
                        Value predV, int64_t &slot, int64_t &iter,
                        bool &enabled,
                        const Buffer *&b) -> std::optional<PipelineHazard> {
    FailureOr<const Buffer *> fb = buffer(&op, sym);
    if (failed(fb))
      return hazard("R0", &op, ("unknown LDS buffer " + sym.getValue()).str());
    b = *fb;
    int64_t p = 1;
    if (auto h = evalOr(slotV, slot)) return h;
    if (auto h = evalOr(iterV, iter)) return h;
    if (predV)
      if (auto h = evalOr(predV, p)) return h;
    enabled = p != 0;
    if (!enabled)
      return std::nullopt;
    if (auto h = checkSlot(&op, b, slot)) return h;
    if (tripCount >= 0 && iter >= tripCount)
      return hazard("R4", &op,
                    llvm::formatv("the copy of iteration {0} into {1} is "
                                  "issued beyond the trip count {2} and is "
                                  "not predicated off",
                                  iter, where(b, slot), tripCount));
    return checkWrite(&op, b, slot, iter);
  };

  if (isa<AsyncCopyOp, StagedCopyOp>(op)) {
    // Both copy ops share their operands: buffer, slot, iter, optional pred.
    bool async = isa<AsyncCopyOp>(op);
    auto sym = op.getAttrOfType<FlatSymbolRefAttr>("buffer");
    Value pred = op.getNumOperands() > 2 ? op.getOperand(2) : Value();
    int64_t slot, iter;
    bool enabled;
    const Buffer *b;
    if (auto h = copyCommon(sym, op.getOperand(0), op.getOperand(1), pred, slot,
                            iter, enabled, b))
      return h;
    if (async)
      groups.push_back(Group{int64_t(groups.size()), b, slot, iter, !enabled});
    else if (enabled)
      staged.push_back(StagedWrite{b, slot, iter});
    return std::nullopt;
  }
  if (auto wait = dyn_cast<AsyncWaitOp>(op)) {
    int64_t keep = wait.getCount();
    int64_t n = int64_t(groups.size());
    for (int64_t i = 0; i < n; ++i) {
      Group &g = groups[i];
      ++g.waitsAfterIssue;
      g.lastWaitCount = keep;
      if (i < n - keep)
        g.landed = true;
    }
    return std::nullopt;
  }
  auto drain = [&] {
    for (Reader &r : readers)
      r.drained = true;
  };
  auto barrier = [&] {
    for (Group &g : groups)
      if (g.landed)
        g.visible = true;
    for (StagedWrite &w : staged)
      w.visible = true;
    readers.erase(std::remove_if(readers.begin(), readers.end(),
                                 [](const Reader &r) { return r.drained; }),
                  readers.end());
    for (Reader &r : readers)
      r.bareBarrier = true;
  };
  if (isa<LdsDrainOp>(op)) {
    drain();
    return std::nullopt;
  }
  if (isa<BarrierOp>(op)) {
    barrier();
    return std::nullopt;
  }
  if (isa<LdsBarrierOp>(op)) {
    drain();
    barrier();
    return std::nullopt;
  }
  if (auto read = dyn_cast<LdsReadOp>(op)) {
    FailureOr<const Buffer *> fb = buffer(&op, read.getBufferAttr());
    if (failed(fb))
      return hazard("R0", &op, ("unknown LDS buffer " + read.getBuffer()).str());
    const Buffer *b = *fb;
    int64_t slot, iter;
    if (auto h = evalOr(read.getSlot(), slot)) return h;
    if (auto h = evalOr(read.getIter(), iter)) return h;
    if (auto h = checkSlot(&op, b, slot)) return h;
    // The latest write into these bytes must be this iteration's tile.
    std::optional<int64_t> latestIter;
    for (const Group &g : groups)
      if (!g.empty && overlaps(g.buf, g.slot, b, slot))
        latestIter = g.iter;
    for (const StagedWrite &w : staged)
      if (overlaps(w.buf, w.slot, b, slot))
        latestIter = w.iter;
    if (!latestIter)
      return hazard("R1", &op,
                    llvm::formatv("iteration {0} reads {1}, which no copy "
                                  "has written",
                                  iter, where(b, slot)));
    if (*latestIter != iter)
      return hazard("R2", &op,
                    llvm::formatv("iteration {0} reads {1}, but the copy of "
                                  "iteration {2} has already replaced its tile",
                                  iter, where(b, slot), *latestIter));
    for (const Group &g : groups) {
      if (g.empty || !overlaps(g.buf, g.slot, b, slot) || g.visible)
        continue;
      if (!g.landed && g.waitsAfterIssue > 0)
        return hazard(
            "R5", &op,
            llvm::formatv("iteration {0} reads {1}, but the last wait "
                          "(count {2}) leaves its copy outstanding: the "
                          "count is too high",
                          iter, where(b, slot), g.lastWaitCount));
      if (!g.landed)
        return hazard("R1", &op,
                      llvm::formatv("iteration {0} reads {1} before any wait "
                                    "covers its async copy",
                                    iter, where(b, slot)));
      return hazard("R1", &op,
                    llvm::formatv("iteration {0} reads {1} after the wait "
                                  "but with no barrier since: other threads' "
                                  "parts of the copy may not have landed",
                                  iter, where(b, slot)));
    }
    for (const StagedWrite &w : staged)
      if (!w.visible && overlaps(w.buf, w.slot, b, slot))
        return hazard("R1", &op,
                      llvm::formatv("iteration {0} reads {1} with no barrier "
                                    "after its register-staged store",
                                    iter, where(b, slot)));
    readers.push_back(Reader{b, slot, iter});
    return std::nullopt;
  }
  return std::nullopt; // arithmetic: evaluated on demand
}

std::optional<PipelineHazard> Interpreter::walk(Block &block) {
  for (Operation &op : block)
    if (auto h = step(op))
      return h;
  return std::nullopt;
}

std::optional<PipelineHazard> Interpreter::run() {
  if (Value t = schedule.getDynamicTripCount())
    env[t] = tripCount;
  if (auto h = walk(schedule.getBody().front()))
    return h;
  // R3: the loop hands LDS back quiescent: nothing in flight, no read that a
  // later writer of these bytes could overtake.
  for (const Group &g : groups)
    if (!g.empty && !g.landed)
      return hazard(
          "R3", schedule,
          llvm::formatv("the copy of iteration {0} into {1} is still "
                        "outstanding when the loop ends{2}",
                        g.iter, where(g.buf, g.slot),
                        tripCount >= 0 && g.iter >= tripCount
                            ? " (a prologue copy beyond the trip count)"
                            : ""));
  for (const Reader &r : readers)
    return hazard("R3", schedule,
                  llvm::formatv("iteration {0}'s read of {1} is not behind a "
                                "drained barrier when the loop ends",
                                r.iter, where(r.buf, r.slot)));
  return std::nullopt;
}

/// R6: the bytes of every buffer the schedule touches, against the target.
std::optional<PipelineHazard> checkCapacity(ScheduleOp schedule) {
  const TargetInfo *t = lookupTarget(schedule.getTarget());
  if (!t)
    return PipelineHazard{"R0",
                          ("R0: unknown target '" + schedule.getTarget() +
                           "'")
                              .str(),
                          schedule};
  llvm::SetVector<Operation *> seen;
  int64_t extent = 0;
  std::string parts;
  schedule.walk([&](Operation *op) {
    auto sym = op->getAttrOfType<FlatSymbolRefAttr>("buffer");
    if (!sym)
      return;
    auto b = SymbolTable::lookupNearestSymbolFrom<LdsBufferOp>(op, sym);
    if (!b || !seen.insert(b))
      return;
    extent = std::max<int64_t>(extent, b.getOffset() + b.getSlots() * b.getSlotBytes());
    parts += llvm::formatv("{0}@{1} {2} x {3}", parts.empty() ? "" : ", ",
                           b.getSymName(), b.getSlots(), b.getSlotBytes())
                 .str();
  });
  if (extent > int64_t(t->ldsBytes))
    return PipelineHazard{
        "R6",
        llvm::formatv("R6: the ring buffers need {0} bytes of LDS ({1}) but "
                      "{2} has {3} (pipeline '{4}' at depth {5})",
                      extent, parts, t->name, t->ldsBytes, schedule.getName(),
                      schedule.getDepth())
            .str(),
        schedule};
  return std::nullopt;
}

} // namespace

std::optional<PipelineHazard> mlir::kda::findPipelineHazard(ScheduleOp s) {
  if (auto h = checkCapacity(s))
    return h;
  if (std::optional<int64_t> t = s.getTripCount())
    return Interpreter(s, *t).run();
  if (!s.getDynamicTripCount())
    return Interpreter(s, -1).run();
  // Dynamic: every trip count up to depth + 1, then a steady state.
  const int64_t n = s.getDepth();
  for (int64_t t = 0; t <= n + 1; ++t)
    if (auto h = Interpreter(s, t).run())
      return h;
  return Interpreter(s, 2 * n + 3).run();
}

void mlir::kda::reportPipelineHazard(ScheduleOp schedule,
                                     const PipelineHazard &h) {
  schedule.emitError(h.message);
}

LogicalResult mlir::kda::verifyPipelineSchedule(ScheduleOp schedule) {
  std::optional<PipelineHazard> h = findPipelineHazard(schedule);
  if (!h)
    return success();
  reportPipelineHazard(schedule, *h);
  return failure();
}
