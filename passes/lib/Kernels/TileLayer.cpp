//===- TileLayer.cpp - fragments and matrix atoms for kernel builders -----===//
#include "kda/Passes/TileLayer.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::kda;

const FragmentLayout &mlir::kda::layoutOf(const MmaAtom &atom,
                                          MmaOperand operand) {
  switch (operand) {
  case MmaOperand::A:
    return atom.a;
  case MmaOperand::B:
    return atom.b;
  case MmaOperand::C:
    return atom.c;
  }
  llvm_unreachable("mma operand");
}

Type mlir::kda::scalarType(MLIRContext *ctx, ScalarKind kind) {
  switch (kind) {
  case ScalarKind::BF16:
    return BFloat16Type::get(ctx);
  case ScalarKind::F16:
    return Float16Type::get(ctx);
  case ScalarKind::F32:
    return Float32Type::get(ctx);
  }
  llvm_unreachable("scalar kind");
}

VectorType mlir::kda::fragmentType(MLIRContext *ctx, const MmaAtom &atom,
                                   MmaOperand operand) {
  ScalarKind elem = operand == MmaOperand::C ? atom.acc : atom.ab;
  return VectorType::get({int64_t(layoutOf(atom, operand).elems)},
                         scalarType(ctx, elem));
}

/// One coordinate: the sum of its terms. Lane terms become divui / remui /
/// muli on the lane id; element terms are constants.
static Value coordinate(OpBuilder &b, Location loc,
                        ArrayRef<LayoutTerm> terms, Value lane,
                        unsigned elem) {
  int64_t constant = 0;
  Value sum;
  for (const LayoutTerm &t : terms) {
    if (t.src == LayoutTerm::Elem) {
      constant += t.eval(/*lane=*/0, elem);
      continue;
    }
    Value v = lane;
    if (t.div != 1)
      v = arith::DivUIOp::create(
          b, loc, v, arith::ConstantIndexOp::create(b, loc, t.div));
    if (t.mod)
      v = arith::RemUIOp::create(
          b, loc, v, arith::ConstantIndexOp::create(b, loc, t.mod));
    if (t.mul != 1)
      v = arith::MulIOp::create(
          b, loc, v, arith::ConstantIndexOp::create(b, loc, t.mul));
    sum = sum ? arith::AddIOp::create(b, loc, sum, v).getResult() : v;
  }
  Value c = arith::ConstantIndexOp::create(b, loc, constant);
  if (!sum)
    return c;
  return constant ? arith::AddIOp::create(b, loc, sum, c).getResult() : sum;
}

std::pair<Value, Value> mlir::kda::fragmentCoords(OpBuilder &b, Location loc,
                                                  const FragmentLayout &layout,
                                                  Value lane, unsigned elem) {
  return {coordinate(b, loc, layout.row, lane, elem),
          coordinate(b, loc, layout.col, lane, elem)};
}

Value MemTile::indexOf(OpBuilder &b, Location loc, Value row,
                       Value col) const {
  Value r = arith::MulIOp::create(b, loc, row, rowStride);
  Value c = arith::MulIOp::create(b, loc, col, colStride);
  return arith::AddIOp::create(b, loc, offset,
                               arith::AddIOp::create(b, loc, r, c));
}

/// Converts a float scalar to `to` (extf / truncf, or nothing).
static Value convertFloat(OpBuilder &b, Location loc, Value v, Type to) {
  Type from = v.getType();
  if (from == to)
    return v;
  if (from.getIntOrFloatBitWidth() < to.getIntOrFloatBitWidth())
    return arith::ExtFOp::create(b, loc, to, v);
  return arith::TruncFOp::create(b, loc, to, v);
}

/// The constant part of a coordinate of element `elem` (its element terms).
static int64_t elemPart(ArrayRef<LayoutTerm> terms, unsigned elem) {
  int64_t v = 0;
  for (const LayoutTerm &t : terms)
    if (t.src == LayoutTerm::Elem)
      v += t.eval(/*lane=*/0, elem);
  return v;
}

