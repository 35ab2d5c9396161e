//===- RecurrentKernelBuilder.cpp - the decode kernel ---------------------===//
//
// Per token t of the workgroup's sequence, each lane does, for its k-run
// (S' = exp(g) * S, the decayed state):
//   k.q, |q|^2 and |k|^2 (l2norm): sums over the column's lanes
//   k, q scaled by their norms' factors (q also by `scale`)
//   S'^T k and S'^T q per column: sums over the column's lanes
//   (with k split over waves, all five sums at once, scaled afterwards)
//   r    =  beta * (v - S'^T k)
//   o    =  S'^T q + (k.q) r                  (= S_new^T q)
//   S    <- S' + k r^T
// All math in f32; activations are widened on load and narrowed on store.
//
//===----------------------------------------------------------------------===//
#include "kda/Passes/RecurrentKernelBuilder.h"
#include "kda/Passes/KdaMath.h"
#include "kda/Passes/KernelAbi.h"
#include "kda/Passes/LdsHandoffs.h"
#include "kda/Passes/PipelineExpansion.h"
#include "kda/Passes/PipelineHazards.h"
#include "kda/Passes/TileLayer.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

#include <numeric>

using namespace mlir;
using namespace mlir::kda;

//===----------------------------------------------------------------------===//
// Schedule
//===----------------------------------------------------------------------===//

rules::LayerFacts mlir::kda::recurrentLayerFacts(LayerAttr layer) {
  return {unsigned(layer.getHeadK()), unsigned(layer.getHeadV()),
          layer.getStateType().getIntOrFloatBitWidth() / 8,
          layer.getStateLayout() == StateLayout::VK};
}

rules::ConfigValues mlir::kda::configValues(ConfigAttr c) {
  return {c.getBlockK(),  c.getBlockV(), c.getBlockT(),     c.getWarps(),
          c.getStages(),  c.getLanesK(), c.getLdsStages(),  c.getWavesK(),
          c.getVPasses(), c.getMma(),    c.getSharedTerms()};
}

rules::TargetFacts mlir::kda::targetFacts(const TargetInfo &t) {
  rules::TargetFacts f{t.name.str(), t.waveSize, t.maxWorkgroupSize,
                       t.staticLdsBytes};
  if (std::optional<DecodeMmaAtom> d = decodeMmaAtom(t)) {
    f.mmaN = d->atom->n;
    f.mmaK = d->atom->k;
  }
  return f;
}

std::optional<DecodeMmaAtom> mlir::kda::decodeMmaAtom(const TargetInfo &t) {
  const MmaAtom *best = nullptr;
  for (const MmaAtom *a : mmaAtomsOf(t.chip))
    if (a->m == 16 && a->ab == ScalarKind::BF16 && a->acc == ScalarKind::F32 &&
        a->waveSize == t.waveSize && (!best || a->k > best->k))
      best = a;
  if (!best)
    return std::nullopt;
  const FragmentLayout &B = best->b;
  DecodeMmaAtom d{best, 0, 0};
  // The lane part of each lane's k (element 0) and the element part of each
  // element (the same on every lane), their n the lane's alone.
  for (unsigned l = 0; l < t.waveSize; ++l) {
    const unsigned k0 = B.rowOf(l, 0);
    d.laneMask |= k0;
    for (unsigned e = 0; e < B.elems; ++e) {
      const unsigned part = B.rowOf(l, e) - k0;
      if (B.colOf(l, e) != B.colOf(l, 0) || B.rowOf(l, e) < k0 ||
          part != B.rowOf(0, e) - B.rowOf(0, 0))
        return std::nullopt;
      d.elemMask |= part;
    }
  }
  // Disjoint bits covering the k step; the element parts count 0, 1, ...
  auto pext = [](unsigned x, unsigned mask) {
    unsigned v = 0, i = 0;
    for (unsigned bit = 0; bit < 32; ++bit)
      if (mask >> bit & 1)
        v |= (x >> bit & 1) << i++;
    return v;
  };
  if ((d.laneMask & d.elemMask) || (d.laneMask | d.elemMask) != best->k - 1 ||
      (1u << llvm::popcount(d.elemMask)) != B.elems)
    return std::nullopt;
  for (unsigned e = 0; e < B.elems; ++e)
    if (pext(B.rowOf(0, e) - B.rowOf(0, 0), d.elemMask) != e)
      return std::nullopt;
  auto usedRow = [&](const FragmentLayout &L, unsigned e) {
    for (unsigned l = 0; l < t.waveSize; ++l)
      if (L.rowOf(l, e) < 2)
        return true;
    return false;
  };
  const FragmentLayout &A = best->a;
  int liveA = -1;
  for (unsigned e = 0; e < A.elems; ++e) {
    d.aFromB.push_back(-1);
    if (!usedRow(A, e))
      continue;
    for (unsigned eb = 0; eb < B.elems && d.aFromB.back() < 0; ++eb) {
      bool same = true;
      for (unsigned l = 0; l < t.waveSize && same; ++l)
        same = A.colOf(l, e) == B.rowOf(l, eb) &&
               (liveA < 0 || A.rowOf(l, e) == A.rowOf(l, liveA));
      if (same)
        d.aFromB.back() = eb;
    }
    if (d.aFromB.back() < 0)
      return std::nullopt;
    liveA = e;
  }
  for (unsigned e = 0; e < best->c.elems; ++e)
    d.cUsed.push_back(usedRow(best->c, e));
  return d;
}

ConfigAttr mlir::kda::configAttr(MLIRContext *ctx,
                                 const rules::ConfigValues &c) {
  return ConfigAttr::get(ctx, c.blockK, c.blockV, c.blockT, c.warps, c.stages,
                         c.lanesK, c.ldsStages, c.wavesK, c.vPasses, c.mma,
                         c.sharedTerms);
}

// State accesses of 16 bytes per lane. vk: a lane's k-run of a column is
// 16 bytes (f32: 4 k, so 32 lanes per K = 128 column; bf16: 8 k, 16 lanes).
// kv: a lane's k-row covers 16 bytes of adjacent columns (f32: 4, bf16: 8),
// and 2 lanes per such column keep the lane's tile at 64 elements for K = 128.
static unsigned stateBytes(LayerAttr layer) {
  return layer.getStateType().getIntOrFloatBitWidth() / 8;
}
static unsigned defaultColsPerLane(LayerAttr layer) {
  return layer.getStateLayout() == StateLayout::VK ? 4
                                                   : 16 / stateBytes(layer);
}
// A head_k that is not a power of two keeps 16-byte runs where it can: the
// most lanes (up to the power-of-two ideal) whose run ceil(K / lanes) starts
// 16-byte aligned in a vk pool (K = 60, f32: 16 lanes of 4 k, the last lane
// masked; K = 96: 8 lanes of 12); failing that, the ideal count with its
// tail masked.
static unsigned defaultLanesK(LayerAttr layer, const TargetInfo &t) {
  const unsigned K = layer.getHeadK(), sb = stateBytes(layer);
  const bool vk = layer.getStateLayout() == StateLayout::VK;
  unsigned lanes = vk ? std::max(1u, (K * sb + 15) / 16)
                      : 2 * defaultColsPerLane(layer);
  lanes = std::min(unsigned(llvm::PowerOf2Ceil(lanes)), t.waveSize);
  while (lanes > K)
    lanes /= 2;
  if (vk) {
    for (unsigned l = lanes; l >= 1; l /= 2) {
      unsigned run = (K + l - 1) / l;
      unsigned widest = std::min(16u, 1u << llvm::Log2_32(run * sb));
      if (rules::accessAlignment(sb, std::gcd(K, run)) == widest) {
        lanes = l;
        break;
      }
    }
  }
  // Every lane of a wave must own a column: columns per wave <= V.
  return std::max(lanes, rules::fewestLanes(t.waveSize, layer.getHeadV()));
}

// Measured on the H200 (sm_90, H = 32, K = V = 128, N = 128; README): 4
// columns per lane beat one column per lane by 2x (vk: 138-142 us against
// 298) - the q/k norms and gates are shared by the lane's columns and each
// lane keeps more loads in flight. Splitting k over waves (waves_k) was
// slower for both layouts (kv 200-313 us), so no default uses it.
ConfigAttr mlir::kda::defaultRecurrentConfig(LayerAttr layer,
                                             const TargetInfo &t) {
  const unsigned V = layer.getHeadV();
  unsigned lanesK = defaultLanesK(layer, t);
  // On wave 32 (sm_90, H = 32, N = 128; test/device/decode-sweep.mlir,
  // 2026-11-30): vk in 64-thread workgroups 137-138 us against 142 for 128;
  // f32 kv with 8 adjacent columns per lane (32-byte row pieces) in one-wave
  // workgroups 149.8 us, against 153.0-153.8 with two waves and 160-162 with
  // 4 columns per lane. AMD keeps 128 threads and 16-byte pieces until
  // measured there.
  const bool wave32 = t.waveSize == 32;
  const bool kv = layer.getStateLayout() == StateLayout::KV;
  unsigned threads = wave32 ? 64 : 128;
  unsigned colsWanted = defaultColsPerLane(layer);
  if (kv && wave32 && stateBytes(layer) == 4) {
    colsWanted = 8;
    threads = 32;
  } else if (kv) {
    threads = 128;
  }
  unsigned warps = std::max(1u, threads / t.waveSize);
  while (warps > 1 && warps * t.waveSize / lanesK > V)
    warps /= 2;
  unsigned gridCols = warps * t.waveSize / lanesK;
  unsigned cols = colsWanted;
  while (cols > 1 && gridCols * cols > V)
    cols /= 2;
  return ConfigAttr::get(layer.getContext(), /*block_k=*/layer.getHeadK(),
                         /*block_v=*/gridCols * cols, /*block_t=*/1, warps,
                         /*stages=*/1, lanesK, /*lds_stages=*/0,
                         /*waves_k=*/1, /*v_passes=*/1, /*mma=*/0,
                         /*shared_terms=*/0);
}

LogicalResult mlir::kda::deriveRecurrentSchedule(LayerAttr layer,
                                                 ConfigAttr config,
                                                 const TargetInfo &t,
                                                 RecurrentSchedule &s,
                                                 std::string &reason) {
  reason = rules::deriveRecurrentPlan(
      recurrentLayerFacts(layer), configValues(config), targetFacts(t), s);
  return success(reason.empty());
}

//===----------------------------------------------------------------------===//
// Row variants: speculative rows, the padding convention, the slot stride
//===----------------------------------------------------------------------===//
//
// Discardable attributes of kda.recurrent, each selecting a kernel variant
// an engine compiles for (as a Triton kernel's constexprs would):
//   kda.spec_tokens = S (2..16): speculative decode (vLLM's num_spec + 1).
//     slots is [N, S]; a row of 1..S tokens starts from the state in
//     slots[n, num_accepted_tokens[n] - 1] and writes the state after its
//     token i to slots[n, i]; the ABI gains num_accepted_tokens [N] i32.
//   kda.padding = "nonpositive" (slot <= 0 pads, vLLM's NULL_BLOCK_ID 0;
//     the default) or "negative" (slot < 0 pads, slot 0 is a real slot).
//   kda.slot_stride = elements from one slot to the next (default HV*K*V;
//     a pool that is a view into a larger per-slot cache).
// The kernel records them (kda.spec_tokens, kda.padding_below,
// kda.slot_stride) for the manifest; the runtime checks calls against them.

namespace {
struct RowVariant {
  int64_t specTokens = 1;   // slots per row
  int64_t paddingBelow = 1; // slot < paddingBelow is padding
  int64_t slotStride = 0;   // elements
  bool speculative() const { return specTokens > 1; }
};
} // namespace

static FailureOr<RowVariant> rowVariantOf(RecurrentOp op,
                                          const RecurrentSchedule &s) {
  LayerAttr l = op.getLayer();
  RowVariant rv;
  rv.slotStride = int64_t(l.getValueHeads()) * l.getHeadK() * l.getHeadV();
  Operation *o = op.getOperation();
  if (Attribute a = o->getAttr("kda.spec_tokens")) {
    auto n = dyn_cast<IntegerAttr>(a);
    if (!n || n.getInt() < 2 || n.getInt() > 16)
      return op.emitOpError() << "kda.spec_tokens must be an integer in 2..16 "
                                 "(num_spec + 1), not "
                              << a;
    if (s.ldsStages > 0)
      return op.emitOpError() << "kda.spec_tokens needs direct token loads "
                                 "(lds_stages = 0): the state is stored after "
                                 "every token";
    rv.specTokens = n.getInt();
  }
  if (Attribute a = o->getAttr("kda.padding")) {
    auto str = dyn_cast<StringAttr>(a);
    if (!str || (str != "nonpositive" && str != "negative"))
      return op.emitOpError() << "kda.padding must be \"nonpositive\" (slot "
                                 "<= 0 pads) or \"negative\" (slot < 0 "
                                 "pads), not "
                              << a;
    rv.paddingBelow = str == "negative" ? 0 : 1;
  }
  if (Attribute a = o->getAttr("kda.slot_stride")) {
    auto n = dyn_cast<IntegerAttr>(a);
    const int64_t elemBytes =
        l.getStateType().getIntOrFloatBitWidth() / 8;
    if (!n || n.getInt() < rv.slotStride || (n.getInt() * elemBytes) % 16)
      return op.emitOpError()
             << "kda.slot_stride must be at least HV * K * V = "
             << rv.slotStride << " elements and keep slots 16-byte aligned, "
             << "not " << a;
    rv.slotStride = n.getInt();
  }
  return rv;
}

