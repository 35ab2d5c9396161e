//===- KDAOps.cpp - kda operations ----------------------------------------===//
#include "kda/Dialect/KDA/KDAOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::kda;

#define GET_OP_CLASSES
#include "kda/Dialect/KDA/KDAOps.cpp.inc"

namespace {
/// Checks one op's operands against its layer. Each message names the operand,
/// the expected shape in the layer's terms and what was given, so a spec
/// author can fix it without reading the verifier.
class AttentionOperandChecker {
public:
  AttentionOperandChecker(Operation *op, LayerAttr layer)
      : op(op), layer(layer) {}

  static constexpr int64_t kAny = ShapedType::kDynamic;

  /// `dims` holds the expected size of each dimension, kAny where any size
  /// goes (token, batch and slot dims). Dims of the memref that are dynamic
  /// are accepted for any expected size.
  LogicalResult check(StringRef name, Value value, ArrayRef<int64_t> dims,
                      StringRef dimNames, ArrayRef<Type> elementTypes,
                      StringRef elementNames) {
    auto type = cast<MemRefType>(value.getType());
    if (type.getRank() != int64_t(dims.size()))
      return op->emitOpError() << name << " must be a rank-" << dims.size()
                               << " memref " << dimNames << ", got " << type;
    for (auto [i, want] : llvm::enumerate(dims)) {
      int64_t got = type.getDimSize(i);
      if (want != kAny && got != ShapedType::kDynamic && got != want)
        return op->emitOpError()
               << name << " must be " << dimNames << " = " << formatDims(dims)
               << ", got " << type << " (dimension " << i << " is " << got
               << ", expected " << want << ")";
    }
    // The kernels address every operand as dense rows (a slot's state at
    // slot x HV x K x V, kda.slot_stride for a pool inside a larger cache);
    // a strided or mapped layout would be read as if it were dense.
    if (type.getMemorySpace())
      return op->emitOpError()
             << name << " must be in the default (global) memory space: "
             << "the kernels take it as a pointer to device memory, got "
             << type;
    if (!type.getLayout().isIdentity())
      return op->emitOpError()
             << name << " must have the identity (dense row-major) layout: "
             << "the kernels read its rows at dense offsets, got " << type;
    if (!llvm::is_contained(elementTypes, type.getElementType()))
      return op->emitOpError() << name << " element type must be "
                               << elementNames << ", got "
                               << type.getElementType();
    return success();
  }

  /// Static sizes of one dimension across operands must agree.
  LogicalResult sameDim(StringRef what, ArrayRef<std::pair<StringRef, Value>> vs,
                        ArrayRef<int64_t> dimIndex) {
    int64_t seen = ShapedType::kDynamic;
    StringRef seenName;
    for (auto [i, nv] : llvm::enumerate(vs)) {
      auto type = cast<MemRefType>(nv.second.getType());
      int64_t d = type.getDimSize(dimIndex[i]);
      if (d == ShapedType::kDynamic)
        continue;
      if (seen != ShapedType::kDynamic && d != seen)
        return op->emitOpError()
               << what << " of " << nv.first << " (" << d << ") differs from "
               << seenName << " (" << seen << ")";
      seen = d;
      seenName = nv.first;
    }
    return success();
  }

private:
  static std::string formatDims(ArrayRef<int64_t> dims) {
    std::string s = "[";
    for (auto [i, d] : llvm::enumerate(dims)) {
      if (i)
        s += ", ";
      s += d == kAny ? "?" : std::to_string(d);
    }
    return s + "]";
  }

  Operation *op;
  LayerAttr layer;
};
} // namespace