/// Whether every lane term of a coordinate is a multiple of n (then the
/// lane's part keeps an n-aligned element n-aligned).
static bool laneTermsAligned(ArrayRef<LayoutTerm> terms, unsigned n) {
  return llvm::all_of(terms, [n](const LayoutTerm &t) {
    return t.src == LayoutTerm::Elem || t.mul % n == 0;
  });
}

SmallVector<Value> mlir::kda::loadFragmentElements(OpBuilder &b, Location loc,
                                                   const MmaAtom &atom,
                                                   MmaOperand operand,
                                                   const MemTile &tile,
                                                   Value lane) {
  const FragmentLayout &layout = layoutOf(atom, operand);
  Type stored = cast<MemRefType>(tile.memref.getType()).getElementType();
  // The coordinate that steps by 1 in memory, if one does: elements whose
  // other coordinate agrees and whose coordinate steps by 1 form a run.
  std::optional<int64_t> rowStride = getConstantIntValue(tile.rowStride),
                         colStride = getConstantIntValue(tile.colStride);
  const bool alongCol = colStride == 1, alongRow = !alongCol && rowStride == 1;
  ArrayRef<LayoutTerm> along = alongCol ? layout.col : layout.row,
                       across = alongCol ? layout.row : layout.col;
  // Element `e + i` of a run is the lane's element whose along part is i
  // past e's with the same across part, wherever it sits in the fragment
  // (contiguousKAtom's A holds k 4t..4t+3 of a row in elements 0, 1, 4, 5).
  auto elementAt = [&](unsigned e, unsigned i) -> std::optional<unsigned> {
    for (unsigned x = 0; x < layout.elems; ++x)
      if (elemPart(across, x) == elemPart(across, e) &&
          elemPart(along, x) == elemPart(along, e) + int64_t(i))
        return x;
    return std::nullopt;
  };
  SmallVector<Value> elems(layout.elems);
  for (unsigned e = 0; e < layout.elems; ++e) {
    if (elems[e])
      continue;
    SmallVector<unsigned> run{e};
    if (alongCol || alongRow)
      for (unsigned w = 4; w > 1; w /= 2) {
        if (w > tile.align || elemPart(along, e) % w != 0 ||
            !laneTermsAligned(along, w))
          continue;
        SmallVector<unsigned> members{e};
        for (unsigned i = 1; i < w; ++i)
          if (std::optional<unsigned> x = elementAt(e, i); x && !elems[*x])
            members.push_back(*x);
        if (members.size() == w) {
          run = members;
          break;
        }
      }
    auto [row, col] = fragmentCoords(b, loc, layout, lane, e);
    Value at = tile.indexOf(b, loc, row, col);
    if (run.size() == 1) {
      elems[e] = memref::LoadOp::create(b, loc, tile.memref, at);
      continue;
    }
    const unsigned n = run.size();
    const unsigned bytes = n * stored.getIntOrFloatBitWidth() / 8;
    Value v = vector::LoadOp::create(
        b, loc, VectorType::get({n}, stored), tile.memref, ValueRange{at},
        /*nontemporal=*/false, llvm::MaybeAlign(bytes));
    for (unsigned i = 0; i < n; ++i)
      elems[run[i]] = vector::ExtractOp::create(b, loc, v, int64_t(i));
  }
  return elems;
}

Value mlir::kda::loadFragment(OpBuilder &b, Location loc, const MmaAtom &atom,
                              MmaOperand operand, const MemTile &tile,
                              Value lane) {
  VectorType type = fragmentType(b.getContext(), atom, operand);
  SmallVector<Value> elems =
      loadFragmentElements(b, loc, atom, operand, tile, lane);
  for (Value &v : elems)
    v = convertFloat(b, loc, v, type.getElementType());
  return vector::FromElementsOp::create(b, loc, type, elems);
}

