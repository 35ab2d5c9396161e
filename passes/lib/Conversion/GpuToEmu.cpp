//===- GpuToEmu.cpp - gpu.func kernels -> host functions ------------------===//
//
// The emulator target keeps the kernel IR of the GPU targets up to this point;
// only the SIMT primitives change: each becomes a call into the emulator
// runtime (runtime/emu), which runs a workgroup's threads as fibers and
// implements barriers and cross-lane shuffles between them.
//
//===----------------------------------------------------------------------===//
#include "ScheduleLowering.h"
#include "kda/Dialect/KDA/KDAOps.h"
#include "kda/Passes/AtomLowering.h"
#include "kda/Passes/LdsModel.h"
#include "kda/Passes/Passes.h"
#include "kda/Passes/PipelineHazards.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"

#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::kda {
#define GEN_PASS_DEF_KDAGPUTOEMU
#include "kda/Passes/Passes.h.inc"
} // namespace mlir::kda

using namespace mlir;
using namespace mlir::kda;

/// On a copy row: [first LDS byte, bytes] of the array it writes.
static constexpr llvm::StringLiteral kCopyRowArrayAttr = "kda.emu_row_array";

/// Bytes apart the elements of an array of `type` lie, as LLVM lays it out
/// (elementBytes: an i1 or i4 takes a byte, a vector<3xf32> 16); 0 for an
/// element of no size here (not an integer, float, index or vector of
/// them), which the emulator does not place.
static int64_t elementStride(MemRefType type) {
  return elementBytes(type.getElementType()).value_or(0);
}

namespace {

constexpr llvm::StringLiteral kEmuKernelAttr = "kda.emu_kernel";

/// Ids the emulator answers through kda_emu_id (runtime/emu/Emulator.h).
enum EmuId : int32_t {
  kThreadX = 0, kBlockX = 3, kBlockDimX = 6, kGridDimX = 9,
  kLaneId = 12, kSubgroupId = 13, kSubgroupSize = 14
};
enum EmuShuffleMode : int32_t { kXor = 0, kUp = 1, kDown = 2, kIdx = 3 };

class EmuLowering {
public:
  EmuLowering(ModuleOp module)
      : module(module), ctx(module.getContext()),
        ptr(LLVM::LLVMPointerType::get(ctx)) {}

  LogicalResult run();

private:
  func::FuncOp declare(StringRef name, TypeRange args, TypeRange results);
  LogicalResult convertKernel(gpu::GPUFuncOp kernel);
  LogicalResult rewriteBody(func::FuncOp fn, Value emuCtx);
  LogicalResult lowerSchedules(func::FuncOp fn, Value emuCtx);
  /// The copy atoms of the chip the emulator stands for, with its
  /// semantics: staged pieces land at their stores; cp.async pieces land
  /// at the wait_group covering their group; global_load_lds regions (one
  /// per wave instruction, 16 bytes per lane from a wave-uniform base) land
  /// at the vmcnt wait that counts past them.
  LogicalResult lowerCopyAtoms(func::FuncOp fn, Value emuCtx);
  /// Records on each copy row of `kernel` the LDS bytes of the array it
  /// writes (kCopyRowArrayAttr: [first byte, bytes]), placed as the verifier
  /// places it (workgroupArrayBase, the layout replaceAttributions gives the
  /// attributions). A row into anything else gets no record and no bounds
  /// check (its atoms still run; the verifier refuses such rows, R0).
  void recordCopyRowArrays(gpu::GPUFuncOp kernel);
  /// Before a copy row's atoms: the emulator checks that its destination
  /// lies in its array and in the slot its pipeline copy names
  /// (kda_emu_copy_row).
  void checkCopyRow(CopyRowOp row, Value emuCtx, func::FuncOp checkFn);
  /// A load or store (scalar or vector) that indexes workgroup memory
  /// directly; the emulator's race detector watches its `size` bytes at LDS
  /// byte `base` + index x the element's bytes, and the emulator checks
  /// they lie inside the array (`type`, at LDS byte `base`).
  struct WatchedAccess {
    Operation *op;
    MemRefType type;
    ValueRange indices;
    int64_t base, size;
    bool write;
    /// The array's place beyond `base` known only at run time (an index;
    /// null when `base` is all of it): views at a computed offset, such as
    /// a ring's slot.
    Value shift = {};
    /// The memref the access indexes where it is not `type` itself but a
    /// cast, subview, reinterpret cast or reshape of it (its static strided
    /// layout places the element; `type` stays the array checked against).
    MemRefType through = {};
    /// An atomic read-modify-write (kda_emu_lds_atomic).
    bool atomic = false;
    /// A vector access of shape `lanes` (its dims the memref's innermost,
    /// in order) of which only some elements touch memory: the one at
    /// position p does where `mask` (null: every one) holds at p and, for
    /// each dim d that `mayLeave`, index + p[d] lies inside the memref's
    /// dim. Each such element is watched on its own. Empty: not by lanes.
    SmallVector<int64_t> lanes;
    Value mask = {};
    SmallVector<bool> mayLeave;
  };
  LogicalResult replaceAttributions(func::FuncOp fn, unsigned numArgs,
                                    SmallVectorImpl<WatchedAccess> &watched);
  /// Where the elements `a` indexes lie, in elements from its array's
  /// first: offset + sum of index x stride (row-major in `type`, else the
  /// static strided layout of `through`).
  struct ElementPlaces {
    SmallVector<int64_t> strides;
    int64_t offset = 0;
  };
  static ElementPlaces elementPlaces(const WatchedAccess &a);
  void watchAccesses(ArrayRef<WatchedAccess> watched, Value emuCtx);
  /// The ops of `fn` that may write a workgroup memref (while its LDS is
  /// still typed so): any op but a view, a cast, a copy row or piece (whose
  /// bytes the emulator marks itself), that writes one or takes one with
  /// unknown effects. Those that no watched access is (a permuted
  /// transfer, a scatter, an access through a cast of run-time layout, a
  /// call) leave the emulator unable to tell bytes nothing wrote
  /// (kda_emu_lds_unwatched_writes).
  SmallVector<Operation *> ldsWriters(func::FuncOp fn);
  /// The elements of `a` (an access by lanes) that touch memory, each
  /// watched by `fn` with `call`'s arguments (ctx, first byte, bytes, the
  /// array's first byte and size), its byte moved to the element's by
  /// `strides` (elementPlaces).
  void watchLanes(OpBuilder &b, Location loc, const WatchedAccess &a,
                  ArrayRef<int64_t> strides, func::FuncOp fn,
                  std::array<Value, 5> call);
  /// The loads and stores (scalar or vector) that index a typed view of the
  /// dynamic LDS (the chunk kernels' arrays), or a view of such a view (the
  /// scan ring's slots), watched against that view (watchView).
  void watchDynamicLdsViews(func::FuncOp fn,
                            SmallVectorImpl<WatchedAccess> &watched);
  /// `user` as a watched access of `mem` (of `type`) at LDS byte `base`,
  /// if it is a load or store of it (`through`: of a cast, subview,
  /// reinterpret cast or reshape of it, of that type).
  void watchUser(Operation *user, MemRefType type, int64_t base,
                 SmallVectorImpl<WatchedAccess> &watched, Value shift = {},
                 MemRefType through = {});
  /// The loads and stores through `view` (of an array at LDS byte `base` +
  /// `shift`) and through views of it, each watched against the view it
  /// indexes: a typed, statically shaped view at a constant or computed
  /// byte offset (a ring slot's rows) is an array of its own.
  void watchView(memref::ViewOp view, int64_t base, Value shift,
                 SmallVectorImpl<WatchedAccess> &watched);
  /// A barrier that first drains the thread's LDS operations: kda.lds_barrier
  /// and gpu.barrier (which on gfx9 lowers with the LDS counter drained).
  void emitDrainedBarrier(OpBuilder &b, Location loc, Value emuCtx);
  void stripGpuAddressSpaces(func::FuncOp fn);
  /// A pointer to the NUL-terminated name of an LDS buffer (a constant global
  /// of the module, one per name).
  Value bufferName(OpBuilder &b, Location loc, StringAttr name);

