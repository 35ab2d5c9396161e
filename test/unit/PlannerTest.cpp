//===- PlannerTest.cpp - kda_forward's routing of rows to kernels ---------===//
//
// The planner alone (runtime/lib/Planner.cpp, host data only): which rows
// take the recurrent kernel and which the chunk path, and how neighbouring
// rows of one path share a launch.
//
//===----------------------------------------------------------------------===//
#include "Planner.h"

#include <gtest/gtest.h>

using kda::rt::Path;
using kda::rt::PlannerPolicy;
using kda::rt::PlannerRows;
using kda::rt::Segment;
using kda::rt::planSegments;

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

} // namespace
