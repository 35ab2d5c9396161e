//===- MmaAtoms.cpp - the matrix atom table -------------------------------===//
//
// Layout notation: a coordinate is a sum of terms ((lane or elem) / div %
// mod) * mul (LayoutTerm). Per atom, from the ISA documents named in
// MmaAtoms.h:
//
// MFMA (wave 64), A is M x K, B is K x N, C/D is M x N:
//   16x16x16 bf16: A[l%16][4*(l/16) + e], B[4*(l/16) + e][l%16], e < 4;
//                  C[4*(l/16) + e][l%16], e < 4.
//   32x32x8 bf16:  A[l%32][4*(l/32) + e], B[4*(l/32) + e][l%32], e < 4;
//                  C[8*(e/4) + 4*(l/32) + e%4][l%32], e < 16.
//   16x16x32 bf16 (gfx950): as 16x16x16 with 8 consecutive k per lane:
//                  A[l%16][8*(l/16) + e], e < 8; C as 16x16x16.
//   32x32x16 bf16 (gfx950): A[l%32][8*(l/32) + e], e < 8; C as 32x32x8.
// mma.sync m16n8k16 bf16 (wave 32), g = l/4 (groupID), t = l%4:
//   A (8 elems, a0..a7): row g + 8*((e/2)%2), col 2t + e%2 + 8*(e/4);
//   B (4 elems, b0..b3): row (k) 2t + e%2 + 8*(e/2), col g;
//   C (4 elems, c0..c3): row g + 8*(e/2), col 2t + e%2.
// wgmma m64nNk16 bf16 (a warpgroup of 128 threads, w = l/32 its wave,
// g = (l%32)/4, t = l%4; PTX ISA "Register Fragments" of wgmma .m64nNk16):
//   A (8 elems): mma.sync's A on rows 16w + ...: row 16w + g + 8*((e/2)%2),
//                col 2t + e%2 + 8*(e/4);
//   B: shared memory (SharedOperandLayout);
//   D (N/2 elems): row 16w + g + 8*((e/2)%2), col 8*(e/4) + 2t + e%2.
//
//===----------------------------------------------------------------------===//
#include "kda/Target/MmaAtoms.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/FormatVariadic.h"
#include <iterator>

using namespace mlir::kda;
using T = LayoutTerm;

