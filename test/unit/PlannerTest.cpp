//===- PlannerTest.cpp - kda_forward's routing of rows to kernels ---------===//
//
// The planner alone (runtime/lib/Planner.cpp, host data only): which rows
// take the recurrent kernel and which the chunk path, and how neighbouring
// rows of one path share a launch; which of a chunk plan's scans (column
// blocks) a batch shape picks.
//
//===----------------------------------------------------------------------===//
#include "Planner.h"

#include <gtest/gtest.h>

using kda::rt::chooseScan;
using kda::rt::chooseSplit;
using kda::rt::Path;
using kda::rt::PlannerPolicy;
using kda::rt::PlannerRows;
using kda::rt::planSegments;
using kda::rt::ScanRows;
using kda::rt::Segment;

namespace {

/// Rows of the given lengths and slots, the first `decodes` of them decodes.
struct Rows {
  std::vector<int32_t> cu{0}, slots;
  PlannerRows view(int32_t decodes, int32_t paddingBelow = 1) {
    PlannerRows r;
    r.numDecodes = decodes;
    r.numPrefills = int32_t(slots.size()) - decodes;
    r.cuSeqlens = cu.data();
    r.slots = slots.data();
    r.paddingBelow = paddingBelow;
    return r;
  }
  Rows(std::initializer_list<std::pair<int, int>> lengthSlot) {
    for (auto [len, slot] : lengthSlot) {
      cu.push_back(cu.back() + len);
      slots.push_back(slot);
    }
  }
};

PlannerPolicy chunkAbove(int64_t tokens) {
  PlannerPolicy p;
  p.hasChunk = true;
  p.recurrentMaxTokens = tokens;
  return p;
}

TEST(Planner, WithoutAChunkKernelEveryRowIsOneRecurrentLaunch) {
  Rows r{{1, 3}, {1, 4}, {500, 5}, {2, 6}, {4000, 7}};
  PlannerPolicy p;
  p.recurrentMaxTokens = 64;
  EXPECT_EQ(planSegments(r.view(2), p),
            (std::vector<Segment>{{Path::Recurrent, 0, 5}}));
}

TEST(Planner, LongPrefillsTakeTheChunkPathShortOnesStay) {
  // decode, decode | 64 (at the threshold), 65, 200, 3, 100
  Rows r{{1, 1}, {1, 2}, {64, 3}, {65, 4}, {200, 5}, {3, 6}, {100, 7}};
  EXPECT_EQ(planSegments(r.view(2), chunkAbove(64)),
            (std::vector<Segment>{{Path::Recurrent, 0, 3},
                                  {Path::Chunk, 3, 2},
                                  {Path::Recurrent, 5, 1},
                                  {Path::Chunk, 6, 1}}));
}

TEST(Planner, DecodesNeverTakeTheChunkPath) {
  // A threshold of 0 would send every prefill to the chunk path; the decode
  // front still takes the recurrent kernel.
  Rows r{{1, 1}, {1, 2}, {1, 3}, {5, 4}};
  EXPECT_EQ(planSegments(r.view(3), chunkAbove(0)),
            (std::vector<Segment>{{Path::Recurrent, 0, 3},
                                  {Path::Chunk, 3, 1}}));
}

TEST(Planner, PaddingRowsStayWithTheRecurrentKernelByConvention) {
  // Long rows with slots 0 and -1: padding under slot <= 0, so the recurrent
  // kernel writes their zeros; under slot < 0, slot 0 is a real row.
  Rows r{{1, 2}, {300, 0}, {300, -1}, {300, 4}};
  EXPECT_EQ(planSegments(r.view(1, /*paddingBelow=*/1), chunkAbove(64)),
            (std::vector<Segment>{{Path::Recurrent, 0, 3},
                                  {Path::Chunk, 3, 1}}));
  EXPECT_EQ(planSegments(r.view(1, /*paddingBelow=*/0), chunkAbove(64)),
            (std::vector<Segment>{{Path::Recurrent, 0, 1},
                                  {Path::Chunk, 1, 1},
                                  {Path::Recurrent, 2, 1},
                                  {Path::Chunk, 3, 1}}));
}

TEST(Planner, EmptyBatchHasNoSegments) {
  Rows r{};
  EXPECT_TRUE(planSegments(r.view(0), chunkAbove(64)).empty());
}

/// The scans of a head_v = 128 layer: 16, 32 and 64 columns a workgroup.
const std::vector<int64_t> kBlocks128{8, 4, 2};

size_t scanFor(const Rows &r, int64_t heads, uint32_t units,
               const std::vector<int64_t> &blocks = kBlocks128) {
  ScanRows s{int32_t(r.slots.size()), r.cu.data(), r.slots.data(), heads, 64};
  return chooseScan(s, blocks, units);
}

TEST(ChooseScan, IssueEightBatchesOnTheH200) {
  // The measured winners (H200, 132 SMs): 1 x 8192 H32 -> 32 columns (128
  // workgroups), 4 x 4096 H32 -> 64, 1 x 32768 H8 -> 16.
  EXPECT_EQ(scanFor(Rows{{8192, 1}}, 32, 132), 1u);
  EXPECT_EQ(scanFor(Rows{{4096, 1}, {4096, 2}, {4096, 3}, {4096, 4}}, 32, 132),
            2u);
  EXPECT_EQ(scanFor(Rows{{32768, 1}}, 8, 132), 0u);
}

TEST(ChooseScan, WidestThatFillsSevenEighthsOfTheUnits) {
  // 32 pairs: 64 columns give 64 workgroups, 32 give 128.
  EXPECT_EQ(scanFor(Rows{{1000, 1}}, 32, 146), 1u); // 128 >= 7/8 x 146
  EXPECT_EQ(scanFor(Rows{{1000, 1}}, 32, 147), 0u); // 128 < 7/8 x 147
  EXPECT_EQ(scanFor(Rows{{1000, 1}}, 32, 73), 2u);  // 64 >= 7/8 x 73
  EXPECT_EQ(scanFor(Rows{{1000, 1}}, 32, 1), 2u);
}

TEST(ChooseScan, OneLongRowAmongShortOnesCountsAsAboutOne) {
  // 100 rows of 64 tokens beside one of 32000 (500 chunks): the long row's
  // scan is the critical path; 600 / 500 chunks = 1.2 busy rows, 38 pairs
  // at H32 - 32 columns (154 workgroups), not 64 (77); at H8, 16.
  Rows r{{32000, 1}};
  for (int i = 0; i < 100; ++i)
    r.cu.push_back(r.cu.back() + 64), r.slots.push_back(2 + i);
  EXPECT_EQ(scanFor(r, 32, 132), 1u);
  EXPECT_EQ(scanFor(r, 8, 132), 0u);
  // The same 101 rows all of 64 tokens: 101 x 32 pairs, 64 columns.
  Rows even{};
  for (int i = 0; i < 101; ++i)
    even.cu.push_back(even.cu.back() + 64), even.slots.push_back(1 + i);
  EXPECT_EQ(scanFor(even, 32, 132), 2u);
}

TEST(ChooseScan, PaddingRowsDoNotCountAndNothingToScanTakesTheNarrowest) {
  // Four 4096-token rows, three of them padding: one busy row of 32 pairs.
  EXPECT_EQ(scanFor(Rows{{4096, 1}, {4096, 0}, {4096, -1}, {4096, 0}}, 32, 132),
            1u);
  EXPECT_EQ(scanFor(Rows{{4096, 0}}, 32, 132), 0u);
  EXPECT_EQ(scanFor(Rows{{0, 3}}, 32, 132), 0u);
  EXPECT_EQ(scanFor(Rows{}, 32, 132), 0u);
}

TEST(ChooseScan, UnknownUnitCountAndOneAlternative) {
  EXPECT_EQ(scanFor(Rows{{4096, 1}}, 32, 0), 0u);
  EXPECT_EQ(scanFor(Rows{{4096, 1}}, 32, 132, {8}), 0u);
  // The narrowest is found by its workgroups, not by its position.
  EXPECT_EQ(scanFor(Rows{{4096, 1}}, 1, 132, {2, 8, 4}), 1u);
}

bool splitFor(const Rows &r, int64_t heads, uint32_t units,
              int64_t segmentChunks = 8, int64_t narrowest = 8) {
  ScanRows s{int32_t(r.slots.size()), r.cu.data(), r.slots.data(), heads, 64};
  return chooseSplit(s, narrowest, segmentChunks, units);
}

TEST(ChooseSplit, OnlyWhereTheNarrowScanLeavesHalfTheUnitsIdle) {
  // Measured on the H200 (132 SMs): 1 x 32768 H8 (64 workgroups of the
  // 16-column scan) splits, 2 x 16384 H8 (128) and 1 x 8192 H32 (256) do not.
  EXPECT_TRUE(splitFor(Rows{{32768, 1}}, 8, 132));
  EXPECT_TRUE(splitFor(Rows{{8192, 1}}, 8, 132));
  EXPECT_FALSE(splitFor(Rows{{16384, 1}, {16384, 2}}, 8, 132));
  EXPECT_FALSE(splitFor(Rows{{8192, 1}}, 32, 132));
  // The boundary: 2 x busy workgroups against the units.
  EXPECT_TRUE(splitFor(Rows{{32768, 1}}, 8, 128));
  EXPECT_FALSE(splitFor(Rows{{32768, 1}}, 8, 127));
}

TEST(ChooseSplit, TheLongestRowMustMakeFourSegments) {
  // kMinSplitSegments x segment_chunks chunks: 32 of 64 rows at the default.
  EXPECT_TRUE(splitFor(Rows{{32 * 64, 1}}, 1, 132));
  EXPECT_FALSE(splitFor(Rows{{32 * 64 - 64, 1}}, 1, 132));
  EXPECT_TRUE(splitFor(Rows{{31 * 64 + 1, 1}}, 1, 132)); // 32 chunks
  EXPECT_TRUE(splitFor(Rows{{512, 1}}, 1, 132, 2));      // 8 chunks, 4 x 2
  EXPECT_FALSE(splitFor(Rows{{448, 1}}, 1, 132, 2));
}

TEST(ChooseSplit, PaddingUnknownUnitsAndNoSplitScan) {
  // Padding rows run no chunk loop: only the busy rows count.
  EXPECT_FALSE(splitFor(Rows{{32768, 0}}, 8, 132));
  EXPECT_FALSE(splitFor(Rows{{32768, -1}, {64, 1}}, 8, 132));
  EXPECT_FALSE(splitFor(Rows{{32768, 1}}, 8, 0));
  EXPECT_FALSE(splitFor(Rows{{32768, 1}}, 8, 132, 0)); // no segment_chunks
  EXPECT_FALSE(splitFor(Rows{{32768, 1}}, 8, 132, 1));
  EXPECT_FALSE(splitFor(Rows{}, 8, 132));
}

} // namespace
