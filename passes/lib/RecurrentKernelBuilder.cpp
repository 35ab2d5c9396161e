//===- RecurrentKernelBuilder.cpp - the decode kernel ---------------------===//
//
// Per token t of the workgroup's sequence, each lane does, for its k-run:
//   q, k <- l2norm (cluster sums over the column's lanes), q *= scale
//   S    <- exp(g) * S
//   r    =  beta * (v - sum_k S k)          (cluster sum)
//   S    <- S + k r
//   o    =  sum_k S q                       (cluster sum; lane kt = 0 stores)
// All math in f32; activations are widened on load and narrowed on store.
//
//===----------------------------------------------------------------------===//
#include "kda/Passes/RecurrentKernelBuilder.h"
#include "kda/Passes/PipelineExpansion.h"
#include "kda/Passes/PipelineHazards.h"

#include "mlir/Dialect/AMDGPU/IR/AMDGPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/IR/IRMapping.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::kda;

static constexpr llvm::StringLiteral kArgNames[] = {
    "q",  "k",          "v",     "g",     "beta",
    "a_log", "dt_bias", "cu_seqlens", "slots", "has_initial_state",
    "state", "out"};

ArrayRef<llvm::StringLiteral> mlir::kda::recurrentKernelArgNames() {
  return kArgNames;
}

//===----------------------------------------------------------------------===//
// Schedule
//===----------------------------------------------------------------------===//

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
static unsigned defaultLanesK(LayerAttr layer, const TargetInfo &t) {
  const unsigned K = layer.getHeadK();
  unsigned lanes = layer.getStateLayout() == StateLayout::VK
                       ? std::max(1u, K * stateBytes(layer) / 16)
                       : 2 * defaultColsPerLane(layer);
  lanes = std::min(llvm::PowerOf2Ceil(lanes), uint64_t(t.waveSize));
  while (lanes > 1 && K % lanes != 0)
    lanes /= 2;
  // Every lane of a wave must own a column: columns per wave <= V.
  while (t.waveSize / lanes > unsigned(layer.getHeadV()) && lanes < t.waveSize)
    lanes *= 2;
  return lanes;
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
                         /*waves_k=*/1);
}