void mlir::kda::storeFragment(OpBuilder &b, Location loc, const MmaAtom &atom,
                              MmaOperand operand, Value frag,
                              const MemTile &tile, Value lane) {
  const FragmentLayout &layout = layoutOf(atom, operand);
  Type stored = cast<MemRefType>(tile.memref.getType()).getElementType();
  for (unsigned e = 0; e < layout.elems; ++e) {
    auto [row, col] = fragmentCoords(b, loc, layout, lane, e);
    Value v = vector::ExtractOp::create(b, loc, frag, int64_t(e));
    memref::StoreOp::create(b, loc, convertFloat(b, loc, v, stored),
                            tile.memref, tile.indexOf(b, loc, row, col));
  }
}

Value mlir::kda::mapFragment(OpBuilder &b, Location loc, const MmaAtom &atom,
                             MmaOperand operand, Value frag, Value lane,
                             FragmentFn fn) {
  const FragmentLayout &layout = layoutOf(atom, operand);
  SmallVector<Value> elems;
  for (unsigned e = 0; e < layout.elems; ++e) {
    auto [row, col] = fragmentCoords(b, loc, layout, lane, e);
    Value v = vector::ExtractOp::create(b, loc, frag, int64_t(e));
    elems.push_back(fn(b, loc, v, row, col));
  }
  return vector::FromElementsOp::create(b, loc, frag.getType(), elems);
}

Value mlir::kda::emitWgmma(OpBuilder &b, Location loc, const MmaAtom &atom,
                           Value a, Value lds, Value byteOffset,
                           const SharedOperandLayout &layout, Value c) {
  return WgmmaOp::create(b, loc, c.getType(),
                         MmaKindAttr::get(b.getContext(), atom.kind), a, lds,
                         byteOffset, b.getI64IntegerAttr(layout.lbo),
                         b.getI64IntegerAttr(layout.sbo),
                         layout.mnMajor ? b.getUnitAttr() : UnitAttr(), c);
}

Value mlir::kda::sharedOperandIndex(OpBuilder &b, Location loc,
                                    const SharedOperandLayout &layout,
                                    CoreCoord k, CoreCoord n,
                                    int64_t elemBytes) {
  auto cst = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  auto scaled = [&](Value x, int64_t bytes) -> Value {
    assert(bytes % elemBytes == 0 && "a stride of whole elements");
    return b.createOrFold<arith::MulIOp>(loc, x, cst(bytes / elemBytes));
  };
  auto add = [&](Value x, Value y) -> Value {
    return b.createOrFold<arith::AddIOp>(loc, x, y);
  };
  // A core matrix is 8 rows of 16 bytes: rows along the strided dimension
  // (n K-major, k MN-major), 8 bf16 of the contiguous one in each.
  CoreCoord rowDim = layout.mnMajor ? k : n, contig = layout.mnMajor ? n : k;
  Value within = contig.within;
  if (elemBytes == 4)
    within = b.createOrFold<arith::DivUIOp>(loc, within, cst(2));
  else
    assert(elemBytes == 2 && "bf16 elements or floats of two");
  return add(add(scaled(n.core, layout.sbo), scaled(k.core, layout.lbo)),
             add(scaled(rowDim.within, 16), within));
}

Value mlir::kda::sharedOperandIndex(OpBuilder &b, Location loc,
                                    const SharedOperandLayout &layout, Value k,
                                    Value n, int64_t elemBytes) {
  auto split = [&](Value x) {
    Value eight = arith::ConstantIndexOp::create(b, loc, 8);
    return CoreCoord{b.createOrFold<arith::DivUIOp>(loc, x, eight),
                     b.createOrFold<arith::RemUIOp>(loc, x, eight)};
  };
  return sharedOperandIndex(b, loc, layout, split(k), split(n), elemBytes);
}

