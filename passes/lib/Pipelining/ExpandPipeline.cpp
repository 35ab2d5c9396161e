//===- ExpandPipeline.cpp - kda.pipeline -> verified kda.schedule ---------===//
//
// Iteration i of a depth-N pipeline (N >= 2), for P async producers:
//   async_wait((N-2) * P)   -- iteration i's copies have landed
//   lds_barrier             -- ...in every thread; reads of i-1 drained
//   lds_read  slot(i)       -- consumers
//   copy      slot(i+N-1)   -- producers, into the slot i-1 used
// after a prologue copying iterations 0..N-2. For a static trip count T the
// last N-1 iterations are peeled with exact wait counts and no copies (so no
// copy is ever issued beyond T: rule R4); for a dynamic one the copies are
// predicated on i + N - 1 < T (an empty group keeps the counts uniform).
// Depth 1 copies, waits, drains and reads in the same iteration. Every
// schedule ends with a drained barrier (R3).
//
// Stage annotations are honoured: the copy distance is the consumers' stage
// minus the producers' stage (N - 1 when they are 0 and N - 1), and the
// schedule above is written for that distance while the rings keep N slots;
// a stage outside 0..N-1 is rejected. A producer's `issuers` is carried to
// its copies.
//
//===----------------------------------------------------------------------===//
#include "kda/Passes/LdsHandoffs.h"
#include "kda/Passes/Passes.h"
#include "kda/Passes/PipelineExpansion.h"
#include "kda/Passes/PipelineHazards.h"
#include "kda/Passes/WgmmaFlights.h"

#include "mlir/IR/IRMapping.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "llvm/Support/FormatVariadic.h"

namespace mlir::kda {
#define GEN_PASS_DEF_KDAEXPANDPIPELINE
#define GEN_PASS_DEF_KDAVERIFYPIPELINE
#define GEN_PASS_DEF_KDAENUMERATEPIPELINECONFIGS
#include "kda/Passes/Passes.h.inc"
} // namespace mlir::kda

using namespace mlir;
using namespace mlir::kda;

namespace {
struct Producer {
  FlatSymbolRefAttr buffer;
  bool async;
  StringAttr issuers; // which threads issue the copies (null: all)
  Region *body;       // the copy of one iteration, or empty
};
struct Consumer {
  FlatSymbolRefAttr buffer;
  Region *body; // the computation on one iteration's tile, or empty
};

/// The distance, in iterations, between a tile's copy and its read that the
/// stage annotations ask for: iteration i is copied at step i + producer
/// stage and read at step i + consumer stage. One distance per pipeline;
/// stages outside 0..depth-1 contradict the depth and are rejected.
FailureOr<int64_t> stageDistance(PipelineOp op) {
  const int64_t N = op.getDepth();
  auto ctx = [&] {
    return llvm::formatv(" (pipeline '{0}' at depth {1})", op.getName(), N)
        .str();
  };
  std::optional<int64_t> produceStage, consumeStage;
  for (Operation &inner : op.getBody().front()) {
    auto stage = inner.getAttrOfType<IntegerAttr>("stage");
    auto buf = inner.getAttrOfType<FlatSymbolRefAttr>("buffer");
    if (!stage || !buf)
      continue;
    const int64_t st = stage.getInt();
    const bool producer = isa<ProduceOp>(inner);
    if (st < 0 || st >= N) {
      op.emitError() << llvm::formatv(
          "R2: the {0} of @{1} at stage {2} lies outside the stages 0..{3} "
          "of a depth-{4} pipeline: a tile read {2} steps after its copy "
          "needs {5} ring slots, the depth gives {4}{6}",
          producer ? "producer" : "consumer", buf.getValue(), st, N - 1, N,
          st + 1, ctx()).str();
      return failure();
    }
    std::optional<int64_t> &seen = producer ? produceStage : consumeStage;
    if (seen && *seen != st) {
      op.emitError() << llvm::formatv(
          "R0: cannot analyse the {0}s at stages {1} and {2}: the expansion "
          "takes one stage per role{3}",
          producer ? "producer" : "consumer", *seen, st, ctx()).str();
      return failure();
    }
    seen = st;
  }
  const int64_t d = consumeStage.value_or(N - 1) - produceStage.value_or(0);
  if (d < 0) {
    op.emitError() << llvm::formatv(
        "R1: the consumers at stage {0} read before the producers at stage "
        "{1} copy{2}",
        *consumeStage, *produceStage, ctx()).str();
    return failure();
  }
  return d;
}
} // namespace

