//===- LdsHandoffs.cpp - barrier-interval check of LDS handoffs -----------===//
//
// See LdsHandoffs.h. The state is the list of workgroup-memory accesses made
// since the last barrier every thread reaches: the op, its byte range (the
// whole array it indexes: indices are not evaluated), whether it writes, and
// the threads that may make it. A branch whose condition is a function of
// the thread id (gpu.thread_id, lane and subgroup ids, constants, integer
// arithmetic and comparisons) is evaluated for every thread of the block:
// its `then` is made by the threads for which the condition may hold, its
// `else` by those for which it may not, both in the same interval. A branch
// on anything else is taken by the same threads on either side, as two
// paths whose states are joined. The kernel states its roles (groups of
// consecutive waves, kWaveRolesAttr). Two accesses of overlapping bytes in
// one interval, at least one a write, whose threads fall in different sets
// of roles are a hazard: a thread of one role and a thread of another touch
// the same array with nothing ordering them. Accesses within one set of
// roles are left to the emulator's race detector (it sees addresses; this
// sees arrays).
//
//===----------------------------------------------------------------------===//
#include "kda/Passes/LdsHandoffs.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/FormatVariadic.h"

#include <limits>

using namespace mlir;
using namespace mlir::kda;

namespace {

using Threads = llvm::BitVector;

/// Bytes [lo, hi) of one workgroup space: 0 the dynamic LDS, i + 1 the
/// kernel's workgroup attribution i.
struct Range {
  unsigned space = 0;
  int64_t lo = 0, hi = std::numeric_limits<int64_t>::max();
  bool overlaps(const Range &o) const {
    return space == o.space && lo < o.hi && o.lo < hi;
  }
};

struct Access {
  Operation *op;
  Range range;
  Threads threads;
  unsigned roles; // bit r: some thread of role r may make it
  bool write;
};

using State = SmallVector<Access>;

bool isWorkgroup(Type t) {
  auto m = dyn_cast<MemRefType>(t);
  return m && gpu::GPUDialect::hasWorkgroupMemoryAddressSpace(m);
}

int64_t typeBytes(MemRefType t) {
  if (!t.hasStaticShape())
    return std::numeric_limits<int64_t>::max();
  return t.getNumElements() * ((t.getElementTypeBitWidth() + 7) / 8);
}

class Checker {
public:
  Checker(gpu::GPUFuncOp fn, int64_t threads, int64_t waveSize,
          ArrayRef<int64_t> roleStarts)
      : fn(fn), threads(threads), waveSize(waveSize), roleStarts(roleStarts) {}

  std::optional<LdsHandoffHazard> run() {
    State s;
    walkBlock(fn.getBody().front(), s, Threads(threads, true),
              /*divergent=*/false);
    return hazard;
  }

private:
  gpu::GPUFuncOp fn;
  const int64_t threads, waveSize;
  /// The first thread of each role (ascending, the first 0).
  ArrayRef<int64_t> roleStarts;
  std::optional<LdsHandoffHazard> hazard;

  unsigned roleOf(int64_t tid) const {
    unsigned r = 0;
    while (r + 1 < roleStarts.size() && tid >= roleStarts[r + 1])
      ++r;
    return r;
  }
  unsigned rolesOf(const Threads &t) const {
    unsigned roles = 0;
    for (int tid = t.find_first(); tid >= 0; tid = t.find_next(tid))
      roles |= 1u << roleOf(tid);
    return roles;
  }
  std::string describeRoles(unsigned roles) const {
    std::string s;
    llvm::raw_string_ostream os(s);
    bool any = false;
    for (unsigned r = 0; r < roleStarts.size(); ++r) {
      if (!(roles >> r & 1))
        continue;
      int64_t lo = roleStarts[r],
              hi = r + 1 < roleStarts.size() ? roleStarts[r + 1] : threads;
      os << (any ? " and " : "") << "role " << r << " (waves [" << lo / waveSize
         << ", " << hi / waveSize << "))";
      any = true;
    }
    return s;
  }

  void fail(StringRef rule, const Twine &message, Operation *at,
            Operation *other = nullptr) {
    if (!hazard)
      hazard = LdsHandoffHazard{rule.str(), message.str(), at, other};
  }

  // ---- the thread id's values -------------------------------------------

