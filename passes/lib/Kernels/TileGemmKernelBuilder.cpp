//===- TileGemmKernelBuilder.cpp - tile-GEMM test kernels -----------------===//
//
// One workgroup computes a 64 x 64 tile of C with 4 waves. The tile is cut
// into atom-sized pieces (m x n of the chip's atom), dealt round-robin to the
// waves; each wave keeps its pieces' accumulator fragments in registers
// across the k loop. A and B reach the fragments through LDS:
//   static:  per k step of BK, the workgroup copies A [64 x BK] and
//            B [BK x 64] into workgroup attributions between two barriers;
//   dynamic: the workgroup copies all of A [64 x K] and B [K x 64] once into
//            gpu.dynamic_shared_memory (kda.dynamic_lds_bytes), which for
//            K >= 256 is more than the 48 KiB sm_90 allows statically.
//   warpgroup (dynamic only): the 4 waves of sm_90 are one warpgroup; each
//            k step of 16 is one kda.wgmma over the whole 64 x 64 tile, A
//            from the threads' fragments, B read by the tensor core from
//            LDS staged in core matrices (SharedOperandLayout), K-major (k
//            pairs of one column are one word) or with b_mn_major MN-major
//            (n pairs of one row), core matrices along k 128 bytes apart,
//            along n K x 16; committed and waited each step.
// The masked variant selects 0 where the global row < column, on the
// accumulator fragments, from their layout (select, never a multiply).
// Nothing here names a target: the atom comes from the table.
//
//===----------------------------------------------------------------------===//
#include "kda/Passes/TileGemmKernelBuilder.h"
#include "kda/Passes/KernelAbi.h"
#include "kda/Passes/TileLayer.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::kda;

namespace {

constexpr int64_t kTile = 64; // workgroup tile edge (M and N)
constexpr unsigned kWaves = 4;

/// The static sizes of one kernel.
struct TileGemmPlan {
  const MmaAtom *atom;
  int64_t M, N, K;
  int64_t bk;      // k per LDS stage (K when dynamic)
  int64_t kStep;   // k per unrolled group of atoms inside a stage
  bool masked, dynamic, warpgroup, bMnMajor;
  unsigned waveSize;
  unsigned piecesPerWave() const {
    if (warpgroup)
      return 1; // the group's one atom covers the tile
    return unsigned((kTile / atom->m) * (kTile / atom->n)) / kWaves;
  }
  /// The warpgroup variant's B: core matrices of the K x 64 tile, K-major
  /// or MN-major.
  SharedOperandLayout bLayout() const {
    return {128, unsigned(K * 16), bMnMajor};
  }
  int64_t ldsBytes() const { return 2 * kTile * bk * 2; } // A and B, bf16
};

LogicalResult plan(TestTileGemmOp op, const TargetInfo &target,
                   TileGemmPlan &p) {
  std::string why;
  p.warpgroup = op.getWarpgroup();
  p.bMnMajor = op.getBMnMajor();
  p.atom = p.warpgroup ? findWarpgroupAtom(target.chip, kTile, why)
                       : preferredMmaAtom(target.chip, ScalarKind::BF16,
                                          ScalarKind::F32, kTile, kTile, why);
  if (!p.atom)
    return op.emitOpError() << "cannot build on " << target.name << ": "
                            << why;
  p.M = op.getM(), p.N = op.getN(), p.K = op.getK();
  p.masked = op.getMasked();
  p.dynamic = op.getDynamicLds();
  p.waveSize = target.waveSize;
  if (p.warpgroup) {
    if (kWaves * target.waveSize != p.atom->waveSize)
      return op.emitOpError()
             << "atom " << p.atom->name << " takes a warpgroup of "
             << p.atom->waveSize << " threads; " << kWaves << " waves of "
             << target.name << " are " << kWaves * target.waveSize;
    std::string bad = p.bLayout().invalidReason(p.atom->k, p.atom->n);
    if (!bad.empty())
      return op.emitOpError()
             << "k = " << p.K << ": B's shared layout: " << bad;
  } else if (p.atom->waveSize != target.waveSize)
    return op.emitOpError() << "atom " << p.atom->name << " needs wave "
                            << p.atom->waveSize << ", " << target.name
                            << " runs wave " << target.waveSize;
  if (p.K % p.atom->k)
    return op.emitOpError() << "k = " << p.K << " is not a multiple of the k "
                            << "of " << target.name << "'s atom "
                            << stringifyMmaKind(p.atom->kind) << " ("
                            << p.atom->k << ")";
  if (!p.warpgroup && (kTile / p.atom->m) * (kTile / p.atom->n) % kWaves)
    return op.emitOpError() << "atom " << stringifyMmaKind(p.atom->kind)
                            << " does not split the 64 x 64 tile over "
                            << kWaves << " waves";
  // Up to 32 k per stage: two 16-k atoms or one 32-k atom per piece; a
  // warpgroup atom waits for each step's product.
  p.kStep = p.warpgroup ? p.atom->k : std::max<int64_t>(p.atom->k, 32);
  if (p.K % p.kStep)
    p.kStep = p.atom->k;
  p.bk = p.dynamic ? p.K : p.kStep;
  const int64_t limit = p.dynamic ? target.ldsBytes : target.staticLdsBytes;
  if (p.ldsBytes() > limit)
    return op.emitOpError() << "needs " << p.ldsBytes() << " bytes of "
                            << (p.dynamic ? "dynamic" : "static")
                            << " LDS for k = " << p.K << "; " << target.name
                            << " allows " << limit;
  return success();
}

class TileGemmEmitter {
public:
  TileGemmEmitter(OpBuilder &b, Location loc, const TileGemmPlan &p)
      : b(b), loc(loc), p(p), atom(*p.atom) {}