/// Clones the iteration body `from` (block arguments: iteration, slot) into
/// the single-block region `into` of a schedule op, with its arguments
/// bound to `iter` and `slot`. Copy atoms get `atom`: the schedule decides
/// whether a copy is staged or asynchronous, so the atom is set here.
static void cloneIterationBody(OpBuilder &b, Region &from, Region &into,
                               Value iter, Value slot,
                               std::optional<CopyAtom> atom) {
  if (from.empty())
    return;
  OpBuilder::InsertionGuard guard(b);
  Block *block = b.createBlock(&into);
  IRMapping map;
  map.map(from.front().getArgument(0), iter);
  map.map(from.front().getArgument(1), slot);
  for (Operation &op : from.front()) {
    Operation *copy = b.clone(op, map);
    if (atom)
      copy->walk([&](CopyRowOp row) {
        row.setAtomAttr(CopyAtomAttr::get(b.getContext(), *atom));
      });
  }
  (void)block;
}

/// Which threads issue a producer's copies: as annotated, else the first
/// wave where the target's async atom is issued by one wave (gfx950's
/// global_load_lds writes a wave's 64 x 16 bytes from one instruction), else
/// all threads (null).
static StringAttr issuersOf(ProduceOp p, const TargetInfo &target) {
  if (auto given = p->getAttrOfType<StringAttr>(kIssuersAttr))
    return given;
  if (p.getAsync() && target.copyAtom == CopyAtomKind::GlobalLoadLds)
    return StringAttr::get(p.getContext(), "wave0");
  return {};
}

/// The copy atom a producer's rows use on `target`.
static CopyAtom copyAtomFor(bool async, const TargetInfo &target) {
  return async ? toCopyAtom(target.copyAtom) : CopyAtom::Staged;
}