//===----------------------------------------------------------------------===//
// Kernel body
//===----------------------------------------------------------------------===//

namespace {
class RecurrentKernelEmitter {
public:
  RecurrentKernelEmitter(ImplicitLocOpBuilder &b, RecurrentOp op,
                         const RecurrentSchedule &s, const TargetInfo &target,
                         FlatSymbolRefAttr tokenRing,
                         const TokenSlotLayout &slotLayout,
                         const RowVariant &rows)
      : b(b), op(op), layer(op.getLayer()), s(s), target(target),
        tokenRing(tokenRing), f32(b.getF32Type()), slotLayout(slotLayout),
        rows(rows) {
    if (s.mma)
      mma = decodeMmaAtom(target);
  }

  LogicalResult emit(gpu::GPUFuncOp func);

  /// Where a token step reads q, k and g: global rows, or an LDS slot.
  struct TokenRows {
    Value q, qOff, k, kOff, g, gOff;
  };

private:
  Value idx(int64_t v) { return arith::ConstantIndexOp::create(b, v); }
  Value f(double v) {
    return arith::ConstantOp::create(b, f32, b.getF32FloatAttr(v));
  }
  Value toIndex(Value v) {
    return arith::IndexCastOp::create(b, b.getIndexType(), v);
  }
  Value add(Value x, Value y) { return arith::AddIOp::create(b, x, y); }
  Value mul(Value x, Value y) { return arith::MulIOp::create(b, x, y); }
  Value fadd(Value x, Value y) { return arith::AddFOp::create(b, x, y); }
  Value fsub(Value x, Value y) { return arith::SubFOp::create(b, x, y); }
  Value fmul(Value x, Value y) { return arith::MulFOp::create(b, x, y); }
  /// x * y + z rounded once. The state update is four of these and a
  /// multiply per element; as separate multiplies and adds (which the
  /// backends keep apart without a contract flag) it was seven, and the
  /// decode kernels issue, not memory, bounded the bf16 pools on the H200.
  Value fma(Value x, Value y, Value z) {
    return math::FmaOp::create(b, x, y, z);
  }
  Value widen(Value v) {
    return v.getType() == f32 ? v : arith::ExtFOp::create(b, f32, v);
  }
  Value narrow(Value v, Type to) {
    return to == f32 ? v : arith::TruncFOp::create(b, to, v);
  }
  /// With wavesK > 1, the waves' lane totals summed through token t's
  /// region of the LDS exchange (one barrier for all of them); else the
  /// totals themselves.
  SmallVector<Value> waveSums(ArrayRef<Value> laneTotals, Value t);
  /// Sums over the lanesK lanes of the wave sharing each column, every lane
  /// getting every sum: DPP cluster reductions where the chip has them for
  /// this stride, else a transposed butterfly (see its definition).
  SmallVector<Value> laneSums(ArrayRef<Value> partials);
  /// The butterfly's halves: the reduce-scatter (and the xor steps past
  /// it), after which a lane holds the sums of its share of the columns,
  /// and the all-gather of C columns from those shares.
  SmallVector<Value> scatteredSums(ArrayRef<Value> partials);
  SmallVector<Value> allGather(ArrayRef<Value> held, unsigned C);
  /// The reduce-scatter's share when it is one column (C <= lanesK), and
  /// which of `values` (one per column) is that column, chosen as the
  /// exchange chose (heldColumn).
  Value reduceScatter(ArrayRef<Value> partials);
  Value heldOf(ArrayRef<Value> values);
  /// The lane distances (in k-lanes) at which the exchange of C columns
  /// halves them.
  SmallVector<unsigned> exchangeLevels(unsigned C) const;
  Value select(Value c, Value x, Value y);
  /// Whether a token's outputs stay scattered: each lane ends the transposed
  /// exchange holding one column's sums, computes that column's output and
  /// stores it itself (one wave per column, no DPP, and no more columns per
  /// lane than lanes per column); only the residuals are all-gathered.
  bool scatteredOutputs() const;
  /// Which of the lane's columns a scattered output is: the exchange's
  /// levels kept the lower half of the columns on the lower lane.
  Value heldColumn();
  /// Lanes between two k-lanes of a column: adjacent (vk) or colsPerWave
  /// apart (kv).
  unsigned laneStride() const;
  /// x from the lane `kLanes` k-lanes away (xor) within the wave.
  Value xorLane(Value x, unsigned kLanes);
  /// i1: this lane is the upper one of its xor pair `kLanes` k-lanes apart.
  Value upperOfPair(unsigned kLanes);
  /// `count` consecutive elements at `offset`, widened to f32: one vector
  /// load (`align` bytes, what the offsets guarantee) when more than one;
  /// when `valid` (an index: the leading elements in range) is given, one
  /// guarded load per element, the masked ones reading 0.
  SmallVector<Value> loadRun(Value mem, Value offset, unsigned count,
                             unsigned align, Value valid = {});
  /// The store twin: only the `valid` leading elements are written (a
  /// masked vector store).
  void storeRun(Value mem, Value offset, ArrayRef<Value> values,
                unsigned align, Value valid = {});
  /// The lane's k-run of a row of K (q, k, g, dt_bias), masked past head_k.
  SmallVector<Value> loadKRun(Value mem, Value offset);
  /// Alignment (bytes) of a lane's k-run of a K-long row, or of a vk
  /// column; of a kv row piece of the lane's adjacent columns.
  unsigned kRunAlign(Type elem) const;
  unsigned kvPieceAlign() const;
  /// kv: a lane's columns come in runs of this many adjacent columns (one
  /// access of at most 16 bytes each), the wave's lanes taking consecutive
  /// runs, so each access instruction of a wave covers whole sectors. As
  /// one piece of 8 f32 columns a lane (two 16-byte accesses 32 bytes
  /// apart), half the sectors each instruction fetched were the next one's:
  /// ncu on the H200 counted 49% excess sectors in the kv kernel.
  unsigned kvRun() const;
  /// Where column c of the lane's columns sits, from its first column: vk
  /// gridCols apart; kv in runs (kvRun) gridCols runs apart. The Value form
  /// places a column known only at run time (a scattered output's).
  unsigned columnOffset(unsigned c) const;
  Value columnOffset(Value c);
  /// Leading elements in range of a vk column run of column c / of the kv
  /// row piece of k-row j starting at column `first`; null when nothing is
  /// masked.
  Value vkColumnValid(unsigned c);
  Value kvRowValid(Value k0, unsigned j, Value first);
  /// max(0, min(n, most)).
  Value clampCount(Value n, unsigned most);
  /// i1: element i of a run is in range (i < valid).
  Value inRun(unsigned i, Value valid);

  /// Flat offset of S[k][v] of head h in slot `slot`.
  Value stateOffset(Value slot, Value h, Value k, Value v);
  /// The lane's state tile, column-major (column c's k-run at c * E),
  /// widened to f32; or, where packedState(), as loaded: i32 words of two
  /// bf16 each (widenState makes the tile). A bf16 pool's state waiting in
  /// registers (its loads in flight, or the next pass's state) then takes
  /// half the registers it took as f32.
  SmallVector<Value> loadState(Value slot, Value h, Value k0,
                               ArrayRef<Value> cols);
  SmallVector<Value> widenState(ArrayRef<Value> loaded);
  /// Whether loadState keeps a bf16 state packed: whole runs (nothing
  /// masked) of an even number of elements.
  bool packedState() const;
  /// One access of the lane's state: vk, column `col`'s k-run (row 0); kv,
  /// k-row `row`'s piece of kvRun() adjacent columns from column `col`;
  /// `tiles`, the tile indices (c * E + j) of its elements in order.
  struct StateRun {
    unsigned row, col;
    SmallVector<unsigned> tiles;
  };
  /// The lane's state runs in access order (what loadState reads and
  /// widenState unpacks).
  SmallVector<StateRun> stateRuns() const;
  void storeState(Value slot, Value h, Value k0, ArrayRef<Value> cols,
                  ArrayRef<Value> values);
  /// What a token contributes apart from the state's columns: the lane's k-runs
  /// of q and k, the decays exp(g), beta and the row sums (k.q, and |q|^2,
  /// |k|^2 for the l2norm). Inside one wave the row sums are reduced here and q
  /// and k come scaled by their norms (kq is the scaled k.q); with wavesK > 1,
  /// rowSums stay the lane's partials, reduced with the column sums in the
  /// token's one exchange.
  struct TokenTerms {
    SmallVector<Value> q, k, decay, rowSums;
    Value beta, kq;
  };
  TokenTerms tokenTerms(Value t, Value h, Value k0, Value expALog,
                        const TokenRows &rows);
  /// Token t's terms over all of head_k, one k a lane across the wave (k =
  /// laneInWave, + waveSize, ...; those past head_k zero, `valid` false):
  /// q and k normalised (q scaled), the decays, and the scaled k.q. Every
  /// lane of the wave takes part (the row sums are wave-wide exchanges).
  struct WaveTerms {
    SmallVector<Value> k, valid, qs, ks, decays;
    Value kq;
  };
  WaveTerms waveTerms(Value t, Value h, Value hq, Value expALog,
                      Value laneInWave);
  /// sharedTerms: token `bos`'s terms over all of head_k into the LDS words
  /// (wave 0, one k a lane), then a barrier; and a pass's read of its
  /// lanes' k-runs of them.
  void writeSharedTerms(Value bos, Value eos, Value h, Value hq, Value expALog);
  TokenTerms readSharedTerms(Value k0);
  /// The norms' factors from the reduced row sums: q scaled by qScale, k by
  /// kScale (null without the l2norm), and the scaled k.q.
  struct NormFactors {
    Value qScale, kScale, kq;
  };
  NormFactors normFactors(ArrayRef<Value> rowSums);
  /// v of token t at the lane's columns (0 past head_v).
  SmallVector<Value> columnLoads(Value t, Value h, ArrayRef<Value> cols);
  /// One token on the lane's columns: the new state (column-major: column
  /// c's run at c * E) and then one output per column.
  SmallVector<Value> columnStep(Value t, ValueRange state,
                                ArrayRef<Value> vvals, const TokenTerms &terms);
  /// tokenTerms, then columnStep (the column loads issued first).
  SmallVector<Value> tokenStep(Value t, Value h, Value k0,
                               ArrayRef<Value> cols, Value expALog,
                               ValueRange state, const TokenRows &rows);

  TokenRows globalRows(Value t, Value h, Value hq, Value k0);

  // mma = 1: the column sums by the target's matrix atom. Each wave
  // computes a token's terms once, one k a lane, into its LDS words; A is
  // the decayed k and q (rows 0 and 1 of the atom's M, split into bf16
  // halves), B the state (the lane's k-run of each of its columns, exact
  // bf16 on a row's first token, split after). See decodeMmaAtom.
  /// Bits of `x` under `mask`, packed down (the host's pext, in arith).
  Value pext(Value x, unsigned mask);
  /// Token t's terms into its region of the wave's LDS words; returns
  /// beta and the scaled k.q.
  std::pair<Value, Value> mmaTerms(Value t, Value h, Value hq, Value expALog,
                                   Value region);
  /// One token: the new state (column-major, as columnStep) and then one
  /// output per column. `words`: the state as loaded (packed bf16), for a
  /// row's first token, whose state is exactly bf16; empty after.
  SmallVector<Value> mmaStep(Value t, Value h, Value hq, Value expALog,
                             ValueRange S, ArrayRef<Value> words,
                             ArrayRef<Value> cols);
  void emitMmaTokens(Value bos, Value eos, Value n, Value h, Value hq, Value k0,
                     ArrayRef<Value> cols, Value expALog, ArrayRef<Value> words,
                     SmallVectorImpl<Value> &finalState,
                     function_ref<void(Value, ArrayRef<Value>)> storeOut);
  /// One token of a row: the new state and then one output per column.
  using TokenFn =
      function_ref<SmallVector<Value>(Value t, ValueRange state, bool first)>;
  /// A row's tokens bos..eos from `initial`: each token's outputs stored
  /// (and, for speculative rows, the state after it in its own slot); the
  /// final state returned. With `peelFirst` the row's first token is its
  /// own step (`token(bos, initial, true)`), an empty row keeping
  /// `ifEmpty()`, and the loop runs over the rest.
  SmallVector<Value>
  emitRowTokens(Value bos, Value eos, Value n, Value h, Value k0,
                ArrayRef<Value> cols, ValueRange initial, bool peelFirst,
                function_ref<SmallVector<Value>()> ifEmpty, TokenFn token,
                function_ref<void(Value, ArrayRef<Value>)> storeOut);
  /// `elems` elements of type `elem` at `byteOffset` of ring slot `slot`.
  Value ldsView(Value slot, int64_t byteOffset, int64_t elems, Type elem);
  /// The LDS views of slot `slot` of the token ring.
  TokenRows ldsRows(Value slot, Value k0);
  /// The kda.produce body: the rows of token `iter` into ring slot `slot`
  /// as copy atoms (which atom is the schedule's and the target's choice).
  void copyTokenRows(Value bos, Value h, Value hq, Value iter, Value slot);
  LogicalResult emitStagedTokenLoop(Value bos, Value eos, Value h, Value hq,
                                    Value k0, ArrayRef<Value> cols,
                                    Value expALog, ValueRange initial,
                                    SmallVectorImpl<Value> &finalState,
                                    function_ref<void(Value, ArrayRef<Value>)>
                                        storeOut);

