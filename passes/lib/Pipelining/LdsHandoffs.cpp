//===- LdsHandoffs.cpp - barrier-interval check of LDS handoffs -----------===//
//
// See LdsHandoffs.h. The state is the list of workgroup-memory accesses made
// since the last barrier every thread reaches: the op, its byte range (the
// whole array it indexes; indices are evaluated only to keep each access
// inside its array, checkInBounds), whether it writes, and
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
// sees arrays). A cp_async kda.copy_piece also leaves a mark in the
// interval, in flight until a kda.copy_fence of its threads: until then any
// access of its array but another piece is a hazard, whatever the roles,
// and a barrier or the kernel's end reached with a mark left is R3.
//
//===----------------------------------------------------------------------===//
#include "kda/Passes/LdsHandoffs.h"
#include "kda/Passes/LdsModel.h"
#include "kda/Passes/ThreadUniformity.h"

#include "kda/Dialect/KDA/KDAOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMTypes.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

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
  /// Whether lo is where the view starts (else only somewhere in [lo, hi)).
  bool exact = true;
  /// Anywhere in any workgroup space (a schedule's symbolic copy or read,
  /// whose ring no array names).
  bool any = false;
  bool overlaps(const Range &o) const {
    return any || o.any || (space == o.space && lo < o.hi && o.lo < hi);
  }
};

struct Access {
  Operation *op;
  Value mem; // the array it indexes
  Range range;
  Threads threads;
  unsigned roles; // bit r: some thread of role r may make it
  bool write;
  /// A cp_async kda.copy_piece whose threads have not passed a
  /// kda.copy_fence since: its bytes may still land (not an access of its
  /// own: the piece's write is recorded beside it).
  bool inFlight = false;
  /// A load that decided a branch taken alike by every thread
  /// (uniformHere): its bytes must stay unwritten until the interval ends,
  /// or a thread reading after the write may take the other side.
  bool decides = false;
  /// The loops around it and the walk's pass over each (Checker::passes):
  /// two accesses of one pass of a loop are of one trip of it.
  SmallVector<std::pair<Operation *, unsigned>, 2> trips = {};
  bool sameAs(const Access &o) const {
    return op == o.op && write == o.write && threads == o.threads &&
           inFlight == o.inFlight && decides == o.decides;
  }
};

using State = SmallVector<Access>;

bool isWorkgroup(Type t) { return isWorkgroupMemRefType(t); }

/// Bytes of a statically shaped memref (memrefBytes); unknown (the rest
/// of the space) where it has none.
int64_t typeBytes(MemRefType t) {
  return memrefBytes(t).value_or(std::numeric_limits<int64_t>::max());
}

/// How the kernel is checked: its waves' handoffs between roles (and its
/// schedules' entries), or only its schedules' entries (a kernel without
/// roles: one role, whose accesses among themselves are the emulator's).
enum class Mode { Handoffs, ScheduleEntries };

class Checker {
public:
  /// `threads` 0: the block size is not known; no branch is evaluated per
  /// thread (one symbolic thread stands for all of them).
  Checker(gpu::GPUFuncOp fn, int64_t threads, int64_t waveSize,
          ArrayRef<int64_t> roleStarts, Mode mode)
      : fn(fn), threads(std::max<int64_t>(threads, 1)), waveSize(waveSize),
        roleStarts(roleStarts), mode(mode), threadsKnown(threads > 0),
        laneWave(laneWaveOf(fn, waveSize)), uniformity(fn) {}

  std::optional<LdsHandoffHazard> run() {
    if (!fn.getBody().hasOneBlock()) {
      fail("R0",
           "cannot analyse a kernel of more than one block (unstructured "
           "control flow): only scf.if and scf.for are interpreted",
           fn);
      return hazard;
    }
    State s;
    sure = Threads(threads, true);
    walkBlock(fn.getBody().front(), s, Threads(threads, true),
              /*divergent=*/false);
    if (!hazard)
      landedBefore(fn.getBody().front().getTerminator(), s,
                   "the kernel returns");
    return hazard;
  }

private:
  gpu::GPUFuncOp fn;
  const int64_t threads, waveSize;
  /// The first thread of each role (ascending, the first 0).
  ArrayRef<int64_t> roleStarts;
  const Mode mode;
  const bool threadsKnown;
  /// The wave size lane and subgroup ids are evaluated with (0: unknown).
  const int64_t laneWave;
  static int64_t laneWaveOf(gpu::GPUFuncOp fn, int64_t rolesWave) {
    if (const TargetInfo *t = getEnclosingTarget(fn))
      return t->waveSize;
    if (fn->hasAttr(kWaveRolesAttr))
      return rolesWave;
    // Else its schedules' target, where they agree (kda-tune verifies a
    // candidate kernel before it sits in a module of its target).
    int64_t wave = 0;
    bool agree = true;
    fn.walk([&](ScheduleOp schedule) {
      const TargetInfo *t = lookupTarget(schedule.getTarget());
      const int64_t w = t ? int64_t(t->waveSize) : 0;
      agree = agree && w != 0 && (wave == 0 || wave == w);
      wave = w;
    });
    return agree ? wave : 0;
  }
  std::optional<LdsHandoffHazard> hazard;
  /// Walking a schedule's body (walkInside): its threads are one role.
  bool inSchedule = false;
  /// The loops being walked, outer first, each with the number of the pass
  /// over its body under way: every pass of walkFor gets a number of its
  /// own, so accesses recorded in one pass are of one trip, and an access
  /// carried into the next pass (no barrier since) is of an earlier one.
  SmallVector<std::pair<Operation *, unsigned>, 4> passes;
  unsigned passCount = 0;
  /// The threads sure to run the op being walked: under a branch whose
  /// condition a thread's evaluation cannot decide, that thread may take
  /// either side, so a kda.copy_fence there lands none of its pieces.
  Threads sure;

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

  /// Bits of an integer or index value (index: 64).
  static unsigned widthOf(Type t) {
    return t.isIndex() ? 64 : t.getIntOrFloatBitWidth();
  }
  /// Whether values of type `t` are evaluated: index and signless integers
  /// of at most 64 bits, which an int64_t holds (an i128 constant 2^64 is
  /// not 0, nor an i128 loop from 2^63 - 1 to 2^63 + 1 a loop of no trip:
  /// campaign 18).
  static bool evaluatedType(Type t) {
    return t.isIndex() ||
           (t.isSignlessInteger() && t.getIntOrFloatBitWidth() <= 64);
  }
  /// `x` wrapped to `bits`, kept sign-extended (the canonical form).
  static int64_t wrap(int64_t x, unsigned bits) {
    return bits >= 64 ? x : llvm::SignExtend64(uint64_t(x), bits);
  }
  /// The unsigned reading of a canonical value of `bits`.
  static uint64_t unsignedOf(int64_t x, unsigned bits) {
    return bits >= 64 ? uint64_t(x) : uint64_t(x) & ((uint64_t(1) << bits) - 1);
  }

  /// A value for every thread of the block where it is a function of the
  /// thread id and constants: one entry standing for all threads where no
  /// thread id reaches it (a constant, or unknown alike for all), else one a
  /// thread. Evaluated once a value for the whole block: the accesses,
  /// branches and loop bounds of one kernel share their index arithmetic.
  struct PerThread {
    bool varies = false;
    std::optional<int64_t> same;                 // !varies
    SmallVector<std::optional<int64_t>, 0> each; // varies: one a thread
    std::optional<int64_t> at(int64_t tid) const {
      return varies ? each[tid] : same;
    }
  };

  /// `v` for thread `tid` where it is a function of the thread id and
  /// constants only, wrapped to its type's width (sign-extended).
  std::optional<int64_t> eval(Value v, int64_t tid) {
    return evalAll(v).at(tid);
  }
  const PerThread &evalAll(Value v, unsigned depth = 0) {
    if (auto it = evalMemo.find(v); it != evalMemo.end())
      return *it->second;
    auto out = std::make_unique<PerThread>();
    if (depth <= 48 && evaluatedType(v.getType()))
      evalInto(v, depth, *out);
    const unsigned bits = widthOf(v.getType());
    for (std::optional<int64_t> &x : out->each)
      if (x)
        x = wrap(*x, bits);
    if (out->same)
      out->same = wrap(*out->same, bits);
    // The entries stay where they are as the map grows (recursion adds).
    return *(evalMemo[v] = std::move(out));
  }
  llvm::DenseMap<Value, std::unique_ptr<PerThread>> evalMemo;

  void evalInto(Value v, unsigned depth, PerThread &out) {
    Operation *op = v.getDefiningOp();
    if (!op)
      return;
    if (std::optional<int64_t> c = getConstantIntValue(v)) {
      out.same = c;
      return;
    }
    // Lane and subgroup ids of a one-dimensional block, where the wave size
    // is known (the enclosing kda.target's, else the stated roles'); not
    // evaluated otherwise.
    auto byThread = [&](auto f) {
      out.varies = true;
      out.each.resize(threads);
      for (int64_t tid = 0; tid < threads; ++tid)
        out.each[tid] = f(tid);
    };
    if (isa<gpu::LaneIdOp, gpu::SubgroupIdOp>(op)) {
      if (!threadsKnown || !laneWave)
        return;
      const bool lane = isa<gpu::LaneIdOp>(op);
      return byThread([&](int64_t tid) -> std::optional<int64_t> {
        return lane ? tid % laneWave : tid / laneWave;
      });
    }
    if (auto id = dyn_cast<gpu::ThreadIdOp>(op)) {
      if (!threadsKnown)
        return;
      if (id.getDimension() != gpu::Dimension::x)
        return void(out.same = 0);
      return byThread(
          [](int64_t tid) -> std::optional<int64_t> { return tid; });
    }
    if (!evaluable(op))
      return;
    SmallVector<const PerThread *, 3> ins;
    for (Value x : op->getOperands())
      ins.push_back(&evalAll(x, depth + 1));
    auto operandAt = [&](int64_t tid) {
      return [&, tid](Value x) -> std::optional<int64_t> {
        for (auto [operand, in] : llvm::zip(op->getOperands(), ins))
          if (operand == x)
            return in->at(tid);
        return std::nullopt;
      };
    };
    if (llvm::none_of(ins, [](const PerThread *in) { return in->varies; })) {
      out.same = evalOp(op, operandAt(0));
      return;
    }
    byThread([&](int64_t tid) { return evalOp(op, operandAt(tid)); });
  }

  /// The integer ops evalOp computes.
  /// Ops evaluated per thread; not one whose flags make a result poison
  /// (poisonFlags): LLVM folds those other than as evaluated here.
  static bool evaluable(Operation *op) {
    return !poisonFlags(op) &&
           isa<RingSlotOp, arith::ExtSIOp, arith::IndexCastOp, arith::ExtUIOp,
               arith::IndexCastUIOp, arith::TruncIOp, arith::SelectOp,
               arith::CmpIOp, arith::AddIOp, arith::SubIOp, arith::MulIOp,
               arith::DivUIOp, arith::RemUIOp, arith::DivSIOp, arith::RemSIOp,
               arith::ShLIOp, arith::ShRUIOp, arith::ShRSIOp, arith::AndIOp,
               arith::OrIOp, arith::XOrIOp, arith::MinUIOp, arith::MaxUIOp,
               arith::MinSIOp, arith::MaxSIOp>(op);
  }