  /// `v` for thread `tid` where it is a function of the thread id and
  /// constants only.
  std::optional<int64_t> eval(Value v, int64_t tid, unsigned depth = 0) {
    std::optional<int64_t> x = evalRaw(v, tid, depth);
    // i1 as 0 / 1 (a true constant reads as -1 sign-extended).
    if (x && v.getType().isInteger(1))
      return *x & 1;
    return x;
  }
  std::optional<int64_t> evalRaw(Value v, int64_t tid, unsigned depth) {
    if (depth > 48)
      return std::nullopt;
    Operation *op = v.getDefiningOp();
    if (!op)
      return std::nullopt;
    if (std::optional<int64_t> c = getConstantIntValue(v))
      return c;
    auto at = [&](Value x) { return eval(x, tid, depth + 1); };
    if (auto id = dyn_cast<gpu::ThreadIdOp>(op))
      return id.getDimension() == gpu::Dimension::x ? std::optional(tid)
                                                    : std::optional<int64_t>(0);
    if (isa<gpu::LaneIdOp>(op))
      return waveSize ? std::optional(tid % waveSize) : std::nullopt;
    if (isa<gpu::SubgroupIdOp>(op))
      return waveSize ? std::optional(tid / waveSize) : std::nullopt;
    if (isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtUIOp,
            arith::ExtSIOp>(op))
      return at(op->getOperand(0));
    if (auto t = dyn_cast<arith::TruncIOp>(op)) {
      std::optional<int64_t> x = at(t.getIn());
      unsigned w = t.getType().getIntOrFloatBitWidth();
      if (!x || w >= 64)
        return x;
      return *x & ((int64_t(1) << w) - 1);
    }
    if (auto s = dyn_cast<arith::SelectOp>(op)) {
      std::optional<int64_t> c = at(s.getCondition());
      if (c)
        return at(*c ? s.getTrueValue() : s.getFalseValue());
      std::optional<int64_t> x = at(s.getTrueValue()),
                             y = at(s.getFalseValue());
      return x && y && *x == *y ? x : std::nullopt;
    }
    if (auto cmp = dyn_cast<arith::CmpIOp>(op)) {
      std::optional<int64_t> x = at(cmp.getLhs()), y = at(cmp.getRhs());
      if (!x || !y)
        return std::nullopt;
      uint64_t ux = uint64_t(*x), uy = uint64_t(*y);
      switch (cmp.getPredicate()) {
      case arith::CmpIPredicate::eq:
        return *x == *y;
      case arith::CmpIPredicate::ne:
        return *x != *y;
      case arith::CmpIPredicate::slt:
        return *x < *y;
      case arith::CmpIPredicate::sle:
        return *x <= *y;
      case arith::CmpIPredicate::sgt:
        return *x > *y;
      case arith::CmpIPredicate::sge:
        return *x >= *y;
      case arith::CmpIPredicate::ult:
        return ux < uy;
      case arith::CmpIPredicate::ule:
        return ux <= uy;
      case arith::CmpIPredicate::ugt:
        return ux > uy;
      case arith::CmpIPredicate::uge:
        return ux >= uy;
      }
    }
    if (op->getNumOperands() != 2 || op->getNumResults() != 1)
      return std::nullopt;
    // And / or with one known side decide alone (the other may depend on
    // anything: a sequence length, a chunk count).
    std::optional<int64_t> x = at(op->getOperand(0)), y = at(op->getOperand(1));
    if (isa<arith::AndIOp>(op) && ((x && *x == 0) || (y && *y == 0)) &&
        op->getResult(0).getType().isInteger(1))
      return 0;
    if (isa<arith::OrIOp>(op) && ((x && *x == 1) || (y && *y == 1)) &&
        op->getResult(0).getType().isInteger(1))
      return 1;
    if (!x || !y)
      return std::nullopt;
    return llvm::TypeSwitch<Operation *, std::optional<int64_t>>(op)
        .Case([&](arith::AddIOp) { return *x + *y; })
        .Case([&](arith::SubIOp) { return *x - *y; })
        .Case([&](arith::MulIOp) { return *x * *y; })
        .Case([&](arith::DivUIOp) {
          return *y ? std::optional(int64_t(uint64_t(*x) / uint64_t(*y)))
                    : std::nullopt;
        })
        .Case([&](arith::RemUIOp) {
          return *y ? std::optional(int64_t(uint64_t(*x) % uint64_t(*y)))
                    : std::nullopt;
        })
        .Case([&](arith::DivSIOp) {
          return *y ? std::optional(*x / *y) : std::nullopt;
        })
        .Case([&](arith::RemSIOp) {
          return *y ? std::optional(*x % *y) : std::nullopt;
        })
        .Case([&](arith::AndIOp) { return *x & *y; })
        .Case([&](arith::OrIOp) { return *x | *y; })
        .Case([&](arith::XOrIOp) { return *x ^ *y; })
        .Case([&](arith::MinUIOp) {
          return int64_t(std::min(uint64_t(*x), uint64_t(*y)));
        })
        .Case([&](arith::MaxUIOp) {
          return int64_t(std::max(uint64_t(*x), uint64_t(*y)));
        })
        .Case([&](arith::MinSIOp) { return std::min(*x, *y); })
        .Case([&](arith::MaxSIOp) { return std::max(*x, *y); })
        .Default([](Operation *) { return std::nullopt; });
  }