  ModuleOp module;
  MLIRContext *ctx;
  Type ptr;
  const TargetInfo *target = nullptr; // of the gpu.module being converted
  /// vmcnt units (copy instructions) per group of each wait, counted while
  /// the schedules still hold their rows (global_load_lds targets).
  llvm::DenseMap<Operation *, int64_t> waitUnits;
};

func::FuncOp EmuLowering::declare(StringRef name, TypeRange args,
                                  TypeRange results) {
  if (auto fn = module.lookupSymbol<func::FuncOp>(name))
    return fn;
  OpBuilder b(ctx);
  b.setInsertionPointToStart(module.getBody());
  auto fn = func::FuncOp::create(b, module.getLoc(), name,
                                 FunctionType::get(ctx, args, results));
  fn.setPrivate();
  return fn;
}

LogicalResult EmuLowering::rewriteBody(func::FuncOp fn, Value emuCtx) {
  Type i32 = IntegerType::get(ctx, 32), i64 = IntegerType::get(ctx, 64);
  Type f32 = Float32Type::get(ctx);
  func::FuncOp idFn = declare("kda_emu_id", {ptr, i32}, {i64});
  func::FuncOp shuffleF32 =
      declare("kda_emu_shuffle_f32", {ptr, f32, i32, i32, i32}, {f32});
  func::FuncOp shuffleI32 =
      declare("kda_emu_shuffle_i32", {ptr, i32, i32, i32, i32}, {i32});

  IRRewriter rewriter(ctx);
  auto emitId = [&](Operation *op, int32_t which) {
    rewriter.setInsertionPoint(op);
    Location loc = op->getLoc();
    Value w = arith::ConstantIntOp::create(rewriter, loc, which, 32);
    Value id = func::CallOp::create(rewriter, loc, idFn, ValueRange{emuCtx, w})
                   .getResult(0);
    Value asIndex = arith::IndexCastOp::create(rewriter, loc,
                                               rewriter.getIndexType(), id);
    rewriter.replaceOp(op, asIndex);
  };

  if (failed(lowerSchedules(fn, emuCtx)))
    return failure();
  SmallVector<Operation *> gpuOps;
  fn.walk([&](Operation *op) {
    if (isa<gpu::GPUDialect>(op->getDialect()))
      gpuOps.push_back(op);
  });
  for (Operation *op : gpuOps) {
    if (auto o = dyn_cast<gpu::ThreadIdOp>(op))
      emitId(op, kThreadX + int32_t(o.getDimension()));
    else if (auto o = dyn_cast<gpu::BlockIdOp>(op))
      emitId(op, kBlockX + int32_t(o.getDimension()));
    else if (auto o = dyn_cast<gpu::BlockDimOp>(op))
      emitId(op, kBlockDimX + int32_t(o.getDimension()));
    else if (auto o = dyn_cast<gpu::GridDimOp>(op))
      emitId(op, kGridDimX + int32_t(o.getDimension()));
    else if (isa<gpu::LaneIdOp>(op))
      emitId(op, kLaneId);
    else if (isa<gpu::SubgroupIdOp>(op))
      emitId(op, kSubgroupId);
    else if (isa<gpu::SubgroupSizeOp>(op))
      emitId(op, kSubgroupSize);
    else if (isa<gpu::BarrierOp>(op)) {
      rewriter.setInsertionPoint(op);
      emitDrainedBarrier(rewriter, op->getLoc(), emuCtx);
      rewriter.eraseOp(op);
    } else if (auto sh = dyn_cast<gpu::ShuffleOp>(op)) {
      Type t = sh.getValue().getType();
      if (t != f32 && t != i32)
        return sh.emitOpError("the emulator shuffles only f32 and i32");
      rewriter.setInsertionPoint(op);
      Location loc = op->getLoc();
      int32_t mode = 0;
      switch (sh.getMode()) {
      case gpu::ShuffleMode::XOR: mode = kXor; break;
      case gpu::ShuffleMode::UP: mode = kUp; break;
      case gpu::ShuffleMode::DOWN: mode = kDown; break;
      case gpu::ShuffleMode::IDX: mode = kIdx; break;
      }
      Value m = arith::ConstantIntOp::create(rewriter, loc, mode, 32);
      Value val = func::CallOp::create(
                      rewriter, loc, t == f32 ? shuffleF32 : shuffleI32,
                      ValueRange{emuCtx, sh.getValue(), sh.getOffset(),
                                 sh.getWidth(), m})
                      .getResult(0);
      // Lanes whose source is out of range get their own value back, which
      // is what the reductions built on shuffles expect of `valid`.
      Value valid = arith::ConstantIntOp::create(rewriter, loc, 1, 1);
      rewriter.replaceOp(op, {val, valid});
    } else if (isa<gpu::ReturnOp>(op)) {
      rewriter.setInsertionPoint(op);
      func::ReturnOp::create(rewriter, op->getLoc());
      rewriter.eraseOp(op);
    } else {
      return op->emitOpError("is not supported by the emulator target");
    }
  }
  return success();
}

// The emulator's LDS atoms: every copy, wait, drain, barrier and read of an
// expanded pipeline becomes a call that updates the emulator's per-byte shadow
// state, so a schedule executed with verification off is race-checked.
LogicalResult EmuLowering::lowerSchedules(func::FuncOp fn, Value emuCtx) {
  Type i64 = IntegerType::get(ctx, 64), i1 = IntegerType::get(ctx, 1);
  func::FuncOp writeFn =
      declare("kda_emu_lds_write", {ptr, i64, i64, i64, ptr, i64, i64}, {});
  func::FuncOp readFn =
      declare("kda_emu_lds_read", {ptr, i64, i64, i64, ptr, i64, i64}, {});
  func::FuncOp asyncFn = declare("kda_emu_async_copy",
                                 {ptr, i64, i64, i64, i1, ptr, i64, i64}, {});
  func::FuncOp waitFn = declare("kda_emu_async_wait", {ptr, i64}, {});
  func::FuncOp drainFn = declare("kda_emu_lds_drain", {ptr}, {});
  func::FuncOp barrierFn = declare("kda_emu_barrier", {ptr}, {});

  if (failed(lowerCopyAtoms(fn, emuCtx)))
    return failure();
  IRRewriter rw(ctx);
  // Pre-order: a copy or read is lowered with its body before the body's
  // own kda ops (none are left by lowerCopyAtoms but ring slots).
  SmallVector<Operation *> ops;
  fn.walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (isa<KDADialect>(op->getDialect()) && !isa<ScheduleOp>(op))
      ops.push_back(op);
  });
  for (Operation *op : ops) {
    rw.setInsertionPoint(op);
    Location loc = op->getLoc();
    auto c64 = [&](int64_t v) -> Value {
      return arith::ConstantIntOp::create(rw, loc, v, 64);
    };
    auto toI64 = [&](Value v) -> Value {
      return arith::IndexCastOp::create(rw, loc, i64, v);
    };
    auto lds = op->getAttrOfType<DenseI64ArrayAttr>("kda.emu_lds");
    if (op->hasAttr("buffer") && !lds)
      return op->emitOpError("refers to an LDS buffer the emulator cannot find");
    // The buffer's name, which the race detector tags every word with.
    auto name = [&]() -> Value {
      return bufferName(rw, loc,
                        op->getAttrOfType<StringAttr>("kda.emu_buffer"));
    };
    // [lo, lo + bytes) of the slot.
    auto range = [&](Value slot) -> std::pair<Value, Value> {
      Value lo = arith::AddIOp::create(
          rw, loc, c64(lds[0]),
          arith::MulIOp::create(rw, loc, toI64(slot), c64(lds[1])));
      return {lo, c64(lds[1])};
    };
    // The buffer's ring, [offset, offset + slots x slot bytes): the slot a
    // marker names must lie in it.
    auto ring = [&]() -> std::pair<Value, Value> {
      return {c64(lds[0]), c64(lds[1] * lds[2])};
    };
    if (auto r = dyn_cast<RingSlotOp>(op)) {
      Value slots = arith::ConstantIndexOp::create(rw, loc, lds[2]);
      rw.replaceOp(op, arith::RemUIOp::create(rw, loc, r.getIter(), slots)
                           .getResult());
    } else if (auto c = dyn_cast<AsyncCopyOp>(op)) {
      // The copy's atoms (already emulator calls) under its predicate, then
      // the commit of its group: the race detector holds the slot in
      // flight, the pieces issued since the last commit join the group.
      if (failed(lowering::emitAsyncCopyBody(rw, c, target, lds[2])))
        return failure();
      auto [lo, bytes] = range(c.getSlot());
      Value pred = c.getPred();
      if (!pred)
        pred = arith::ConstantIntOp::create(rw, loc, 1, 1);
      auto [ringLo, ringBytes] = ring();
      func::CallOp::create(rw, loc, asyncFn,
                           ValueRange{emuCtx, lo, bytes, toI64(c.getIter()),
                                      pred, name(), ringLo, ringBytes});
      rw.eraseOp(op);
    } else if (auto c = dyn_cast<StagedCopyOp>(op)) {
      auto [lo, bytes] = range(c.getSlot());
      auto [ringLo, ringBytes] = ring();
      Value tag = toI64(c.getIter()), buf = name();
      auto emit = [&](OpBuilder &b, Location l) {
        IRMapping map;
        lowering::cloneBody(b, c.getBody(), map);
        func::CallOp::create(
            b, l, writeFn,
            ValueRange{emuCtx, lo, bytes, tag, buf, ringLo, ringBytes});
      };
      if (Value pred = c.getPred()) {
        auto ifOp = scf::IfOp::create(rw, loc, pred, /*withElse=*/false);
        OpBuilder b = ifOp.getThenBodyBuilder();
        emit(b, loc);
      } else {
        emit(rw, loc);
      }
      rw.eraseOp(op);
    } else if (auto r = dyn_cast<LdsReadOp>(op)) {
      auto [lo, bytes] = range(r.getSlot());
      auto [ringLo, ringBytes] = ring();
      func::CallOp::create(rw, loc, readFn,
                           ValueRange{emuCtx, lo, bytes, toI64(r.getIter()),
                                      name(), ringLo, ringBytes});
      lowering::inlineBodyBefore(rw, r.getBody(), op);
      rw.eraseOp(op);
    } else if (auto w = dyn_cast<AsyncWaitOp>(op)) {
      func::CallOp::create(rw, loc, waitFn,
                           ValueRange{emuCtx, c64(w.getCount())});
      // global_load_lds data lands by vmcnt, counted in instructions.
      if (auto units = waitUnits.find(op); units != waitUnits.end())
        func::CallOp::create(
            rw, loc, declare("kda_emu_vmcnt_wait", {ptr, i64}, {}),
            ValueRange{emuCtx, c64(w.getCount() * units->second)});
      rw.eraseOp(op);
    } else if (isa<LdsDrainOp>(op)) {
      func::CallOp::create(rw, loc, drainFn, ValueRange{emuCtx});
      rw.eraseOp(op);
    } else if (isa<CopyFenceOp>(op)) {
      func::CallOp::create(rw, loc, declare("kda_emu_copy_fence", {ptr}, {}),
                           ValueRange{emuCtx});
      rw.eraseOp(op);
    } else if (isa<BarrierOp>(op)) {
      func::CallOp::create(rw, loc, barrierFn, ValueRange{emuCtx});
      rw.eraseOp(op);
    } else if (isa<LdsBarrierOp>(op)) {
      emitDrainedBarrier(rw, loc, emuCtx);
      rw.eraseOp(op);
    } else if (isa<PrefetchRowOp>(op)) {
      rw.eraseOp(op); // a cache hint: the emulator models no cache
    } else {
      return op->emitOpError("is not supported by the emulator target");
    }
  }
  // Schedules run in place (inlined last: predicated copies read their trip
  // count).
  SmallVector<ScheduleOp> schedules;
  fn.walk([&](ScheduleOp s) { schedules.push_back(s); });
  for (ScheduleOp s : schedules) {
    lowering::inlineBodyBefore(rw, s.getBody(), s);
    rw.eraseOp(s);
  }
  return success();
}

