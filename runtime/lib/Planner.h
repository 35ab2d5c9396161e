//===- Planner.h - which kernel runs which rows of a batch -----*- C++ -*-===//
//
// kda_forward's routing, kept apart from validation and packing so it can
// be tested on its own: the decode front and short prefill rows go to the
// recurrent kernel, long prefill rows to the chunk path (when the layer has
// one), padding rows stay with the recurrent kernel (which writes their zero
// output without touching state). Neighbouring rows that take one path form
// one segment, one launch. Host data only.
//
//===----------------------------------------------------------------------===//
#ifndef KDA_RUNTIME_PLANNER_H
#define KDA_RUNTIME_PLANNER_H

#include <cstdint>
#include <vector>

namespace kda::rt {

enum class Path { Recurrent, Chunk };

/// Rows [first, first + count) of the batch, launched on one path.
struct Segment {
  Path path;
  int32_t first, count;
  bool operator==(const Segment &o) const {
    return path == o.path && first == o.first && o.count == count;
  }
};

/// A validated batch as the planner sees it.
struct PlannerRows {
  int32_t numDecodes = 0, numPrefills = 0;
  const int32_t *cuSeqlens = nullptr; // host, [N + 1]
  const int32_t *slots = nullptr;     // host, [N]
  /// slot < paddingBelow marks a padding row (1: slot <= 0; 0: slot < 0).
  int32_t paddingBelow = 1;
};

struct PlannerPolicy {
  /// Prefill rows longer than this take the chunk path.
  int64_t recurrentMaxTokens = 64;
  bool hasChunk = false;
};

/// The segments of a batch, in row order, covering every row once.
std::vector<Segment> planSegments(const PlannerRows &rows,
                                  const PlannerPolicy &policy);

} // namespace kda::rt

#endif // KDA_RUNTIME_PLANNER_H
