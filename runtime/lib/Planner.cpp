//===- Planner.cpp - which kernel runs which rows of a batch --------------===//
#include "Planner.h"

#include <algorithm>
#include <cmath>
#include <limits>

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
  const int64_t length = int64_t(rows.cuSeqlens[n + 1]) - rows.cuSeqlens[n];
  return (length + rows.chunkSize - 1) / rows.chunkSize;
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
/// workgroup): the longest chain, how many workgroups have it, and the
/// work of all of them (workgroup-chunks).
struct Chains {
  int64_t longest = 0;
  double atLongest = 0, work = 0;
  void add(int64_t length, double workgroups) {
    if (length <= 0 || workgroups <= 0)
      return;
    work += double(length) * workgroups;
    if (length > longest)
      longest = length, atLongest = 0;
    if (length == longest)
      atLongest += workgroups;
  }
  /// Steps to run them on units x resident slots: the longest chains in
  /// whole waves (a workgroup's chain is not divided), or the work spread
  /// over the slots (short workgroups fill the slots the long ones leave),
  /// whichever is longer.
  double steps(uint32_t units, uint32_t resident) const {
    const double slots =
        double(units) * double(std::max<uint32_t>(resident, 1));
    const double waves = std::max(1.0, std::ceil(atLongest / slots - 1e-9));
    return std::max(waves * double(longest), work / slots);
  }
};
} // namespace

double scanCost(const ScanRows &rows, const ScanWay &scan, int64_t headK,
                int64_t headV, uint32_t computeUnits) {
  Chains chains;
  const double perRow = double(rows.valueHeads * scan.blocksPerPair);
  for (int32_t n = 0; n < rows.numSeqs; ++n)
    if (rows.slots[n] > 0)
      chains.add(rowChunks(rows, n), perRow);
  return chains.steps(computeUnits, scan.resident) *
         stepCost(headV / scan.blocksPerPair, headK);
}

double splitCost(const ScanRows &rows, const SplitWay &split, int64_t headK,
                 int64_t headV, uint32_t computeUnits) {
  const double never = std::numeric_limits<double>::infinity();
  const int64_t longest = longestChunks(rows);
  if (split.segmentChunks < 2 || split.maxSegments < 1 ||
      longest < kMinSplitSegments * split.segmentChunks)
    return never;
  // Per sequence, as the kernels cut it: P segments of n / P chunks, the
  // last taking the rest; the maps run all but the last, the join walks the
  // longest sequence's P - 1.
  Chains maps, segments;
  int64_t joinSteps = 0;
  const double mapsPerSegment =
      double(rows.valueHeads * split.maps.blocksPerPair);
  const double segmentsPerSegment =
      double(rows.valueHeads * split.segments.blocksPerPair);
  for (int32_t n = 0; n < rows.numSeqs; ++n) {
    if (rows.slots[n] <= 0)
      continue;
    const int64_t c = rowChunks(rows, n);
    const int64_t parts =
        std::clamp<int64_t>(c / split.segmentChunks, 1, split.maxSegments);
    const int64_t len = c / parts;
    maps.add(len, double(parts - 1) * mapsPerSegment);
    segments.add(len, double(parts - 1) * segmentsPerSegment);
    segments.add(c - (parts - 1) * len, segmentsPerSegment);
    if (c == longest)
      joinSteps = std::max(joinSteps, parts - 1);
  }
  return maps.steps(computeUnits, split.maps.resident) * kMapsStep +
         double(joinSteps) * kJoinStep +
         segments.steps(computeUnits, split.segments.resident) *
             stepCost(headV / split.segments.blocksPerPair, headK);
}

size_t chooseScan(const ScanRows &rows, const std::vector<ScanWay> &scans,
                  const SplitWay *split, int64_t headK, int64_t headV,
                  uint32_t computeUnits) {
  size_t best = 0;
  for (size_t i = 1; i < scans.size(); ++i)
    if (scans[i].blocksPerPair > scans[best].blocksPerPair)
      best = i;
  if (computeUnits == 0 || scans.empty())
    return best;
  double bestCost = scanCost(rows, scans[best], headK, headV, computeUnits);
  for (size_t i = 0; i < scans.size(); ++i) {
    const double cost = scanCost(rows, scans[i], headK, headV, computeUnits);
    if (cost < bestCost || (cost == bestCost &&
                            scans[i].blocksPerPair > scans[best].blocksPerPair))
      best = i, bestCost = cost;
  }
  if (split && splitCost(rows, *split, headK, headV, computeUnits) < bestCost)
    return scans.size();
  return best;
}

} // namespace kda::rt