LogicalResult EmuLowering::lowerCopyAtoms(func::FuncOp fn, Value emuCtx) {
  Type i64 = IntegerType::get(ctx, 64);
  func::FuncOp checkFn =
      declare("kda_emu_copy_row", {ptr, i64, i64, i64, i64, i64, i64, ptr}, {});
  fn.walk([&](CopyRowOp row) { checkCopyRow(row, emuCtx, checkFn); });
  // One walk, no folding: the rest of the kernel stays as written.
  RewritePatternSet staged(ctx);
  lowering::populateStagedCopyPatterns(staged);
  walkAndApplyPatterns(fn, FrozenRewritePatternSet(std::move(staged)));
  func::FuncOp cpAsyncFn =
      declare("kda_emu_cp_async", {ptr, i64, i64, i64}, {});
  func::FuncOp gllFn = declare("kda_emu_global_load_lds", {ptr, i64, i64}, {});
  // A cp_async piece joins the thread's open pieces (its fence lands them).
  func::FuncOp pieceFn =
      declare("kda_emu_cp_async_piece", {ptr, i64, i64, i64}, {});
  SmallVector<CopyPieceOp> pieces;
  fn.walk([&](CopyPieceOp p) { pieces.push_back(p); });
  for (CopyPieceOp p : pieces) {
    OpBuilder b(p);
    Location loc = p.getLoc();
    Value valid = arith::ExtUIOp::create(b, loc, i64, p.getValid());
    func::CallOp::create(
        b, loc, pieceFn,
        ValueRange{emuCtx,
                   lowering::elementAddress(b, loc, p.getLds(), p.getIndex()),
                   lowering::elementAddress(b, loc, p.getSrc(), p.getOffset()),
                   valid});
    p.erase();
  }
  SmallVector<CopyRowOp> rows;
  fn.walk([&](CopyRowOp row) { rows.push_back(row); });
  for (CopyRowOp row : rows) {
    OpBuilder b(row);
    Location loc = row.getLoc();
    const int64_t elemBytes =
        elementStride(cast<MemRefType>(row.getSrc().getType()));
    if (!elemBytes)
      return row.emitOpError("copies elements of a size LLVM pads, which "
                             "the emulator does not place");
    auto ldsByte = [&](Value elem) {
      return arith::AddIOp::create(
          b, loc, row.getByte(),
          arith::MulIOp::create(
              b, loc, elem, arith::ConstantIndexOp::create(b, loc, elemBytes)));
    };
    auto src = [&](Value elem) {
      return lowering::elementAddress(
          b, loc, row.getSrc(),
          arith::AddIOp::create(b, loc, row.getOffset(), elem));
    };
    if (*row.getAtom() == CopyAtom::CpAsync) {
      lowering::forEachThreadPiece(b, loc, row, [&](Value e) {
        func::CallOp::create(
            b, loc, cpAsyncFn,
            ValueRange{
                emuCtx,
                lowering::elementAddress(b, loc, row.getLds(), ldsByte(e)),
                src(e), arith::ConstantIntOp::create(b, loc, 16, 64)});
      });
    } else {
      lowering::forEachWaveRegion(
          b, loc, row, *target, [&](Value e, int64_t region) {
            Value base = lowering::elementAddress(
                b, loc, row.getLds(),
                ldsByte(arith::ConstantIndexOp::create(b, loc, region)));
            func::CallOp::create(b, loc, gllFn,
                                 ValueRange{emuCtx, base, src(e)});
          });
    }
    row.erase();
  }
  return success();
}