namespace {
constexpr T lane(unsigned div, unsigned mod, unsigned mul) {
  return {T::Lane, div, mod, mul};
}
constexpr T elem(unsigned div, unsigned mod, unsigned mul) {
  return {T::Elem, div, mod, mul};
}

// MFMA operand layouts, parameterised by the tile edge (16 or 32) and the k
// elements one lane holds (4 or 8): the lane picks the M (or N) index, the
// lane group of `edge` lanes picks a run of `kPerLane` consecutive k.
const T kMfma16Mn[] = {lane(1, 16, 1)};
const T kMfma16K4[] = {lane(16, 0, 4), elem(1, 0, 1)};
const T kMfma16K8[] = {lane(16, 0, 8), elem(1, 0, 1)};
const T kMfma32Mn[] = {lane(1, 32, 1)};
const T kMfma32K4[] = {lane(32, 0, 4), elem(1, 0, 1)};
const T kMfma32K8[] = {lane(32, 0, 8), elem(1, 0, 1)};
// Accumulators: 16x16: lane group picks 4 rows; 32x32: element blocks of 4
// rows step by 8, the lane half picks which 4 of each 8.
const T kMfma16CRow[] = {lane(16, 0, 4), elem(1, 0, 1)};
const T kMfma32CRow[] = {elem(4, 0, 8), lane(32, 0, 4), elem(1, 4, 1)};

// mma.sync m16n8k16 (PTX ISA, matrix fragments for mma.m16n8k16).
const T kSyncARow[] = {lane(4, 0, 1), elem(2, 2, 8)};
const T kSyncACol[] = {lane(1, 4, 2), elem(1, 2, 1), elem(4, 0, 8)};
const T kSyncBRow[] = {lane(1, 4, 2), elem(1, 2, 1), elem(2, 0, 8)};
const T kSyncBCol[] = {lane(4, 0, 1)};
const T kSyncCRow[] = {lane(4, 0, 1), elem(2, 0, 8)};
const T kSyncCCol[] = {lane(1, 4, 2), elem(1, 2, 1)};
// The same with the k slots renamed so a lane's k of one row (A) or column
// (B) are four consecutive k: slot 2t + i + 8j holds k 4t + 2j + i (one
// renaming for A and B, so a product's sum over k is unchanged).
const T kSyncAColK[] = {lane(1, 4, 4), elem(1, 2, 1), elem(4, 0, 2)};
const T kSyncBRowK[] = {lane(1, 4, 4), elem(1, 2, 1), elem(2, 0, 2)};

// wgmma: rows 16 w + g (+ 8) of the warpgroup; A's columns as mma.sync's.
const T kGroupRow[] = {lane(32, 0, 16), lane(4, 8, 1), elem(2, 2, 8)};
const T kGroupCCol[] = {elem(4, 0, 8), lane(1, 4, 2), elem(1, 2, 1)};

MmaAtom wgmma(llvm::StringLiteral name, MmaKind kind, unsigned n) {
  return {name,
          kind,
          MmaFamily::Wgmma,
          64,
          n,
          16,
          ScalarKind::BF16,
          ScalarKind::F32,
          128,
          {8, kGroupRow, kSyncACol},
          {0, {}, {}},
          {n / 2, kGroupRow, kGroupCCol},
          OperandSource::SharedMemory};
}

const MmaAtom kAtoms[] = {
    {"v_mfma_f32_16x16x16_bf16", MmaKind::MfmaF32_16x16x16_BF16,
     MmaFamily::Mfma, 16, 16, 16, ScalarKind::BF16, ScalarKind::F32, 64,
     /*a=*/{4, kMfma16Mn, kMfma16K4}, /*b=*/{4, kMfma16K4, kMfma16Mn},
     /*c=*/{4, kMfma16CRow, kMfma16Mn}},
    {"v_mfma_f32_32x32x8_bf16",
     MmaKind::MfmaF32_32x32x8_BF16,
     MmaFamily::Mfma,
     32,
     32,
     8,
     ScalarKind::BF16,
     ScalarKind::F32,
     64,
     {4, kMfma32Mn, kMfma32K4},
     {4, kMfma32K4, kMfma32Mn},
     {16, kMfma32CRow, kMfma32Mn}},
    {"v_mfma_f32_16x16x32_bf16",
     MmaKind::MfmaF32_16x16x32_BF16,
     MmaFamily::Mfma,
     16,
     16,
     32,
     ScalarKind::BF16,
     ScalarKind::F32,
     64,
     {8, kMfma16Mn, kMfma16K8},
     {8, kMfma16K8, kMfma16Mn},
     {4, kMfma16CRow, kMfma16Mn}},
    {"v_mfma_f32_32x32x16_bf16",
     MmaKind::MfmaF32_32x32x16_BF16,
     MmaFamily::Mfma,
     32,
     32,
     16,
     ScalarKind::BF16,
     ScalarKind::F32,
     64,
     {8, kMfma32Mn, kMfma32K8},
     {8, kMfma32K8, kMfma32Mn},
     {16, kMfma32CRow, kMfma32Mn}},
    {"mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32",
     MmaKind::MmaSyncF32_16x8x16_BF16,
     MmaFamily::MmaSync,
     16,
     8,
     16,
     ScalarKind::BF16,
     ScalarKind::F32,
     32,
     {8, kSyncARow, kSyncACol},
     {4, kSyncBRow, kSyncBCol},
     {4, kSyncCRow, kSyncCCol}},
    wgmma("wgmma.mma_async.sync.aligned.m64n16k16.f32.bf16.bf16",
          MmaKind::WgmmaF32_64x16x16_BF16, 16),
    wgmma("wgmma.mma_async.sync.aligned.m64n32k16.f32.bf16.bf16",
          MmaKind::WgmmaF32_64x32x16_BF16, 32),
    wgmma("wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16",
          MmaKind::WgmmaF32_64x64x16_BF16, 64),
    wgmma("wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16",
          MmaKind::WgmmaF32_64x128x16_BF16, 128),
};

/// `atom` with other A and B layouts (the same instruction and C layout).
MmaAtom withOperandLayouts(const MmaAtom &atom, FragmentLayout a,
                           FragmentLayout b) {
  MmaAtom twin = atom;
  twin.a = a;
  twin.b = b;
  return twin;
}

// The k-contiguous twins (contiguousKAtom), in kAtoms' order: MFMA lanes
// already hold consecutive k.
const MmaAtom kContiguousK[] = {
    kAtoms[0],
    kAtoms[1],
    kAtoms[2],
    kAtoms[3],
    withOperandLayouts(kAtoms[4], {8, kSyncARow, kSyncAColK},
                       {4, kSyncBRowK, kSyncBCol}),
    kAtoms[5],
    kAtoms[6],
    kAtoms[7],
    kAtoms[8],
};

static_assert(std::size(kContiguousK) == std::size(kAtoms),
              "one k-contiguous twin per atom, in kAtoms' order");

const MmaKind kKinds[] = {
    MmaKind::MfmaF32_16x16x16_BF16,   MmaKind::MfmaF32_32x32x8_BF16,
    MmaKind::MfmaF32_16x16x32_BF16,   MmaKind::MfmaF32_32x32x16_BF16,
    MmaKind::MmaSyncF32_16x8x16_BF16, MmaKind::WgmmaF32_64x16x16_BF16,
    MmaKind::WgmmaF32_64x32x16_BF16,  MmaKind::WgmmaF32_64x64x16_BF16,
    MmaKind::WgmmaF32_64x128x16_BF16};

static_assert(std::size(kKinds) == std::size(kAtoms),
              "one kind per atom, in kAtoms' order");

const MmaAtom *atom(MmaKind k) { return &kAtoms[unsigned(k)]; }

// Per chip. gfx950 (CDNA4) keeps CDNA3's bf16_1k MFMAs and adds the
// double-k ones; sm_90 runs the Ampere-style warp-level mma.sync, and its
// warpgroup atoms (wgmma, sm_90a) are listed apart.
const MmaAtom *const kGfx942[] = {atom(MmaKind::MfmaF32_16x16x16_BF16),
                                  atom(MmaKind::MfmaF32_32x32x8_BF16)};
const MmaAtom *const kGfx950[] = {atom(MmaKind::MfmaF32_16x16x16_BF16),
                                  atom(MmaKind::MfmaF32_32x32x8_BF16),
                                  atom(MmaKind::MfmaF32_16x16x32_BF16),
                                  atom(MmaKind::MfmaF32_32x32x16_BF16)};
const MmaAtom *const kSm90[] = {atom(MmaKind::MmaSyncF32_16x8x16_BF16)};
const MmaAtom *const kSm90Group[] = {atom(MmaKind::WgmmaF32_64x16x16_BF16),
                                     atom(MmaKind::WgmmaF32_64x32x16_BF16),
                                     atom(MmaKind::WgmmaF32_64x64x16_BF16),
                                     atom(MmaKind::WgmmaF32_64x128x16_BF16)};
} // namespace

