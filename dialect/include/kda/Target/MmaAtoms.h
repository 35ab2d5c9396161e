//===- MmaAtoms.h - matrix (MMA) atoms as data ------------------*- C++ -*-===//
//
// One row per matrix instruction a chip has: its shape, element types and,
// for every operand, which tile element each lane holds in each element of
// its fragment. Kernel builders, the per-target lowerings and the emulator
// all read these rows, so a fragment means the same thing everywhere: on the
// emulator a lane holds exactly what it holds on the hardware.
//
// Plain C++ over LLVM's ADT (a leaf beside TargetInfo.h): no MLIR types.
// Sources of the layouts: the AMD CDNA3 / CDNA4 ISA guides (MFMA operand
// layouts, as the AMD matrix instruction calculator prints them) and the PTX
// ISA ("Matrix Fragments for mma.m16n8k16 with floating point type").
//
//===----------------------------------------------------------------------===//
#ifndef KDA_TARGET_MMAATOMS_H
#define KDA_TARGET_MMAATOMS_H

#include "kda/Target/TargetInfo.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include <optional>
#include <string>

namespace mlir::kda {

/// One term of a fragment coordinate: ((src / div) % mod) * mul, where src is
/// the lane id or the element index within the lane's fragment; mod 0 means
/// no modulo. A coordinate is the sum of its terms.
struct LayoutTerm {
  enum Source { Lane, Elem } src;
  unsigned div, mod, mul;
  unsigned eval(unsigned lane, unsigned elem) const {
    unsigned v = (src == Lane ? lane : elem) / div;
    if (mod)
      v %= mod;
    return v * mul;
  }
};

/// Where element `e` of lane `l`'s fragment sits in the operand tile
/// (A: M x K, B: K x N, C/D: M x N).
struct FragmentLayout {
  unsigned elems; // fragment length per lane
  llvm::ArrayRef<LayoutTerm> row, col;
  unsigned rowOf(unsigned lane, unsigned e) const { return sum(row, lane, e); }
  unsigned colOf(unsigned lane, unsigned e) const { return sum(col, lane, e); }

private:
  static unsigned sum(llvm::ArrayRef<LayoutTerm> terms, unsigned lane,
                      unsigned e) {
    unsigned v = 0;
    for (const LayoutTerm &t : terms)
      v += t.eval(lane, e);
    return v;
  }
};

/// Every matrix instruction kda knows, named after the instruction. The
/// dialect's #kda.mma_kind<...> carries one of these.
enum class MmaKind : uint32_t {
  MfmaF32_16x16x16_BF16,   // v_mfma_f32_16x16x16_bf16 (bf16_1k), gfx90a+
  MfmaF32_32x32x8_BF16,    // v_mfma_f32_32x32x8_bf16 (bf16_1k), gfx90a+
  MfmaF32_16x16x32_BF16,   // v_mfma_f32_16x16x32_bf16, gfx950
  MfmaF32_32x32x16_BF16,   // v_mfma_f32_32x32x16_bf16, gfx950
  MmaSyncF32_16x8x16_BF16, // mma.sync.aligned.m16n8k16.row.col.f32.bf16, sm_80+
  // wgmma.mma_async.sync.aligned.m64nNk16.f32.bf16.bf16, A from registers,
  // B from shared memory; sm_90a (arch-specific: the cubin must be sm_90a).
  WgmmaF32_64x16x16_BF16,
  WgmmaF32_64x32x16_BF16,
  WgmmaF32_64x64x16_BF16,
  WgmmaF32_64x128x16_BF16,
};

/// The kind's mnemonic in #kda.mma_kind<...> ("mfma_f32_16x16x16_bf16").
llvm::StringRef stringifyMmaKind(MmaKind kind);
std::optional<MmaKind> symbolizeMmaKind(llvm::StringRef name);
/// Every kind, in declaration order (for diagnostics and tests).
llvm::ArrayRef<MmaKind> allMmaKinds();

/// Mfma and MmaSync atoms are wave-synchronous: a wave's lanes give A and B
/// from registers and get D back. Wgmma is a warpgroup's (four 32-lane
/// waves, 128 threads) asynchronous product: A from registers (wave w of
/// the group gives rows 16 w .. 16 w + 15), B read by the tensor core from
/// shared memory (SharedOperandLayout), D available only after the
/// wgmma.wait_group that covers its commit group.
enum class MmaFamily { Mfma, MmaSync, Wgmma };

/// Where an operand comes from: a lane's registers (its FragmentLayout), or
/// shared memory through a matrix descriptor (the FragmentLayout is empty).
enum class OperandSource { Registers, SharedMemory };

struct MmaAtom {
  llvm::StringLiteral name; // the instruction, as its ISA spells it
  MmaKind kind;
  MmaFamily family;
  unsigned m, n, k;
  ScalarKind ab, acc;
  unsigned waveSize; // threads that hold the fragments (wgmma: a warpgroup)
  FragmentLayout a, b, c;
  OperandSource bSource = OperandSource::Registers;

