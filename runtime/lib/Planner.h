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

/// One plain scan of a chunk plan (or a stage of its split), as the cost
/// model sees it.
struct ScanWay {
  /// Workgroups per (sequence, value head) - per (segment, value head) for
  /// a split's stages: the manifest's grid x.
  int64_t blocksPerPair = 1;
  /// State columns a workgroup holds (its block_v).
  int64_t columns = 1;
  /// Workgroups of it one compute unit holds at once (its registers and
  /// LDS, as the device reports them); 0 when unknown, taken as 1.
  uint32_t resident = 1;
  /// Every wave of it computes and copies its rows by async pieces (the
  /// manifest's self_staged): its step is kSelfStagedStep of its block's.
  bool selfStaged = false;
};

/// A chunk plan's split scan (maps, join, segments; docs/split-scan.md).
struct SplitWay {
  /// segment_chunks and max_segments of the layer: a row of n chunks makes
  /// clamp(n / segmentChunks, 1, maxSegments) segments.
  int64_t segmentChunks = 0, maxSegments = 0;
  ScanWay maps, segments;
};

/// The cost model's constants, in chunk steps of the narrowest plain scan
/// (K = V = 128, 16 or 32 columns: ~4.3 us on the H200). Measured on the
/// H200 (2026-12-03, kda-bench --all-scans, driver 580.159.04; 16 batch
/// shapes of H 8 and H 32, every alternative): a workgroup's chunk step
/// took 4.2-4.5 us at 16 and 32 columns, 5.4-5.6 at 64 (latency-bound
/// below ~48 columns x 128 rows, its atoms above); a maps step (64 of the
/// K + V columns, no output) 3.8 us; a join step (one segment) 13 us,
/// then 6.1-6.4 us with the join's loads first (the same day's last call:
/// 1 x 32768 and 2 x 16384 H8, 7 steps, 0.091 -> 0.043-0.045 ms).
/// Only the scans' step scales with the block and head_k; the maps' and
/// join's steps are those of K = V = 128 whatever the layer (no other
/// shape was measured), and the join's own workgroups (head_v / 16 x value
/// heads x rows) are taken to fit the device at once.
inline constexpr int64_t kStepLatencyElems = 48 * 128;
inline constexpr double kMapsStep = 0.875;
inline constexpr double kJoinStep = 1.45;
/// A self-staged scan's chunk step against stepCost of its block. Measured
/// on the H200 (2026-12-04, kda-bench --all-scans, K = V = 128, 4 x 4096
/// H32): the 128-column scan whose eight waves all compute, its rows by
/// cp.async, 64 steps in 0.645-0.673 ms (10.3 us a step) against the
/// 64-column scan's two waves of 64 steps in 0.684-0.718 (5.5 us), which
/// stepCost prices 2.67 : 1.33.
inline constexpr double kSelfStagedStep = 0.95;
/// The chunk size the steps above were measured at. A scan's or maps'
/// chunk step does work in proportion to the chunk's rows (its products
/// are rows x K x columns): measured on the H200 (2026-12-02, twenty-third
/// session), a step at 32 rows took 0.47 of one at 64 (1 x 32768 H8: 1024
/// steps in 2.50 ms against 512 in 2.67). A join step (a segment's K x K
/// map) does not depend on it. chunkScale gives the factor.
inline constexpr int64_t kMeasuredChunkRows = 64;
/// A scan's or maps' step at `chunkSize` rows against one at
/// kMeasuredChunkRows (1 where the size is unknown, 0).
inline double chunkScale(int64_t chunkSize) {
  return chunkSize > 0 ? double(chunkSize) / double(kMeasuredChunkRows) : 1.0;
}
/// The fewest segments the longest sequence must split into for the split
/// scan to be considered (with fewer, the join's steps and two more
/// launches are not worth it).
inline constexpr int64_t kMinSplitSegments = 4;

/// Chunks of a sequence of `length` tokens (the last one partial): what
/// the chunk kernels' loops walk and the prep's grid counts.
inline int64_t chunkCount(int64_t length, int64_t chunkSize) {
  return (length + chunkSize - 1) / chunkSize;
}

/// A chunk step of one workgroup holding `columns` state columns of
/// `headK` rows, in the model's units: 1 up to kStepLatencyElems, then in
/// proportion.
double stepCost(int64_t columns, int64_t headK);

/// The model's estimate of a plain scan over `rows`, in its units: each
/// sequence's workgroups (value heads x blocksPerPair) are chains of its
/// chunks. A chain of L steps cannot end before the chains of L steps and
/// more have had their waves on units x resident slots (so chains that are
/// all about as long go in whole waves), and all the work spread over the
/// slots bounds it too (short rows fill the slots long ones leave): the
/// largest of these, times the step of the scan's block. 0 when no
/// sequence has a chunk.
double scanCost(const ScanRows &rows, const ScanWay &scan, int64_t headK,
                uint32_t computeUnits);

/// The same for the split scan: the maps over every segment but each
/// sequence's last, the join's serial steps over the longest's segments,
/// the segments with their output. Infinite where the longest sequence
/// makes fewer than kMinSplitSegments segments.
double splitCost(const ScanRows &rows, const SplitWay &split, int64_t headK,
                 uint32_t computeUnits);

/// Which way to run a chunk batch's scan: index i < scans.size() for
/// scans[i], scans.size() for the split (when `split` is given). The
/// cheapest by the model; on a tie the scan with the most workgroups per
/// pair, and the split only where it is strictly cheaper. Without a unit
/// count (0: the device did not say) the narrowest scan. Measured on the
/// H200: the model picks the fastest alternative of each of the 16
/// batches measured (PlannerTest), e.g. 1 x 8192 H32 32 columns, 4 x 4096
/// H32 64, 3 x 8192 H8 32 (the narrowest's 192 workgroups are two waves),
/// 1 x 32768 and 2 x 16384 H8 the split.
size_t chooseScan(const ScanRows &rows, const std::vector<ScanWay> &scans,
                  const SplitWay *split, int64_t headK, uint32_t computeUnits);

} // namespace kda::rt

#endif // KDA_RUNTIME_PLANNER_H