llvm::StringRef mlir::kda::stringifyMmaKind(MmaKind kind) {
  switch (kind) {
  case MmaKind::MfmaF32_16x16x16_BF16:
    return "mfma_f32_16x16x16_bf16";
  case MmaKind::MfmaF32_32x32x8_BF16:
    return "mfma_f32_32x32x8_bf16";
  case MmaKind::MfmaF32_16x16x32_BF16:
    return "mfma_f32_16x16x32_bf16";
  case MmaKind::MfmaF32_32x32x16_BF16:
    return "mfma_f32_32x32x16_bf16";
  case MmaKind::MmaSyncF32_16x8x16_BF16:
    return "mma_sync_f32_16x8x16_bf16";
  case MmaKind::WgmmaF32_64x16x16_BF16:
    return "wgmma_f32_64x16x16_bf16";
  case MmaKind::WgmmaF32_64x32x16_BF16:
    return "wgmma_f32_64x32x16_bf16";
  case MmaKind::WgmmaF32_64x64x16_BF16:
    return "wgmma_f32_64x64x16_bf16";
  case MmaKind::WgmmaF32_64x128x16_BF16:
    return "wgmma_f32_64x128x16_bf16";
  }
  llvm_unreachable("mma kind");
}

std::optional<MmaKind> mlir::kda::symbolizeMmaKind(llvm::StringRef name) {
  for (MmaKind k : kKinds)
    if (stringifyMmaKind(k) == name)
      return k;
  return std::nullopt;
}