  bool bFromSharedMemory() const {
    return bSource == OperandSource::SharedMemory;
  }
};

/// A wgmma's B operand (k x n, 16-bit elements) in shared memory, in one of
/// the two canonical layouts without swizzle (PTX ISA, "Shared Memory Matrix
/// Layout" of wgmma), both made of 8 x 8 core matrices of 128 contiguous
/// bytes, core matrices adjacent along k `lbo` bytes apart (the
/// leading-dimension byte offset) and along n `sbo` bytes apart (the
/// stride-dimension byte offset):
///  - K-major (imm-trans-b 0): a core matrix is 8 rows of one n each, 16
///    bytes of 8 consecutive k;
///  - MN-major (`mnMajor`, imm-trans-b 1): 8 rows of one k each, 16 bytes
///    of 8 consecutive n - what a row-major k x n matrix gives 16 bytes at a
///    time (the chunk scan's update reads k o exp(G_last - G) that way).
/// The emulator, the lowering's descriptor and the verifier's footprint all
/// read it from here.
struct SharedOperandLayout {
  unsigned lbo, sbo;
  bool mnMajor = false;
  /// The byte of element (k, n) relative to the operand's start.
  unsigned byteOffset(unsigned k, unsigned n) const {
    const unsigned core = (n / 8) * sbo + (k / 8) * lbo;
    return mnMajor ? core + (k % 8) * 16 + (n % 8) * 2
                   : core + (n % 8) * 16 + (k % 8) * 2;
  }
  /// One past the last byte a k x n operand reads.
  unsigned extentBytes(unsigned k, unsigned n) const;
  /// Empty when the descriptor can encode it (offsets multiples of 16 below
  /// 2^18, core matrices of one operand not overlapping), else why not.
  std::string invalidReason(unsigned k, unsigned n) const;
};

/// The 64-bit shared-memory matrix descriptor of a wgmma operand starting at
/// shared-window byte `start` (16-byte aligned, below 2^18): start, leading
/// and stride byte offsets each >> 4 in bits 0-13, 16-29 and 32-45; base
/// offset 0 and no swizzle (bits 49-51, 62-63).
uint64_t wgmmaDescriptor(uint32_t start, const SharedOperandLayout &layout);

/// The atom of `kind` (its layouts do not depend on the chip).
const MmaAtom &getMmaAtom(MmaKind kind);

/// `atom` with its k slots renamed so that the k a lane holds of one A row
/// or one B column are consecutive (one vector load where the operand's k
/// is contiguous in memory): the same instruction and C layout; the A and
/// B layouts rename k by one bijection, so a product whose A and B
/// fragments both follow the twin computes the same sum. Never mix the
/// twin's A with the atom's B. MFMA lanes already hold consecutive k: their
/// twin is the atom's layouts. A wgmma's B k is placed by its shared layout,
/// which a renaming of A's k cannot follow: its twin is the atom.
const MmaAtom &contiguousKAtom(const MmaAtom &atom);

/// Whether each register of `atom`'s A and B fragments (16-bit operands:
/// elements 2i and 2i + 1 of a lane) holds an even k and the next one of
/// the same row (A) or column (B). Pair words (TileLayer.h) are read as
/// whole registers on such atoms; every atom kda knows, and its twin, does.
bool pairsAlongK(const MmaAtom &atom);

/// Whether every lane's accumulator elements 2i and 2i + 1 are one row's
/// columns c and c + 1 with c even: a lane then stores them as one 8-byte
/// vector (mma.sync m16n8k16: yes; the MFMA atoms, whose lanes hold one
/// column of several rows: no).
bool accumulatorPairsAlongRow(const MmaAtom &atom);

/// Words (4 bytes) of padding for a row-major LDS array of `elementBytes`
/// elements whose rows (a multiple of 32 words wide) feed `atom`'s A
/// fragments by loads along k, one load a lane of the k it holds side by
/// side (at most 16 bytes), so that the rows the lanes of one 128-byte LDS
/// wavefront read fall on distinct banks of 4 bytes (32 of them). f32 rows
/// (the prep's G and A, also read as 16-byte runs) keep a multiple of 4
/// words (rows stay 16-byte aligned): mma.sync m16n8k16 8 (a wavefront's
/// 16 lanes read 8 words of each of 4 rows; with 4 the rows overlap, 2-way
/// conflicts), the MFMA atoms 4 (8 lanes read 4 words of each of 8 rows).
/// bf16 rows (the prep's staged k and q) need a lane's load aligned only:
/// mma.sync 4 (its 32 lanes read one word of each pair, 4 words of each of
/// 8 rows; the 2 words of 8 bytes of padding were 2-way conflicts, ncu on
/// the H200), MFMA 16x16x16 and 32x32x8 2 (16 lanes, 2 words of each of
/// 16 rows), 16x16x32 and 32x32x16 4.
unsigned ldsRowPadWords(const MmaAtom &atom, unsigned elementBytes = 4);

/// How a wave's accumulator tiles of a matrix can feed the same atom again
/// as an operand without leaving its registers: the identity a kernel needs
/// to keep a matrix (the chunk scan's state) in accumulators across
/// products. A "slab" is an L x w matrix X (w = 16 columns a wave owns, L
/// its length) held as L / (tile length) accumulator tiles:
///  - Natural (w = n): tile t holds rows [t m, t m + m) of X, and the
///    `tilesPerStep` tiles t = s p .. s p + p - 1 (p = tilesPerStep),
///    their elements concatenated in order, are, register for register,
///    the B fragment of rows [s k, s k + k) of X (MFMA 16x16x16: C = B).
///  - Transposed (w = m): tile t holds the transpose of rows [t n, t n + n)
///    of X (a w x n tile of X^T), and the same concatenation is the A
///    fragment of columns [s k, s k + k) of X^T (mma.sync m16n8k16: two
///    16 x 8 accumulator tiles side by side are one A fragment).
/// So a product L_out x w = (L_out x L) X takes X as B (natural) or, taken
/// transposed, X^T as A; its result is again a slab of the same form.
enum class SlabForm { Natural, Transposed };
struct AccumulatorOperand {
  SlabForm form;
  unsigned width;        // w: the slab's columns (n or m)
  unsigned tileLength;   // rows of X a tile holds (m or n)
  unsigned tilesPerStep; // k / tileLength
};

/// The identity `atom` has, checked lane by lane on its layout tables
/// (natural first), or none: the k = 32 MFMA atoms hold 8 consecutive k a
/// lane where stacked accumulator tiles hold 4 and 4, and 32 x 32 tiles
/// are longer than a k step.
std::optional<AccumulatorOperand> accumulatorOperandOf(const MmaAtom &atom);

/// The matrix atoms chip `chip` has (a TargetInfo::chip: gfx942, gfx950,
/// sm_90); empty for a chip without matrix instructions. Emulator targets
/// pass the chip they stand for, so they execute exactly these atoms.
llvm::ArrayRef<const MmaAtom *> mmaAtomsOf(llvm::StringRef chip);

/// The warpgroup atoms (wgmma) of chip `chip`; empty where it has none.
/// Kept apart from mmaAtomsOf: a kernel builder asks for them by name, as
/// their operands and waits differ from the wave atoms'.
llvm::ArrayRef<const MmaAtom *> warpgroupAtomsOf(llvm::StringRef chip);

/// The wgmma atom of `chip` with n columns, or null with `why`.
const MmaAtom *findWarpgroupAtom(llvm::StringRef chip, unsigned n,
                                 std::string &why);

/// Whether chip `chip` has the atom of `kind` (wave or warpgroup).
bool chipHasMmaAtom(llvm::StringRef chip, MmaKind kind);

/// The atom of shape m x n x k with these element types on `chip`, or null
/// with `why` naming what the chip has instead.
const MmaAtom *findMmaAtom(llvm::StringRef chip, unsigned m, unsigned n,
                           unsigned k, ScalarKind ab, ScalarKind acc,
                           std::string &why);

/// The largest-k atom of `chip` with these element types whose m and n
/// divide `tileM`, `tileN` (what a tile kernel builder asks for when it does
/// not care about the shape), or null with `why`.
const MmaAtom *preferredMmaAtom(llvm::StringRef chip, ScalarKind ab,
                                ScalarKind acc, unsigned tileM, unsigned tileN,
                                std::string &why);

/// "v_mfma_f32_16x16x16_bf16 (16x16x16 bf16 -> f32), ..." for diagnostics:
/// every atom of the chip, warpgroup atoms last.
std::string describeMmaAtoms(llvm::StringRef chip);

} // namespace mlir::kda

#endif // KDA_TARGET_MMAATOMS_H
