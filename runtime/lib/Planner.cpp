//===- Planner.cpp - which kernel runs which rows of a batch --------------===//
#include "Planner.h"

namespace kda::rt {

namespace {
/// The path of row n. Decodes and padding rows always take the recurrent
/// kernel: one token is never worth a chunk, and the recurrent kernel is
/// what writes a padding row's zeros without touching the state.
Path pathOf(const PlannerRows &rows, const PlannerPolicy &policy, int32_t n) {
  if (!policy.hasChunk || n < rows.numDecodes ||
      rows.slots[n] < rows.paddingBelow)
    return Path::Recurrent;
  const int64_t length = int64_t(rows.cuSeqlens[n + 1]) - rows.cuSeqlens[n];
  return length > policy.recurrentMaxTokens ? Path::Chunk : Path::Recurrent;
}
} // namespace

std::vector<Segment> planSegments(const PlannerRows &rows,
                                  const PlannerPolicy &policy) {
  std::vector<Segment> segments;
  const int32_t n = rows.numDecodes + rows.numPrefills;
  for (int32_t i = 0; i < n; ++i) {
    const Path p = pathOf(rows, policy, i);
    if (!segments.empty() && segments.back().path == p)
      ++segments.back().count;
    else
      segments.push_back({p, i, 1});
  }
  return segments;
}

} // namespace kda::rt
