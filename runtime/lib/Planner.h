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

#include <cstddef>
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

/// The chunk rows a scan runs: the rows' host cu_seqlens and slots, the
/// layer's value heads and chunk size.
struct ScanRows {
  int32_t numSeqs = 0;
  const int32_t *cuSeqlens = nullptr; // host, [numSeqs + 1]
  const int32_t *slots = nullptr;     // host, [numSeqs]; <= 0 pads
  int64_t valueHeads = 0, chunkSize = 0;
};

/// Which of a chunk plan's scans to launch. `blocksPerPair[i]` is scan i's
/// workgroups per (sequence, value head) (head_v / its block_v), narrowest
/// block first (most workgroups). Each workgroup stages every chunk's rows
/// once, so the widest block costs the least - while its workgroups keep
/// the device busy. Busy pairs are counted over the longest sequence's
/// scan: value heads x (chunks of all sequences) / (chunks of the longest),
/// so one long row among short ones counts as about one. The widest scan
/// whose workgroups over those pairs cover 7/8 of `computeUnits` wins,
/// else the narrowest (also when the device did not say its count, 0).
/// Measured on the H200 (132 SMs, 2026-12-01, K = V = 128): 1 x 8192 H32
/// picks 32 columns (128 workgroups), 4 x 4096 and varlen 16 pick 64,
/// 1 x 32768 H8 picks 16 - the fastest of the three on each.
size_t chooseScan(const ScanRows &rows,
                  const std::vector<int64_t> &blocksPerPair,
                  uint32_t computeUnits);

/// The fewest segments the longest sequence must split into for the split
/// scan to pay: a segment's step is a maps step and a segments step at the
/// widest block (~5.5 + 7 us at K = V = 128 on the H200) against the plain
/// narrow scan's one (~4.5 us), so two segments would lose; four gain.
inline constexpr int64_t kMinSplitSegments = 4;

/// Whether to split the scan within its sequences (the layer's split scan:
/// maps, join, segments; docs/split-scan.md) instead of launching the plain
/// scan: when the narrowest plain scan's busy workgroups, counted as for
/// chooseScan, would cover at most half of `computeUnits` and the longest
/// sequence splits into kMinSplitSegments segments of `segmentChunks`
/// chunks or more. The split does about twice the scan's work (the maps
/// run over K + V columns), so it pays only where the device would
/// otherwise idle: e.g. 1 x 32768 H8 on the H200 (64 workgroups of the
/// 16-column scan, 132 SMs), not 2 x 8192 H8 (128) or 1 x 8192 H32 (256).
/// False when the device did not say its count (0).
bool chooseSplit(const ScanRows &rows, int64_t narrowestBlocksPerPair,
                 int64_t segmentChunks, uint32_t computeUnits);

} // namespace kda::rt

#endif // KDA_RUNTIME_PLANNER_H