FailureOr<ScheduleOp> mlir::kda::expandPipeline(PipelineOp op,
                                                const TargetInfo &target) {
  // The schedule is written and checked for `target`; the lowerings follow
  // the enclosing module's (ScheduleOp's verifier holds the two together).
  if (const TargetInfo *enclosing = getEnclosingTarget(op);
      enclosing && enclosing->name != target.name)
    return op.emitOpError() << "is expanded for target '" << target.name
                            << "' but its module is compiled for '"
                            << enclosing->name << "' (kda.target)";
  const int64_t N = op.getDepth();
  FailureOr<int64_t> distance = stageDistance(op);
  if (failed(distance))
    return failure();
  // The schedule below is written for a copy distance of D - 1 iterations;
  // the ring keeps N slots.
  const int64_t D = *distance + 1;
  SmallVector<Producer> producers;
  SmallVector<Consumer> consumers;
  for (Operation &inner : op.getBody().front()) {
    if (auto p = dyn_cast<ProduceOp>(inner))
      producers.push_back({p.getBufferAttr(),
                           p.getAsync() && target.asyncCopy(),
                           issuersOf(p, target), &p.getBody()});
    else if (auto c = dyn_cast<ConsumeOp>(inner))
      consumers.push_back({c.getBufferAttr(), &c.getBody()});
  }
  // Size every ring to the depth (or the trip count) and lay the pipeline's rings out side by
  // side (they are live together), from the first ring's offset.
  SmallVector<LdsBufferOp> rings;
  for (FlatSymbolRefAttr sym : llvm::concat<FlatSymbolRefAttr>(
           llvm::map_range(producers, [](auto &p) { return p.buffer; }),
           llvm::map_range(consumers, [](auto &c) { return c.buffer; }))) {
    auto buf = SymbolTable::lookupNearestSymbolFrom<LdsBufferOp>(op, sym);
    if (!buf)
      return op.emitOpError() << "refers to unknown LDS buffer " << sym;
    if (!llvm::is_contained(rings, buf))
      rings.push_back(buf);
  }
  // The expansion sizes and places each ring from this pipeline's depth and
  // trip count: a ring another op also names would be resized under it.
  for (LdsBufferOp buf : rings) {
    Operation *scope = SymbolTable::getNearestSymbolTable(buf);
    std::optional<SymbolTable::UseRange> uses =
        SymbolTable::getSymbolUses(buf, scope);
    if (!uses)
      return op.emitOpError()
             << "cannot list the uses of LDS buffer @" << buf.getSymName();
    for (const SymbolTable::SymbolUse &use : *uses) {
      Operation *user = use.getUser();
      if (op->isAncestor(user))
        continue;
      auto other = user->getParentOfType<PipelineOp>();
      InFlightDiagnostic diag =
          op.emitOpError()
          << "shares LDS buffer @" << buf.getSymName() << " with "
          << (other ? "pipeline '" + other.getName().str() + "'"
                    : user->getName().getStringRef().str())
          << ": expansion sizes a pipeline's rings from its own depth and "
             "trip count, so each pipeline needs its own kda.lds_buffer";
      diag.attachNote(user->getLoc()) << "the other use";
      return diag;
    }
  }
  // A static trip count below the depth never has more than T tiles live.
  const int64_t slots =
      op.getTripCount() ? std::max<int64_t>(1, std::min<int64_t>(N, *op.getTripCount()))
                        : N;
  int64_t offset = rings.front().getOffset();
  for (LdsBufferOp buf : rings) {
    buf.setSlots(slots);
    buf.setOffset(offset);
    offset += slots * buf.getSlotBytes();
  }
  const int64_t asyncPerIter =
      llvm::count_if(producers, [](const Producer &p) { return p.async; });

  ImplicitLocOpBuilder b(op.getLoc(), op);
  auto schedule = ScheduleOp::create(b, op.getName(), N, op.getTripCountAttr(),
                                     op.getDynamicTripCount(), target.name);
  Block *body = b.createBlock(&schedule.getBody());
  b.setInsertionPointToStart(body);

  auto idx = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, v);
  };
  auto copies = [&](Value iter, Value pred) {
    for (const Producer &p : producers) {
      Value slot = RingSlotOp::create(b, b.getIndexType(), iter, p.buffer);
      Operation *copy =
          p.async ? AsyncCopyOp::create(b, p.buffer, slot, iter, pred)
                  : StagedCopyOp::create(b, p.buffer, slot, iter, pred);
      if (p.issuers)
        copy->setAttr(kIssuersAttr, p.issuers);
      cloneIterationBody(b, *p.body, copy->getRegion(0), iter, slot,
                         copyAtomFor(p.async, target));
    }
  };
  auto reads = [&](Value iter) {
    for (const Consumer &c : consumers) {
      Value slot = RingSlotOp::create(b, b.getIndexType(), iter, c.buffer);
      auto read = LdsReadOp::create(b, c.buffer, slot, iter);
      cloneIterationBody(b, *c.body, read.getBody(), iter, slot, std::nullopt);
    }
  };
  auto wait = [&](int64_t groupsAfter) {
    if (asyncPerIter)
      AsyncWaitOp::create(b, groupsAfter * asyncPerIter);
  };
  // Depth 1: the copy of i follows the drain of i - 1's reads. Its barrier
  // before the reads is drained too: a register-staged store is visible to
  // other waves on gfx9 only after s_waitcnt lgkmcnt(0), which a bare
  // s_barrier does not wait for (sm_90 lowers both to bar.sync).
  auto depthOneIteration = [&](Value i) {
    LdsBarrierOp::create(b);
    copies(i, Value());
    wait(0);
    LdsBarrierOp::create(b);
    reads(i);
  };
  auto forLoop = [&](Value lb, Value ub, function_ref<void(Value)> fn) {
    auto loop = scf::ForOp::create(b, lb, ub, idx(1));
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(loop.getBody()->getTerminator());
    fn(loop.getInductionVar());
  };

  if (std::optional<int64_t> tc = op.getTripCount()) {
    const int64_t T = *tc;
    if (D == 1) {
      forLoop(idx(0), idx(T), depthOneIteration);
    } else {
      for (int64_t j = 0; j < std::min(D - 1, T); ++j)
        copies(idx(j), Value());
      const int64_t steadyEnd = std::max<int64_t>(0, T - (D - 1));
      if (steadyEnd > 0)
        forLoop(idx(0), idx(steadyEnd), [&](Value i) {
          wait(D - 2);
          LdsBarrierOp::create(b);
          reads(i);
          copies(arith::AddIOp::create(b, i, idx(D - 1)), Value());
        });
      for (int64_t i = steadyEnd; i < T; ++i) { // peeled: exact counts
        wait(T - 1 - i);
        // Register-staged tiles are all visible after the first peeled
        // barrier and nothing is copied any more: later ones would be dead.
        if (asyncPerIter || i == steadyEnd)
          LdsBarrierOp::create(b);
        reads(idx(i));
      }
    }
  } else {
    Value T = op.getDynamicTripCount();
    if (D == 1) {
      forLoop(idx(0), T, depthOneIteration);
    } else {
      for (int64_t j = 0; j < D - 1; ++j)
        copies(idx(j), arith::CmpIOp::create(b, arith::CmpIPredicate::slt,
                                             idx(j), T));
      forLoop(idx(0), T, [&](Value i) {
        wait(D - 2);
        LdsBarrierOp::create(b);
        reads(i);
        Value next = arith::AddIOp::create(b, i, idx(D - 1));
        copies(next,
               arith::CmpIOp::create(b, arith::CmpIPredicate::slt, next, T));
      });
      // The loop leaves its last D - 1 groups outstanding, all predicated
      // off. Where waits count instructions (gfx950's vmcnt), those copies
      // issued their loads all the same, into the ring's sink slot: waited
      // for here, so that none lands after the schedule (R3).
      if (target.waitsCountInstructions())
        wait(0);
    }
  }
  LdsBarrierOp::create(b); // the exit drain
  op.erase();
  return schedule;
}