void EmuLowering::recordCopyRowArrays(gpu::GPUFuncOp kernel) {
  kernel.walk([&](CopyRowOp row) {
    auto type = cast<MemRefType>(row.getLds().getType());
    FailureOr<int64_t> base = workgroupArrayBase(row.getLds());
    std::optional<int64_t> bytes = memrefBytes(type);
    if (failed(base) || !bytes)
      return;
    row->setAttr(kCopyRowArrayAttr,
                 DenseI64ArrayAttr::get(ctx, {*base, *bytes}));
  });
}

void EmuLowering::checkCopyRow(CopyRowOp row, Value emuCtx,
                               func::FuncOp checkFn) {
  auto array = row->getAttrOfType<DenseI64ArrayAttr>(kCopyRowArrayAttr);
  if (!array)
    return;
  OpBuilder b(row);
  Location loc = row.getLoc();
  auto c64 = [&](int64_t v) -> Value {
    return arith::ConstantIntOp::create(b, loc, v, 64);
  };
  // The bytes the row's atoms write: global_load_lds fills whole wave
  // regions (the padding after the row included).
  int64_t bytes = row.getRowBytes();
  if (row.getAtom() && *row.getAtom() == CopyAtom::GlobalLoadLds)
    bytes = lowering::globalLoadLdsInstructions(bytes, *target) *
            target->waveSize * 16;
  Value lo = arith::AddIOp::create(
      b, loc, c64(array[0]),
      arith::IndexCastOp::create(b, loc, b.getI64Type(), row.getByte()));
  // The slot of the pipeline copy around the row, if any.
  Operation *copy = row->getParentOp();
  while (copy && !isa<AsyncCopyOp, StagedCopyOp>(copy))
    copy = copy->getParentOp();
  Value slotLo = c64(array[0]), slotBytes = c64(array[1]);
  Value name = LLVM::ZeroOp::create(b, loc, ptr);
  if (copy) {
    auto lds = copy->getAttrOfType<DenseI64ArrayAttr>("kda.emu_lds");
    Value slot = isa<AsyncCopyOp>(copy) ? cast<AsyncCopyOp>(copy).getSlot()
                                        : cast<StagedCopyOp>(copy).getSlot();
    if (lds) {
      slotLo = arith::AddIOp::create(
          b, loc, c64(lds[0]),
          arith::MulIOp::create(
              b, loc, arith::IndexCastOp::create(b, loc, b.getI64Type(), slot),
              c64(lds[1])));
      // Predicated off on a target with a sink slot, the copy still issues
      // its rows (emitAsyncCopyBody's clone, the slot operand mapped to the
      // sink): they must land in the sink, past the ring's last slot. The
      // sink's bytes come from the ring's own shape here, not from the
      // clone's mapping, so a clone that maps the slot elsewhere (a live
      // slot) is caught.
      auto async = dyn_cast<AsyncCopyOp>(copy);
      if (async && async.getPred() && target->waitsCountInstructions())
        slotLo = arith::SelectOp::create(b, loc, async.getPred(), slotLo,
                                         c64(lds[0] + lds[2] * lds[1]));
      slotBytes = c64(lds[1]);
      name =
          bufferName(b, loc, copy->getAttrOfType<StringAttr>("kda.emu_buffer"));
    }
  }
  func::CallOp::create(b, loc, checkFn,
                       ValueRange{emuCtx, lo, c64(bytes), c64(array[0]),
                                  c64(array[1]), slotLo, slotBytes, name});
}

