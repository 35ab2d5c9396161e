//===- TileLayer.h - fragments and matrix atoms for kernel builders -*- C++ -*-===//
//
// What a kernel builder uses to compute with matrix atoms without naming a
// target: it asks the atom table for an atom (findMmaAtom / preferredMmaAtom
// with target.chip), then loads fragments from memref tiles, applies
// elementwise functions that see each element's tile coordinates, and issues
// kda.mma. Every coordinate comes from the atom's lane layout (arith on
// gpu.lane_id), so the same IR is right on every target; kda-lower-atoms and
// kda-gpu-to-emu only replace kda.mma.
//
//===----------------------------------------------------------------------===//
#ifndef KDA_PASSES_TILELAYER_H
#define KDA_PASSES_TILELAYER_H

#include "kda/Dialect/KDA/KDAOps.h"
#include "mlir/IR/Builders.h"

namespace mlir::kda {

/// Which operand tile of an atom a fragment belongs to.
enum class MmaOperand { A, B, C };

const FragmentLayout &layoutOf(const MmaAtom &atom, MmaOperand operand);

/// The element type an atom's ScalarKind stands for.
Type scalarType(MLIRContext *ctx, ScalarKind kind);

/// The fragment's vector type: vector<elems x elem>.
VectorType fragmentType(MLIRContext *ctx, const MmaAtom &atom,
                        MmaOperand operand);

/// Tile coordinates (row, column), index-typed, of element `elem` of the
/// fragment held by lane `lane`: the layout's terms as arith ops (element
/// terms fold to constants).
std::pair<Value, Value> fragmentCoords(OpBuilder &b, Location loc,
                                       const FragmentLayout &layout, Value lane,
                                       unsigned elem);

/// A tile in a rank-1 memref: element (r, c) of the tile is at
/// offset + r * rowStride + c * colStride (index values). `align`: the
/// caller's promise that offset and both strides are multiples of it
/// (elements); loads then read up to that many elements at once where the
/// fragment's elements lie next to each other (a constant stride of 1).
struct MemTile {
  Value memref;
  Value offset, rowStride, colStride;
  unsigned align = 1;
  Value indexOf(OpBuilder &b, Location loc, Value row, Value col) const;
};

/// Loads the calling lane's fragment of `operand` from `tile`, converting
/// elements to the fragment's element type when the memref holds another.
/// Elements next to each other in memory are read by one vector load (up
/// to 4, as `tile.align` and the layout allow): an operand tile stored with
/// its k dimension contiguous takes half or a quarter of the loads.
Value loadFragment(OpBuilder &b, Location loc, const MmaAtom &atom,
                   MmaOperand operand, const MemTile &tile, Value lane);

/// The calling lane's elements of `operand` from `tile`, as the memref
/// holds them (no conversion), with loadFragment's vector loads.
SmallVector<Value> loadFragmentElements(OpBuilder &b, Location loc,
                                        const MmaAtom &atom, MmaOperand operand,
                                        const MemTile &tile, Value lane);

/// Stores the calling lane's fragment `frag` of `operand` into `tile`.
void storeFragment(OpBuilder &b, Location loc, const MmaAtom &atom,
                   MmaOperand operand, Value frag, const MemTile &tile,
                   Value lane);

/// fn(builder, value, row, col) -> new value, per element, with the
/// element's tile coordinates (e.g. a causal mask by select).
using FragmentFn =
    llvm::function_ref<Value(OpBuilder &, Location, Value, Value, Value)>;
Value mapFragment(OpBuilder &b, Location loc, const MmaAtom &atom,
                  MmaOperand operand, Value frag, Value lane, FragmentFn fn);

/// fn(builder, row, col) -> the f32 value of tile element (row, col).
using ElementFn = llvm::function_ref<Value(OpBuilder &, Location, Value, Value)>;

/// The calling lane's fragment of `operand` as f32, element by element from
/// `fn` (which may compute, mask by select, or load from anywhere): how a
/// builder feeds an atom from a tile it never materialises, e.g.
/// k_j * exp(G_m - G_j) of the chunk kernels.
Value buildFragment(OpBuilder &b, Location loc, const MmaAtom &atom,
                    MmaOperand operand, Value lane, ElementFn fn);

/// fn(builder, row, col) -> `count` f32 values of element (row, col), one
/// per fragment: several operands that share per-element work (the chunk
/// kernels' k and q rows, decayed by the same factor) built in one pass.
using ElementsFn =
    llvm::function_ref<SmallVector<Value>(OpBuilder &, Location, Value, Value)>;
SmallVector<Value> buildFragments(OpBuilder &b, Location loc,
                                  const MmaAtom &atom, MmaOperand operand,
                                  Value lane, unsigned count, ElementsFn fn);

/// Calls fn(builder, value, row, col) for every element of the calling
/// lane's fragment `frag` of `operand` (stores, masked stores).
using ElementSink =
    llvm::function_ref<void(OpBuilder &, Location, Value, Value, Value)>;
void forEachFragmentElement(OpBuilder &b, Location loc, const MmaAtom &atom,
                            MmaOperand operand, Value frag, Value lane,
                            ElementSink fn);

/// An f32 fragment split for an atom with 16-bit operands: hi = round(x)
/// and lo = round(x - hi) in the atom's operand type, elementwise (lo * lo
/// is below f32 rounding, so three atoms reach about f32 accuracy).
struct SplitFragment {
  Value hi, lo;
};

/// Splits the f32 fragment `frag` (as buildFragment makes it) at its use.
SplitFragment splitFragment(OpBuilder &b, Location loc, const MmaAtom &atom,
                            Value frag);

/// The split word of the f32 scalar `x`: hi and lo (as above) packed into
/// 32 bits, hi in the low half, carried as the bits of an f32 so it lives
/// in the same f32 buffers (workspace, LDS) as the value would. Only loads,
/// stores and selects (a zero word is the split of 0) may touch it. A
/// producer that writes an operand once and whose consumers read it many
/// times splits it once here instead of at every fragment.
Value packSplitWord(OpBuilder &b, Location loc, const MmaAtom &atom, Value x);

/// The calling lane's split fragment of `operand` from split words: `fn`
/// gives each element's word (packSplitWord), by tile coordinates.
SplitFragment buildSplitFragment(OpBuilder &b, Location loc,
                                 const MmaAtom &atom, MmaOperand operand,
                                 Value lane, ElementFn fn);

/// The split fragment whose elements' split words (packSplitWord, in
/// fragment order) the caller has at hand.
SplitFragment splitWordsFragment(OpBuilder &b, Location loc,
                                 const MmaAtom &atom, ArrayRef<Value> words);

/// The calling lane's split fragment of `operand` from a tile of split
/// words in memory (f32 elements), read by loadFragment's vector loads.
SplitFragment loadSplitFragment(OpBuilder &b, Location loc, const MmaAtom &atom,
                                MmaOperand operand, const MemTile &tile,
                                Value lane);

/// Pair words: the split of two f32 values adjacent along an operand's k
/// (k even, then k + 1, same row or column) as two 32-bit words, the
/// first (stored at k) both hi halves, the second (at k + 1) both lo
/// halves, each in k order. On an atom whose registers pair consecutive k
/// (pairsAlongK) a fragment of pair words is its loads, with no byte
/// permutes, where split words (packSplitWord) take one a register; the
/// producer narrows both values with one conversion a pair. Like split
/// words, only loads, stores and selects may touch them (zero words are
/// the split of zeros).
std::pair<Value, Value> packPairWords(OpBuilder &b, Location loc,
                                      const MmaAtom &atom, Value x0, Value x1);

/// The split fragment whose elements' pair words (in fragment order: even
/// elements hi words, odd ones lo words) the caller has (loaded as
/// loadFragmentElements reads any words, like splitWordsFragment's).
SplitFragment pairWordsFragment(OpBuilder &b, Location loc, const MmaAtom &atom,
                                ArrayRef<Value> words);

/// Fragment runs: an operand held lane by lane for the atom, each lane's
/// split fragment of a tile as one run of `elems` words - the pair words
/// of its hi halves in fragment order, then those of its lo halves - so
/// that on an atom whose registers pair consecutive k (pairsAlongK) one
/// vector load brings the hi and lo fragments as whole registers, in
/// place: no byte permutes (split words take one a register) and no
/// register moves (pair words stored k by k land a fragment's registers
/// apart). A matrix whose rows are the operand's other index and whose
/// columns its k holds its runs, in memory, row by row in run order: each
/// atom.k block of a row is the block's runs one after another (the run
/// layout's `pairWord`), so 16-byte pieces of a row are whole runs where
/// elems is 4; in an LDS array, tile by tile (runOffset), a tile's runs in
/// lane order.
struct RunLayout {
  int64_t elems;     // words a run (a lane's fragment elements)
  int64_t tileRows;  // the operand's other index blocked by this
  int64_t laneOfRow; // run r of a tile's row t is lane t laneOfRow +
  int64_t laneOfRun; //   r laneOfRun's
  /// Word, within a row's atom.k block, of the hi pair word of the pair
  /// (k, k + 1), k = 2 i (its lo pair word is elems / 2 words on).
  SmallVector<int64_t, 16> pairWord;
};

/// The atom's run layout for `operand`, or none where it has none (not
/// pairsAlongK, a lane's elements in two rows, rows whose runs differ).
std::optional<RunLayout> runLayoutOf(const MmaAtom &atom, MmaOperand operand);

/// The first word of lane `lane`'s run of tile (rb, kb) of an operand of
/// `kBlocks` tiles along k in an LDS array: tiles in order, each holding
/// its lanes' runs at slots lane ^ 4 (kb & 1) (a permutation within each
/// 8 slots: the definition says why).
Value runOffset(OpBuilder &b, Location loc, const MmaAtom &atom,
                const RunLayout &layout, Value rb, Value kb, int64_t kBlocks,
                Value lane);

/// The run of `values` (vector<elems x f32>, a lane's fragment elements in
/// fragment order): their hi halves, then their lo halves.
Value packRun(OpBuilder &b, Location loc, const MmaAtom &atom, Value values);

/// The split fragment a run holds (a vector<elems x f32> as loaded).
SplitFragment runFragment(OpBuilder &b, Location loc, const MmaAtom &atom,
                          Value run);

/// A B to about f32 accuracy from split fragments (lo * lo is below f32
/// rounding): three atoms a k step into two accumulators, `big` taking
/// hi*hi and `small` lo*hi and hi*lo, summed once after the k loop (sum()).
/// The atoms of one k step are two short chains, so a k loop's steps
/// overlap, and the small terms are summed among themselves before they
/// meet the large ones. What the chunk kernels use so their error stays at
/// the recurrent kernel's (KDA-MATH.md section 3).
struct SplitAccumulator {
  Value big, small;
  Value sum(OpBuilder &b, Location loc) const;
};
SplitAccumulator emitMmaSplitInto(OpBuilder &b, Location loc,
                                  const MmaAtom &atom, const SplitFragment &a,
                                  const SplitFragment &bFrag,
                                  SplitAccumulator acc);

/// The same three atoms into one accumulator (small terms first): for a
/// product whose k step already has independent chains to overlap (several
/// tiles or products at once), at half the accumulator registers. As
/// accurate: the split itself is good to about 2^-16 of each element,
/// far above f32 rounding of the sum.
Value emitMmaSplitFused(OpBuilder &b, Location loc, const MmaAtom &atom,
                        const SplitFragment &a, const SplitFragment &bFrag,
                        Value acc);

/// One k step's split product of a tile for emitMmaSplitFusedRounds.
struct SplitProduct {
  const SplitFragment *a, *b;
  Value acc;
};

/// emitMmaSplitFused of every product, their atoms issued round by round:
/// every product's lo * hi, then every hi * lo, then every hi * hi. Each
/// accumulator takes its atoms in emitMmaSplitFused's order (the same sums,
/// bit for bit); only the order the atoms are issued in differs, which
/// ptxas mostly keeps, so it moves registers and spills (measured per
/// kernel: ChunkPlan::slabRoundTiles).
SmallVector<Value> emitMmaSplitFusedRounds(OpBuilder &b, Location loc,
                                           const MmaAtom &atom,
                                           ArrayRef<SplitProduct> products);

/// The same where B is exact in the atom's operand type (bf16 inputs: k,
/// v): two atoms, lo*B into `small`, hi*B into `big`.
SplitAccumulator emitMmaExactInto(OpBuilder &b, Location loc,
                                  const MmaAtom &atom, const SplitFragment &a,
                                  Value bFrag, SplitAccumulator acc);

/// An accumulator fragment of zeros.
Value zeroAccumulator(OpBuilder &b, Location loc, const MmaAtom &atom);

/// One warpgroup atom (kda.wgmma) of `atom` (a Wgmma-family row): A from
/// the thread's fragment `a`, B at byte `byteOffset` of the i8 workgroup
/// buffer `lds` in `layout`, accumulating into `c`. The result is in flight
/// until a kda.wgmma_wait returns it.
Value emitWgmma(OpBuilder &b, Location loc, const MmaAtom &atom, Value a,
                Value lds, Value byteOffset, const SharedOperandLayout &layout,
                Value c);

/// A coordinate of a wgmma shared operand (k or n, in bf16 elements) split
/// at its core matrices: the core matrix along that dimension and the
/// position (0..7) within it.
struct CoreCoord {
  Value core, within;
};
/// Where element (k, n) of an operand in `layout` is, in elements of
/// `elemBytes` (2: bf16; 4: a float, two bf16 along the core matrix's
/// contiguous 16 bytes, so the contiguous dimension's `within` must be even
/// there): SharedOperandLayout::byteOffset's arithmetic as IR, folding
/// constant parts. The one place a kernel builder places core matrices.
Value sharedOperandIndex(OpBuilder &b, Location loc,
                         const SharedOperandLayout &layout, CoreCoord k,
                         CoreCoord n, int64_t elemBytes);
/// The same from whole coordinates (split at 8 here).
Value sharedOperandIndex(OpBuilder &b, Location loc,
                         const SharedOperandLayout &layout, Value k, Value n,
                         int64_t elemBytes);

/// kda.mma of the atom: D = A B + C on the calling lane's fragments.
Value emitMma(OpBuilder &b, Location loc, const MmaAtom &atom, Value a,
              Value bFrag, Value c);

//===----------------------------------------------------------------------===//
// Slabs: a matrix carried in accumulator tiles and fed back as an operand
//===----------------------------------------------------------------------===//
//
// A slab holds `length` rows of a matrix X by the identity's `width`
// columns (AccumulatorOperand, MmaAtoms.h) as accumulator tiles of `atom`,
// tile t holding rows [t tileLength, (t + 1) tileLength): the form in which
// a wave carries X across a loop (the chunk scan's state) and takes it back
// into the atom as an operand without a trip through LDS. "Row" below is
// X's row (the length index), "column" one of the slab's columns.

/// Where slab elements live: the atom, its identity, the calling lane.
struct SlabLayout {
  const MmaAtom *atom;
  AccumulatorOperand id;
  Value lane;
};

/// (row, column), index-typed, of element `elem` of tile `t`.
std::pair<Value, Value> slabCoords(OpBuilder &b, Location loc,
                                   const SlabLayout &slab, int64_t t,
                                   unsigned elem);

/// The tiles' types of a slab of `length` rows.
SmallVector<Type> slabTileTypes(MLIRContext *ctx, const SlabLayout &slab,
                                int64_t length);

/// A slab of `length` rows of zeros.
SmallVector<Value> zeroSlab(OpBuilder &b, Location loc, const SlabLayout &slab,
                            int64_t length);

/// A slab of `length` rows whose element (row, col) is fn(builder, row, col).
SmallVector<Value> buildSlab(OpBuilder &b, Location loc, const SlabLayout &slab,
                             int64_t length, ElementFn fn);

/// fn(builder, value, row, col) of each element of `tiles`.
SmallVector<Value> mapSlab(OpBuilder &b, Location loc, const SlabLayout &slab,
                           ArrayRef<Value> tiles, FragmentFn fn);

/// sink(builder, value, row, col) for each element of `tiles`.
void forEachSlabElement(OpBuilder &b, Location loc, const SlabLayout &slab,
                        ArrayRef<Value> tiles, ElementSink sink);

} // namespace mlir::kda

#endif // KDA_PASSES_TILELAYER_H