Value mlir::kda::zeroAccumulator(OpBuilder &b, Location loc,
                                 const MmaAtom &atom) {
  VectorType type = fragmentType(b.getContext(), atom, MmaOperand::C);
  return arith::ConstantOp::create(b, loc, type, b.getZeroAttr(type));
}

Value mlir::kda::emitMma(OpBuilder &b, Location loc, const MmaAtom &atom,
                         Value a, Value bFrag, Value c) {
  return MmaOp::create(b, loc, c.getType(),
                       MmaKindAttr::get(b.getContext(), atom.kind), a, bFrag,
                       c);
}

Value mlir::kda::buildFragment(OpBuilder &b, Location loc, const MmaAtom &atom,
                               MmaOperand operand, Value lane, ElementFn fn) {
  const FragmentLayout &layout = layoutOf(atom, operand);
  SmallVector<Value> elems;
  for (unsigned e = 0; e < layout.elems; ++e) {
    auto [row, col] = fragmentCoords(b, loc, layout, lane, e);
    elems.push_back(fn(b, loc, row, col));
  }
  auto type = VectorType::get({int64_t(layout.elems)}, b.getF32Type());
  return vector::FromElementsOp::create(b, loc, type, elems);
}

SmallVector<Value> mlir::kda::buildFragments(OpBuilder &b, Location loc,
                                             const MmaAtom &atom,
                                             MmaOperand operand, Value lane,
                                             unsigned count, ElementsFn fn) {
  const FragmentLayout &layout = layoutOf(atom, operand);
  SmallVector<SmallVector<Value>> elems(count);
  for (unsigned e = 0; e < layout.elems; ++e) {
    auto [row, col] = fragmentCoords(b, loc, layout, lane, e);
    SmallVector<Value> values = fn(b, loc, row, col);
    assert(values.size() == count && "one value per fragment");
    for (unsigned i = 0; i < count; ++i)
      elems[i].push_back(values[i]);
  }
  auto type = VectorType::get({int64_t(layout.elems)}, b.getF32Type());
  SmallVector<Value> frags;
  for (ArrayRef<Value> e : elems)
    frags.push_back(vector::FromElementsOp::create(b, loc, type, e));
  return frags;
}

void mlir::kda::forEachFragmentElement(OpBuilder &b, Location loc,
                                       const MmaAtom &atom, MmaOperand operand,
                                       Value frag, Value lane, ElementSink fn) {
  const FragmentLayout &layout = layoutOf(atom, operand);
  for (unsigned e = 0; e < layout.elems; ++e) {
    auto [row, col] = fragmentCoords(b, loc, layout, lane, e);
    fn(b, loc, vector::ExtractOp::create(b, loc, frag, int64_t(e)), row, col);
  }
}

/// `halves` (16-bit floats whose f32 is their bits in the high half: bf16)
/// widened to f32. An even count goes by 32-bit words - a word's low half
/// shifted up, its high half masked - so the narrowing before it stays
/// one conversion a pair (cvt.rn.bf16x2.f32 on sm_90), where an extf of
/// each element made the backend narrow them one at a time too.
static Value widenPairs(OpBuilder &b, Location loc, Value halves) {
  auto type = cast<VectorType>(halves.getType());
  const int64_t n = type.getNumElements();
  auto f32Type = VectorType::get({n}, b.getF32Type());
  if (n % 2 || !type.getElementType().isBF16())
    return arith::ExtFOp::create(b, loc, f32Type, halves);
  auto wordType = VectorType::get({n / 2}, b.getI32Type());
  auto pairType = VectorType::get({n / 2}, b.getF32Type());
  Value words = vector::BitCastOp::create(b, loc, wordType, halves);
  auto splat = [&](uint32_t v) {
    return arith::ConstantOp::create(
        b, loc, DenseElementsAttr::get(wordType, b.getI32IntegerAttr(v)));
  };
  Value low = arith::ShLIOp::create(b, loc, words, splat(16));
  Value high = arith::AndIOp::create(b, loc, words, splat(0xffff0000u));
  SmallVector<int64_t> interleave;
  for (int64_t i = 0; i < n / 2; ++i)
    interleave.append({i, n / 2 + i});
  return vector::ShuffleOp::create(
      b, loc, vector::BitCastOp::create(b, loc, pairType, low),
      vector::BitCastOp::create(b, loc, pairType, high), interleave);
}

