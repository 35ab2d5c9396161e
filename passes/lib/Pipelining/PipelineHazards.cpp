//===- PipelineHazards.cpp - the LDS pipeline hazard model ----------------===//
//
// An abstract interpreter of expanded schedules (kda.schedule), in program
// order, over the rules of PIPELINE-SAFETY.md; passes/PIPELINE-MODEL.md states
// what it proves. The state, per byte range of LDS (not per named buffer):
//  - the last write in program order, whatever its kind: buffer, slot and
//    iteration; for an async copy, the thread classes whose part has not
//    landed; whether a barrier has made it visible since;
//  - per thread class, the async copy groups not yet landed, in issue order
//    (a wait counts this class's own groups);
//  - the reads not yet behind a drained barrier.
// Thread classes: the first wave and the other waves. A copy issued by all
// threads is a group of both; `issuers("wave0")` a group of the first wave
// only (kIssuersAttr), so the other waves' waits pass at once and a reader
// must see the issuers' wait and then a barrier.
//
// Static schedules run once (every iteration, concretely). Dynamic trip
// counts are proven by the argument written at proveDynamic below.
//
//===----------------------------------------------------------------------===//
#include "kda/Passes/PipelineHazards.h"
#include "kda/Dialect/KDA/KDAAttrs.h"
#include "kda/Passes/LdsModel.h"
#include "kda/Passes/ThreadUniformity.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMTypes.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/InferIntRangeInterface.h"

#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"
#include <limits>

#include <deque>
#include <map>
#include <numeric>

using namespace mlir;
using namespace mlir::kda;

namespace {

//===----------------------------------------------------------------------===//
// Values: a concrete integer and the quantity it moves with.
//===----------------------------------------------------------------------===//

/// What a value moves with when the dynamic trip count T changes: nothing, T
/// itself (T + c), or the counter of the loop that runs to T (i + c). The
/// dynamic proof needs every value to be one of these plus an offset that
/// only depends on bounded facts (see proveDynamic).
enum class Anchor : uint8_t { None, Trip, Counter };

struct Val {
  int64_t v = 0;
  Anchor a = Anchor::None;
};

/// Thread classes (bit masks): the first wave, the other waves.
constexpr uint8_t kFirstWave = 1, kOtherWaves = 2, kAllThreads = 3;
constexpr unsigned kClasses = 2;

struct Buffer {
  mutable LdsBufferOp op; // accessors of an op handle are not const
  unsigned ordinal; // for snapshots
  int64_t slots() const { return int64_t(op.getSlots()); }
  int64_t lo(int64_t slot) const {
    return int64_t(op.getOffset()) + slot * int64_t(op.getSlotBytes());
  }
  int64_t hi(int64_t slot) const { return lo(slot) + int64_t(op.getSlotBytes()); }
  StringRef name() const { return op.getSymName(); }
};

/// The tile of one iteration in one slot of one buffer.
struct Tile {
  const Buffer *buf = nullptr;
  int64_t slot = 0;
  Val iter;
  bool same(const Tile &o) const {
    return buf == o.buf && slot == o.slot && iter.v == o.iter.v;
  }
};

std::string where(const Tile &t) {
  return llvm::formatv("@{0} slot {1}", t.buf->name(), t.slot).str();
}

/// The last write into a byte range.
struct Write {
  Tile tile;
  bool async = false;
  uint8_t pending = 0;  // classes whose part of the async copy has not landed
  bool waited = false;  // a wait has run since the issue (R5 wording)
  int64_t lastWait = -1;
  bool visible = false; // complete, and a barrier has run since
  /// A register-staged store not yet drained on a target whose bare barrier
  /// does not wait for it (TargetInfo::bareBarrierOrdersLdsStores).
  bool undrained = false;
};

struct Segment {
  int64_t lo, hi;
  Write w;
};

/// An async copy group of one thread class (empty: predicated off).
struct Group {
  int64_t lo, hi;
  Tile tile;
  bool empty;
};

/// A read not yet behind a drained barrier.
struct Reader {
  int64_t lo, hi;
  Tile tile;
  bool drained = false; // this thread's LDS ops completed (lgkmcnt(0))
  bool bare = false;    // a bare barrier followed, without a drain
};

struct State {
  std::vector<Segment> segs; // sorted, disjoint
  std::deque<Group> outstanding[kClasses];
  std::vector<Reader> readers;
};

/// A copy the schedule issued (enabled), for the R4 check at the end.
struct IssuedCopy {
  Tile tile;
  bool async;
};

/// What a run of the interpreter observed for the dynamic proof.
struct Observed {
  int64_t horizon = 1; // 1 + the largest distance a decision depends on
  int64_t period = 1;  // lcm of the moduli applied to moving values
  int64_t loopLb = 0, loopUbOffset = 0;
  bool tripLoop = false; // a loop to T ran
  bool periodic = false; // its state repeated (proof runs only)
};

int64_t floorMod(int64_t a, int64_t m) { return ((a % m) + m) % m; }

/// A tile some read names: buffer op, iteration and slot. The slot counts:
/// a copy of a read iteration into another slot (a clamped prologue copy)
/// is still never read.
using TileKey = std::tuple<Operation *, int64_t, int64_t>;

static uint64_t unsignedOf(int64_t v, unsigned width) {
  if (width >= 64)
    return uint64_t(v);
  return uint64_t(v) & ((uint64_t(1) << width) - 1);
}

/// The operands of a binary integer op: values, result and operand widths.
struct BinaryArgs {
  Val a, b;
  unsigned width, opWidth;
  bool moving() const { return a.a != Anchor::None || b.a != Anchor::None; }
  uint64_t ua() const { return unsignedOf(a.v, opWidth); }
  uint64_t ub() const { return unsignedOf(b.v, opWidth); }
};

class Interpreter {
public:
  /// `trip`: the trip count (static attribute or the dynamic value), or none.
  /// `consumed`: the tiles some read names (from a first run), or null for
  /// that first run, which only collects them.
  Interpreter(ScheduleOp schedule, std::optional<int64_t> trip,
              const llvm::DenseSet<TileKey> *consumed)
      : schedule(schedule), target(lookupTarget(schedule.getTarget())),
        trip(trip), consumedIn(consumed) {}

  /// Dynamic proof runs: check that the state of the loop to T repeats with
  /// `period` in its middle zone (every decision settled, `horizon`).
  void proveWith(int64_t horizon, int64_t period) {
    proofHorizon = horizon, proofPeriod = period;
  }

  std::optional<PipelineHazard> run();

  llvm::DenseSet<TileKey> consumed;
  Observed seen;

private:
  std::optional<PipelineHazard> walk(Block &block);
  std::optional<PipelineHazard> step(Operation &op);
  std::optional<PipelineHazard> loop(scf::ForOp op);
  std::optional<PipelineHazard> branch(scf::IfOp op);
  std::optional<PipelineHazard> copy(Operation &op, bool async);
  /// A predicated-off async copy's rows, issued into the sink slot.
  std::optional<PipelineHazard> checkSinkRows(Operation &op, const Tile &t,
                                              Value slotV, Value iterV);
  /// R2 for a copy's data atoms: every copy row of `copy` (of tile `t`)
  /// writes inside t's slot.
  /// The copy's rows bounded inside the slot; `rows` gets the bytes each
  /// row surely writes, and `hasRows` whether the copy has any (a copy
  /// without rows is an abstract copy of the whole slot).
  std::optional<PipelineHazard>
  checkRows(Operation &copy, const Tile &t,
            SmallVectorImpl<std::pair<int64_t, int64_t>> &rows, bool &hasRows);
  /// The slot's bytes each load of the read being checked takes (filled by
  /// checkAccess): what must hold its iteration's tile.
  SmallVector<std::pair<int64_t, int64_t>> loadedBytes;
  std::optional<PipelineHazard> checkHeld(LdsReadOp op, const Tile &t,
                                          int64_t lo, int64_t hi);
  /// R1 for a read's body: every view it takes of the ring's bytes lies
  /// inside the slot the read names.
  std::optional<PipelineHazard> checkViews(LdsReadOp read, const Tile &t);
  /// One view of checkViews: false with `found` set when it fails.
  bool checkView(LdsReadOp read, const Tile &t, memref::ViewOp view,
                 int64_t ringLo, int64_t ringHi,
                 std::optional<PipelineHazard> &found);
  /// One load or store of a read's body through a view: the bytes its
  /// indices may reach, not only the view's own extent, stay in the slot
  /// where they reach the ring (an index past a view's end reads the next
  /// bytes of LDS). False with `found` set when it fails.
  /// An access of an LDS array beside the ring (the read body's scratch)
  /// stays inside that array: past it the bytes are the next array's, which
  /// may be the ring's.
  bool checkInsideArray(LdsReadOp read, const Tile &t, Operation *access,
                        std::optional<PipelineHazard> &found);
  /// A view of an array beside the ring lies inside that array.
  bool viewInsideSource(LdsReadOp read, const Tile &t, memref::ViewOp view,
                        std::optional<int64_t> extent,
                        std::optional<PipelineHazard> &found);
  /// The bytes [lo, hi) `view` (`extent` bytes; unknown: R0, a view of
  /// `of` of a size known only at run time) may cover in the body of
  /// `read` (boundBytes).
  FailureOr<std::pair<int64_t, int64_t>>
  viewBytes(LdsReadOp read, const Tile &t, memref::ViewOp view,
            std::optional<int64_t> extent, StringRef of,
            std::optional<PipelineHazard> &found);
  bool checkAccess(LdsReadOp read, const Tile &t, Operation *access,
                   memref::ViewOp view, ValueRange indices,
                   ArrayRef<int64_t> span, int64_t ringLo, int64_t ringHi,
                   std::optional<PipelineHazard> &found);
  /// The LDS bytes [lo, hi) that `extent` bytes at byte `byte` of array
  /// `mem` may cover, `byte` bounded in the body of `at` (a copy or read of
  /// tile `t`); an R0 naming `user` when the array cannot be placed or the
  /// byte cannot be bounded.
  FailureOr<std::pair<int64_t, int64_t>>
  boundBytes(Operation *at, const Tile &t, Operation *user, Value mem,
             Value byte, int64_t extent, std::optional<PipelineHazard> &r0);
  /// The signed range of index value `v` in the body of `at` (a copy or a
  /// read of tile `t`): what the interpreter knows, the op's iteration and
  /// slot, loop counters of the body over their bounds, and arith ops by
  /// their InferIntRangeInterface; anything else is unbounded.
  ConstantIntRanges rangeIn(Value v, Operation *at, const Tile &t,
                            unsigned depth = 0);
  /// rangeIn without the cache.
  ConstantIntRanges rangeOf(Value v, Operation *at, const Tile &t,
                            unsigned depth);
  std::optional<ConstantIntRanges> gpuIdRange(Operation *def, unsigned width);
  /// rangeIn's results within one check of one copy or read (the
  /// interpreter's state does not move during it).
  llvm::DenseMap<Value, ConstantIntRanges> rangeCache;
  /// Every ring the schedule names (its byte extent), for the read and copy
  /// bodies' checks: LDS they touch beside their own ring may still hold
  /// another ring's tiles.
  struct RingExtent {
    mutable LdsBufferOp op; // accessors of an op handle are not const
    int64_t lo, hi;
  };
  SmallVector<RingExtent> rings;
  /// The first ring other than `own` that array `mem` may overlap, or null.
  const RingExtent *otherRingUnder(Value mem, Operation *own) const;
  std::optional<PipelineHazard> wait(AsyncWaitOp op);
  std::optional<PipelineHazard> read(LdsReadOp op);
  std::optional<PipelineHazard> finish();
  /// The first run only collects the tiles reads name (and finds R0).
  bool checking() const { return consumedIn != nullptr; }
  void barrier();
  void drain();

  // Evaluation.
  FailureOr<Val> eval(Value v);
  FailureOr<Val> evalOp(Operation *def, Value result);
  FailureOr<Val> evalLinear(Operation *def, const BinaryArgs &x);
  FailureOr<Val> evalDecision(Operation *def, const BinaryArgs &x);
  FailureOr<Val> evalDivision(Operation *def, const BinaryArgs &x);
  FailureOr<Val> evalBits(Operation *def, const BinaryArgs &x);
  FailureOr<Val> fail(Operation *at, const Twine &why);
  int64_t anchorValue(Anchor a) const;
  int64_t offset(Val x) const {
    return int64_t(uint64_t(x.v) - uint64_t(anchorValue(x.a)));
  }
  void noteCompare(Val x, Val y);
  void noteWrap(Val x, unsigned width);
  LogicalResult notePeriod(Operation *at, Val x, int64_t m);
  std::optional<PipelineHazard> evalOr(Operation &op, Value v, Val &out);

  // Byte ranges.
  FailureOr<const Buffer *> buffer(Operation *at, FlatSymbolRefAttr sym);
  std::optional<PipelineHazard> checkWrite(Operation *op, const Tile &t,
                                           const char *kind);
  void assign(int64_t lo, int64_t hi, const Write &w);
  bool isConsumed(const Tile &t) const;

  // The dynamic proof.
  void snapshot(int64_t i);
  void reanchorAfterLoop();

  PipelineHazard hazard(StringRef rule, Operation *at, const std::string &what);

  ScheduleOp schedule;
  /// The schedule's target (null for one the registry does not know).
  const TargetInfo *target;
  std::optional<int64_t> trip;
  const llvm::DenseSet<TileKey> *consumedIn;
  llvm::DenseMap<Value, Val> env;
  std::map<Operation *, Buffer> buffers; // stable addresses
  State st;
  std::vector<IssuedCopy> issued;
  std::string evalError;
  /// Iterations interpreted so far: a bound on the work of one run.
  int64_t iterations = 0;
  static constexpr int64_t kMaxIterations = 1 << 22;
  /// The longest period of the residues a dynamic proof runs through.
  static constexpr int64_t kMaxPeriod = 4096;
  /// Dynamic trip counts the model covers: below 2^30 (noteWrap).
  static constexpr int64_t kTripCountBelow = int64_t(1) << 30;