  /// `op`'s result for one thread, `at` giving that thread's operands.
  std::optional<int64_t>
  evalOp(Operation *op,
         llvm::function_ref<std::optional<int64_t>(Value)> at) const {
    auto widthIn = [&](Value x) { return widthOf(x.getType()); };
    // A ring's slot: iter mod slots, unsigned, as the lowerings take it.
    if (auto r = dyn_cast<RingSlotOp>(op)) {
      auto buffer = SymbolTable::lookupNearestSymbolFrom<LdsBufferOp>(
          op, r.getBufferAttr());
      const int64_t slots = buffer ? buffer.getSlotsAttr().getInt() : 0;
      std::optional<int64_t> x = at(r.getIter());
      if (!x || slots <= 0)
        return std::nullopt;
      return int64_t(uint64_t(*x) % uint64_t(slots));
    }
    if (isa<arith::ExtSIOp, arith::IndexCastOp>(op))
      return at(op->getOperand(0)); // canonical values are sign-extended
    if (isa<arith::ExtUIOp, arith::IndexCastUIOp>(op)) {
      std::optional<int64_t> x = at(op->getOperand(0));
      if (!x)
        return x;
      return int64_t(unsignedOf(*x, widthIn(op->getOperand(0))));
    }
    if (isa<arith::TruncIOp>(op))
      return at(op->getOperand(0)); // eval wraps to the result's width
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
      const unsigned w = widthIn(cmp.getLhs());
      uint64_t ux = unsignedOf(*x, w), uy = unsignedOf(*y, w);
      bool r = false;
      switch (cmp.getPredicate()) {
      case arith::CmpIPredicate::eq:
        r = *x == *y;
        break;
      case arith::CmpIPredicate::ne:
        r = *x != *y;
        break;
      case arith::CmpIPredicate::slt:
        r = *x < *y;
        break;
      case arith::CmpIPredicate::sle:
        r = *x <= *y;
        break;
      case arith::CmpIPredicate::sgt:
        r = *x > *y;
        break;
      case arith::CmpIPredicate::sge:
        r = *x >= *y;
        break;
      case arith::CmpIPredicate::ult:
        r = ux < uy;
        break;
      case arith::CmpIPredicate::ule:
        r = ux <= uy;
        break;
      case arith::CmpIPredicate::ugt:
        r = ux > uy;
        break;
      case arith::CmpIPredicate::uge:
        r = ux >= uy;
        break;
      }
      return r ? -1 : 0; // i1 true, sign-extended
    }
    if (op->getNumOperands() != 2 || op->getNumResults() != 1)
      return std::nullopt;
    const bool isBool = op->getResult(0).getType().isInteger(1);
    // And / or of i1 with one side decided decide alone (the other may
    // depend on anything: a sequence length, a chunk count).
    std::optional<int64_t> x = at(op->getOperand(0)), y = at(op->getOperand(1));
    if (isBool && isa<arith::AndIOp>(op) && ((x && !*x) || (y && !*y)))
      return 0;
    if (isBool && isa<arith::OrIOp>(op) && ((x && *x) || (y && *y)))
      return -1;
    if (!x || !y)
      return std::nullopt;
    const unsigned w = widthOf(op->getResult(0).getType());
    const uint64_t ux = unsignedOf(*x, w), uy = unsignedOf(*y, w);
    const int64_t smallest = w >= 64 || w == 0
                                 ? std::numeric_limits<int64_t>::min()
                                 : -(int64_t(1) << (w - 1));
    return llvm::TypeSwitch<Operation *, std::optional<int64_t>>(op)
        .Case(
            [&](arith::AddIOp) { return int64_t(uint64_t(*x) + uint64_t(*y)); })
        .Case(
            [&](arith::SubIOp) { return int64_t(uint64_t(*x) - uint64_t(*y)); })
        .Case(
            [&](arith::MulIOp) { return int64_t(uint64_t(*x) * uint64_t(*y)); })
        .Case([&](arith::DivUIOp) {
          return uy ? std::optional(int64_t(ux / uy)) : std::nullopt;
        })
        .Case([&](arith::RemUIOp) {
          return uy ? std::optional(int64_t(ux % uy)) : std::nullopt;
        })
        .Case([&](arith::DivSIOp) -> std::optional<int64_t> {
          // The width's smallest value by -1 is undefined, not a wrap.
          if (!*y || (*y == -1 && *x == smallest))
            return std::nullopt;
          return *y == -1 ? -*x : *x / *y; // eval wraps to the width
        })
        .Case([&](arith::RemSIOp) -> std::optional<int64_t> {
          if (!*y || (*y == -1 && *x == smallest))
            return std::nullopt;
          return *y == -1 ? 0 : *x % *y;
        })
        .Case([&](arith::ShLIOp) -> std::optional<int64_t> {
          if (uy >= w)
            return std::nullopt; // poison
          return int64_t(uint64_t(*x) << uy);
        })
        .Case([&](arith::ShRUIOp) -> std::optional<int64_t> {
          if (uy >= w)
            return std::nullopt;
          return int64_t(ux >> uy);
        })
        .Case([&](arith::ShRSIOp) -> std::optional<int64_t> {
          if (uy >= w)
            return std::nullopt;
          return *x >> uy; // canonical values are sign-extended
        })
        .Case([&](arith::AndIOp) { return *x & *y; })
        .Case([&](arith::OrIOp) { return *x | *y; })
        .Case([&](arith::XOrIOp) { return *x ^ *y; })
        .Case([&](arith::MinUIOp) { return int64_t(std::min(ux, uy)); })
        .Case([&](arith::MaxUIOp) { return int64_t(std::max(ux, uy)); })
        .Case([&](arith::MinSIOp) { return std::min(*x, *y); })
        .Case([&](arith::MaxSIOp) { return std::max(*x, *y); })
        .Default([](Operation *) { return std::nullopt; });
  }

  /// Which values every thread of the block has alike (branch conditions
  /// and loop bounds that cannot split the threads).
  ThreadUniformity uniformity;
  bool uniform(Value v) { return uniformity.uniform(v); }

  /// Whether `v` has one value for every thread at this point of the walk
  /// (state `s`): ThreadUniformity's values and arithmetic of them, and
  /// plain loads of workgroup memory through views and at indices that are
  /// such values themselves, made in this barrier interval (their own read
  /// is in `s`: a barrier since would have ended the interval whose writes
  /// they may have raced with), whose array no access of the interval
  /// writes, and which no write ever met in their interval (`raced`: a
  /// write on a path that then passed a barrier is gone from `s`). The
  /// bytes were written before a barrier every thread passed, so every
  /// thread reads the same value. The loads are added to `decidedBy`: the
  /// caller holds them (Access::decides) so that a write of their bytes
  /// later in the interval is a hazard. Each value is decided once
  /// (`memo`): arithmetic that reuses a value is a DAG, not a tree.
  bool uniformHere(Value v, const State &s,
                   llvm::SetVector<Operation *> &decidedBy,
                   DenseMap<Value, bool> &memo, unsigned depth = 0) {
    if (uniform(v))
      return true;
    if (auto it = memo.find(v); it != memo.end())
      return it->second;
    Operation *op = v.getDefiningOp();
    if (!op || depth > 64)
      return false;
    auto all = [&](ValueRange xs) {
      return llvm::all_of(xs, [&](Value x) {
        return uniformHere(x, s, decidedBy, memo, depth + 1);
      });
    };
    bool same = false;
    if (isa<memref::LoadOp, vector::LoadOp>(op)) {
      Value mem = op->getOperand(0);
      std::optional<Range> r;
      same = isWorkgroup(mem.getType()) && !raced.contains(op) &&
             all(op->getOperands().drop_front()) && (r = rangeOf(mem)) &&
             llvm::any_of(s,
                          [&](const Access &a) {
                            return a.op == op && !a.write && !a.decides;
                          }) &&
             llvm::none_of(s, [&](const Access &a) {
               return (a.write || a.inFlight) && a.range.overlaps(*r);
             });
      // The views' offsets, sizes and strides too: a subview or a byte
      // shift at the thread id is a per-thread address with uniform
      // indices (rangeOf, which placed the chain, took only view ops).
      for (Value m = mem; same && m.getDefiningOp();) {
        Operation *view = m.getDefiningOp();
        if (view->getNumOperands() == 0)
          break;
        same = all(view->getOperands().drop_front());
        m = view->getOperand(0);
      }
      if (same)
        decidedBy.insert(op);
    } else {
      same = isa<arith::ArithDialect>(op->getDialect()) &&
             isMemoryEffectFree(op) && all(op->getOperands());
    }
    memo[v] = same;
    return same;
  }
  /// Loads whose array some write met in their barrier interval: never one
  /// value for every thread (uniformHere).
  llvm::SmallPtrSet<Operation *, 8> raced;

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
    if (!op)
      return std::nullopt;
    if (isa<gpu::DynamicSharedMemoryOp>(op))
      return Range{};
    if (auto view = dyn_cast<memref::ViewOp>(op)) {
      std::optional<Range> src = rangeOf(view.getSource());
      std::optional<int64_t> shift = getConstantIntValue(view.getByteShift());
      if (!src)
        return std::nullopt;
      if (!shift || !src->exact) // somewhere in the source
        return Range{src->space, src->lo, src->hi, /*exact=*/false};
      int64_t bytes = typeBytes(view.getType());
      return Range{src->space, src->lo + *shift,
                   bytes == std::numeric_limits<int64_t>::max()
                       ? src->hi
                       : src->lo + *shift + bytes};
    }
    // The same base and bytes.
    if (isa<memref::CastOp, memref::ExpandShapeOp, memref::CollapseShapeOp>(op))
      return rangeOf(op->getOperand(0));
    // Somewhere inside the source where its offsets, sizes and strides are
    // static (checkInBounds places those). Where any is known only at run
    // time, it may reach past the source, as a reinterpret cast
    // (campaign 16: subview %a[%off][64][1] of a 64-element %a read the
    // next array).
    auto sub = dyn_cast<memref::SubViewOp>(op);
    if (sub && sub.getOffsets().empty() && sub.getSizes().empty() &&
        sub.getStrides().empty()) {
      std::optional<Range> src = rangeOf(op->getOperand(0));
      if (src)
        src->exact = false;
      return src;
    }
    // May address anything of its space from the source's base on, and
    // past its end the attributions laid out after it: any workgroup bytes.
    if (isa<memref::ReinterpretCastOp, memref::SubViewOp>(op)) {
      std::optional<Range> src = rangeOf(op->getOperand(0));
      if (src) {
        *src = Range{src->space, 0, std::numeric_limits<int64_t>::max(),
                     /*exact=*/false};
        src->any = true;
      }
      return src;
    }
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
    if (auto piece = dyn_cast<CopyPieceOp>(op))
      return add(piece.getLds(), true);
    if (auto atom = dyn_cast<WgmmaOp>(op))
      return add(atom.getLds(), false);
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
    // A call may reach workgroup memory of its own; a raw pointer may point
    // into it: neither is told apart here.
    if (isa<CallOpInterface>(op) ||
        llvm::any_of(op->getOperandTypes(),
                     llvm::IsaPred<LLVM::LLVMPointerType>) ||
        llvm::any_of(op->getResultTypes(),
                     llvm::IsaPred<LLVM::LLVMPointerType>))
      return false;
    return llvm::none_of(op->getOperandTypes(), isWorkgroup) &&
           llvm::none_of(op->getResultTypes(), isWorkgroup);
  }

  std::string describe(const Threads &t) const {
    if (!threadsKnown)
      return "(any: the block size is not known)";
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
    // An in-flight piece's bytes are the copy's until its threads fence,
    // whoever touches them (pieces beside each other into one array are
    // the emulator's to tell apart).
    if (!isa<CopyPieceOp>(op))
      for (const Access &a : s) {
        if (!a.inFlight || !a.range.overlaps(*r))
          continue;
        return fail(
            write ? "R2" : "R1",
            llvm::formatv("{0} of {1} by threads {2} while the cp_async "
                          "pieces of threads {3} may still be landing in it: "
                          "no kda.copy_fence of theirs since they were issued",
                          write ? "write" : "read", describeSpace(*r, a.range),
                          describe(active), describe(a.threads))
                .str(),
            op, a.op);
      }
    // Bytes a branch's condition was read from (uniformHere): every thread
    // took it as one value, which a write in the same interval breaks. A
    // load this write meets is never one value (raced).
    Access made{op, mem, *r, active, roles, write};
    made.trips.assign(passes.begin(), passes.end());
    if (write)
      for (const Access &a : s) {
        if (a.write || a.inFlight || !a.range.overlaps(*r))
          continue;
        if (!a.decides) {
          if (isa<memref::LoadOp, vector::LoadOp>(a.op))
            raced.insert(a.op);
          continue;
        }
        if (!bytesMayMeet(made, a))
          continue;
        return fail(
            "R2",
            llvm::formatv("write of {0} by threads {1} in the barrier "
                          "interval where a branch taken alike by every "
                          "thread read its condition from it: a thread that "
                          "reads after the write may take the other side",
                          describeSpace(*r, a.range), describe(active))
                .str(),
            op, a.op);
      }
    // A warpgroup atom reads its B operand for every thread of its group,
    // from bytes its descriptor places: a write of its array in the same
    // interval, by any thread, may meet them.
    for (const Access &a : s) {
      if (!a.range.overlaps(*r) || (!a.write && !write) || a.inFlight ||
          !(isa<WgmmaOp>(a.op) || isa<WgmmaOp>(op)))
        continue;
      return fail(write ? "R2" : "R1",
                  llvm::formatv("{0} of {1} by threads {2} in the barrier "
                                "interval of a kda.wgmma that reads its B "
                                "operand from that array for its whole "
                                "warpgroup (threads {3})",
                                write ? "write" : "read",
                                describeSpace(*r, a.range), describe(active),
                                describe(a.threads))
                      .str(),
                  op, a.op);
    }
    for (const Access &a : s) {
      // Accesses of one role among themselves: a hazard where two threads'
      // evaluated bytes meet (threadsClash); indices that do not evaluate
      // are the emulator's. Any pair that may involve two roles is a hazard.
      const bool oneRole =
          inSchedule || (a.roles == roles && llvm::has_single_bit(roles));
      if (a.inFlight || a.decides || !a.range.overlaps(*r) ||
          (!a.write && !write))
        continue;
      if (oneRole) {
        if (!threadsClash(made, a, write))
          return;
        continue;
      }
      const int64_t hi = std::min(r->hi, a.range.hi);
      std::string msg = llvm::formatv(
          "{0} of bytes [{1}, {2}) of {3} by threads {4} ({5}) in the "
          "barrier interval where threads {6} ({7}) {8} them: no barrier "
          "between the roles",
          write ? "write" : "read", std::max(r->lo, a.range.lo),
          hi == std::numeric_limits<int64_t>::max() ? std::string("end")
                                                    : std::to_string(hi),
          r->space ? "workgroup attribution " + std::to_string(r->space - 1)
                   : std::string("the dynamic LDS"),
          describe(active), describeRoles(roles), describe(a.threads),
          describeRoles(a.roles), a.write ? "wrote" : "read");
      return fail(write ? "R2" : "R1", msg, op, a.op);
    }
    if (write && !threadsClash(made, made, made.write))
      return;
    auto cp = dyn_cast<CopyPieceOp>(op);
    for (bool inFlight : {false, true}) {
      if (inFlight && (!cp || cp.getAtom() != CopyAtom::CpAsync))
        break;
      made.inFlight = inFlight;
      if (llvm::none_of(s, [&](const Access &a) { return a.sameAs(made); }))
        s.push_back(made);
    }
  }

  // ---- threads of one role ----------------------------------------------

  /// A value an access's indices take, enumerated: `count` values from
  /// `first` by `step` (wrapped to its width). A loop's counter (`loop`
  /// set) takes them in order, trip by trip; any other value is one the
  /// same for every thread whose range holds `count` values.
  struct Enumerated {
    Value key;
    scf::ForOp loop;
    int64_t count, first, step;
  };

  /// Bytes [lo, hi) that thread `tid` touches with one access.
  struct ThreadBytes {
    int64_t lo, hi;
    int tid;
    /// Which values of the footprint's enumerated values (Footprint::vars,
    /// in mixed radix of their counts): 0 where it has none.
    int combo = 0;
  };
  /// Every thread's bytes of one access whose indices evaluate (functions
  /// of the thread id and constants), sorted by lo; `root` null: counted
  /// from the start of workgroup space `space`; else from the start of
  /// array `root` (comparable only with accesses of the same root). Empty
  /// for accesses whose extent this check does not read (masked ops and
  /// transfers with a mask, n-D vectors) and memrefs without a static
  /// strided layout.
  struct Footprint {
    SmallVector<ThreadBytes> bytes;
    Value root;
    unsigned space = 0;
    bool atomic = false; // two atomics on one word do not race
    /// In a loop of no trip: the access is never made.
    bool never = false;
    int64_t elementBytes = 0; // ... of one size (partly overlapping ones do)
    /// Byte shifts by values the same for every thread that do not evaluate
    /// and are not enumerated (a block size, a counter of a loop of
    /// run-time bounds) as (value, bytes a unit), sorted by value: every
    /// thread's bytes are `bytes` moved by their sum, which no thread's
    /// evaluation knows.
    SmallVector<std::pair<Value, int64_t>, 2> shifts;
    /// Threads left out of `bytes`: an index that does not evaluate for
    /// them (not a sum of evaluated terms and shifts).
    Threads unknown;
    /// The values the indices take whose every value is enumerated: loop
    /// counters (bounds evaluated alike for every thread, few trips) and
    /// values the same for every thread of a small range (a ring's slot):
    /// `bytes` holds each thread's bytes at each combination of them.
    SmallVector<Enumerated, 2> vars;
    /// The place in `vars[i]`'s values that combination `combo` takes.
    int64_t placeOf(int combo, size_t i) const {
      for (size_t j = vars.size(); j-- > i + 1;)
        combo /= int(vars[j].count);
      return combo % vars[i].count;
    }
  };
  using Terms = SmallVector<std::pair<Value, int64_t>, 4>;

  /// `v` times `scale` as a sum of values evaluated for every thread
  /// (`terms`) and of values the same for every thread that do not
  /// evaluate (`shifts`), splitting 64-bit additions, subtractions and
  /// multiplications by a constant without poison flags: those wrap modulo
  /// 2^64 alike for every thread, so a shift added to two indices moves
  /// both alike. Anything else is a term (some threads may not evaluate).
  void linearize(Value v, uint64_t scale, Terms &terms, Terms &shifts,
                 llvm::function_ref<bool(Value)> evaluates,
                 unsigned depth = 0) {
    const bool known = evaluates(v);
    Operation *op = v.getDefiningOp();
    if (!known && depth < 48 && op && widthOf(v.getType()) == 64 &&
        !poisonFlags(op)) {
      if (isa<arith::AddIOp, arith::SubIOp>(op)) {
        linearize(op->getOperand(0), scale, terms, shifts, evaluates,
                  depth + 1);
        linearize(op->getOperand(1),
                  isa<arith::SubIOp>(op) ? uint64_t(0) - scale : scale, terms,
                  shifts, evaluates, depth + 1);
        return;
      }
      if (isa<arith::MulIOp>(op))
        for (unsigned side : {0u, 1u})
          if (std::optional<int64_t> c =
                  getConstantIntValue(op->getOperand(side)))
            return linearize(op->getOperand(1 - side), scale * uint64_t(*c),
                             terms, shifts, evaluates, depth + 1);
    }
    if (!known && uniform(v))
      shifts.push_back({v, int64_t(scale)});
    else
      terms.push_back({v, int64_t(scale)});
  }

  /// The array `mem` addresses through casts, subviews, reinterpret casts
  /// and reshapes (each keeps its source's base; its type's layout says
  /// where in the source its elements are).
  static Value rootOf(Value mem) {
    while (Operation *op = mem.getDefiningOp()) {
      if (!keepsBase(op))
        break;
      mem = op->getOperand(0);
    }
    return mem;
  }

  /// A view at a shift known only at run time, placed in the frame it
  /// shares with every view of the same source whose shift differs from
  /// its own by a constant: (the frame's first view, this view's byte in
  /// it). Accesses through two such views are compared in one frame: two
  /// views at `slot * 1024 + 2048` are one array, not two that never meet,
  /// and one at `+ 2052` lies 4 bytes into it. Views of unrelated shifts
  /// stay apart (the emulator's race detector's).
  std::pair<Value, int64_t> viewFrame(memref::ViewOp view) {
    Value shift = view.getByteShift();
    int64_t offset = 0;
    while (auto add = shift.getDefiningOp<arith::AddIOp>()) {
      if (poisonFlags(add))
        break;
      std::optional<int64_t> rhs = getConstantIntValue(add.getRhs()),
                             lhs = getConstantIntValue(add.getLhs());
      if (!rhs && !lhs)
        break;
      const int64_t limit = int64_t(1) << 40;
      if (llvm::AddOverflow(offset, rhs ? *rhs : *lhs, offset) ||
          offset > limit || offset < -limit)
        return {view.getResult(), 0};
      shift = rhs ? add.getLhs() : add.getRhs();
    }
    auto [it, fresh] =
        frames.try_emplace(std::make_pair(view.getSource(), shift),
                           std::make_pair(view.getResult(), offset));
    return {it->second.first, offset - it->second.second};
  }
  /// (source, shift less its constant addends) -> (the first view, its own
  /// constant addend).
  llvm::DenseMap<std::pair<Value, Value>, std::pair<Value, int64_t>> frames;

  const Footprint &threadBytes(const Access &a) {
    auto [it, fresh] = bytesMemo.try_emplace(a.op);
    if (!fresh)
      return *it->second;
    // Held by pointer: a footprint stays where it is as the map grows (the
    // caller keeps two at once).
    it->second = std::make_unique<Footprint>();
    Footprint &out = *it->second;
    if (!threadsKnown)
      return out;
    out.atomic = isa<memref::AtomicRMWOp>(a.op);
    Value mem;
    SmallVector<Value, 4> indices;
    SmallVector<int64_t, 4> spans;
    // One contiguous run a thread: n-D vectors are not (their rows are the
    // emulator's to tell apart).
    if (!indexedAccess(a.op, mem, indices, spans, /*forRaces=*/true) ||
        spans.empty() ||
        llvm::any_of(ArrayRef(spans).drop_back(),
                     [](int64_t w) { return w != 1; }))
      return out;
    auto type = dyn_cast<MemRefType>(mem.getType());
    SmallVector<int64_t> strides;
    int64_t offset = 0;
    if (!type || indices.size() != size_t(type.getRank()) ||
        type.getRank() == 0 || !staticStridedLayout(type, strides, offset) ||
        (spans.back() > 1 && strides.back() != 1))
      return out;
    // Elements lie elementBytes apart, as LLVM lays the array out (a
    // vector<3xf32> 16 bytes, of which an access touches 12: the footprint
    // counts 16, never fewer bytes than the access reaches).
    std::optional<int64_t> stride = elementBytes(type.getElementType());
    if (!stride)
      return out;
    const int64_t elemBytes = *stride;
    out.elementBytes = elemBytes;
    // From the root's start; from its space's start where the root sits at
    // a known byte of it.
    Value root = rootOf(mem);
    int64_t base = 0;
    // In a schedule's read bodies, a view at a run-time byte shift is placed
    // in its source, the shift one more index (in bytes): evaluated per
    // thread, split into terms and shifts, its counters enumerated, as any
    // index. (Elsewhere views of one source whose shifts differ by a
    // constant share a frame, viewFrame.)
    SmallVector<Value, 2> viewShifts;
    while (auto view = root.getDefiningOp<memref::ViewOp>()) {
      std::optional<Range> at = rangeOf(root);
      if (!inSchedule || (at && at->exact && !at->any))
        break;
      viewShifts.push_back(view.getByteShift());
      root = rootOf(view.getSource());
    }
    std::optional<Range> r = rangeOf(root);
    if (r && r->exact && !r->any) {
      base = r->lo;
      out.space = r->space;
    } else if (auto view = root.getDefiningOp<memref::ViewOp>()) {
      std::tie(out.root, base) = viewFrame(view);
    } else {
      out.root = root;
    }
    // In a schedule's read bodies, the loop counters whose every trip is
    // enumerated, then each index as evaluated terms and shifts, in
    // elements of the array. Elsewhere each index is one term (the threads
    // it does not evaluate for are the emulator's): the walk of kernel
    // code keeps the accesses of a branch it cannot decide in one interval
    // across its barriers, which only the indices it cannot place kept
    // from comparing. The branches around the access count: a thread
    // whose condition, at a combination of the counters, takes the other
    // side makes no access there (the walk evaluated them without the
    // counters).
    // A loop of no trip around it (whatever its counter's part in the
    // indices): the access is never made (campaign 19).
    for (Operation *in = a.op; inSchedule && (in = in->getParentOp());)
      if (auto loop = dyn_cast<scf::ForOp>(in); loop && tripCount(loop) == 0) {
        out.never = true;
        return out;
      }
    SmallVector<std::pair<Value, bool>, 4> guards; // (condition, then side)
    SmallVector<Value, 8> placing(indices.begin(), indices.end());
    placing.append(viewShifts.begin(), viewShifts.end());
    for (Operation *in = a.op; inSchedule && (in = in->getParentOp());)
      if (auto branch = dyn_cast<scf::IfOp>(in)) {
        guards.push_back(
            {branch.getCondition(),
             branch.getThenRegion().isAncestor(a.op->getParentRegion())});
        placing.push_back(branch.getCondition());
      }
    if (inSchedule)
      out.vars = enumerated(placing);
    // A counter of a loop of no trip: the access is never made.
    if (llvm::any_of(out.vars, [](const Enumerated &e) { return !e.count; })) {
      out.never = true;
      return out;
    }
    int64_t combos = 1;
    for (const Enumerated &e : out.vars)
      combos *= e.count;
    auto bind = [&](int combo) {
      Bound bound;
      for (auto [i, e] : llvm::enumerate(out.vars))
        bound[e.key] =
            wrap(int64_t(uint64_t(e.first) +
                         uint64_t(out.placeOf(combo, i)) * uint64_t(e.step)),
                 widthOf(e.key.getType()));
      return bound;
    };
    const Bound first = bind(0);
    auto evaluates = [&](Value v) {
      for (int64_t tid = 0; tid < threads; ++tid) {
        BoundMemo memo;
        if (!evalBound(v, tid, first, memo))
          return false;
      }
      return true;
    };
    // Terms and shifts in bytes: an index's elements are strides[d] x
    // elemBytes bytes apart, a view's shift is bytes.
    Terms terms, shifts;
    auto place = [&](Value v, uint64_t bytes) {
      Terms t, sh;
      if (inSchedule)
        linearize(v, 1, t, sh, evaluates);
      else
        t.push_back({v, 1});
      for (auto [list, into] : {std::pair(&t, &terms), std::pair(&sh, &shifts)})
        for (auto [x, c] : *list)
          into->push_back({x, int64_t(uint64_t(c) * bytes)});
    };
    for (auto [d, index] : llvm::enumerate(indices))
      place(index, uint64_t(strides[d]) * uint64_t(elemBytes));
    for (Value shift : viewShifts)
      place(shift, 1);
    out.shifts = bytesOfShifts(shifts);
    out.unknown.resize(threads);
    const int64_t span = spans.back();
    for (int combo = 0; combo < combos; ++combo) {
      const Bound bound = bind(combo);
      for (int64_t tid = 0; tid < threads; ++tid) {
        BoundMemo memo;
        if (llvm::any_of(guards, [&](const std::pair<Value, bool> &g) {
              std::optional<int64_t> c = evalBound(g.first, tid, bound, memo);
              return c && (*c != 0) != g.second;
            }))
          continue;
        uint64_t at = uint64_t(base) + uint64_t(offset) * uint64_t(elemBytes);
        bool known = true;
        for (auto [term, scale] : terms) {
          std::optional<int64_t> i = evalBound(term, tid, bound, memo);
          if (!i) {
            known = false;
            break;
          }
          at += uint64_t(*i) * uint64_t(scale);
        }
        if (!known) {
          out.unknown.set(tid);
          continue;
        }
        out.bytes.push_back({int64_t(at),
                             int64_t(at + uint64_t(span * elemBytes)), int(tid),
                             combo});
      }
    }
    llvm::sort(out.bytes, [](const ThreadBytes &x, const ThreadBytes &y) {
      return std::tie(x.lo, x.tid) < std::tie(y.lo, y.tid);
    });
    return out; // eval inserts nothing into bytesMemo
  }
  using Bound = llvm::SmallDenseMap<Value, int64_t, 2>;
  using BoundMemo = llvm::SmallDenseMap<Value, std::optional<int64_t>, 16>;
  /// `v` for thread `tid` with the loop counters in `bound` at the values
  /// given (as evalAll where `v` evaluates without them). `memo` is one
  /// thread's at one binding.
  std::optional<int64_t> evalBound(Value v, int64_t tid, const Bound &bound,
                                   BoundMemo &memo, unsigned depth = 0) {
    if (auto it = bound.find(v); it != bound.end())
      return it->second;
    if (std::optional<int64_t> x = eval(v, tid); x || bound.empty())
      return x;
    if (auto it = memo.find(v); it != memo.end())
      return it->second;
    std::optional<int64_t> r;
    Operation *op = v.getDefiningOp();
    if (op && depth <= 48 && evaluable(op) && evaluatedType(v.getType()))
      r = evalOp(op, [&](Value x) {
        return evalBound(x, tid, bound, memo, depth + 1);
      });
    if (r)
      r = wrap(*r, widthOf(v.getType()));
    return memo[v] = r;
  }

  /// The values that `values` (an access's indices, its views' byte shifts
  /// and the conditions of the branches around it) take through ops
  /// evalAll does not resolve, enumerated where their values are few:
  /// counters of scf.for loops whose bounds evaluate alike for every
  /// thread (tripCount), and, where a value does not evaluate from them,
  /// values the same for every thread whose range (uniformRange) holds at
  /// most 4096 values: a ring's slot, a remainder of a run-time counter.
  /// At most 4 values and 2^20 thread placements in all; others stay
  /// shifts (linearize) or unknown.
  SmallVector<Enumerated, 2> enumerated(ArrayRef<Value> values) {
    Enumerating e;
    e.placements = std::max<int64_t>(threads, 1);
    for (Value v : values)
      (void)enumerate(v, e, 0);
    return std::move(e.vars);
  }
  struct Enumerating {
    SmallVector<Enumerated, 2> vars;
    llvm::DenseMap<Value, bool> done; // whether a value evaluates with vars
    int64_t placements = 1;
    /// Room for one more value of `count` values.
    bool room(int64_t count) const {
      return vars.size() < 4 && count <= 4096 &&
             placements * std::max<int64_t>(count, 1) <= (int64_t(1) << 20);
    }
  };
  /// Whether `v` evaluates once `e.vars` are bound, enumerating what it
  /// takes: an operand of an op evalAll computes, recursively; else `v`
  /// itself where it is a counter or few values.
  bool enumerate(Value v, Enumerating &e, unsigned depth) {
    if (auto it = e.done.find(v); it != e.done.end())
      return it->second;
    if (depth > 48)
      return false;
    auto add = [&](Enumerated x) {
      e.placements *= std::max<int64_t>(x.count, 1);
      e.vars.push_back(x);
      return true;
    };
    auto decide = [&]() -> bool {
      const PerThread &p = evalAll(v);
      if (p.varies ? llvm::all_of(p.each,
                                  [](std::optional<int64_t> x) { return !!x; })
                   : p.same.has_value())
        return true;
      if (auto arg = dyn_cast<BlockArgument>(v)) {
        auto loop = dyn_cast_or_null<scf::ForOp>(arg.getOwner()->getParentOp());
        if (loop && loop.getInductionVar() == v)
          if (std::optional<int64_t> trips = tripCount(loop);
              trips && e.room(*trips))
            return add({v, loop, *trips, *evalAll(loop.getLowerBound()).same,
                        // (a loop of no trip need not have a known step)
                        evalAll(loop.getStep()).same.value_or(1)});
      } else if (Operation *op = v.getDefiningOp(); op && evaluable(op)) {
        bool all = true;
        for (Value x : op->getOperands())
          all &= enumerate(x, e, depth + 1);
        if (all)
          return true;
      }
      if (!uniform(v))
        return false;
      const ConstantIntRanges r = uniformRange(v);
      APInt count = r.smax() - r.smin();
      if (r.smax().slt(r.smin()) || count.uge(4096) ||
          !e.room(int64_t(count.getZExtValue()) + 1))
        return false;
      return add({v, scf::ForOp(), int64_t(count.getZExtValue()) + 1,
                  r.smin().getSExtValue(), 1});
    };
    const bool ok = decide();
    e.done[v] = ok;
    return ok;
  }

  /// The signed range of `v`, a value the same for every thread: a point
  /// where evalAll resolves it, else its op's range rules (rangeByRules:
  /// a ring's slot in [0, slots), a remainder below its divisor) over its
  /// operands'. No bound from a block argument or an id or size of the
  /// launch (gpu's upper_bound annotations are the kernel's say-so).
  ConstantIntRanges uniformRange(Value v, unsigned depth = 0) {
    if (!v.getType().isIntOrIndex())
      return ConstantIntRanges::maxRange(1);
    const unsigned width = rangeWidth(v);
    // Enumerated values are bound as int64_t: none wider.
    if (!evaluatedType(v.getType()))
      return ConstantIntRanges::maxRange(width);
    const PerThread &p = evalAll(v);
    if (!p.varies && p.same)
      return ConstantIntRanges::constant(APInt(width, uint64_t(*p.same), true));
    Operation *def = v.getDefiningOp();
    if (depth > 48 || !def ||
        isa_and_nonnull<gpu::GPUDialect>(def->getDialect()))
      return ConstantIntRanges::maxRange(width);
    if (auto it = rangeMemo.find(v); it != rangeMemo.end())
      return it->second;
    ConstantIntRanges r =
        rangeByRules(v, [&](Value x) { return uniformRange(x, depth + 1); });
    rangeMemo.insert({v, r});
    return r;
  }
  llvm::DenseMap<Value, ConstantIntRanges> rangeMemo;

  /// `loop`'s trips where its bounds evaluate alike for every thread and
  /// it runs at most 4096.
  std::optional<int64_t> tripCount(scf::ForOp loop) {
    const PerThread &lb = evalAll(loop.getLowerBound()),
                    &ub = evalAll(loop.getUpperBound()),
                    &step = evalAll(loop.getStep());
    if (lb.varies || ub.varies || !lb.same || !ub.same)
      return std::nullopt;
    const unsigned w = widthOf(loop.getLowerBound().getType());
    const bool below = loop.getUnsignedCmp()
                           ? unsignedOf(*lb.same, w) < unsignedOf(*ub.same, w)
                           : *lb.same < *ub.same;
    // The lowering compares before the first trip: a loop whose start is
    // not below its bound runs none, whatever its step (an i1 loop from
    // false to true by true: campaign 18).
    if (!below)
      return 0;
    if (step.varies || !step.same || *step.same <= 0)
      return std::nullopt;
    const uint64_t distance =
        loop.getUnsignedCmp()
            ? unsignedOf(*ub.same, w) - unsignedOf(*lb.same, w)
            : uint64_t(*ub.same) - uint64_t(*lb.same);
    const uint64_t trips = (distance - 1) / uint64_t(*step.same) + 1;
    if (trips > 4096)
      return std::nullopt;
    // The lowering steps the counter in its own width and compares: where
    // the step after the last trip wraps, the loop runs on (scf-to-cf), so
    // its trips are not these.
    const APInt first = loop.getUnsignedCmp()
                            ? APInt(128, unsignedOf(*lb.same, w))
                            : APInt(128, uint64_t(*lb.same), /*isSigned=*/true);
    const APInt by(128, uint64_t(*step.same), /*isSigned=*/true);
    if (steppedPastMax(first + APInt(128, trips - 1) * by, by, w,
                       loop.getUnsignedCmp()))
      return std::nullopt;
    return int64_t(trips);
  }

  /// Shifts in bytes, several of one value summed, zeros dropped, sorted
  /// by value so that two footprints' lists compare.
  static SmallVector<std::pair<Value, int64_t>, 2>
  bytesOfShifts(const Terms &shifts) {
    llvm::MapVector<Value, uint64_t> sum;
    for (auto [v, c] : shifts)
      sum[v] += uint64_t(c);
    SmallVector<std::pair<Value, int64_t>, 2> out;
    for (auto [v, c] : sum)
      if (c)
        out.push_back({v, int64_t(c)});
    llvm::sort(out, [](const auto &x, const auto &y) {
      return x.first.getAsOpaquePointer() < y.first.getAsOpaquePointer();
    });
    return out;
  }
  llvm::DenseMap<Operation *, std::unique_ptr<Footprint>> bytesMemo;

  /// Whether some thread's bytes of `x` may meet some thread's bytes of `y`
  /// (the same thread included): where either's footprint does not
  /// evaluate, or they index different arrays, they may.
  bool bytesMayMeet(const Access &x, const Access &y) {
    const Footprint &fx = threadBytes(x);
    const Footprint &fy = threadBytes(y);
    if (fx.never || fy.never)
      return false;
    if (fx.bytes.empty() || fy.bytes.empty() || fx.root != fy.root ||
        fx.space != fy.space)
      return true;
    if (notComparable(x, fx, y, fy))
      return true;
    bool exhausted = false;
    return firstMeeting(
               fx, x.threads, fy, y.threads,
               [&](const ThreadBytes &a, const ThreadBytes &b) {
                 return sameTrip(x, fx, a.combo, y, fy, b.combo);
               },
               exhausted) ||
           exhausted;
  }

  /// Whether `x` and `y`, recorded in these passes of the walk, are of one
  /// trip of `loop` (both inside it).
  static bool oneTrip(const Access &x, const Access &y, Operation *loop) {
    auto passOf = [&](const Access &a) -> std::optional<unsigned> {
      for (auto [l, pass] : a.trips)
        if (l == loop)
          return pass;
      return std::nullopt;
    };
    std::optional<unsigned> px = passOf(x), py = passOf(y);
    return px && py && *px == *py;
  }

  /// Why two accesses' bytes cannot be compared thread by thread as
  /// threadBytes placed them: a thread of either whose index does not
  /// evaluate; indices shifted by different values the same for every
  /// thread (the distance between them is not known); or by a value
  /// computed in a loop that the two accesses see on different trips (an
  /// access carried into the next pass of its loop with no barrier since).
  /// Enumerated loop counters are not shifts: `pairs` tells which of
  /// their combinations may meet (sameTrip).
  std::optional<std::string> notComparable(const Access &x, const Footprint &fx,
                                           const Access &y,
                                           const Footprint &fy) {
    for (auto [a, f] : {std::pair(&x, &fx), std::pair(&y, &fy)}) {
      Threads missed = f->unknown;
      if (missed.size() != a->threads.size())
        continue;
      missed &= a->threads;
      if (missed.any())
        return llvm::formatv("an index of {0} does not evaluate for thread "
                             "{1} (not a sum of terms of the thread id, of "
                             "loop counters with bounds known alike for "
                             "every thread and of values the same for every "
                             "thread)",
                             a->op->getName(), missed.find_first())
            .str();
    }
    if (fx.shifts != fy.shifts)
      return llvm::formatv("their indices are shifted by different values the "
                           "same for every thread that are not evaluated ({0} "
                           "against {1}), so the distance between them is not "
                           "known",
                           describeShifts(fx.shifts), describeShifts(fy.shifts))
          .str();
    for (auto [v, unit] : fx.shifts)
      if (!sameValue(x, y, v))
        return llvm::formatv("their indices are shifted by {0}, a value "
                             "of a loop that they see on different trips "
                             "(no barrier between the trips)",
                             describeShifts({{v, unit}}))
            .str();
    return std::nullopt;
  }

  /// Whether `x`'s bytes at combination `cx` of fx's enumerated values and
  /// `y`'s at `cy` of fy's may be made in one barrier interval. For a value
  /// both take: a loop's counter, within one trip of every loop around
  /// that loop, recorded in one pass of it is one trip (one value), and in
  /// different passes the earlier pass's access is of an earlier trip (a
  /// later value); any other value is one value where the two see one trip
  /// of every loop it is computed in (sameValue), else any two.
  bool sameTrip(const Access &x, const Footprint &fx, int cx, const Access &y,
                const Footprint &fy, int cy) {
    for (auto [i, e] : llvm::enumerate(fx.vars)) {
      auto j = llvm::find_if(
          fy.vars, [&](const Enumerated &o) { return o.key == e.key; });
      if (j == fy.vars.end())
        continue;
      const int64_t tx = fx.placeOf(cx, i),
                    ty = fy.placeOf(cy, j - fy.vars.begin());
      if (!e.loop) {
        if (sameValue(x, y, e.key) && tx != ty)
          return false;
        continue;
      }
      Operation *loop = e.loop;
      // Both inside `loop`: a loop around it on different trips restarts it.
      bool outerApart = false;
      for (auto [outer, pass] : x.trips) {
        if (outer == loop)
          break;
        outerApart |= !oneTrip(x, y, outer);
      }
      if (outerApart)
        continue;
      if (oneTrip(x, y, loop)) {
        if (tx != ty)
          return false;
        continue;
      }
      if (passIn(x, loop) < passIn(y, loop) ? tx >= ty : ty >= tx)
        return false;
    }
    return true;
  }
  /// Whether `v`, which both `x` and `y` take, has one value for both: they
  /// see one trip (one pass of the walk) of every loop it varies in.
  bool sameValue(const Access &x, const Access &y, Value v) {
    return llvm::all_of(x.trips, [&](const auto &entry) {
      return !variesIn(v, entry.first) || oneTrip(x, y, entry.first);
    });
  }
  /// Whether `v` may differ between two trips of `loop`: computed inside it
  /// from one of its block arguments (the counter, a carried value) or of a
  /// region inside it, or by an op with regions or memory effects there. A
  /// value computed inside it by pure ops from values defined outside it
  /// (`off mod 4` of a kernel argument) is one value on every trip.
  bool variesIn(Value v, Operation *loop) {
    // Asked for every pair of placements a comparison tries: memoised.
    auto [it, fresh] = variesMemo.try_emplace({v, loop}, false);
    if (fresh)
      it->second = variesInUncached(v, loop);
    return it->second;
  }
  llvm::DenseMap<std::pair<Value, Operation *>, bool> variesMemo;
  bool variesInUncached(Value v, Operation *loop) {
    SmallVector<Value, 8> work{v};
    llvm::SmallPtrSet<void *, 16> seen;
    while (!work.empty()) {
      Value x = work.pop_back_val();
      if (!seen.insert(x.getAsOpaquePointer()).second)
        continue;
      if (seen.size() > 256)
        return true;
      Region *at = x.getParentRegion();
      if (!at || !loop->isAncestor(at->getParentOp()))
        continue; // defined outside the loop
      Operation *def = x.getDefiningOp();
      // A load of a kernel argument nothing writes reads one value at one
      // index on every trip (campaign 19: g[0] mod 4).
      const bool readOnly = def && uniformity.readsUnwrittenArgument(def);
      if (!def || def->getNumRegions() ||
          (!readOnly && !isMemoryEffectFree(def)))
        return true;
      llvm::append_range(work, def->getOperands());
    }
    return false;
  }
  static unsigned passIn(const Access &a, Operation *loop) {
    for (auto [l, pass] : a.trips)
      if (l == loop)
        return pass;
    return 0;
  }

  static std::string describeShifts(ArrayRef<std::pair<Value, int64_t>> list) {
    if (list.empty())
      return "none";
    std::string s;
    llvm::raw_string_ostream os(s);
    for (auto [i, term] : llvm::enumerate(list)) {
      auto [v, unit] = term;
      os << (i ? " + " : "") << unit << " bytes x " << describeValue(v);
    }
    return s;
  }
  static std::string describeValue(Value v) {
    std::string s;
    llvm::raw_string_ostream os(s);
    if (auto arg = dyn_cast<BlockArgument>(v)) {
      Operation *owner = arg.getOwner()->getParentOp();
      auto loop = dyn_cast_or_null<scf::ForOp>(owner);
      if (loop && loop.getInductionVar() == v)
        os << "the counter of an scf.for";
      else
        os << "argument " << arg.getArgNumber() << " of "
           << (owner ? owner->getName().getStringRef() : StringRef("a block"));
    } else {
      os << "the result of " << v.getDefiningOp()->getName();
    }
    return s;
  }
  /// The values other than loop counters that `f` enumerates, as taken in
  /// combination `combo` (" with the result of kda.ring_slot at 1"), for a
  /// diagnostic: which of their range the two accesses meet at.
  static std::string valuesAt(const Footprint &f, int combo) {
    std::string s;
    llvm::raw_string_ostream os(s);
    for (auto [i, e] : llvm::enumerate(f.vars))
      if (!e.loop)
        os << (s.empty() ? " with " : " and ") << describeValue(e.key) << " at "
           << int64_t(uint64_t(e.first) +
                      uint64_t(f.placeOf(combo, i)) * uint64_t(e.step));
    return s;
  }

  /// Two accesses of one role in one barrier interval, at least one a write
  /// (`write`: `mine`'s): where two different threads' evaluated bytes
  /// meet, R1 (a read of another thread's write) or R2 (a write over
  /// another thread's read or write), naming both threads and the bytes.
  /// The same thread's accesses are in program order. True when no clash
  /// was found.
  bool threadsClash(const Access &mine, const Access &theirs, bool write) {
    // Inside a schedule every thread runs the bodies and the interpreter
    // does not order their scratch: where this check cannot place the
    // threads' bytes because the threads are not known, or because an index
    // reads memory (a neighbour's word through an index loaded from
    // memory raced unseen), R0. Loop counters and shifts are placed by
    // threadBytes (enumerated trip by trip; shifts compared where alike),
    // and what they leave unplaced is R0 below (notComparable).
    if (inSchedule)
      for (const Access *x : {&mine, &theirs})
        if (std::optional<std::string> why = unplaced(*x)) {
          fail("R0",
               llvm::formatv("cannot analyse {0}: which bytes each thread "
                             "touches is not known ({1}), and it meets a "
                             "{2} of the same array in one barrier interval",
                             x->op->getName(), *why,
                             x == &mine ? (theirs.write ? "write" : "read")
                                        : (write ? "write" : "read"))
                   .str(),
               x->op, x == &mine ? theirs.op : mine.op);
          return false;
        }
    const Footprint &fx = threadBytes(mine);
    const Footprint &fy = threadBytes(theirs);
    if (fx.never || fy.never)
      return true;
    // Indices shifted alike by a value no thread evaluates are compared
    // without it (it moves both alike); where the shift between them is not
    // known, R0 in a schedule's bodies, the emulator's elsewhere.
    auto cannot = [&](StringRef why) {
      if (!inSchedule)
        return true;
      fail("R0",
           llvm::formatv("cannot analyse {0} against the {1} of the same array "
                         "in one barrier interval: {2}",
                         mine.op->getName(), theirs.write ? "write" : "read",
                         why)
               .str(),
           mine.op, theirs.op == mine.op ? nullptr : theirs.op);
      return false;
    };
    // Two atomics of one size on one word do not race; on words that
    // partly overlap (one at a misaligned byte) they do (campaign 18).
    const bool atomics =
        fx.atomic && fy.atomic && fx.elementBytes == fy.elementBytes;
    // Two arrays placed apart (two spaces) never meet; one not placed in a
    // space (a view or subview at a run-time offset outside read bodies)
    // may lie anywhere against the other.
    if (fx.root != fy.root || fx.space != fy.space)
      return (!fx.root && !fy.root) ||
             cannot("one of the two arrays is not placed in its workgroup "
                    "space (a view or cast at a run-time offset), so where "
                    "it lies against the other is not known");
    if (std::optional<std::string> why = notComparable(mine, fx, theirs, fy))
      return cannot(*why);
    // Two threads; where the same loop counter places both, at one value
    // of it unless the accesses are of different trips.
    bool exhausted = false;
    auto met = firstMeeting(
        fx, mine.threads, fy, theirs.threads,
        [&](const ThreadBytes &a, const ThreadBytes &b) {
          return a.tid != b.tid && (!atomics || a.lo != b.lo) &&
                 sameTrip(mine, fx, a.combo, theirs, fy, b.combo);
        },
        exhausted);
    if (exhausted)
      return cannot("more pairs of the two accesses' placements (threads at "
                    "each trip of the loops their indices take) than are "
                    "compared (2^26 for two accesses, 2^28 for the whole "
                    "check)");
    if (!met)
      return true;
    auto [x, y] = *met;
    std::string shifted;
    if (!fx.shifts.empty())
      shifted = llvm::formatv(" (counted without {0}, which both indices "
                              "add)",
                              describeShifts(fx.shifts))
                    .str();
    fail(write ? "R2" : "R1",
         llvm::formatv("thread {0} {1} bytes [{2}, {3}) of {4}{5}{6} that "
                       "thread {7} {8}{9} in the same barrier interval "
                       "(threads of one role): no barrier between them",
                       x.tid, write ? "writes" : "reads", std::max(x.lo, y.lo),
                       std::min(x.hi, y.hi), describeFootprint(fx), shifted,
                       valuesAt(fx, x.combo), y.tid,
                       theirs.write ? "wrote" : "read", valuesAt(fy, y.combo))
             .str(),
         mine.op, theirs.op == mine.op ? nullptr : theirs.op);
    return false;
  }
  /// Why an access's bytes per thread cannot be placed for a reason the
  /// emulator's race detector should not be left with: the block's threads
  /// are not known, the access spans several rows (an n-D vector), or an
  /// index is not a function of the thread id, constants, values the same
  /// for every thread and the body's loop counters (unevaluated); those
  /// two are placed by threadBytes, and notComparable refuses what they
  /// leave unplaced.
  std::optional<std::string> unplaced(const Access &a) {
    if (!threadsKnown)
      return std::string("the kernel's block size is not known and "
                         "one-dimensional (known_block_size)");
    Value mem;
    SmallVector<Value, 4> indices;
    SmallVector<int64_t, 4> spans;
    if (!indexedAccess(a.op, mem, indices, spans, /*forRaces=*/true)) {
      // A rank-0 array's one element: every thread's access meets every
      // other's, which threadBytes does not place.
      auto type = dyn_cast_or_null<MemRefType>(mem ? mem.getType() : Type());
      if (type && type.getRank() == 0)
        return std::string("an array of rank 0, one element for every "
                           "thread");
      return std::nullopt;
    }
    if (llvm::any_of(ArrayRef(spans).drop_back(),
                     [](int64_t w) { return w != 1; }))
      return std::string("a vector of several rows, whose bytes are not "
                         "one run a thread");
    UnevaluatedMemo memo;
    for (Value index : indices)
      if (std::optional<std::string> why = unevaluated(index, memo))
        return why;
    return std::nullopt;
  }
  /// Why the index `v` may differ between threads in a way the per-thread
  /// evaluation (evalAll) does not follow: computed from a load of memory
  /// that may differ between threads, from a loop-carried value or a
  /// region's result (scf.for's iter_args, scf.if's results), or by an op
  /// it does not evaluate (a warp shuffle); nullopt for the thread, lane
  /// and subgroup ids, constants, values the same for every thread (a
  /// sequence's bounds loaded from an argument the kernel does not write
  /// move every thread's bytes alike) and loop counters.
  /// (Memoised a call of unplaced: an index is a DAG, walked once a node;
  /// not across calls, as `uniform` depends on the walk's state.)
  using UnevaluatedMemo = llvm::DenseMap<Value, std::optional<std::string>>;
  std::optional<std::string> unevaluated(Value v, UnevaluatedMemo &memo,
                                         unsigned depth = 0) {
    if (auto it = memo.find(v); it != memo.end())
      return it->second;
    std::optional<std::string> why = unevaluatedUncached(v, memo, depth);
    memo[v] = why;
    return why;
  }
  std::optional<std::string> unevaluatedUncached(Value v, UnevaluatedMemo &memo,
                                                 unsigned depth) {
    if (depth > 48)
      return std::string("an index computed by more than 48 operations");
    if (uniform(v) || getConstantIntValue(v))
      return std::nullopt;
    if (auto arg = dyn_cast<BlockArgument>(v)) {
      Operation *owner = arg.getOwner()->getParentOp();
      auto loop = dyn_cast_or_null<scf::ForOp>(owner);
      if (loop && loop.getInductionVar() == arg)
        return std::nullopt;
      // A hand-written schedule body's (iteration, slot): one value for
      // every thread.
      if (owner && isa<KDADialect>(owner->getDialect()))
        return std::nullopt;
      return std::string("an index computed from a block argument that is "
                         "not a loop counter (a loop-carried value), which "
                         "is not evaluated per thread");
    }
    Operation *op = v.getDefiningOp();
    if (isa<gpu::ThreadIdOp>(op))
      return std::nullopt;
    // evalInto places lanes and subgroups only where the wave size is known.
    if (isa<gpu::LaneIdOp, gpu::SubgroupIdOp>(op))
      return laneWave ? std::nullopt
                      : std::optional<std::string>(
                            "a lane or subgroup id of a kernel whose wave "
                            "size is not known (kda.target)");
    if (evaluable(op)) {
      for (Value x : op->getOperands())
        if (std::optional<std::string> why = unevaluated(x, memo, depth + 1))
          return why;
      return std::nullopt;
    }
    if (auto effects = dyn_cast<MemoryEffectOpInterface>(op);
        effects && effects.hasEffect<MemoryEffects::Read>())
      return std::string("an index computed from a load of memory that "
                         "may differ between threads");
    return ("an index computed by " + op->getName().getStringRef() +
            ", which is not evaluated per thread")
        .str();
  }

  /// The first pair of a thread's bytes of `fx` (one of `xThreads`) and a
  /// thread's bytes of `fy` (one of `yThreads`) that meet and that `may`
  /// pair (another thread, one trip), in the order of fx's bytes; none if
  /// none do. fy's bytes are sorted by lo (threadBytes), so each x searches
  /// only those starting after x.lo less the widest. `exhausted`: the
  /// search gave up after 2^26 pairs (many placements of one byte that may
  /// not pair, e.g. one thread's word at every trip of a long loop), or
  /// after the pairs left to the whole check (pairsLeft).
  std::optional<std::pair<ThreadBytes, ThreadBytes>> firstMeeting(
      const Footprint &fx, const Threads &xThreads, const Footprint &fy,
      const Threads &yThreads,
      llvm::function_ref<bool(const ThreadBytes &, const ThreadBytes &)> may,
      bool &exhausted) {
    ArrayRef<ThreadBytes> ys = fy.bytes;
    int64_t widest = 0;
    for (const ThreadBytes &y : ys)
      widest = std::max(widest, y.hi - y.lo);
    const int64_t given = std::min(int64_t(1) << 26, pairsLeft);
    int64_t budget = given;
    llvm::scope_exit spend(
        [&] { pairsLeft -= given - std::max<int64_t>(budget, 0); });
    exhausted = false;
    for (const ThreadBytes &x : fx.bytes) {
      // Each placement's search counts too: accesses whose bytes never
      // meet cost their placements (campaign 19: 6000 stores of 8 threads
      // compared every two for half a minute).
      if (--budget < 0) {
        exhausted = true;
        return std::nullopt;
      }
      if (!xThreads.test(x.tid))
        continue;
      auto y = llvm::lower_bound(
          ys, x.lo - widest,
          [](const ThreadBytes &t, int64_t lo) { return t.lo < lo; });
      for (; y != ys.end() && y->lo < x.hi; ++y) {
        if (--budget < 0) {
          exhausted = true;
          return std::nullopt;
        }
        if (y->hi > x.lo && yThreads.test(y->tid) && may(x, *y))
          return std::make_pair(x, *y);
      }
    }
    return std::nullopt;
  }
  /// Pairs of placements the whole check compares at most (2^28, a few
  /// seconds): two accesses of 2^17 placements each may take 2^24, and a
  /// body of many such accesses compares every two (campaign 18: 30 stores
  /// of 1024 threads at 128 values ran past two minutes).
  int64_t pairsLeft = int64_t(1) << 28;

  std::string describeFootprint(const Footprint &f) const {
    if (f.root) {
      auto type = f.root.getType();
      std::string s;
      llvm::raw_string_ostream os(s);
      os << "an array of type " << type << " (bytes from its start)";
      return s;
    }
    return f.space ? "workgroup attribution " + std::to_string(f.space - 1)
                   : std::string("the dynamic LDS");
  }

  /// Fails where `s` holds pieces in flight at `op` (a barrier, the end).
  void landedBefore(Operation *op, const State &s, StringRef what) {
    for (const Access &a : s)
      if (a.inFlight)
        return fail("R3",
                    llvm::formatv("{0} while the cp_async pieces of threads "
                                  "{1} may still be landing: a "
                                  "kda.copy_fence of theirs must come first",
                                  what, describe(a.threads))
                        .str(),
                    op, a.op);
  }

  /// A kda.copy_fence by `active`: their pieces have landed.
  static void fence(State &s, const Threads &active) {
    for (Access &a : s)
      if (a.inFlight)
        a.threads.reset(active);
    llvm::erase_if(
        s, [](const Access &a) { return a.inFlight && a.threads.none(); });
  }

  static void join(State &into, const State &from) {
    for (const Access &a : from)
      if (llvm::none_of(into, [&](const Access &b) { return b.sameAs(a); }))
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
    if (inSchedule) {
      // Inside a schedule: its copies, waits and ring slots are the
      // interpreter's (PipelineHazards.cpp), which orders them by its
      // drained barriers; a read body's own accesses are walked here.
      if (isa<LdsBarrierOp>(op))
        return s.clear();
      if (isa<AsyncCopyOp, StagedCopyOp, AsyncWaitOp, LdsDrainOp, BarrierOp,
              RingSlotOp>(op))
        return;
      // A symbolic read (no body) touches only its slot of the ring.
      if (auto read = dyn_cast<LdsReadOp>(op))
        return read.getBody().empty()
                   ? void()
                   : walkBlock(read.getBody().front(), s, active, divergent);
    }
    if (isa<gpu::BarrierOp>(op)) {
      if (divergent || !active.all()) {
        // Checking only schedule entries, such a barrier is not counted
        // (the accesses before it stay in the interval: that can only
        // reject); with roles it is a handoff no one can prove.
        if (mode == Mode::ScheduleEntries)
          return;
        return fail("R0",
                    "a barrier not every thread of the block may reach (under "
                    "a branch, or in a loop, whose condition or bounds are "
                    "not the same for every thread): the threads that skip "
                    "it are not ordered by it",
                    op);
      }
      landedBefore(op, s, "a barrier");
      s.clear();
      return;
    }
    if (isa<CopyFenceOp>(op)) {
      Threads landed = active;
      landed &= sure;
      return fence(s, landed);
    }
    if (std::optional<std::string> why = outsideLdsModel(op))
      return fail(
          "R0", "cannot analyse " + op->getName().getStringRef() + ": " + *why,
          op);
    if (auto branch = dyn_cast<scf::IfOp>(op))
      return walkIf(branch, s, active, divergent);
    if (auto loop = dyn_cast<scf::ForOp>(op))
      return walkFor(loop, s, active, divergent);
    if (auto schedule = dyn_cast<ScheduleOp>(op))
      return walkSchedule(schedule, s, active, divergent);
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
    if (auto view = dyn_cast<memref::ViewOp>(op))
      if (checkViewInside(view); hazard)
        return;
    for (auto [mem, write] : mems) {
      record(op, mem, write, s, active);
      if (hazard)
        return;
    }
    checkInBounds(op, active);
  }

  /// A view at a constant byte shift must lie inside its source, where the
  /// source's bytes are known (an array of static size, or the kernel's
  /// dynamic LDS of its kda.dynamic_lds_bytes), else R1: past it the bytes
  /// are another array's, while the ranges here (a space an array) take
  /// the view's accesses for its source's alone.
  void checkViewInside(memref::ViewOp view) {
    std::optional<Range> src = rangeOf(view.getSource());
    std::optional<int64_t> shift = getConstantIntValue(view.getByteShift());
    const int64_t bytes = typeBytes(view.getType());
    constexpr int64_t unknown = std::numeric_limits<int64_t>::max();
    if (!src || !shift || !src->exact || bytes == unknown)
      return;
    int64_t end = src->hi;
    if (end == unknown) {
      std::optional<int64_t> dynamic = reservedDynamicLds(fn);
      if (!view.getSource().getDefiningOp<gpu::DynamicSharedMemoryOp>() ||
          !dynamic)
        return;
      end = src->lo + *dynamic;
    }
    const int64_t lo = src->lo + *shift, hi = lo + bytes;
    if (*shift >= 0 && hi <= end)
      return;
    fail("R1",
         llvm::formatv("a view outside its array: {0} at byte {1} covers "
                       "bytes [{2}, {3}) of an array of bytes [{4}, {5}); "
                       "outside it the bytes are another array's, which the "
                       "handoff check does not count for the view's "
                       "accesses",
                       view.getType(), *shift, lo, hi, src->lo, end)
             .str(),
         view);
  }

  /// The workgroup array an access indexes, its indices, and how many
  /// elements it spans along each dimension from its index (1, but a
  /// vector's shape along the trailing dimensions, a piece's 16 bytes along
  /// the last); false for ops this check does not read (masked and
  /// transfer ops: their extents depend on masks or in_bounds flags).
  static bool indexedAccess(Operation *op, Value &mem,
                            SmallVectorImpl<Value> &indices,
                            SmallVectorImpl<int64_t> &spans,
                            bool forRaces = false) {
    auto take = [&](Value m, ValueRange i, ArrayRef<int64_t> trailing) {
      mem = m;
      indices.assign(i.begin(), i.end());
      if (trailing.size() > indices.size())
        return false;
      spans.assign(indices.size() - trailing.size(), 1);
      spans.append(trailing.begin(), trailing.end());
      return true;
    };
    // A vector of the array's element type is one element of it; of its
    // scalars, its shape along the trailing dimensions.
    auto vectorShape = [](Value base, VectorType v) {
      if (cast<MemRefType>(base.getType()).getElementType() == v)
        return SmallVector<int64_t>{1};
      return llvm::to_vector(v.getShape());
    };
    if (auto l = dyn_cast<memref::LoadOp>(op))
      return take(l.getMemRef(), l.getIndices(), {1});
    if (auto st = dyn_cast<memref::StoreOp>(op))
      return take(st.getMemRef(), st.getIndices(), {1});
    if (auto a = dyn_cast<memref::AtomicRMWOp>(op))
      return take(a.getMemref(), a.getIndices(), {1});
    if (auto l = dyn_cast<vector::LoadOp>(op))
      return take(l.getBase(), l.getIndices(),
                  vectorShape(l.getBase(), l.getVectorType()));
    if (auto st = dyn_cast<vector::StoreOp>(op))
      return take(st.getBase(), st.getIndices(),
                  vectorShape(st.getBase(), st.getVectorType()));
    if (auto piece = dyn_cast<CopyPieceOp>(op))
      return take(piece.getLds(), piece.getIndex(), {piece.getPieceElems()});
    // Masked ops and transfers: the lanes a mask or the array's end leave
    // out touch nothing. For races their whole vector counts (it holds
    // every byte they may touch); for bounds only an unmasked transfer
    // whose every dimension is in bounds, which is a vector load or store.
    if (forRaces) {
      if (auto l = dyn_cast<vector::MaskedLoadOp>(op))
        return take(l.getBase(), l.getIndices(),
                    vectorShape(l.getBase(), l.getVectorType()));
      if (auto st = dyn_cast<vector::MaskedStoreOp>(op))
        return take(st.getBase(), st.getIndices(),
                    vectorShape(st.getBase(), st.getVectorType()));
    }
    auto transfer = dyn_cast<VectorTransferOpInterface>(op);
    if (!transfer || !isa<MemRefType>(transfer.getBase().getType()) ||
        !transfer.getPermutationMap().isMinorIdentity())
      return false;
    if (!forRaces &&
        (transfer.getMask() || llvm::any_of(transfer.getInBoundsValues(),
                                            [](bool in) { return !in; })))
      return false;
    return take(transfer.getBase(), transfer.getIndices(),
                vectorShape(transfer.getBase(), transfer.getVectorType()));
  }

  /// An access whose indices a thread sure to run it evaluates (functions
  /// of the thread id and constants) must stay inside its array, else R1:
  /// outside a view its bytes are another array's, which the intervals
  /// above take it never to touch (`lane + 1` at the last lane, a piece of
  /// a thread the array has no room for). Indices that depend on anything
  /// else, and threads that may not run the op (under a branch or in a loop
  /// they may skip), are left to the emulator's bounds checks.
  void checkInBounds(Operation *op, const Threads &active) {
    Value mem;
    SmallVector<Value, 4> indices;
    SmallVector<int64_t, 4> spans;
    if (!threadsKnown || !indexedAccess(op, mem, indices, spans))
      return;
    auto type = dyn_cast<MemRefType>(mem.getType());
    if (!type || !isWorkgroup(type) ||
        indices.size() != size_t(type.getRank()) || type.getRank() == 0)
      return;
    // Through a cast, subview, reinterpret cast or reshape of an array of
    // static shape, the element its static strided layout places must also
    // lie inside that array (a subview's last index plus one is the next
    // array's first element).
    SmallVector<int64_t> strides;
    int64_t offset = 0;
    Value root = rootOf(mem);
    auto rootType = dyn_cast<MemRefType>(root.getType());
    const bool placed = root != mem && rootType && rootType.hasStaticShape() &&
                        rootType.getLayout().isIdentity() &&
                        rootType.getElementType() == type.getElementType() &&
                        staticStridedLayout(type, strides, offset);
    Threads runs = active;
    runs &= sure;
    for (int tid = runs.find_first(); tid >= 0; tid = runs.find_next(tid)) {
      int64_t first = offset, last = offset;
      bool known = placed;
      for (auto [d, index] : llvm::enumerate(indices)) {
        std::optional<int64_t> i = eval(index, tid);
        const int64_t width = spans[d];
        if (i && placed) {
          first += *i * strides[d];
          last += (*i + width - 1) * strides[d];
        }
        known &= i.has_value();
        // An index that is not a function of the thread id is the
        // emulator's; the other dimensions and threads are still checked.
        // A dimension of run-time extent is bounded only through `placed`.
        if (!i || type.isDynamicDim(d))
          continue;
        const int64_t extent = type.getDimSize(d);
        if (*i >= 0 && *i <= extent - width)
          continue;
        return fail(
            "R1",
            llvm::formatv(
                "an access outside its array: thread {0} indexes dimension "
                "{1} of {2} at {3}{4}, {5} (0 .. {6}); outside it the bytes "
                "are another row's or another array's, which the handoff "
                "check does not count for this access (guard or clamp the "
                "index)",
                tid, d, type, *i,
                width > 1 ? " (" + std::to_string(width) + " elements from it)"
                          : std::string(),
                *i < 0 ? "before its start" : "past its end", extent - 1)
                .str(),
            op);
      }
      const int64_t elems = placed ? rootType.getNumElements() : 0;
      if (!known ||
          (std::min(first, last) >= 0 && std::max(first, last) < elems))
        continue;
      return fail(
          "R1",
          llvm::formatv("an access outside its array: thread {0} reaches "
                        "elements [{1}, {2}] of {3} (0 .. {4}) through {5}; "
                        "outside it the bytes are another array's, which the "
                        "handoff check does not count for this access (guard "
                        "or clamp the index)",
                        tid, std::min(first, last), std::max(first, last),
                        rootType, elems - 1, type)
              .str(),
          op);
    }
  }

  // ---- schedules ----------------------------------------------------------

  /// The workgroup bytes `op` (inside a schedule) may touch: a copy row's
  /// destination, a body's loads and stores; a symbolic copy or read (no
  /// body naming its array) anywhere.
  void footprint(Operation *op, SmallVectorImpl<std::pair<Range, bool>> &out) {
    auto add = [&](Value mem, bool write) {
      if (std::optional<Range> r = rangeOf(mem))
        return out.push_back({*r, write});
      fail("R0",
           "cannot analyse the workgroup array this access of a schedule "
           "indexes (not a view of the dynamic LDS, nor a workgroup "
           "attribution): its bytes cannot be checked against the "
           "accesses before the schedule",
           op);
    };
    if (auto row = dyn_cast<CopyRowOp>(op))
      return add(row.getLds(), true);
    if (isa<AsyncCopyOp, StagedCopyOp, LdsReadOp>(op)) {
      bool named = false;
      op->walk([&](Operation *inner) {
        named |= isa<CopyRowOp>(inner) ||
                 (inner != op &&
                  llvm::any_of(inner->getOperandTypes(), isWorkgroup));
      });
      if (!named) {
        Range any;
        any.any = true;
        out.push_back({any, !isa<LdsReadOp>(op)});
      }
      return;
    }
    SmallVector<std::pair<Value, bool>> mems;
    if (!accessesOf(op, mems))
      return fail("R0",
                  "cannot analyse " + op->getName().getStringRef() +
                      " in a schedule: it takes workgroup memory in a way "
                      "this analysis does not model",
                  op);
    for (auto [mem, write] : mems)
      add(mem, write);
  }

  /// A schedule's interpreter (PipelineHazards.cpp) starts it from
  /// quiescent LDS: nothing made before it may touch the bytes it touches
  /// until a drained barrier of its own has run. Its ops up to the first
  /// top-level kda.lds_barrier are checked against the accesses of the
  /// interval it starts in (entryPrefix). Past that barrier, run by every
  /// thread that entered, the earlier accesses are ordered; the schedule
  /// itself ends quiescent (R3), so nothing of it stays in the interval.
  void walkSchedule(ScheduleOp schedule, State &s, const Threads &active,
                    bool divergent) {
    // The interpreter models every thread of the block running the
    // schedule, its barriers and its copies' wait counts included.
    if (divergent || !active.all())
      return fail("R0",
                  "cannot analyse schedule '" + schedule.getName() +
                      "' where not every thread of the block may reach it "
                      "(under a branch, or in a loop, whose condition or "
                      "bounds are not shown the same for every thread): its "
                      "verification assumes all of them run it",
                  schedule);
    // The schedule's barriers and waits order its own copies, not pieces
    // made before it: they must have landed before it starts.
    landedBefore(schedule, s,
                 ("schedule '" + schedule.getName() + "' entered").str());
    if (hazard)
      return;
    if (entryPrefix(schedule, schedule.getBody().front(), s))
      s.clear();
    if (!hazard)
      walkInside(schedule);
  }

  /// The schedule's read bodies' accesses of workgroup memory among the
  /// threads, in program order over its prologue, loop and epilogue: the
  /// interpreter bounds them (inside their arrays, the ring's in the slot
  /// read) but does not order them, so a body that stores scratch[tid] and
  /// loads scratch[tid + 1], within one iteration or across two with no
  /// kda.lds_barrier between, is checked here as threads of one role (every
  /// thread runs the schedule: two threads' evaluated bytes that meet in a
  /// barrier interval, one a write). A bare kda.barrier does not count: it
  /// does not order a wave's pending LDS reads (PIPELINE-SAFETY.md), and the
  /// kernels' schedules use kda.lds_barrier. Indices that do not evaluate
  /// per thread stay the emulator's race detector's, as in kernel code.
  void walkInside(ScheduleOp schedule) {
    State inside;
    const bool outer = inSchedule;
    inSchedule = true;
    walkBlock(schedule.getBody().front(), inside, Threads(threads, true),
              /*divergent=*/false);
    inSchedule = outer;
    if (hazard)
      hazard->message = ("inside schedule '" + schedule.getName() +
                         "' (its read bodies' accesses among the threads): " +
                         hazard->message)
                            .str();
  }

  /// Checks the ops of `block` up to its first kda.lds_barrier against `s`;
  /// whether that barrier was reached. A loop's body is checked up to its
  /// own first barrier (later trips come after it), and the loop may run no
  /// trip; a branch's sides are checked likewise and neither counts as a
  /// barrier after it. Anything else is checked whole, its nested regions
  /// included.
  bool entryPrefix(ScheduleOp schedule, Block &block, const State &s) {
    for (Operation &op : block) {
      if (hazard)
        return false;
      if (isa<LdsBarrierOp>(op))
        return true;
      if (auto loop = dyn_cast<scf::ForOp>(op)) {
        entryPrefix(schedule, *loop.getBody(), s);
        continue;
      }
      if (auto branch = dyn_cast<scf::IfOp>(op)) {
        entryPrefix(schedule, *branch.thenBlock(), s);
        if (branch.elseBlock())
          entryPrefix(schedule, *branch.elseBlock(), s);
        continue;
      }
      SmallVector<std::pair<Range, bool>> touched;
      op.walk([&](Operation *inner) { footprint(inner, touched); });
      for (auto &[range, write] : touched)
        for (const Access &a : s) {
          if (!a.range.overlaps(range) || (!a.write && !write))
            continue;
          fail(write ? "R2" : "R1",
               llvm::formatv(
                   "schedule '{0}' {1} bytes {2} of {3} that threads {4} {5} "
                   "before it with no drained barrier between: the schedule "
                   "is verified from quiescent LDS, so its first "
                   "kda.lds_barrier must come before this access, or a "
                   "barrier before the schedule",
                   schedule.getName(), write ? "writes" : "reads",
                   describeRange(range, a.range), describeSpace(range, a.range),
                   describe(a.threads), a.write ? "wrote" : "read")
                   .str(),
               &op, a.op);
          return false;
        }
    }
    return false;
  }

  static std::string describeRange(const Range &mine, const Range &theirs) {
    if (mine.any && theirs.any)
      return "(anywhere)";
    const Range &r = mine.any ? theirs : mine;
    int64_t lo = r.lo, hi = r.hi;
    if (!mine.any && !theirs.any)
      lo = std::max(mine.lo, theirs.lo), hi = std::min(mine.hi, theirs.hi);
    return llvm::formatv("[{0}, {1})", lo,
                         hi == std::numeric_limits<int64_t>::max()
                             ? std::string("end")
                             : std::to_string(hi))
        .str();
  }
  static std::string describeSpace(const Range &mine, const Range &theirs) {
    const Range &r = mine.any ? theirs : mine;
    if (r.any)
      return "workgroup memory";
    return r.space ? "workgroup attribution " + std::to_string(r.space - 1)
                   : std::string("the dynamic LDS");
  }

  /// Whether a barrier is nested anywhere in `op`'s regions.
  static bool holdsBarrier(Operation *op) {
    return op->walk([](gpu::BarrierOp) { return WalkResult::interrupt(); })
        .wasInterrupted();
  }

  void walkIf(scf::IfOp branch, State &s, const Threads &active,
              bool divergent) {
    Value cond = branch.getCondition();
    Threads mayTrue(threads), mayFalse(threads);
    Threads sureTrue(threads), sureFalse(threads);
    bool split = false;
    for (int tid = active.find_first(); tid >= 0; tid = active.find_next(tid)) {
      std::optional<int64_t> c = eval(cond, tid);
      if (!c || *c)
        mayTrue.set(tid);
      if (!c || !*c)
        mayFalse.set(tid);
      if (c)
        (*c ? sureTrue : sureFalse).set(tid);
      split |= c.has_value();
    }
    // Decided the same way for every active thread: only that side runs.
    if (split && (mayTrue == active) != (mayFalse == active) &&
        (mayTrue.none() || mayFalse.none())) {
      if (mayTrue.any())
        walkBlock(*branch.thenBlock(), s, active, divergent);
      else if (branch.elseBlock())
        walkBlock(*branch.elseBlock(), s, active, divergent);
      return;
    }
    // A condition read from LDS counts only for a branch with a barrier
    // inside: without one, its sides in one interval are already sound, and
    // holding the read bytes (Access::decides) would refuse later writes of
    // them for nothing.
    llvm::SetVector<Operation *> decidedBy;
    DenseMap<Value, bool> memo;
    const bool sameForAll =
        !split &&
        (uniform(cond) || (mode == Mode::Handoffs && holdsBarrier(branch) &&
                           uniformHere(cond, s, decidedBy, memo)));
    if (sameForAll) {
      for (Operation *load : decidedBy) {
        Value mem = load->getOperand(0);
        // A read of the load's array by the threads that took the branch.
        Access mark{load, mem, *rangeOf(mem), active, rolesOf(active), false};
        mark.decides = true;
        if (llvm::none_of(s, [&](const Access &a) { return a.sameAs(mark); }))
          s.push_back(mark);
      }
      // Two paths, each taken by every active thread: their states joined.
      State other = s;
      walkBlock(*branch.thenBlock(), s, active, divergent);
      if (branch.elseBlock() && !hazard)
        walkBlock(*branch.elseBlock(), other, active, divergent);
      join(s, other);
      return;
    }
    // Both sides in the same interval, each by the threads that may take
    // it; sure to, only those whose condition was decided that way.
    const Threads outer = sure;
    sure = outer;
    sure &= sureTrue;
    walkBlock(*branch.thenBlock(), s, mayTrue, /*divergent=*/true);
    sure = outer;
    sure &= sureFalse;
    if (branch.elseBlock() && !hazard)
      walkBlock(*branch.elseBlock(), s, mayFalse, /*divergent=*/true);
    sure = outer;
  }

  void walkFor(scf::ForOp loop, State &s, const Threads &active,
               bool divergent) {
    // Zero or more trips: iterate the body from the entry state joined with
    // the state after each pass until nothing new reaches its start (the
    // state is a set of (access, threads) pairs of this kernel: finite).
    const bool splits = !uniform(loop.getLowerBound()) ||
                        !uniform(loop.getUpperBound()) ||
                        !uniform(loop.getStep());
    divergent |= splits;
    // Sure to run the body: where the bounds differ between threads, only
    // the threads whose own bounds give a trip (a thread that runs none
    // neither fences nor indexes there).
    const Threads outer = sure;
    if (splits)
      keepThreadsWithATrip(loop);
    State atStart = s;
    while (!hazard) {
      State out = atStart;
      passes.push_back({loop, ++passCount});
      walkBlock(*loop.getBody(), out, active, divergent);
      passes.pop_back();
      State next = atStart;
      join(next, out);
      if (next.size() == atStart.size())
        break;
      atStart = std::move(next);
    }
    join(s, atStart);
    sure = outer;
  }

  /// Narrows `sure` to the threads whose evaluated bounds give `loop` at
  /// least one trip; a thread whose bounds do not evaluate is dropped.
  void keepThreadsWithATrip(scf::ForOp loop) {
    const unsigned w = widthOf(loop.getLowerBound().getType());
    for (int tid = sure.find_first(); tid >= 0; tid = sure.find_next(tid)) {
      std::optional<int64_t> lb = eval(loop.getLowerBound(), tid),
                             ub = eval(loop.getUpperBound(), tid);
      const bool trip =
          lb && ub &&
          (loop.getUnsignedCmp() ? unsignedOf(*lb, w) < unsignedOf(*ub, w)
                                 : *lb < *ub);
      if (!trip)
        sure.reset(tid);
    }
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
  if (!roles || roles.empty() || roles[0] <= 0 || threads % roles[0])
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
  return Checker(kernel, threads, waveSize, starts, Mode::Handoffs).run();
}