llvm::ArrayRef<MmaKind> mlir::kda::allMmaKinds() { return kKinds; }

const MmaAtom &mlir::kda::getMmaAtom(MmaKind kind) { return *atom(kind); }

const MmaAtom &mlir::kda::contiguousKAtom(const MmaAtom &atom) {
  if (atom.bFromSharedMemory())
    return atom;
  return kContiguousK[unsigned(atom.kind)];
}

bool mlir::kda::pairsAlongK(const MmaAtom &atom) {
  // k is A's column and B's row; the other index must not change.
  auto pairs = [&](const FragmentLayout &l, bool kIsCol) {
    if (l.elems % 2)
      return false;
    for (unsigned lane = 0; lane < atom.waveSize; ++lane)
      for (unsigned e = 0; e < l.elems; e += 2) {
        unsigned k0 = kIsCol ? l.colOf(lane, e) : l.rowOf(lane, e);
        unsigned k1 = kIsCol ? l.colOf(lane, e + 1) : l.rowOf(lane, e + 1);
        unsigned o0 = kIsCol ? l.rowOf(lane, e) : l.colOf(lane, e);
        unsigned o1 = kIsCol ? l.rowOf(lane, e + 1) : l.colOf(lane, e + 1);
        if (k0 % 2 || k1 != k0 + 1 || o0 != o1)
          return false;
      }
    return true;
  };
  return pairs(atom.a, /*kIsCol=*/true) && pairs(atom.b, /*kIsCol=*/false);
}

bool mlir::kda::accumulatorPairsAlongRow(const MmaAtom &atom) {
  const FragmentLayout &c = atom.c;
  if (c.elems % 2)
    return false;
  for (unsigned lane = 0; lane < atom.waveSize; ++lane)
    for (unsigned e = 0; e < c.elems; e += 2)
      if (c.rowOf(lane, e + 1) != c.rowOf(lane, e) || c.colOf(lane, e) % 2 ||
          c.colOf(lane, e + 1) != c.colOf(lane, e) + 1)
        return false;
  return true;
}

unsigned mlir::kda::ldsRowPadWords(const MmaAtom &atom, unsigned elementBytes) {
  const FragmentLayout &a = atom.a;
  // The k lane 0 holds side by side from its first element: one load of at
  // most 16 bytes.
  unsigned run = 1;
  while (run < a.elems && (run + 1) * elementBytes <= 16 &&
         a.rowOf(0, run) == a.rowOf(0, 0) &&
         a.colOf(0, run) == a.colOf(0, 0) + run)
    ++run;
  const unsigned laneWords = std::max(1u, run * elementBytes / 4);
  // The lanes of one wavefront and the rows they read: each row's lanes
  // read `words` consecutive words, so rows `words` banks apart do not meet.
  const unsigned phase = std::min(atom.waveSize, 32 / laneWords);
  llvm::SmallVector<unsigned, 32> rows;
  for (unsigned lane = 0; lane < phase; ++lane)
    if (!llvm::is_contained(rows, a.rowOf(lane, 0)))
      rows.push_back(a.rowOf(lane, 0));
  const unsigned words = phase / unsigned(rows.size()) * laneWords;
  const unsigned align = elementBytes >= 4 ? 4 : laneWords;
  return std::max(align, (words + align - 1) / align * align);
}

