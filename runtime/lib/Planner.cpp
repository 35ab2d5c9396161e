//===- Planner.cpp - which kernel runs which rows of a batch --------------===//
#include "Planner.h"

#include <algorithm>
#include <utility>

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

namespace {
/// Chunks of all the scan's sequences and of the longest (padding rows
/// run no chunk loop).
std::pair<int64_t, int64_t> scanChunks(const ScanRows &rows) {
  int64_t chunks = 0, longest = 0;
  for (int32_t n = 0; n < rows.numSeqs; ++n) {
    if (rows.slots[n] <= 0)
      continue;
    const int64_t length = int64_t(rows.cuSeqlens[n + 1]) - rows.cuSeqlens[n];
    const int64_t c = (length + rows.chunkSize - 1) / rows.chunkSize;
    chunks += c;
    longest = std::max(longest, c);
  }
  return {chunks, longest};
}
} // namespace

bool chooseSplit(const ScanRows &rows, int64_t narrowestBlocksPerPair,
                 int64_t segmentChunks, uint32_t computeUnits) {
  const auto [chunks, longest] = scanChunks(rows);
  if (segmentChunks < 2 || longest < kMinSplitSegments * segmentChunks ||
      computeUnits == 0)
    return false;
  // Busy workgroups over the longest scan, times 2, against the units.
  return 2 * rows.valueHeads * narrowestBlocksPerPair * chunks <=
         int64_t(computeUnits) * longest;
}

size_t chooseScan(const ScanRows &rows,
                  const std::vector<int64_t> &blocksPerPair,
                  uint32_t computeUnits) {
  const auto [chunks, longest] = scanChunks(rows);
  size_t narrowest = 0;
  for (size_t i = 1; i < blocksPerPair.size(); ++i)
    if (blocksPerPair[i] > blocksPerPair[narrowest])
      narrowest = i;
  if (longest == 0 || computeUnits == 0)
    return narrowest;
  size_t best = narrowest;
  for (size_t i = 0; i < blocksPerPair.size(); ++i) {
    // Workgroups busy over the longest scan, times 8, against 7 x units.
    const int64_t busy8 = 8 * rows.valueHeads * blocksPerPair[i] * chunks;
    if (busy8 >= 7 * int64_t(computeUnits) * longest &&
        blocksPerPair[i] < blocksPerPair[best])
      best = i;
  }
  return best;
}

} // namespace kda::rt