SplitFragment mlir::kda::splitFragment(OpBuilder &b, Location loc,
                                       const MmaAtom &atom, Value frag) {
  auto f32Type = cast<VectorType>(frag.getType());
  auto halfType =
      VectorType::get(f32Type.getShape(), scalarType(b.getContext(), atom.ab));
  Value hi = arith::TruncFOp::create(b, loc, halfType, frag);
  Value rest = arith::SubFOp::create(b, loc, frag, widenPairs(b, loc, hi));
  return {hi, arith::TruncFOp::create(b, loc, halfType, rest)};
}

Value mlir::kda::packSplitWord(OpBuilder &b, Location loc, const MmaAtom &atom,
                               Value x) {
  auto one = VectorType::get({1}, b.getF32Type());
  Value v = vector::FromElementsOp::create(b, loc, one, ValueRange{x});
  SplitFragment s = splitFragment(b, loc, atom, v);
  Value pair =
      vector::ShuffleOp::create(b, loc, s.hi, s.lo, ArrayRef<int64_t>{0, 1});
  Value word = vector::BitCastOp::create(b, loc, one, pair);
  return vector::ExtractOp::create(b, loc, word, int64_t(0));
}

/// The hi and lo fragments held in `words` (a vector of n 32-bit words, each
/// two of the atom's 16-bit halves): element e's hi half is half hiAt(e),
/// its lo half loAt(e). Bytes, not arithmetic: byte permutes on the chip
/// where a fragment register takes halves of two words, nothing where it
/// is a whole word.
static SplitFragment pickHalves(OpBuilder &b, Location loc, const MmaAtom &atom,
                                Value words,
                                llvm::function_ref<int64_t(int64_t)> hiAt,
                                llvm::function_ref<int64_t(int64_t)> loAt) {
  const int64_t n = cast<VectorType>(words.getType()).getNumElements();
  auto halves = VectorType::get({2 * n}, scalarType(b.getContext(), atom.ab));
  Value all = vector::BitCastOp::create(b, loc, halves, words);
  SmallVector<int64_t> hi, lo;
  for (int64_t e = 0; e < n; ++e) {
    hi.push_back(hiAt(e));
    lo.push_back(loAt(e));
  }
  return {vector::ShuffleOp::create(b, loc, all, all, hi),
          vector::ShuffleOp::create(b, loc, all, all, lo)};
}

/// hi and lo of a vector of split words (packSplitWord).
static SplitFragment unpackWords(OpBuilder &b, Location loc,
                                 const MmaAtom &atom, Value words) {
  return pickHalves(
      b, loc, atom, words, [](int64_t e) { return 2 * e; },
      [](int64_t e) { return 2 * e + 1; });
}

SplitFragment mlir::kda::buildSplitFragment(OpBuilder &b, Location loc,
                                            const MmaAtom &atom,
                                            MmaOperand operand, Value lane,
                                            ElementFn fn) {
  return unpackWords(b, loc, atom,
                     buildFragment(b, loc, atom, operand, lane, fn));
}

SplitFragment mlir::kda::splitWordsFragment(OpBuilder &b, Location loc,
                                            const MmaAtom &atom,
                                            ArrayRef<Value> words) {
  auto type = VectorType::get({int64_t(words.size())}, b.getF32Type());
  return unpackWords(b, loc, atom,
                     vector::FromElementsOp::create(b, loc, type, words));
}

SplitFragment mlir::kda::loadSplitFragment(OpBuilder &b, Location loc,
                                           const MmaAtom &atom,
                                           MmaOperand operand,
                                           const MemTile &tile, Value lane) {
  return splitWordsFragment(
      b, loc, atom, loadFragmentElements(b, loc, atom, operand, tile, lane));
}