  /// Whether `v` has one value for every thread of the block: built from
  /// constants, block and grid ids and sizes, kernel arguments, induction
  /// variables of loops with such bounds and loads of non-workgroup memory
  /// at such indices, by pure operations.
  bool uniform(Value v, unsigned depth = 0) {
    if (depth > 64)
      return false;
    if (auto arg = dyn_cast<BlockArgument>(v)) {
      Operation *owner = arg.getOwner()->getParentOp();
      if (owner == fn.getOperation())
        return true; // kernel arguments and attributions
      if (auto loop = dyn_cast<scf::ForOp>(owner))
        return arg == loop.getInductionVar() &&
               uniform(loop.getLowerBound(), depth + 1) &&
               uniform(loop.getUpperBound(), depth + 1) &&
               uniform(loop.getStep(), depth + 1);
      return false;
    }
    Operation *op = v.getDefiningOp();
    if (isa<gpu::ThreadIdOp, gpu::LaneIdOp, gpu::SubgroupIdOp>(op))
      return false;
    if (isa<gpu::BlockIdOp, gpu::GridDimOp, gpu::BlockDimOp>(op))
      return true;
    auto operandsUniform = [&] {
      return llvm::all_of(op->getOperands(),
                          [&](Value x) { return uniform(x, depth + 1); });
    };
    if (isa<memref::LoadOp, vector::LoadOp>(op))
      return !isWorkgroup(op->getOperand(0).getType()) && operandsUniform();
    if (op->getNumRegions() || !isMemoryEffectFree(op))
      return false;
    return operandsUniform();
  }

  // ---- accesses -----------------------------------------------------------

  /// The bytes `mem` may address, or none where the array cannot be told.
  std::optional<Range> rangeOf(Value mem) {
    if (auto arg = dyn_cast<BlockArgument>(mem)) {
      ArrayRef<BlockArgument> wg = fn.getWorkgroupAttributions();
      auto it = llvm::find(wg, arg);
      if (it == wg.end())
        return std::nullopt;
      return Range{unsigned(it - wg.begin()) + 1, 0,
                   typeBytes(cast<MemRefType>(arg.getType()))};
    }
    Operation *op = mem.getDefiningOp();
    if (isa<gpu::DynamicSharedMemoryOp>(op))
      return Range{};
    if (auto view = dyn_cast<memref::ViewOp>(op)) {
      std::optional<Range> src = rangeOf(view.getSource());
      std::optional<int64_t> shift = getConstantIntValue(view.getByteShift());
      if (!src || !shift)
        return src;
      int64_t bytes = typeBytes(view.getType());
      return Range{src->space, src->lo + *shift,
                   bytes == std::numeric_limits<int64_t>::max()
                       ? src->hi
                       : src->lo + *shift + bytes};
    }
    if (isa<memref::SubViewOp, memref::ReinterpretCastOp, memref::CastOp,
            memref::ExpandShapeOp, memref::CollapseShapeOp>(op))
      return rangeOf(op->getOperand(0)); // the whole source: conservative
    return std::nullopt;
  }