// Workgroup memory: the emulator runs one workgroup at a time, so a module
// global serves as the running workgroup's LDS. Private memory: an alloca of
// the fiber's stack. Workgroup attributions sit in LDS one after another (16-
// byte aligned), as on the GPU: pipeline markers address the first from byte
// 0, and loads and stores that index an attribution directly, or a typed view
// of one (a pipeline ring's slot, at a computed offset), are watched at their
// byte offsets against the array or view they index (typed views of the
// dynamic LDS: watchDynamicLdsViews).
LogicalResult EmuLowering::replaceAttributions(
    func::FuncOp fn, unsigned numArgs,
    SmallVectorImpl<WatchedAccess> &watched) {
  Block &entry = fn.getBody().front();
  OpBuilder b(ctx);
  unsigned counter = 0;
  int64_t ldsBase = 0;
  while (entry.getNumArguments() > numArgs) {
    BlockArgument arg = entry.getArgument(numArgs);
    auto type = dyn_cast<MemRefType>(arg.getType());
    if (!type || !type.hasStaticShape())
      return fn.emitOpError("needs statically shaped memory attributions");
    auto space = dyn_cast_or_null<gpu::AddressSpaceAttr>(type.getMemorySpace());
    auto plain = MemRefType::get(type.getShape(), type.getElementType());
    Value replacement;
    b.setInsertionPointToStart(&entry);
    if (space && space.getValue() == gpu::AddressSpace::Workgroup) {
      const int64_t elemBytes = elementStride(type);
      if (!elemBytes)
        return fn.emitOpError("has a workgroup attribution of ")
               << type << ", whose elements LLVM pads: not placed in LDS";
      for (Operation *user : arg.getUsers())
        watchUser(user, type, ldsBase, watched);
      ldsBase += (type.getNumElements() * elemBytes + 15) / 16 * 16;
      std::string name = (fn.getName() + "_lds" + Twine(counter++)).str();
      OpBuilder mb(ctx);
      mb.setInsertionPointToStart(module.getBody());
      memref::GlobalOp::create(mb, fn.getLoc(), name,
                               mb.getStringAttr("private"), plain,
                               Attribute(), /*constant=*/false,
                               /*alignment=*/mb.getI64IntegerAttr(16));
      replacement = memref::GetGlobalOp::create(b, fn.getLoc(), plain, name);
    } else {
      // At least 16-byte aligned like the LDS arrays: a copy row's pieces
      // read its source 16 bytes at a time, which an f32 alloca's 4 would
      // fault on (wider elements keep their own, larger alignment).
      const int64_t align = std::max<int64_t>(16, elementStride(type));
      replacement = memref::AllocaOp::create(b, fn.getLoc(), plain,
                                             b.getI64IntegerAttr(align));
    }
    arg.replaceAllUsesWith(replacement);
    entry.eraseArgument(numArgs);
  }
  return success();
}