template <typename OpT>
static LogicalResult verifyAttentionOp(OpT op) {
  LayerAttr layer = op.getLayer();
  MLIRContext *ctx = op.getContext();
  const int64_t H = layer.getHeads(), HV = layer.getValueHeads(),
                K = layer.getHeadK(), V = layer.getHeadV();
  const int64_t any = AttentionOperandChecker::kAny;
  Type act = layer.getActType();
  std::string actName;
  llvm::raw_string_ostream(actName) << "the layer's activation type " << act;
  Type f32 = Float32Type::get(ctx), i32 = IntegerType::get(ctx, 32),
       i1 = IntegerType::get(ctx, 1);
  AttentionOperandChecker c(op, layer);

  if (failed(c.check("q", op.getQ(), {any, H, K}, "[T, heads, head_k]", {act},
                     actName)) ||
      failed(c.check("k", op.getK(), {any, H, K}, "[T, heads, head_k]", {act},
                     actName)) ||
      failed(c.check("v", op.getV(), {any, HV, V}, "[T, value_heads, head_v]",
                     {act}, actName)) ||
      failed(c.check("g", op.getG(), {any, HV, K}, "[T, value_heads, head_k]",
                     {act, f32}, actName + " or f32")) ||
      failed(c.check("beta", op.getBeta(), {any, HV}, "[T, value_heads]",
                     {act, f32}, actName + " or f32")) ||
      failed(c.check("out", op.getO(), {any, HV, V}, "[T, value_heads, head_v]",
                     {act}, actName)))
    return failure();

  // The token dimension is shared by every activation.
  if (failed(c.sameDim("token count",
                       {{"q", op.getQ()},
                        {"k", op.getK()},
                        {"v", op.getV()},
                        {"g", op.getG()},
                        {"beta", op.getBeta()},
                        {"out", op.getO()}},
                       {0, 0, 0, 0, 0, 0})))
    return failure();

  // Gate parameters: softplus needs A_log; 'none' takes neither parameter.
  GateKind gate = layer.getGate();
  if (gate == GateKind::Softplus && !op.getALog())
    return op.emitOpError() << "the softplus gate needs an a_log operand";
  if (gate == GateKind::None && (op.getALog() || op.getDtBias()))
    return op.emitOpError()
           << "gate 'none' takes no a_log or dt_bias (g is already the log "
              "decay)";
  if (op.getALog() &&
      failed(c.check("a_log", op.getALog(), {HV}, "[value_heads]", {f32},
                     "f32")))
    return failure();
  if (op.getDtBias() &&
      failed(c.check("dt_bias", op.getDtBias(), {HV * K},
                     "[value_heads * head_k]", {f32}, "f32")))
    return failure();

  // Batch descriptors.
  if (failed(c.check("cu_seqlens", op.getCuSeqlens(), {any}, "[N + 1]", {i32},
                     "i32")) ||
      failed(c.check("slots", op.getSlots(), {any}, "[N]", {i32}, "i32")) ||
      failed(c.check("has_initial_state", op.getHasInitialState(), {any},
                     "[N]", {i1}, "i1")))
    return failure();
  int64_t cu = cast<MemRefType>(op.getCuSeqlens().getType()).getDimSize(0);
  if (cu == 0)
    return op.emitOpError() << "cu_seqlens must hold N + 1 >= 1 entries";
  int64_t n = cu == ShapedType::kDynamic ? ShapedType::kDynamic : cu - 1;
  for (auto [name, v] :
       {std::pair<StringRef, Value>{"slots", op.getSlots()},
        {"has_initial_state", op.getHasInitialState()}}) {
    int64_t d = cast<MemRefType>(v.getType()).getDimSize(0);
    if (n != ShapedType::kDynamic && d != ShapedType::kDynamic && d != n)
      return op.emitOpError() << name << " holds " << d
                              << " entries but cu_seqlens describes " << n
                              << " sequences";
  }

  // The state pool, in the layer's layout and dtype.
  bool vk = layer.getStateLayout() == StateLayout::VK;
  if (failed(c.check("state", op.getState(),
                     {any, HV, vk ? V : K, vk ? K : V},
                     vk ? "[slots, value_heads, head_v, head_k] (layout vk)"
                        : "[slots, value_heads, head_k, head_v] (layout kv)",
                     {layer.getStateType()},
                     "the layer's state type")))
    return failure();

  if (std::optional<ConfigAttr> cfg = op.getConfig()) {
    if (cfg->getBlockK() > K || cfg->getBlockV() > V)
      return op.emitOpError() << "config blocks (block_k = "
                              << cfg->getBlockK() << ", block_v = "
                              << cfg->getBlockV()
                              << ") exceed the head dims (" << K << ", " << V
                              << ")";
  }
  return success();
}

LogicalResult RecurrentOp::verify() { return verifyAttentionOp(*this); }