  ImplicitLocOpBuilder &b;
  RecurrentOp op;
  LayerAttr layer;
  const RecurrentSchedule &s;
  const TargetInfo &target;
  FlatSymbolRefAttr tokenRing;
  Type f32;
  TokenSlotLayout slotLayout; // of the token ring (lds_stages > 0)
  RowVariant rows;
  Value lds, priv; // workgroup / private attributions of the staged loop
  Value exchange;  // the cross-wave exchange (wavesK > 1)
  // mma = 1: the atom, the LDS words (RecurrentPlan::mmaWaveWords a wave),
  // this wave's first word, the lane within the wave and its column within
  // the atom's n.
  std::optional<DecodeMmaAtom> mma;
  Value mmaLds, mmaWaveBase, lane, mmaCol;
  Value sharedLds; // sharedTerms: the first token's terms
  // The exchange's region alternates over the workgroup's tokens, passes
  // included: token t of pass p is exchange number t + exchangeBase, with
  // exchangeBase = p * len - bos (a row's first token of pass p + 1 follows
  // its last of pass p, even with one token).
  Value exchangeBase;
  // The lane's place: its column in the workgroup's grid, its k-lane within
  // the wave, and its wave's k-group.
  Value gridCol, ktInWave, waveK;
  // Masks of head dims that are not covered exactly: the k of the lane's run
  // in range (null when every lane's run is), each column's `col < V` (empty
  // when every block is full).
  Value validK;
  SmallVector<Value> colValid;
  // Flat views of the kernel arguments, bound by their names in kda.abi.
  Value q, k, v, g, beta, aLog, dtBias, cu, slots, hasInit, state, out;
  Value numAccepted; // speculative rows only

  /// Slot column `col` of row n (speculative rows: slots is [N, S]).
  Value slotAt(Value n, Value col) {
    Value at = rows.speculative() ? add(mul(n, idx(rows.specTokens)), col) : n;
    return toIndex(memref::LoadOp::create(b, slots, at));
  }
  /// The slot a speculative row starts from: column num_accepted - 1,
  /// clamped into the row (the device count cannot be validated).
  Value acceptedSlot(Value n) {
    Value col = arith::SubIOp::create(
        b, toIndex(memref::LoadOp::create(b, numAccepted, n)), idx(1));
    col = arith::MaxSIOp::create(b, col, idx(0));
    col = arith::MinSIOp::create(b, col, idx(rows.specTokens - 1));
    return slotAt(n, col);
  }
};
} // namespace

static unsigned bytesOf(Type elem) { return elem.getIntOrFloatBitWidth() / 8; }

// A masked load is element by element, each load behind its own `i <
// valid`: what LLVM makes of a masked vector load on the GPUs, which have no
// masked load instruction; a masked vector load's pass-through select on
// bf16 elements would need a bf16 rounding routine on the emulator's x86
// host that Debian's libgcc lacks.
Value RecurrentKernelEmitter::inRun(unsigned i, Value valid) {
  return arith::CmpIOp::create(b, arith::CmpIPredicate::slt, idx(i), valid);
}

SmallVector<Value> RecurrentKernelEmitter::loadRun(Value mem, Value offset,
                                                   unsigned count,
                                                   unsigned align,
                                                   Value valid) {
  Type elem = cast<MemRefType>(mem.getType()).getElementType();
  SmallVector<Value> vals;
  if (valid) {
    for (unsigned i = 0; i < count; ++i) {
      auto ifIn = scf::IfOp::create(b, f32, inRun(i, valid), /*withElse=*/true);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(ifIn.thenBlock());
      scf::YieldOp::create(
          b, widen(memref::LoadOp::create(b, mem, add(offset, idx(i)))));
      b.setInsertionPointToStart(ifIn.elseBlock());
      scf::YieldOp::create(b, f(0.0));
      vals.push_back(ifIn.getResult(0));
    }
    return vals;
  }
  if (count == 1) {
    vals.push_back(widen(memref::LoadOp::create(b, mem, offset)));
    return vals;
  }
  auto vt = VectorType::get({count}, elem);
  Value vec = vector::LoadOp::create(b, vt, mem, ValueRange{offset},
                                     /*nontemporal=*/false,
                                     llvm::MaybeAlign(align));
  for (unsigned i = 0; i < count; ++i)
    vals.push_back(widen(vector::ExtractOp::create(b, vec, int64_t(i))));
  return vals;
}

void RecurrentKernelEmitter::storeRun(Value mem, Value offset,
                                      ArrayRef<Value> values, unsigned align,
                                      Value valid) {
  Type elem = cast<MemRefType>(mem.getType()).getElementType();
  SmallVector<Value> narrowed;
  for (Value x : values)
    narrowed.push_back(narrow(x, elem));
  if (values.size() == 1 && !valid) {
    memref::StoreOp::create(b, narrowed[0], mem, offset);
    return;
  }
  auto vt = VectorType::get({int64_t(values.size())}, elem);
  Value vec = vector::FromElementsOp::create(b, vt, narrowed);
  if (valid) {
    // A masked vector store: scalarised by LLVM into guarded element stores
    // on every target, from a vector as the unmasked store (element-wise
    // scalar stores of narrowed values let LLVM form bf16 selects, which the
    // emulator's x86 host cannot lower without a libgcc routine).
    // The mask element by element (vector.create_mask has no lowering in
    // the GPU targets' conversions).
    SmallVector<Value> bits;
    for (unsigned i = 0; i < values.size(); ++i)
      bits.push_back(inRun(i, valid));
    Value mask = vector::FromElementsOp::create(
        b, VectorType::get({int64_t(values.size())}, b.getI1Type()), bits);
    vector::MaskedStoreOp::create(b, mem, ValueRange{offset}, mask, vec,
                                  llvm::MaybeAlign(align));
    return;
  }
  vector::StoreOp::create(b, vec, mem, ValueRange{offset},
                          /*nontemporal=*/false, llvm::MaybeAlign(align));
}

unsigned RecurrentKernelEmitter::kRunAlign(Type elem) const {
  // Rows and vk columns start at multiples of K, a lane's run at k0 = kt *
  // E: both offsets are multiples of gcd(K, E).
  return rules::accessAlignment(
      bytesOf(elem), std::gcd<uint64_t>(layer.getHeadK(), s.elemsK));
}

unsigned RecurrentKernelEmitter::kvPieceAlign() const {
  // kv rows start at multiples of V, a run at colBlock * block_v + pass *
  // passCols + r * gridCols * run + vl * run (block_v and passCols are
  // multiples of colsPerThread, itself a multiple of the run).
  return rules::accessAlignment(
      stateBytes(layer),
      std::gcd<uint64_t>(std::gcd<uint64_t>(layer.getHeadV(), s.blockV),
                         kvRun()));
}

SmallVector<Value> RecurrentKernelEmitter::loadKRun(Value mem, Value offset) {
  Type elem = cast<MemRefType>(mem.getType()).getElementType();
  return loadRun(mem, offset, s.elemsK, kRunAlign(elem), validK);
}

Value RecurrentKernelEmitter::vkColumnValid(unsigned c) {
  if (!s.maskV())
    return validK;
  Value run = validK ? validK : idx(s.elemsK);
  return arith::SelectOp::create(b, colValid[c], run, idx(0));
}

unsigned RecurrentKernelEmitter::kvRun() const {
  const unsigned widest = 16 / stateBytes(layer);
  return std::min(rules::pow2Part(s.colsPerThread), widest);
}

unsigned RecurrentKernelEmitter::columnOffset(unsigned c) const {
  if (layer.getStateLayout() == StateLayout::VK)
    return c * s.gridCols();
  const unsigned R = kvRun();
  return c / R * s.gridCols() * R + c % R;
}

Value RecurrentKernelEmitter::columnOffset(Value c) {
  if (layer.getStateLayout() == StateLayout::VK)
    return mul(c, idx(s.gridCols()));
  const unsigned R = kvRun();
  Value run = arith::DivUIOp::create(b, c, idx(R));
  Value within = arith::RemUIOp::create(b, c, idx(R));
  return add(mul(run, idx(s.gridCols() * R)), within);
}

Value RecurrentKernelEmitter::kvRowValid(Value k0, unsigned j, Value first) {
  if (!s.maskK() && !s.maskV())
    return {};
  // The row piece's columns in range: all, or those before head_v.
  Value cols = idx(kvRun());
  if (s.maskV())
    cols = clampCount(arith::SubIOp::create(b, idx(layer.getHeadV()), first),
                      kvRun());
  if (!s.maskK())
    return cols;
  Value rowInK = arith::CmpIOp::create(b, arith::CmpIPredicate::slt,
                                       add(k0, idx(j)), idx(layer.getHeadK()));
  return arith::SelectOp::create(b, rowInK, cols, idx(0));
}

Value RecurrentKernelEmitter::clampCount(Value n, unsigned most) {
  return arith::MaxSIOp::create(
      b, idx(0), arith::MinSIOp::create(b, n, idx(most)));
}

Value RecurrentKernelEmitter::stateOffset(Value slot, Value h, Value kk,
                                          Value vv) {
  const int64_t K = layer.getHeadK(), V = layer.getHeadV();
  // Slots rows.slotStride apart (HV * K * V unless the variant widens it).
  Value base = add(mul(slot, idx(rows.slotStride)), mul(h, idx(K * V)));
  if (layer.getStateLayout() == StateLayout::VK)
    return add(base, add(mul(vv, idx(K)), kk));
  return add(base, add(mul(kk, idx(V)), vv));
}

SmallVector<RecurrentKernelEmitter::StateRun>
RecurrentKernelEmitter::stateRuns() const {
  const unsigned E = s.elemsK, C = s.colsPerThread;
  SmallVector<StateRun> runs;
  if (layer.getStateLayout() == StateLayout::VK) {
    for (unsigned c = 0; c < C; ++c)
      runs.push_back({0, c, llvm::to_vector(llvm::seq(c * E, c * E + E))});
    return runs;
  }
  const unsigned R = kvRun();
  for (unsigned j = 0; j < E; ++j)
    for (unsigned c0 = 0; c0 < C; c0 += R) {
      runs.push_back({j, c0, {}});
      for (unsigned i = 0; i < R; ++i)
        runs.back().tiles.push_back((c0 + i) * E + j);
    }
  return runs;
}

bool RecurrentKernelEmitter::packedState() const {
  Type elem = cast<MemRefType>(state.getType()).getElementType();
  const unsigned run =
      layer.getStateLayout() == StateLayout::VK ? s.elemsK : kvRun();
  return elem.isBF16() && !s.maskK() && !s.maskV() && run % 2 == 0;
}

SmallVector<Value> RecurrentKernelEmitter::loadState(Value slot, Value h,
                                                     Value k0,
                                                     ArrayRef<Value> cols) {
  Type elem = cast<MemRefType>(state.getType()).getElementType();
  // A run's place in memory and its mask (null: nothing masked).
  auto runAt = [&](const StateRun &run) {
    if (layer.getStateLayout() == StateLayout::VK)
      return std::make_tuple(stateOffset(slot, h, k0, cols[run.col]),
                             kRunAlign(elem), vkColumnValid(run.col));
    return std::make_tuple(
        stateOffset(slot, h, add(k0, idx(run.row)), cols[run.col]),
        kvPieceAlign(), kvRowValid(k0, run.row, cols[run.col]));
  };
  SmallVector<Value> vals;
  if (packedState()) {
    // Words of two bf16: element 2i in the low half of word i (the targets
    // and the emulator's host are little-endian).
    for (const StateRun &run : stateRuns()) {
      auto [offset, align, valid] = runAt(run);
      assert(!valid && "packed runs are whole");
      (void)valid;
      const int64_t R = run.tiles.size();
      Value raw = vector::LoadOp::create(b, VectorType::get({R}, elem), state,
                                         ValueRange{offset},
                                         /*nontemporal=*/false,
                                         llvm::MaybeAlign(align));
      Value words = vector::BitCastOp::create(
          b, VectorType::get({R / 2}, b.getI32Type()), raw);
      for (int64_t i = 0; i < R / 2; ++i)
        vals.push_back(vector::ExtractOp::create(b, words, i));
    }
    return vals;
  }
  vals.resize(s.elemsK * s.colsPerThread);
  for (const StateRun &run : stateRuns()) {
    auto [offset, align, valid] = runAt(run);
    SmallVector<Value> loaded =
        loadRun(state, offset, run.tiles.size(), align, valid);
    for (auto [at, x] : llvm::zip_equal(run.tiles, loaded))
      vals[at] = x;
  }
  return vals;
}

