//===- MmaAtomsTest.cpp - the matrix atom table ---------------------------===//
//
// Every fragment layout must map lanes x elements one-to-one onto the operand
// tile (an element held twice or never would make the emulator and the
// hardware disagree), and spot values must match the ISA documents.
//
//===----------------------------------------------------------------------===//
#include "kda/Target/MmaAtoms.h"
#include <set>

#include <algorithm>
#include <gtest/gtest.h>
#include <vector>

using namespace mlir::kda;

namespace {

void expectBijection(const MmaAtom &atom, const FragmentLayout &layout,
                     unsigned rows, unsigned cols, const char *operand) {
  SCOPED_TRACE(std::string(atom.name) + " operand " + operand);
  ASSERT_EQ(atom.waveSize * layout.elems, rows * cols)
      << "lanes x elements must cover the tile exactly";
  std::vector<int> seen(rows * cols, 0);
  for (unsigned l = 0; l < atom.waveSize; ++l)
    for (unsigned e = 0; e < layout.elems; ++e) {
      unsigned r = layout.rowOf(l, e), c = layout.colOf(l, e);
      ASSERT_LT(r, rows) << "lane " << l << " element " << e;
      ASSERT_LT(c, cols) << "lane " << l << " element " << e;
      ++seen[r * cols + c];
    }
  for (unsigned i = 0; i < rows * cols; ++i)
    EXPECT_EQ(seen[i], 1) << "tile element (" << i / cols << ", " << i % cols
                          << ")";
}

TEST(MmaAtoms, EveryLayoutIsABijection) {
  for (MmaKind kind : allMmaKinds()) {
    const MmaAtom &a = getMmaAtom(kind);
    EXPECT_EQ(a.kind, kind);
    expectBijection(a, a.a, a.m, a.k, "A");
    if (!a.bFromSharedMemory())
      expectBijection(a, a.b, a.k, a.n, "B");
    else
      EXPECT_EQ(a.b.elems, 0u) << a.name.str() << ": B is in shared memory";
    expectBijection(a, a.c, a.m, a.n, "C");
  }
}

// A wgmma's shared B operand: every (k, n) at its own two bytes, the core
// matrix of 8 n-rows of 16 bytes contiguous; the descriptor keeps start,
// leading and stride byte offsets >> 4 in bits 0, 16 and 32.
TEST(MmaAtoms, SharedOperandLayout) {
  for (const MmaAtom *a : warpgroupAtomsOf("sm_90"))
    for (bool mn : {false, true}) {
      SCOPED_TRACE(a->name.str() + (mn ? " MN-major" : " K-major"));
      // k-adjacent core matrices side by side, n-adjacent after the k ones.
      SharedOperandLayout l{128, 256, mn};
      ASSERT_EQ(l.invalidReason(a->k, a->n), "");
      std::set<unsigned> bytes;
      for (unsigned k = 0; k < a->k; ++k)
        for (unsigned n = 0; n < a->n; ++n) {
          unsigned b = l.byteOffset(k, n);
          EXPECT_EQ(b % 2, 0u);
          EXPECT_TRUE(bytes.insert(b).second) << "(" << k << ", " << n << ")";
          EXPECT_LT(b, l.extentBytes(a->k, a->n));
        }
      EXPECT_EQ(l.extentBytes(a->k, a->n), 2 * a->k * a->n);
    }
  SharedOperandLayout l{128, 256};
  EXPECT_EQ(l.byteOffset(9, 3), 128u + 3 * 16 + 1 * 2);
  EXPECT_EQ(l.byteOffset(0, 8), 256u);
  // MN-major: a core-matrix row is 8 consecutive n of one k.
  SharedOperandLayout mn{128, 256, true};
  EXPECT_EQ(mn.byteOffset(9, 3), 128u + 1 * 16 + 3 * 2);
  EXPECT_EQ(mn.byteOffset(0, 8), 256u);
  EXPECT_EQ(mn.byteOffset(7, 7), 7u * 16 + 7 * 2);
  EXPECT_EQ(wgmmaDescriptor(0, mn), wgmmaDescriptor(0, l));
  EXPECT_NE(SharedOperandLayout({120, 256})
                .invalidReason(16, 64)
                .find("leading-dimension byte offset 120"),
            std::string::npos);
  EXPECT_NE(
      SharedOperandLayout({64, 256}).invalidReason(16, 64).find("overlap"),
      std::string::npos);
  EXPECT_NE(SharedOperandLayout({128, 1u << 18})
                .invalidReason(16, 64)
                .find("stride-dimension"),
            std::string::npos);
  EXPECT_EQ(wgmmaDescriptor(0x1230, l), uint64_t(0x123) |
                                            uint64_t(128 >> 4) << 16 |
                                            uint64_t(256 >> 4) << 32);
}

// PTX ISA, wgmma .m64nNk16 register fragments: wave w of the warpgroup
// holds rows 16 w + g and 16 w + g + 8; A as mma.sync's A; D's element i
// at column 8 (i / 4) + 2 t + i % 2.
TEST(MmaAtoms, WgmmaSpotValues) {
  const MmaAtom &a = getMmaAtom(MmaKind::WgmmaF32_64x64x16_BF16);
  EXPECT_EQ(a.waveSize, 128u);
  EXPECT_EQ(a.c.elems, 32u);
  // thread 69: wave 2, lane 5: g 1, t 1.
  EXPECT_EQ(a.a.rowOf(69, 0), 33u);
  EXPECT_EQ(a.a.rowOf(69, 3), 41u);
  EXPECT_EQ(a.a.colOf(69, 6), 10u);
  EXPECT_EQ(a.c.rowOf(69, 2), 41u);
  EXPECT_EQ(a.c.colOf(69, 13), 8u * 3 + 3);
  EXPECT_EQ(a.c.rowOf(127, 31), 63u);
  EXPECT_EQ(a.c.colOf(127, 31), 63u);
  EXPECT_TRUE(chipHasMmaAtom("sm_90", MmaKind::WgmmaF32_64x128x16_BF16));
  EXPECT_FALSE(chipHasMmaAtom("gfx950", MmaKind::WgmmaF32_64x64x16_BF16));
  std::string why;
  EXPECT_EQ(findWarpgroupAtom("sm_90", 64, why), &a);
  EXPECT_EQ(findWarpgroupAtom("sm_90", 48, why), nullptr);
  EXPECT_NE(why.find("sm_90 has no warpgroup matrix atom 64x48x16"),
            std::string::npos)
      << why;
  EXPECT_EQ(findWarpgroupAtom("gfx942", 64, why), nullptr);
}

// The k-contiguous twin renames k by one bijection for A and B (so a
// product over the twin's fragments is the atom's product), keeps M, N and
// C, and gives each lane consecutive k within an A row and a B column.
TEST(MmaAtoms, ContiguousKTwinRenamesKOnce) {
  for (MmaKind kind : allMmaKinds()) {
    const MmaAtom &a = getMmaAtom(kind), &t = contiguousKAtom(a);
    SCOPED_TRACE(std::string(a.name));
    EXPECT_EQ(t.kind, a.kind);
    expectBijection(t, t.a, t.m, t.k, "A (twin)");
    if (a.bFromSharedMemory())
      EXPECT_EQ(&t, &a) << "a wgmma's twin is the atom itself";
    else
      expectBijection(t, t.b, t.k, t.n, "B (twin)");
    std::vector<int> rename(a.k, -1);
    auto same = [&](unsigned k, unsigned twinK) {
      if (rename[k] < 0)
        rename[k] = int(twinK);
      return rename[k] == int(twinK);
    };
    for (unsigned l = 0; l < a.waveSize; ++l) {
      for (unsigned e = 0; e < a.a.elems; ++e) {
        EXPECT_EQ(t.a.rowOf(l, e), a.a.rowOf(l, e));
        EXPECT_TRUE(same(a.a.colOf(l, e), t.a.colOf(l, e)))
            << "A lane " << l << " element " << e;
      }
      for (unsigned e = 0; e < a.b.elems; ++e) {
        EXPECT_EQ(t.b.colOf(l, e), a.b.colOf(l, e));
        EXPECT_TRUE(same(a.b.rowOf(l, e), t.b.rowOf(l, e)))
            << "B lane " << l << " element " << e;
      }
      for (unsigned e = 0; e < a.c.elems; ++e)
        EXPECT_EQ(t.c.rowOf(l, e) * a.n + t.c.colOf(l, e),
                  a.c.rowOf(l, e) * a.n + a.c.colOf(l, e));
      // A lane's k of one A row: consecutive (a wgmma's twin is itself:
      // its B's k is placed by the shared layout).
      if (a.bFromSharedMemory())
        continue;
      std::vector<unsigned> ks;
      for (unsigned e = 0; e < t.a.elems; ++e)
        if (t.a.rowOf(l, e) == t.a.rowOf(l, 0))
          ks.push_back(t.a.colOf(l, e));
      std::sort(ks.begin(), ks.end());
      for (size_t i = 1; i < ks.size(); ++i)
        EXPECT_EQ(ks[i], ks[0] + i) << "lane " << l;
    }
  }
  // The sync atom's twin: lane 5 (g 1, t 1) holds k 4..7 of row 1.
  const MmaAtom &t =
      contiguousKAtom(getMmaAtom(MmaKind::MmaSyncF32_16x8x16_BF16));
  EXPECT_EQ(t.a.colOf(5, 0), 4u);
  EXPECT_EQ(t.a.colOf(5, 5), 7u);
  EXPECT_EQ(t.b.rowOf(5, 3), 7u);
}

// Pair words (TileLayer.h) need every atom and its twin to hold an even k
// and the next in one register of A and of B; a layout whose registers
// pair two rows at one k (the sync atom's A read transposed) must fail.
TEST(MmaAtoms, RegistersPairConsecutiveK) {
  for (MmaKind kind : allMmaKinds()) {
    const MmaAtom &a = getMmaAtom(kind);
    SCOPED_TRACE(std::string(a.name));
    EXPECT_TRUE(pairsAlongK(a));
    EXPECT_TRUE(pairsAlongK(contiguousKAtom(a)));
  }
  MmaAtom broken = getMmaAtom(MmaKind::MmaSyncF32_16x8x16_BF16);
  broken.a = FragmentLayout{broken.a.elems, broken.a.col, broken.a.row};
  EXPECT_FALSE(pairsAlongK(broken));
}

// The accumulator -> operand identities the register-resident chunk scan
// stands on (MmaAtoms.h, SlabForm), against every lane of the layout
// tables: MFMA 16x16x16's C tile is its B fragment; two m16n8k16 C tiles
// side by side are its A fragment; the k = 32 and 32 x 32 atoms have none.
// The prep's LDS row padding, from the A layouts: mma.sync's wavefront of
// 16 lanes reads 8 words of each of 4 rows (a 4-word pad overlaps rows:
// measured on the H200 as 2-way conflicts, a third of the prep's LDS
// wavefronts); MFMA's 8 lanes read 4 words of each of 8 rows.
TEST(MmaAtoms, LdsRowPadding) {
  EXPECT_EQ(ldsRowPadWords(getMmaAtom(MmaKind::MmaSyncF32_16x8x16_BF16)), 8u);
  EXPECT_EQ(ldsRowPadWords(getMmaAtom(MmaKind::MfmaF32_16x16x16_BF16)), 4u);
  EXPECT_EQ(ldsRowPadWords(getMmaAtom(MmaKind::MfmaF32_32x32x8_BF16)), 4u);
  EXPECT_EQ(ldsRowPadWords(getMmaAtom(MmaKind::MfmaF32_16x16x32_BF16)), 4u);
  EXPECT_EQ(ldsRowPadWords(getMmaAtom(MmaKind::MfmaF32_32x32x16_BF16)), 4u);
  // The padding does what it says: mma.sync's A rows at width 64 + pad,
  // each lane's 2 words, every 16-lane wavefront on distinct banks.
  for (unsigned pad : {4u, 8u}) {
    const MmaAtom &sync = getMmaAtom(MmaKind::MmaSyncF32_16x8x16_BF16);
    bool distinct = true;
    for (unsigned first = 0; first < 32; first += 16) {
      std::set<unsigned> banks;
      for (unsigned lane = first; lane < first + 16; ++lane)
        for (unsigned w = 0; w < 2; ++w)
          banks.insert(
              (sync.a.rowOf(lane, 0) * (64 + pad) + sync.a.colOf(lane, 0) + w) %
              32);
      distinct &= banks.size() == 32;
    }
    EXPECT_EQ(distinct, pad == 8) << "pad " << pad;
  }
}

// The same rule for rows of bf16 elements (the prep's staged k and q): a
// lane's load need only be aligned, so the padding is what separates the
// rows of one wavefront - mma.sync's 32 lanes each read one word (a k pair)
// of 8 rows, 4 words a row; MFMA's 16 lanes read 2 words of 16 rows (k = 16
// atoms) or 8 lanes 4 words of 8 rows (k = 32).
TEST(MmaAtoms, LdsRowPaddingOfBf16Rows) {
  const MmaAtom &sync = getMmaAtom(MmaKind::MmaSyncF32_16x8x16_BF16);
  EXPECT_EQ(ldsRowPadWords(sync, 2), 4u);
  EXPECT_EQ(ldsRowPadWords(getMmaAtom(MmaKind::MfmaF32_16x16x16_BF16), 2), 2u);
  EXPECT_EQ(ldsRowPadWords(getMmaAtom(MmaKind::MfmaF32_32x32x8_BF16), 2), 2u);
  EXPECT_EQ(ldsRowPadWords(getMmaAtom(MmaKind::MfmaF32_16x16x32_BF16), 2), 4u);
  EXPECT_EQ(ldsRowPadWords(getMmaAtom(MmaKind::MfmaF32_32x32x16_BF16), 2), 4u);
  // mma.sync's A rows of 128 bf16 (64 words) + pad: a warp's one-word
  // loads on 32 distinct banks at 4 words, 2-way conflicts at 2 (the 8
  // bytes of padding the staged rows had before).
  for (unsigned pad : {2u, 4u}) {
    std::set<unsigned> banks;
    for (unsigned lane = 0; lane < 32; ++lane)
      banks.insert(
          (sync.a.rowOf(lane, 0) * (64 + pad) + sync.a.colOf(lane, 0) / 2) %
          32);
    EXPECT_EQ(banks.size() == 32, pad == 4) << "pad " << pad;
  }
}

// Which atoms' accumulators a lane stores as 8-byte pairs (the prep's W and
// U rows): mma.sync's (c0 c1 and c2 c3 are adjacent columns of one row), no
// MFMA's (a lane holds one column of several rows).
TEST(MmaAtoms, AccumulatorPairsAlongRow) {
  EXPECT_TRUE(
      accumulatorPairsAlongRow(getMmaAtom(MmaKind::MmaSyncF32_16x8x16_BF16)));
  for (MmaKind k :
       {MmaKind::MfmaF32_16x16x16_BF16, MmaKind::MfmaF32_32x32x8_BF16,
        MmaKind::MfmaF32_16x16x32_BF16, MmaKind::MfmaF32_32x32x16_BF16})
    EXPECT_FALSE(accumulatorPairsAlongRow(getMmaAtom(k)));
}

TEST(MmaAtoms, AccumulatorOperandIdentities) {
  auto mfma = accumulatorOperandOf(getMmaAtom(MmaKind::MfmaF32_16x16x16_BF16));
  ASSERT_TRUE(mfma.has_value());
  EXPECT_EQ(mfma->form, SlabForm::Natural);
  EXPECT_EQ(mfma->width, 16u);
  EXPECT_EQ(mfma->tileLength, 16u);
  EXPECT_EQ(mfma->tilesPerStep, 1u);
  auto sync =
      accumulatorOperandOf(getMmaAtom(MmaKind::MmaSyncF32_16x8x16_BF16));
  ASSERT_TRUE(sync.has_value());
  EXPECT_EQ(sync->form, SlabForm::Transposed);
  EXPECT_EQ(sync->width, 16u);
  EXPECT_EQ(sync->tileLength, 8u);
  EXPECT_EQ(sync->tilesPerStep, 2u);
  for (MmaKind kind :
       {MmaKind::MfmaF32_16x16x32_BF16, MmaKind::MfmaF32_32x32x8_BF16,
        MmaKind::MfmaF32_32x32x16_BF16})
    EXPECT_FALSE(accumulatorOperandOf(getMmaAtom(kind)).has_value())
        << stringifyMmaKind(kind).str();
  // A spot check by hand (PTX ISA, m16n8k16): lane 5 (group 1, thread 1)
  // holds A elements 4, 5 at row 1, columns 10, 11: element 0, 1 of the
  // second C tile, row 1, columns 8 + 2, 8 + 3.
  const MmaAtom &s = getMmaAtom(MmaKind::MmaSyncF32_16x8x16_BF16);
  EXPECT_EQ(s.a.rowOf(5, 4), 1u);
  EXPECT_EQ(s.a.colOf(5, 5), 11u);
  EXPECT_EQ(8 + s.c.colOf(5, 1), 11u);
  // Breaking one coordinate breaks the identity.
  MmaAtom broken = s;
  broken.c = FragmentLayout{s.c.elems, s.c.col, s.c.row};
  EXPECT_FALSE(accumulatorOperandOf(broken).has_value());
}

TEST(MmaAtoms, KindNamesRoundTrip) {
  for (MmaKind kind : allMmaKinds())
    EXPECT_EQ(symbolizeMmaKind(stringifyMmaKind(kind)), kind);
  EXPECT_FALSE(symbolizeMmaKind("mfma_f32_64x64x64_bf16").has_value());
}

// CDNA3 ISA, v_mfma_f32_16x16x16_bf16: lane l holds A row l%16, k
// 4*(l/16)..+3; D: column l%16, rows 4*(l/16)..+3.
TEST(MmaAtoms, Mfma16x16x16SpotValues) {
  const MmaAtom &a = getMmaAtom(MmaKind::MfmaF32_16x16x16_BF16);
  EXPECT_EQ(a.a.rowOf(17, 2), 1u);
  EXPECT_EQ(a.a.colOf(17, 2), 6u);
  EXPECT_EQ(a.b.rowOf(63, 3), 15u);
  EXPECT_EQ(a.b.colOf(63, 3), 15u);
  EXPECT_EQ(a.c.rowOf(35, 1), 9u);
  EXPECT_EQ(a.c.colOf(35, 1), 3u);
}

// v_mfma_f32_32x32x8_bf16: D element e of lane l is row 8*(e/4) + 4*(l/32)
// + e%4, column l%32 (lane 33 element 5: row 8 + 4 + 1).
TEST(MmaAtoms, Mfma32x32x8SpotValues) {
  const MmaAtom &a = getMmaAtom(MmaKind::MfmaF32_32x32x8_BF16);
  EXPECT_EQ(a.c.rowOf(33, 5), 13u);
  EXPECT_EQ(a.c.colOf(33, 5), 1u);
  EXPECT_EQ(a.c.rowOf(0, 15), 27u);
  EXPECT_EQ(a.a.rowOf(40, 3), 8u);
  EXPECT_EQ(a.a.colOf(40, 3), 7u);
}

// CDNA4 double-k MFMA: 8 consecutive k per lane.
TEST(MmaAtoms, GfxNineFiftySpotValues) {
  const MmaAtom &a = getMmaAtom(MmaKind::MfmaF32_16x16x32_BF16);
  EXPECT_EQ(a.a.colOf(48, 7), 31u);
  EXPECT_EQ(a.a.rowOf(48, 7), 0u);
  const MmaAtom &b = getMmaAtom(MmaKind::MfmaF32_32x32x16_BF16);
  EXPECT_EQ(b.b.rowOf(32, 0), 8u);
  EXPECT_EQ(b.b.colOf(32, 0), 0u);
}

// PTX ISA m16n8k16: groupID = lane/4, threadID_in_group = lane%4;
// a0,a1: (g, 2t + i), a2,a3: (g + 8, ...), a4..a7: k + 8.
TEST(MmaAtoms, MmaSyncSpotValues) {
  const MmaAtom &a = getMmaAtom(MmaKind::MmaSyncF32_16x8x16_BF16);
  EXPECT_EQ(a.waveSize, 32u);
  // lane 5: g = 1, t = 1.
  EXPECT_EQ(a.a.rowOf(5, 0), 1u);
  EXPECT_EQ(a.a.colOf(5, 1), 3u);
  EXPECT_EQ(a.a.rowOf(5, 3), 9u);
  EXPECT_EQ(a.a.colOf(5, 6), 10u);
  EXPECT_EQ(a.b.rowOf(5, 3), 11u);
  EXPECT_EQ(a.b.colOf(5, 3), 1u);
  EXPECT_EQ(a.c.rowOf(31, 3), 15u);
  EXPECT_EQ(a.c.colOf(31, 3), 7u);
}

TEST(MmaAtoms, ChipTables) {
  EXPECT_EQ(mmaAtomsOf("gfx942").size(), 2u);
  EXPECT_EQ(mmaAtomsOf("gfx950").size(), 4u);
  EXPECT_EQ(mmaAtomsOf("sm_90").size(), 1u);
  EXPECT_TRUE(mmaAtomsOf("gfx1100").empty());
  EXPECT_TRUE(chipHasMmaAtom("gfx950", MmaKind::MfmaF32_16x16x16_BF16));
  EXPECT_FALSE(chipHasMmaAtom("gfx942", MmaKind::MfmaF32_16x16x32_BF16));
  // Emulator targets execute the atoms of the chip they stand for.
  for (const TargetInfo &t : allTargets())
    EXPECT_FALSE(mmaAtomsOf(t.chip).empty()) << t.name.str();
}

TEST(MmaAtoms, FindNamesWhatTheChipHas) {
  std::string why;
  const MmaAtom *a =
      findMmaAtom("gfx942", 16, 16, 16, ScalarKind::BF16, ScalarKind::F32, why);
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(a->kind, MmaKind::MfmaF32_16x16x16_BF16);
  EXPECT_EQ(findMmaAtom("gfx942", 16, 16, 32, ScalarKind::BF16,
                        ScalarKind::F32, why),
            nullptr);
  EXPECT_NE(why.find("gfx942 has no 16x16x32 bf16 -> f32"), std::string::npos)
      << why;
  EXPECT_NE(why.find("mfma_f32_32x32x8_bf16"), std::string::npos) << why;
  const MmaAtom *p = preferredMmaAtom("gfx950", ScalarKind::BF16,
                                      ScalarKind::F32, 64, 64, why);
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->kind, MmaKind::MfmaF32_16x16x32_BF16);
  EXPECT_EQ(preferredMmaAtom("sm_90", ScalarKind::F16, ScalarKind::F32, 64, 64,
                             why),
            nullptr);
}

} // namespace