  void emit(gpu::GPUFuncOp func);

private:
  Value idx(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }
  Value add(Value x, Value y) { return arith::AddIOp::create(b, loc, x, y); }
  Value mul(Value x, Value y) { return arith::MulIOp::create(b, loc, x, y); }
  /// Copies rows x cols of `src` (row stride srcLd, from srcOff) into `dst`
  /// (row stride cols, from 0), the workgroup's threads striding over it.
  void copyTile(Value src, Value srcOff, int64_t srcLd, Value dst,
                int64_t rows, int64_t cols);
  /// Copies B's K x 64 tile at column `colBase` into `dst` as bLayout
  /// places it: each thread a pair of elements adjacent in a core-matrix
  /// row (a k pair of one column K-major, an n pair of one row MN-major),
  /// one LDS word.
  void copyBCoreMatrices(Value src, Value colBase, Value dst);
  /// One k step of the warpgroup atom; returns the waited accumulator.
  Value wgmmaStep(Value acc, Value k0);
  /// The piece (row, col of its top-left corner in the 64 x 64 tile) that
  /// wave `wave` owns as its j-th.
  std::pair<Value, Value> piece(unsigned j);
  /// One k step of atoms over the wave's pieces; returns the accumulators.
  SmallVector<Value> mmaStep(ValueRange accs, Value kInLds);
  void storeResults(ValueRange accs, Value rowBase, Value colBase, Value c);