SmallVector<Value> RecurrentKernelEmitter::widenState(ArrayRef<Value> loaded) {
  if (!packedState())
    return SmallVector<Value>(loaded);
  // bf16 is the high half of an f32: the low element shifted up, the high
  // one masked, each exact.
  SmallVector<Value> vals(s.elemsK * s.colsPerThread);
  auto asF32 = [&](Value bits) {
    return arith::BitcastOp::create(b, f32, bits).getResult();
  };
  Value sixteen = arith::ConstantIntOp::create(b, b.getI32Type(), 16);
  Value highMask =
      arith::ConstantIntOp::create(b, b.getI32Type(), int64_t(0xffff0000));
  unsigned w = 0;
  for (const StateRun &run : stateRuns())
    for (unsigned i = 0; i < run.tiles.size(); i += 2, ++w) {
      vals[run.tiles[i]] = asF32(arith::ShLIOp::create(b, loaded[w], sixteen));
      vals[run.tiles[i + 1]] =
          asF32(arith::AndIOp::create(b, loaded[w], highMask));
    }
  return vals;
}

void RecurrentKernelEmitter::storeState(Value slot, Value h, Value k0,
                                        ArrayRef<Value> cols,
                                        ArrayRef<Value> values) {
  const unsigned E = s.elemsK, C = cols.size();
  Type elem = cast<MemRefType>(state.getType()).getElementType();
  if (layer.getStateLayout() == StateLayout::VK) {
    for (unsigned c = 0; c < C; ++c)
      storeRun(state, stateOffset(slot, h, k0, cols[c]),
               values.slice(c * E, E), kRunAlign(elem), vkColumnValid(c));
    return;
  }
  const unsigned R = kvRun();
  for (unsigned j = 0; j < E; ++j)
    for (unsigned c0 = 0; c0 < C; c0 += R) {
      SmallVector<Value> piece;
      for (unsigned i = 0; i < R; ++i)
        piece.push_back(values[(c0 + i) * E + j]);
      storeRun(state, stateOffset(slot, h, add(k0, idx(j)), cols[c0]), piece,
               kvPieceAlign(), kvRowValid(k0, j, cols[c0]));
    }
}

RecurrentKernelEmitter::TokenRows
RecurrentKernelEmitter::globalRows(Value t, Value h, Value hq, Value k0) {
  const int64_t H = layer.getHeads(), HV = layer.getValueHeads(),
                K = layer.getHeadK();
  Value qkOff = add(mul(add(mul(t, idx(H)), hq), idx(K)), k0);
  Value gOff = add(mul(add(mul(t, idx(HV)), h), idx(K)), k0);
  return {q, qkOff, k, qkOff, g, gOff};
}

SmallVector<Value> RecurrentKernelEmitter::columnLoads(Value t, Value h,
                                                       ArrayRef<Value> cols) {
  const int64_t HV = layer.getValueHeads(), V = layer.getHeadV();
  Value th = add(mul(t, idx(HV)), h);
  SmallVector<Value> vvals;
  for (auto [c, col] : llvm::enumerate(cols)) {
    Value at = add(mul(th, idx(V)), col);
    if (!s.maskV()) {
      vvals.push_back(widen(memref::LoadOp::create(b, v, at)));
      continue;
    }
    Value one = arith::SelectOp::create(b, colValid[c], idx(1), idx(0));
    Type vElem = cast<MemRefType>(v.getType()).getElementType();
    vvals.push_back(loadRun(v, at, 1, bytesOf(vElem), one)[0]);
  }
  return vvals;
}

RecurrentKernelEmitter::NormFactors
RecurrentKernelEmitter::normFactors(ArrayRef<Value> rowSums) {
  // eps inside the sqrt, as the oracle and fla do. Approximate (afn): one
  // rsqrt.approx.ftz on sm_90 (FastMathToNVVM.cpp; 2^-22 relative, below
  // the f32 state's own rounding over a row); on AMD an approximate
  // reciprocal of v_sqrt_f32.
  NormFactors n;
  n.qScale = f(layer.getEffectiveScale());
  if (layer.getQkL2norm()) {
    auto inverseNorm = [&](Value ss) -> Value {
      return arith::DivFOp::create(b, f(1.0),
                                   math::SqrtOp::create(b, fadd(ss, f(1e-6))),
                                   arith::FastMathFlags::afn);
    };
    n.qScale = fmul(n.qScale, inverseNorm(rowSums[1]));
    n.kScale = inverseNorm(rowSums[2]);
  }
  n.kq = fmul(rowSums[0], n.qScale);
  if (n.kScale)
    n.kq = fmul(n.kq, n.kScale);
  return n;
}

RecurrentKernelEmitter::TokenTerms
RecurrentKernelEmitter::tokenTerms(Value t, Value h, Value k0, Value expALog,
                                   const TokenRows &rows) {
  const int64_t HV = layer.getValueHeads(), K = layer.getHeadK();
  const unsigned E = s.elemsK;
  TokenTerms terms;
  terms.q = loadKRun(rows.q, rows.qOff);
  terms.k = loadKRun(rows.k, rows.kOff);
  SmallVector<Value> graw = loadKRun(rows.g, rows.gOff);
  SmallVector<Value> bias;
  if (dtBias)
    bias = loadKRun(dtBias, add(mul(h, idx(K)), k0));
  Value braw = widen(memref::LoadOp::create(b, beta, add(mul(t, idx(HV)), h)));

  // The row sums read only the rows. With wavesK > 1 they are taken with
  // the column sums (one exchange, one barrier a token) and the norms scale
  // the sums afterwards. Inside one wave they go first and scale k and q:
  // taking them all at once there was measured on the H200 (with the sums
  // then reading S against exp(g) k and exp(g) q; bf16 vk pool, best
  // candidate at N 128: 97 against 86 us, 159 against 127 registers).
  Value kqPart = f(0.0), qss = f(0.0), kss = f(0.0);
  for (unsigned j = 0; j < E; ++j) {
    kqPart = fma(terms.k[j], terms.q[j], kqPart);
    if (layer.getQkL2norm()) {
      qss = fma(terms.q[j], terms.q[j], qss);
      kss = fma(terms.k[j], terms.k[j], kss);
    }
  }
  terms.rowSums = {kqPart};
  if (layer.getQkL2norm())
    terms.rowSums.append({qss, kss});
  if (s.wavesK == 1) {
    NormFactors n = normFactors(laneSums(terms.rowSums));
    for (Value &x : terms.q)
      x = fmul(x, n.qScale);
    if (n.kScale)
      for (Value &x : terms.k)
        x = fmul(x, n.kScale);
    terms.kq = n.kq;
    terms.rowSums.clear();
  }
  for (unsigned j = 0; j < E; ++j) {
    Value raw = dtBias ? fadd(graw[j], bias[j]) : graw[j];
    terms.decay.push_back(emitFastExp(
        b, b.getLoc(), emitGate(b, b.getLoc(), layer, raw, expALog)));
  }
  terms.beta = emitBeta(b, b.getLoc(), layer, braw);
  return terms;
}

RecurrentKernelEmitter::WaveTerms
RecurrentKernelEmitter::waveTerms(Value t, Value h, Value hq, Value expALog,
                                  Value laneInWave) {
  const int64_t K = layer.getHeadK();
  const unsigned W = s.waveSize, per = (K + W - 1) / W;
  TokenRows r = globalRows(t, h, hq, idx(0));
  WaveTerms wt;
  Value kq = f(0.0), qq = f(0.0), kk = f(0.0);
  for (unsigned i = 0; i < per; ++i) {
    Value p = add(laneInWave, idx(i * W));
    // k past head_k: row 0 read, zeros kept.
    Value valid;
    if (K % W)
      valid = arith::CmpIOp::create(b, arith::CmpIPredicate::ult, p, idx(K));
    Value at = valid ? select(valid, p, idx(0)) : p;
    auto zeroUnless = [&](Value x) {
      return valid ? select(valid, x, f(0.0)) : x;
    };
    wt.k.push_back(p);
    wt.valid.push_back(valid);
    wt.qs.push_back(
        zeroUnless(widen(memref::LoadOp::create(b, q, add(r.qOff, at)))));
    wt.ks.push_back(
        zeroUnless(widen(memref::LoadOp::create(b, k, add(r.kOff, at)))));
    Value raw = widen(memref::LoadOp::create(b, g, add(r.gOff, at)));
    if (dtBias)
      raw = fadd(raw, widen(memref::LoadOp::create(b, dtBias,
                                                   add(mul(h, idx(K)), at))));
    wt.decays.push_back(emitFastExp(
        b, b.getLoc(), emitGate(b, b.getLoc(), layer, raw, expALog)));
    kq = fma(wt.ks.back(), wt.qs.back(), kq);
    if (layer.getQkL2norm()) {
      qq = fma(wt.qs.back(), wt.qs.back(), qq);
      kk = fma(wt.ks.back(), wt.ks.back(), kk);
    }
  }
  // Over the wave, every lane getting every sum.
  SmallVector<Value> sums = {kq};
  if (layer.getQkL2norm())
    sums.append({qq, kk});
  auto i32 = [&](int64_t v) { return arith::ConstantIntOp::create(b, v, 32); };
  for (Value &x : sums)
    for (unsigned o = 1; o < W; o *= 2)
      x = fadd(
          x, gpu::ShuffleOp::create(b, x, i32(o), i32(W), gpu::ShuffleMode::XOR)
                 .getShuffleResult());
  NormFactors nf = normFactors(sums);
  for (unsigned i = 0; i < per; ++i) {
    if (nf.kScale)
      wt.ks[i] = fmul(wt.ks[i], nf.kScale);
    wt.qs[i] = fmul(wt.qs[i], nf.qScale);
  }
  wt.kq = nf.kq;
  return wt;
}