Value EmuLowering::bufferName(OpBuilder &b, Location loc, StringAttr name) {
  std::string sym = ("kda_emu_buffer_" + name.getValue()).str();
  auto global = module.lookupSymbol<LLVM::GlobalOp>(sym);
  if (!global) {
    OpBuilder mb(ctx);
    mb.setInsertionPointToStart(module.getBody());
    std::string text = (name.getValue() + Twine('\0')).str();
    auto type = LLVM::LLVMArrayType::get(IntegerType::get(ctx, 8), text.size());
    global = LLVM::GlobalOp::create(mb, loc, type, /*isConstant=*/true,
                                    LLVM::Linkage::Internal, sym,
                                    mb.getStringAttr(text));
  }
  return LLVM::AddressOfOp::create(b, loc, global);
}

void EmuLowering::emitDrainedBarrier(OpBuilder &b, Location loc,
                                     Value emuCtx) {
  func::CallOp::create(b, loc, declare("kda_emu_lds_drain", {ptr}, {}),
                       ValueRange{emuCtx});
  func::CallOp::create(b, loc, declare("kda_emu_barrier", {ptr}, {}),
                       ValueRange{emuCtx});
}

void EmuLowering::watchUser(Operation *user, MemRefType type, int64_t base,
                            SmallVectorImpl<WatchedAccess> &watched,
                            Value shift, MemRefType through) {
  if (auto view = dyn_cast<memref::ViewOp>(user))
    return watchView(view, base, shift, watched);
  // Casts, subviews, reinterpret casts and reshapes keep the array's base:
  // their accesses are watched against the array, placed by their layout
  // (one that is not static is left unwatched, as before).
  if (keepsBase(user)) {
    auto result = dyn_cast<MemRefType>(user->getResult(0).getType());
    SmallVector<int64_t> strides;
    int64_t offset = 0;
    if (!result || !staticStridedLayout(result, strides, offset) ||
        result.getElementType() != type.getElementType())
      return;
    for (Operation *u : user->getResult(0).getUsers())
      watchUser(u, type, base, watched, shift, result);
    return;
  }
  const int64_t elemBytes = elementStride(type);
  if (!elemBytes)
    return; // elements LLVM pads: not placed, left unwatched
  // Vector accesses cover their whole vector; masked ones and transfers
  // that may leave the array, element by element (only the elements that
  // touch memory are watched: none is reported for bytes it does not
  // touch; scalable vectors, whose elements are not known here, not at
  // all).
  auto vectorBytes = [&](VectorType v) {
    return elemBytes * v.getNumElements();
  };
  auto byLanes = [&](ValueRange indices, VectorType v, bool write, Value mask,
                     ArrayRef<bool> mayLeave) {
    if (v.isScalable() || v.getRank() == 0)
      return;
    WatchedAccess a{user,      type,  indices, base,
                    elemBytes, write, shift,   through};
    a.lanes.assign(v.getShape().begin(), v.getShape().end());
    a.mask = mask;
    a.mayLeave.assign(mayLeave.begin(), mayLeave.end());
    a.mayLeave.resize(v.getRank(), false);
    watched.push_back(a);
  };
  if (auto at = dyn_cast<memref::AtomicRMWOp>(user)) {
    WatchedAccess a{user,      type, at.getIndices(), base,
                    elemBytes, true, shift,           through};
    a.atomic = true;
    watched.push_back(a);
    return;
  }
  if (auto ml = dyn_cast<vector::MaskedLoadOp>(user))
    return byLanes(ml.getIndices(), ml.getVectorType(), false, ml.getMask(),
                   {});
  if (auto ms = dyn_cast<vector::MaskedStoreOp>(user))
    return byLanes(ms.getIndices(), ms.getVectorType(), true, ms.getMask(), {});
  if (auto l = dyn_cast<memref::LoadOp>(user))
    watched.push_back(
        {user, type, l.getIndices(), base, elemBytes, false, shift, through});
  else if (auto st = dyn_cast<memref::StoreOp>(user))
    watched.push_back(
        {user, type, st.getIndices(), base, elemBytes, true, shift, through});
  else if (auto vl = dyn_cast<vector::LoadOp>(user))
    watched.push_back({user, type, vl.getIndices(), base,
                       vectorBytes(vl.getVectorType()), false, shift, through});
  else if (auto vs = dyn_cast<vector::StoreOp>(user))
    watched.push_back({user, type, vs.getIndices(), base,
                       vectorBytes(vs.getVectorType()), true, shift, through});
  else if (auto piece = dyn_cast<CopyPieceOp>(user))
    // Checked, and held by the race detector, as a write at its issue
    // (ODS operand 3: its index, a range the op owns).
    watched.push_back({user, type, piece.getODSOperands(3), base,
                       elemBytes * piece.getPieceElems(), true, shift,
                       through});
  else if (auto t = dyn_cast<VectorTransferOpInterface>(user);
           t && t.getPermutationMap().isMinorIdentity()) {
    const bool write = isa<vector::TransferWriteOp>(user);
    // An unmasked transfer in bounds on every dimension is a vector load
    // or store; otherwise masked or out-of-bounds lanes touch nothing.
    if (!t.getMask() &&
        llvm::all_of(t.getInBoundsValues(), [](bool in) { return in; }))
      watched.push_back({user, type, t.getIndices(), base,
                         vectorBytes(t.getVectorType()), write, shift,
                         through});
    else
      byLanes(t.getIndices(), t.getVectorType(), write, t.getMask(),
              llvm::to_vector(llvm::map_range(t.getInBoundsValues(),
                                              [](bool in) { return !in; })));
  }
}

SmallVector<Operation *> EmuLowering::ldsWriters(func::FuncOp fn) {
  SmallVector<Operation *> writers;
  fn.walk([&](Operation *op) {
    // Views and casts only name bytes; their users are walked.
    if (isa<CopyRowOp, CopyPieceOp, ViewLikeOpInterface, memref::CastOp>(op))
      return;
    auto effects = dyn_cast<MemoryEffectOpInterface>(op);
    if (llvm::any_of(op->getOperands(), [&](Value v) {
          return isWorkgroupMemRefType(v.getType()) &&
                 (!effects ||
                  effects.getEffectOnValue<MemoryEffects::Write>(v));
        }))
      writers.push_back(op);
  });
  return writers;
}