  /// The workgroup memory `op` reads and writes; false where it touches
  /// workgroup memory in a way this analysis does not know.
  bool accessesOf(Operation *op, SmallVectorImpl<std::pair<Value, bool>> &out) {
    auto add = [&](Value mem, bool write) {
      if (isWorkgroup(mem.getType()))
        out.push_back({mem, write});
      return true;
    };
    if (auto l = dyn_cast<memref::LoadOp>(op))
      return add(l.getMemRef(), false);
    if (auto s = dyn_cast<memref::StoreOp>(op))
      return add(s.getMemRef(), true);
    if (auto l = dyn_cast<vector::LoadOp>(op))
      return add(l.getBase(), false);
    if (auto s = dyn_cast<vector::StoreOp>(op))
      return add(s.getBase(), true);
    if (auto l = dyn_cast<vector::MaskedLoadOp>(op))
      return add(l.getBase(), false);
    if (auto s = dyn_cast<vector::MaskedStoreOp>(op))
      return add(s.getBase(), true);
    if (auto r = dyn_cast<vector::TransferReadOp>(op))
      return add(r.getBase(), false);
    if (auto w = dyn_cast<vector::TransferWriteOp>(op))
      return add(w.getBase(), true);
    if (auto a = dyn_cast<memref::AtomicRMWOp>(op))
      return add(a.getMemref(), true) && add(a.getMemref(), false);
    if (isa<memref::ViewOp, memref::SubViewOp, memref::ReinterpretCastOp,
            memref::CastOp, memref::ExpandShapeOp, memref::CollapseShapeOp,
            gpu::DynamicSharedMemoryOp>(op))
      return true;
    return llvm::none_of(op->getOperandTypes(), isWorkgroup);
  }

  std::string describe(const Threads &t) const {
    std::string s;
    llvm::raw_string_ostream os(s);
    int first = t.find_first();
    bool any = false;
    while (first >= 0) {
      int end = t.find_next_unset(first);
      if (end < 0)
        end = int(threads);
      os << (any ? ", " : "") << "[" << first << ", " << end << ")";
      any = true;
      first = end >= int(threads) ? -1 : t.find_next(end);
    }
    if (!any)
      os << "none";
    return s;
  }

  void record(Operation *op, Value mem, bool write, State &s,
              const Threads &active) {
    std::optional<Range> r = rangeOf(mem);
    if (!r)
      return fail("R0",
                  "cannot analyse the workgroup array this access indexes "
                  "(not a view at a constant offset of the dynamic LDS, nor "
                  "a workgroup attribution)",
                  op);
    const unsigned roles = rolesOf(active);
    for (const Access &a : s) {
      if (!a.range.overlaps(*r) || (!a.write && !write) || a.roles == roles)
        continue;
      std::string msg = llvm::formatv(
          "{0} of LDS bytes [{1}, {2}) of space {3} by threads {4} ({5}) in "
          "the barrier interval where threads {6} ({7}) {8} them: no barrier "
          "between the two roles",
          write ? "write" : "read", std::max(r->lo, a.range.lo),
          std::min(r->hi, a.range.hi), r->space, describe(active),
          describeRoles(roles), describe(a.threads), describeRoles(a.roles),
          a.write ? "wrote" : "read");
      return fail(write ? "R2" : "R1", msg, op, a.op);
    }
    for (const Access &a : s)
      if (a.op == op && a.write == write && a.threads == active)
        return;
    s.push_back({op, *r, active, roles, write});
  }

  static void join(State &into, const State &from) {
    for (const Access &a : from)
      if (llvm::none_of(into, [&](const Access &b) {
            return b.op == a.op && b.write == a.write && b.threads == a.threads;
          }))
        into.push_back(a);
  }

  // ---- the walk -----------------------------------------------------------

  void walkBlock(Block &block, State &s, const Threads &active,
                 bool divergent) {
    for (Operation &op : block) {
      walkOp(&op, s, active, divergent);
      if (hazard)
        return;
    }
  }

  void walkOp(Operation *op, State &s, const Threads &active, bool divergent) {
    if (isa<gpu::BarrierOp>(op)) {
      if (divergent || !active.all())
        return fail("R0",
                    "a barrier under a branch that depends on the thread: "
                    "the threads that skip it are not ordered by it",
                    op);
      s.clear();
      return;
    }
    if (auto branch = dyn_cast<scf::IfOp>(op))
      return walkIf(branch, s, active, divergent);
    if (auto loop = dyn_cast<scf::ForOp>(op))
      return walkFor(loop, s, active, divergent);
    if (op->getNumRegions())
      return fail("R0",
                  "cannot analyse " + op->getName().getStringRef() +
                      " (only scf.if and scf.for regions are interpreted)",
                  op);
    SmallVector<std::pair<Value, bool>> mems;
    if (!accessesOf(op, mems))
      return fail("R0",
                  "cannot analyse " + op->getName().getStringRef() +
                      ": it takes workgroup memory in a way this analysis "
                      "does not model",
                  op);
    for (auto [mem, write] : mems) {
      record(op, mem, write, s, active);
      if (hazard)
        return;
    }
  }