void RecurrentKernelEmitter::writeSharedTerms(Value bos, Value eos, Value h,
                                              Value hq, Value expALog) {
  const int64_t HV = layer.getValueHeads(), K = layer.getHeadK();
  auto ult = [&](Value x, Value y) {
    return arith::CmpIOp::create(b, arith::CmpIPredicate::ult, x, y);
  };
  // Every wave computes them and wave 0 stores them: the row sums are
  // wave-wide exchanges, which the emulators want reached by every lane of
  // the workgroup together (their convergence rule for gpu.shuffle); on
  // the chips wave 0 alone would do, the other waves waiting at the
  // barrier. An empty row has no first token (nor rows to read).
  Value tid = gpu::ThreadIdOp::create(b, gpu::Dimension::x);
  {
    auto ifRow = scf::IfOp::create(b, ult(bos, eos), /*withElse=*/false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(ifRow.thenBlock()->getTerminator());
    WaveTerms wt = waveTerms(bos, h, hq, expALog,
                             arith::RemUIOp::create(b, tid, idx(s.waveSize)));
    auto ifWriter =
        scf::IfOp::create(b, ult(tid, idx(s.waveSize)), /*withElse=*/false);
    b.setInsertionPoint(ifWriter.thenBlock()->getTerminator());
    for (auto [i, at] : llvm::enumerate(wt.k)) {
      OpBuilder::InsertionGuard inRange(b);
      if (wt.valid[i]) {
        auto ifValid = scf::IfOp::create(b, wt.valid[i], /*withElse=*/false);
        b.setInsertionPoint(ifValid.thenBlock()->getTerminator());
      }
      memref::StoreOp::create(b, wt.decays[i], sharedLds, at);
      memref::StoreOp::create(b, wt.ks[i], sharedLds, add(idx(K), at));
      memref::StoreOp::create(b, wt.qs[i], sharedLds, add(idx(2 * K), at));
    }
    auto ifLane0 = scf::IfOp::create(
        b, arith::CmpIOp::create(b, arith::CmpIPredicate::eq, tid, idx(0)),
        /*withElse=*/false);
    b.setInsertionPoint(ifLane0.thenBlock()->getTerminator());
    Value braw =
        widen(memref::LoadOp::create(b, beta, add(mul(bos, idx(HV)), h)));
    memref::StoreOp::create(b, wt.kq, sharedLds, idx(3 * K));
    memref::StoreOp::create(b, emitBeta(b, b.getLoc(), layer, braw), sharedLds,
                            idx(3 * K + 1));
  }
  // Every pass reads them; nothing writes them again.
  gpu::BarrierOp::create(b);
}

RecurrentKernelEmitter::TokenTerms
RecurrentKernelEmitter::readSharedTerms(Value k0) {
  const int64_t K = layer.getHeadK();
  TokenTerms terms;
  terms.decay = loadKRun(sharedLds, k0);
  terms.k = loadKRun(sharedLds, add(idx(K), k0));
  terms.q = loadKRun(sharedLds, add(idx(2 * K), k0));
  terms.kq = memref::LoadOp::create(b, sharedLds, idx(3 * K));
  terms.beta = memref::LoadOp::create(b, sharedLds, idx(3 * K + 1));
  return terms;
}

SmallVector<Value>
RecurrentKernelEmitter::tokenStep(Value t, Value h, Value k0,
                                  ArrayRef<Value> cols, Value expALog,
                                  ValueRange S, const TokenRows &rows) {
  // The column loads first: their latency hides behind the norms and gates.
  SmallVector<Value> vvals = columnLoads(t, h, cols);
  return columnStep(t, S, vvals, tokenTerms(t, h, k0, expALog, rows));
}

SmallVector<Value> RecurrentKernelEmitter::columnStep(Value t, ValueRange S,
                                                      ArrayRef<Value> vvals,
                                                      const TokenTerms &terms) {
  const unsigned E = s.elemsK, C = s.colsPerThread;
  // Per column, with S' = diag(decay) S: r = beta (v - S'^T k), the output
  // S''^T q = S'^T q + (k.q) r and the update S' + k r^T, which is off the
  // output's path. With wavesK > 1 the norms' factors (qScale, kScale) come
  // from the exchange and scale the sums; otherwise q and k are scaled.
  Value qScale, kScale, kq = terms.kq;
  auto scaled = [&](Value x, Value by) { return by ? fmul(x, by) : x; };

  // S' first: the loaded state and the decays die here, and S' is what the
  // sums and the update read (with S and exp(g) k, exp(g) q read instead,
  // the state and the decays stayed live through the exchange: the default
  // kv kernel took 172 VGPRs on gfx942 against 146).
  SmallVector<Value> Sd(E * C);
  for (unsigned j = 0; j < E; ++j)
    for (unsigned c = 0; c < C; ++c)
      Sd[c * E + j] = fmul(S[c * E + j], terms.decay[j]);
  SmallVector<Value> pks, pqs;
  for (unsigned c = 0; c < C; ++c) {
    Value pk = f(0.0), pq = f(0.0);
    for (unsigned j = 0; j < E; ++j) {
      pk = fma(Sd[c * E + j], terms.k[j], pk);
      pq = fma(Sd[c * E + j], terms.q[j], pq);
    }
    pks.push_back(pk);
    pqs.push_back(pq);
  }

  // Per column: r = beta (v - S'^T k), output S'^T q + (k.q) r.
  auto residual = [&](Value vc, Value pk) {
    return fmul(terms.beta, fsub(vc, scaled(pk, kScale)));
  };
  SmallVector<Value> rs, outs;
  if (scatteredOutputs()) {
    // Each lane holds one column's S'^T k and S'^T q (heldColumn); only the
    // residuals go back to every lane, for the update.
    Value pk = reduceScatter(pks), pq = reduceScatter(pqs);
    Value r = residual(heldOf(vvals), pk);
    outs.push_back(fma(kq, r, pq));
    rs = allGather(r, C);
  } else {
    // The sums over the column's lanes and waves.
    SmallVector<Value> pkSum, pqSum;
    if (s.wavesK > 1) {
      // Terms read from LDS (shared terms) come normalised with their k.q:
      // they add no row sums, and the exchange carries the column sums only.
      SmallVector<Value> all(pks);
      llvm::append_range(all, pqs);
      llvm::append_range(all, terms.rowSums);
      all = waveSums(laneSums(all), t);
      ArrayRef<Value> sums(all);
      pkSum.assign(sums.begin(), sums.begin() + C);
      pqSum.assign(sums.begin() + C, sums.begin() + 2 * C);
      if (!terms.rowSums.empty()) {
        NormFactors n = normFactors(sums.drop_front(2 * C));
        qScale = n.qScale, kScale = n.kScale, kq = n.kq;
      }
    } else {
      pkSum = laneSums(pks);
      pqSum = laneSums(pqs);
    }
    for (unsigned c = 0; c < C; ++c) {
      rs.push_back(residual(vvals[c], pkSum[c]));
      outs.push_back(fma(kq, rs[c], scaled(pqSum[c], qScale)));
    }
  }
  SmallVector<Value> next(E * C);
  for (unsigned j = 0; j < E; ++j) {
    Value kn = scaled(terms.k[j], kScale);
    for (unsigned c = 0; c < C; ++c)
      next[c * E + j] = fma(kn, rs[c], Sd[c * E + j]);
  }
  llvm::append_range(next, outs);
  return next;
}

SmallVector<Value> RecurrentKernelEmitter::waveSums(ArrayRef<Value> laneTotals,
                                                    Value t) {
  SmallVector<Value> sums(laneTotals);
  if (s.wavesK == 1)
    return sums;
  // exchange[e mod 2][waveK][gridCol][i], e the exchange's number (see
  // exchangeBase), written by k-lane 0 of each wave. One barrier an
  // exchange: exchange e + 2 writes the region exchange e read only after
  // every wave passed exchange e + 1's barrier, which follows its reads.
  const unsigned W = s.wavesK, n = s.exchangeValues();
  Value region = arith::RemUIOp::create(b, add(t, exchangeBase), idx(2));
  auto at = [&](Value wk, unsigned i) {
    Value row = add(mul(add(mul(region, idx(W)), wk), idx(s.gridCols())),
                    gridCol);
    return add(mul(row, idx(n)), idx(i));
  };
  Value writer =
      arith::CmpIOp::create(b, arith::CmpIPredicate::eq, ktInWave, idx(0));
  {
    auto ifWriter = scf::IfOp::create(b, writer, /*withElse=*/false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(ifWriter.thenBlock()->getTerminator());
    for (auto [i, v] : llvm::enumerate(sums))
      memref::StoreOp::create(b, v, exchange, at(waveK, i));
  }
  gpu::BarrierOp::create(b);
  // Every lane adds the waves' partials in the same order: the column's
  // lanes agree bit for bit.
  for (unsigned i = 0; i < sums.size(); ++i) {
    Value total = memref::LoadOp::create(b, exchange, at(idx(0), i));
    for (unsigned w = 1; w < W; ++w)
      total = fadd(total, memref::LoadOp::create(b, exchange, at(idx(w), i)));
    sums[i] = total;
  }
  return sums;
}

unsigned RecurrentKernelEmitter::laneStride() const {
  return layer.getStateLayout() == StateLayout::VK ? 1 : s.colsPerWave();
}

Value RecurrentKernelEmitter::xorLane(Value x, unsigned kLanes) {
  auto i32 = [&](int64_t v) { return arith::ConstantIntOp::create(b, v, 32); };
  return gpu::ShuffleOp::create(b, x, i32(kLanes * laneStride()),
                                i32(s.waveSize), gpu::ShuffleMode::XOR)
      .getShuffleResult();
}

bool RecurrentKernelEmitter::scatteredOutputs() const {
  const unsigned C = s.colsPerThread;
  return s.wavesK == 1 && C > 1 && C <= s.lanesK &&
         !target.dppClusterReduce(laneStride());
}

Value RecurrentKernelEmitter::upperOfPair(unsigned kLanes) {
  Value bit = arith::AndIOp::create(b, ktInWave, idx(kLanes));
  return arith::CmpIOp::create(b, arith::CmpIPredicate::ne, bit, idx(0));
}

Value RecurrentKernelEmitter::heldColumn() {
  const unsigned width = llvm::PowerOf2Ceil(s.colsPerThread);
  Value p = idx(0);
  for (unsigned o = 1, half = width / 2; half > 0; o *= 2, half /= 2)
    p = add(p, arith::SelectOp::create(b, upperOfPair(o), idx(half), idx(0)));
  return p;
}

// One cluster reduction per partial costs C * log2(L) exchanges for C
// columns over L lanes, and on the H200 those exchanges, not memory, bound
// the decode kernels (ncu, bf16 vk pool at N = 128: 43% of stalls waiting
// on shuffles, issue 66% busy, DRAM 56%). Transposed, the C partials are
// halved at each level instead: a lane keeps the half of its columns on
// its side of the pair and sends the other half, so after log2(C) levels
// each lane holds one column's partial over 2^levels lanes (reduce-
// scatter); plain xor steps finish the remaining lanes; the same levels
// backwards hand every lane every column (all-gather). About 2C + log2(L/C)
// exchanges. Each sum is formed once and copied, so a column's lanes agree
// bit for bit, as the cross-wave exchange expects.
SmallVector<Value> RecurrentKernelEmitter::laneSums(ArrayRef<Value> partials) {
  const unsigned L = s.lanesK;
  if (L == 1)
    return SmallVector<Value>(partials);
  if (target.dppClusterReduce(laneStride())) {
    SmallVector<Value> sums;
    for (Value p : partials)
      sums.push_back(gpu::SubgroupReduceOp::create(
          b, p, gpu::AllReduceOperation::ADD, /*uniform=*/false, L, 1));
    return sums;
  }
  return allGather(scatteredSums(partials), partials.size());
}

SmallVector<unsigned> RecurrentKernelEmitter::exchangeLevels(unsigned C) const {
  SmallVector<unsigned> levels;
  for (unsigned o = 1, w = llvm::PowerOf2Ceil(C); o < s.lanesK && w > 1;
       o *= 2, w /= 2)
    levels.push_back(o);
  return levels;
}

Value RecurrentKernelEmitter::select(Value c, Value x, Value y) {
  return arith::SelectOp::create(b, c, x, y);
}

SmallVector<Value>
RecurrentKernelEmitter::scatteredSums(ArrayRef<Value> partials) {
  SmallVector<Value> vals(partials);
  vals.resize(llvm::PowerOf2Ceil(partials.size()), f(0.0)); // padding: 0
  // Reduce-scatter: the lower lane keeps the lower half of the columns.
  const SmallVector<unsigned> levels = exchangeLevels(partials.size());
  for (unsigned o : levels) {
    const unsigned half = vals.size() / 2;
    Value upper = upperOfPair(o);
    SmallVector<Value> kept;
    for (unsigned i = 0; i < half; ++i) {
      Value mine = select(upper, vals[half + i], vals[i]);
      Value theirs = select(upper, vals[i], vals[half + i]);
      kept.push_back(fadd(mine, xorLane(theirs, o)));
    }
    vals = std::move(kept);
  }
  // The remaining lanes hold the same columns: plain xor steps.
  for (unsigned o = 1u << levels.size(); o < s.lanesK; o *= 2)
    for (Value &x : vals)
      x = fadd(x, xorLane(x, o));
  return vals;
}

Value RecurrentKernelEmitter::reduceScatter(ArrayRef<Value> partials) {
  SmallVector<Value> held = scatteredSums(partials);
  assert(held.size() == 1 && "scattered sums need C <= lanesK");
  return held.front();
}

Value RecurrentKernelEmitter::heldOf(ArrayRef<Value> values) {
  SmallVector<Value> vals(values);
  vals.resize(llvm::PowerOf2Ceil(values.size()), f(0.0));
  for (unsigned o : exchangeLevels(values.size())) {
    const unsigned half = vals.size() / 2;
    Value upper = upperOfPair(o);
    for (unsigned i = 0; i < half; ++i)
      vals[i] = select(upper, vals[half + i], vals[i]);
    vals.resize(half);
  }
  return vals.front();
}

SmallVector<Value> RecurrentKernelEmitter::allGather(ArrayRef<Value> held,
                                                     unsigned C) {
  // Undo the levels, the lower lane's block first.
  SmallVector<Value> vals(held);
  const SmallVector<unsigned> levels = exchangeLevels(C);
  for (unsigned o : llvm::reverse(levels)) {
    Value upper = upperOfPair(o);
    SmallVector<Value> lower, higher;
    for (Value x : vals) {
      Value other = xorLane(x, o);
      lower.push_back(select(upper, other, x));
      higher.push_back(select(upper, x, other));
    }
    vals = std::move(lower);
    llvm::append_range(vals, higher);
  }
  vals.resize(C);
  return vals;
}

TokenSlotLayout mlir::kda::tokenSlotLayout(RecurrentOp op,
                                           const TargetInfo &target) {
  const int64_t K = op.getLayer().getHeadK();
  auto bytesOf = [](Value v) {
    return int64_t(cast<MemRefType>(v.getType()).getElementTypeBitWidth() / 8);
  };
  const int64_t actRow = K * bytesOf(op.getQ()), gRow = K * bytesOf(op.getG());
  TokenSlotLayout l;
  l.async = target.asyncCopy();
  // Each row starts at a multiple of what one copy instruction writes from
  // a uniform base (16 bytes; a wave's 64 x 16 for global_load_lds).
  const int64_t unit = l.async ? target.copyRegionBytes() : 16;
  auto padded = [&](int64_t bytes) { return (bytes + unit - 1) / unit * unit; };
  l.q = 0, l.k = padded(actRow), l.g = 2 * padded(actRow);
  l.bytes = l.g + padded(gRow);
  l.sinkSlot = l.async && target.waitsCountInstructions();
  return l;
}

Value RecurrentKernelEmitter::ldsView(Value slot, int64_t byteOffset,
                                      int64_t elems, Type elem) {
  auto space = cast<MemRefType>(lds.getType()).getMemorySpace();
  Value at = add(mul(slot, idx(slotLayout.bytes)), idx(byteOffset));
  return memref::ViewOp::create(
      b, MemRefType::get({elems}, elem, nullptr, space), lds, at, ValueRange{});
}

RecurrentKernelEmitter::TokenRows
RecurrentKernelEmitter::ldsRows(Value slot, Value k0) {
  const int64_t K = layer.getHeadK();
  Type act = cast<MemRefType>(q.getType()).getElementType();
  Type gType = cast<MemRefType>(g.getType()).getElementType();
  return {ldsView(slot, slotLayout.q, K, act), k0,
          ldsView(slot, slotLayout.k, K, act), k0,
          ldsView(slot, slotLayout.g, K, gType), k0};
}

void RecurrentKernelEmitter::copyTokenRows(Value bos, Value h, Value hq,
                                           Value iter, Value slot) {
  const int64_t H = layer.getHeads(), HV = layer.getValueHeads(),
                K = layer.getHeadK();
  Value t = add(bos, iter);
  Value qRow = mul(add(mul(t, idx(H)), hq), idx(K));
  Value gRow = mul(add(mul(t, idx(HV)), h), idx(K));
  Value base = mul(slot, idx(slotLayout.bytes));
  struct Row {
    Value src, offset;
    int64_t ldsOffset;
  } rows[] = {{q, qRow, slotLayout.q}, {k, qRow, slotLayout.k},
              {g, gRow, slotLayout.g}};
  for (const Row &r : rows)
    CopyRowOp::create(b, r.src, r.offset, lds, add(base, idx(r.ldsOffset)),
                      K, /*atom=*/nullptr);
}

LogicalResult RecurrentKernelEmitter::emitStagedTokenLoop(
    Value bos, Value eos, Value h, Value hq, Value k0, ArrayRef<Value> cols,
    Value expALog, ValueRange initial, SmallVectorImpl<Value> &finalState,
    function_ref<void(Value, ArrayRef<Value>)> storeOut) {
  const unsigned regs = s.elemsK * s.colsPerThread;
  // The state lives in a private array across the pipeline's loops (its
  // indices are constants, so it stays in registers).
  for (auto [i, v] : llvm::enumerate(initial))
    memref::StoreOp::create(b, v, priv, ValueRange{idx(i)});

  // The token loop as a pipeline: the rows of token i are copied into ring
  // slot i mod depth (the produce body) and read back by every lane (the
  // consume body: one token step). Expanded and verified here; the schedule
  // stays in the kernel and the target's atom patterns lower exactly it.
  // At least 0 by construction (the verifier's proof covers T >= 0; the
  // runtime refuses a batch whose lengths are negative anyway).
  Value len =
      arith::MaxSIOp::create(b, arith::SubIOp::create(b, eos, bos), idx(0));
  auto pipe = PipelineOp::create(b, "tokens", s.ldsStages,
                                 /*trip_count=*/nullptr, len);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(b.createBlock(&pipe.getBody()));
    Type index = b.getIndexType();
    auto produce = ProduceOp::create(
        b, tokenRing, slotLayout.async ? b.getUnitAttr() : UnitAttr(),
        b.getI64IntegerAttr(0));
    Block *copy = b.createBlock(&produce.getBody(), {}, {index, index},
                                {b.getLoc(), b.getLoc()});
    copyTokenRows(bos, h, hq, copy->getArgument(0), copy->getArgument(1));
    b.setInsertionPointAfter(produce);
    auto consume = ConsumeOp::create(b, tokenRing,
                                     b.getI64IntegerAttr(s.ldsStages - 1));
    Block *read = b.createBlock(&consume.getBody(), {}, {index, index},
                                {b.getLoc(), b.getLoc()});
    Value t = add(bos, read->getArgument(0));
    SmallVector<Value> S;
    for (unsigned i = 0; i < regs; ++i)
      S.push_back(memref::LoadOp::create(b, priv, ValueRange{idx(i)}));
    SmallVector<Value> next = tokenStep(t, h, k0, cols, expALog, S,
                                        ldsRows(read->getArgument(1), k0));
    for (unsigned i = 0; i < regs; ++i)
      memref::StoreOp::create(b, next[i], priv, ValueRange{idx(i)});
    storeOut(t, ArrayRef<Value>(next).drop_front(regs));
  }
  FailureOr<ScheduleOp> schedule = expandPipeline(pipe, target);
  if (failed(schedule))
    return failure();
  if (std::optional<PipelineHazard> hazard = findPipelineHazard(*schedule))
    return op.emitOpError() << "token pipeline rejected on " << target.name
                            << ": " << hazard->message;
  for (unsigned i = 0; i < regs; ++i)
    finalState.push_back(memref::LoadOp::create(b, priv, ValueRange{idx(i)}));
  return success();
}

LogicalResult RecurrentKernelEmitter::emit(gpu::GPUFuncOp func) {
  Block &entry = func.getBody().front();
  b.setInsertionPointToStart(&entry);

  // Flat views of the bare-pointer arguments; extents are not needed (the
  // runtime validated every index the kernel derives).
  Value huge = idx(int64_t(1) << 40);
  SmallVector<Value> views;
  for (BlockArgument arg :
       entry.getArguments().take_front(func.getFunctionType().getNumInputs())) {
    auto type = cast<MemRefType>(arg.getType());
    auto flat = MemRefType::get({ShapedType::kDynamic}, type.getElementType());
    views.push_back(memref::ReinterpretCastOp::create(
        b, flat, arg, OpFoldResult(b.getIndexAttr(0)),
        ArrayRef<OpFoldResult>{huge}, ArrayRef<OpFoldResult>{b.getIndexAttr(1)}));
  }
  // The ABI (stated in buildRecurrentKernel) is the only place the argument
  // order lives: find each view by its name there.
  auto abi = func->getAttrOfType<ArrayAttr>(kAbiAttrName);
  auto view = [&](StringRef argName) {
    for (auto [i, a] : llvm::enumerate(abi))
      if (cast<KernelArgAttr>(a).getName() == argName)
        return views[i];
    llvm_unreachable("the recurrent kernel's ABI names every argument");
  };
  q = view("q"), k = view("k"), v = view("v"), g = view("g"),
  beta = view("beta");
  aLog = op.getALog() ? view("a_log") : Value();
  dtBias = op.getDtBias() ? view("dt_bias") : Value();
  cu = view("cu_seqlens"), slots = view("slots"),
  hasInit = view("has_initial_state"), state = view("state"), out = view("out");
  if (rows.speculative())
    numAccepted = view("num_accepted_tokens");
  // The workgroup buffers in the order buildRecurrentKernel declares them:
  // the token ring, the exchange, mma's terms, the shared terms.
  ArrayRef<BlockArgument> workgroupBufs = func.getWorkgroupAttributions();
  auto nextBuf = [&] {
    Value buf = workgroupBufs.front();
    workgroupBufs = workgroupBufs.drop_front();
    return buf;
  };
  if (s.ldsStages > 0) {
    lds = nextBuf();
    priv = func.getPrivateAttributions().front();
  }
  if (s.wavesK > 1)
    exchange = nextBuf();
  if (s.mma)
    mmaLds = nextBuf();
  if (s.sharedTerms)
    sharedLds = nextBuf();

  const int64_t G = layer.getGroupSize(), HV = layer.getValueHeads(),
                V = layer.getHeadV();
  Value tid = gpu::ThreadIdOp::create(b, gpu::Dimension::x);
  Value colBlock = gpu::BlockIdOp::create(b, gpu::Dimension::x);
  Value h = gpu::BlockIdOp::create(b, gpu::Dimension::y);
  Value n = gpu::BlockIdOp::create(b, gpu::Dimension::z);

  // Lane -> (column within the workgroup, k-lane). Waves come in groups of
  // wavesK that share columns and split k.
  Value vl, kt;
  const bool vkLayout = layer.getStateLayout() == StateLayout::VK;
  if (s.mma) {
    // The atom's B layout places the lane: its column within the atom's n
    // and its k-set (which run of each column it holds). Wave w takes
    // columns w * n + col, then gridCols apart (columnOffset).
    lane = arith::RemUIOp::create(b, tid, idx(s.waveSize));
    Value wave = arith::DivUIOp::create(b, tid, idx(s.waveSize));
    auto [slot0, col] =
        fragmentCoords(b, b.getLoc(), mma->atom->b, lane, /*elem=*/0);
    mmaCol = col;
    kt = ktInWave = pext(slot0, mma->laneMask);
    vl = gridCol = add(mul(wave, idx(s.mmaN)), col);
    mmaWaveBase = mul(wave, idx(s.mmaWaveWords()));
  } else if (vkLayout && s.wavesK == 1) {
    // A column's lanes are adjacent threads.
    vl = arith::DivUIOp::create(b, tid, idx(s.lanesK));
    kt = ktInWave = arith::RemUIOp::create(b, tid, idx(s.lanesK));
    gridCol = vl;
  } else {
    unsigned cols = s.colsPerWave();
    Value lane = arith::RemUIOp::create(b, tid, idx(s.waveSize));
    Value wave = arith::DivUIOp::create(b, tid, idx(s.waveSize));
    waveK = arith::RemUIOp::create(b, wave, idx(s.wavesK));
    Value colWave = arith::DivUIOp::create(b, wave, idx(s.wavesK));
    const bool vk = vkLayout;
    Value colInWave = vk ? Value(arith::DivUIOp::create(b, lane, idx(s.lanesK)))
                         : Value(arith::RemUIOp::create(b, lane, idx(cols)));
    ktInWave = vk ? Value(arith::RemUIOp::create(b, lane, idx(s.lanesK)))
                  : Value(arith::DivUIOp::create(b, lane, idx(cols)));
    vl = add(mul(colWave, idx(cols)), colInWave);
    kt = add(mul(waveK, idx(s.lanesK)), ktInWave);
    gridCol = vl;
  }
  // The lane's columns in pass p. vk: gridCols apart (each column is its
  // own contiguous run). kv: runs of kvRun() adjacent columns, one vector
  // of a k-row each; the wave's lanes take consecutive runs, so one access
  // of a wave reads colsPerWave * kvRun() consecutive elements.
  // Pass p covers the block's columns [p * passCols, (p + 1) * passCols).
  Value colBase = add(mul(colBlock, idx(s.blockV)),
                      vkLayout ? vl : mul(vl, idx(kvRun())));
  Value k0 = mul(kt, idx(s.elemsK));
  if (s.maskK()) // k in range of the lane's run: clamp(K - k0, 0, E)
    validK = clampCount(arith::SubIOp::create(b, idx(layer.getHeadK()), k0),
                        s.elemsK);
  auto ult = [&](Value x, Value y) {
    return arith::CmpIOp::create(b, arith::CmpIPredicate::ult, x, y);
  };
  // Scattered outputs: lane kt < 2^levels holds column heldColumn() of its
  // columns (distinct across those lanes) and writes it; padding columns
  // of the exchange, and columns past head_v, are not written.
  Value heldAt, heldWriter, heldCol;
  if (scatteredOutputs())
    heldAt = heldColumn();
  SmallVector<Value> cols;
  auto setPass = [&](unsigned pass) {
    Value base = add(colBase, idx(pass * s.passCols()));
    cols.clear();
    for (unsigned c = 0; c < s.colsPerThread; ++c)
      cols.push_back(add(base, idx(columnOffset(c))));
    colValid.clear();
    if (s.maskV())
      for (Value col : cols)
        colValid.push_back(ult(col, idx(V)));
    if (!heldAt)
      return;
    const unsigned width = llvm::PowerOf2Ceil(s.colsPerThread);
    heldCol = add(base, columnOffset(heldAt));
    heldWriter = arith::AndIOp::create(b, ult(ktInWave, idx(width)),
                                       ult(heldAt, idx(s.colsPerThread)));
    if (s.maskV())
      heldWriter = arith::AndIOp::create(b, heldWriter, ult(heldCol, idx(V)));
  };
  Value hq = arith::DivUIOp::create(b, h, idx(G));
  Value bos = toIndex(memref::LoadOp::create(b, cu, n));
  Value eos = toIndex(memref::LoadOp::create(b, cu, add(n, idx(1))));
  Value slot = slotAt(n, idx(0));
  Value isLeader =
      arith::CmpIOp::create(b, arith::CmpIPredicate::eq, kt, idx(0));
  auto storeOut = [&](Value t, ArrayRef<Value> outs) {
    Value row = mul(add(mul(t, idx(HV)), h), idx(V));
    Type elem = cast<MemRefType>(out.getType()).getElementType();
    OpBuilder::InsertionGuard guard(b);
    if (outs.size() != cols.size()) { // one scattered output per lane
      auto ifWriter = scf::IfOp::create(b, heldWriter, /*withElse=*/false);
      b.setInsertionPoint(ifWriter.thenBlock()->getTerminator());
      memref::StoreOp::create(b, narrow(outs.front(), elem), out,
                              add(row, heldCol));
      return;
    }
    auto ifLeader = scf::IfOp::create(b, isLeader, /*withElse=*/false);
    b.setInsertionPoint(ifLeader.thenBlock()->getTerminator());
    for (auto [c, col, o] : llvm::enumerate(cols, outs)) {
      OpBuilder::InsertionGuard inColumn(b);
      if (s.maskV()) { // no output past head_v
        auto ifValid = scf::IfOp::create(b, colValid[c], /*withElse=*/false);
        b.setInsertionPoint(ifValid.thenBlock()->getTerminator());
      }
      memref::StoreOp::create(b, narrow(o, elem), out, add(row, col));
    }
  };

  // Padding (slot <= 0, or slot < 0 by the variant): zero output rows, no
  // state access.
  Value isPadding = arith::CmpIOp::create(b, arith::CmpIPredicate::sle, slot,
                                          idx(rows.paddingBelow - 1));
  auto ifPad = scf::IfOp::create(b, isPadding, /*withElse=*/true);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(ifPad.thenBlock()->getTerminator());
    auto loop = scf::ForOp::create(b, bos, eos, idx(1));
    b.setInsertionPoint(loop.getBody()->getTerminator());
    for (unsigned pass = 0; pass < s.vPasses; ++pass) {
      setPass(pass);
      storeOut(loop.getInductionVar(),
               SmallVector<Value>(s.colsPerThread, f(0.0)));
    }
  }
  b.setInsertionPoint(ifPad.elseBlock()->getTerminator());

  // The starting state of a pass: the slot's, or zeros without reading the
  // slot.
  Value init = arith::CmpIOp::create(
      b, arith::CmpIPredicate::ne, memref::LoadOp::create(b, hasInit, n),
      arith::ConstantIntOp::create(b, 0, 8));
  const unsigned stateRegs = s.elemsK * s.colsPerThread;
  auto startState = [&](unsigned pass) -> SmallVector<Value> {
    setPass(pass);
    // As loaded (packed bf16 words where packedState()); zeros either way.
    const bool packed = packedState();
    Type loadedType = packed ? Type(b.getI32Type()) : f32;
    const unsigned count = packed ? stateRegs / 2 : stateRegs;
    auto ifInit = scf::IfOp::create(b, SmallVector<Type>(count, loadedType),
                                    init, /*withElse=*/true);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifInit.thenBlock());
    scf::YieldOp::create(
        b, loadState(rows.speculative() ? acceptedSlot(n) : slot, h, k0, cols));
    b.setInsertionPointToStart(ifInit.elseBlock());
    Value zero =
        packed ? arith::ConstantIntOp::create(b, b.getI32Type(), 0).getResult()
               : f(0.0);
    scf::YieldOp::create(b, SmallVector<Value>(count, zero));
    return SmallVector<Value>(ifInit.getResults());
  };
  Value expALog;
  if (aLog)
    expALog =
        emitExpALog(b, b.getLoc(), widen(memref::LoadOp::create(b, aLog, h)));

  // Pass p + 1's state is loaded before pass p is computed, so its latency
  // hides behind that work (registers only: nothing is shared, no barrier).
  SmallVector<Value> ahead = startState(0);
  if (s.sharedTerms) // behind the first pass's state loads
    writeSharedTerms(bos, eos, h, hq, expALog);
  for (unsigned pass = 0; pass < s.vPasses; ++pass) {
    SmallVector<Value> loaded = std::move(ahead);
    if (pass + 1 < s.vPasses)
      ahead = startState(pass + 1);
    setPass(pass);
    SmallVector<Value> initial = widenState(loaded);
    if (s.wavesK > 1)
      exchangeBase = arith::SubIOp::create(
          b, mul(idx(pass), arith::SubIOp::create(b, eos, bos)), bos);
    SmallVector<Value> finalState;
    if (s.ldsStages > 0) { // one pass (a rule of the config)
      if (failed(emitStagedTokenLoop(bos, eos, h, hq, k0, cols, expALog,
                                     initial, finalState, storeOut)))
        return failure();
    } else if (s.mma) { // one pass, direct loads (rules)
      emitMmaTokens(bos, eos, n, h, hq, k0, cols, expALog, loaded, finalState,
                    storeOut);
    } else {
      // With shared terms the row's first token reads them from LDS,
      // behind its v loads.
      auto token = [&](Value t, ValueRange S, bool first) {
        if (!first)
          return tokenStep(t, h, k0, cols, expALog, S,
                           globalRows(t, h, hq, k0));
        SmallVector<Value> vvals = columnLoads(t, h, cols);
        return columnStep(t, S, vvals, readSharedTerms(k0));
      };
      finalState = emitRowTokens(
          bos, eos, n, h, k0, cols, initial, /*peelFirst=*/s.sharedTerms,
          [&] { return initial; }, token, storeOut);
    }
    if (!rows.speculative())
      storeState(slot, h, k0, cols, finalState);
  }

  b.setInsertionPointToEnd(&entry);
  gpu::ReturnOp::create(b);
  return success();
}