LogicalResult mlir::kda::deriveRecurrentSchedule(LayerAttr layer,
                                                 ConfigAttr config,
                                                 const TargetInfo &t,
                                                 RecurrentSchedule &s,
                                                 std::string &reason) {
  llvm::raw_string_ostream os(reason);
  const unsigned K = layer.getHeadK(), V = layer.getHeadV();
  s.waveSize = t.waveSize;
  s.warps = config.getWarps();
  s.blockV = config.getBlockV();
  if (config.getBlockK() != K)
    return os << "the recurrent kernel keeps whole columns: block_k must be "
                 "head_k ("
              << K << "), got " << config.getBlockK(),
           failure();
  if (config.getBlockT() != 1 || config.getStages() != 1)
    return os << "the recurrent kernel takes block_t = 1 and stages = 1",
           failure();
  if (V % s.blockV != 0)
    return os << "block_v (" << s.blockV << ") must divide head_v (" << V
              << ")",
           failure();
  if (s.threads() > t.maxWorkgroupSize)
    return os << s.warps << " waves of " << t.waveSize << " exceed the "
              << t.maxWorkgroupSize << "-thread workgroup limit of " << t.name,
           failure();
  s.wavesK = config.getWavesK();
  if (s.wavesK > 1 && config.getLanesK() == 0)
    return os << "waves_k = " << s.wavesK
              << " needs lanes_k (the lanes of one wave sharing a column)",
           failure();
  if (config.getLanesK() == 0) { // one column per thread
    if (s.threads() % s.blockV != 0)
      return os << "block_v (" << s.blockV << ") must divide the "
                << s.threads() << " threads of a workgroup",
             failure();
    s.lanesK = s.threads() / s.blockV;
  } else {
    s.lanesK = config.getLanesK();
  }
  if (!llvm::isPowerOf2_32(s.lanesK) || s.lanesK > t.waveSize)
    return os << "each column needs a power-of-two number of lanes within one "
                 "wave of "
              << t.waveSize << ", got " << s.lanesK,
           failure();
  if (K % (s.lanesK * s.wavesK) != 0)
    return os << s.lanesK << " lanes x " << s.wavesK
              << " waves per column do not divide head_k (" << K << ")",
           failure();
  if (s.gridCols() == 0 || s.blockV % s.gridCols() != 0)
    return os << "block_v (" << s.blockV << ") must be a multiple of the "
              << s.gridCols() << " columns " << s.threads() << " threads of "
              << s.lanesK << " lanes cover",
           failure();
  s.colsPerThread = s.blockV / s.gridCols();
  s.ldsStages = config.getLdsStages();
  s.elemsK = K / (s.lanesK * s.wavesK);
  if (s.exchangeBytes() > t.staticLdsBytes)
    return os << "the cross-wave exchange needs " << s.exchangeBytes()
              << " bytes of LDS, more than the " << t.staticLdsBytes
              << " a kernel may declare statically on " << t.name,
           failure();
  return success();
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
                         const TokenSlotLayout &slotLayout)
      : b(b), op(op), layer(op.getLayer()), s(s), target(target),
        tokenRing(tokenRing), f32(b.getF32Type()), slotLayout(slotLayout) {}

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
  Value widen(Value v) {
    return v.getType() == f32 ? v : arith::ExtFOp::create(b, f32, v);
  }
  Value narrow(Value v, Type to) {
    return to == f32 ? v : arith::TruncFOp::create(b, to, v);
  }
  Value sigmoid(Value x) {
    Value e = math::ExpOp::create(b, arith::NegFOp::create(b, x));
    return arith::DivFOp::create(b, f(1.0), fadd(f(1.0), e));
  }
  /// The regions of the cross-wave exchange, one per reduction of a token.
  enum ExchangeRegion : unsigned { NormRegion, ResidualRegion, OutputRegion };
  /// Sums over every lane sharing this lane's column: inside the wave with a
  /// cluster reduction, then, with wavesK > 1, across waves through `region`
  /// of the LDS exchange (one barrier for all of `partials`).
  SmallVector<Value> columnSums(ArrayRef<Value> partials, ExchangeRegion region);
  /// `count` consecutive elements at `offset`, widened to f32; one vector
  /// load when more than one.
  SmallVector<Value> loadRun(Value mem, Value offset, unsigned count);
  void storeRun(Value mem, Value offset, ArrayRef<Value> values);

  /// Flat offset of S[k][v] of head h in slot `slot`.
  Value stateOffset(Value slot, Value h, Value k, Value v);
  /// The lane's state tile, column-major (column c's k-run at c * E).
  SmallVector<Value> loadState(Value slot, Value h, Value k0,
                               ArrayRef<Value> cols);
  void storeState(Value slot, Value h, Value k0, ArrayRef<Value> cols,
                  ArrayRef<Value> values);
  Value gate(Value raw, Value h, Value k, Value expALog);
  /// One token: the new state (column-major: column c's run at c * E) and
  /// then one output per column.
  SmallVector<Value> tokenStep(Value t, Value h, Value hq, Value k0,
                               ArrayRef<Value> cols, Value expALog,
                               ValueRange state, const TokenRows &rows);

  TokenRows globalRows(Value t, Value h, Value hq, Value k0);
  /// `elems` elements of type `elem` at `byteOffset` of ring slot `slot`.
  Value ldsView(Value slot, int64_t byteOffset, int64_t elems, Type elem);
  /// The LDS views of slot `slot` of the token ring.
  TokenRows ldsRows(Value slot, Value k0);
  /// The rows of token `iter` into ring slot `slot`, or, with `toSink`
  /// (AMDGPU), the rows of token min(iter, len - 1) into the sink.
  void asyncCopyRows(Value iter, Value slot, bool toSink = false);
  LogicalResult emitStagedTokenLoop(Value bos, Value eos, Value h, Value hq,
                                    Value k0, ArrayRef<Value> cols,
                                    Value expALog, ValueRange initial,
                                    SmallVectorImpl<Value> &finalState,
                                    function_ref<void(Value, ArrayRef<Value>)>
                                        storeOut);
  void emitTargetAtom(Operation *marker);

  ImplicitLocOpBuilder &b;
  RecurrentOp op;
  LayerAttr layer;
  const RecurrentSchedule &s;
  const TargetInfo &target;
  FlatSymbolRefAttr tokenRing;
  Type f32;
  TokenSlotLayout slotLayout; // of the token ring (lds_stages > 0)
  Value lds, priv; // workgroup / private attributions of the staged loop
  Value tokenBos, tokenLen, tokenH, tokenHq; // the staged loop's sequence
  Value exchange;  // the cross-wave exchange (wavesK > 1)
  // The lane's place: its column in the workgroup's grid, its k-lane within
  // the wave, and its wave's k-group.
  Value gridCol, ktInWave, waveK;
  // Flat views of the kernel arguments, in recurrentKernelArgNames() order.
  Value q, k, v, g, beta, aLog, dtBias, cu, slots, hasInit, state, out;
};
} // namespace

SmallVector<Value> RecurrentKernelEmitter::loadRun(Value mem, Value offset,
                                                   unsigned count) {
  auto type = cast<MemRefType>(mem.getType());
  Type elem = type.getElementType();
  SmallVector<Value> vals;
  if (count == 1) {
    vals.push_back(widen(memref::LoadOp::create(b, mem, offset)));
    return vals;
  }
  unsigned bytes = count * elem.getIntOrFloatBitWidth() / 8;
  auto vt = VectorType::get({count}, elem);
  Value vec = vector::LoadOp::create(b, vt, mem, ValueRange{offset},
                                     /*nontemporal=*/false,
                                     llvm::MaybeAlign(std::min(bytes, 16u)));
  for (unsigned i = 0; i < count; ++i)
    vals.push_back(widen(vector::ExtractOp::create(b, vec, int64_t(i))));
  return vals;
}

void RecurrentKernelEmitter::storeRun(Value mem, Value offset,
                                      ArrayRef<Value> values) {
  auto type = cast<MemRefType>(mem.getType());
  Type elem = type.getElementType();
  SmallVector<Value> narrowed;
  for (Value x : values)
    narrowed.push_back(narrow(x, elem));
  if (values.size() == 1) {
    memref::StoreOp::create(b, narrowed[0], mem, offset);
    return;
  }
  unsigned bytes = values.size() * elem.getIntOrFloatBitWidth() / 8;
  auto vt = VectorType::get({int64_t(values.size())}, elem);
  Value vec = vector::FromElementsOp::create(b, vt, narrowed);
  vector::StoreOp::create(b, vec, mem, ValueRange{offset},
                          /*nontemporal=*/false,
                          llvm::MaybeAlign(std::min(bytes, 16u)));
}