std::optional<AccumulatorOperand>
mlir::kda::accumulatorOperandOf(const MmaAtom &atom) {
  const FragmentLayout &c = atom.c;
  // Element e of the operand fragment is element e % c.elems of tile
  // e / c.elems; both must name the same element of X.
  auto holds = [&](SlabForm form) -> std::optional<AccumulatorOperand> {
    const bool natural = form == SlabForm::Natural;
    const FragmentLayout &op = natural ? atom.b : atom.a;
    const unsigned tileLength = natural ? atom.m : atom.n;
    if (atom.k % tileLength || op.elems != (atom.k / tileLength) * c.elems)
      return std::nullopt;
    for (unsigned lane = 0; lane < atom.waveSize; ++lane)
      for (unsigned e = 0; e < op.elems; ++e) {
        const unsigned t = e / c.elems, ce = e % c.elems;
        // X's (length index, column) of the operand element and of the
        // accumulator element: natural B is (k, n) = (row, col) and tile
        // t's C is rows t m + row; transposed A is (m, k) = (col of X,
        // length index) and tile t's C is X^T's (row, t n + col).
        const unsigned opLen = natural ? op.rowOf(lane, e) : op.colOf(lane, e);
        const unsigned opCol = natural ? op.colOf(lane, e) : op.rowOf(lane, e);
        const unsigned cLen =
            t * tileLength + (natural ? c.rowOf(lane, ce) : c.colOf(lane, ce));
        const unsigned cCol = natural ? c.colOf(lane, ce) : c.rowOf(lane, ce);
        if (opLen != cLen || opCol != cCol)
          return std::nullopt;
      }
    return AccumulatorOperand{form, natural ? atom.n : atom.m, tileLength,
                              atom.k / tileLength};
  };
  if (auto natural = holds(SlabForm::Natural))
    return natural;
  return holds(SlabForm::Transposed);
}

llvm::ArrayRef<const MmaAtom *> mlir::kda::mmaAtomsOf(llvm::StringRef chip) {
  if (chip == "gfx942")
    return kGfx942;
  if (chip == "gfx950")
    return kGfx950;
  if (chip == "sm_90")
    return kSm90;
  return {};
}

llvm::ArrayRef<const MmaAtom *>
mlir::kda::warpgroupAtomsOf(llvm::StringRef chip) {
  if (chip == "sm_90")
    return kSm90Group;
  return {};
}

const MmaAtom *mlir::kda::findWarpgroupAtom(llvm::StringRef chip, unsigned n,
                                            std::string &why) {
  for (const MmaAtom *a : warpgroupAtomsOf(chip))
    if (a->n == n)
      return a;
  why = llvm::formatv("{0} has no warpgroup matrix atom 64x{1}x16 bf16 -> f32; "
                      "it has: {2}",
                      chip, n, describeMmaAtoms(chip))
            .str();
  return nullptr;
}

bool mlir::kda::chipHasMmaAtom(llvm::StringRef chip, MmaKind kind) {
  auto is = [&](const MmaAtom *a) { return a->kind == kind; };
  return llvm::any_of(mmaAtomsOf(chip), is) ||
         llvm::any_of(warpgroupAtomsOf(chip), is);
}