void EmuLowering::watchView(memref::ViewOp view, int64_t base, Value shift,
                            SmallVectorImpl<WatchedAccess> &watched) {
  auto type = view.getType();
  if (!view.getSizes().empty() || !type.hasStaticShape() ||
      !type.getElementType().isIntOrFloat())
    return;
  if (std::optional<int64_t> c = getConstantIntValue(view.getByteShift())) {
    base += *c;
  } else {
    OpBuilder b(ctx);
    b.setInsertionPointAfter(view);
    shift = shift ? arith::AddIOp::create(b, view.getLoc(), shift,
                                          view.getByteShift())
                        .getResult()
                  : view.getByteShift();
  }
  for (Operation *user : view->getUsers())
    watchUser(user, type, base, watched, shift);
}

void EmuLowering::watchDynamicLdsViews(
    func::FuncOp fn, SmallVectorImpl<WatchedAccess> &watched) {
  fn.walk([&](gpu::DynamicSharedMemoryOp lds) {
    for (Operation *user : lds->getUsers())
      if (auto view = dyn_cast<memref::ViewOp>(user))
        watchView(view, 0, Value(), watched);
  });
}

EmuLowering::ElementPlaces EmuLowering::elementPlaces(const WatchedAccess &a) {
  ElementPlaces places;
  if (!a.through) {
    places.strides = computeStrides(a.type.getShape());
    return places;
  }
  (void)a.through.getStridesAndOffset(places.strides,
                                      places.offset); // static
  return places;
}

void EmuLowering::watchAccesses(ArrayRef<WatchedAccess> watched,
                                Value emuCtx) {
  Type i64 = IntegerType::get(ctx, 64);
  // Each access carries its array's bytes, which the emulator checks it
  // stays inside.
  func::FuncOp loadFn =
      declare("kda_emu_lds_load", {ptr, i64, i64, i64, i64}, {});
  func::FuncOp storeFn =
      declare("kda_emu_lds_store", {ptr, i64, i64, i64, i64}, {});
  func::FuncOp atomicFn =
      declare("kda_emu_lds_atomic", {ptr, i64, i64, i64, i64}, {});
  for (const WatchedAccess &a : watched) {
    OpBuilder b(a.op);
    Location loc = a.op->getLoc();
    // The access's first element (elementPlaces), in bytes from the array's.
    MemRefType type = a.type;
    const ElementPlaces places = elementPlaces(a);
    Value linear = arith::ConstantIndexOp::create(b, loc, places.offset);
    for (auto [dim, index] : llvm::enumerate(a.indices))
      linear = arith::AddIOp::create(
          b, loc, linear,
          arith::MulIOp::create(
              b, loc, index,
              arith::ConstantIndexOp::create(b, loc, places.strides[dim])));
    Value first = arith::ConstantIndexOp::create(b, loc, a.base);
    if (a.shift)
      first = arith::AddIOp::create(b, loc, first, a.shift);
    Value byte = arith::AddIOp::create(
        b, loc, first,
        arith::MulIOp::create(
            b, loc, linear,
            arith::ConstantIndexOp::create(b, loc, elementStride(type))));
    Value lo = arith::IndexCastOp::create(b, loc, i64, byte);
    Value bytes = arith::ConstantIntOp::create(b, loc, a.size, 64);
    Value arrayLo =
        a.shift ? Value(arith::IndexCastOp::create(b, loc, i64, first))
                : Value(arith::ConstantIntOp::create(b, loc, a.base, 64));
    Value arrayBytes = arith::ConstantIntOp::create(
        b, loc, type.getNumElements() * elementStride(type), 64);
    func::FuncOp fn = a.atomic ? atomicFn : a.write ? storeFn : loadFn;
    if (a.lanes.empty()) {
      func::CallOp::create(b, loc, fn,
                           ValueRange{emuCtx, lo, bytes, arrayLo, arrayBytes});
      continue;
    }
    watchLanes(b, loc, a, places.strides, fn,
               {emuCtx, lo, bytes, arrayLo, arrayBytes});
  }
}

void EmuLowering::watchLanes(OpBuilder &b, Location loc, const WatchedAccess &a,
                             ArrayRef<int64_t> strides, func::FuncOp fn,
                             std::array<Value, 5> call) {
  // The memref the indices address (`through` where the access goes
  // through a cast or subview); the vector's dims are its innermost (minor
  // identity), in order.
  MemRefType view = a.through ? a.through : a.type;
  const int64_t outer = view.getRank() - int64_t(a.lanes.size());
  const int64_t count = ShapedType::getNumElements(a.lanes);
  const SmallVector<int64_t> laneStrides = computeStrides(a.lanes);
  for (int64_t flat = 0; flat < count; ++flat) {
    SmallVector<int64_t> pos = delinearize(flat, laneStrides);
    Value on = arith::ConstantIntOp::create(b, loc, 1, 1);
    if (a.mask)
      on = vector::ExtractOp::create(b, loc, a.mask, pos);
    int64_t elems = 0; // the element's offset from the access's first
    for (auto [d, p] : llvm::enumerate(pos)) {
      const int64_t dim = outer + int64_t(d);
      elems += p * strides[dim];
      if (!a.mayLeave[d])
        continue;
      Value at = arith::AddIOp::create(
          b, loc, a.indices[dim], arith::ConstantIndexOp::create(b, loc, p));
      Value inside = arith::CmpIOp::create(
          b, loc, arith::CmpIPredicate::ult, at,
          arith::ConstantIndexOp::create(b, loc, view.getDimSize(dim)));
      on = arith::AndIOp::create(b, loc, on, inside);
    }
    auto lane = scf::IfOp::create(b, loc, on, /*withElseRegion=*/false);
    OpBuilder in = lane.getThenBodyBuilder();
    Value laneLo = arith::AddIOp::create(
        in, loc, call[1],
        arith::ConstantIntOp::create(in, loc, elems * a.size, 64));
    func::CallOp::create(
        in, loc, fn, ValueRange{call[0], laneLo, call[2], call[3], call[4]});
  }
}

