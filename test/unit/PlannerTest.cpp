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
using kda::rt::kJoinStep;
using kda::rt::kMapsStep;
using kda::rt::Path;
using kda::rt::PlannerPolicy;
using kda::rt::PlannerRows;
using kda::rt::planSegments;
using kda::rt::scanCost;
using kda::rt::ScanRows;
using kda::rt::ScanWay;
using kda::rt::Segment;
using kda::rt::splitCost;
using kda::rt::SplitWay;
using kda::rt::stepCost;

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
/// The H200 chunk layers of test/device/chunk-bench.mlir (K = V = 128,
/// chunk 64): scans of 16, 32 and 64 columns, and the split (segment_chunks
/// 8, max_segments 8, maps 64 of K + V columns, segments 64 columns); every
/// one of them one workgroup an SM (their registers).
const std::vector<ScanWay> kScans128{{8, 16, 1}, {4, 32, 1}, {2, 64, 1}};
const SplitWay kSplit128{8, 8, {4, 64, 1}, {2, 64, 1}};
constexpr size_t kSplitChoice = 3;

size_t scanFor(const Rows &r, int64_t heads, uint32_t units,
               const std::vector<ScanWay> &scans = kScans128,
               const SplitWay *split = &kSplit128) {
  ScanRows s{int32_t(r.slots.size()), r.cu.data(), r.slots.data(), heads, 64};
  return chooseScan(s, scans, split, 128, units);
}

/// `count` rows of `tokens`, slots 1.. .
Rows uniform(int count, int tokens) {
  Rows r{};
  for (int i = 0; i < count; ++i)
    r.cu.push_back(r.cu.back() + tokens), r.slots.push_back(1 + i);
  return r;
}

/// kda-bench's varlen16: 16 rows of 200 .. 2000 tokens from its fixed draw.
Rows varlen16() {
  Rows r{};
  uint64_t x = 12345;
  for (int i = 0; i < 16; ++i) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    r.cu.push_back(r.cu.back() + 200 + int32_t((x >> 33) % 1801));
    r.slots.push_back(1 + i);
  }
  return r;
}

TEST(ChooseScan, PicksTheFastestOfEveryMeasuredBatch) {
  // H200 (132 SMs, driver 580.159.04, 2026-12-03): kda-bench --all-scans,
  // ms after the prep for 16 / 32 / 64 columns / split; the fastest is
  // what the model must pick. The split's times are the join's before
  // 38d434d (13 us a step, 6.1-6.4 since): the only pick that moves is
  // 2 x 4096 H8's, below.
  struct Measured {
    Rows rows;
    int64_t heads;
    size_t fastest;
  };
  const Measured batches[] = {
      {uniform(1, 8192), 32, 1},  // 1.059 0.581 0.716 0.921
      {uniform(4, 4096), 32, 2},  // 2.080 1.100 0.708 2.035
      {varlen16(), 32, 2},        // 2.008 1.080 0.731 (no split)
      {uniform(2, 8192), 32, 2},  // 2.081 1.125 0.703 1.784
      {uniform(1, 16384), 32, 1}, // 2.096 1.142 1.393 1.662
      {uniform(1, 32768), 8, 3},  // 2.199 2.289 2.760 0.919
      {uniform(2, 16384), 8, 3},  // 1.113 1.155 1.422 0.934
      {uniform(4, 8192), 8, 1},   // 1.103 0.583 0.710 0.926
      {uniform(1, 8192), 8, 3},   // 0.555 0.578 0.696 0.309
      {uniform(8, 4096), 8, 2},   // 1.096 0.578 0.356 1.052
      {uniform(2, 8192), 8, 3},   // 0.559 0.578 0.709 0.530
      {uniform(3, 8192), 8, 1},   // 1.074 0.579 0.715 0.765
      {uniform(3, 16384), 8, 1},  // 2.150 1.158 1.407 1.367
      {uniform(1, 4096), 8, 3},   // 0.279 0.288 0.349 0.197
      // The split's 0.326 had the join before 38d434d (7 steps of 13 us);
      // at its measured 6.1-6.4 us a step it is ~0.28, against 16
      // columns' 0.285: the split, by 2% (not yet timed).
      {uniform(2, 4096), 8, 3}, // 0.285 0.293 0.358 0.326
      {uniform(4, 4096), 8, 1}, // 0.557 0.294 0.358 0.553
  };
  for (const Measured &m : batches)
    EXPECT_EQ(scanFor(m.rows, m.heads, 132), m.fastest)
        << m.rows.slots.size() << " rows of " << m.rows.cu[1] << ", H "
        << m.heads;
}