SmallVector<PipelineOp> mlir::kda::collectPipelines(Operation *root) {
  SmallVector<PipelineOp> pipes;
  root->walk([&](PipelineOp p) { pipes.push_back(p); });
  return pipes;
}

std::vector<PipelineConfigVerdict>
mlir::kda::enumeratePipelineConfigs(ModuleOp module, unsigned index,
                                    const TargetInfo &target) {
  std::vector<PipelineConfigVerdict> out;
  for (int64_t stages = 1; stages <= 4; ++stages)
    for (int64_t warps : {1, 2, 4, 8, 16}) {
      if (warps * target.waveSize > target.maxWorkgroupSize)
        continue;
      for (int64_t scale : {1, 2}) {
        OwningOpRef<ModuleOp> copy = module.clone();
        PipelineOp p = collectPipelines(*copy)[index];
        p.setDepth(stages);
        // The sweep is over depths: producers at stage 0, consumers at the
        // last stage of each depth.
        p.walk([&](ProduceOp prod) { prod.setStage(0); });
        p.walk([&](ConsumeOp cons) { cons.setStage(stages - 1); });
        p.walk([&](ProduceOp prod) {
          auto buf = SymbolTable::lookupNearestSymbolFrom<LdsBufferOp>(
              prod, prod.getBufferAttr());
          if (buf)
            buf.setSlotBytes(buf.getSlotBytes() * scale);
        });
        PipelineConfigVerdict v{stages, warps, scale, true, ""};
        FailureOr<ScheduleOp> s = expandPipeline(p, target);
        if (failed(s)) {
          v.safe = false;
          v.reason = "expansion failed";
        } else if (auto h = findPipelineHazard(*s)) {
          v.safe = false;
          v.reason = h->message;
        }
        out.push_back(v);
      }
    }
  return out;
}