Value RecurrentKernelEmitter::stateOffset(Value slot, Value h, Value kk,
                                          Value vv) {
  const int64_t HV = layer.getValueHeads(), K = layer.getHeadK(),
                V = layer.getHeadV();
  Value base = mul(add(mul(slot, idx(HV)), h), idx(K * V));
  if (layer.getStateLayout() == StateLayout::VK)
    return add(base, add(mul(vv, idx(K)), kk));
  return add(base, add(mul(kk, idx(V)), vv));
}

SmallVector<Value> RecurrentKernelEmitter::loadState(Value slot, Value h,
                                                     Value k0,
                                                     ArrayRef<Value> cols) {
  const unsigned E = s.elemsK, C = cols.size();
  SmallVector<Value> vals(E * C);
  if (layer.getStateLayout() == StateLayout::VK) { // a column's k-run is contiguous
    for (unsigned c = 0; c < C; ++c) {
      SmallVector<Value> run =
          loadRun(state, stateOffset(slot, h, k0, cols[c]), E);
      std::copy(run.begin(), run.end(), vals.begin() + c * E);
    }
    return vals;
  }
  // kv: the lane's columns are adjacent, so each k-row is one vector.
  for (unsigned j = 0; j < E; ++j) {
    SmallVector<Value> row =
        loadRun(state, stateOffset(slot, h, add(k0, idx(j)), cols[0]), C);
    for (unsigned c = 0; c < C; ++c)
      vals[c * E + j] = row[c];
  }
  return vals;
}

void RecurrentKernelEmitter::storeState(Value slot, Value h, Value k0,
                                        ArrayRef<Value> cols,
                                        ArrayRef<Value> values) {
  const unsigned E = s.elemsK, C = cols.size();
  if (layer.getStateLayout() == StateLayout::VK) {
    for (unsigned c = 0; c < C; ++c)
      storeRun(state, stateOffset(slot, h, k0, cols[c]),
               values.slice(c * E, E));
    return;
  }
  for (unsigned j = 0; j < E; ++j) {
    SmallVector<Value> row;
    for (unsigned c = 0; c < C; ++c)
      row.push_back(values[c * E + j]);
    storeRun(state, stateOffset(slot, h, add(k0, idx(j)), cols[0]), row);
  }
}

// KDA-MATH.md section 1, gate kinds. `raw` already has dt_bias added.
Value RecurrentKernelEmitter::gate(Value raw, Value h, Value kk,
                                   Value expALog) {
  switch (layer.getGate()) {
  case GateKind::None:
    return raw;
  case GateKind::Softplus: {
    // softplus(x) = x for x > 20, else log1p(exp(x)); exp's input is clamped
    // so the unused branch never makes inf.
    Value x20 = arith::MinimumFOp::create(b, raw, f(20.0));
    Value sp = math::Log1pOp::create(b, math::ExpOp::create(b, x20));
    Value big = arith::CmpFOp::create(b, arith::CmpFPredicate::OGT, raw,
                                      f(20.0));
    Value softplus = arith::SelectOp::create(b, big, raw, sp);
    return arith::NegFOp::create(b, fmul(expALog, softplus));
  }
  case GateKind::LowerBound: {
    Value x = expALog ? fmul(expALog, raw) : raw;
    double lb = layer.getLowerBound().convertToDouble();
    return fmul(f(lb), sigmoid(x));
  }
  }
  llvm_unreachable("gate kind");
}

RecurrentKernelEmitter::TokenRows
RecurrentKernelEmitter::globalRows(Value t, Value h, Value hq, Value k0) {
  const int64_t H = layer.getHeads(), HV = layer.getValueHeads(),
                K = layer.getHeadK();
  Value qkOff = add(mul(add(mul(t, idx(H)), hq), idx(K)), k0);
  Value gOff = add(mul(add(mul(t, idx(HV)), h), idx(K)), k0);
  return {q, qkOff, k, qkOff, g, gOff};
}