//===----------------------------------------------------------------------===//
// mma = 1: the column sums by the matrix atom
//===----------------------------------------------------------------------===//
//
// Per token, per wave: S'^T k and S'^T q of the wave's columns are rows 0
// and 1 of D = A B with A (16 x K, rows 0 and 1 the decayed k and q, the
// rest zero) and B = S^T (K x columns). decay * k is taken into A, so B is
// the state as it is: on a row's first token the bf16 pool's own values,
// an exact operand (two atoms a k step: A's hi and lo halves); after it,
// the f32 state split in two (three atoms). k runs in the atom's k-slot
// order inside A and B alike, and the slots are mapped to physical k so
// that a lane's B elements of all steps are one contiguous run of its
// column (decodeMmaAtom): its state loads stay 16-byte vectors, and the
// element update reads the decays and k of that run. Against the FMA
// kernel, no lane exchanges and no per-lane FMAs for the sums: on the
// H200 (ncu, bf16 vk pool, N 128) those were about 12 of its 18
// instructions an element.

Value RecurrentKernelEmitter::pext(Value x, unsigned mask) {
  Value v = idx(0);
  for (unsigned bit = 0, i = 0; bit < 32; ++bit) {
    if (!(mask >> bit & 1))
      continue;
    Value one = arith::AndIOp::create(b, arith::ShRUIOp::create(b, x, idx(bit)),
                                      idx(1));
    v = arith::OrIOp::create(b, v, arith::ShLIOp::create(b, one, idx(i++)));
  }
  return v;
}