namespace {
struct KdaExpandPipelinePass
    : public kda::impl::KdaExpandPipelineBase<KdaExpandPipelinePass> {
  using Base::Base;
  void runOnOperation() override {
    const TargetInfo *t = lookupTargetOrEmit(getOperation(), target);
    if (!t)
      return signalPassFailure();
    for (PipelineOp p : collectPipelines(getOperation())) {
      FailureOr<ScheduleOp> s = expandPipeline(p, *t);
      if (failed(s) || (verify && failed(verifyPipelineSchedule(*s))))
        signalPassFailure();
    }
  }
};

struct KdaVerifyPipelinePass
    : public kda::impl::KdaVerifyPipelineBase<KdaVerifyPipelinePass> {
  void runOnOperation() override {
    llvm::SmallPtrSet<Operation *, 4> rejected;
    getOperation().walk([&](ScheduleOp s) {
      if (failed(verifyPipelineSchedule(s))) {
        if (auto f = s->getParentOfType<gpu::GPUFuncOp>())
          rejected.insert(f);
        signalPassFailure();
      }
    });
    // Kernels whose waves hand LDS arrays to each other between barriers
    // by plain loads and stores, and every kernel's own accesses against
    // its schedules' entries and among its read bodies' threads
    // (LdsHandoffs.h; the roles' check covers both). A kernel whose
    // schedule was rejected already has its error.
    getOperation().walk([&](gpu::GPUFuncOp f) {
      if (!rejected.contains(f) && failed(verifyScheduleEntries(f)))
        signalPassFailure();
    });
    // Warpgroup atoms: each flight, issue to wait, in straight-line code.
    if (failed(verifyWgmmaFlights(getOperation())))
      signalPassFailure();
    // LDS events outside any schedule are checked by nothing: R0. (Kernels
    // instantiated from a verified schedule keep emulator markers; this
    // pass runs before that.)
    getOperation().walk([&](Operation *op) {
      if (!isa<AsyncCopyOp, StagedCopyOp, AsyncWaitOp, LdsReadOp, LdsDrainOp,
               BarrierOp, LdsBarrierOp>(op) ||
          op->getParentOfType<ScheduleOp>())
        return;
      op->emitError() << "R0: cannot analyse " << op->getName()
                      << " outside a kda.schedule: the hazard model checks "
                         "schedules only";
      signalPassFailure();
    });
    // A copy row is one of a copy's rows: only the copy's group, wait and
    // barrier order its landing. Anywhere else (a read body, the kernel
    // outside any schedule) nothing orders it: R0. (In a kda.produce it is
    // a row of the copies the expansion makes.)
    getOperation().walk([&](CopyRowOp row) {
      if (row->getParentOfType<AsyncCopyOp>() ||
          row->getParentOfType<StagedCopyOp>() ||
          row->getParentOfType<ProduceOp>())
        return;
      row.emitError() << "R0: cannot analyse " << row->getName()
                      << " outside the body of a kda.async_copy or "
                         "kda.staged_copy: no group, wait or barrier of the "
                         "hazard model orders its landing";
      signalPassFailure();
    });
    // Pieces and fences are checked in the kernel that runs them
    // (LdsHandoffs.cpp): in a function it calls, nothing would see them.
    getOperation().walk([&](Operation *op) {
      if (!isa<CopyPieceOp, CopyFenceOp>(op) ||
          op->getParentOfType<gpu::GPUFuncOp>())
        return;
      op->emitError() << "R0: cannot analyse " << op->getName()
                      << " outside a kernel (gpu.func): per-thread pieces "
                         "are checked in the kernel that issues and fences "
                         "them, and a function it calls is not";
      signalPassFailure();
    });
  }
};

struct KdaEnumeratePipelineConfigsPass
    : public kda::impl::KdaEnumeratePipelineConfigsBase<
          KdaEnumeratePipelineConfigsPass> {
  using Base::Base;
  void runOnOperation() override {
    const TargetInfo *t = lookupTargetOrEmit(getOperation(), target);
    if (!t)
      return signalPassFailure();
    llvm::raw_ostream &os = llvm::outs();
    for (auto [i, p] : llvm::enumerate(collectPipelines(getOperation()))) {
      os << "pipeline '" << p.getName() << "' on " << t->name << " ("
         << t->ldsBytes << " bytes of LDS, async copy "
         << (t->asyncCopy() ? "yes" : "no") << "):\n";
      for (const PipelineConfigVerdict &v :
           enumeratePipelineConfigs(getOperation(), i, *t))
        os << llvm::formatv("  stages={0} warps={1} block=x{2}: {3}\n",
                            v.stages, v.warps, v.blockScale,
                            v.safe ? std::string("safe")
                                   : "rejected: " + v.reason);
    }
  }
};
} // namespace