TEST(ChooseScan, SelfStagedScanTakesTheBatchesItWins) {
  // The layers that list a 128-column scan (scan_block_v): every wave of
  // it computes, its rows by cp.async (self_staged). H200, 2026-12-04,
  // kda-bench --all-scans, ms after the prep: 4 x 4096 H32 0.645-0.673
  // against the 64-column scan's 0.684-0.718, varlen 16 H32 0.693-0.709
  // against 0.713-0.736; with 32 (or 8) heads a row and fewer rows its 32
  // (8) workgroups a row are far too few.
  std::vector<ScanWay> with128 = kScans128;
  with128.push_back({1, 128, 1, /*selfStaged=*/true});
  const SplitWay *split = &kSplit128; // now alternative 4
  EXPECT_EQ(scanFor(uniform(4, 4096), 32, 132, with128, split), 3u);
  EXPECT_EQ(scanFor(varlen16(), 32, 132, with128, split), 3u);
  EXPECT_EQ(scanFor(uniform(1, 8192), 32, 132, with128, split), 1u);
  EXPECT_EQ(scanFor(uniform(1, 32768), 8, 132, with128, split), 4u);
  EXPECT_EQ(scanFor(uniform(8, 4096), 8, 132, with128, split), 2u);
  // Priced as its block alone (not self-staged), it ties the 64-column
  // scan on 4 x 4096 H32, which the tie gives to the narrower.
  with128.back().selfStaged = false;
  EXPECT_EQ(scanFor(uniform(4, 4096), 32, 132, with128, split), 2u);
}

TEST(ChooseScan, LongestChainsGoInWholeWaves) {
  // 3 x 8192 H8: the 16-column scan's 192 workgroups are two waves of one
  // an SM (the tree before this model took it: 1.494 ms against 32
  // columns' 0.999); with two an SM they are one, and it wins the tie.
  EXPECT_EQ(scanFor(uniform(3, 8192), 8, 132), 1u);
  const std::vector<ScanWay> twoAnSM{{8, 16, 2}, {4, 32, 1}, {2, 64, 1}};
  EXPECT_EQ(scanFor(uniform(3, 8192), 8, 132, twoAnSM, nullptr), 0u);
  // 0 (the device did not say) counts as one.
  const std::vector<ScanWay> unknown{{8, 16, 0}, {4, 32, 0}, {2, 64, 0}};
  EXPECT_EQ(scanFor(uniform(3, 8192), 8, 132, unknown, nullptr), 1u);
  // The boundary: 32 pairs of 32 columns (128 workgroups) are one wave on
  // 128 units (then 32 beats 64's larger step) and two on 127.
  EXPECT_EQ(scanFor(uniform(1, 1000), 32, 128, kScans128, nullptr), 1u);
  EXPECT_EQ(scanFor(uniform(1, 1000), 32, 127, kScans128, nullptr), 2u);
}

TEST(ChooseScan, ChainsAboutAsLongAsTheLongestShareItsWaves) {
  // 2 x 8192 and 1 x 8128 H8: the 16-column scan's 192 workgroups of 128
  // and 127 steps are two waves on 132 SMs (254 steps), not one long wave.
  const Rows r{{8192, 1}, {8192, 2}, {8128, 3}};
  ScanRows s{3, r.cu.data(), r.slots.data(), 8, 64};
  EXPECT_DOUBLE_EQ(scanCost(s, kScans128[0], 128, 132), 254.0);
  EXPECT_DOUBLE_EQ(scanCost(s, kScans128[1], 128, 132), 128.0);
  EXPECT_EQ(scanFor(r, 8, 132, kScans128, nullptr), 1u);
}