std::pair<Value, Value> mlir::kda::packPairWords(OpBuilder &b, Location loc,
                                                 const MmaAtom &atom, Value x0,
                                                 Value x1) {
  auto two = VectorType::get({2}, b.getF32Type());
  SplitFragment s = splitFragment(
      b, loc, atom, vector::FromElementsOp::create(b, loc, two, {x0, x1}));
  auto one = VectorType::get({1}, b.getF32Type());
  auto word = [&](Value halves) {
    return vector::ExtractOp::create(
        b, loc, vector::BitCastOp::create(b, loc, one, halves), int64_t(0));
  };
  return {word(s.hi), word(s.lo)};
}

SplitFragment mlir::kda::pairWordsFragment(OpBuilder &b, Location loc,
                                           const MmaAtom &atom,
                                           ArrayRef<Value> words) {
  assert(pairsAlongK(atom) && words.size() % 2 == 0 &&
         "pair words need registers of consecutive k");
  auto type = VectorType::get({int64_t(words.size())}, b.getF32Type());
  // Word 2i holds elements 2i and 2i + 1's hi halves (bf16 slots 4i, 4i +
  // 1), word 2i + 1 their lo halves (4i + 2, 4i + 3): whole registers.
  return pickHalves(
      b, loc, atom, vector::FromElementsOp::create(b, loc, type, words),
      [](int64_t e) { return 4 * (e / 2) + e % 2; },
      [](int64_t e) { return 4 * (e / 2) + 2 + e % 2; });
}

std::optional<RunLayout> mlir::kda::runLayoutOf(const MmaAtom &atom,
                                                MmaOperand operand) {
  if (operand == MmaOperand::C || !pairsAlongK(atom))
    return std::nullopt;
  const FragmentLayout &l = layoutOf(atom, operand);
  const bool isA = operand == MmaOperand::A;
  auto rowOf = [&](unsigned lane, unsigned e) {
    return isA ? l.rowOf(lane, e) : l.colOf(lane, e);
  };
  auto kOf = [&](unsigned lane, unsigned e) {
    return isA ? l.colOf(lane, e) : l.rowOf(lane, e);
  };
  RunLayout rl;
  rl.elems = l.elems;
  rl.tileRows = isA ? atom.m : atom.n;
  // Each row's lanes, in the order of their first k: the row's runs.
  SmallVector<SmallVector<unsigned, 8>> lanesOf(rl.tileRows);
  for (unsigned lane = 0; lane < atom.waveSize; ++lane) {
    for (unsigned e = 1; e < l.elems; ++e)
      if (rowOf(lane, e) != rowOf(lane, 0))
        return std::nullopt; // a lane's run would span rows
    lanesOf[rowOf(lane, 0)].push_back(lane);
  }
  for (auto &lanes : lanesOf)
    llvm::sort(lanes,
               [&](unsigned x, unsigned y) { return kOf(x, 0) < kOf(y, 0); });
  const int64_t runs = lanesOf[0].size();
  if (runs * l.elems != atom.k)
    return std::nullopt;
  rl.laneOfRun = runs > 1 ? int64_t(lanesOf[0][1]) - lanesOf[0][0] : 0;
  rl.laneOfRow = rl.tileRows > 1 ? int64_t(lanesOf[1][0]) - lanesOf[0][0] : 0;
  for (int64_t r = 0; r < rl.tileRows; ++r)
    for (int64_t run = 0; run < runs; ++run) {
      const unsigned lane = lanesOf[r][run];
      if (int64_t(lane) != r * rl.laneOfRow + run * rl.laneOfRun)
        return std::nullopt;
      for (unsigned e = 0; e < l.elems; ++e)
        if (kOf(lane, e) != kOf(lanesOf[0][run], e))
          return std::nullopt; // rows' runs hold different k
    }
  rl.pairWord.assign(atom.k / 2, -1);
  for (int64_t run = 0; run < runs; ++run)
    for (unsigned e = 0; e < l.elems; e += 2)
      rl.pairWord[kOf(lanesOf[0][run], e) / 2] = run * l.elems + e / 2;
  return rl;
}