void EmuLowering::stripGpuAddressSpaces(func::FuncOp fn) {
  auto strip = [](Value v) {
    auto type = dyn_cast<MemRefType>(v.getType());
    if (type && isa_and_nonnull<gpu::AddressSpaceAttr>(type.getMemorySpace()))
      v.setType(MemRefType::get(type.getShape(), type.getElementType(),
                                type.getLayout()));
  };
  fn.walk([&](Operation *op) {
    for (Value r : op->getResults())
      strip(r);
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument a : block.getArguments())
          strip(a);
  });
}

LogicalResult EmuLowering::convertKernel(gpu::GPUFuncOp kernel) {
  // As every target lowers them: a negative dynamic trip count runs as 0.
  lowering::clampDynamicTripCounts(kernel);
  // The race detector tags both kinds of LDS by byte offset from 0: a
  // kernel with both would have them alias (none does).
  bool usesDynamicLds = false;
  kernel.walk([&](gpu::DynamicSharedMemoryOp) { usesDynamicLds = true; });
  if (usesDynamicLds && kernel.getNumWorkgroupAttributions() > 0)
    return kernel.emitOpError(
        "has both workgroup attributions and dynamic LDS, which the "
        "emulator's race detector would watch at the same byte offsets");
  OpBuilder b(ctx);
  b.setInsertionPointToEnd(module.getBody());
  SmallVector<Type> args{ptr};
  llvm::append_range(args, kernel.getArgumentTypes());
  auto fn = func::FuncOp::create(b, kernel.getLoc(), kernel.getName(),
                                 FunctionType::get(ctx, args, {}));
  // The chip whose copy atoms the kernel's rows execute as; a kernel
  // without rows (hand-written schedules of bodiless copies) may name none,
  // and its waits then count groups.
  target = getEnclosingTarget(kernel);
  bool hasAtoms = false;
  kernel.walk(
      [&](Operation *op) { hasAtoms |= isa<CopyRowOp, CopyPieceOp>(op); });
  if (hasAtoms && !target)
    target = getEnclosingTargetOrEmit(kernel);
  if (hasAtoms && (!target || failed(checkCopyAtoms(kernel, *target))))
    return failure();
  // global_load_lds waits count the instructions of the schedule's groups:
  // count them while the rows are still there.
  if (target && target->copyAtom == CopyAtomKind::GlobalLoadLds) {
    WalkResult r = kernel.walk([&](ScheduleOp s) {
      FailureOr<int64_t> n = lowering::instructionsPerAsyncGroup(s, *target);
      if (failed(n))
        return WalkResult::interrupt();
      s.walk([&](AsyncWaitOp w) { waitUnits[w] = *n; });
      return WalkResult::advance();
    });
    if (r.wasInterrupted())
      return failure();
  }
  // Buffer symbols live beside the kernel; record what the LDS atoms need
  // before the body leaves its symbol table.
  kernel.walk([&](Operation *op) {
    auto sym = op->getAttrOfType<FlatSymbolRefAttr>("buffer");
    if (!sym)
      return;
    if (auto buf = SymbolTable::lookupNearestSymbolFrom<LdsBufferOp>(op, sym)) {
      Builder b(ctx);
      op->setAttr("kda.emu_lds", b.getDenseI64ArrayAttr(
                                     {int64_t(buf.getOffset()),
                                      int64_t(buf.getSlotBytes()),
                                      int64_t(buf.getSlots())}));
      op->setAttr("kda.emu_buffer", buf.getSymNameAttr());
    }
  });
  recordCopyRowArrays(kernel);
  fn.getBody().takeBody(kernel.getBody());
  SmallVector<WatchedAccess> watched;
  const SmallVector<Operation *> writers = ldsWriters(fn);
  if (failed(replaceAttributions(fn, kernel.getFunctionType().getNumInputs(),
                                 watched)))
    return failure();
  watchDynamicLdsViews(fn, watched);
  const bool unwatchedWrites = llvm::any_of(writers, [&](Operation *op) {
    return llvm::none_of(watched,
                         [&](const WatchedAccess &a) { return a.op == op; });
  });
  stripGpuAddressSpaces(fn);
  Value emuCtx = fn.getBody().front().insertArgument(0u, ptr, kernel.getLoc());
  if (unwatchedWrites) {
    OpBuilder b = OpBuilder::atBlockBegin(&fn.getBody().front());
    func::CallOp::create(b, kernel.getLoc(),
                         declare("kda_emu_lds_unwatched_writes", {ptr}, {}),
                         ValueRange{emuCtx});
  }
  // The tile layer (MmaToEmu.cpp): matrix atoms with the semantics of the
  // chip the target stands for, and dynamic LDS.
  std::optional<int64_t> dynamicLds = reservedDynamicLds(kernel);
  if (failed(lowerMmaToEmu(fn, emuCtx, getEnclosingTarget(kernel))) ||
      failed(lowerDynamicLdsToEmu(fn, emuCtx, dynamicLds.value_or(-1))))
    return failure();
  watchAccesses(watched, emuCtx);
  if (failed(rewriteBody(fn, emuCtx)))
    return failure();
  // kda-emu-entry adds the packed entry once the kernel is in LLVM form.
  fn->setAttr(kEmuKernelAttr, UnitAttr::get(ctx));
  return success();
}

LogicalResult EmuLowering::run() {
  SmallVector<gpu::GPUModuleOp> gpuModules(
      module.getOps<gpu::GPUModuleOp>());
  for (gpu::GPUModuleOp gm : gpuModules) {
    for (gpu::GPUFuncOp kernel :
         llvm::make_early_inc_range(gm.getOps<gpu::GPUFuncOp>()))
      if (failed(convertKernel(kernel)))
        return failure();
    gm.erase();
  }
  module->removeAttr(gpu::GPUDialect::getContainerModuleAttrName());
  // The buffers' facts now live in the calls.
  for (LdsBufferOp b : llvm::make_early_inc_range(module.getOps<LdsBufferOp>()))
    b.erase();
  return success();
}

struct KdaGpuToEmuPass : public kda::impl::KdaGpuToEmuBase<KdaGpuToEmuPass> {
  void runOnOperation() override {
    if (failed(EmuLowering(getOperation()).run()))
      signalPassFailure();
  }
};
} // namespace