  // The loop to the dynamic trip count (at most one instance per run).
  bool inTripLoop = false;
  int64_t counter = 0;
  int64_t proofHorizon = 0, proofPeriod = 0;
  std::map<int64_t, std::vector<int64_t>> snapshots;
};

PipelineHazard Interpreter::hazard(StringRef rule, Operation *at,
                                   const std::string &what) {
  std::string ctx =
      llvm::formatv("pipeline '{0}' at depth {1}", schedule.getName(),
                    schedule.getDepth())
          .str();
  if (schedule.getDynamicTripCount() && trip)
    ctx += llvm::formatv(", trip count {0}", *trip).str();
  return PipelineHazard{rule.str(),
                        (rule + ": " + what + " (" + ctx + ")").str(), at};
}

//===----------------------------------------------------------------------===//
// Evaluation of index arithmetic
//===----------------------------------------------------------------------===//

int64_t Interpreter::anchorValue(Anchor a) const {
  switch (a) {
  case Anchor::None: return 0;
  case Anchor::Trip: return trip.value_or(0);
  case Anchor::Counter: return counter;
  }
  return 0;
}

// A decision between values that move differently (i against a constant, or
// T - i against one) flips where the distance between their anchors crosses
// the difference of their offsets: the proof's zones must be wider than that.
void Interpreter::noteCompare(Val x, Val y) {
  if (x.a == y.a)
    return;
  // In 128 bits: offsets far apart would overflow a 64-bit difference.
  const __int128 d = __int128(offset(x)) - offset(y);
  const __int128 h = (d < 0 ? -d : d) + 1;
  seen.horizon =
      std::max<int64_t>(seen.horizon, h > std::numeric_limits<int64_t>::max()
                                          ? std::numeric_limits<int64_t>::max()
                                          : int64_t(h));
}

// A moving value computed in fewer than 64 bits wraps where it passes its
// type's largest value (i32: i + 2^31 - 50 is negative from i = 50): a
// switch like a comparison's, at that distance from its anchor. The model
// takes trip counts below 2^30 (a row's chunks or tokens: activations of
// 2^30 tokens are terabytes), so a wrap farther than that is never reached
// (i32 arithmetic such as i + 1 < T needs no proof past it).
void Interpreter::noteWrap(Val x, unsigned width) {
  if (x.a == Anchor::None)
    return;
  // At anchor n, x is (offset + n) mod 2^width: it passes the largest
  // value where n = 2^(width-1) - offset, modulo 2^width (64 bits too: i +
  // 2^63 - 50 wraps at i = 50 in index arithmetic).
  const uint64_t top = uint64_t(1) << (width - 1);
  uint64_t reach = top - uint64_t(offset(x));
  if (width < 64)
    reach &= (uint64_t(1) << width) - 1;
  if (reach > 0 && reach < uint64_t(kTripCountBelow))
    seen.horizon = std::max<int64_t>(seen.horizon, int64_t(reach) + 1);
}

// A moving value reduced modulo m repeats with period m.
LogicalResult Interpreter::notePeriod(Operation *at, Val x, int64_t m) {
  if (x.a == Anchor::None)
    return success();
  int64_t l = std::lcm(seen.period, m);
  if (l > kMaxPeriod) {
    (void)fail(at, "its period " + Twine(l) + " is too long to prove");
    return failure();
  }
  seen.period = l;
  return success();
}

FailureOr<Val> Interpreter::fail(Operation *at, const Twine &why) {
  if (evalError.empty())
    evalError = ("cannot analyse " + at->getName().getStringRef() + ": " + why)
                    .str();
  return failure();
}

static bool computedFrom(Value v, Value t);

FailureOr<Val> Interpreter::eval(Value v) {
  if (auto it = env.find(v); it != env.end())
    return it->second;
  Operation *def = v.getDefiningOp();
  if (!def) {
    evalError = "cannot analyse a block argument the schedule does not "
                "define: slots, iterations, predicates and bounds must be "
                "functions of constants, loop counters and the trip count";
    return failure();
  }
  // Only the trip count itself may be read from outside the schedule: the
  // lowerings clamp its uses inside the schedule (clampDynamicTripCounts),
  // not a value computed from it before the schedule (T - 1 there stays -2
  // at T = -1, where the proof took T >= 0).
  if (Value t = schedule.getDynamicTripCount();
      t && !schedule->isAncestor(def) && computedFrom(v, t))
    return fail(def, "it is computed from the schedule's dynamic trip count "
                     "outside the schedule, where the lowering does not "
                     "clamp a negative one to 0; compute it inside");
  return evalOp(def, v);
}

/// Whether `v` is computed from `t` through the operands of its defining
/// ops (a bounded walk; past the bound, assumed so).
static bool computedFrom(Value v, Value t) {
  SmallVector<Value> work{v};
  llvm::SmallPtrSet<Operation *, 16> seen;
  while (!work.empty()) {
    Value x = work.pop_back_val();
    if (x == t)
      return true;
    Operation *def = x.getDefiningOp();
    if (!def || !seen.insert(def).second)
      continue;
    if (seen.size() > 256)
      return true;
    llvm::append_range(work, def->getOperands());
  }
  return false;
}

static unsigned widthOf(Value v) {
  Type t = v.getType();
  if (t.isIndex())
    return 64;
  if (auto i = dyn_cast<IntegerType>(t))
    return i.getWidth();
  return 0;
}

/// `v` as a `width`-bit integer, sign-extended into int64 like every
/// width: an i1 true is -1, as arith's signed ops (cmpi slt, extsi) read it.
static int64_t wrap(int64_t v, unsigned width) {
  if (width >= 64)
    return v;
  uint64_t mask = (uint64_t(1) << width) - 1, u = uint64_t(v) & mask;
  uint64_t sign = uint64_t(1) << (width - 1);
  return int64_t((u ^ sign) - sign);
}

// Integer arithmetic of the schedule, evaluated exactly (every trip count is
// run concretely). Anchors: sums keep the moving operand's anchor, a
// difference of two values of one anchor is fixed, decisions and residues are
// fixed values (their distances and moduli are noted for the proof); any
// other combination of moving values (i * 2, i + T, i / 2) cannot be proven
// periodic and is rejected.
FailureOr<Val> Interpreter::evalOp(Operation *def, Value result) {
  const unsigned width = widthOf(result);
  if (width == 0)
    return fail(def, "its result is not an integer");
  // Values are held in an int64_t: a wider one (an i128 constant 2^64)
  // would read as another (0).
  if (width > 64)
    return fail(def, "its result is an i" + Twine(width) +
                         ", wider than the 64 bits the interpreter holds");
  if (auto c = dyn_cast<arith::ConstantOp>(def)) {
    if (auto i = dyn_cast<IntegerAttr>(c.getValue()))
      return Val{wrap(i.getValue().getSExtValue(), width)};
    return fail(def, "not an integer constant");
  }
  if (auto r = dyn_cast<RingSlotOp>(def)) {
    FailureOr<Val> it = eval(r.getIter());
    if (failed(it))
      return failure();
    FailureOr<const Buffer *> b = buffer(def, r.getBufferAttr());
    if (failed(b))
      return fail(def, "unknown LDS buffer " + r.getBuffer());
    if (failed(notePeriod(def, *it, (*b)->slots())))
      return failure();
    // The lowerings take iter mod slots unsigned: a negative iteration's
    // slot there is not its floor remainder (-1 of 3 slots: 0, not 2).
    if (it->v < 0)
      return fail(def, "the slot of iteration " + Twine(it->v) +
                           ": iterations are counted from 0 (a ring's slots "
                           "are those of iterations 0, 1, ...)");
    return Val{floorMod(it->v, (*b)->slots())};
  }
  if (isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtSIOp,
          arith::ExtUIOp, arith::TruncIOp>(def)) {
    FailureOr<Val> in = eval(def->getOperand(0));
    if (failed(in))
      return failure();
    unsigned from = widthOf(def->getOperand(0));
    if (in->a != Anchor::None && width < 32)
      return fail(def, "it narrows a value that moves with the trip count");
    const bool zext = isa<arith::ExtUIOp, arith::IndexCastUIOp>(def);
    // Read unsigned, a moving value jumps where it changes sign.
    if (zext && from < width)
      noteCompare(*in, Val{0});
    int64_t v = zext ? int64_t(unsignedOf(in->v, from)) : in->v;
    noteWrap(Val{v, in->a}, width);
    return Val{wrap(v, width), in->a};
  }
  if (auto sel = dyn_cast<arith::SelectOp>(def)) {
    FailureOr<Val> c = eval(sel.getCondition());
    if (failed(c))
      return failure();
    return eval(c->v ? sel.getTrueValue() : sel.getFalseValue());
  }
  if (!isa_and_nonnull<arith::ArithDialect>(def->getDialect()) ||
      def->getNumOperands() != 2 || def->getNumResults() != 1)
    return fail(def, "not an operation on slots, iterations or predicates "
                     "the hazard model evaluates");
  // nsw / nuw make a wrap poison, exact an inexact division or shift, and
  // LLVM may fold poison as it likes (a test the model evaluates wrapped,
  // and keeps a wait by, folded to false; `(x divui exact 2) * 2 != x` to
  // false, dropping a barrier).
  if (std::optional<StringRef> flags = poisonFlags(def))
    return fail(def, ("it carries " + *flags +
                      ", under which a result the model evaluates may be "
                      "poison LLVM folds any way; drop them")
                         .str());
  FailureOr<Val> fa = eval(def->getOperand(0));
  if (failed(fa))
    return failure();
  FailureOr<Val> fb = eval(def->getOperand(1));
  if (failed(fb))
    return failure();
  const BinaryArgs args{*fa, *fb, width, widthOf(def->getOperand(0))};
  if (isa<arith::AddIOp, arith::SubIOp, arith::MulIOp>(def))
    return evalLinear(def, args);
  if (isa<arith::CmpIOp, arith::MinSIOp, arith::MaxSIOp, arith::MinUIOp,
          arith::MaxUIOp>(def))
    return evalDecision(def, args);
  if (isa<arith::RemUIOp, arith::RemSIOp, arith::DivUIOp, arith::DivSIOp,
          arith::FloorDivSIOp, arith::CeilDivSIOp, arith::CeilDivUIOp>(def))
    return evalDivision(def, args);
  if (isa<arith::AndIOp, arith::OrIOp, arith::XOrIOp, arith::ShLIOp,
          arith::ShRUIOp, arith::ShRSIOp>(def))
    return evalBits(def, args);
  return fail(def, "not an operation on slots, iterations or predicates the "
                   "hazard model evaluates");
}

// Sums keep the moving operand's anchor; a difference of one anchor is fixed;
// a moving value may only be scaled by 0 or 1.
FailureOr<Val> Interpreter::evalLinear(Operation *def, const BinaryArgs &x) {
  const Val &a = x.a, &b = x.b;
  if (isa<arith::AddIOp>(def)) {
    if (a.a != Anchor::None && b.a != Anchor::None)
      return fail(def, "it adds two values that move with the trip count");
    const Val sum{int64_t(uint64_t(a.v) + uint64_t(b.v)),
                  a.a != Anchor::None ? a.a : b.a};
    noteWrap(sum, x.width);
    return Val{wrap(sum.v, x.width), sum.a};
  }
  if (isa<arith::SubIOp>(def)) {
    const int64_t d = int64_t(uint64_t(a.v) - uint64_t(b.v));
    if (b.a == Anchor::None) {
      noteWrap(Val{d, a.a}, x.width);
      return Val{wrap(d, x.width), a.a};
    }
    if (a.a == b.a)
      return Val{wrap(d, x.width)};
    return fail(def, "it subtracts a value that moves with the trip count");
  }
  if (!x.moving())
    return Val{wrap(int64_t(uint64_t(a.v) * uint64_t(b.v)), x.width)};
  const Val &m = a.a == Anchor::None ? b : a, &k = a.a == Anchor::None ? a : b;
  if (k.a == Anchor::None && k.v == 1)
    return m;
  if (k.a == Anchor::None && k.v == 0)
    return Val{0};
  return fail(def, "it scales a value that moves with the trip count");
}

/// Whether `def` orders its operands as unsigned values.
static bool isUnsignedDecision(Operation *def) {
  if (isa<arith::MinUIOp, arith::MaxUIOp>(def))
    return true;
  auto cmp = dyn_cast<arith::CmpIOp>(def);
  if (!cmp)
    return false;
  switch (cmp.getPredicate()) {
  case arith::CmpIPredicate::ult:
  case arith::CmpIPredicate::ule:
  case arith::CmpIPredicate::ugt:
  case arith::CmpIPredicate::uge:
    return true;
  default:
    return false;
  }
}

// Comparisons, min and max: fixed results (or the chosen operand) whose
// switching distance is noted for the proof.
FailureOr<Val> Interpreter::evalDecision(Operation *def, const BinaryArgs &x) {
  const Val &a = x.a, &b = x.b;
  const uint64_t ua = x.ua(), ub = x.ub();
  noteCompare(a, b);
  // Read unsigned, a moving value also jumps where it changes sign (i - 100
  // <u -95 is true below 5, false from 5 to 99, true again from 100): that
  // switch is a decision too.
  if (isUnsignedDecision(def)) {
    noteCompare(a, Val{0});
    noteCompare(b, Val{0});
  }
  if (auto cmp = dyn_cast<arith::CmpIOp>(def)) {
    auto i1 = [&](bool c) { return Val{wrap(c, x.width)}; };
    switch (cmp.getPredicate()) {
    case arith::CmpIPredicate::eq:
      return i1(a.v == b.v);
    case arith::CmpIPredicate::ne:
      return i1(a.v != b.v);
    case arith::CmpIPredicate::slt:
      return i1(a.v < b.v);
    case arith::CmpIPredicate::sle:
      return i1(a.v <= b.v);
    case arith::CmpIPredicate::sgt:
      return i1(a.v > b.v);
    case arith::CmpIPredicate::sge:
      return i1(a.v >= b.v);
    case arith::CmpIPredicate::ult:
      return i1(ua < ub);
    case arith::CmpIPredicate::ule:
      return i1(ua <= ub);
    case arith::CmpIPredicate::ugt:
      return i1(ua > ub);
    case arith::CmpIPredicate::uge:
      return i1(ua >= ub);
    }
    return fail(def, "unknown predicate");
  }
  bool aFirst = isa<arith::MinSIOp>(def)   ? a.v <= b.v
                : isa<arith::MaxSIOp>(def) ? a.v >= b.v
                : isa<arith::MinUIOp>(def) ? ua <= ub
                                           : ua >= ub;
  return aFirst ? a : b;
}

// Residues by a constant are fixed values repeating with the modulus;
// quotients only of fixed values.
FailureOr<Val> Interpreter::evalDivision(Operation *def, const BinaryArgs &x) {
  const Val &a = x.a, &b = x.b;
  const uint64_t ua = x.ua(), ub = x.ub();
  auto fixed = [&](int64_t v) { return Val{wrap(v, x.width)}; };
  if (b.a != Anchor::None || b.v == 0)
    return fail(def, "its divisor is zero or not a constant");
  if (b.v == std::numeric_limits<int64_t>::min())
    return fail(def, "its divisor has no magnitude in 64 bits");
  // The smallest signed value divided by -1 overflows: undefined behaviour
  // for arith's signed division and remainder, not a wrap.
  const bool isSigned = isa<arith::RemSIOp, arith::DivSIOp, arith::FloorDivSIOp,
                            arith::CeilDivSIOp>(def);
  if (isSigned && b.v == -1 && x.opWidth >= 1 &&
      a.v == wrap(int64_t(uint64_t(1) << (x.opWidth - 1)), x.opWidth))
    return fail(def, "it divides the smallest signed value by -1, which is "
                     "undefined (not a wrap)");
  if (isa<arith::RemUIOp, arith::RemSIOp>(def)) {
    // remui's modulus is the divisor read unsigned: remui(i, -1) is i, not
    // a residue that repeats every iteration.
    const uint64_t m =
        isa<arith::RemUIOp>(def) ? ub : uint64_t(b.v < 0 ? -b.v : b.v);
    if (a.a != Anchor::None && m > uint64_t(kMaxPeriod))
      return fail(def,
                  "its modulus " + Twine(m) + " is too long a period to prove");
    if (failed(notePeriod(def, a, int64_t(m))))
      return failure();
    // A truncated (signed) or unsigned residue of a moving value repeats
    // only while the value keeps its sign: remsi(T - 40, 2) is -1 at T = 39
    // and 1 at T = 41. The sign's switch is a decision like a comparison
    // with 0, so the proof's zones must lie past it.
    noteCompare(a, Val{0});
    if (isa<arith::RemUIOp>(def))
      return fixed(int64_t(ua % ub));
    if (b.v == -1) // INT64_MIN % -1 traps in C++; every residue by -1 is 0
      return fixed(0);
    return fixed(a.v % b.v);
  }
  if (x.moving())
    return fail(def, "it divides a value that moves with the trip count");
  if (isa<arith::DivUIOp>(def)) return fixed(int64_t(ua / ub));
  // ua + ub - 1 would wrap past 2^64.
  if (isa<arith::CeilDivUIOp>(def))
    return fixed(int64_t(ua / ub + (ua % ub != 0)));
  // x / -1 is exact and wraps at INT64_MIN (which C++ division traps on).
  if (b.v == -1)
    return fixed(int64_t(0 - uint64_t(a.v)));
  if (isa<arith::DivSIOp>(def)) return fixed(a.v / b.v);
  int64_t q = a.v / b.v;
  bool inexact = q * b.v != a.v, negative = (a.v < 0) != (b.v < 0);
  if (isa<arith::FloorDivSIOp>(def))
    return fixed(inexact && negative ? q - 1 : q);
  return fixed(inexact && !negative ? q + 1 : q);
}

// Bit operations of fixed values; a moving value only under a non-negative
// constant mask (i & 1, i & 3), which repeats with the next power of two.
FailureOr<Val> Interpreter::evalBits(Operation *def, const BinaryArgs &x) {
  const Val &a = x.a, &b = x.b;
  const uint64_t ua = x.ua();
  auto fixed = [&](int64_t v) { return Val{wrap(v, x.width)}; };
  if (isa<arith::AndIOp>(def) && x.moving()) {
    const Val &m = a.a == Anchor::None ? b : a, &k = a.a == Anchor::None ? a : b;
    if (k.a != Anchor::None || k.v < 0)
      return fail(def, "it masks a moving value with a negative or moving "
                       "mask");
    // The period, the next power of two above the mask: a mask past the
    // longest period the proof takes is refused here (doubling up to a mask
    // of 2^62 or more overflowed and never ended).
    if (k.v >= kMaxPeriod)
      return fail(def, llvm::formatv("it masks a moving value with {0}, "
                                     "whose period passes the {1} the proof "
                                     "takes",
                                     k.v, kMaxPeriod)
                           .str());
    int64_t p = 1;
    while (p <= k.v)
      p <<= 1;
    if (failed(notePeriod(def, m, p)))
      return failure();
    return fixed(m.v & k.v);
  }
  if (x.moving())
    return fail(def, "it applies bit operations to a value that moves with "
                     "the trip count");
  if (isa<arith::AndIOp>(def)) return fixed(a.v & b.v);
  if (isa<arith::OrIOp>(def)) return fixed(a.v | b.v);
  if (isa<arith::XOrIOp>(def)) return fixed(a.v ^ b.v);
  if (b.v < 0 || b.v >= int64_t(x.opWidth))
    return fail(def, "its shift amount is out of range");
  if (isa<arith::ShLIOp>(def)) return fixed(int64_t(ua << b.v));
  if (isa<arith::ShRUIOp>(def)) return fixed(int64_t(ua >> b.v));
  return fixed(a.v >> b.v);
}

std::optional<PipelineHazard> Interpreter::evalOr(Operation &op, Value v,
                                                  Val &out) {
  evalError.clear();
  FailureOr<Val> r = eval(v);
  if (failed(r))
    return hazard("R0", &op,
                  (evalError.empty()
                       ? "cannot evaluate an operand of " +
                             op.getName().getStringRef().str()
                       : evalError) +
                      " (an operand of " + op.getName().getStringRef().str() +
                      ")");
  out = *r;
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// Control flow
//===----------------------------------------------------------------------===//

std::optional<PipelineHazard> Interpreter::walk(Block &block) {
  for (Operation &op : block)
    if (auto h = step(op))
      return h;
  return std::nullopt;
}

static std::string cannot(Operation &op, StringRef why) {
  return ("cannot analyse " + op.getName().getStringRef() + ": " + why).str();
}

std::optional<PipelineHazard> Interpreter::step(Operation &op) {
  if (auto f = dyn_cast<scf::ForOp>(op))
    return loop(f);
  if (auto i = dyn_cast<scf::IfOp>(op))
    return branch(i);
  if (isa<scf::YieldOp>(op))
    return std::nullopt; // read by the parent
  // Each copy and read is one event: a region it owns (its data atoms) is
  // never entered.
  if (isa<AsyncCopyOp>(op))
    return copy(op, /*async=*/true);
  if (isa<StagedCopyOp>(op))
    return copy(op, /*async=*/false);
  if (auto w = dyn_cast<AsyncWaitOp>(op))
    return wait(w);
  if (auto r = dyn_cast<LdsReadOp>(op))
    return read(r);
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
  // Index arithmetic is evaluated where it is used.
  if (op.getNumRegions() == 0 &&
      (isa_and_nonnull<arith::ArithDialect>(op.getDialect()) ||
       isa<RingSlotOp>(op) ||
       isPure(&op)))
    return std::nullopt;
  if (op.getNumRegions() > 0)
    return hazard("R0", &op,
                  cannot(op, "the hazard model interprets only scf.for and "
                             "scf.if regions inside a schedule"));
  return hazard("R0", &op,
                cannot(op, "not a schedule operation the hazard model knows "
                           "(copies, waits, drains, barriers, reads, index "
                           "arithmetic)"));
}

std::optional<PipelineHazard> Interpreter::loop(scf::ForOp f) {
  Val lb, ub, stepV;
  if (auto h = evalOr(*f.getOperation(), f.getLowerBound(), lb)) return h;
  if (auto h = evalOr(*f.getOperation(), f.getUpperBound(), ub)) return h;
  if (auto h = evalOr(*f.getOperation(), f.getStep(), stepV)) return h;
  if (stepV.a != Anchor::None || stepV.v <= 0)
    return hazard("R0", f, cannot(*f.getOperation(), "its step must be a positive constant"));
  // Which quantity the counter moves with: a loop from a fixed bound to the
  // trip count is the loop the dynamic proof pumps; bounds of one anchor give
  // a fixed number of iterations.
  Anchor ivAnchor = lb.a;
  bool isTripLoop = lb.a == Anchor::None && ub.a == Anchor::Trip;
  if (!isTripLoop && lb.a != ub.a)
    return hazard("R0", f,
                  cannot(*f.getOperation(), "its bounds move differently with the trip count "
                             "(only loops from a fixed bound to T + c are "
                             "proven)"));
  if (isTripLoop) {
    if (inTripLoop || seen.tripLoop)
      return hazard("R0", f,
                    cannot(*f.getOperation(), "a second loop to the dynamic trip count in "
                               "one run (only one is proven periodic)"));
    if (f.getNumRegionIterArgs() > 0)
      return hazard("R0", f,
                    cannot(*f.getOperation(), "a loop to the dynamic trip count may not "
                               "carry values between iterations"));
    seen.tripLoop = true;
    seen.loopLb = lb.v;
    seen.loopUbOffset = ub.v - anchorValue(Anchor::Trip);
    ivAnchor = Anchor::Counter;
  }
  SmallVector<Val> carried;
  for (Value init : f.getInitArgs()) {
    Val v;
    if (auto h = evalOr(*f.getOperation(), init, v)) return h;
    carried.push_back(v);
  }
  // An unsigned loop counts like a signed one only where both bounds are
  // non-negative (200 : i8 is -56 signed): else its counter would wrap in
  // its width, which the run below does not model.
  if (f.getUnsignedCmp() && (lb.v < 0 || ub.v < 0))
    return hazard("R0", f,
                  cannot(*f.getOperation(),
                         "an unsigned loop with a bound that is negative as "
                         "a signed value"));
  // A counter narrower than 64 bits steps past its last trip in its own
  // width (scf.for's increment has no overflow flag): where that wraps,
  // the loop runs on (0, 100, -56, ... for i8 to 120 by 100), which the
  // run below, counting in 64 bits, would not see.
  // So does a 64-bit one (0x3000... by 0x6000...0400), where the run below
  // would overflow int64 besides.
  if (const unsigned width = widthOf(f.getInductionVar());
      width > 0 && width <= 64 && ub.v > lb.v) {
    const APInt lb128(128, uint64_t(lb.v), /*isSigned=*/true),
        ub128(128, uint64_t(ub.v), /*isSigned=*/true),
        step128(128, uint64_t(stepV.v), /*isSigned=*/true);
    const APInt trips = (ub128 - lb128 + step128 - 1).sdiv(step128);
    const APInt last = lb128 + (trips - 1) * step128;
    if (steppedPastMax(last, step128, width, f.getUnsignedCmp()))
      return hazard(
          "R0", f,
          cannot(*f.getOperation(),
                 llvm::formatv(
                     "its i{0} counter steps from its last trip, "
                     "{1}, to {2}, past the largest i{0} value {3}: "
                     "it wraps and the loop runs on past its bound",
                     width, llvm::toString(last, 10, true),
                     llvm::toString(last + step128, 10, true),
                     llvm::toString(f.getUnsignedCmp()
                                        ? APInt::getMaxValue(width)
                                        : APInt::getSignedMaxValue(width),
                                    10, !f.getUnsignedCmp()))
                     .str()));
  }
  for (int64_t i = lb.v; i < ub.v; i += stepV.v) {
    if (++iterations > kMaxIterations)
      return hazard("R0", f,
                    cannot(*f.getOperation(),
                           "the schedule runs more than " +
                               std::to_string(kMaxIterations) +
                               " loop iterations"));
    if (isTripLoop) {
      inTripLoop = true;
      counter = i;
      snapshot(i);
    }
    env[f.getInductionVar()] = Val{i, ivAnchor};
    for (auto [arg, v] : llvm::zip(f.getRegionIterArgs(), carried))
      env[arg] = v;
    if (auto h = walk(*f.getBody()))
      return h;
    auto yield = cast<scf::YieldOp>(f.getBody()->getTerminator());
    for (auto [k, y] : llvm::enumerate(yield.getOperands()))
      if (auto h = evalOr(*yield.getOperation(), y, carried[k]))
        return h;
  }
  if (isTripLoop) {
    inTripLoop = false;
    reanchorAfterLoop();
  }
  for (auto [r, v] : llvm::zip(f.getResults(), carried))
    env[r] = v;
  return std::nullopt;
}

std::optional<PipelineHazard> Interpreter::branch(scf::IfOp op) {
  Val c;
  if (auto h = evalOr(*op.getOperation(), op.getCondition(), c)) return h;
  Block *taken = c.v ? op.thenBlock() : op.elseBlock();
  if (!taken)
    return std::nullopt;
  if (auto h = walk(*taken))
    return h;
  auto yield = cast<scf::YieldOp>(taken->getTerminator());
  for (auto [r, y] : llvm::zip(op.getResults(), yield.getOperands())) {
    Val v;
    if (auto h = evalOr(*yield.getOperation(), y, v)) return h;
    env[r] = v;
  }
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// LDS events
//===----------------------------------------------------------------------===//

FailureOr<const Buffer *> Interpreter::buffer(Operation *at,
                                              FlatSymbolRefAttr sym) {
  auto op = SymbolTable::lookupNearestSymbolFrom<LdsBufferOp>(at, sym);
  if (!op)
    return failure();
  auto it = buffers.find(op);
  if (it == buffers.end())
    it = buffers.emplace(op, Buffer{op, unsigned(buffers.size())}).first;
  return &it->second;
}

bool Interpreter::isConsumed(const Tile &t) const {
  return !consumedIn ||
         consumedIn->contains({t.buf->op.getOperation(), t.iter.v, t.slot});
}

// Any write, whatever its kind, into bytes that a read has not released (R2,
// WAR) or that another write still owns: an async copy in flight, or a write
// no barrier has ordered yet (its threads are not the writer's threads).
std::optional<PipelineHazard>
Interpreter::checkWrite(Operation *op, const Tile &t, const char *kind) {
  const int64_t lo = t.buf->lo(t.slot), hi = t.buf->hi(t.slot);
  for (const Reader &r : st.readers) {
    if (!(r.lo < hi && lo < r.hi))
      continue;
    std::string why =
        r.bare ? "only a bare barrier follows that read, which does not "
                 "order a wave's pending LDS reads"
               : (r.drained ? "the read is drained but no barrier follows"
                            : "no drained barrier lies between them");
    std::string other =
        r.tile.buf == t.buf
            ? ""
            : llvm::formatv(" (@{0} and @{1} share bytes [{2}, {3}) while "
                            "both are live)",
                            r.tile.buf->name(), t.buf->name(),
                            std::max(lo, r.lo), std::min(hi, r.hi))
                  .str();
    return hazard("R2", op,
                  llvm::formatv("the copy of iteration {0} into {1} may "
                                "overwrite iteration {2}'s tile still being "
                                "read from {3}{4}: {5}",
                                t.iter.v, where(t), r.tile.iter.v,
                                where(r.tile), other, why));
  }
  for (const Segment &s : st.segs) {
    if (!(s.lo < hi && lo < s.hi))
      continue;
    const Write &w = s.w;
    if (w.pending)
      return hazard("R2", op,
                    llvm::formatv("the {0}copy of iteration {1} into {2} is "
                                  "issued while the copy of iteration {3} "
                                  "into {4} is still in flight",
                                  kind, t.iter.v, where(t), w.tile.iter.v,
                                  where(w.tile)));
    if (w.visible)
      continue;
    // Two writes no barrier orders: which one the bytes keep is a race. A
    // first write that no iteration reads is a copy past the trip count
    // spilling into bytes reused afterwards (R3).
    bool stray = !isConsumed(w.tile);
    return hazard(
        stray ? "R3" : "R2", op,
        llvm::formatv("the {0}copy of iteration {1} into {2} races the {3} "
                      "copy of iteration {4} into {5} (bytes [{6}, {7})): no "
                      "barrier orders them{8}",
                      kind, t.iter.v, where(t),
                      w.async ? "async" : "register-staged", w.tile.iter.v,
                      where(w.tile), std::max(lo, s.lo), std::min(hi, s.hi),
                      stray ? "; no iteration reads that tile, a copy beyond "
                              "the trip count"
                            : ""));
  }
  return std::nullopt;
}

// The segments of [lo, hi) now hold `w`.
void Interpreter::assign(int64_t lo, int64_t hi, const Write &w) {
  std::vector<Segment> out;
  out.reserve(st.segs.size() + 2);
  for (const Segment &s : st.segs) {
    if (s.hi <= lo || hi <= s.lo) {
      out.push_back(s);
      continue;
    }
    if (s.lo < lo)
      out.push_back(Segment{s.lo, lo, s.w});
    if (hi < s.hi)
      out.push_back(Segment{hi, s.hi, s.w});
  }
  out.push_back(Segment{lo, hi, w});
  llvm::sort(out, [](const Segment &a, const Segment &b) { return a.lo < b.lo; });
  st.segs = std::move(out);
}

static bool hasSinkSlot(LdsBufferOp b, Operation *scope,
                        const TargetInfo *target);

// The body as lowering::emitAsyncCopyBody clones it for the sink: the slot
// operand is the sink slot, the iteration at most the last (trip count - 1,
// an unsigned minimum as the lowering's), and nothing is issued when the
// trip count is 0. Only the body's own uses of the two operands are
// remapped: a value the body takes from outside (a row's byte offset
// computed before the copy from its slot) keeps what it is, so a row
// placed by such a value lands where the real slot's would (a live slot).
std::optional<PipelineHazard> Interpreter::checkSinkRows(Operation &op,
                                                         const Tile &t,
                                                         Value slotV,
                                                         Value iterV) {
  if (trip && *trip <= 0)
    return std::nullopt;
  // The sink clone maps the slot operand to the sink slot and the
  // iteration to at most the last: one value the body uses cannot take
  // both (a prologue's constant 0 for both, unused in its body, can).
  if (slotV == iterV && llvm::any_of(slotV.getUsers(), [&](Operation *u) {
        return op.isProperAncestor(u);
      }))
    return hazard("R0", &op,
                  cannot(op, ("a copy predicated off on " + target->name +
                              " whose slot and iteration are one value: its "
                              "sink clone maps them two ways (the sink slot, "
                              "the last iteration); take the slot from "
                              "kda.ring_slot")
                                 .str()));
  Tile sink = t;
  sink.slot = t.buf->slots();
  if (trip && uint64_t(sink.iter.v) > uint64_t(*trip - 1))
    sink.iter.v = *trip - 1;
  // What env holds for `v` now, to be put back.
  auto saved = [&](Value v) {
    auto it = env.find(v);
    return it == env.end() ? std::optional<Val>() : std::optional(it->second);
  };
  // The integers the body takes from outside it (other than the two
  // operands), evaluated as they are, pinned while the sink is read.
  SmallVector<std::pair<Value, std::optional<Val>>> restore;
  llvm::SmallPtrSet<Value, 8> seen;
  op.walk([&](Operation *inner) {
    for (Value v : inner->getOperands()) {
      Operation *def = v.getDefiningOp();
      Operation *owner = def ? def : v.getParentBlock()->getParentOp();
      if (op.isAncestor(owner) || v == slotV || v == iterV || !widthOf(v) ||
          !seen.insert(v).second)
        continue;
      FailureOr<Val> now = eval(v);
      if (failed(now)) {
        evalError.clear(); // checkRows reports it, as for an enabled copy
        continue;
      }
      restore.push_back({v, saved(v)});
      env[v] = *now;
    }
  });
  restore.push_back({slotV, saved(slotV)});
  restore.push_back({iterV, saved(iterV)});
  env[slotV] = Val{sink.slot};
  env[iterV] = sink.iter;
  SmallVector<std::pair<int64_t, int64_t>> rows;
  bool hasRows = false;
  std::optional<PipelineHazard> h = checkRows(op, sink, rows, hasRows);
  for (auto &[v, old] : llvm::reverse(restore))
    if (old)
      env[v] = *old;
    else
      env.erase(v);
  return h;
}

std::optional<PipelineHazard> Interpreter::copy(Operation &op, bool async) {
  auto sym = op.getAttrOfType<FlatSymbolRefAttr>("buffer");
  FailureOr<const Buffer *> b = buffer(&op, sym);
  if (failed(b))
    return hazard("R0", &op,
                  cannot(op, ("unknown LDS buffer " + sym.getValue()).str()));
  uint8_t issuers = kAllThreads;
  if (auto by = op.getAttrOfType<StringAttr>(kIssuersAttr)) {
    if (by.getValue() == "wave0")
      issuers = kFirstWave;
    else if (by.getValue() != "all")
      return hazard("R0", &op,
                    cannot(op, ("issuers '" + by.getValue() +
                                "' is not a thread set the model tracks (all, "
                                "wave0)")
                                   .str()));
  }
  Tile t{*b};
  Val slot, pred{1};
  // Both copy ops name their operands alike (and may own a region of data
  // atoms, which is not part of the event).
  Value slotV, iterV, predV;
  if (auto c = dyn_cast<AsyncCopyOp>(op))
    slotV = c.getSlot(), iterV = c.getIter(), predV = c.getPred();
  else if (auto c = dyn_cast<StagedCopyOp>(op))
    slotV = c.getSlot(), iterV = c.getIter(), predV = c.getPred();
  if (auto h = evalOr(op, slotV, slot)) return h;
  if (auto h = evalOr(op, iterV, t.iter)) return h;
  if (predV)
    if (auto h = evalOr(op, predV, pred)) return h;
  t.slot = slot.v;
  const bool enabled = pred.v != 0;
  // What the copy writes: the bytes its rows surely write (checkRows), or
  // the whole slot for a copy without rows. Bytes of the slot no row surely
  // writes keep what they held, so a read of them finds an older tile (R1).
  SmallVector<std::pair<int64_t, int64_t>> rows;
  bool hasRows = false;
  if (enabled && checking()) {
    if (t.slot < 0 || t.slot >= t.buf->slots())
      return hazard("R2", &op,
                    llvm::formatv("slot {0} of @{1} does not exist: the ring "
                                  "has {2} slots, fewer than the schedule uses",
                                  t.slot, t.buf->name(), t.buf->slots()));
    if (auto h = checkRows(op, t, rows, hasRows))
      return h;
    if (trip) {
      noteCompare(t.iter, Val{*trip, Anchor::Trip});
      if (t.iter.v >= *trip)
        return hazard("R4", &op,
                      llvm::formatv("the copy of iteration {0} into {1} is "
                                    "issued beyond the trip count {2} and is "
                                    "not predicated off",
                                    t.iter.v, where(t), *trip));
    }
    if (auto h = checkWrite(&op, t, async ? "" : "register-staged "))
      return h;
  }
  // Predicated off on a target whose waits count instructions, an async
  // copy still issues its rows, into the sink slot past the ring's last
  // (hasSinkSlot): they must land there, inside their array.
  if (!enabled && async && checking() &&
      hasSinkSlot(t.buf->op, schedule.getOperation(), target)) {
    // The lowering issues the sink rows up to the schedule's trip count,
    // and none without one (lowering::emitAsyncCopyBody): the group would
    // be empty where the waits count its instructions.
    if (!trip && !schedule.getDynamicTripCount())
      return hazard(
          "R0", &op,
          cannot(op, ("a copy predicated off on " + target->name +
                      ", whose waits count copy instructions (vmcnt), in a "
                      "schedule with no trip count: its rows go to the sink "
                      "slot only up to the trip count, so this group would "
                      "issue none and a wait would let an older group's "
                      "rows pass (state trip_count, or the dynamic one)")
                         .str()));
    if (auto h = checkSinkRows(op, t, slotV, iterV))
      return h;
  }
  // A wait retires a tile's bytes by its tile (wait): two groups of one
  // tile in flight at once would land together in the model while the
  // later one is still in flight on the GPU. A copy whose rows run no trip
  // writes nothing and would let its twin's rows pass as landed.
  if (enabled && async && checking())
    for (unsigned c = 0; c < kClasses; ++c)
      for (const Group &g : st.outstanding[c])
        if (!g.empty && g.tile.same(t))
          return hazard(
              "R2", &op,
              llvm::formatv("the copy of iteration {0} into {1} is issued "
                            "while an earlier copy of the same tile is still "
                            "in flight (no wait has retired its group): one "
                            "wait would take both as landed",
                            t.iter.v, where(t)));
  if (enabled) {
    issued.push_back({t, async});
    Write w{t, async};
    w.pending = async ? issuers : 0;
    w.undrained = !async && target && !target->bareBarrierOrdersLdsStores();
    if (!hasRows)
      assign(t.buf->lo(t.slot), t.buf->hi(t.slot), w);
    for (auto [lo, hi] : rows)
      assign(lo, hi, w);
  }
  if (async)
    for (unsigned c = 0; c < kClasses; ++c)
      if (issuers & (1u << c))
        st.outstanding[c].push_back(Group{t.buf->lo(t.slot),
                                          t.buf->hi(t.slot), t, !enabled});
  return std::nullopt;
}

/// Whether ring `b` takes a sink slot past its last in `scope`: a target
/// whose waits count instructions (gfx950's vmcnt), and a predicated async
/// copy into it. Such a copy, predicated off, must still issue its loads
/// (lowering::emitAsyncCopyBody): into slot `slots`, which no read names.
/// Its writes of the sink race only one another, harmlessly, so the model
/// does not track them; instead the sink's bytes count in the ring's extent
/// (R6, and the bodies' checks of other rings' bytes) and no other ring may
/// share them (checkCapacity).
static bool hasSinkSlot(LdsBufferOp b, Operation *scope,
                        const TargetInfo *target) {
  if (!target || !target->waitsCountInstructions())
    return false;
  bool found = false;
  scope->walk([&](AsyncCopyOp c) {
    found |= c.getPred() && c.getBuffer() == b.getSymName();
  });
  return found;
}

/// The bytes [lo, hi) ring `b` takes in `scope`: its slots, and its sink
/// slot where it has one.
static std::pair<int64_t, int64_t> ringExtent(LdsBufferOp b, Operation *scope,
                                              const TargetInfo *target) {
  const int64_t lo = b.getOffsetAttr().getInt(),
                slots = b.getSlotsAttr().getInt() +
                        (hasSinkSlot(b, scope, target) ? 1 : 0);
  return {lo, lo + slots * b.getSlotBytesAttr().getInt()};
}

//===----------------------------------------------------------------------===//
// A copy's data atoms stay in its slot
//===----------------------------------------------------------------------===//
//
// The events above take a copy's bytes to be its slot's. Its copy rows are
// what write LDS, so each row's destination is bounded here: were a row to
// reach outside the slot (the neighbouring slot, still being read, or
// another ring's bytes), the state above would not see that write at all.

/// Farther than any LDS from its start: a bound past it is no bound.
constexpr int64_t kFar = int64_t(1) << 40;

/// The range of `v` holding `x` alone.
static ConstantIntRanges pointRange(Value v, int64_t x) {
  return ConstantIntRanges::constant(APInt(rangeWidth(v), uint64_t(x), true));
}

/// The range of `v`, whose interpreter value is `x`, within a body: `x`
/// alone, but any value where `x` moves with the dynamic trip count (an
/// iteration, T + c). The proof pumps the loop only as far as the
/// decisions it sees (noteCompare, notePeriod) need; a body's bytes are
/// bounded by ranges, which record no such decision (`i >= 256`, `i / 300`
/// in a body would never widen the horizon), so they must hold for every
/// iteration, not for the ones the proof happens to run.
static ConstantIntRanges movingOrPoint(Value v, Val x) {
  return x.a == Anchor::None ? pointRange(v, x.v)
                             : ConstantIntRanges::maxRange(rangeWidth(v));
}

ConstantIntRanges Interpreter::rangeIn(Value v, Operation *at, const Tile &t,
                                       unsigned depth) {
  if (depth > 64)
    return ConstantIntRanges::maxRange(rangeWidth(v));
  if (auto it = env.find(v); it != env.end())
    return movingOrPoint(v, it->second);
  // Memoized within one check (checkRows, checkViews clear it): index
  // DAGs share their subterms (a select's condition repeats its operands),
  // which a plain recursion walks again.
  if (auto it = rangeCache.find(v); it != rangeCache.end())
    return it->second;
  ConstantIntRanges r = rangeOf(v, at, t, depth);
  rangeCache.try_emplace(v, r);
  return r;
}

/// How many values a lane id, a thread id (of its dimension) or a wave id
/// of the kernel around `id` takes: a lane id by the target's wave size; the
/// others by the kernel's known_block_size, else by the target's largest
/// workgroup; nothing where neither is known. Whatever an id's upper_bound
/// says: a bound below these is wrong (32 on a wave of 64) and would let the
/// ids past it index beyond what the range allows.
static std::optional<int64_t> idsBelow(Operation *id,
                                       const TargetInfo *target) {
  if (isa<gpu::LaneIdOp>(id))
    return target ? std::optional<int64_t>(target->waveSize) : std::nullopt;
  auto fn = id->getParentOfType<gpu::GPUFuncOp>();
  DenseI32ArrayAttr known =
      fn ? fn.getKnownBlockSizeAttr() : DenseI32ArrayAttr();
  const bool hasKnown = bool(known);
  if (auto tid = dyn_cast<gpu::ThreadIdOp>(id)) {
    if (hasKnown)
      return int64_t(known[unsigned(tid.getDimension())]);
    return target ? std::optional<int64_t>(target->maxWorkgroupSize)
                  : std::nullopt;
  }
  if (!target)
    return std::nullopt;
  const int64_t threads = hasKnown ? int64_t(known[0]) * known[1] * known[2]
                                   : int64_t(target->maxWorkgroupSize);
  return (threads + target->waveSize - 1) / target->waveSize;
}

/// The range of a gpu dialect id or size: lane, thread and wave ids by
/// idsBelow; the wave's size from the target, the number of waves
/// and the block's size from known_block_size, else the target's largest
/// workgroup. Block and grid ids and sizes, cluster ids and sizes and global
/// ids: unbounded. Their own rules read the kernel's known_grid_size (and
/// cluster size), which nothing records for a launch or checks against it:
/// a kernel stating a grid of 1 ran block 1 of a grid of 2 before its slot.
/// An upper_bound is never trusted either (an annotation the launch need
/// not honour: a subgroup_size upper_bound of 32 on a wave of 64 let ids
/// past it index another slot).
std::optional<ConstantIntRanges> Interpreter::gpuIdRange(Operation *def,
                                                         unsigned width) {
  auto fromTo = [&](int64_t lo, int64_t hi) {
    return ConstantIntRanges::fromSigned(APInt(width, uint64_t(lo)),
                                         APInt(width, uint64_t(hi)));
  };
  // A lane, thread or wave id: below what the target and the kernel's
  // block size allow (idsBelow).
  if (isa<gpu::LaneIdOp, gpu::ThreadIdOp, gpu::SubgroupIdOp>(def))
    if (std::optional<int64_t> below = idsBelow(def, target))
      return fromTo(0, *below - 1);
  auto fn = def->getParentOfType<gpu::GPUFuncOp>();
  DenseI32ArrayAttr known =
      fn ? fn.getKnownBlockSizeAttr() : DenseI32ArrayAttr();
  if (isa<gpu::SubgroupSizeOp>(def))
    return target ? std::optional(fromTo(target->waveSize, target->waveSize))
                  : std::optional(ConstantIntRanges::maxRange(width));
  if (isa<gpu::NumSubgroupsOp>(def)) {
    std::optional<int64_t> waves =
        target ? idsBelow(def, target) : std::nullopt;
    return waves ? fromTo(1, *waves) : ConstantIntRanges::maxRange(width);
  }
  if (auto dim = dyn_cast<gpu::BlockDimOp>(def)) {
    if (known)
      return fromTo(known[unsigned(dim.getDimension())],
                    known[unsigned(dim.getDimension())]);
    return target ? fromTo(1, target->maxWorkgroupSize)
                  : ConstantIntRanges::maxRange(width);
  }
  if (isa<gpu::BlockIdOp, gpu::GridDimOp, gpu::GlobalIdOp, gpu::ClusterIdOp,
          gpu::ClusterDimOp, gpu::ClusterBlockIdOp, gpu::ClusterDimBlocksOp>(
          def) ||
      def->getAttr("upper_bound"))
    return ConstantIntRanges::maxRange(width);
  return std::nullopt;
}

ConstantIntRanges Interpreter::rangeOf(Value v, Operation *at, const Tile &t,
                                       unsigned depth) {
  const ConstantIntRanges unbounded =
      ConstantIntRanges::maxRange(rangeWidth(v));
  auto point = [&](int64_t x) { return pointRange(v, x); };
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    Operation *owner = arg.getOwner()->getParentOp();
    if (owner == at) // a hand-written body's (iteration, slot)
      return arg.getOwner()->getNumArguments() == 2
                 ? (arg.getArgNumber() == 0 ? movingOrPoint(v, t.iter)
                                            : point(t.slot))
                 : unbounded;
    auto loop = dyn_cast<scf::ForOp>(owner);
    if (!loop || loop.getInductionVar() != arg || !at->isAncestor(loop))
      return unbounded;
    // A counter of the body's own loop: its bounds (the rows that run).
    ConstantIntRanges lb = rangeIn(loop.getLowerBound(), at, t, depth + 1),
                      ub = rangeIn(loop.getUpperBound(), at, t, depth + 1);
    // Unsigned bounds read as signed ones only where both are non-negative
    // (an i8 loop to 200 runs 200 trips; signed, 200 is -56).
    if (loop.getUnsignedCmp() &&
        (lb.smin().isNegative() || ub.smin().isNegative()))
      return unbounded;
    if (ub.smax().sle(lb.smin()))
      return point(lb.smin().getSExtValue()); // never runs
    APInt last = ub.smax() - 1;
    // With a constant start and step, the last counter the step reaches.
    ConstantIntRanges step = rangeIn(loop.getStep(), at, t, depth + 1);
    if (lb.smin() == lb.smax() && step.smin() == step.smax() &&
        step.smin().isStrictlyPositive())
      last = lb.smin() + (last - lb.smin()).sdiv(step.smin()) * step.smin();
    // A counter that may step from its last trip past its type's largest
    // value wraps (scf.for's increment has no overflow flag), and the loop
    // runs on (0, 100, -56, ... for i8 to 120 by 100; at 64 bits, 0x3000...
    // by 0x6000...0400 wraps to a negative value below its bound): no bound
    // (Interpreter::loop's rule for the schedule's own loops). Counted in
    // 128 bits, where no width here overflows.
    if (!step.smin().isStrictlyPositive() ||
        steppedPastMax(last, step.smax(), rangeWidth(v), loop.getUnsignedCmp()))
      return unbounded;
    return ConstantIntRanges::fromSigned(lb.smin(), last);
  }
  Operation *def = v.getDefiningOp();
  if (!at->isAncestor(def)) {
    // Computed outside the body: the interpreter's value where it has one
    // (not an error where it has not: kernel data bound the rows instead),
    // else what its op's range rules give (a thread or lane id within the
    // kernel's known_block_size, a remainder).
    std::string kept = evalError;
    FailureOr<Val> x = eval(v);
    evalError = kept;
    if (succeeded(x))
      return movingOrPoint(v, *x);
  }
  // Ids and sizes of the launch: from the target and the kernel, never an
  // upper_bound annotation (gpuIdRange).
  if (isa_and_nonnull<gpu::GPUDialect>(def->getDialect()))
    if (std::optional<ConstantIntRanges> r = gpuIdRange(def, rangeWidth(v)))
      return *r;
  return rangeByRules(
      v, [&](Value operand) { return rangeIn(operand, at, t, depth + 1); });
}

FailureOr<std::pair<int64_t, int64_t>>
Interpreter::boundBytes(Operation *at, const Tile &t, Operation *user,
                        Value mem, Value byte, int64_t extent,
                        std::optional<PipelineHazard> &r0) {
  FailureOr<int64_t> base = workgroupArrayBase(mem);
  if (failed(base)) {
    r0 = hazard("R0", user,
                cannot(*user, "its LDS array is not a workgroup attribution "
                              "or a view of one or of the dynamic LDS at a "
                              "constant offset: the bytes it touches cannot "
                              "be placed"));
    return failure();
  }
  ConstantIntRanges range = rangeIn(byte, at, t);
  if (range.smin().getSExtValue() < -kFar ||
      range.smax().getSExtValue() > kFar) {
    r0 = hazard("R0", user,
                cannot(*user, "the LDS byte it starts at cannot be bounded "
                              "from the slot, constants and the body's own "
                              "loops"));
    return failure();
  }
  return std::make_pair(*base + range.smin().getSExtValue(),
                        *base + range.smax().getSExtValue() + extent);
}

static bool isWorkgroupMemRef(Value v);

std::optional<PipelineHazard>
Interpreter::checkRows(Operation &copy, const Tile &t,
                       SmallVectorImpl<std::pair<int64_t, int64_t>> &rows,
                       bool &hasRows) {
  std::optional<PipelineHazard> found;
  rangeCache.clear();
  // A copy writes LDS through its copy rows only: any other op of its body
  // that takes LDS (a plain store, a load) is an access no rule orders.
  copy.walk([&](Operation *op) {
    if (op == &copy || isa<CopyRowOp, memref::ViewOp>(op))
      return WalkResult::advance();
    // A callee may reach LDS of its own (gpu.dynamic_shared_memory) with
    // no LDS operand here, and a raw pointer may point into it.
    if (isa<CallOpInterface>(op) ||
        llvm::any_of(op->getOperandTypes(),
                     llvm::IsaPred<LLVM::LLVMPointerType>) ||
        llvm::any_of(op->getResultTypes(),
                     llvm::IsaPred<LLVM::LLVMPointerType>)) {
      found = hazard("R0", op,
                     cannot(*op, "a copy's body calls a function or takes a "
                                 "pointer, which may reach LDS the copy's "
                                 "rows do not name: its bytes are not "
                                 "modelled"));
      return WalkResult::interrupt();
    }
    for (Value operand : op->getOperands()) {
      if (!isWorkgroupMemRef(operand))
        continue;
      found = hazard("R0", op,
                     cannot(*op, "a copy's body touches LDS other than "
                                 "through kda.copy_row: its bytes are not "
                                 "modelled"));
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  if (found)
    return found;
  // gfx950's waits count copy instructions (vmcnt): a group must issue the
  // rows the lowering counts for it (lowering::instructionsPerAsyncGroup),
  // which it can only where each row runs a fixed number of times. A group
  // issuing fewer would let an older group's rows pass a wait.
  if (isa<AsyncCopyOp>(copy) && target && target->waitsCountInstructions()) {
    copy.walk([&](CopyRowOp row) {
      Operation *up = nullptr;
      if (!copyRowTrips(row, &copy, &up)) {
        found = hazard(
            "R0", row,
            cannot(*row, ("it runs under " + up->getName().getStringRef() +
                          " in an async copy, a number of times known only "
                          "at run time, and " +
                          target->name +
                          "'s waits count copy instructions (vmcnt): a group "
                          "issuing fewer rows than counted lets an older "
                          "group's pass the wait (issue rows directly in the "
                          "body or in loops of constant bounds)")
                             .str()));
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    if (found)
      return found;
  }
  copy.walk([&](CopyRowOp row) {
    if (target)
      if (std::optional<std::string> why =
              globalLoadLdsWaveProblem(row, *target)) {
        found = hazard("R0", row, cannot(*row, *why));
        return WalkResult::interrupt();
      }
    // global_load_lds fills whole wave regions, the padding included.
    int64_t extent = row.getRowBytes();
    if (target && row.getAtom() && *row.getAtom() == CopyAtom::GlobalLoadLds)
      extent = llvm::alignTo(extent, target->copyRegionBytes());
    FailureOr<std::pair<int64_t, int64_t>> bytes =
        boundBytes(&copy, t, row, row.getLds(), row.getByte(), extent, found);
    if (failed(bytes))
      return WalkResult::interrupt();
    auto [lo, hi] = *bytes;
    // The sink slot (hasSinkSlot) is where a predicated-off copy's rows land.
    const std::string slotName =
        where(t) + (t.slot == t.buf->slots()
                        ? " (the sink slot, where it lands predicated off)"
                        : "");
    if (lo < t.buf->lo(t.slot) || hi > t.buf->hi(t.slot)) {
      found = hazard(
          "R2", row,
          llvm::formatv("the copy of iteration {0} into {1} has a copy row "
                        "that {2} bytes [{3}, {4}), outside the slot's bytes "
                        "[{5}, {6}): it would overwrite what the schedule "
                        "does not track",
                        t.iter.v, slotName,
                        hi - lo == extent ? "writes" : "may write", lo, hi,
                        t.buf->lo(t.slot), t.buf->hi(t.slot)));
      return WalkResult::interrupt();
    }
    // Inside the slot, but the slot must be inside the array the row
    // writes: past its end are another array's bytes.
    auto type = cast<MemRefType>(row.getLds().getType());
    const int64_t base = *workgroupArrayBase(row.getLds()); // boundBytes
    if (std::optional<int64_t> size = memrefBytes(type);
        size && (lo < base || hi > base + *size)) {
      found = hazard(
          "R2", row,
          llvm::formatv("the copy of iteration {0} into {1} has a copy row "
                        "that {2} bytes [{3}, {4}), past the end of the LDS "
                        "array it writes (bytes [{5}, {6})): the ring does "
                        "not fit its array, and the row would overwrite "
                        "another array's bytes",
                        t.iter.v, slotName,
                        hi - lo == extent ? "writes" : "may write", lo, hi,
                        base, base + *size));
      return WalkResult::interrupt();
    }
    // Counted as written: every byte its trips may write, except for a row
    // under a loop that runs no trip at all (copyRowTrips 0: scf.for 0 to
    // 0), which writes nothing. Rows under a loop to a bound known only at
    // run time (the chunk scan's min(8, rows left)) count whole: the bytes
    // past the rows that run hold an older tile, landed and stable (no
    // race), which such kernels read and do not use (docs/pipelines.md).
    hasRows = true;
    std::optional<int64_t> trips = copyRowTrips(row, &copy);
    if (!trips || *trips >= 1)
      rows.push_back({lo, hi});
    return WalkResult::advance();
  });
  return found;
}

/// A load or store the read checks bound: its memref, its indices and the
/// shape a vector access spans (empty for a scalar one).
struct LdsAccess {
  Value mem;
  ValueRange indices;
  SmallVector<int64_t> span;
};
static std::optional<LdsAccess> ldsAccessOf(Operation *op) {
  auto vectorSpan = [](auto v) {
    return llvm::to_vector(v.getVectorType().getShape());
  };
  return llvm::TypeSwitch<Operation *, std::optional<LdsAccess>>(op)
      .Case<memref::LoadOp, memref::StoreOp>([](auto m) {
        return LdsAccess{m.getMemRef(), m.getIndices(), {}};
      })
      // Atomics: one element.
      .Case<memref::AtomicRMWOp, memref::GenericAtomicRMWOp>([](auto a) {
        return LdsAccess{a.getMemref(), a.getIndices(), {}};
      })
      // Vector accesses, masked ones included: the whole vector (a mask
      // only narrows what the span bounds).
      .Case<vector::LoadOp, vector::StoreOp, vector::MaskedLoadOp,
            vector::MaskedStoreOp>([&](auto v) {
        return LdsAccess{v.getBase(), v.getIndices(), vectorSpan(v)};
      })
      // Transfers along the memref's trailing dimensions (a minor identity
      // map), whatever their in_bounds or mask say; others are not bounded.
      .Case([&](VectorTransferOpInterface x) -> std::optional<LdsAccess> {
        if (!x.getPermutationMap().isMinorIdentity())
          return std::nullopt;
        return LdsAccess{x.getBase(), x.getIndices(), vectorSpan(x)};
      })
      .Default([](Operation *) { return std::nullopt; });
}

static bool isWorkgroupMemRef(Value v) {
  return isWorkgroupMemRefType(v.getType());
}

/// Whether an access ldsAccessOf knows writes (an atomic reads too).
static bool storesLds(Operation *access) {
  return isa<memref::StoreOp, vector::StoreOp, memref::AtomicRMWOp,
             memref::GenericAtomicRMWOp, vector::MaskedStoreOp,
             vector::TransferWriteOp>(access);
}

/// The LDS array a value views (through memref.view, to its source).
static Value arrayOf(Value mem) {
  while (auto view = mem.getDefiningOp<memref::ViewOp>())
    mem = view.getSource();
  return mem;
}

/// Whether LDS array `mem` (placed, of static size) lies wholly outside
/// the ring's bytes [ringLo, ringHi).
static bool besideRing(Value mem, int64_t ringLo, int64_t ringHi) {
  FailureOr<int64_t> base = workgroupArrayBase(mem);
  auto type = cast<MemRefType>(mem.getType());
  if (failed(base) || !type.hasStaticShape())
    return false;
  const int64_t end = *base + memrefBytes(type).value_or(0);
  return end <= ringLo || *base >= ringHi;
}

/// The bytes [base, end) of LDS array `mem` where they are known: placed
/// and of static size, or the kernel's dynamic LDS of its
/// kda.dynamic_lds_bytes.
static std::optional<std::pair<int64_t, int64_t>> arrayBytes(Value mem) {
  FailureOr<int64_t> base = workgroupArrayBase(mem);
  if (failed(base))
    return std::nullopt;
  auto type = cast<MemRefType>(mem.getType());
  if (type.hasStaticShape())
    if (std::optional<int64_t> bytes = memrefBytes(type))
      return std::make_pair(*base, *base + *bytes);
  auto dynamic = mem.getDefiningOp<gpu::DynamicSharedMemoryOp>();
  auto fn = dynamic ? dynamic->getParentOfType<gpu::GPUFuncOp>() : nullptr;
  std::optional<int64_t> size = reservedDynamicLds(fn);
  if (!size)
    return std::nullopt;
  return std::make_pair(*base, *base + *size);
}

const Interpreter::RingExtent *
Interpreter::otherRingUnder(Value mem, Operation *own) const {
  for (const RingExtent &r : rings)
    if (r.op.getOperation() != own && !besideRing(mem, r.lo, r.hi))
      return &r;
  return nullptr;
}

std::optional<PipelineHazard> Interpreter::checkViews(LdsReadOp read,
                                                      const Tile &t) {
  // The ring's bytes: its slots and, where it has one, its sink slot
  // (hasSinkSlot), which a predicated-off copy may be landing in while this
  // body runs: not the array's other bytes, free for a body to use.
  const int64_t ringLo = t.buf->lo(0),
                ringHi = ringExtent(t.buf->op, schedule, target).second;
  // The views the body takes, and the views (wherever taken) through which
  // it loads or stores; an access to the ring's array itself, not through a
  // view of the slot, cannot be bounded here (R0).
  llvm::SetVector<memref::ViewOp> views;
  SmallVector<std::pair<Operation *, memref::ViewOp>> accesses;
  SmallVector<Operation *> beside; // direct accesses of arrays beside it
  std::optional<PipelineHazard> found;
  rangeCache.clear();
  loadedBytes.clear();
  read.walk([&](Operation *op) {
    // A cp_async piece lands at its threads' kda.copy_fence, which the
    // schedule's model (waits and drains order its own copies) does not
    // interpret: wherever it writes, its landing is unordered here.
    if (auto piece = dyn_cast<CopyPieceOp>(op);
        piece && piece.getAtom() == CopyAtom::CpAsync) {
      found = hazard("R0", op,
                     cannot(*op, "a cp_async piece inside a schedule: it "
                                 "lands at a kda.copy_fence the schedule's "
                                 "model does not interpret; issue pieces "
                                 "outside schedules, or copy through the "
                                 "schedule's own copy ops"));
      return WalkResult::interrupt();
    }
    if (isa<WgmmaOp>(op)) {
      found = hazard("R0", op,
                     cannot(*op, "a warpgroup atom inside a schedule: its "
                                 "asynchronous read of B is not part of the "
                                 "schedule's model; issue it outside"));
      return WalkResult::interrupt();
    }
    if (auto view = dyn_cast<memref::ViewOp>(op)) {
      views.insert(view);
      return WalkResult::advance();
    }
    if (std::optional<LdsAccess> a = ldsAccessOf(op)) {
      if (!isWorkgroupMemRef(a->mem))
        return WalkResult::advance();
      if (auto view = a->mem.getDefiningOp<memref::ViewOp>()) {
        views.insert(view);
        accesses.push_back({op, view});
        return WalkResult::advance();
      }
      if (besideRing(a->mem, ringLo, ringHi)) {
        if (const RingExtent *other = otherRingUnder(a->mem, t.buf->op)) {
          found = hazard(
              "R0", op,
              cannot(*op, ("it indexes an LDS array that may hold ring @" +
                           other->op.getSymName() +
                           " directly, outside any read of it: its bytes "
                           "are not bounded")
                              .str()));
          return WalkResult::interrupt();
        }
        beside.push_back(op);
        return WalkResult::advance();
      }
      found = hazard("R0", op,
                     cannot(*op, "it indexes an LDS array that may hold the "
                                 "ring directly, not through a view of the "
                                 "slot: its bytes are not bounded"));
      return WalkResult::interrupt();
    }
    // Any other op that takes LDS (a copy row, a gather, a matrix load):
    // its bytes are not modelled, and an array beside the ring does not
    // bound them (an access past its end lands in the ring).
    for (Value operand : op->getOperands()) {
      if (!isWorkgroupMemRef(operand))
        continue;
      found = hazard("R0", op,
                     cannot(*op, "it takes LDS, and the read's checks bound "
                                 "only loads, stores, atomics, transfers and "
                                 "views: its bytes are not bounded"));
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  if (found)
    return found;
  for (memref::ViewOp view : views) {
    if (!checkView(read, t, view, ringLo, ringHi, found))
      return found;
  }
  for (auto [op, view] : accesses) {
    LdsAccess a = *ldsAccessOf(op);
    ValueRange indices = a.indices;
    ArrayRef<int64_t> span = a.span;
    if (!checkAccess(read, t, op, view, indices, span, ringLo, ringHi, found))
      return found;
  }
  for (Operation *op : beside)
    if (!checkInsideArray(read, t, op, found))
      return found;
  return found;
}

bool Interpreter::checkInsideArray(LdsReadOp read, const Tile &t,
                                   Operation *access,
                                   std::optional<PipelineHazard> &found) {
  LdsAccess a = *ldsAccessOf(access);
  auto type = cast<MemRefType>(a.mem.getType());
  auto unbounded = [&](const char *why) {
    found = hazard("R0", access, cannot(*access, why));
    return false;
  };
  if (!type.hasStaticShape())
    return unbounded("it indexes an LDS array of a shape known only at run "
                     "time beside the ring: its bytes are not bounded");
  const size_t lead =
      a.indices.size() - std::min(a.indices.size(), a.span.size());
  for (auto [d, index] : llvm::enumerate(a.indices)) {
    ConstantIntRanges r = rangeIn(index, read, t);
    const int64_t lo = r.smin().getSExtValue(), hi = r.smax().getSExtValue();
    if (lo < -kFar || hi > kFar)
      return unbounded("the element it indexes in an LDS array beside the "
                       "ring cannot be bounded from the slot, constants, "
                       "thread ids and the body's own loops");
    const int64_t last = hi + (d >= lead ? a.span[d - lead] - 1 : 0);
    const int64_t extent = type.getDimSize(d);
    if (lo >= 0 && last < extent)
      continue;
    found = hazard(
        "R1", access,
        llvm::formatv("the read of iteration {0} from {1} {2} {3} [{4}, {5}] "
                      "of dimension {6} of {7} (0 .. {8}): past its array "
                      "the bytes are another's (the ring's, a tile in "
                      "flight), which the schedule does not see it touch",
                      t.iter.v, where(t),
                      storesLds(access) ? (lo == hi ? "stores" : "may store")
                                        : (lo == hi ? "loads" : "may load"),
                      "elements", lo, last, d, type, extent - 1));
    return false;
  }
  return true;
}

bool Interpreter::checkAccess(LdsReadOp read, const Tile &t, Operation *access,
                              memref::ViewOp view, ValueRange indices,
                              ArrayRef<int64_t> span, int64_t ringLo,
                              int64_t ringHi,
                              std::optional<PipelineHazard> &found) {
  auto type = view.getType();
  if (besideRing(view.getSource(), ringLo, ringHi) &&
      !otherRingUnder(view.getSource(), t.buf->op))
    return checkInsideArray(read, t, access, found);
  auto unbounded = [&](const char *why) {
    found = hazard("R0", access, cannot(*access, why));
    return false;
  };
  int64_t offset;
  SmallVector<int64_t> strides;
  if (!type.hasStaticShape() ||
      failed(type.getStridesAndOffset(strides, offset)) || offset != 0)
    return unbounded("it indexes a view of the ring's bytes whose shape or "
                     "layout is not static");
  const int64_t elem = memrefBytes(type).value_or(0) /
                       std::max<int64_t>(1, type.getNumElements());
  // The element range its indices may reach: each index over its range,
  // a vector's trailing dimensions over its shape.
  int64_t first = 0, last = 0;
  bool exact = true; // every index one value
  const size_t lead = indices.size() - std::min(indices.size(), span.size());
  for (auto [d, index] : llvm::enumerate(indices)) {
    ConstantIntRanges r = rangeIn(index, read, t);
    const int64_t lo = r.smin().getSExtValue(), hi = r.smax().getSExtValue();
    if (lo < -kFar || hi > kFar)
      return unbounded("the LDS element it indexes through a view of the "
                       "ring cannot be bounded from the slot, constants and "
                       "the body's own loops");
    const int64_t extra = d >= lead ? span[d - lead] - 1 : 0;
    exact &= lo == hi;
    first += lo * strides[d];
    last += (hi + extra) * strides[d];
  }
  FailureOr<std::pair<int64_t, int64_t>> shift = boundBytes(
      read, t, view, view.getSource(), view.getByteShift(), 0, found);
  if (failed(shift))
    return false;
  const int64_t lo = shift->first + first * elem,
                hi = shift->second + (last + 1) * elem;
  const bool store = storesLds(access);
  exact &= shift->first == shift->second;
  // Another ring's bytes: its tiles are in flight or read elsewhere, and
  // this access is none of the events the model orders against them.
  for (const RingExtent &r : rings) {
    if (r.op.getOperation() == t.buf->op.getOperation() || hi <= r.lo ||
        lo >= r.hi)
      continue;
    found = hazard(
        "R2", access,
        llvm::formatv("the read of iteration {0} from {1} {2} bytes [{3}, "
                      "{4}) of ring @{5} ([{6}, {7})), outside any read or "
                      "copy of it: an access the schedule does not order",
                      t.iter.v, where(t),
                      store ? (exact ? "stores" : "may store")
                            : (exact ? "loads" : "may load"),
                      lo, hi, r.op.getSymName(), r.lo, r.hi));
    return false;
  }
  if (hi <= ringLo || lo >= ringHi) {
    // The array's other bytes, inside it (past it, another array's).
    std::optional<std::pair<int64_t, int64_t>> array =
        arrayBytes(view.getSource());
    if (!array || (lo >= array->first && hi <= array->second))
      return true;
    found = hazard(
        "R1", access,
        llvm::formatv("the read of iteration {0} from {1} {2} bytes [{3}, "
                      "{4}) through a view of the ring's array, which holds "
                      "bytes [{5}, {6}): past it the bytes are another "
                      "array's, which the schedule does not see it touch",
                      t.iter.v, where(t),
                      store ? (exact ? "stores" : "may store")
                            : (exact ? "loads" : "may load"),
                      lo, hi, array->first, array->second));
    return false;
  }
  if (store) {
    // A read shares its slot with every other thread's read of it: a store
    // there races them, and the model counts the read as reading only.
    found = hazard(
        "R1", access,
        llvm::formatv("the read of iteration {0} from {1} {2} bytes [{3}, "
                      "{4}) of the ring (the slot is [{5}, {6})): a read may "
                      "not write the ring, whose tiles the other threads "
                      "read and the copies refill",
                      t.iter.v, where(t), exact ? "stores" : "may store", lo,
                      hi, t.buf->lo(t.slot), t.buf->hi(t.slot)));
    return false;
  }
  if (lo >= t.buf->lo(t.slot) && hi <= t.buf->hi(t.slot)) {
    loadedBytes.push_back({lo, hi});
    return true;
  }
  found = hazard(
      "R1", access,
      llvm::formatv("the read of iteration {0} from {1} {2} bytes [{3}, {4}) "
                    "through a view of the ring, outside the slot's bytes "
                    "[{5}, {6}): the wrong tile",
                    t.iter.v, where(t),
                    storesLds(access) ? (exact ? "stores" : "may store")
                                      : (exact ? "loads" : "may load"),
                    lo, hi, t.buf->lo(t.slot), t.buf->hi(t.slot)));
  return false;
}

bool Interpreter::checkView(LdsReadOp read, const Tile &t, memref::ViewOp view,
                            int64_t ringLo, int64_t ringHi,
                            std::optional<PipelineHazard> &found) {
  auto type = view.getType();
  std::optional<int64_t> extent = memrefBytes(type);
  if (!gpu::GPUDialect::hasWorkgroupMemoryAddressSpace(type))
    return true;
  // Views of an array that lies wholly beside the ring (the body's other
  // LDS arrays) only have to stay inside it.
  if (besideRing(view.getSource(), ringLo, ringHi))
    return viewInsideSource(read, t, view, extent, found);
  FailureOr<std::pair<int64_t, int64_t>> bytes =
      viewBytes(read, t, view, extent, "the ring's bytes", found);
  if (failed(bytes))
    return false;
  auto [lo, hi] = *bytes;
  if (hi <= ringLo || lo >= ringHi) // the array's other bytes, inside it
    return viewInsideSource(read, t, view, extent, found);
  if (lo >= t.buf->lo(t.slot) && hi <= t.buf->hi(t.slot))
    return true;
  found =
      hazard("R1", view,
             llvm::formatv("the read of iteration {0} from {1} views bytes "
                           "[{2}, {3}), outside the slot's bytes [{4}, {5}): "
                           "the wrong tile",
                           t.iter.v, where(t), lo, hi, t.buf->lo(t.slot),
                           t.buf->hi(t.slot)));
  return false;
}

FailureOr<std::pair<int64_t, int64_t>>
Interpreter::viewBytes(LdsReadOp read, const Tile &t, memref::ViewOp view,
                       std::optional<int64_t> extent, StringRef of,
                       std::optional<PipelineHazard> &found) {
  if (!extent) {
    found = hazard(
        "R0", view,
        cannot(
            *view,
            ("a view of " + of + " of a size known only at run time").str()));
    return failure();
  }
  return boundBytes(read, t, view, view.getSource(), view.getByteShift(),
                    *extent, found);
}

bool Interpreter::viewInsideSource(LdsReadOp read, const Tile &t,
                                   memref::ViewOp view,
                                   std::optional<int64_t> extent,
                                   std::optional<PipelineHazard> &found) {
  FailureOr<std::pair<int64_t, int64_t>> bytes =
      viewBytes(read, t, view, extent, "an LDS array", found);
  if (failed(bytes))
    return false;
  // A source of unknown size (dynamic LDS no size is declared for) bounds
  // nothing here; besideRing placed the others.
  std::optional<std::pair<int64_t, int64_t>> array =
      arrayBytes(view.getSource());
  if (!array)
    return true;
  auto [base, end] = *array;
  if (bytes->first >= base && bytes->second <= end)
    return true;
  found =
      hazard("R1", view,
             llvm::formatv(
                 "the read of iteration {0} from {1} views bytes [{2}, "
                 "{3}) of an LDS array at bytes [{4}, {5}): past it the "
                 "bytes are another array's (a ring's tile in flight, an "
                 "array the body indexes directly), which the schedule "
                 "does not see it touch",
                 t.iter.v, where(t), bytes->first, bytes->second, base, end));
  return false;
}

// wait(n): in each thread class, all but the last n of its own groups land.
std::optional<PipelineHazard> Interpreter::wait(AsyncWaitOp op) {
  const size_t keep = size_t(op.getCount());
  for (unsigned c = 0; c < kClasses; ++c) {
    std::deque<Group> &q = st.outstanding[c];
    while (q.size() > keep) {
      const Group g = q.front();
      q.pop_front();
      if (g.empty)
        continue;
      // Only the bytes this group's copy wrote land: another copy's rows
      // in the same slot (or beside them in its array) may still be in
      // flight in a later group.
      for (Segment &s : st.segs)
        if (s.lo < g.hi && g.lo < s.hi && s.w.async && s.w.tile.same(g.tile))
          s.w.pending &= uint8_t(~(1u << c));
    }
  }
  for (Segment &s : st.segs)
    if (s.w.pending) {
      s.w.waited = true;
      s.w.lastWait = op.getCount();
    }
  return std::nullopt;
}

void Interpreter::drain() {
  for (Reader &r : st.readers)
    r.drained = true;
  for (Segment &s : st.segs)
    s.w.undrained = false;
}

// Completed writes become visible to every thread; drained reads retire; the
// others now only have a bare barrier behind them.
void Interpreter::barrier() {
  for (Segment &s : st.segs)
    if (!s.w.pending && !s.w.undrained)
      s.w.visible = true;
  llvm::erase_if(st.readers, [](const Reader &r) { return r.drained; });
  for (Reader &r : st.readers)
    r.bare = true;
}

static const char *classText(uint8_t pending) {
  return pending == kAllThreads  ? ""
         : pending == kFirstWave ? " in the first wave"
                                 : " in the waves other than the first";
}

// R1 (the tile is complete and visible) for bytes [lo, hi) of the slot `op`
// reads, and that they hold the tile the read names: the last write in
// program order to every byte, whatever its kind, is the copy of this
// buffer, slot and iteration.
std::optional<PipelineHazard>
Interpreter::checkHeld(LdsReadOp op, const Tile &t, int64_t lo, int64_t hi) {
  int64_t covered = lo;
  for (const Segment &s : st.segs) {
    if (!(s.lo < hi && lo < s.hi))
      continue;
    if (s.lo > covered)
      break;
    covered = std::max(covered, s.hi);
  }
  if (covered < hi)
    return hazard("R1", op,
                  llvm::formatv("iteration {0} reads {1}, whose bytes [{2}, "
                                "{3}) no copy has written",
                                t.iter.v, where(t), covered, hi));
  for (const Segment &s : st.segs) {
    if (!(s.lo < hi && lo < s.hi))
      continue;
    const Write &w = s.w;
    noteCompare(w.tile.iter, t.iter);
    if (!w.tile.same(t)) {
      if (w.tile.buf != t.buf)
        return hazard(
            "R2", op,
            llvm::formatv("iteration {0} reads {1}, but @{2}'s copy of "
                          "iteration {3} into {4} has overwritten bytes [{5}, "
                          "{6}) of it: @{7} and @{2} share bytes while both "
                          "are live",
                          t.iter.v, where(t), w.tile.buf->name(),
                          w.tile.iter.v, where(w.tile), std::max(lo, s.lo),
                          std::min(hi, s.hi), t.buf->name()));
      if (w.tile.slot == t.slot && w.tile.iter.v > t.iter.v)
        return hazard("R2", op,
                      llvm::formatv("iteration {0} reads {1}, but the copy of "
                                    "iteration {2} has already replaced its "
                                    "tile",
                                    t.iter.v, where(t), w.tile.iter.v));
      return hazard("R1", op,
                    llvm::formatv("iteration {0} reads {1}, which holds "
                                  "iteration {2}'s tile: no copy of "
                                  "iteration {0} into that slot precedes the "
                                  "read",
                                  t.iter.v, where(t), w.tile.iter.v));
    }
    if (w.pending && w.waited)
      return hazard("R5", op,
                    llvm::formatv("iteration {0} reads {1}, but the last wait "
                                  "(count {2}) leaves its copy outstanding{3}: "
                                  "the count is too high",
                                  t.iter.v, where(t), w.lastWait,
                                  classText(w.pending)));
    if (w.pending)
      return hazard("R1", op,
                    llvm::formatv("iteration {0} reads {1} before any wait "
                                  "covers its async copy",
                                  t.iter.v, where(t)));
    if (!w.visible && w.async)
      return hazard("R1", op,
                    llvm::formatv("iteration {0} reads {1} after the wait "
                                  "but with no barrier since: other threads' "
                                  "parts of the copy may not have landed",
                                  t.iter.v, where(t)));
    if (!w.visible && w.undrained)
      return hazard("R1", op,
                    llvm::formatv("iteration {0} reads {1} with no drained "
                                  "barrier after its register-staged store: "
                                  "on {2} a bare barrier does not wait for "
                                  "the store (s_waitcnt lgkmcnt(0))",
                                  t.iter.v, where(t), schedule.getTarget()));
    if (!w.visible)
      return hazard("R1", op,
                    llvm::formatv("iteration {0} reads {1} with no barrier "
                                  "after its register-staged store",
                                  t.iter.v, where(t)));
  }
  return std::nullopt;
}

std::optional<PipelineHazard> Interpreter::read(LdsReadOp op) {
  FailureOr<const Buffer *> b = buffer(op, op.getBufferAttr());
  if (failed(b))
    return hazard("R0", op,
                  cannot(*op.getOperation(),
                         ("unknown LDS buffer " + op.getBuffer()).str()));
  Tile t{*b};
  Val slot;
  if (auto h = evalOr(*op.getOperation(), op.getSlot(), slot))
    return h;
  if (auto h = evalOr(*op.getOperation(), op.getIter(), t.iter))
    return h;
  t.slot = slot.v;
  consumed.insert({t.buf->op.getOperation(), t.iter.v, t.slot});
  if (!checking())
    return std::nullopt;
  if (t.slot < 0 || t.slot >= t.buf->slots())
    return hazard("R2", op,
                  llvm::formatv("slot {0} of @{1} does not exist: the ring "
                                "has {2} slots, fewer than the schedule uses",
                                t.slot, t.buf->name(), t.buf->slots()));
  if (auto h = checkViews(op, t))
    return h;
  const int64_t lo = t.buf->lo(t.slot), hi = t.buf->hi(t.slot);
  // A body's loads say which bytes of the slot it takes; a read without
  // them (abstract, or through ops that bound no bytes) takes all of them.
  SmallVector<std::pair<int64_t, int64_t>> taken(loadedBytes);
  if (taken.empty())
    taken.push_back({lo, hi});
  for (auto [from, to] : taken)
    if (auto h = checkHeld(op, t, from, to))
      return h;
  st.readers.push_back(Reader{lo, hi, t});
  return std::nullopt;
}

// R3: the schedule hands LDS back quiescent (nothing in flight, every read
// behind a drained barrier); R4: every copy it issued is read by some
// iteration (a copy of a tile no iteration consumes is a copy beyond the trip
// count, whatever its kind, with or without a trip_count attribute).
std::optional<PipelineHazard> Interpreter::finish() {
  // On a target whose waits count instructions, a predicated-off copy still
  // issues its loads, into the ring's sink slot (hasSinkSlot): left
  // outstanding, they land after the loop, on bytes what follows may use.
  if (target && target->waitsCountInstructions())
    for (unsigned c = 0; c < kClasses; ++c)
      for (const Group &g : st.outstanding[c])
        if (g.empty)
          return hazard(
              "R3", schedule,
              llvm::formatv("the predicated-off copy of iteration {0} into "
                            "{1} is still outstanding{2} when the loop ends: "
                            "on {3} it issues its loads all the same, into "
                            "the sink slot past the ring's last, where they "
                            "land after the loop (wait for every group "
                            "before the loop ends)",
                            g.tile.iter.v, where(g.tile), classText(1u << c),
                            target->name));
  for (const Segment &s : st.segs)
    if (s.w.pending)
      return hazard(
          "R3", schedule,
          llvm::formatv("the copy of iteration {0} into {1} is still "
                        "outstanding{2} when the loop ends{3}",
                        s.w.tile.iter.v, where(s.w.tile),
                        classText(s.w.pending),
                        trip && s.w.tile.iter.v >= *trip
                            ? " (a prologue copy beyond the trip count)"
                            : ""));
  for (const Reader &r : st.readers)
    return hazard("R3", schedule,
                  llvm::formatv("iteration {0}'s read of {1} is not behind a "
                                "drained barrier when the loop ends",
                                r.tile.iter.v, where(r.tile)));
  // The schedule hands LDS on quiescent: what follows it (another schedule,
  // the kernel's own stores) may write these bytes, and a write no barrier
  // has ordered yet races that.
  for (const Segment &s : st.segs)
    if (!s.w.visible)
      return hazard(
          "R3", schedule,
          llvm::formatv("the {0} copy of iteration {1} into {2} is not behind "
                        "a barrier when the schedule ends: a later write of "
                        "bytes [{3}, {4}) would race it",
                        s.w.async ? "async" : "register-staged",
                        s.w.tile.iter.v, where(s.w.tile), s.lo, s.hi));
  for (const IssuedCopy &c : issued)
    if (!isConsumed(c.tile))
      return hazard(
          "R4", schedule,
          llvm::formatv("the {0} copy of iteration {1} into {2} is never "
                        "read: no iteration consumes that tile, so the copy "
                        "lies beyond the trip count and must be predicated "
                        "off",
                        c.async ? "async" : "register-staged", c.tile.iter.v,
                        where(c.tile)));
  return std::nullopt;
}

std::optional<PipelineHazard> Interpreter::run() {
  rings.clear();
  llvm::SmallPtrSet<Operation *, 4> named;
  schedule.walk([&](Operation *op) {
    auto sym = op->getAttrOfType<FlatSymbolRefAttr>("buffer");
    auto b = sym ? SymbolTable::lookupNearestSymbolFrom<LdsBufferOp>(op, sym)
                 : LdsBufferOp();
    if (b && named.insert(b).second) {
      auto [lo, hi] = ringExtent(b, schedule, target);
      rings.push_back({b, lo, hi});
    }
  });
  if (Value t = schedule.getDynamicTripCount())
    env[t] = Val{trip.value_or(0), Anchor::Trip};
  if (auto h = walk(schedule.getBody().front()))
    return h;
  if (!consumedIn)
    return std::nullopt;
  return finish();
}

//===----------------------------------------------------------------------===//
// The dynamic proof's state comparison
//===----------------------------------------------------------------------===//

// After the loop to T, its counter is gone: iterations it named are, from
// here on, distances from T (the tail of the loop is the same, relative to T,
// for every trip count of one residue).
void Interpreter::reanchorAfterLoop() {
  auto fix = [](Val &v) {
    if (v.a == Anchor::Counter)
      v.a = Anchor::Trip;
  };
  for (Segment &s : st.segs)
    fix(s.w.tile.iter);
  for (std::deque<Group> &q : st.outstanding)
    for (Group &g : q)
      fix(g.tile.iter);
  for (Reader &r : st.readers)
    fix(r.tile.iter);
}

// In a proof run, at the head of iteration i of the loop to T: the state with
// every iteration written as (anchor, offset from the anchor) - the state the
// next iterations see, relative to i. When it equals the one a period earlier
// and both lie in the middle zone, the loop is periodic (proveDynamic).
void Interpreter::snapshot(int64_t i) {
  if (!proofPeriod || seen.periodic || !consumedIn)
    return;
  const int64_t T = trip.value_or(0);
  auto middle = [&](int64_t k) {
    return k >= proofHorizon && T - k > proofHorizon;
  };
  if (!middle(i))
    return;
  std::vector<int64_t> s;
  auto tile = [&](const Tile &t) {
    s.push_back(t.buf->ordinal);
    s.push_back(t.slot);
    s.push_back(int64_t(t.iter.a));
    s.push_back(offset(t.iter));
  };
  for (const Segment &g : st.segs) {
    s.insert(s.end(), {g.lo, g.hi, g.w.async, g.w.pending, g.w.waited,
                       g.w.lastWait, g.w.visible, g.w.undrained});
    tile(g.w.tile);
  }
  for (const std::deque<Group> &q : st.outstanding) {
    s.push_back(-1);
    for (const Group &g : q) {
      s.insert(s.end(), {g.lo, g.hi, g.empty});
      tile(g.tile);
    }
  }
  s.push_back(-2);
  for (const Reader &r : st.readers) {
    s.insert(s.end(), {r.lo, r.hi, r.drained, r.bare});
    tile(r.tile);
  }
  auto earlier = snapshots.find(i - proofPeriod);
  if (earlier != snapshots.end() && earlier->second == s)
    seen.periodic = true;
  snapshots[i] = std::move(s);
  snapshots.erase(snapshots.begin(), snapshots.lower_bound(i - proofPeriod));
}

//===----------------------------------------------------------------------===//
// Driver
//===----------------------------------------------------------------------===//

/// One trip count: a first run collects the tiles the reads name, the second
/// checks every rule.
std::optional<PipelineHazard> runOnce(ScheduleOp s, std::optional<int64_t> trip,
                                      Observed *seen = nullptr,
                                      int64_t horizon = 0, int64_t period = 0) {
  Interpreter collect(s, trip, nullptr);
  if (auto h = collect.run())
    return h;
  Interpreter check(s, trip, &collect.consumed);
  if (period)
    check.proveWith(horizon, period);
  std::optional<PipelineHazard> h = check.run();
  if (seen)
    *seen = check.seen;
  return h;
}

// Dynamic trip counts: a proof for every T >= 0, or R0.
//
// Every value the schedule computes is either fixed or moves with T or with
// the counter i of the one loop that runs to T (`Anchor`); sums keep the
// anchor, differences of one anchor are fixed, and everything else that would
// mix moving values is rejected (R0). So each decision (a comparison, min,
// max, select) compares i or T against a fixed distance, and each residue
// (rem, mask, ring_slot) of a moving value repeats with a period. Let H bound
// every such distance (`horizon`) and P be the lcm of the moduli (`period`).
// In a run with trip count T, iteration i of the loop is in the middle zone
// when i >= H and T - i > H: there every decision is settled, so the body
// behaves as a function of i mod P and of the abstract state alone, where
// iterations are kept relative to their anchor (the state is the same for i
// and i + P when it repeats). Before the loop, after it, and in the loop's
// first and last H iterations, the behaviour depends only on T mod P and on
// distances below H, i.e. is the same for T and T + P once T > 2H + P.
// Hence: if the run for T is safe and its state repeats across one period in
// the middle zone, the run for T + P is the run for T with one more period
// inserted there - the same checks on the same states - so it is safe and
// repeats too; by induction every T' = T + kP is safe. Proof runs at
// T0 .. T0 + P - 1 (every residue) with T0 past the zones, and every T below
// T0 run exhaustively, cover all trip counts. H and P are the values the runs
// observe; if a proof run observes larger ones, the bound grows and the runs
// are repeated, so the runs that conclude were made with the H and P they
// needed. A state that does not repeat (it grows with i) is R0.
std::optional<PipelineHazard> proveDynamic(ScheduleOp s, PipelineProof *proof) {
  Observed want;
  int64_t checked = 0; // every T below this ran
  for (int attempt = 0; attempt < 8; ++attempt) {
    const int64_t H = want.horizon, P = want.period;
    const int64_t start = std::max<int64_t>(want.loopLb, H);
    int64_t T0 = start + H + 4 * P + 8 +
                 std::max<int64_t>(0, -want.loopUbOffset);
    T0 = (T0 + P - 1) / P * P;
    if (T0 > 20000)
      break;
    for (int64_t t = checked; t < T0; ++t)
      if (auto h = runOnce(s, t))
        return h;
    checked = T0;
    bool grew = false;
    for (int64_t r = 0; r < P && !grew; ++r) {
      Observed seen;
      if (auto h = runOnce(s, T0 + r, &seen, H, P))
        return h;
      grew = seen.horizon > H || P % seen.period != 0 ||
             seen.loopLb != want.loopLb ||
             seen.loopUbOffset != want.loopUbOffset;
      if (grew) {
        want.horizon = std::max(H, seen.horizon);
        want.period = std::lcm(P, seen.period);
        want.loopLb = seen.loopLb;
        want.loopUbOffset = seen.loopUbOffset;
        break;
      }
      if (seen.tripLoop && !seen.periodic)
        return PipelineHazard{
            "R0",
            llvm::formatv(
                "R0: cannot analyse the loop to the dynamic trip count: its "
                "abstract state does not repeat with period {0} at trip count "
                "{1}, so no bounded prefix covers every trip count (pipeline "
                "'{2}' at depth {3})",
                P, T0 + r, s.getName(), s.getDepth())
                .str(),
            s};
    }
    if (!grew) {
      if (proof)
        *proof = PipelineProof{true, T0, P, H};
      return std::nullopt;
    }
  }
  return PipelineHazard{
      "R0",
      llvm::formatv("R0: cannot analyse the dynamic trip count: the distances "
                    "and periods its decisions depend on do not settle below "
                    "a provable bound (pipeline '{0}' at depth {1})",
                    s.getName(), s.getDepth())
          .str(),
      s};
}

//===----------------------------------------------------------------------===//
// R6: every workgroup allocation of the kernel
//===----------------------------------------------------------------------===//

bool isWorkgroup(MemRefType t) {
  auto space = dyn_cast_or_null<gpu::AddressSpaceAttr>(t.getMemorySpace());
  return space && space.getValue() == gpu::AddressSpace::Workgroup;
}

/// The [shift, shift + bytes) of the one view of a gpu.dynamic_shared_memory,
/// at a constant byte offset and of static size, that every copy row of
/// `ring`'s copies in `kernel` writes into; nullopt when there is no such
/// view (a copy without rows, rows into other memory, or several views).
std::optional<std::pair<int64_t, int64_t>>
dynamicLdsBacking(Operation *kernel, LdsBufferOp ring) {
  std::optional<std::pair<int64_t, int64_t>> backing;
  bool ok = true, anyCopy = false;
  kernel->walk([&](Operation *op) {
    if (!isa<AsyncCopyOp, StagedCopyOp>(op) ||
        op->getAttrOfType<FlatSymbolRefAttr>("buffer").getValue() !=
            ring.getSymName())
      return;
    anyCopy = true;
    bool rows = false;
    op->walk([&](CopyRowOp row) {
      rows = true;
      auto view = row.getLds().getDefiningOp<memref::ViewOp>();
      std::optional<int64_t> bytes =
          view ? memrefBytes(view.getType()) : std::nullopt;
      auto shift =
          view ? getConstantIntValue(view.getByteShift()) : std::nullopt;
      if (!bytes || !shift ||
          !view.getSource().getDefiningOp<gpu::DynamicSharedMemoryOp>()) {
        ok = false;
        return;
      }
      std::pair<int64_t, int64_t> range{*shift, *shift + *bytes};
      if (backing && *backing != range)
        ok = false;
      backing = range;
    });
    ok &= rows;
  });
  if (!ok || !anyCopy)
    return std::nullopt;
  return backing;
}

std::optional<PipelineHazard> checkCapacity(ScheduleOp schedule) {
  const TargetInfo *t = lookupTarget(schedule.getTarget());
  auto r0 = [&](const std::string &why) {
    return PipelineHazard{
        "R0",
        llvm::formatv("R0: {0} (pipeline '{1}' at depth {2})", why,
                      schedule.getName(), schedule.getDepth())
            .str(),
        schedule};
  };
  if (!t)
    return PipelineHazard{"R0",
                          ("R0: unknown target '" + schedule.getTarget() + "'")
                              .str(),
                          schedule};
  // The kernel: the function around the schedule (a gpu.func's attributions
  // and allocations are its LDS too), else the schedule alone.
  Operation *kernel = schedule->getParentOfType<FunctionOpInterface>();
  if (!kernel)
    kernel = schedule;
  llvm::SetVector<Operation *> seen;
  int64_t ringEnd = 0, scratch = 0, staticScratch = 0;
  std::string rings, others;
  std::optional<std::string> unknown;
  auto addScratch = [&](int64_t bytes, const std::string &what,
                        bool isStatic = true) {
    scratch += (bytes + 15) / 16 * 16; // laid out 16-byte aligned
    if (isStatic)
      staticScratch += (bytes + 15) / 16 * 16;
    others += llvm::formatv(", {0} of {1} bytes", what, bytes).str();
  };
  if (auto fn = dyn_cast<gpu::GPUFuncOp>(kernel))
    for (auto [k, a] : llvm::enumerate(fn.getWorkgroupAttributions())) {
      std::optional<int64_t> bytes = memrefBytes(cast<MemRefType>(a.getType()));
      if (!bytes)
        unknown = "workgroup attribution " + std::to_string(k);
      else
        addScratch(*bytes, "workgroup attribution " + std::to_string(k));
    }
  kernel->walk([&](Operation *op) {
    if (auto sym = op->getAttrOfType<FlatSymbolRefAttr>("buffer")) {
      auto b = SymbolTable::lookupNearestSymbolFrom<LdsBufferOp>(op, sym);
      if (b && seen.insert(b)) {
        // gfx950's predicated-off async copies land in a sink slot past
        // the ring's last (hasSinkSlot): it takes those bytes too.
        const int64_t end = ringExtent(b, kernel, t).second;
        // A ring whose copies write into a view of the dynamic shared
        // memory that holds all its slots at its offset is counted once,
        // as that view (below); a ring reaching past its view, or of any
        // other placement, is counted on its own (never less than it
        // takes).
        std::optional<std::pair<int64_t, int64_t>> backing =
            dynamicLdsBacking(kernel, b);
        const bool inView = backing && b.getOffset() == backing->first &&
                            end <= backing->second;
        // Rings may share bytes (their live ranges are checked apart): the
        // extent of their placement is what they take.
        if (!inView)
          ringEnd = std::max<int64_t>(ringEnd, end);
        rings += llvm::formatv("{0}@{1} {2} x {3}{4}",
                               rings.empty() ? "" : ", ", b.getSymName(),
                               b.getSlots(), b.getSlotBytes(),
                               inView ? " in the dynamic shared memory" : "")
                     .str();
      }
    }
    auto alloc = [&](Value v, StringRef what) {
      auto type = cast<MemRefType>(v.getType());
      if (!isWorkgroup(type))
        return;
      if (std::optional<int64_t> bytes = memrefBytes(type))
        addScratch(*bytes, what.str());
      else
        unknown = what.str();
    };
    if (auto a = dyn_cast<memref::AllocOp>(op))
      alloc(a.getResult(), "memref.alloc");
    else if (auto a = dyn_cast<memref::AllocaOp>(op))
      alloc(a.getResult(), "memref.alloca");
    else if (auto g = dyn_cast<memref::GetGlobalOp>(op))
      alloc(g.getResult(), ("memref.global @" + g.getName()).str());
    else if (auto d = dyn_cast<gpu::DynamicSharedMemoryOp>(op)) {
      // Sized by its views when every use is a view at a constant offset,
      // and never below the kernel's kda.dynamic_lds_bytes: what a launch
      // reserves (kda-compile refuses a kernel whose views pass it).
      int64_t end = reservedDynamicLds(kernel).value_or(0);
      for (Operation *user : d->getUsers()) {
        auto view = dyn_cast<memref::ViewOp>(user);
        std::optional<int64_t> bytes =
            view ? memrefBytes(view.getType()) : std::nullopt;
        auto shift = view ? getConstantIntValue(view.getByteShift())
                          : std::nullopt;
        if (!bytes || !shift) {
          unknown = "gpu.dynamic_shared_memory";
          return;
        }
        end = std::max(end, *shift + *bytes);
      }
      addScratch(end, "gpu.dynamic_shared_memory", /*isStatic=*/false);
    }
  });
  if (unknown)
    return r0("cannot analyse the LDS of the kernel: " + *unknown +
              " has no static size (or one past 2^63 bytes)");
  // A ring's sink slot (hasSinkSlot) is written by every predicated-off copy
  // at any time: no other ring of the kernel may hold those bytes.
  for (Operation *x : seen) {
    auto a = cast<LdsBufferOp>(x);
    if (!hasSinkSlot(a, kernel, t))
      continue;
    const int64_t hi = ringExtent(a, kernel, t).second,
                  lo = hi - a.getSlotBytesAttr().getInt();
    for (Operation *y : seen) {
      auto b = cast<LdsBufferOp>(y);
      // b's own slots (two sinks may share bytes: both only ever hold
      // what predicated-off copies threw away).
      const int64_t blo = b.getOffsetAttr().getInt(),
                    bhi = blo + b.getSlotsAttr().getInt() *
                                    b.getSlotBytesAttr().getInt();
      if (x == y || bhi <= lo || blo >= hi)
        continue;
      return PipelineHazard{
          "R2",
          llvm::formatv("R2: @{0} shares bytes [{1}, {2}) with the sink slot "
                        "of @{3} (slot {4}, past its last), where {5}'s "
                        "predicated-off async copies land at any time "
                        "(pipeline '{6}' at depth {7})",
                        b.getSymName(), std::max(lo, blo), std::min(hi, bhi),
                        a.getSymName(), a.getSlots(), t->name,
                        schedule.getName(), schedule.getDepth())
              .str(),
          schedule};
    }
  }
  // Attributions, allocations and globals are static shared memory, which
  // some targets cap below their LDS (sm_90: 48 KiB; more only as dynamic
  // shared memory with the opt-in).
  if (staticScratch > int64_t(t->staticLdsBytes))
    return PipelineHazard{
        "R6",
        llvm::formatv("R6: the kernel declares {0} bytes of static LDS ({1}) "
                      "but {2} allows {3} static (more only as dynamic shared "
                      "memory) (pipeline '{4}' at depth {5})",
                      staticScratch, others.substr(2), t->name,
                      t->staticLdsBytes, schedule.getName(),
                      schedule.getDepth())
            .str(),
        schedule};
  const int64_t total = ringEnd + scratch;
  if (total > int64_t(t->ldsBytes))
    return PipelineHazard{
        "R6",
        llvm::formatv("R6: {0} {1} bytes of LDS ({2}{3}) but {4} has {5} "
                      "(pipeline '{6}' at depth {7})",
                      others.empty() ? "the ring buffers need"
                                     : "the kernel needs",
                      total, rings,
                      rings.empty() ? others.substr(2) : others,
                      t->name, t->ldsBytes, schedule.getName(),
                      schedule.getDepth())
            .str(),
        schedule};
  return std::nullopt;
}

} // namespace

/// What the interpreter takes for granted about the code around and inside
/// a schedule, checked before it runs; each is R0 where it does not hold:
/// - the schedule is run by every thread of its kernel, whose LDS it sees:
///   not in a function the kernel calls (where neither the entry check nor
///   R6 sees the call's context);
/// - the kernel's LDS is its workgroup memrefs, placed by
///   workgroupArrayBase: no LDS reached by pointers, in integer address
///   space 3 or cast out of the workgroup address space, no thread that
///   may leave early, and not static attributions beside dynamic
///   LDS (the chips place dynamic LDS after them, the model at 0; the
///   emulator refuses such kernels too);
/// - a copy's rows are issued by every thread whenever its copy is (its
///   predicate says when): no row under a branch, or in a loop whose
///   bounds may differ between threads;
/// - every thread reaches the barriers of its copy and read bodies: none
///   under a branch or in a loop that may differ between threads.
static std::optional<PipelineHazard> checkScope(ScheduleOp schedule) {
  auto r0 = [&](Operation *at, const Twine &why) {
    return PipelineHazard{
        "R0",
        llvm::formatv("R0: cannot analyse {0}: {1} (pipeline '{2}' at depth "
                      "{3})",
                      at->getName().getStringRef(), why.str(),
                      schedule.getName(), schedule.getDepth())
            .str(),
        at};
  };
  auto fn = schedule->getParentOfType<FunctionOpInterface>();
  if (fn && !isa<gpu::GPUFuncOp>(fn)) {
    Operation *top = fn;
    while (top->getParentOp())
      top = top->getParentOp();
    if (!SymbolTable::symbolKnownUseEmpty(fn, top))
      return r0(schedule, "the schedule is in function @" + fn.getName() +
                              ", which is called: its entry and its LDS are "
                              "verified in the kernel that runs it, so a "
                              "schedule must be in that kernel itself");
  }
  Operation *scope = fn ? fn.getOperation() : schedule.getOperation();
  auto kernel = dyn_cast_or_null<gpu::GPUFuncOp>(fn.getOperation());
  std::optional<PipelineHazard> found;
  const bool attributions = kernel && kernel.getNumWorkgroupAttributions() > 0;
  scope->walk([&](Operation *op) {
    if (attributions && isa<gpu::DynamicSharedMemoryOp>(op)) {
      found = r0(op, "the kernel takes dynamic LDS beside static workgroup "
                     "attributions, which the chips place before it and the "
                     "model at the same byte 0; use one kind");
      return WalkResult::interrupt();
    }
    if (auto cast = dyn_cast<memref::MemorySpaceCastOp>(op);
        cast && isWorkgroupMemRef(cast.getSource())) {
      found = r0(op, "it casts LDS out of the workgroup address space, "
                     "where its accesses are not tracked");
      return WalkResult::interrupt();
    }
    if (std::optional<std::string> why = outsideLdsModel(op)) {
      found = r0(op, *why);
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  if (found)
    return found;
  std::optional<ThreadUniformity> uniformity;
  if (fn) {
    uniformity.emplace(fn);
    // A body's (iteration, slot) are the schedule's, alike for all threads.
    schedule.walk([&](Operation *body) {
      if (isa<AsyncCopyOp, StagedCopyOp, LdsReadOp>(body))
        for (Region &r : body->getRegions())
          for (Block &blk : r)
            for (BlockArgument a : blk.getArguments())
              uniformity->assumeUniform(a);
    });
  }
  auto uniform = [&](ValueRange vs) {
    return uniformity &&
           llvm::all_of(vs, [&](Value v) { return uniformity->uniform(v); });
  };
  // The trip count decides how often every thread reaches the schedule's
  // waits and barriers: one that differs between threads diverges them.
  if (Value trip = schedule.getDynamicTripCount(); trip && !uniform(trip))
    return r0(schedule, "its dynamic trip count is not shown the same for "
                        "every thread (constants, block ids, kernel "
                        "arguments and loads of unwritten ones): threads "
                        "would run different iterations past each other's "
                        "barriers");
  // The proof covers every trip count T >= 0; the lowerings make a negative
  // one 0 (lowering::clampDynamicTripCounts), where a body written for
  // T >= 0 (`T != 0` guarding the last read) would read iteration -2.
  // The branches and loops between `op` and its event `body`: where they
  // may let some threads past and not others (or, with `noBranch`, any
  // branch at all), what is wrong.
  auto divergence = [&](Operation *op, Operation *body,
                        bool noBranch) -> Operation * {
    for (Operation *p = op->getParentOp(); p && p != body;
         p = p->getParentOp()) {
      if (auto branch = dyn_cast<scf::IfOp>(p)) {
        if (noBranch || !uniform(branch.getCondition()))
          return p;
        continue;
      }
      if (auto loop = dyn_cast<scf::ForOp>(p)) {
        if (!uniform(
                {loop.getLowerBound(), loop.getUpperBound(), loop.getStep()}))
          return p;
        continue;
      }
      return p;
    }
    return nullptr;
  };
  schedule.walk([&](Operation *body) {
    if (!isa<AsyncCopyOp, StagedCopyOp, LdsReadOp>(body))
      return WalkResult::advance();
    body->walk([&](Operation *op) {
      if (op == body)
        return WalkResult::advance();
      // What every thread running the body must reach: a barrier (under
      // uniform control only), a copy row (under no branch at all).
      const bool row = isa<CopyRowOp>(op);
      if (!row && !isBarrier(op))
        return WalkResult::advance();
      // A row is the workgroup's: every thread copies its pieces of one
      // source and one LDS byte, so its operands are the same for all.
      if (row)
        for (auto [i, operand] : llvm::enumerate(op->getOperands())) {
          if (uniform(operand))
            continue;
          static const char *const names[] = {"source", "offset", "LDS array",
                                              "LDS byte"};
          std::string from = "a block argument";
          if (Operation *d = operand.getDefiningOp())
            from = d->getName().getStringRef().str();
          found = r0(op, Twine("its ") + (i < 4 ? names[i] : "operand") +
                             " (from " + from +
                             ") is not shown the same for every thread: the "
                             "workgroup copies one row together, each thread "
                             "its pieces of it");
          return WalkResult::interrupt();
        }
      Operation *p = divergence(op, body, /*noBranch=*/row);
      if (!p)
        return WalkResult::advance();
      found = r0(op, Twine(row ? "a copy row" : "a barrier") + " under " +
                         p->getName().getStringRef() +
                         (row ? ": the model takes every row of a copy as "
                                "issued by every thread whenever the copy is "
                                "(the copy's own predicate says when)"
                              : " whose condition or bounds are not shown "
                                "the same for every thread: not every "
                                "thread may reach it"));
      return WalkResult::interrupt();
    });
    return found ? WalkResult::interrupt() : WalkResult::skip();
  });
  return found;
}

std::optional<PipelineHazard>
mlir::kda::findPipelineHazard(ScheduleOp s, PipelineProof *proof) {
  if (auto h = checkScope(s))
    return h;
  if (auto h = checkCapacity(s))
    return h;
  if (std::optional<int64_t> t = s.getTripCount())
    return runOnce(s, *t);
  if (!s.getDynamicTripCount())
    return runOnce(s, std::nullopt);
  return proveDynamic(s, proof);
}

FailureOr<int64_t> mlir::kda::workgroupArrayBase(Value mem) {
  if (mem.getDefiningOp<gpu::DynamicSharedMemoryOp>())
    return 0;
  if (auto arg = dyn_cast<BlockArgument>(mem)) {
    auto fn = dyn_cast<gpu::GPUFuncOp>(arg.getOwner()->getParentOp());
    if (!fn)
      return failure();
    int64_t base = 0;
    for (BlockArgument a : fn.getWorkgroupAttributions()) {
      std::optional<int64_t> bytes = memrefBytes(cast<MemRefType>(a.getType()));
      if (!bytes)
        return failure();
      if (a == arg)
        return base;
      base += llvm::alignTo(*bytes, 16);
    }
    return failure();
  }
  auto view = mem.getDefiningOp<memref::ViewOp>();
  std::optional<int64_t> shift =
      view ? getConstantIntValue(view.getByteShift()) : std::nullopt;
  if (!shift)
    return failure();
  FailureOr<int64_t> outer = workgroupArrayBase(view.getSource());
  if (failed(outer))
    return failure();
  return *outer + *shift;
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

std::optional<int64_t> mlir::kda::copyRowTrips(CopyRowOp row, Operation *copy,
                                               Operation **blocker) {
  int64_t trips = 1;
  for (Operation *up = row->getParentOp(); up && up != copy;
       up = up->getParentOp()) {
    // As the loop runs: its bounds compared signed or, `scf.for unsigned`,
    // unsigned (-1 to 2 unsigned runs no trip, not three).
    auto loop = dyn_cast<scf::ForOp>(up);
    std::optional<APInt> count =
        loop ? loop.getStaticTripCount() : std::optional<APInt>();
    int64_t product = 0;
    if (!count || count->getActiveBits() > 32 ||
        llvm::MulOverflow(trips, int64_t(count->getZExtValue()), product)) {
      if (blocker)
        *blocker = up;
      return std::nullopt;
    }
    trips = product;
  }
  return trips;
}

std::optional<std::string>
mlir::kda::globalLoadLdsWaveProblem(CopyRowOp row, const TargetInfo &target) {
  if (!row.getAtom() || *row.getAtom() != CopyAtom::GlobalLoadLds)
    return std::nullopt;
  auto fn = row->getParentOfType<gpu::GPUFuncOp>();
  DenseI32ArrayAttr known =
      fn ? fn.getKnownBlockSizeAttr() : DenseI32ArrayAttr();
  if (!known)
    return "its kernel declares no known_block_size: global_load_lds writes "
           "16 bytes a lane of the first wave, which must be whole (" +
           std::to_string(target.waveSize) + " lanes on " + target.name.str() +
           ")";
  const int64_t threads = int64_t(known[0]) * known[1] * known[2];
  if (threads < target.waveSize)
    return "its kernel's block of " + std::to_string(threads) +
           " threads is less than a wave of " +
           std::to_string(target.waveSize) + " on " + target.name.str() +
           ": global_load_lds writes 16 bytes a lane, and lanes " +
           std::to_string(threads) + ".." +
           std::to_string(target.waveSize - 1) +
           " do not exist, so part of each region is never written";
  return std::nullopt;
}