  OpBuilder &b;
  Location loc;
  const TileGemmPlan &p;
  const MmaAtom &atom;
  Value tid, wave, lane, ldsA, ldsB, dyn;
};

void TileGemmEmitter::copyBCoreMatrices(Value src, Value colBase, Value dst) {
  const int64_t threads = int64_t(kWaves * p.waveSize);
  const SharedOperandLayout l = p.bLayout();
  auto loop =
      scf::ForOp::create(b, loc, tid, idx(p.K / 2 * kTile), idx(threads));
  OpBuilder::InsertionGuard g(b);
  b.setInsertionPointToStart(loop.getBody());
  Value i = loop.getInductionVar();
  auto div = [&](Value x, int64_t d) -> Value {
    return arith::DivUIOp::create(b, loc, x, idx(d));
  };
  auto rem = [&](Value x, int64_t d) -> Value {
    return arith::RemUIOp::create(b, loc, x, idx(d));
  };
  // The pair's first element (k, n), its second one on along the row.
  Value k = l.mnMajor ? div(i, kTile / 2) : mul(div(i, kTile), idx(2));
  Value n = l.mnMajor ? mul(rem(i, kTile / 2), idx(2)) : rem(i, kTile);
  Value at = sharedOperandIndex(b, loc, l, k, n, /*elemBytes=*/2);
  for (int64_t e = 0; e < 2; ++e) {
    Value kk = l.mnMajor ? k : add(k, idx(e));
    Value nn = l.mnMajor ? add(n, idx(e)) : n;
    Value from = add(mul(kk, idx(p.N)), add(colBase, nn));
    Value v = memref::LoadOp::create(b, loc, src, ValueRange{from});
    memref::StoreOp::create(b, loc, v, dst, ValueRange{add(at, idx(e))});
  }
}

Value TileGemmEmitter::wgmmaStep(Value acc, Value k0) {
  MemTile aTile{ldsA, k0, idx(p.bk), idx(1)};
  Value a = loadFragment(b, loc, atom, MmaOperand::A, aTile, lane);
  // B's k step starts k0 / 8 core matrices along k into the B region.
  Value off =
      add(idx(kTile * p.K * 2), mul(arith::DivUIOp::create(b, loc, k0, idx(8)),
                                    idx(p.bLayout().lbo)));
  Value d = emitWgmma(b, loc, atom, a, dyn, off, p.bLayout(), acc);
  WgmmaCommitOp::create(b, loc);
  return WgmmaWaitOp::create(b, loc, ValueRange{d}, b.getI64IntegerAttr(0))
      .getResult(0);
}

void TileGemmEmitter::copyTile(Value src, Value srcOff, int64_t srcLd,
                               Value dst, int64_t rows, int64_t cols) {
  // Two adjacent bf16 per thread and step: the pair is one 4-byte LDS word,
  // so no two threads write parts of the same word (cols is even).
  const int64_t threads = int64_t(kWaves * p.waveSize);
  auto loop = scf::ForOp::create(b, loc, mul(tid, idx(2)), idx(rows * cols),
                                 idx(2 * threads));
  OpBuilder::InsertionGuard g(b);
  b.setInsertionPointToStart(loop.getBody());
  Value i = loop.getInductionVar();
  Value r = arith::DivUIOp::create(b, loc, i, idx(cols));
  Value c = arith::RemUIOp::create(b, loc, i, idx(cols));
  Value from = add(srcOff, add(mul(r, idx(srcLd)), c));
  for (int64_t e = 0; e < 2; ++e) {
    Value v = memref::LoadOp::create(b, loc, src, ValueRange{add(from, idx(e))});
    memref::StoreOp::create(b, loc, v, dst, ValueRange{add(i, idx(e))});
  }
}

std::pair<Value, Value> TileGemmEmitter::piece(unsigned j) {
  if (p.warpgroup) // the group's one atom: the whole tile
    return {idx(0), idx(0)};
  const int64_t piecesN = kTile / atom.n;
  Value t = add(wave, idx(int64_t(j) * kWaves));
  Value pr = arith::DivUIOp::create(b, loc, t, idx(piecesN));
  Value pc = arith::RemUIOp::create(b, loc, t, idx(piecesN));
  return {mul(pr, idx(atom.m)), mul(pc, idx(atom.n))};
}

SmallVector<Value> TileGemmEmitter::mmaStep(ValueRange accs, Value kInLds) {
  SmallVector<Value> out(accs.begin(), accs.end());
  for (int64_t kk = 0; kk < p.kStep; kk += atom.k) {
    Value k0 = add(kInLds, idx(kk));
    for (unsigned j = 0; j < p.piecesPerWave(); ++j) {
      auto [r0, c0] = piece(j);
      MemTile aTile{ldsA, add(mul(r0, idx(p.bk)), k0), idx(p.bk), idx(1)};
      MemTile bTile{ldsB, add(mul(k0, idx(kTile)), c0), idx(kTile), idx(1)};
      Value a = loadFragment(b, loc, atom, MmaOperand::A, aTile, lane);
      Value bf = loadFragment(b, loc, atom, MmaOperand::B, bTile, lane);
      out[j] = emitMma(b, loc, atom, a, bf, out[j]);
    }
  }
  return out;
}

void TileGemmEmitter::storeResults(ValueRange accs, Value rowBase,
                                   Value colBase, Value c) {
  for (unsigned j = 0; j < p.piecesPerWave(); ++j) {
    auto [r0, c0] = piece(j);
    Value row0 = add(rowBase, r0), col0 = add(colBase, c0);
    Value acc = accs[j];
    if (p.masked)
      acc = mapFragment(
          b, loc, atom, MmaOperand::C, acc, lane,
          [&](OpBuilder &bb, Location l, Value v, Value row, Value col) {
            Value keep = arith::CmpIOp::create(
                bb, l, arith::CmpIPredicate::uge,
                arith::AddIOp::create(bb, l, row0, row),
                arith::AddIOp::create(bb, l, col0, col));
            Value zero = arith::ConstantOp::create(bb, l, bb.getF32FloatAttr(0));
            return arith::SelectOp::create(bb, l, keep, v, zero).getResult();
          });
    MemTile cTile{c, add(mul(row0, idx(p.N)), col0), idx(p.N), idx(1)};
    storeFragment(b, loc, atom, MmaOperand::C, acc, cTile, lane);
  }
}

void TileGemmEmitter::emit(gpu::GPUFuncOp func) {
  Block &entry = func.getBody().front();
  b.setInsertionPointToStart(&entry);
  Value a = entry.getArgument(0), bMat = entry.getArgument(1),
        c = entry.getArgument(2);
  tid = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  wave = arith::DivUIOp::create(b, loc, tid, idx(p.waveSize));
  // A warpgroup atom's layouts number the group's 128 threads.
  lane = p.warpgroup ? tid
                     : gpu::LaneIdOp::create(b, loc, b.getIndexAttr(p.waveSize))
                           .getResult();
  Value rowBase = mul(gpu::BlockIdOp::create(b, loc, gpu::Dimension::y),
                      idx(kTile));
  Value colBase = mul(gpu::BlockIdOp::create(b, loc, gpu::Dimension::x),
                      idx(kTile));
  if (p.dynamic) {
    auto ws = gpu::AddressSpaceAttr::get(b.getContext(),
                                         gpu::AddressSpace::Workgroup);
    auto bytes = MemRefType::get({ShapedType::kDynamic}, b.getI8Type(),
                                 nullptr, ws);
    dyn = gpu::DynamicSharedMemoryOp::create(b, loc, bytes);
    auto half = MemRefType::get({kTile * p.K}, b.getBF16Type(), nullptr, ws);
    ldsA = memref::ViewOp::create(b, loc, half, dyn, idx(0), ValueRange{});
    ldsB = memref::ViewOp::create(b, loc, half, dyn, idx(kTile * p.K * 2),
                                  ValueRange{});
  } else {
    ldsA = func.getWorkgroupAttributions()[0];
    ldsB = func.getWorkgroupAttributions()[1];
  }

  SmallVector<Value> init(p.piecesPerWave(), zeroAccumulator(b, loc, atom));
  if (p.dynamic) {
    // Everything once: A rows of this tile, B columns of this tile.
    copyTile(a, mul(rowBase, idx(p.K)), p.K, ldsA, kTile, p.K);
    if (p.warpgroup)
      copyBCoreMatrices(bMat, colBase, ldsB);
    else
      copyTile(bMat, colBase, p.N, ldsB, p.K, kTile);
    gpu::BarrierOp::create(b, loc);
  }
  auto loop = scf::ForOp::create(b, loc, idx(0), idx(p.K), idx(p.kStep), init);
  {
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(loop.getBody());
    Value k0 = loop.getInductionVar();
    Value kInLds = k0;
    if (!p.dynamic) {
      // The previous step's fragment reads are done before the overwrite.
      gpu::BarrierOp::create(b, loc);
      copyTile(a, add(mul(rowBase, idx(p.K)), k0), p.K, ldsA, kTile, p.bk);
      copyTile(bMat, add(mul(k0, idx(p.N)), colBase), p.N, ldsB, p.bk, kTile);
      gpu::BarrierOp::create(b, loc);
      kInLds = idx(0);
    }
    if (p.warpgroup)
      scf::YieldOp::create(
          b, loc, ValueRange{wgmmaStep(loop.getRegionIterArgs()[0], kInLds)});
    else
      scf::YieldOp::create(b, loc, mmaStep(loop.getRegionIterArgs(), kInLds));
  }
  storeResults(loop.getResults(), rowBase, colBase, c);
  gpu::ReturnOp::create(b, loc);
}

} // namespace