Value mlir::kda::runOffset(OpBuilder &b, Location loc, const MmaAtom &atom,
                           const RunLayout &layout, Value rb, Value kb,
                           int64_t kBlocks, Value lane) {
  auto c = [&](int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); };
  Value tile = arith::AddIOp::create(
      b, loc, arith::MulIOp::create(b, loc, rb, c(kBlocks)), kb);
  // A row's 16-byte pieces copied by consecutive lanes put two k blocks'
  // runs in each 8-lane store phase, at the same slots of tiles a multiple
  // of 128 bytes apart: slot bit 2 flipped on odd blocks puts them on
  // different banks, and within each 8 slots a tile's fragment loads stay
  // a permutation (conflict-free).
  Value swizzle = arith::ShLIOp::create(
      b, loc, arith::AndIOp::create(b, loc, kb, c(1)), c(2));
  Value at = arith::AddIOp::create(
      b, loc, arith::MulIOp::create(b, loc, tile, c(atom.waveSize)),
      arith::XOrIOp::create(b, loc, lane, swizzle));
  return arith::MulIOp::create(b, loc, at, c(layout.elems));
}

Value mlir::kda::packRun(OpBuilder &b, Location loc, const MmaAtom &atom,
                         Value values) {
  SplitFragment s = splitFragment(b, loc, atom, values);
  const int64_t n = cast<VectorType>(values.getType()).getNumElements();
  SmallVector<int64_t> both;
  for (int64_t e = 0; e < 2 * n; ++e)
    both.push_back(e);
  Value halves = vector::ShuffleOp::create(b, loc, s.hi, s.lo, both);
  return vector::BitCastOp::create(b, loc, values.getType(), halves);
}

SplitFragment mlir::kda::runFragment(OpBuilder &b, Location loc,
                                     const MmaAtom &atom, Value run) {
  const int64_t n = cast<VectorType>(run.getType()).getNumElements();
  // Whole registers: the hi halves fill the run's first n / 2 words.
  return pickHalves(
      b, loc, atom, run, [](int64_t e) { return e; },
      [n](int64_t e) { return n + e; });
}

Value SplitAccumulator::sum(OpBuilder &b, Location loc) const {
  return arith::AddFOp::create(b, loc, big, small);
}

SplitAccumulator mlir::kda::emitMmaSplitInto(OpBuilder &b, Location loc,
                                             const MmaAtom &atom,
                                             const SplitFragment &a,
                                             const SplitFragment &bFrag,
                                             SplitAccumulator acc) {
  Value small = emitMma(b, loc, atom, a.lo, bFrag.hi, acc.small);
  small = emitMma(b, loc, atom, a.hi, bFrag.lo, small);
  return {emitMma(b, loc, atom, a.hi, bFrag.hi, acc.big), small};
}

Value mlir::kda::emitMmaSplitFused(OpBuilder &b, Location loc,
                                   const MmaAtom &atom, const SplitFragment &a,
                                   const SplitFragment &bFrag, Value acc) {
  return emitMmaSplitFusedRounds(b, loc, atom, {{&a, &bFrag, acc}}).front();
}

SmallVector<Value>
mlir::kda::emitMmaSplitFusedRounds(OpBuilder &b, Location loc,
                                   const MmaAtom &atom,
                                   ArrayRef<SplitProduct> products) {
  SmallVector<Value> accs;
  for (const SplitProduct &p : products)
    accs.push_back(emitMma(b, loc, atom, p.a->lo, p.b->hi, p.acc));
  for (auto [p, acc] : llvm::zip(products, accs))
    acc = emitMma(b, loc, atom, p.a->hi, p.b->lo, acc);
  for (auto [p, acc] : llvm::zip(products, accs))
    acc = emitMma(b, loc, atom, p.a->hi, p.b->hi, acc);
  return accs;
}