/// Absent: the target's default (kda-lower-to-gpu chooses it).
static LogicalResult verifyChunkSize(Operation *op, IntegerAttr size) {
  if (!size)
    return success();
  const int64_t c = size.getInt();
  if (c != 16 && c != 32 && c != 64)
    return op->emitOpError() << "chunk_size must be 16, 32 or 64, got " << c;
  return success();
}

/// The scan's row pipeline depths the tuner enumerates and the hazard model
/// proves (PIPELINE-SAFETY.md): 1..4, like every pipeline of the project.
static LogicalResult verifyScanStages(Operation *op,
                                      std::optional<int64_t> stages) {
  if (stages && (*stages < 1 || *stages > 4))
    return op->emitOpError()
           << "scan_stages must be 1..4 (the depths of the scan's row "
              "pipeline the verifier proves and the tuner enumerates), got "
           << *stages;
  return success();
}

/// A #kda.config describes the recurrent kernel (lanes, waves, column
/// blocks, passes); the chunk kernels are shaped by chunk_size,
/// scan_stages and scan_block_v alone. Accepting one and ignoring it would let
/// a caller believe it chose something.
template <typename ChunkLikeOp>
static LogicalResult verifyNoConfig(ChunkLikeOp op) {
  if (op.getConfig())
    return op.emitOpError()
           << "takes no #kda.config (it describes the recurrent kernel); the "
              "chunk kernels are shaped by chunk_size, scan_stages and "
              "scan_block_v";
  return success();
}

/// A scan's state column block: whole 16-column blocks of head_v (the
/// chunk kernels' tile), dividing it, so every workgroup holds a full one.
/// The chunk kernels tile both head dims by 16 (the k and n of every atom
/// they take, and the sub-chunk of the intra-chunk products); other dims
/// are refused on the op, for every target, instead of when a kernel is
/// built. Such a layer's prefills run on the recurrent kernel.
static LogicalResult verifyChunkHeadDims(Operation *op, LayerAttr layer) {
  constexpr int64_t kTile = 16;
  if (layer.getHeadK() % kTile == 0 && layer.getHeadV() % kTile == 0)
    return success();
  return op->emitOpError()
         << "the chunk kernels tile head_k and head_v by " << kTile
         << "; head_k = " << layer.getHeadK()
         << ", head_v = " << layer.getHeadV()
         << " (leave kda.chunk out: kda_forward without a chunk kernel "
            "takes every row of the layer to the recurrent kernel)";
}

static LogicalResult verifyBlockV(Operation *op, LayerAttr layer,
                                  int64_t blockV, StringRef attr) {
  if (blockV < 16 || blockV % 16 || layer.getHeadV() % blockV)
    return op->emitOpError()
           << attr << " " << blockV
           << " must be a multiple of 16 that divides head_v ("
           << layer.getHeadV() << ")";
  return success();
}

/// A scan split within a sequence (segment_chunks): segments of at least
/// two chunks (the workspace keys each segment by its first token over
/// (segment_chunks - 1) chunks of rows), the register scan's depth 1, and
/// qk_l2norm, under which each chunk's map of the state is a contraction
/// (docs/split-scan.md): without it a composed map could amplify what the
/// serial scan rounds.
static LogicalResult verifySegmentChunks(Operation *op, LayerAttr layer,
                                         std::optional<int64_t> chunks,
                                         std::optional<int64_t> scanStages) {
  if (!chunks || *chunks == 0)
    return success();
  if (*chunks < 2 || *chunks > 4096)
    return op->emitOpError() << "segment_chunks " << *chunks
                             << " must be 0 (no split) or 2..4096";
  if (!layer.getQkL2norm())
    return op->emitOpError()
           << "segment_chunks " << *chunks
           << " needs qk_l2norm (a segment's composed map of the state is a "
              "contraction only with normalised keys)";
  if (scanStages.value_or(1) > 1)
    return op->emitOpError() << "segment_chunks " << *chunks
                             << " needs scan_stages 1 (the segments run the "
                                "register scan); scan_stages is "
                             << *scanStages;
  return success();
}