FailureOr<gpu::GPUFuncOp>
mlir::kda::buildTileGemmKernel(OpBuilder &builder, gpu::GPUModuleOp module,
                               StringRef name, TestTileGemmOp op,
                               const TargetInfo &target) {
  TileGemmPlan p;
  if (failed(plan(op, target, p)))
    return failure();
  MLIRContext *ctx = builder.getContext();
  OpBuilder::InsertionGuard g(builder);
  builder.setInsertionPointToEnd(module.getBody());
  Type bf16 = builder.getBF16Type(), f32 = builder.getF32Type();
  SmallVector<KernelArg> args{{"a", bf16, ArgRole::Input},
                              {"b", bf16, ArgRole::Input},
                              {"c", f32, ArgRole::Output}};
  SmallVector<Type> workgroup;
  if (!p.dynamic) {
    auto ws = gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);
    workgroup.assign(2, MemRefType::get({kTile * p.bk}, bf16, nullptr, ws));
  }
  Location loc = op.getLoc();
  auto func = gpu::GPUFuncOp::create(
      builder, loc, name,
      FunctionType::get(ctx, kernelArgTypes(ctx, args), {}), workgroup,
      TypeRange{});
  func->setAttr(gpu::GPUDialect::getKernelFuncAttrName(),
                builder.getUnitAttr());
  func.setKnownBlockSizeAttr(
      builder.getDenseI32ArrayAttr({int32_t(kWaves * p.waveSize), 1, 1}));
  setKernelAbi(func, args);
  func->setAttr("kda.grid", builder.getDenseI64ArrayAttr(
                                {p.N / kTile, p.M / kTile, 1}));
  func->setAttr("kda.kind", builder.getStringAttr("tile_gemm"));
  func->setAttr("kda.tile",
                builder.getDictionaryAttr({
                    builder.getNamedAttr("m", builder.getI64IntegerAttr(p.M)),
                    builder.getNamedAttr("n", builder.getI64IntegerAttr(p.N)),
                    builder.getNamedAttr("k", builder.getI64IntegerAttr(p.K)),
                    builder.getNamedAttr("masked", builder.getBoolAttr(p.masked)),
                    builder.getNamedAttr(
                        "atom", builder.getStringAttr(stringifyMmaKind(
                                    p.atom->kind))),
                    builder.getNamedAttr("lds_bytes",
                                         builder.getI64IntegerAttr(p.ldsBytes())),
                }));
  if (p.dynamic)
    func->setAttr("kda.dynamic_lds_bytes",
                  builder.getI64IntegerAttr(p.ldsBytes()));
  TileGemmEmitter(builder, loc, p).emit(func);
  return func;
}