  void walkIf(scf::IfOp branch, State &s, const Threads &active,
              bool divergent) {
    Value cond = branch.getCondition();
    Threads mayTrue(threads), mayFalse(threads);
    bool split = false;
    for (int tid = active.find_first(); tid >= 0; tid = active.find_next(tid)) {
      std::optional<int64_t> c = eval(cond, tid);
      if (!c || *c)
        mayTrue.set(tid);
      if (!c || !*c)
        mayFalse.set(tid);
      split |= c.has_value();
    }
    const bool sameForAll = !split && uniform(cond);
    if (sameForAll) {
      // Two paths, each taken by every active thread: their states joined.
      State other = s;
      walkBlock(*branch.thenBlock(), s, active, divergent);
      if (branch.elseBlock() && !hazard)
        walkBlock(*branch.elseBlock(), other, active, divergent);
      join(s, other);
      return;
    }
    // Both sides in the same interval, each by the threads that may take it.
    walkBlock(*branch.thenBlock(), s, mayTrue, /*divergent=*/true);
    if (branch.elseBlock() && !hazard)
      walkBlock(*branch.elseBlock(), s, mayFalse, /*divergent=*/true);
  }

  void walkFor(scf::ForOp loop, State &s, const Threads &active,
               bool divergent) {
    // Zero or more trips: iterate the body from the entry state joined with
    // the state after each pass until nothing new reaches its start (the
    // state is a set of (access, threads) pairs of this kernel: finite).
    divergent |= !uniform(loop.getLowerBound()) ||
                 !uniform(loop.getUpperBound()) || !uniform(loop.getStep());
    State atStart = s;
    while (!hazard) {
      State out = atStart;
      walkBlock(*loop.getBody(), out, active, divergent);
      State next = atStart;
      join(next, out);
      if (next.size() == atStart.size())
        break;
      atStart = std::move(next);
    }
    join(s, atStart);
  }
};

} // namespace

std::optional<LdsHandoffHazard>
mlir::kda::findLdsHandoffHazard(gpu::GPUFuncOp kernel) {
  std::optional<ArrayRef<int32_t>> block = kernel.getKnownBlockSize();
  if (!block || (*block)[1] != 1 || (*block)[2] != 1)
    return LdsHandoffHazard{"R0",
                            "the kernel's block size is not known and "
                            "one-dimensional (known_block_size): its threads "
                            "cannot be enumerated",
                            kernel, nullptr};
  auto roles = kernel->getAttrOfType<DenseI64ArrayAttr>(kWaveRolesAttr);
  const int64_t threads = (*block)[0];
  if (!roles || roles.size() < 2 || roles[0] <= 0 || threads % roles[0])
    return LdsHandoffHazard{
        "R0",
        llvm::formatv("the kernel does not state its wave roles as {0} = "
                      "array<i64: wave size, first wave of each role after "
                      "the first...>",
                      kWaveRolesAttr)
            .str(),
        kernel, nullptr};
  const int64_t waveSize = roles[0];
  SmallVector<int64_t> starts = {0};
  for (int64_t w : roles.asArrayRef().drop_front()) {
    if (w * waveSize <= starts.back() || w * waveSize >= threads ||
        starts.size() >= 32)
      return LdsHandoffHazard{
          "R0",
          llvm::formatv("{0}: role starts must be ascending waves inside the "
                        "block of {1} threads, got wave {2}",
                        kWaveRolesAttr, threads, w)
              .str(),
          kernel, nullptr};
    starts.push_back(w * waveSize);
  }
  return Checker(kernel, threads, waveSize, starts).run();
}

LogicalResult mlir::kda::verifyLdsHandoffs(gpu::GPUFuncOp kernel) {
  std::optional<LdsHandoffHazard> h = findLdsHandoffHazard(kernel);
  if (!h)
    return success();
  InFlightDiagnostic d = h->at->emitError()
                         << h->rule << ": LDS handoff in kernel '"
                         << kernel.getName() << "': " << h->message;
  if (h->other)
    d.attachNote(h->other->getLoc()) << "the other access: " << *h->other;
  return failure();
}