LogicalResult ChunkOp::verify() {
  if (failed(verifyChunkHeadDims(*this, getLayer())))
    return failure();
  if (failed(verifySegmentChunks(*this, getLayer(), getSegmentChunks(),
                                 getScanStages())))
    return failure();
  if (std::optional<ArrayRef<int64_t>> blocks = getScanBlockV()) {
    if (blocks->empty())
      return emitOpError("scan_block_v lists no block (leave it out for the "
                         "default blocks)");
    for (auto [i, bv] : llvm::enumerate(*blocks)) {
      if (failed(verifyBlockV(*this, getLayer(), bv, "scan_block_v entry")))
        return failure();
      if (i && bv <= (*blocks)[i - 1])
        return emitOpError() << "scan_block_v must be strictly ascending; "
                             << bv << " follows " << (*blocks)[i - 1];
    }
  }
  if (failed(verifyChunkSize(*this, getChunkSizeAttr())) ||
      failed(verifyScanStages(*this, getScanStages())) ||
      failed(verifyNoConfig(*this)))
    return failure();
  return verifyAttentionOp(*this);
}

int64_t ChunkOp::getSegmentChunksOrDefault() {
  if (std::optional<int64_t> chunks = getSegmentChunks())
    return *chunks;
  return getLayer().getQkL2norm() && getScanStages().value_or(1) <= 1
             ? kDefaultSegmentChunks
             : 0;
}

SmallVector<int64_t> ChunkOp::getScanBlocks() {
  if (std::optional<ArrayRef<int64_t>> listed = getScanBlockV())
    return SmallVector<int64_t>(*listed);
  SmallVector<int64_t> blocks;
  for (int64_t bv : {16, 32, 64})
    if (getLayer().getHeadV() % bv == 0)
      blocks.push_back(bv);
  return blocks;
}

LogicalResult ChunkStageOp::verify() {
  if (failed(verifyChunkHeadDims(*this, getLayer())))
    return failure();
  if (failed(verifySegmentChunks(*this, getLayer(), getSegmentChunks(),
                                 getScanStages())))
    return failure();
  const ChunkStage stage = getStage();
  const bool segmented = stage == ChunkStage::Maps ||
                         stage == ChunkStage::Join ||
                         stage == ChunkStage::Segments;
  if (segmented && getSegmentChunks().value_or(0) == 0)
    return emitOpError() << "stage " << stringifyChunkStage(stage)
                         << " splits the scan within a sequence; it needs "
                            "segment_chunks";
  // The maps' column blocks each lie in M or in B ([M | B] is K + V
  // columns), so their block divides head_k too; the join's is its 16.
  std::optional<int64_t> bv = getBlockV();
  if ((stage == ChunkStage::Maps || stage == ChunkStage::Segments) && bv &&
      getLayer().getHeadK() % *bv)
    return emitOpError() << "block_v " << *bv << " of stage "
                         << stringifyChunkStage(stage)
                         << " must divide head_k (" << getLayer().getHeadK()
                         << ") too: a maps block lies in M or in B";
  if (stage == ChunkStage::Join && bv.value_or(16) != 16)
    return emitOpError() << "the join takes 16 columns a workgroup; block_v "
                         << *bv;
  if (bv) {
    if (stage == ChunkStage::Prep)
      return emitOpError("block_v shapes the scan; the prep takes none");
    if (failed(verifyBlockV(*this, getLayer(), *bv, "block_v")))
      return failure();
  }
  if (failed(verifyChunkSize(*this, getChunkSizeAttr())) ||
      failed(verifyScanStages(*this, getScanStages())) ||
      failed(verifyNoConfig(*this)))
    return failure();
  return verifyAttentionOp(*this);
}

//===----------------------------------------------------------------------===//
// Pipelines
//===----------------------------------------------------------------------===//

// The slot lies in [0, slots): the lowerings take iter mod slots unsigned.
// Where `iter` is known to lie in [0, slots) already, it is its own slot.
// An unknown buffer (or one of no valid slot count) bounds nothing.
void RingSlotOp::inferResultRanges(ArrayRef<ConstantIntRanges> args,
                                   SetIntRangeFn setResultRange) {
  const unsigned width = IndexType::kInternalStorageBitWidth;
  auto buffer =
      SymbolTable::lookupNearestSymbolFrom<LdsBufferOp>(*this, getBufferAttr());
  const int64_t slots = buffer ? buffer.getSlotsAttr().getInt() : 0;
  if (slots <= 0)
    return setResultRange(getSlot(), ConstantIntRanges::maxRange(width));
  const ConstantIntRanges &iter = args[0];
  if (!iter.smin().isNegative() && iter.smax().slt(slots))
    return setResultRange(getSlot(), iter);
  setResultRange(getSlot(), ConstantIntRanges::fromSigned(
                                APInt(width, 0), APInt(width, slots - 1)));
}