SmallVector<Value> RecurrentKernelEmitter::tokenStep(Value t, Value h, Value hq,
                                                     Value k0,
                                                     ArrayRef<Value> cols,
                                                     Value expALog,
                                                     ValueRange S,
                                                     const TokenRows &rows) {
  const int64_t HV = layer.getValueHeads(), K = layer.getHeadK(),
                V = layer.getHeadV();
  const unsigned E = s.elemsK, C = s.colsPerThread;
  Value th = add(mul(t, idx(HV)), h);
  SmallVector<Value> qv = loadRun(rows.q, rows.qOff, E);
  SmallVector<Value> kv = loadRun(rows.k, rows.kOff, E);
  SmallVector<Value> graw = loadRun(rows.g, rows.gOff, E);
  SmallVector<Value> bias;
  if (dtBias)
    bias = loadRun(dtBias, add(mul(h, idx(K)), k0), E);
  // Per-column loads early: their latency hides behind the norms and gates.
  SmallVector<Value> vvals;
  for (Value col : cols)
    vvals.push_back(
        widen(memref::LoadOp::create(b, v, add(mul(th, idx(V)), col))));
  Value braw = widen(memref::LoadOp::create(b, beta, th));

  Value scale = f(layer.getEffectiveScale());
  if (layer.getQkL2norm()) {
    Value qss = f(0.0), kss = f(0.0);
    for (unsigned j = 0; j < E; ++j) {
      qss = fadd(qss, fmul(qv[j], qv[j]));
      kss = fadd(kss, fmul(kv[j], kv[j]));
    }
    // eps inside the sqrt, as the oracle and fla do.
    SmallVector<Value> norms = columnSums({qss, kss}, NormRegion);
    Value qinv = arith::DivFOp::create(
        b, f(1.0), math::SqrtOp::create(b, fadd(norms[0], f(1e-6))));
    Value kinv = arith::DivFOp::create(
        b, f(1.0), math::SqrtOp::create(b, fadd(norms[1], f(1e-6))));
    scale = fmul(scale, qinv);
    for (Value &x : kv)
      x = fmul(x, kinv);
  }
  for (Value &x : qv)
    x = fmul(x, scale);

  // The decay of the k-run, shared by every column of the lane.
  SmallVector<Value> decay;
  for (unsigned j = 0; j < E; ++j) {
    Value raw = dtBias ? fadd(graw[j], bias[j]) : graw[j];
    decay.push_back(
        math::ExpOp::create(b, gate(raw, h, add(k0, idx(j)), expALog)));
  }
  Value bval = braw;
  if (layer.getBeta() == BetaMode::Sigmoid)
    bval = sigmoid(braw);
  else if (layer.getBeta() == BetaMode::SigmoidX2)
    bval = fmul(f(2.0), sigmoid(braw));

  // Per column: decay, the delta-rule residual r = beta (v - S^T k), update,
  // output. Columns are independent: their reductions overlap.
  SmallVector<Value> Sd(E * C), next(E * C), pks, outs;
  for (unsigned c = 0; c < C; ++c) {
    Value pk = f(0.0);
    for (unsigned j = 0; j < E; ++j) {
      Sd[c * E + j] = fmul(S[c * E + j], decay[j]);
      pk = fadd(pk, fmul(Sd[c * E + j], kv[j]));
    }
    pks.push_back(pk);
  }
  pks = columnSums(pks, ResidualRegion);
  for (unsigned c = 0; c < C; ++c) {
    Value r = fmul(bval, fsub(vvals[c], pks[c]));
    Value po = f(0.0);
    for (unsigned j = 0; j < E; ++j) {
      next[c * E + j] = fadd(Sd[c * E + j], fmul(kv[j], r));
      po = fadd(po, fmul(next[c * E + j], qv[j]));
    }
    outs.push_back(po);
  }
  llvm::append_range(next, columnSums(outs, OutputRegion));
  return next;
}