std::string mlir::kda::describeMmaAtoms(llvm::StringRef chip) {
  std::string s;
  for (llvm::ArrayRef<const MmaAtom *> atoms :
       {mmaAtomsOf(chip), warpgroupAtomsOf(chip)})
    for (const MmaAtom *a : atoms)
      s += llvm::formatv("{0}{1} ({2}x{3}x{4} {5} -> {6})",
                         s.empty() ? "" : ", ", stringifyMmaKind(a->kind), a->m,
                         a->n, a->k, stringifyScalar(a->ab),
                         stringifyScalar(a->acc))
               .str();
  return s.empty() ? "no matrix atoms" : s;
}

unsigned mlir::kda::SharedOperandLayout::extentBytes(unsigned k,
                                                     unsigned n) const {
  return byteOffset(k - 1, n - 1) + 2;
}

std::string mlir::kda::SharedOperandLayout::invalidReason(unsigned k,
                                                          unsigned n) const {
  for (auto [what, v] :
       {std::pair<const char *, unsigned>{"leading", lbo}, {"stride", sbo}})
    if (v % 16 || v >= (1u << 18))
      return llvm::formatv("the {0}-dimension byte offset {1} is not a "
                           "multiple of 16 below 2^18 (the descriptor keeps "
                           "14 bits of it >> 4)",
                           what, v)
          .str();
  // Core matrices (128 bytes each) at (k / 8) lbo + (n / 8) sbo must not
  // overlap: two elements of one operand may not share a byte.
  llvm::SmallVector<unsigned, 64> starts;
  for (unsigned kc = 0; kc < k / 8; ++kc)
    for (unsigned nc = 0; nc < n / 8; ++nc)
      starts.push_back(kc * lbo + nc * sbo);
  llvm::sort(starts);
  for (size_t i = 1; i < starts.size(); ++i)
    if (starts[i] < starts[i - 1] + 128)
      return llvm::formatv("core matrices at bytes {0} and {1} overlap "
                           "(each is 128 bytes: 8 rows of 8 elements)",
                           starts[i - 1], starts[i])
          .str();
  return {};
}

uint64_t mlir::kda::wgmmaDescriptor(uint32_t start,
                                    const SharedOperandLayout &layout) {
  auto field = [](uint64_t bytes) { return (bytes >> 4) & 0x3fff; };
  return field(start) | field(layout.lbo) << 16 | field(layout.sbo) << 32;
}

const MmaAtom *mlir::kda::findMmaAtom(llvm::StringRef chip, unsigned m,
                                      unsigned n, unsigned k, ScalarKind ab,
                                      ScalarKind acc, std::string &why) {
  for (const MmaAtom *a : mmaAtomsOf(chip))
    if (a->m == m && a->n == n && a->k == k && a->ab == ab && a->acc == acc)
      return a;
  why = llvm::formatv("{0} has no {1}x{2}x{3} {4} -> {5} matrix atom; it has: "
                      "{6}",
                      chip, m, n, k, stringifyScalar(ab), stringifyScalar(acc),
                      describeMmaAtoms(chip))
            .str();
  return nullptr;
}

const MmaAtom *mlir::kda::preferredMmaAtom(llvm::StringRef chip, ScalarKind ab,
                                           ScalarKind acc, unsigned tileM,
                                           unsigned tileN, std::string &why) {
  const MmaAtom *best = nullptr;
  for (const MmaAtom *a : mmaAtomsOf(chip)) {
    if (a->ab != ab || a->acc != acc || tileM % a->m || tileN % a->n)
      continue;
    // More k per instruction first, then the smaller tile (more atoms to
    // spread over the waves).
    if (!best || a->k > best->k || (a->k == best->k && a->m < best->m))
      best = a;
  }
  if (!best)
    why = llvm::formatv("{0} has no {1} -> {2} matrix atom tiling {3}x{4}; it "
                        "has: {5}",
                        chip, stringifyScalar(ab), stringifyScalar(acc), tileM,
                        tileN, describeMmaAtoms(chip))
              .str();
  return best;
}