/// Whether `kernel` issues pieces that land at a fence (cp_async
/// kda.copy_piece).
static bool hasSchedule(gpu::GPUFuncOp kernel) {
  bool any = false;
  kernel.walk([&](ScheduleOp) {
    any = true;
    return WalkResult::interrupt();
  });
  return any;
}

static bool hasAsyncPieces(gpu::GPUFuncOp kernel) {
  return kernel
      .walk([](CopyPieceOp p) {
        return p.getAtom() == CopyAtom::CpAsync ? WalkResult::interrupt()
                                                : WalkResult::advance();
      })
      .wasInterrupted();
}

/// Whether `kernel` issues a warpgroup atom (kda.wgmma: B read from LDS).
static bool hasWarpgroupAtoms(gpu::GPUFuncOp kernel) {
  return kernel.walk([](WgmmaOp) { return WalkResult::interrupt(); })
      .wasInterrupted();
}

std::optional<LdsHandoffHazard>
mlir::kda::findScheduleEntryHazard(gpu::GPUFuncOp kernel) {
  if (kernel->hasAttr(kWaveRolesAttr))
    return findLdsHandoffHazard(kernel); // checks the entries too
  // Pieces that land at a fence are checked in any kernel: as one role
  // where it states none.
  if (hasAsyncPieces(kernel)) {
    std::optional<ArrayRef<int32_t>> block = kernel.getKnownBlockSize();
    if (!block || (*block)[1] != 1 || (*block)[2] != 1)
      return LdsHandoffHazard{"R0",
                              "the kernel's block size is not known and "
                              "one-dimensional (known_block_size): the "
                              "threads of its cp_async pieces cannot be "
                              "enumerated",
                              kernel, nullptr};
    const SmallVector<int64_t> oneRole = {0};
    return Checker(kernel, (*block)[0], /*waveSize=*/1, oneRole, Mode::Handoffs)
        .run();
  }
  const bool schedules = hasSchedule(kernel);
  bool lds = !kernel.getWorkgroupAttributions().empty();
  kernel.walk([&](gpu::DynamicSharedMemoryOp) {
    lds = true;
    return WalkResult::interrupt();
  });
  if (!schedules && !lds)
    return std::nullopt;
  std::optional<ArrayRef<int32_t>> block = kernel.getKnownBlockSize();
  const int64_t threads =
      block && (*block)[1] == 1 && (*block)[2] == 1 ? (*block)[0] : 0;
  const SmallVector<int64_t> oneRole = {0};
  std::optional<LdsHandoffHazard> found =
      Checker(kernel, threads, /*waveSize=*/1, oneRole, Mode::ScheduleEntries)
          .run();
  // A kernel with workgroup memory but no schedule, roles or pieces is
  // checked for its threads' accesses among themselves where their indices
  // evaluate (R1 / R2); what the walk cannot model there (a call, a region
  // op it does not interpret) stays the emulator's, as it was before the
  // walk covered such kernels, rather than R0.
  // Not so where a warpgroup atom reads LDS: its B operand's handoffs
  // (another thread's write in its barrier interval) are checked by this
  // walk alone (WgmmaFlights sees only its flight), and a walk stopped at
  // an op it cannot model would leave them unchecked.
  if (!schedules && found && found->rule == "R0" && !hasWarpgroupAtoms(kernel))
    return std::nullopt;
  return found;
}

static LogicalResult report(gpu::GPUFuncOp kernel,
                            const std::optional<LdsHandoffHazard> &h,
                            StringRef what) {
  if (!h)
    return success();
  InFlightDiagnostic d = h->at->emitError()
                         << h->rule << ": " << what << " in kernel '"
                         << kernel.getName() << "': " << h->message;
  if (h->other)
    d.attachNote(h->other->getLoc()) << "the other access: " << *h->other;
  return failure();
}

LogicalResult mlir::kda::verifyLdsHandoffs(gpu::GPUFuncOp kernel) {
  return report(kernel, findLdsHandoffHazard(kernel), "LDS handoff");
}

LogicalResult mlir::kda::verifyScheduleEntries(gpu::GPUFuncOp kernel) {
  const bool schedules = hasSchedule(kernel);
  return report(kernel, findScheduleEntryHazard(kernel),
                kernel->hasAttr(kWaveRolesAttr) || hasAsyncPieces(kernel)
                    ? "LDS handoff"
                : schedules ? "schedule entry"
                            : "LDS access");
}