std::pair<Value, Value> RecurrentKernelEmitter::mmaTerms(Value t, Value h,
                                                         Value hq,
                                                         Value expALog,
                                                         Value region) {
  const int64_t K = layer.getHeadK(), HV = layer.getValueHeads();
  // K is a multiple of the wave (rules): every lane's k is in range.
  WaveTerms wt = waveTerms(t, h, hq, expALog, lane);
  for (auto [i, at] : llvm::enumerate(wt.k)) {
    auto put = [&](Value x, int64_t field) {
      memref::StoreOp::create(b, x, mmaLds, add(region, add(idx(field), at)));
    };
    put(packSplitWord(b, b.getLoc(), *mma->atom, fmul(wt.decays[i], wt.ks[i])),
        0);
    put(packSplitWord(b, b.getLoc(), *mma->atom, fmul(wt.decays[i], wt.qs[i])),
        K);
    put(wt.decays[i], 2 * K);
    put(wt.ks[i], 3 * K);
  }
  Value braw = widen(memref::LoadOp::create(b, beta, add(mul(t, idx(HV)), h)));
  return {emitBeta(b, b.getLoc(), layer, braw), wt.kq};
}

SmallVector<Value> RecurrentKernelEmitter::mmaStep(Value t, Value h, Value hq,
                                                   Value expALog, ValueRange S,
                                                   ArrayRef<Value> words,
                                                   ArrayRef<Value> cols) {
  const MmaAtom &atom = *mma->atom;
  const int64_t K = layer.getHeadK();
  const unsigned EB = atom.b.elems, KT = K / atom.k, NT = s.colsPerThread,
                 E = s.elemsK, N = atom.n;
  Location loc = b.getLoc();
  // The v loads first: their latency hides behind the terms.
  SmallVector<Value> vvals = columnLoads(t, h, cols);
  Value region =
      add(mmaWaveBase, mul(arith::RemUIOp::create(b, t, idx(2)), idx(4 * K)));
  Value sumsBase = add(mmaWaveBase, idx(8 * K));
  auto [betaV, kq] = mmaTerms(t, h, hq, expALog, region);
  // The terms' region is the other one than the previous token's, whose
  // element updates may still read theirs; the sums' words were last read
  // before this token's terms barrier.
  gpu::BarrierOp::create(b);

  // A of step kt: the lane's row (0: decayed k, 1: decayed q, else zero)
  // at the k of its own B elements, one vector read of its run a step.
  const std::vector<int> &aFromB = mma->aFromB;
  const unsigned live =
      std::find_if(aFromB.begin(), aFromB.end(), [](int e) { return e >= 0; }) -
      aFromB.begin();
  Value aRow = fragmentCoords(b, loc, atom.a, lane, live).first;
  Value aUsed =
      arith::CmpIOp::create(b, arith::CmpIPredicate::ult, aRow, idx(2));
  Value isQ = arith::CmpIOp::create(b, arith::CmpIPredicate::eq, aRow, idx(1));
  Value k0 = mul(ktInWave, idx(E));
  Value aBase =
      add(add(region, arith::SelectOp::create(b, isQ, idx(K), idx(0))), k0);
  VectorType runWords = VectorType::get({int64_t(EB)}, f32);
  VectorType i32s = VectorType::get({int64_t(EB / 2)}, b.getI32Type());
  VectorType f32s = VectorType::get({int64_t(EB)}, f32);
  // k steps outside, columns inside: a step's A is live for its atoms only
  // (as the inner loop it held every step's A, 8 fragments of split
  // halves, across the columns: 160 registers at two n-tiles on sm_90).
  SmallVector<SplitAccumulator> accs(
      NT, SplitAccumulator{zeroAccumulator(b, loc, atom),
                           zeroAccumulator(b, loc, atom)});
  for (unsigned kt = 0; kt < KT; ++kt) {
    Value run = vector::LoadOp::create(
        b, runWords, mmaLds, ValueRange{add(aBase, idx(kt * EB))},
        /*nontemporal=*/false, llvm::MaybeAlign(rules::accessAlignment(4, EB)));
    SmallVector<Value> aWords;
    for (int eb : aFromB)
      aWords.push_back(
          eb < 0 ? f(0.0)
                 : arith::SelectOp::create(
                       b, aUsed, vector::ExtractOp::create(b, run, eb), f(0.0))
                       .getResult());
    SplitFragment a = splitWordsFragment(b, loc, atom, aWords);
    for (unsigned j = 0; j < NT; ++j) {
      if (!words.empty()) { // the pool's bf16, as loaded: exact
        SmallVector<Value> w(words.slice((j * E + kt * EB) / 2, EB / 2));
        Value frag = vector::BitCastOp::create(
            b, fragmentType(b.getContext(), atom, MmaOperand::B),
            vector::FromElementsOp::create(b, i32s, w));
        accs[j] = emitMmaExactInto(b, loc, atom, a, frag, accs[j]);
        continue;
      }
      SmallVector<Value> x(S.begin() + j * E + kt * EB,
                           S.begin() + j * E + kt * EB + EB);
      SplitFragment bs = splitFragment(
          b, loc, atom, vector::FromElementsOp::create(b, f32s, x));
      accs[j] = emitMmaSplitInto(b, loc, atom, a, bs, accs[j]);
    }
  }
  const unsigned rowWords = NT * N;
  for (unsigned j = 0; j < NT; ++j) {
    SplitAccumulator &acc = accs[j];
    // Rows 0 and 1 of D (S'^T k, S'^T q) to the wave's sums words; the
    // elements on rows >= 2 on every lane are not even looked at.
    Value d = acc.sum(b, loc);
    for (unsigned e = 0; e < atom.c.elems; ++e) {
      if (!mma->cUsed[e])
        continue;
      auto [row, col] = fragmentCoords(b, loc, atom.c, lane, e);
      Value used =
          arith::CmpIOp::create(b, arith::CmpIPredicate::ult, row, idx(2));
      auto ifUsed = scf::IfOp::create(b, used, /*withElse=*/false);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPoint(ifUsed.thenBlock()->getTerminator());
      memref::StoreOp::create(
          b, vector::ExtractOp::create(b, d, e), mmaLds,
          add(sumsBase, add(mul(row, idx(rowWords)), add(idx(j * N), col))));
    }
  }
  gpu::BarrierOp::create(b);

  // Per column: r = beta (v - S'^T k), output S'^T q + (k.q) r; then the
  // lane's elements S' + k r^T with S' = decay * S, from its run's decays
  // and k (memory order, contiguous: 4-word vector reads).
  SmallVector<Value> rs, outs;
  for (unsigned j = 0; j < NT; ++j) {
    Value at = add(sumsBase, add(idx(j * N), mmaCol));
    Value pk = memref::LoadOp::create(b, mmaLds, at);
    Value pq = memref::LoadOp::create(b, mmaLds, add(at, idx(rowWords)));
    rs.push_back(fmul(betaV, fsub(vvals[j], pk)));
    outs.push_back(fma(kq, rs.back(), pq));
  }
  // A row's first token widens the pool's words only now: held as f32
  // through the atoms as well, they took a third more registers.
  SmallVector<Value> widened;
  if (!words.empty()) {
    widened = widenState(words);
    S = widened;
  }
  // Four k of the run at a time for all columns: the decays and k of the
  // whole run read at once stayed live through every column (2 x 32
  // registers at K = 128 on sm_90).
  SmallVector<Value> next(E * NT);
  VectorType four = VectorType::get({4}, f32);
  for (unsigned i = 0; i < E; i += 4) {
    auto read = [&](int64_t at) {
      return vector::LoadOp::create(
                 b, four, mmaLds, ValueRange{add(add(region, idx(at + i)), k0)},
                 /*nontemporal=*/false, llvm::MaybeAlign(16))
          .getResult();
    };
    Value d4 = read(2 * K), k4 = read(3 * K);
    for (unsigned e = 0; e < 4; ++e) {
      Value decay = vector::ExtractOp::create(b, d4, e);
      Value kn = vector::ExtractOp::create(b, k4, e);
      for (unsigned j = 0; j < NT; ++j)
        next[j * E + i + e] = fma(kn, rs[j], fmul(S[j * E + i + e], decay));
    }
  }
  llvm::append_range(next, outs);
  return next;
}