TEST(ChooseScan, ShortRowsFillTheSlotsLongOnesLeave) {
  // 100 rows of 64 tokens beside one of 32000 (500 chunks): the long row's
  // 128 workgroups of 32 columns hold 128 SMs for 500 steps while the short
  // rows' 12800 one-step workgroups run on the rest and then everywhere:
  // 582 steps, against 64 columns' 500 steps of a larger step.
  Rows r{{32000, 1}};
  for (int i = 0; i < 100; ++i)
    r.cu.push_back(r.cu.back() + 64), r.slots.push_back(2 + i);
  ScanRows s{int32_t(r.slots.size()), r.cu.data(), r.slots.data(), 32, 64};
  EXPECT_NEAR(scanCost(s, kScans128[1], 128, 132), 76800.0 / 132, 1e-9);
  EXPECT_EQ(scanFor(r, 32, 132, kScans128, nullptr), 1u);
  // At H8 the split: its maps and segments cut the long row's 500 steps.
  EXPECT_EQ(scanFor(r, 8, 132), kSplitChoice);
  EXPECT_EQ(scanFor(r, 8, 132, kScans128, nullptr), 0u);
}

TEST(ChooseScan, TheStepGrowsWithTheBlockPastTheLatencyFloor) {
  EXPECT_EQ(stepCost(16, 128), 1.0);
  EXPECT_EQ(stepCost(48, 128), 1.0);
  EXPECT_DOUBLE_EQ(stepCost(64, 128), 64.0 / 48);
  EXPECT_DOUBLE_EQ(stepCost(128, 64), 128.0 / 96);
  EXPECT_EQ(stepCost(32, 32), 1.0);
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
  EXPECT_EQ(scanFor(uniform(1, 32768), 8, 0), 0u); // not the split
  EXPECT_EQ(scanFor(uniform(1, 4096), 32, 132, {{8, 16, 1}}, nullptr), 0u);
  // The narrowest is found by its workgroups, not by its position.
  EXPECT_EQ(
      scanFor(uniform(1, 4096), 32, 0, {{2, 64, 1}, {8, 16, 1}, {4, 32, 1}}),
      1u);
}

TEST(ChooseSplit, TheLongestRowMustMakeFourSegments) {
  // kMinSplitSegments x segment_chunks chunks: 32 of 64 rows at the default.
  auto splits = [](int tokens, int64_t segmentChunks = 8,
                   int64_t maxSegments = 8) {
    const SplitWay split{segmentChunks, maxSegments, {4, 64, 1}, {2, 64, 1}};
    return scanFor(uniform(1, tokens), 1, 132, kScans128, &split) ==
           kSplitChoice;
  };
  EXPECT_TRUE(splits(32 * 64));
  // 31 chunks would be three segments, cheaper by the model (29.4 steps
  // against the plain scan's 31), but three are too few.
  EXPECT_FALSE(splits(32 * 64 - 64));
  EXPECT_TRUE(splits(31 * 64 + 1)); // 32 chunks
  EXPECT_FALSE(splits(32768, 1));   // segment_chunks below 2
  EXPECT_FALSE(splits(32768, 0));   // no segment_chunks
  // A layer that allows fewer than four segments a row never splits, even
  // where three would be cheaper (1 x 32768: 3 segments, 384 steps against
  // the plain scan's 512).
  EXPECT_FALSE(splits(32768, 8, 3));
  EXPECT_TRUE(splits(32768, 8, 4));
  // A segment_chunks near the integer limit does not overflow the rule.
  EXPECT_FALSE(splits(32768, INT64_MAX / 2));
}