// I64Attr's getters return uint64_t, so a negative value written in the IR
// reads as a huge positive one there: the checks below read the attributes'
// signed values.
LogicalResult LdsBufferOp::verify() {
  const int64_t slots = getSlotsAttr().getInt(),
                bytes = getSlotBytesAttr().getInt(),
                offset = getOffsetAttr().getInt();
  if (slots < 1)
    return emitOpError() << "needs at least one slot, got " << slots;
  if (bytes < 1 || offset < 0)
    return emitOpError() << "needs positive slot_bytes and a non-negative "
                            "offset, got slot_bytes "
                         << bytes << " and offset " << offset;
  int64_t size = 0, end = 0;
  if (llvm::MulOverflow(slots, bytes, size) ||
      llvm::AddOverflow(offset, size, end))
    return emitOpError() << "extent offset + slots x slot_bytes (" << offset
                         << " + " << slots << " x " << bytes
                         << ") overflows 64 bits";
  return success();
}

LogicalResult ScheduleOp::verify() {
  const int64_t depth = getDepthAttr().getInt();
  if (depth < 1 || depth > 8)
    return emitOpError() << "depth must be in [1, 8], got " << depth;
  if (getTripCountAttr() && getDynamicTripCount())
    return emitOpError("takes trip_count or dynamic_trip_count, not both");
  if (getTripCountAttr() && getTripCountAttr().getInt() < 0)
    return emitOpError() << "trip_count must be non-negative, got "
                         << getTripCountAttr().getInt();
  // The hazard rules checked are the named target's (its waits, barriers,
  // sink slot, LDS); the lowerings follow the enclosing module's target.
  if (const TargetInfo *t = getEnclosingTarget(*this);
      t && t->name != getTarget())
    return emitOpError() << "is checked for target '" << getTarget()
                         << "' but its module is compiled for '" << t->name
                         << "' (kda.target): the two must agree, or the "
                            "schedule is proven safe on one chip and run on "
                            "another";
  return success();
}