SplitAccumulator mlir::kda::emitMmaExactInto(OpBuilder &b, Location loc,
                                             const MmaAtom &atom,
                                             const SplitFragment &a,
                                             Value bFrag,
                                             SplitAccumulator acc) {
  return {emitMma(b, loc, atom, a.hi, bFrag, acc.big),
          emitMma(b, loc, atom, a.lo, bFrag, acc.small)};
}

//===----------------------------------------------------------------------===//
// Slabs
//===----------------------------------------------------------------------===//

std::pair<Value, Value> mlir::kda::slabCoords(OpBuilder &b, Location loc,
                                              const SlabLayout &slab,
                                              int64_t t, unsigned elem) {
  auto [r, c] = fragmentCoords(b, loc, slab.atom->c, slab.lane, elem);
  // Natural: a C tile's rows are X's rows; transposed: its columns are.
  const bool natural = slab.id.form == SlabForm::Natural;
  Value first = arith::ConstantIndexOp::create(b, loc, t * slab.id.tileLength);
  return {arith::AddIOp::create(b, loc, first, natural ? r : c),
          natural ? c : r};
}

SmallVector<Type> mlir::kda::slabTileTypes(MLIRContext *ctx,
                                           const SlabLayout &slab,
                                           int64_t length) {
  return SmallVector<Type>(length / slab.id.tileLength,
                           fragmentType(ctx, *slab.atom, MmaOperand::C));
}

SmallVector<Value> mlir::kda::zeroSlab(OpBuilder &b, Location loc,
                                       const SlabLayout &slab, int64_t length) {
  return SmallVector<Value>(length / slab.id.tileLength,
                            zeroAccumulator(b, loc, *slab.atom));
}

SmallVector<Value> mlir::kda::buildSlab(OpBuilder &b, Location loc,
                                        const SlabLayout &slab, int64_t length,
                                        ElementFn fn) {
  VectorType type = fragmentType(b.getContext(), *slab.atom, MmaOperand::C);
  SmallVector<Value> tiles;
  for (int64_t t = 0; t < length / slab.id.tileLength; ++t) {
    SmallVector<Value> elems;
    for (unsigned e = 0; e < slab.atom->c.elems; ++e) {
      auto [row, col] = slabCoords(b, loc, slab, t, e);
      elems.push_back(fn(b, loc, row, col));
    }
    tiles.push_back(vector::FromElementsOp::create(b, loc, type, elems));
  }
  return tiles;
}

SmallVector<Value> mlir::kda::mapSlab(OpBuilder &b, Location loc,
                                      const SlabLayout &slab,
                                      ArrayRef<Value> tiles, FragmentFn fn) {
  SmallVector<Value> out;
  for (auto [t, tile] : llvm::enumerate(tiles)) {
    SmallVector<Value> elems;
    for (unsigned e = 0; e < slab.atom->c.elems; ++e) {
      auto [row, col] = slabCoords(b, loc, slab, int64_t(t), e);
      elems.push_back(
          fn(b, loc, vector::ExtractOp::create(b, loc, tile, int64_t(e)), row,
             col));
    }
    out.push_back(
        vector::FromElementsOp::create(b, loc, tile.getType(), elems));
  }
  return out;
}

void mlir::kda::forEachSlabElement(OpBuilder &b, Location loc,
                                   const SlabLayout &slab,
                                   ArrayRef<Value> tiles, ElementSink sink) {
  for (auto [t, tile] : llvm::enumerate(tiles))
    for (unsigned e = 0; e < slab.atom->c.elems; ++e) {
      auto [row, col] = slabCoords(b, loc, slab, int64_t(t), e);
      sink(b, loc, vector::ExtractOp::create(b, loc, tile, int64_t(e)), row,
           col);
    }
}