TEST(ChooseSplit, ItsCostFollowsTheKernelsCut) {
  // 1 x 32768 H8: 8 segments of 64 chunks; the maps' 7 x 8 x 4 = 224
  // workgroups are two waves of 64 steps, the join 7 steps, the segments'
  // 128 one wave of 64 steps at 64 columns.
  const Rows r = uniform(1, 32768);
  ScanRows s{1, r.cu.data(), r.slots.data(), 8, 64};
  EXPECT_DOUBLE_EQ(splitCost(s, kSplit128, 128, 132),
                   2 * 64 * kMapsStep + 7 * kJoinStep + 64 * (64.0 / 48));
  // 37 chunks: four segments of 9, the last taking 10 - the maps' 96
  // workgroups one wave of 9 steps, 3 join steps, the segments' longest
  // chains the last segment's 10.
  const Rows odd = uniform(1, 37 * 64);
  ScanRows o{1, odd.cu.data(), odd.slots.data(), 8, 64};
  EXPECT_DOUBLE_EQ(splitCost(o, kSplit128, 128, 132),
                   9 * kMapsStep + 3 * kJoinStep + 10 * (64.0 / 48));
  // Rows of 64, 40 and 20 chunks: 8, 5 and 2 segments (of 8, 8 and 10
  // chunks). Maps: 352 workgroups of 8 steps after 32 of 10 - three waves
  // of 8; join: the longest's 7 steps; segments: 208 of 8 after 32 of 10 -
  // two waves of 8.
  const Rows mixed{{64 * 64, 1}, {40 * 64, 2}, {20 * 64, 3}};
  ScanRows m{3, mixed.cu.data(), mixed.slots.data(), 8, 64};
  EXPECT_DOUBLE_EQ(splitCost(m, kSplit128, 128, 132),
                   24 * kMapsStep + 7 * kJoinStep + 16 * (64.0 / 48));
  // Padding rows run nothing; no unit count or no split: the narrowest.
  EXPECT_EQ(scanFor(Rows{{32768, 0}, {64, 1}}, 8, 132), 0u);
  EXPECT_EQ(scanFor(uniform(1, 32768), 8, 0), 0u);
  EXPECT_EQ(scanFor(uniform(1, 32768), 8, 132, kScans128, nullptr), 0u);
}

TEST(ChooseSplit, StepsScaleWithTheChunkTheJoinDoesNot) {
  // The same 1 x 32768 H8 at 32-row chunks: 1024 chunks, 8 segments of
  // 128; each maps and segments step half a 64-row one, the join's 7
  // steps as they were.
  const Rows r = uniform(1, 32768);
  ScanRows s{1, r.cu.data(), r.slots.data(), 8, 32};
  EXPECT_DOUBLE_EQ(splitCost(s, kSplit128, 128, 132),
                   2 * 128 * kMapsStep * 0.5 + 7 * kJoinStep +
                       128 * (64.0 / 48) * 0.5);
  // A plain scan costs the same over the same tokens at either size.
  const Rows b = uniform(4, 4096);
  ScanRows s64{4, b.cu.data(), b.slots.data(), 32, 64};
  ScanRows s32{4, b.cu.data(), b.slots.data(), 32, 32};
  for (const ScanWay &way : kScans128)
    EXPECT_DOUBLE_EQ(scanCost(s32, way, 128, 132),
                     scanCost(s64, way, 128, 132));
  // So the join is weighed at its real share: 2 x 2048 H8 at 32-row
  // chunks makes eight segments a row, and their seven join steps outweigh
  // what the split saves over the 16-column scan (32 of these units
  // against 34.8). Steps unscaled, the split looked cheaper (59.5 against
  // 64).
  const Rows q = uniform(2, 2048);
  ScanRows q32{2, q.cu.data(), q.slots.data(), 8, 32};
  EXPECT_DOUBLE_EQ(scanCost(q32, kScans128[0], 128, 132), 32.0);
  EXPECT_GT(splitCost(q32, kSplit128, 128, 132), 32.0);
  EXPECT_EQ(chooseScan(q32, kScans128, &kSplit128, 128, 132), 0u);
}

} // namespace