void RecurrentKernelEmitter::emitMmaTokens(
    Value bos, Value eos, Value n, Value h, Value hq, Value k0,
    ArrayRef<Value> cols, Value expALog, ArrayRef<Value> words,
    SmallVectorImpl<Value> &finalState,
    function_ref<void(Value, ArrayRef<Value>)> storeOut) {
  // A row's first token reads the pool's words as the atom's operand; the
  // rest of the row the f32 state, split.
  auto token = [&](Value t, ValueRange S, bool first) {
    return mmaStep(t, h, hq, expALog, S, first ? words : ArrayRef<Value>(),
                   cols);
  };
  finalState = emitRowTokens(
      bos, eos, n, h, k0, cols, /*initial=*/{}, /*peelFirst=*/true,
      [&] { return widenState(words); }, token, storeOut);
}

SmallVector<Value> RecurrentKernelEmitter::emitRowTokens(
    Value bos, Value eos, Value n, Value h, Value k0, ArrayRef<Value> cols,
    ValueRange initial, bool peelFirst,
    function_ref<SmallVector<Value>()> ifEmpty, TokenFn token,
    function_ref<void(Value, ArrayRef<Value>)> storeOut) {
  const unsigned regs = s.elemsK * s.colsPerThread;
  auto step = [&](Value t, ValueRange S, bool first) {
    SmallVector<Value> next = token(t, S, first);
    ArrayRef<Value> all(next);
    storeOut(t, all.drop_front(regs));
    // Speculative rows keep the state after every token, in its own slot.
    if (rows.speculative())
      storeState(slotAt(n, arith::SubIOp::create(b, t, bos)), h, k0, cols,
                 all.take_front(regs));
    return SmallVector<Value>(all.take_front(regs));
  };
  Value from = bos;
  SmallVector<Value> carried(initial.begin(), initial.end());
  if (peelFirst) {
    Value nonEmpty =
        arith::CmpIOp::create(b, arith::CmpIPredicate::ult, bos, eos);
    auto first = scf::IfOp::create(b, SmallVector<Type>(regs, f32), nonEmpty,
                                   /*withElse=*/true);
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(first.thenBlock());
      scf::YieldOp::create(b, step(bos, initial, /*first=*/true));
      b.setInsertionPointToStart(first.elseBlock());
      scf::YieldOp::create(b, ifEmpty());
    }
    carried.assign(first.getResults().begin(), first.getResults().end());
    from = add(bos, idx(1));
  }
  auto loop = scf::ForOp::create(b, from, eos, idx(1), carried);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    scf::YieldOp::create(b, step(loop.getInductionVar(),
                                 loop.getRegionIterArgs(), /*first=*/false));
  }
  return SmallVector<Value>(loop.getResults());
}

// Test only: the same kernel with its argument list reversed. The numeric
// tests run such bundles against the oracle to show that the order lives in
// the ABI alone (manifest, runtime packing and the emitter follow it).
static llvm::cl::opt<bool> clTestReverseAbi(
    "kda-test-reverse-abi", llvm::cl::Hidden, llvm::cl::init(false),
    llvm::cl::desc("state the recurrent kernel's ABI in reverse order "
                   "(tests that nothing else fixes the argument order)"));

/// The recurrent kernel's arguments: bare pointers to elements of each
/// operand's type (i1 flags travel as bytes; an absent a_log or dt_bias is
/// still an f32 argument, passed null). The state is read and written, the
/// output written, the rest read.
static SmallVector<KernelArg> recurrentKernelAbi(RecurrentOp op,
                                                 const RowVariant &rows) {
  MLIRContext *ctx = op.getContext();
  auto elem = [&](Value operand) { return kernelArgElementType(ctx, operand); };
  auto in = [&](const char *name, Value operand) {
    return inputArg(ctx, name, operand);
  };
  SmallVector<KernelArg> abi = layerInputArgs(op);
  abi.append({in("has_initial_state", op.getHasInitialState()),
              {"state", elem(op.getState()), ArgRole::InOut},
              {"out", elem(op.getO()), ArgRole::Output}});
  if (rows.speculative()) // the same type as the slots
    abi.push_back(in("num_accepted_tokens", op.getSlots()));
  return abi;
}

FailureOr<gpu::GPUFuncOp>
mlir::kda::buildRecurrentKernel(OpBuilder &builder, gpu::GPUModuleOp module,
                                StringRef name, RecurrentOp op,
                                ConfigAttr config, const TargetInfo &target) {
  RecurrentSchedule s;
  std::string reason;
  if (failed(deriveRecurrentSchedule(op.getLayer(), config, target, s,
                                     reason)))
    return op.emitOpError() << "config " << config << " does not fit "
                            << target.name << ": " << reason;

  // The kernel's ABI, stated once: the runtime packs launches from it by
  // name, so nothing else fixes the argument order.
  FailureOr<RowVariant> rows = rowVariantOf(op, s);
  if (failed(rows))
    return failure();
  MLIRContext *ctx = builder.getContext();
  SmallVector<KernelArg> abi = recurrentKernelAbi(op, *rows);
  if (clTestReverseAbi)
    std::reverse(abi.begin(), abi.end());
  SmallVector<Type> argTypes = kernelArgTypes(ctx, abi);

  ImplicitLocOpBuilder b(op.getLoc(), builder);
  b.setInsertionPointToEnd(module.getBody());
  // The staged token loop: an LDS ring (workgroup memory, described to the
  // verifier by a kda.lds_buffer) and the lane's state in private memory.
  SmallVector<Type> workgroup, priv;
  FlatSymbolRefAttr tokenRing;
  const TokenSlotLayout layout = tokenSlotLayout(op, target);
  auto rowBytes = [&](Value v) {
    return op.getLayer().getHeadK() *
           int64_t(cast<MemRefType>(v.getType()).getElementTypeBitWidth() / 8);
  };
  if (s.ldsStages > 0 && (rowBytes(op.getQ()) % 16 || rowBytes(op.getG()) % 16))
    return op.emitOpError() << "config " << config << ": the token pipeline "
                            << "copies rows in 16-byte pieces, but a q/k/g row "
                               "of head_k = "
                            << op.getLayer().getHeadK()
                            << " is not a multiple of 16 bytes";
  const int64_t ringBytes =
      s.ldsStages > 0 ? (s.ldsStages + (layout.sinkSlot ? 1 : 0)) * layout.bytes
                      : 0;
  if (s.mma && !decodeMmaAtom(target))
    return op.emitOpError() << "config " << config << ": mma = 1 but "
                            << target.name << " has no matrix atom for it";
  const int64_t ldsTotal =
      ringBytes + s.exchangeBytes() + s.mmaLdsBytes() + s.sharedTermsLdsBytes();
  if (ldsTotal > int64_t(target.staticLdsBytes))
    return op.emitOpError()
           << "config " << config << " needs " << ldsTotal
           << " bytes of LDS, more than the " << target.staticLdsBytes
           << " a kernel may declare statically on " << target.name;
  if (s.ldsStages > 0) {
    std::string ringName = (name + "_tokens").str();
    LdsBufferOp::create(b, ringName, s.ldsStages, layout.bytes, 0);
    tokenRing = FlatSymbolRefAttr::get(ctx, ringName);
    workgroup.push_back(MemRefType::get(
        {ringBytes}, IntegerType::get(ctx, 8), nullptr,
        gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup)));
    priv.push_back(MemRefType::get(
        {int64_t(s.elemsK * s.colsPerThread)}, Float32Type::get(ctx), nullptr,
        gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Private)));
  }
  // The cross-wave exchange: flat f32 words in workgroup memory.
  if (s.wavesK > 1)
    workgroup.push_back(MemRefType::get(
        {int64_t(s.exchangeBytes() / 4)}, Float32Type::get(ctx), nullptr,
        gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup)));
  // mma = 1: each wave's token terms and sums (flat f32 words).
  if (s.mma)
    workgroup.push_back(MemRefType::get(
        {int64_t(s.mmaLdsBytes() / 4)}, Float32Type::get(ctx), nullptr,
        gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup)));
  // sharedTerms: the first token's terms (flat f32 words).
  if (s.sharedTerms)
    workgroup.push_back(MemRefType::get(
        {int64_t(s.sharedTermsLdsBytes() / 4)}, Float32Type::get(ctx), nullptr,
        gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup)));
  auto func = gpu::GPUFuncOp::create(
      b, name, FunctionType::get(ctx, argTypes, {}), workgroup, priv);
  func->setAttr(gpu::GPUDialect::getKernelFuncAttrName(), b.getUnitAttr());
  // The emitter reads and writes these buffers by vectors of up to 16 bytes
  // at offsets that are multiples of their width (kRunAlign and the like
  // assume a 16-byte base): say so, rather than rely on each being the
  // only buffer of its kernel (the backends declare 4 otherwise).
  for (unsigned i = 0; i < workgroup.size(); ++i)
    func.setWorkgroupAttributionAttr(i, LLVM::LLVMDialect::getAlignAttrName(),
                                     b.getI64IntegerAttr(16));
  setKernelAbi(func, abi);
  func.setKnownBlockSizeAttr(
      b.getDenseI32ArrayAttr({int32_t(s.threads()), 1, 1}));
  func->setAttr("kda.layer", op.getLayer());
  func->setAttr("kda.config", config);
  func->setAttr("kda.lanes_k", b.getI32IntegerAttr(s.lanesK));
  if (s.wavesK > 1)
    func->setAttr("kda.waves_k", b.getI32IntegerAttr(s.wavesK));
  func->setAttr("kda.cols_per_thread", b.getI32IntegerAttr(s.colsPerThread));
  if (s.mma) { // the atom's shape, for the runtime's rules (manifest)
    func->setAttr("kda.mma_n", b.getI32IntegerAttr(s.mmaN));
    func->setAttr("kda.mma_k", b.getI32IntegerAttr(s.mmaK));
  }
  func->setAttr("kda.spec_tokens", b.getI64IntegerAttr(rows->specTokens));
  func->setAttr("kda.padding_below", b.getI64IntegerAttr(rows->paddingBelow));
  func->setAttr("kda.slot_stride", b.getI64IntegerAttr(rows->slotStride));
  // Grid: (ceil(head_v / block_v), value_heads, num_seqs).
  func->setAttr("kda.grid",
                b.getDenseI64ArrayAttr({int64_t(s.gridX()),
                                        op.getLayer().getValueHeads(), -1}));
  if (failed(RecurrentKernelEmitter(b, op, s, target, tokenRing, layout, *rows)
                 .emit(func)))
    return failure();
  if (tokenRing) {
    // The kernel's own LDS accesses against the schedule's entry (the
    // schedule was verified from quiescent LDS).
    if (failed(verifyScheduleEntries(func)))
      return failure();
    // Record what was verified; the ring stays beside the kernel for
    // kda-verify-pipeline and the atom lowerings (which erase it).
    auto ring = module.lookupSymbol<LdsBufferOp>(tokenRing.getValue());
    func->setAttr("kda.verified_pipeline",
                  b.getStringAttr(llvm::formatv(
                      "tokens: depth {0}, {1} slots of {2} bytes, verified "
                      "for {3}",
                      s.ldsStages, ring.getSlots(), ring.getSlotBytes(),
                      target.name)));
  }
  return func;
}
