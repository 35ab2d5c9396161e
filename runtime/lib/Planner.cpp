//===- Planner.cpp - which kernel runs which rows of a batch --------------===//
#include "Planner.h"

#include <algorithm>
#include <limits>
#include <map>

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
/// Chunks of sequence n.
int64_t rowChunks(const ScanRows &rows, int32_t n) {
  return chunkCount(int64_t(rows.cuSeqlens[n + 1]) - rows.cuSeqlens[n],
                    rows.chunkSize);
}

/// Chunks of the longest sequence (padding rows run no chunk loop).
int64_t longestChunks(const ScanRows &rows) {
  int64_t longest = 0;
  for (int32_t n = 0; n < rows.numSeqs; ++n)
    if (rows.slots[n] > 0)
      longest = std::max(longest, rowChunks(rows, n));
  return longest;
}
} // namespace

double stepCost(int64_t columns, int64_t headK) {
  return double(std::max(columns * headK, kStepLatencyElems)) /
         double(kStepLatencyElems);
}

namespace {
/// The workgroups of one kernel as chains of chunk steps (one a
/// workgroup): how many of each length.
class Chains {
public:
  void add(int64_t length, int64_t workgroups) {
    if (length > 0 && workgroups > 0)
      byLength[length] += workgroups;
  }
  /// Steps to run them on units x resident slots (scanCost): for each
  /// length L, the waves of the chains of L steps and more, times L; and
  /// all the work over the slots.
  double steps(uint32_t units, uint32_t resident) const {
    const int64_t slots = int64_t(units) * std::max<uint32_t>(resident, 1);
    int64_t atLeast = 0, work = 0;
    double most = 0;
    for (auto it = byLength.rbegin(); it != byLength.rend(); ++it) {
      atLeast += it->second;
      work += it->first * it->second;
      const int64_t waves = (atLeast + slots - 1) / slots;
      most = std::max(most, double(waves * it->first));
    }
    return std::max(most, double(work) / double(slots));
  }

private:
  std::map<int64_t, int64_t> byLength;
};
} // namespace

double scanCost(const ScanRows &rows, const ScanWay &scan, int64_t headK,
                uint32_t computeUnits) {
  Chains chains;
  for (int32_t n = 0; n < rows.numSeqs; ++n)
    if (rows.slots[n] > 0)
      chains.add(rowChunks(rows, n), rows.valueHeads * scan.blocksPerPair);
  return chains.steps(computeUnits, scan.resident) *
         stepCost(scan.columns, headK) * chunkScale(rows.chunkSize) *
         (scan.selfStaged ? kSelfStagedStep : 1.0);
}

double splitCost(const ScanRows &rows, const SplitWay &split, int64_t headK,
                 uint32_t computeUnits) {
  // As the kernels cut a sequence of n chunks (bindSegments): P segments
  // of n / P chunks, the last taking the rest.
  auto partsOf = [&](int64_t chunks) {
    return std::clamp<int64_t>(chunks / split.segmentChunks, 1,
                               split.maxSegments);
  };
  const int64_t longest = longestChunks(rows);
  if (split.segmentChunks < 2 || split.maxSegments < 1 ||
      partsOf(longest) < kMinSplitSegments)
    return std::numeric_limits<double>::infinity();
  // The maps run all but a sequence's last segment; the join walks the
  // longest sequence's segments.
  Chains maps, segments;
  const int64_t mapsPer = rows.valueHeads * split.maps.blocksPerPair;
  const int64_t segmentsPer = rows.valueHeads * split.segments.blocksPerPair;
  for (int32_t n = 0; n < rows.numSeqs; ++n) {
    if (rows.slots[n] <= 0)
      continue;
    const int64_t c = rowChunks(rows, n), parts = partsOf(c), len = c / parts;
    maps.add(len, (parts - 1) * mapsPer);
    segments.add(len, (parts - 1) * segmentsPer);
    segments.add(c - (parts - 1) * len, segmentsPer);
  }
  // The maps' and segments' steps scale with the chunk; the join's not.
  const double scale = chunkScale(rows.chunkSize);
  return maps.steps(computeUnits, split.maps.resident) * kMapsStep * scale +
         double(partsOf(longest) - 1) * kJoinStep +
         segments.steps(computeUnits, split.segments.resident) *
             stepCost(split.segments.columns, headK) * scale;
}

size_t chooseScan(const ScanRows &rows, const std::vector<ScanWay> &scans,
                  const SplitWay *split, int64_t headK, uint32_t computeUnits) {
  size_t best = 0;
  for (size_t i = 1; i < scans.size(); ++i)
    if (scans[i].blocksPerPair > scans[best].blocksPerPair)
      best = i;
  if (computeUnits == 0 || scans.empty())
    return best;
  // The cheapest; among equals the narrowest (the one found above).
  std::vector<double> costs;
  for (const ScanWay &scan : scans)
    costs.push_back(scanCost(rows, scan, headK, computeUnits));
  for (size_t i = 0; i < scans.size(); ++i)
    if (costs[i] < costs[best] ||
        (costs[i] == costs[best] &&
         scans[i].blocksPerPair > scans[best].blocksPerPair))
      best = i;
  const double bestCost = costs[best];
  if (split && splitCost(rows, *split, headK, computeUnits) < bestCost)
    return scans.size();
  return best;
}

} // namespace kda::rt