/// A copy's or read's body is the event's own work (copy rows, the
/// consumer's computation); the schedule's events - copies, reads, waits,
/// drains, barriers - nest in the schedule, never in one another's bodies,
/// where neither the verifier's model nor the lowerings place them.
static LogicalResult verifyEventBody(Operation *event) {
  Operation *nested = nullptr;
  event->walk([&](Operation *op) {
    if (op != event && isa<AsyncCopyOp, StagedCopyOp, LdsReadOp, AsyncWaitOp,
                           LdsDrainOp, BarrierOp, LdsBarrierOp, ScheduleOp,
                           PipelineOp, ProduceOp, ConsumeOp>(op)) {
      nested = op;
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  if (!nested)
    return success();
  return event->emitOpError()
         << "holds " << nested->getName()
         << " in its body: schedule events (copies, reads, waits, drains, "
            "barriers) belong to the schedule, not to another event's body";
}

LogicalResult AsyncCopyOp::verify() { return verifyEventBody(*this); }
LogicalResult StagedCopyOp::verify() { return verifyEventBody(*this); }
LogicalResult LdsReadOp::verify() { return verifyEventBody(*this); }
LogicalResult ProduceOp::verify() { return verifyEventBody(*this); }
LogicalResult ConsumeOp::verify() { return verifyEventBody(*this); }

LogicalResult AsyncWaitOp::verify() {
  if (getCountAttr().getInt() < 0)
    return emitOpError() << "count must be non-negative, got "
                         << getCountAttr().getInt();
  return success();
}

LogicalResult PipelineOp::verify() {
  const int64_t depth = getDepthAttr().getInt();
  if (depth < 1 || depth > 8)
    return emitOpError() << "depth must be in [1, 8], got " << depth;
  if (bool(getTripCountAttr()) == bool(getDynamicTripCount()))
    return emitOpError("needs exactly one of trip_count and dynamic_trip_count");
  if (getTripCountAttr() && getTripCountAttr().getInt() < 0)
    return emitOpError() << "trip_count must be non-negative, got "
                         << getTripCountAttr().getInt();
  bool producer = false, consumer = false;
  for (Operation &op : getBody().front()) {
    producer |= isa<ProduceOp>(op);
    consumer |= isa<ConsumeOp>(op);
  }
  if (!producer || !consumer)
    return emitOpError("needs at least one kda.produce and one kda.consume");
  return success();
}

/// A produce/consume body is the copy or computation of one iteration: one
/// block taking (iteration, slot), both index.
static LogicalResult verifyIterationBody(Operation *op, Region &body) {
  if (body.empty())
    return success();
  Block &block = body.front();
  if (!body.hasOneBlock() || block.getNumArguments() != 2 ||
      !llvm::all_of(block.getArgumentTypes(),
                    [](Type t) { return t.isIndex(); }))
    return op->emitOpError("body must be one block taking (%iter: index, "
                           "%slot: index)");
  return success();
}

LogicalResult ProduceOp::verifyRegions() {
  return verifyIterationBody(*this, getBody());
}

LogicalResult ConsumeOp::verifyRegions() {
  return verifyIterationBody(*this, getBody());
}

// The rows of copy_row and prefetch_row: integer or float elements (whose
// bit width is their size), a positive multiple of 16 bytes.
static int64_t rowBytesOf(Value src, int64_t elems) {
  return elems * cast<MemRefType>(src.getType()).getElementTypeBitWidth() / 8;
}

static LogicalResult verifyRowElements(Operation *op, Value src,
                                       StringRef verb) {
  Type elem = cast<MemRefType>(src.getType()).getElementType();
  if (!elem.isIntOrFloat())
    return op->emitOpError()
           << verb << " integer or float elements, got " << elem;
  return success();
}

static LogicalResult verifyRowBytes(Operation *op, Value src, int64_t elems,
                                    StringRef why) {
  auto type = cast<MemRefType>(src.getType());
  if (elems <= 0 || type.getElementTypeBitWidth() % 8 != 0 ||
      rowBytesOf(src, elems) % 16 != 0)
    return op->emitOpError("row of ")
           << elems << " x " << type.getElementType()
           << " is not a positive multiple of 16 bytes (" << why << ")";
  return success();
}

int64_t CopyRowOp::getRowBytes() { return rowBytesOf(getSrc(), getElems()); }

int64_t PrefetchRowOp::getRowBytes() {
  return rowBytesOf(getSrc(), getElems());
}

LogicalResult PrefetchRowOp::verify() {
  auto src = cast<MemRefType>(getSrc().getType());
  if (failed(verifyRowElements(*this, getSrc(), "prefetches")))
    return failure();
  if (src.getRank() != 1 || !src.getLayout().isIdentity())
    return emitOpError("prefetches from a flat (rank-1, identity layout) "
                       "memref, got ")
           << src;
  auto space = dyn_cast_or_null<gpu::AddressSpaceAttr>(src.getMemorySpace());
  if (src.getMemorySpace() &&
      (!space || space.getValue() != gpu::AddressSpace::Global))
    return emitOpError("prefetches from global memory, got ") << src;
  return verifyRowBytes(*this, getSrc(), getElems(),
                        "the L2 prefetch takes 16-byte multiples");
}

int64_t CopyPieceOp::getPieceElems() {
  return 128 / cast<MemRefType>(getSrc().getType()).getElementTypeBitWidth();
}

/// What every copy atom asks of its ends: flat memrefs, integer or float
/// elements.
static LogicalResult verifyFlatCopy(Operation *op, Value src, Value lds) {
  if (cast<MemRefType>(src.getType()).getRank() != 1 ||
      cast<MemRefType>(lds.getType()).getRank() != 1)
    return op->emitOpError("copies between flat (rank-1) memrefs");
  // The atoms read global memory (cp.async and global_load_lds take
  // nothing else); an LDS source would also be a read of LDS that the
  // pipeline model, which tracks only what a copy writes, never orders.
  auto srcType = cast<MemRefType>(src.getType());
  if (gpu::GPUDialect::hasWorkgroupMemoryAddressSpace(srcType))
    return op->emitOpError("source must not be workgroup memory (LDS), got ")
           << srcType;
  return verifyRowElements(op, src, "copies");
}

LogicalResult CopyPieceOp::verify() {
  auto src = cast<MemRefType>(getSrc().getType());
  auto lds = cast<MemRefType>(getLds().getType());
  if (failed(verifyFlatCopy(*this, getSrc(), getLds())))
    return failure();
  const unsigned bits = src.getElementTypeBitWidth();
  if (bits % 8 != 0 || 128 % bits != 0)
    return emitOpError("a 16-byte piece is a whole number of ")
           << src.getElementType() << " elements only for 8-, 16-, 32-, 64- "
           << "and 128-bit elements";
  if (lds.getElementType() != src.getElementType())
    return emitOpError("copies ")
           << src.getElementType() << " into an array of "
           << lds.getElementType() << " (one element type at both ends)";
  auto space = dyn_cast_or_null<gpu::AddressSpaceAttr>(lds.getMemorySpace());
  if (!space || space.getValue() != gpu::AddressSpace::Workgroup)
    return emitOpError("destination must be workgroup memory, got ") << lds;
  if (getAtom() == CopyAtom::GlobalLoadLds)
    return emitOpError("global_load_lds is a wave's instruction into one "
                       "contiguous region, not a per-thread piece: use "
                       "staged or cp_async");
  if (lds.hasStaticShape() && lds.getNumElements() < getPieceElems())
    return emitOpError("the array of ")
           << lds.getNumElements() << " elements cannot hold a piece of "
           << getPieceElems();
  return success();
}

LogicalResult CopyRowOp::verify() {
  auto lds = cast<MemRefType>(getLds().getType());
  if (failed(verifyFlatCopy(*this, getSrc(), getLds())))
    return failure();
  auto space = dyn_cast_or_null<gpu::AddressSpaceAttr>(lds.getMemorySpace());
  if (!space || space.getValue() != gpu::AddressSpace::Workgroup ||
      !lds.getElementType().isInteger(8))
    return emitOpError("destination must be workgroup memory of bytes (i8), "
                       "got ")
           << lds;
  // A row's atom is its copy's kind: a staged copy lands at its stores
  // and an async one at a wait, and the model (and the lowering's waits)
  // take each row to land like its copy.
  if (std::optional<CopyAtom> atom = getAtom()) {
    const bool staged = *atom == CopyAtom::Staged;
    if (staged && (*this)->getParentOfType<AsyncCopyOp>())
      return emitOpError("a row of kda.async_copy takes an asynchronous "
                         "atom, not staged");
    if (!staged && (*this)->getParentOfType<StagedCopyOp>())
      return emitOpError("a row of kda.staged_copy takes the staged atom, "
                         "not ")
             << stringifyCopyAtom(*atom);
  }
  return verifyRowBytes(*this, getSrc(), getElems(),
                        "copy atoms move 16-byte pieces");
}

//===----------------------------------------------------------------------===//
// One layer a function
//===----------------------------------------------------------------------===//

InFlightDiagnostic mlir::kda::emitLayerError(Operation *op) {
  auto fused = dyn_cast<FusedLoc>(op->getLoc());
  auto origin =
      fused ? dyn_cast_or_null<StringAttr>(fused.getMetadata()) : StringAttr();
  if (origin && origin.getValue() == kChunkOrigin)
    return mlir::emitError(op->getLoc()) << "'" << kChunkOrigin << "' op ";
  return op->emitOpError();
}

bool mlir::kda::isLayerOp(Operation *op) {
  if (isa<RecurrentOp, ChunkOp>(op))
    return true;
  auto stage = dyn_cast<ChunkStageOp>(op);
  return stage && stage.getStage() == ChunkStage::Prep;
}

LogicalResult mlir::kda::verifyOneLayerPerFunction(Operation *root) {
  llvm::DenseMap<Operation *, Operation *> firstOf;
  WalkResult r = root->walk([&](Operation *op) {
    if (!isLayerOp(op))
      return WalkResult::advance();
    auto fn = op->getParentOfType<FunctionOpInterface>();
    if (!fn)
      return WalkResult::advance();
    auto [it, first] = firstOf.try_emplace(fn, op);
    if (first)
      return WalkResult::advance();
    InFlightDiagnostic diag =
        emitLayerError(op)
        << "is a second layer in function @" << fn.getName()
        << ": a function is one layer (its kernels and manifest entries take "
           "the function's name; its chunk size and scan choice are decided "
           "once)";
    diag.attachNote(it->second->getLoc()) << "the first";
    return WalkResult::interrupt();
  });
  return failure(r.wasInterrupted());
}