SmallVector<Value>
RecurrentKernelEmitter::columnSums(ArrayRef<Value> partials,
                                   ExchangeRegion region) {
  SmallVector<Value> sums;
  unsigned stride =
      layer.getStateLayout() == StateLayout::VK ? 1 : s.colsPerWave();
  for (Value p : partials)
    sums.push_back(s.lanesK == 1
                       ? p
                       : gpu::SubgroupReduceOp::create(
                             b, p, gpu::AllReduceOperation::ADD,
                             /*uniform=*/false, s.lanesK, stride));
  if (s.wavesK == 1)
    return sums;
  // exchange[region][waveK][gridCol][i], written by k-lane 0 of each wave.
  const unsigned W = s.wavesK, n = s.exchangeValues();
  auto at = [&](Value wk, unsigned i) {
    Value row = add(mul(add(idx(region * W), wk), idx(s.gridCols())), gridCol);
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

TokenSlotLayout mlir::kda::tokenSlotLayout(RecurrentOp op,
                                           const TargetInfo &target) {
  const int64_t K = op.getLayer().getHeadK();
  auto bytesOf = [](Value v) {
    return int64_t(cast<MemRefType>(v.getType()).getElementTypeBitWidth() / 8);
  };
  const int64_t actRow = K * bytesOf(op.getQ()), gRow = K * bytesOf(op.getG());
  TokenSlotLayout l;
  l.async = target.asyncCopy && actRow % 16 == 0 && gRow % 16 == 0;
  if (l.async && target.kind == TargetKind::AMDGPU) {
    const int64_t region = int64_t(target.waveSize) * 16;
    l.q = 0, l.k = region, l.g = 2 * region, l.bytes = 3 * region;
    l.sinkBytes = region;
    return l;
  }
  l.q = 0, l.k = actRow, l.g = 2 * actRow;
  l.bytes = (2 * actRow + gRow + 15) / 16 * 16;
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

// The token's rows into `slot` by the target's async copy, in 16-byte
// chunks. sm_90: cp.async.cg, each thread its chunks. gfx950:
// global_load_lds_dwordx4 from wave 0, one instruction per row (a wave
// writes waveSize x 16 contiguous bytes from a uniform base, so lanes past
// the row read its first chunks again and fill the row's padding).
void RecurrentKernelEmitter::asyncCopyRows(Value iter, Value slot,
                                           bool toSink) {
  const int64_t H = layer.getHeads(), HV = layer.getValueHeads(),
                K = layer.getHeadK();
  if (toSink) // a token of the sequence, so the source address is valid
    iter = arith::MinUIOp::create(b, iter,
                                  arith::SubIOp::create(b, tokenLen, idx(1)));
  Value t = add(tokenBos, iter);
  Value qRow = mul(add(mul(t, idx(H)), tokenHq), idx(K));
  Value gRow = mul(add(mul(t, idx(HV)), tokenH), idx(K));
  struct Row {
    Value src, offset;
    int64_t ldsOffset;
  } rows[] = {{q, qRow, slotLayout.q}, {k, qRow, slotLayout.k},
              {g, gRow, slotLayout.g}};
  Value tid = gpu::ThreadIdOp::create(b, gpu::Dimension::x);
  for (const Row &r : rows) {
    Type elem = cast<MemRefType>(r.src.getType()).getElementType();
    const int64_t perChunk = 128 / elem.getIntOrFloatBitWidth();
    const int64_t chunks = K / perChunk;
    if (target.kind == TargetKind::NVPTX) {
      Value dst = ldsView(slot, r.ldsOffset, K, elem);
      auto loop = scf::ForOp::create(b, tid, idx(chunks), idx(s.threads()));
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPoint(loop.getBody()->getTerminator());
      Value e = mul(loop.getInductionVar(), idx(perChunk));
      nvgpu::DeviceAsyncCopyOp::create(
          b, nvgpu::DeviceAsyncTokenType::get(b.getContext()), dst,
          ValueRange{e}, r.src, ValueRange{add(r.offset, e)},
          b.getIndexAttr(perChunk), /*srcElements=*/Value(),
          /*bypassL1=*/b.getUnitAttr());
      continue;
    }
    // AMDGPU: wave 0 issues; the others have nothing outstanding, so their
    // waits pass at once and the schedule's barrier orders them after it.
    Value wave0 = arith::CmpIOp::create(b, arith::CmpIPredicate::ult, tid,
                                        idx(target.waveSize));
    auto ifWave0 = scf::IfOp::create(b, wave0, /*withElse=*/false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(ifWave0.thenBlock()->getTerminator());
    const int64_t region = int64_t(target.waveSize) * 16;
    const int64_t regionElems = region * 8 / elem.getIntOrFloatBitWidth();
    Value dst = toSink ? ldsView(idx(0), s.ldsStages * slotLayout.bytes,
                                 regionElems, elem)
                       : ldsView(slot, r.ldsOffset, regionElems, elem);
    Value chunk = arith::RemUIOp::create(b, tid, idx(chunks));
    amdgpu::GatherToLDSOp::create(
        b, r.src, ValueRange{add(r.offset, mul(chunk, idx(perChunk)))}, dst,
        ValueRange{idx(0)}, VectorType::get({perChunk}, elem));
  }
}

// Marker ops of the verified schedule -> the target's instructions. The
// emulator keeps the markers: kda-gpu-to-emu turns them into calls that both
// synchronise its fibers and drive its LDS race detector.
void RecurrentKernelEmitter::emitTargetAtom(Operation *marker) {
  if (target.kind == TargetKind::Emulator) {
    b.clone(*marker);
    return;
  }
  const bool amd = target.kind == TargetKind::AMDGPU;
  if (isa<LdsBarrierOp>(marker)) {
    if (amd)
      amdgpu::LDSBarrierOp::create(b);
    else
      gpu::BarrierOp::create(b);
  } else if (isa<BarrierOp>(marker)) {
    if (amd)
      ROCDL::SBarrierOp::create(b);
    else
      gpu::BarrierOp::create(b);
  } else if (isa<LdsDrainOp>(marker)) {
    if (amd) // lgkmcnt(0); NVIDIA's bar.sync orders a thread's shared loads
      amdgpu::MemoryCounterWaitOp::create(b, /*load=*/nullptr, /*store=*/nullptr,
                                          /*ds=*/b.getI32IntegerAttr(0),
                                          /*exp=*/nullptr, /*tensor=*/nullptr);
  }
}

LogicalResult RecurrentKernelEmitter::emitStagedTokenLoop(
    Value bos, Value eos, Value h, Value hq, Value k0, ArrayRef<Value> cols,
    Value expALog, ValueRange initial, SmallVectorImpl<Value> &finalState,
    function_ref<void(Value, ArrayRef<Value>)> storeOut) {
  const int64_t H = layer.getHeads(), HV = layer.getValueHeads(),
                K = layer.getHeadK();
  const unsigned regs = s.elemsK * s.colsPerThread;
  tokenBos = bos, tokenLen = arith::SubIOp::create(b, eos, bos);
  tokenH = h, tokenHq = hq;
  // The state lives in a private array across the pipeline's loops (its
  // indices are constants, so it stays in registers).
  for (auto [i, v] : llvm::enumerate(initial))
    memref::StoreOp::create(b, v, priv, ValueRange{idx(i)});

  // The token loop as a pipeline: the rows of token i are copied into ring
  // slot i mod depth and read back by every lane. Expanded and verified here:
  // the code below is instantiated from exactly the schedule that passed.
  Value len = arith::SubIOp::create(b, eos, bos);
  auto pipe = PipelineOp::create(b, "tokens", s.ldsStages,
                                 /*trip_count=*/nullptr, len);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(b.createBlock(&pipe.getBody()));
    auto produce = ProduceOp::create(
        b, tokenRing, slotLayout.async ? b.getUnitAttr() : UnitAttr(),
        b.getI64IntegerAttr(0));
    if (slotLayout.async && target.kind == TargetKind::AMDGPU) // wave 0 issues
      produce->setAttr(kIssuersAttr, b.getStringAttr("wave0"));
    ConsumeOp::create(b, tokenRing, b.getI64IntegerAttr(s.ldsStages - 1));
  }
  FailureOr<ScheduleOp> schedule = expandPipeline(pipe, target);
  if (failed(schedule))
    return failure();
  if (std::optional<PipelineHazard> hazard = findPipelineHazard(*schedule))
    return op.emitOpError() << "token pipeline rejected on " << target.name
                            << ": " << hazard->message;

  Value tid = gpu::ThreadIdOp::create(b, gpu::Dimension::x);
  IRMapping map;
  auto copyRows = [&](Value iter, Value slot) {
    Value t = add(bos, iter);
    TokenRows dst = ldsRows(slot, idx(0));
    Value qRow = mul(add(mul(t, idx(H)), hq), idx(K));
    Value gRow = mul(add(mul(t, idx(HV)), h), idx(K));
    auto loop = scf::ForOp::create(b, tid, idx(K), idx(s.threads()));
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(loop.getBody()->getTerminator());
    Value e = loop.getInductionVar();
    memref::StoreOp::create(b, memref::LoadOp::create(b, q, add(qRow, e)),
                            dst.q, e);
    memref::StoreOp::create(b, memref::LoadOp::create(b, k, add(qRow, e)),
                            dst.k, e);
    memref::StoreOp::create(b, memref::LoadOp::create(b, g, add(gRow, e)),
                            dst.g, e);
  };
  auto consume = [&](Value iter, Value slot) {
    Value t = add(bos, iter);
    SmallVector<Value> S;
    for (unsigned i = 0; i < regs; ++i)
      S.push_back(memref::LoadOp::create(b, priv, ValueRange{idx(i)}));
    SmallVector<Value> next =
        tokenStep(t, h, hq, k0, cols, expALog, S, ldsRows(slot, k0));
    for (unsigned i = 0; i < regs; ++i)
      memref::StoreOp::create(b, next[i], priv, ValueRange{idx(i)});
    storeOut(t, ArrayRef<Value>(next).drop_front(regs));
  };
  std::function<LogicalResult(Block &)> instantiate =
      [&](Block &block) -> LogicalResult {
    for (Operation &o : block) {
      if (auto loop = dyn_cast<scf::ForOp>(o)) {
        auto copy = scf::ForOp::create(b, map.lookupOrDefault(loop.getLowerBound()),
                                       map.lookupOrDefault(loop.getUpperBound()),
                                       map.lookupOrDefault(loop.getStep()));
        map.map(loop.getInductionVar(), copy.getInductionVar());
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPoint(copy.getBody()->getTerminator());
        if (failed(instantiate(*loop.getBody())))
          return failure();
      } else if (isa<scf::YieldOp>(o)) {
        continue;
      } else if (auto r = dyn_cast<RingSlotOp>(o)) {
        map.map(r.getSlot(), arith::RemUIOp::create(
                                 b, map.lookupOrDefault(r.getIter()), idx(s.ldsStages)));
      } else if (auto c = dyn_cast<StagedCopyOp>(o)) {
        Value iter = map.lookupOrDefault(c.getIter()), slot = map.lookupOrDefault(c.getSlot());
        if (Value pred = c.getPred()) {
          auto ifOp = scf::IfOp::create(b, map.lookupOrDefault(pred), false);
          OpBuilder::InsertionGuard guard(b);
          b.setInsertionPoint(ifOp.thenBlock()->getTerminator());
          copyRows(iter, slot);
        } else {
          copyRows(iter, slot);
        }
        if (target.kind == TargetKind::Emulator)
          b.clone(o, map);
      } else if (auto c = dyn_cast<AsyncCopyOp>(o)) {
        Value iter = map.lookupOrDefault(c.getIter()),
              slot = map.lookupOrDefault(c.getSlot());
        // The emulator copies through registers (the bytes land at once);
        // its copy of the marker tells the race detector they are in flight
        // until the covering wait.
        auto copy = [&] {
          if (target.kind == TargetKind::Emulator)
            copyRows(iter, slot);
          else
            asyncCopyRows(iter, slot);
        };
        if (Value pred = c.getPred()) {
          // AMDGPU counts instructions, not groups: a predicated-off copy
          // issues the same instructions into the sink (none when the
          // sequence is empty: nothing is then read, so no wait matters).
          const bool sink = target.kind == TargetKind::AMDGPU;
          auto ifOp = scf::IfOp::create(b, map.lookupOrDefault(pred), sink);
          OpBuilder::InsertionGuard guard(b);
          b.setInsertionPoint(ifOp.thenBlock()->getTerminator());
          copy();
          if (sink) {
            b.setInsertionPoint(ifOp.elseBlock()->getTerminator());
            Value nonEmpty = arith::CmpIOp::create(
                b, arith::CmpIPredicate::sgt, tokenLen, idx(0));
            auto ifNonEmpty = scf::IfOp::create(b, nonEmpty, false);
            b.setInsertionPoint(ifNonEmpty.thenBlock()->getTerminator());
            asyncCopyRows(iter, slot, /*toSink=*/true);
          }
        } else {
          copy();
        }
        // A predicated-off copy still commits its (empty) group.
        if (target.kind == TargetKind::Emulator)
          b.clone(o, map);
        else if (target.kind == TargetKind::NVPTX)
          NVVM::CpAsyncCommitGroupOp::create(b);
      } else if (auto w = dyn_cast<AsyncWaitOp>(o)) {
        const int64_t groups = w.getCount();
        if (target.kind == TargetKind::Emulator)
          b.clone(o, map);
        else if (target.kind == TargetKind::NVPTX)
          NVVM::CpAsyncWaitGroupOp::create(b, groups);
        else // vmcnt counts wave 0's instructions: one per row, 3 per group
          amdgpu::MemoryCounterWaitOp::create(
              b, /*load=*/b.getI32IntegerAttr(3 * groups), /*store=*/nullptr,
              /*ds=*/nullptr, /*exp=*/nullptr, /*tensor=*/nullptr);
      } else if (auto r = dyn_cast<LdsReadOp>(o)) {
        if (target.kind == TargetKind::Emulator)
          b.clone(o, map);
        consume(map.lookupOrDefault(r.getIter()), map.lookupOrDefault(r.getSlot()));
      } else if (isa<LdsBarrierOp, BarrierOp, LdsDrainOp>(o)) {
        emitTargetAtom(&o);
      } else if (isa<arith::ArithDialect>(o.getDialect())) {
        b.clone(o, map);
      } else {
        return o.emitOpError("has no lowering in the token pipeline");
      }
    }
    return success();
  };
  map.map(schedule->getDynamicTripCount(), len);
  if (failed(instantiate(schedule->getBody().front())))
    return failure();
  schedule->erase();
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
  q = views[0], k = views[1], v = views[2], g = views[3], beta = views[4];
  aLog = op.getALog() ? views[5] : Value();
  dtBias = op.getDtBias() ? views[6] : Value();
  cu = views[7], slots = views[8], hasInit = views[9], state = views[10],
  out = views[11];
  if (s.ldsStages > 0) {
    lds = func.getWorkgroupAttributions().front();
    priv = func.getPrivateAttributions().front();
  }
  if (s.wavesK > 1)
    exchange = func.getWorkgroupAttributions().back();

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
  if (vkLayout && s.wavesK == 1) { // a column's lanes are adjacent threads
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
  // The lane's columns. vk: gridCols apart (each column is its own
  // contiguous run). kv: adjacent, so a k-row of the lane is one vector and a
  // wave row reads colsPerWave * colsPerThread consecutive floats.
  SmallVector<Value> cols;
  Value colBase = add(mul(colBlock, idx(s.blockV)),
                      vkLayout ? vl : mul(vl, idx(s.colsPerThread)));
  for (unsigned c = 0; c < s.colsPerThread; ++c)
    cols.push_back(add(colBase, idx(vkLayout ? c * s.gridCols() : c)));
  Value k0 = mul(kt, idx(s.elemsK));
  Value hq = arith::DivUIOp::create(b, h, idx(G));
  Value bos = toIndex(memref::LoadOp::create(b, cu, n));
  Value eos = toIndex(memref::LoadOp::create(b, cu, add(n, idx(1))));
  Value slot = toIndex(memref::LoadOp::create(b, slots, n));
  Value isLeader =
      arith::CmpIOp::create(b, arith::CmpIPredicate::eq, kt, idx(0));
  auto storeOut = [&](Value t, ArrayRef<Value> outs) {
    auto ifLeader = scf::IfOp::create(b, isLeader, /*withElse=*/false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(ifLeader.thenBlock()->getTerminator());
    Value row = mul(add(mul(t, idx(HV)), h), idx(V));
    Type elem = cast<MemRefType>(out.getType()).getElementType();
    for (auto [col, o] : llvm::zip_equal(cols, outs))
      memref::StoreOp::create(b, narrow(o, elem), out, add(row, col));
  };

  // slot <= 0: padding. Zero output rows, no state access.
  Value isPadding = arith::CmpIOp::create(b, arith::CmpIPredicate::sle, slot,
                                          idx(0));
  auto ifPad = scf::IfOp::create(b, isPadding, /*withElse=*/true);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(ifPad.thenBlock()->getTerminator());
    auto loop = scf::ForOp::create(b, bos, eos, idx(1));
    b.setInsertionPoint(loop.getBody()->getTerminator());
    storeOut(loop.getInductionVar(),
             SmallVector<Value>(s.colsPerThread, f(0.0)));
  }
  b.setInsertionPoint(ifPad.elseBlock()->getTerminator());

  // The starting state: the slot's, or zeros without reading the slot.
  Value init = arith::CmpIOp::create(
      b, arith::CmpIPredicate::ne, memref::LoadOp::create(b, hasInit, n),
      arith::ConstantIntOp::create(b, 0, 8));
  const unsigned stateRegs = s.elemsK * s.colsPerThread;
  SmallVector<Type> stateTypes(stateRegs, f32);
  auto ifInit = scf::IfOp::create(b, stateTypes, init, /*withElse=*/true);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifInit.thenBlock());
    scf::YieldOp::create(b, loadState(slot, h, k0, cols));
    b.setInsertionPointToStart(ifInit.elseBlock());
    SmallVector<Value> zeros(stateRegs, f(0.0));
    scf::YieldOp::create(b, zeros);
  }
  Value expALog;
  if (aLog)
    expALog = math::ExpOp::create(b, widen(memref::LoadOp::create(b, aLog, h)));

  SmallVector<Value> finalState;
  if (s.ldsStages > 0) {
    if (failed(emitStagedTokenLoop(bos, eos, h, hq, k0, cols, expALog,
                                   ifInit.getResults(), finalState, storeOut)))
      return failure();
  } else {
    auto loop = scf::ForOp::create(b, bos, eos, idx(1), ifInit.getResults());
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    Value t = loop.getInductionVar();
    SmallVector<Value> next = tokenStep(t, h, hq, k0, cols, expALog,
                                        loop.getRegionIterArgs(),
                                        globalRows(t, h, hq, k0));
    ArrayRef<Value> all(next);
    storeOut(t, all.drop_front(stateRegs));
    scf::YieldOp::create(b, all.take_front(stateRegs));
    finalState.assign(loop.getResults().begin(), loop.getResults().end());
  }
  storeState(slot, h, k0, cols, finalState);

  b.setInsertionPointToEnd(&entry);
  gpu::ReturnOp::create(b);
  return success();
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

  // Bare-pointer arguments: statically shaped rank-1 memrefs of the operand's
  // element type (i1 flags travel as bytes).
  MLIRContext *ctx = builder.getContext();
  SmallVector<Type> argTypes;
  Value operands[] = {op.getQ(),         op.getK(),    op.getV(),
                      op.getG(),         op.getBeta(), op.getALog(),
                      op.getDtBias(),    op.getCuSeqlens(), op.getSlots(),
                      op.getHasInitialState(), op.getState(), op.getO()};
  for (Value operand : operands) {
    Type elem = operand ? cast<MemRefType>(operand.getType()).getElementType()
                        : Float32Type::get(ctx);
    if (elem.isInteger(1))
      elem = IntegerType::get(ctx, 8);
    argTypes.push_back(MemRefType::get({1}, elem));
  }

  ImplicitLocOpBuilder b(op.getLoc(), builder);
  b.setInsertionPointToEnd(module.getBody());
  // The staged token loop: an LDS ring (workgroup memory, described to the
  // verifier by a kda.lds_buffer) and the lane's state in private memory.
  SmallVector<Type> workgroup, priv;
  FlatSymbolRefAttr tokenRing;
  const TokenSlotLayout layout = tokenSlotLayout(op, target);
  const int64_t ringBytes =
      s.ldsStages > 0 ? s.ldsStages * layout.bytes + layout.sinkBytes : 0;
  if (ringBytes + s.exchangeBytes() > int64_t(target.staticLdsBytes))
    return op.emitOpError() << "config " << config << " needs "
                            << ringBytes + s.exchangeBytes()
                            << " bytes of LDS, more than the "
                            << target.staticLdsBytes
                            << " a kernel may declare statically on "
                            << target.name;
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
  auto func = gpu::GPUFuncOp::create(
      b, name, FunctionType::get(ctx, argTypes, {}), workgroup, priv);
  func->setAttr(gpu::GPUDialect::getKernelFuncAttrName(), b.getUnitAttr());
  func.setKnownBlockSizeAttr(
      b.getDenseI32ArrayAttr({int32_t(s.threads()), 1, 1}));
  func->setAttr("kda.layer", op.getLayer());
  func->setAttr("kda.config", config);
  func->setAttr("kda.lanes_k", b.getI32IntegerAttr(s.lanesK));
  if (s.wavesK > 1)
    func->setAttr("kda.waves_k", b.getI32IntegerAttr(s.wavesK));
  func->setAttr("kda.cols_per_thread", b.getI32IntegerAttr(s.colsPerThread));
  // Grid: (head_v / block_v, value_heads, num_seqs).
  func->setAttr("kda.grid",
                b.getDenseI64ArrayAttr({op.getLayer().getHeadV() / s.blockV,
                                        op.getLayer().getValueHeads(), -1}));
  if (failed(RecurrentKernelEmitter(b, op, s, target, tokenRing, layout).emit(func)))
    return failure();
  if (tokenRing) {
    // Record what was verified; the GPU targets need the ring only as the
    // workgroup attribution from here on (the emulator keeps it for its race
    // detector).
    auto ring = module.lookupSymbol<LdsBufferOp>(tokenRing.getValue());
    func->setAttr("kda.verified_pipeline",
                  b.getStringAttr(llvm::formatv(
                      "tokens: depth {0}, {1} slots of {2} bytes, verified "
                      "for {3}",
                      s.ldsStages, ring.getSlots(), ring.getSlotBytes(),
                      target.name)));
    if (target.kind != TargetKind::Emulator)
      ring.erase();
  }
  return func;
}
