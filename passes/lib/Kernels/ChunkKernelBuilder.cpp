//===- ChunkKernelBuilder.cpp - the chunk (prefill) kernels ---------------===//
//
// The two stage kernels of kda.chunk (see the header for what each
// computes). Work is cut into atom-sized pieces of each product, dealt to
// the waves of the workgroup by a loop (piece = wave, wave + waves, ...);
// elementwise steps loop over the workgroup's threads. Operands reach the
// atoms through buildFragment, whose element functions compute the masked,
// decayed values from LDS and global memory by each element's (row, column),
// so no builder step names a target.
//
//===----------------------------------------------------------------------===//
#include "kda/Passes/ChunkKernelBuilder.h"
#include "kda/Passes/KdaMath.h"
#include "kda/Passes/KernelAbi.h"
#include "kda/Passes/LdsHandoffs.h"
#include "kda/Passes/PipelineExpansion.h"
#include "kda/Passes/PipelineHazards.h"
#include "kda/Passes/TileLayer.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMAttrs.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <limits>
#include <numeric>

using namespace mlir;
using namespace mlir::kda;

namespace {

/// Rows of one anchoring block of the intra-chunk matrices: exponents are
/// taken relative to one row of a 16-row block, its first or its middle, so
/// no factor of a product overflows (KDA-MATH.md section 3; prepIntraChunk).
constexpr int64_t kSub = 16;
/// Waves of a workgroup, in both kernels. prep: measured on the H200
/// (1 x 8192 H32) 1.89 ms at 8 against 2.14 at 4 - LDS allows 4 workgroups
/// an SM either way, so 8 doubles the warps that hide the element loads'
/// latency. scan: it runs one or two workgroups an SM (one per state column
/// block, head and row) and was bound by instruction latency at 4 (ncu: 6.6
/// cycles a warp between issues with one warp per scheduler). Wider preps
/// lose where the LDS caps the workgroups an SM: since G is held in two
/// parts sm_90 holds two at head_k 128, and 12 or 16 waves (78 / 64
/// registers, the threads of three or four workgroups of 8) made the prep
/// 23-33% slower than 8 (125 registers) on an H100 (2026-12-08, one call,
/// two rounds: 1 x 8192 H32 0.542 -> 0.675 / 0.669-0.680 ms, 4 x 4096
/// 1.019-1.027 -> 1.289-1.308 / 1.328; docs/chunk-path.md).
constexpr unsigned kWaves = 8;
/// Workgroups an SM the prep's registers are sized for on NVPTX (see
/// buildChunkStageKernel).
constexpr int kPrepWorkgroupsPerSM = 3;
/// The most atom tiles of W or U one prep wave takes together
/// (forTileBlocks; at chunk 64 on sm_90 two column tiles of a row tile,
/// one A fragment of T' for both). Measured on the H200 (2026-12-02, one
/// call): the prep 0.729 -> 0.708 ms (1 x 8192 H32), 1.394 -> 1.351
/// (4 x 4096) against single tiles.
constexpr int64_t kPrepBlockTiles = 2;
/// The most fragment registers (blockFragmentRegs) a scan's tile block may
/// keep live a k step. From the figures (2026-12-01, K = V = 128): sm_90's
/// 64-column update as 2 x 2 tiles (56) took 101 registers where single
/// tiles took 128 and spilled; gfx950's as 2 x 2 (64, its k = 32 atom)
/// spilled 8-10 bytes at 256 VGPRs where single tiles took 192.
constexpr int64_t kBlockFragmentRegs = 56;
/// Threads of a scan of 32 or more state columns: 16 waves of 32 on NVPTX
/// (one tile of each product a wave at 32 columns), 8 of 64 on AMDGPU,
/// where 16 waves of 64 would cap a lane at 128 VGPRs and spill.
constexpr unsigned kWideScanThreads = 512;
/// Workgroups an SM the 16-column scan's registers are sized for on NVPTX
/// (see buildChunkStageKernel).
constexpr int kNarrowScanWorkgroupsPerSM = 2;
/// 16-byte pieces of a field's chunk rows a scan thread keeps in flight:
/// a batch of the row staging, or the rows loaded ahead of their staging
/// (issueRows; K = 128 rows at 8 waves are one batch): 8 x 4 registers.
constexpr int64_t kPiecesInFlight = 8;
/// Adjacent columns a thread takes per trip of the prep's elementwise
/// passes over the chunk's rows (q, k, g in, the decayed rows and words
/// out): one vector access each instead of one load a trip. One element a
/// trip made each pass a chain of 32 memory latencies a thread (C x K =
/// 8192 elements over 256 threads).
constexpr int64_t kRun = 4;
static_assert(kRun % 2 == 0, "a run holds whole pairs of pair words");
/// 16-byte pieces a staging wave's thread of the register scan keeps in
/// flight (ChunkPlan::regState): a phase's rows at once at K = V = 128 (16
/// to 24 pieces a thread). Its staging is bound by the bytes in flight:
/// measured on the H200 (2026-12-02, one call), 8 at a time took the
/// 32-column scan of 1 x 8192 H32 to 1.07 ms, all at once 0.885 (4 x 4096's
/// 64-column scan 1.22 -> 1.01).
constexpr int64_t kStagePieces = 32;
/// Compute waves the 16-column register scan splits its slab over along K
/// (ChunkPlan::kSplit). That scan is the one the runtime picks where few
/// (row, head) pairs leave the GPU idle (1 x 32768 H8), and there its one
/// compute wave is the bound: measured on the H200 (2026-12-03, one call,
/// two rounds), leaving out a third of its atoms (timing only) took the
/// scan from 2.64 to 2.19 ms, where the 32- and 64-column scans of the H32
/// batches did not move (they wait on their staging: leaving out the next
/// chunk's W, U and q o exp G took them 0.83 -> 0.67 and 0.90 -> 0.68 ms).
/// Split 4 ways (four compute waves of 32 rows at K = 128, four staging
/// waves) the
/// scan of 1 x 32768 H8 went 2.650 -> 2.309-2.312 ms (whole path 3.211 ->
/// 2.868); 2 ways it was slower, 3.066 (sm_90: 76 bytes spilled, where 4
/// ways spills none).
constexpr int64_t kNarrowScanKSplit = 4;
/// The 32-column register scan splits its two column slabs along K too,
/// 2 ways (four compute waves, four staging waves). ncu on the H200
/// (2026-12-05, 1 x 8192 H32, source counters by warp role) had its two
/// compute waves as the path: they never waited at the chunk's barriers,
/// issuing a third of their samples and waiting on latency a third, while
/// the six staging waves waited at the barriers 47% of theirs. Split, on a
/// lent H100 (2026-12-05, one call, three rounds alternating) its scan went
/// 0.530 -> 0.478-0.481 ms and the path 0.966-0.973 -> 0.916-0.920. On
/// 32-lane waves only (gfx950's 64-lane scan is not split).
constexpr int64_t kSplitScanColumns = 32;
constexpr int64_t kSplitScanKSplit = 2;
/// The most segments a sequence's scan is split into (segment_chunks;
/// docs/split-scan.md): the maps' and segments' grid y is value heads x
/// this, the workgroups past a sequence's own count returning at once.
/// Measured on the H200 (2026-12-03, one call, two rounds), 1 x 32768 H8
/// (the plain scan 2.872 ms): 16 segments 2.017 ms, 8 1.914, 4 2.376 -
/// the maps and the segments are bound by their work from 8 on (0.79 and
/// 0.47 ms at 8 and 16), and the join's serial steps grow with the count.
constexpr int64_t kMaxSegments = 8;
/// Rows of G a thread of the prep's cumsum loads at a time
/// (prepGateCumsum).
constexpr int64_t kCumsumRows = 16;
/// The join's state columns a workgroup (f32 FMAs, not atoms: one K x K by
/// K x 16 product a segment).
constexpr int64_t kJoinBlockV = 16;
/// The join's LDS for a segment's M, in floats (32 KiB: rows of M at a
/// time, 64 of 128 at K = 128).
constexpr int64_t kJoinMFloats = 8192;
/// The scan whose atom operands are read as 16-byte runs (operandRuns):
/// the 32-column one, the only one measured faster with them.
constexpr int64_t kOperandRunsBlockV = 32;

/// The static sizes of both kernels of one layer on one target.
struct ChunkPlan {
  const MmaAtom *atom = nullptr;
  ChunkStage stage = ChunkStage::Prep;
  int64_t C, H, HV, K, V, G;
  /// segment_chunks (0: the layer's scan is never split within a
  /// sequence). A sequence of n chunks is split into P = clamp(n /
  /// segChunks, 1, kMaxSegments) segments of floor(n / P) chunks, the last
  /// taking the rest, so each holds at least (segChunks - 1) x C + 1 rows
  /// and the segments' first rows over segKeyTokens() (their keys) are
  /// distinct in the batch. Segment s's [M | B] (K x (K + V) floats, then
  /// its entering state in B's place) is block (key, value head) of the
  /// area after the T tokens' records (segBlockFloats each; T, the batch's
  /// rows, is cu_seqlens[num_seqs], num_seqs every stage's grid z).
  int64_t segChunks = 0;
  /// The maps' and segments' workgroups: value heads x kMaxSegments in y.
  bool segmented() const {
    return stage == ChunkStage::Maps || stage == ChunkStage::Segments;
  }
  int64_t segKeyTokens() const { return (segChunks - 1) * C; }
  int64_t segBlockFloats() const { return K * (K + V); }
  int64_t blockV; // scan: state columns per workgroup
  unsigned waveSize;
  unsigned waves = kWaves;
  /// The most atom tiles of one product a wave accumulates together
  /// (forTileBlocks): 4 in the scans of 32 and more columns, 1 (single
  /// tiles) in the 16-column scan, whose two tiles of the update together
  /// took sm_90's registers from 110 to 166 (one workgroup an SM, not two),
  /// kPrepBlockTiles in the prep's W and U.
  int64_t maxBlockTiles = 1;
  unsigned threads() const { return waves * waveSize; }
  // Workspace record of one token and value head, in floats from its
  // start: q o exp(G) scaled (K), k o exp(G_last - G) (K), W (K), U (V),
  // the A_qk row (C), exp(G_last) (K, written by a chunk's first row only).
  int64_t recQG() const { return 0; }
  int64_t recKD() const { return K; }
  int64_t recW() const { return 2 * K; }
  int64_t recU() const { return 3 * K; }
  int64_t recA() const { return 3 * K + V; }
  int64_t recGL() const { return 3 * K + V + C; }
  int64_t recFloats() const { return 4 * K + V + C; }
  /// The workspace, in bytes: fixed + perToken x T. The records, then (a
  /// split scan) the segments' blocks: keys are first rows over
  /// segKeyTokens, so there are at most T / segKeyTokens + 1 of them.
  int64_t wsPerToken() const {
    int64_t bytes = 4 * HV * recFloats();
    if (segChunks)
      bytes +=
          (4 * HV * segBlockFloats() + segKeyTokens() - 1) / segKeyTokens();
    return bytes;
  }
  int64_t wsFixed() const { return segChunks ? 4 * HV * segBlockFloats() : 0; }
  // LDS, in floats.
  // Measured on the H200 (T 8192, H 32): staging the chunk's q, k and v
  // in LDS as f32 (148 KiB) cut the prep to one workgroup per SM and made
  // it slower (7.7 ms against 4.4 ms); k and then v as they are (bf16) in
  // one area (stageActs) keep three an SM, and q stays in global memory.
  // The prep's A (C x C) and G (C x K) rows are padded (`padded`): G
  // becomes W's B operand, read down its columns (unpadded rows of 128
  // floats put a fragment's 4 rows on one bank). G is held in two parts,
  // its f32 rounding and the rest (gLoBytes; prepGateCumsum).
  int64_t prepLdsFloats() const {
    return C * prepPadded(K) + gLoFloats() + C * prepPadded(C) + kSub * C +
           3 * C + (stageActs ? prepActFloats() : 0);
  }
  /// Bytes of an element of G's rest (prepGateCumsum): 4, an f32; or 1, an
  /// i8 in units of 2^-8 of the rounding's ulp, where the f32s would take
  /// the prep past the LDS (choosePrepLds: gfx942 at 64-row chunks of
  /// head_k 128). The i8 keeps a fall to ulp(G) / 256: 5e-7 after a step
  /// of -1000 nats.
  int64_t gLoBytes = 4;
  /// G's rest is laid out as G (rows of prepPadded(K)) where f32, and by
  /// columns of C + 4 bytes where i8: a thread's column (prepGateCumsum)
  /// is then whole words of its own, 4 rows a word, and the 8 rows x 4
  /// columns of a fragment's load fall on different banks.
  int64_t gLoStride() const { return gLoBytes == 4 ? prepPadded(K) : C + 4; }
  int64_t gLoFloats() const {
    return gLoBytes == 4 ? C * gLoStride() : (K * gLoStride() + 15) / 16 * 4;
  }
  /// The prep stages the chunk's k rows in LDS (read by A_kk / A_qk's
  /// fragments, the decayed rows and W's operand words), then its v rows
  /// in the same bytes (U's operand), where that keeps the workgroups a
  /// compute unit holds (makePlan). Measured on the H200 (ncu source
  /// counters, 1 x 8192 H32): the A_kk / A_qk loop and U's product, whose
  /// fragments loaded k and v element by element from global memory, took
  /// 40% and 19% of the prep's samples, mostly waiting on those loads.
  bool stageActs = false;
  int64_t actBytes = 2;
  /// Words of padding of a staged row (ldsRowPadWords of the atom at the
  /// activations' width), so that the rows one LDS wavefront of fragment
  /// loads reads fall on different banks. sm_90: 4 words; the 8 bytes it
  /// had before were 2-way conflicts on every k and q fragment load of
  /// A_kk / A_qk (ncu on the H200, 2026-12-03: 5.2 M of the prep's 96 M
  /// LDS wavefronts at 4 x 4096 H32 excessive there).
  int64_t actPadWords = 2;
  /// Row stride (elements) of the staged rows.
  int64_t actStride() const {
    return std::max(K, V) + actPadWords * 4 / actBytes;
  }
  int64_t prepActFloats() const {
    return (C * actStride() * actBytes + 15) / 16 * 4;
  }
  /// The scan stages each chunk's rows in LDS when they fit (one coalesced
  /// pass, then every atom operand from LDS) and reads them from the
  /// workspace where they do not (gfx942's 64 KiB at chunk 64).
  bool stageScan = false;
  /// The scan hints the next chunk's workspace records toward L2 at the
  /// start of each chunk (prefetchChunkRecords). Only the 16-column scan: it
  /// is the one the runtime picks when few (row, head) pairs keep the GPU
  /// busy, where each chunk's staging waits on memory with nothing else to
  /// hide it. Measured on the H200 (2026-12-01, one call, alternating):
  /// 1 x 32768 H8 (the 16-column scan) 3.766 -> 3.663 / 3.683 ms; the
  /// 32- and 64-column scans of the H32 batches, where 128-256 workgroups
  /// hide each other's waits, lost 0.6-3.3% with it.
  bool prefetchNext = false;
  /// The register scan's staging waves hint the next chunk's workspace
  /// records toward L2 as each chunk starts (prefetchChunkRecords), a phase and
  /// a half before their loads. Measured on the H200 (2026-12-02, one call,
  /// alternating, two rounds): the 16-column scan of 1 x 32768 H8 2.92-2.95
  /// -> 2.854 ms, the 64-column ones of 4 x 4096 and varlen 16 H32 1.020 ->
  /// 0.977-0.979 and 1.023 -> 1.003-1.004, but the 32-column one of 1 x
  /// 8192 H32 0.892 -> 0.986: not there.
  bool regPrefetch = false;
  /// Tiles of one slab term a register scan's k step takes together
  /// (slabProducts): their operand fragments loaded and split, then their
  /// split atoms issued round by round (emitMmaSplitFusedRounds); 0 means
  /// all of the term's tiles, 1 a tile at a time. The same sums bit for
  /// bit; only the issue order, and so ptxas's registers, differ. All on
  /// the 32-column scan only: measured on an H100 (2026-12-05, one call,
  /// three rounds alternating, 1 x 8192 H32) its scan 0.552-0.557 ->
  /// 0.530-0.534 ms, the path 1.020-1.028 -> 1.004-1.007 (sm_90 spills 8
  /// -> 0 bytes). In an earlier call the 128-column scan of 4 x 4096 H32
  /// went 0.642 -> 0.671 with all its tiles (spills 48 -> 76) and 0.638 -
  /// 0.640 in groups of 4 (noise); the prep's A_kk / A_qk and W / U
  /// products issued that way 0.471 -> 0.471-0.483 ms. Those stay a tile
  /// at a time. The 32-column register scan takes rounds on every target
  /// that builds it: gfx950's unmeasured (no hardware), 246 -> 250 VGPRs,
  /// no spills, still 2 waves a SIMD.
  int64_t slabRoundTiles = 1;
  /// Depth of the scan's row pipeline (kda.chunk's scan_stages, else
  /// kDefaultScanStages). Depth 1 is the synchronous staging above; from 2
  /// on, the W rows and this workgroup's U columns of chunk c (what the
  /// chunk's first product reads) are copied into slot c mod depth of an
  /// LDS ring by a verified kda.pipeline over the sequence's chunks, and the
  /// staging above covers the other rows only.
  int64_t scanStages = 1;
  bool ringAsync = false; // the ring's copies use the target's async atom
  bool pipelined() const { return scanStages > 1; }
  // One ring slot, in floats: C rows of W (K each), then C rows of U's
  // block of columns (blockV each).
  int64_t ringW() const { return 0; }
  int64_t ringU() const { return C * K; }
  int64_t ringSlotFloats() const { return C * K + C * blockV; }
  /// Row stride in LDS of an array of `width` columns that atoms read:
  /// with `padRows`, 4 floats of padding put the 8 rows an atom operand
  /// reads at once on different banks (unpadded rows of 32, 64 or 128
  /// floats are 4- to 8-way conflicts). The prep always pads; the scan
  /// where the padded layout fits (makePlan); the scan's ring rows never
  /// are (one copy atom per row).
  bool padRows = false;
  int64_t padded(int64_t width) const { return padRows ? width + 4 : width; }
  /// The prep's padding of its A (C x C) and G (C x K) rows, whose atom
  /// fragments are read as vectors along a row (ldsRowPadWords, MmaAtoms.h).
  int64_t prepPad = 4;
  int64_t prepPadded(int64_t width) const {
    return padRows ? width + prepPad : width;
  }
  /// Whether the scan reads its atom operands as 16-byte runs: fragments
  /// by the atom's k-contiguous twin (contiguousKAtom), the state's and
  /// V_new's words held transposed so that B's k is contiguous too, and
  /// the arrays read that way padded by kPad = 16 floats (the two rows
  /// eight lanes of a 16-byte read touch at once on different banks).
  /// Only the 32-column scan: measured on the H200 (2026-12-01, sixteenth
  /// session, 1 x 8192 H 32) its scan went from 1.004-1.011 to 0.945-0.949
  /// ms; the same layout made the 16- and 64-column scans 4-5% slower
  /// (the 16-column one at its 128-register cap, the 64-column one's 2 x 2
  /// tile blocks reading each fragment for two atoms already) and the
  /// prep 2%; with 4 floats of padding every scan was slower (2-way bank
  /// conflicts on each 16-byte read). What the 16-float padding costs
  /// instead: the update's k o exp(G_last - G) rows, read element by
  /// element down a column (their rows are the update's k, not its m),
  /// and the stores into the transposed words are 4-way bank conflicts
  /// on sm_90 (2-way before); the measured total is the net. Built for
  /// the AMD targets too (their twin is the atom: only the transposed
  /// words and the padding change there), structurally as on sm_90 and
  /// unmeasured: their LDS banks differ.
  bool operandRuns = false;
  /// The padding of the scan's arrays read as atom operands along k (the
  /// staged W, q o exp G, k o exp(G_last - G) and A_qk rows; with
  /// operandRuns the transposed state and V_new words): paddedK(width) is
  /// their row stride.
  int64_t kPad = 4;
  int64_t paddedK(int64_t width) const {
    return padRows ? width + kPad : width;
  }
  int64_t scanStagedFloats() const {
    return C * paddedK(K) + (pipelined() ? 0 : C * padded(blockV)) +
           C * paddedK(C);
  }
  /// The scan's state block (f32, and its split words where they fit: the
  /// f32 block starts each update, the words feed the atoms) and V_new
  /// (split words only: it is only ever an atom operand). With
  /// operandRuns the words are held transposed (a column's K, or C, words
  /// in a padded row).
  bool stateWords = true;
  int64_t scanOwnFloats() const {
    if (!operandRuns)
      return (stateWords ? 2 : 1) * K * padded(blockV) + C * padded(blockV);
    return K * padded(blockV) + (stateWords ? blockV * paddedK(K) : 0) +
           blockV * paddedK(C);
  }
  /// The scan's LDS before the ring: the state block, V_new, staged rows.
  int64_t scanFixedFloats() const {
    return scanOwnFloats() + (stageScan ? scanStagedFloats() : 0);
  }
  int64_t scanLdsFloats() const {
    if (warpgroup)
      return wgLdsFloats();
    if (regState)
      return regLdsFloats();
    return scanFixedFloats() + (pipelined() ? scanStages * ringSlotFloats() : 0);
  }
  /// The scan keeps its state in registers (docs/scan-register-state.md):
  /// each of kSplit x blockV / 16 compute waves holds 16 state columns, all
  /// K rows (K / kSplit rows where split), as a slab of accumulator tiles
  /// (`slab`: the atom's accumulator -> operand identity, MmaAtoms.h), across
  /// the whole sequence, and takes the three products with it and V_new
  /// straight from registers; only the chunk's rows (W, q o exp G, A_qk, k o
  /// exp(G_last - G), exp(G_last), U) go through LDS, staged once a chunk by
  /// the staging waves. At depth 1, where the scan's atom has the identity and
  /// the staged rows fit.
  bool regState = false;
  AccumulatorOperand slab{};
  /// The warpgroup scan (kda.chunk's warpgroup_scan; docs/wgmma-plan.md,
  /// step 6): blockV / 64 warpgroups, warpgroup w holding the block's state
  /// columns [64 w, 64 w + 64) as S^T (64 x K) in registers, thread t of
  /// its quad the state rows k = 4 i + t; each chunk operand read by the
  /// warpgroup atom from LDS as the records hold it (split words, k
  /// doubled), placed in core matrices by the copies (cp.async pieces
  /// issued by every thread a phase ahead).
  bool warpgroup = false;
  /// Its LDS, in floats: W, q o exp G and k o exp(G_last - G) (C x K words
  /// each), A_qk (C x C), U's block (padded rows), exp(G_last).
  int64_t wgRowsFloats() const { return C * K; }
  int64_t wgLdsFloats() const {
    return 3 * wgRowsFloats() + C * C + regUFloats() + regGlFloats();
  }
  /// Bytes between core matrices along n: W's and q o exp G's B (rows of
  /// 2 K bf16, 2 K / 8 core matrices of 128 bytes along k), A_qk's (2 C);
  /// and along n' of k o exp(G_last - G)'s MN-major B (C / 8 along k).
  int64_t wgRowSbo() const { return 32 * K; }
  int64_t wgAqSbo() const { return 32 * C; }
  int64_t wgKdSbo() const { return 16 * C; }
  /// Those B operands' layouts (core matrices 128 bytes apart along k), for
  /// the atoms that read them and the copies that place them.
  SharedOperandLayout wgRowsLayout() const {
    return {128, unsigned(wgRowSbo())};
  }
  SharedOperandLayout wgAqLayout() const { return {128, unsigned(wgAqSbo())}; }
  SharedOperandLayout wgKdLayout() const {
    return {128, unsigned(wgKdSbo()), /*mnMajor=*/true};
  }
  /// W's rows in the workspace in run order and, in the register scans,
  /// W staged in LDS as fragment runs (markRecordRuns): the run layout of
  /// the atom's B operand (the scans' products are transposed there).
  std::optional<RunLayout> wRuns;
  /// q o exp G's record rows as pair words along K (packPairWords) where
  /// W's are in run order: every scan of such a function is a register
  /// scan, whose products take q o exp G as the B operand of its
  /// transposed form, k along the record row, and read it from the staged
  /// rows as whole registers. As split words each of those registers took
  /// a byte permute (ncu on the H200, 2026-12-04, 4 x 4096 H32: byte
  /// permutes 21.5% of the 128-column scan's instructions).
  bool qgPairs() const { return wRuns.has_value(); }
  /// Runs R in an atom.k block of W's record row: W's pair i of a block
  /// is half i div R of run i mod R (RunLayout::pairWord = (i mod R) elems
  /// + i div R, which markRecordRuns checks).
  int64_t wRunsPerBlock() const { return atom->k / wRuns->elems; }
  unsigned computeWaves = 0;
  /// Every wave holds a slab and copies its share of the rows itself, by
  /// the chip's per-thread async copy (kda.copy_piece): the register scan
  /// whose block is as wide as all its waves' slabs (docs/chunk-path.md,
  /// thirty-fourth session).
  bool selfStaged() const {
    return warpgroup || (regState && computeWaves == waves);
  }
  /// Threads that copy a phase's rows: the staging waves', or every one.
  int64_t stagerThreads() const {
    return int64_t(selfStaged() ? waves : waves - computeWaves) * waveSize;
  }
  /// Compute waves the block's one column slab is split over along K
  /// (parts of K / kSplit rows each; the 16- and 32-column blocks): the
  /// products of S are summed over the parts through LDS (regXFloats), and
  /// each part updates its own rows. See kNarrowScanKSplit.
  int64_t kSplit = 1;
  int64_t slabRows() const { return K / kSplit; }
  /// Column slabs of the block, each held by kSplit compute waves.
  int64_t colSlabs() const { return blockV / kSub; }
  /// U's block of columns staged (else read from the workspace at V_new's
  /// elements, where it does not fit: gfx942 past 32 columns).
  bool stageU = false;
  /// Row strides of the register scan's staged arrays. mma.sync reads W,
  /// q o exp G and A_qk as B operands down their rows (k pairs contiguous:
  /// 8-byte reads), conflict-free for a half warp when a row starts 8
  /// banks after the last (+ 8 floats); k o exp(G_last - G) is read down
  /// its columns (one word a row, four rows a lane), conflict-free at + 4.
  static int64_t regStride(int64_t width, bool byColumn) {
    return width + (byColumn ? 4 : 8);
  }
  /// W, q o exp G and k o exp(G_last - G) each have their own array, so
  /// a phase's rows are staged while the previous phase's are read.
  int64_t regRowsFloats(bool byColumn) const {
    return C * regStride(K, byColumn);
  }
  int64_t regAqFloats() const { return C * regStride(C, false); }
  int64_t regGlFloats() const { return (K + 3) / 4 * 4; }
  int64_t regUFloats() const { return C * regStride(blockV, true); }
  /// Where the K parts' partial products of S meet: W S and (q o exp G) S,
  /// C x kSub each (rows padded like U's), a compute wave each.
  static int64_t regXStride() { return regStride(kSub, true); }
  int64_t regXFloats() const {
    return kSplit > 1 ? 2 * int64_t(computeWaves) * C * regXStride() : 0;
  }
  int64_t regLdsFloats() const {
    return 2 * regRowsFloats(false) + regRowsFloats(true) + regAqFloats() +
           regGlFloats() + (stageU ? regUFloats() : 0) + regXFloats();
  }
  /// Rows of a segment's M the join holds in LDS at a time: all K where
  /// they fit kJoinMFloats, else the most of K's halvings that do.
  int64_t joinRows() const {
    int64_t rows = K;
    while (rows * K > kJoinMFloats && rows % 2 == 0)
      rows /= 2;
    return rows;
  }
  /// The join's entering state and the next one (K x kJoinBlockV each),
  /// and its block of M's rows.
  int64_t joinHeldFloats() const { return (K + 4) * kJoinBlockV; }
  int64_t joinLdsFloats() const {
    return 2 * joinHeldFloats() + joinRows() * K;
  }
  /// The stage's dynamic LDS.
  int64_t ldsFloats() const {
    switch (stage) {
    case ChunkStage::Prep:
      return prepLdsFloats();
    case ChunkStage::Join:
      return joinLdsFloats();
    default:
      return scanLdsFloats();
    }
  }
};

/// Whether the scan's ring copies its rows with the target's async atom: only
/// where that atom writes each row as it is (the region one instruction
/// writes divides every row: cp.async's 16 bytes) and its waits count
/// committed groups. An atom that writes a wave's 64 x 16 bytes per
/// instruction (global_load_lds) would pad each 64-byte U row to 1 KiB and
/// its vmcnt waits would have to count the C x 2 row instructions of a
/// chunk, past the counter; such targets copy the rows register-staged.
bool scanRingAsync(const ChunkPlan &p, const TargetInfo &target) {
  const int64_t region = target.copyRegionBytes();
  return target.asyncCopy() && !target.waitsCountInstructions() &&
         (4 * p.K) % region == 0 && (4 * p.blockV) % region == 0;
}

/// The default depth of the scan's row pipeline: 1 (the rows
/// staged in the chunk loop) on every target, until a measurement picks a
/// deeper one - the depth is the tuner's choice (kda-tune --list enumerates
/// 1..4 with the verifier's verdicts; kda.chunk's scan_stages sets one).
/// Why not 2 where the copies are async (sm_90): the sm_90 table was
/// measured at depth 1 on 2026-11-30 and a depth-2 scan is unmeasured
/// there; and on emu32, which stands for sm_90, every thread's ring read is
/// checked word by word by the race detector, which made the chunk numerics
/// 7x slower (42 s -> 310 s on 2 cores) - so CI runs deeper rings on a few
/// cases of their own (test/numeric/chunk-specs/chunk_k3_s2.mlir).
constexpr int64_t kDefaultScanStages = 1;

/// Whether `a` is a bf16 -> f32 atom of the target's wave whose k divides
/// both the chunk and head_k (what both the prep's and the register scan's
/// choices ask first).
bool chunkAtomFits(const MmaAtom &a, const TargetInfo &target, int64_t C,
                   int64_t K) {
  return a.ab == ScalarKind::BF16 && a.acc == ScalarKind::F32 &&
         a.waveSize == target.waveSize && C % a.k == 0 && K % a.k == 0;
}

/// The chip's bf16 -> f32 atom whose m and n divide the 16-row blocks and
/// whose k divides both the chunk and head_k, largest k first.
const MmaAtom *chooseAtom(const TargetInfo &target, int64_t C, int64_t K,
                          std::string &why) {
  const MmaAtom *best = nullptr;
  for (const MmaAtom *a : mmaAtomsOf(target.chip)) {
    if (!chunkAtomFits(*a, target, C, K) || kSub % a->m || kSub % a->n)
      continue;
    if (!best || a->k > best->k)
      best = a;
  }
  if (!best)
    why = "no bf16 -> f32 atom with m, n dividing 16 and k dividing the "
          "chunk and head_k among " +
          describeMmaAtoms(target.chip);
  return best;
}

/// The chip's bf16 -> f32 atom for a register-state scan: an accumulator
/// -> operand identity 16 columns wide and k dividing the chunk and
/// head_k (gfx950: its 16x16x16 atom, not the prep's k = 32 one).
const MmaAtom *chooseSlabAtom(const TargetInfo &target, int64_t C, int64_t K) {
  for (const MmaAtom *a : mmaAtomsOf(target.chip)) {
    std::optional<AccumulatorOperand> id = accumulatorOperandOf(*a);
    if (chunkAtomFits(*a, target, C, K) && id && id->width == kSub)
      return a;
  }
  return nullptr;
}

/// Makes `p` (its shape, block and depth set) a register-state scan where
/// it can be one (see ChunkPlan); false leaves `p` as it was.
bool planRegisterScan(ChunkPlan &p, const TargetInfo &target) {
  const MmaAtom *atom = chooseSlabAtom(target, p.C, p.K);
  if (!atom || p.pipelined() || p.blockV % kSub)
    return false;
  ChunkPlan r = p;
  r.regState = true;
  r.atom = atom;
  r.slab = *accumulatorOperandOf(*atom);
  // Staging waves beside the compute waves, at least half of them: their
  // loads of a phase's rows (16 to 24 16-byte pieces a thread) are in
  // flight together while the compute waves take the atoms.
  r.waves = kWaves;
  r.stageScan = true;
  r.padRows = true;
  r.maxBlockTiles = 1;
  r.prefetchNext = false;
  r.regPrefetch = r.blockV != 32;
  r.slabRoundTiles = r.blockV == 32 ? 0 : 1;
  r.operandRuns = false;
  // The first layout that fits the chip's LDS, from the most to the
  // least: split along K (the narrow block on 32-lane waves, each part
  // whole atom k steps and slab tiles) with U staged; unsplit with U
  // staged, then read from the workspace. Not on 64-lane waves: gfx950's
  // 16-column scan at K = 128 split 4 ways spilled 122 VGPRs (492 bytes of
  // scratch), unsplit none (docs/split-scan.md says where they come from).
  struct Layout {
    int64_t kSplit;
    bool stageU;
  };
  SmallVector<Layout> layouts;
  const int64_t split = p.blockV == kSub                ? kNarrowScanKSplit
                        : p.blockV == kSplitScanColumns ? kSplitScanKSplit
                                                        : 1;
  const int64_t partRows = p.K / split;
  if (split > 1 && p.stage != ChunkStage::Maps && r.waveSize == 32 &&
      p.K % split == 0 && partRows % int64_t(atom->k) == 0 &&
      partRows % int64_t(r.slab.tileLength) == 0)
    layouts.push_back({split, true});
  for (bool u : {true, false})
    layouts.push_back({1, u});
  for (const Layout &l : layouts) {
    r.kSplit = l.kSplit, r.stageU = l.stageU;
    r.computeWaves = unsigned(r.kSplit * r.colSlabs());
    // As many compute waves as waves: self-staged, only where the chip's
    // per-thread pieces land asynchronously (copied through registers by
    // the compute waves themselves, the rows' latency is exposed: 1.00
    // against 0.69 ms for 4 x 4096 H32's 64-column scan on the H200; by
    // cp.async issued before each phase's products, 0.645-0.673).
    const bool self = r.computeWaves == r.waves && r.kSplit == 1 &&
                      target.copyAtom == CopyAtomKind::CpAsync;
    if ((2 * r.computeWaves > r.waves && !self) ||
        r.regGlFloats() / 4 > r.stagerThreads())
      continue;
    if (4 * r.regLdsFloats() <= int64_t(target.ldsBytes) &&
        r.threads() <= target.maxWorkgroupSize) {
      p = r;
      return true;
    }
  }
  return false;
}

/// Lays out the LDS-resident scan of `p` (its shape, block and depth set):
/// the wide blocks' waves, the ring's copies, and the first LDS layout
/// that fits.
void planLdsScan(ChunkPlan &p, const TargetInfo &target) {
  p.prefetchNext = p.blockV <= 16;
  if (p.blockV >= 32) {
    p.waves = std::max<unsigned>(kWaves, kWideScanThreads / p.waveSize);
    p.maxBlockTiles = 4;
  }
  p.ringAsync = scanRingAsync(p, target);
  // Staged beside the ring when everything fits; otherwise those rows
  // come from the workspace and the ring alone must fit (R6 decides).
  // Rows are padded where the padded layout fits, staged or not.
  const int64_t ring =
      p.pipelined() ? p.scanStages * p.ringSlotFloats() : 0;
  auto fits = [&](bool staged) {
    return 4 * (p.scanOwnFloats() + (staged ? p.scanStagedFloats() : 0) +
                ring) <=
           int64_t(target.ldsBytes);
  };
  // The first layout that fits, from the most LDS to the least: what
  // gives way first is staging, then padding, then the state's split
  // words (the atoms then split S at every fragment). None fitting, the
  // last stands (the LDS check below or R6 rejects it).
  // The scan of kOperandRunsBlockV columns first tries its operands as
  // runs (operandRuns).
  struct Layout {
    bool staged, padded, words, runs = false;
  };
  const Layout layouts[] = {{true, true, true, true}, {true, true, true},
                            {false, true, true},      {false, false, true},
                            {false, true, false},     {false, false, false}};
  for (const Layout &l : layouts) {
    if (l.runs && p.blockV != kOperandRunsBlockV)
      continue;
    p.stageScan = l.staged, p.padRows = l.padded, p.stateWords = l.words;
    p.operandRuns = l.runs;
    p.kPad = l.runs ? 16 : 4;
    if (fits(l.staged))
      break;
  }
}

/// Whether `atom`'s A and D fragments are what the warpgroup scan's
/// register identities take (docs/wgmma-plan.md, step 6), checked lane by
/// lane on its tables: element e of thread L at row 16 (L / 32) + (L mod
/// 32) / 4 + 8 ((e / 2) mod 2), column 8 (e / 4) + 2 (L mod 4) + e mod 2.
bool warpgroupFragmentsAsTaken(const MmaAtom &atom) {
  auto holds = [&](const FragmentLayout &l) {
    for (unsigned lane = 0; lane < atom.waveSize; ++lane)
      for (unsigned e = 0; e < l.elems; ++e)
        if (l.rowOf(lane, e) !=
                16 * (lane / 32) + (lane % 32) / 4 + 8 * ((e / 2) % 2) ||
            l.colOf(lane, e) != 8 * (e / 4) + 2 * (lane % 4) + e % 2)
          return false;
    return true;
  };
  return holds(atom.a) && holds(atom.c);
}

/// The warpgroup atoms the warpgroup scan issues: m64n64k16 (the chunk's
/// products, C = 64) and m64n128k16 (the update, a half of K's doubled
/// columns a product), or null with `why`.
std::pair<const MmaAtom *, const MmaAtom *>
warpgroupScanAtoms(const TargetInfo &target, std::string &why) {
  const MmaAtom *n64 = findWarpgroupAtom(target.chip, 64, why);
  const MmaAtom *n128 =
      n64 ? findWarpgroupAtom(target.chip, 128, why) : nullptr;
  // An emulator runs its chip's atoms: say which, so that a refusal for
  // emu does not read as one for another target.
  if (!n128 && target.chip != target.name)
    why = (target.name + " runs " + target.chip + "'s atoms: " + why).str();
  return {n64, n128};
}

/// Plans the warpgroup scan of `p` (shape, block and depth set), or says
/// which rule the layer, block or target breaks.
LogicalResult planWarpgroupScan(ChunkStageOp op, ChunkPlan &p,
                                const TargetInfo &target) {
  auto refuse = [&]() {
    return emitStageError(op) << "warpgroup_scan (block_v " << p.blockV << ", "
                              << target.name << "): ";
  };
  std::string why;
  auto [n64, n128] = warpgroupScanAtoms(target, why);
  if (!n128)
    return refuse() << why;
  for (const MmaAtom *a : {n64, n128}) {
    if (a->waveSize != 4 * target.waveSize)
      return refuse() << a->name << " takes " << a->waveSize
                      << " threads, not four waves of " << target.waveSize;
    if (!warpgroupFragmentsAsTaken(*a))
      return refuse() << a->name
                      << "'s A and D fragments are not those the scan's "
                         "register identities take";
  }
  if (p.pipelined())
    return refuse() << "it stages its rows a phase ahead itself; scan_stages "
                       "must be 1, got "
                    << p.scanStages;
  if (p.C != 64)
    return refuse() << "chunk_size must be 64 (a chunk's rows are the n of "
                       "one m64n64k16), got "
                    << p.C;
  if (p.K != 64 && p.K != 128)
    return refuse() << "head_k must be 64 or 128 (S^T holds K / 2 registers "
                       "a thread), got "
                    << p.K;
  if (p.blockV % 64)
    return refuse() << "block_v must be a multiple of 64 (a warpgroup a 64 "
                       "state columns)";
  if (target.copyAtom != CopyAtomKind::CpAsync)
    return refuse() << "its rows are copied by per-thread async pieces "
                       "(cp_async), which "
                    << target.name << " does not have";
  p.warpgroup = true;
  p.waves = unsigned(4 * p.blockV / 64);
  p.computeWaves = p.waves;
  p.stageScan = p.stageU = true;
  p.padRows = false;
  if (4 * p.wgLdsFloats() > int64_t(target.ldsBytes))
    return refuse() << "needs " << 4 * p.wgLdsFloats() << " bytes of LDS, "
                    << target.name << " has " << target.ldsBytes;
  return success();
}

LogicalResult makePlan(ChunkStageOp op, const TargetInfo &target, ChunkPlan &p);
void choosePrepLds(ChunkPlan &p, const TargetInfo &target);

/// Runs makePlan on `op` with its diagnostics kept in `why` rather than
/// reported (a plan of a stage that is then left out says nothing).
static LogicalResult planQuietly(ChunkStageOp op, const TargetInfo &target,
                                 ChunkPlan &p, std::string &why) {
  ScopedDiagnosticHandler keep(op.getContext(), [&](Diagnostic &d) {
    if (why.empty())
      why = d.str();
    return success();
  });
  return makePlan(op, target, p);
}

/// The chunk sizes the ops take (their verifiers), largest first.
constexpr int64_t kChunkSizes[] = {64, 32, 16};

/// A detached copy of `op` at chunk size `c`, to judge a size by; the
/// caller destroys it.
static ChunkStageOp cloneAtChunkSize(ChunkStageOp op, int64_t c) {
  auto copy = cast<ChunkStageOp>(op->clone());
  copy.setChunkSizeAttr(
      IntegerAttr::get(IntegerType::get(op.getContext(), 64), c));
  return copy;
}

/// Whether `op`'s stage, or with `asPrep` its layer's prep, plans on
/// `target` at chunk size `c`, its diagnostics kept quiet.
static bool plansAt(ChunkStageOp op, const TargetInfo &target, int64_t c,
                    bool asPrep) {
  ChunkStageOp copy = cloneAtChunkSize(op, c);
  if (asPrep) {
    copy.setStage(ChunkStage::Prep);
    copy.removeBlockVAttr();
  }
  ChunkPlan p;
  std::string why;
  const bool fits = succeeded(planQuietly(copy, target, p, why));
  copy->destroy();
  return fits;
}

/// The largest chunk size below `from` at which `op`'s stage fits
/// `target`, or 0: what an LDS refusal suggests.
static int64_t fittingChunkSize(ChunkStageOp op, const TargetInfo &target,
                                int64_t from) {
  for (int64_t c : kChunkSizes)
    if (c < from && plansAt(op, target, c, /*asPrep=*/false))
      return c;
  return 0;
}

LogicalResult makePlan(ChunkStageOp op, const TargetInfo &target,
                       ChunkPlan &p) {
  LayerAttr layer = op.getLayer();
  // kda-lower-to-gpu sets the target's size on every stage of a function
  // that left it out; a stage built alone (kda-tune) takes the same.
  p.C = op.getChunkSizeAttr() ? op.getChunkSizeAttr().getInt()
                              : defaultChunkSize({op}, target);
  p.stage = op.getStage();
  p.segChunks = op.getSegmentChunks().value_or(0);
  p.H = layer.getHeads(), p.HV = layer.getValueHeads();
  p.K = layer.getHeadK(), p.V = layer.getHeadV();
  p.G = layer.getGroupSize();
  p.waveSize = target.waveSize;
  // Head dims are multiples of kSub: kda.chunk and kda.chunk_stage refuse
  // others in their verifiers.
  assert(p.K % kSub == 0 && p.V % kSub == 0 && "verified head dims");
  std::string why;
  p.atom = chooseAtom(target, p.C, p.K, why);
  if (!p.atom)
    return emitStageError(op) << "cannot build the chunk kernels on "
                              << target.name << ": " << why;
  // Measured on the H200 (2026-12-02, one call, alternating, two rounds):
  // sm_90's prep at 8 words of padding (its derived value) against 4, 1 x
  // 8192 H32 0.675 -> 0.630 ms, 4 x 4096 1.322 -> 1.231, 1 x 32768 H8
  // 0.673 -> 0.627; at 12 (two workgroups an SM) 0.77.
  p.prepPad = ldsRowPadWords(*p.atom);
  // The scan's state columns per workgroup: its block_v (kda-decompose
  // makes one scan per block the runtime may pick), else 16. Blocks of 32
  // and more take 16 waves: one tile of each product a wave at 32, two at
  // 64, with the registers of the 16-column scan at 8 waves (measured on the
  // H200, 2026-12-01, 1 x 8192 H32: 32 columns at 8 waves 1.99 ms, 173
  // registers, one workgroup an SM; at 16 waves 1.93 ms, 100 registers).
  p.blockV = op.getBlockV().value_or(std::min<int64_t>(p.V, 16));
  p.padRows = true;
  if (op.getStage() == ChunkStage::Scan || p.segmented()) {
    p.scanStages = op.getScanStages().value_or(kDefaultScanStages);
    // The warpgroup scan where asked for and the block is whole
    // warpgroups; else the register scan where the target and depth allow
    // it, else the LDS-resident one; the split scan's stages take the
    // register scan only (chunkSegmentsBuildable).
    if (op.getWarpgroupScan() && p.stage == ChunkStage::Scan &&
        p.blockV % 64 == 0) {
      if (failed(planWarpgroupScan(op, p, target)))
        return failure();
    } else if (!planRegisterScan(p, target)) {
      if (p.segmented())
        return emitStageError(op)
               << "the " << stringifyChunkStage(p.stage)
               << " stage runs the register scan, which " << target.name
               << " cannot hold at block_v " << p.blockV
               << " (kda-lower-to-gpu leaves the split scan out there)";
      planLdsScan(p, target);
    }
  }
  if (op.getStage() == ChunkStage::Join)
    p.blockV = kJoinBlockV;
  // W through the workspace in run order (markRecordRuns decided it for
  // the whole function); the join does not read W.
  if (op->hasAttr(kRecordRunsAttr) && op.getStage() != ChunkStage::Join)
    p.wRuns = runLayoutOf(*p.atom, MmaOperand::B);
  if (op.getStage() == ChunkStage::Prep) {
    p.maxBlockTiles = kPrepBlockTiles;
    // Stage the activation rows where the workgroups the LDS lets a compute
    // unit hold stay at least what the prep asks for (or what it held
    // without staging, if fewer): sm_90 3 (4 without), gfx950 2 (2),
    // gfx942 none (one without).
    Type act = cast<MemRefType>(op.getK().getType()).getElementType();
    Type vAct = cast<MemRefType>(op.getV().getType()).getElementType();
    p.actBytes =
        std::max(act.getIntOrFloatBitWidth(), vAct.getIntOrFloatBitWidth()) / 8;
    p.actPadWords = ldsRowPadWords(*p.atom, unsigned(p.actBytes));
    choosePrepLds(p, target);
  }
  if (p.threads() > target.maxWorkgroupSize)
    return emitStageError(op)
           << p.waves << " waves of " << p.waveSize << " exceed " << target.name
           << "'s workgroup size";
  int64_t lds = 4 * p.ldsFloats();
  // A pipelined scan's LDS is the verifier's to judge (R6 counts the ring
  // with every other allocation and names the pipeline and depth).
  if (lds > int64_t(target.ldsBytes) && !p.pipelined()) {
    InFlightDiagnostic diag = emitStageError(op)
                              << "the " << stringifyChunkStage(op.getStage())
                              << " kernel needs " << lds
                              << " bytes of LDS, more than " << target.name
                              << "'s " << target.ldsBytes
                              << " (chunk_size = " << p.C
                              << ", head_k = " << p.K << ")";
    if (int64_t fits = fittingChunkSize(op, target, p.C))
      diag << "; it fits at chunk_size = " << fits
           << " (leave chunk_size out for the largest that fits each target)";
    return diag;
  }
  return success();
}

/// The prep's staging of k / v rows and its G rest's width: staged where
/// the workgroups the LDS lets a compute unit hold stay at least what the
/// prep asks for (or what it held without staging, if fewer): sm_90 3 (4
/// without), gfx950 2 (2), gfx942 none (one without). G's rest is an f32
/// wherever the prep fits with it, else an i8 where that fits: gfx942 and
/// emu at 64-row chunks of head_k 128 (89856 bytes past their 64 KiB;
/// 64768 with the i8). Where both fit, the f32 costs a workgroup a unit
/// at head_k 128 (sm_90 3 -> 2, 110336 bytes; gfx950 2 -> 1, 107264) and
/// the i8 its decode in the A_kk / A_qk loop: on gfx950 (81920 bytes, two
/// workgroups by LDS) that took the prep from 126 to 170 VGPRs, two waves
/// a SIMD, which holds no more waves than the f32's one workgroup.
void choosePrepLds(ChunkPlan &p, const TargetInfo &target) {
  const int64_t cu = target.ldsBytes;
  auto stage = [&](ChunkPlan &q) {
    q.stageActs = false;
    const int64_t base = 4 * q.prepLdsFloats();
    const int64_t held = cu / base;
    const int64_t staged = cu / (base + 4 * q.prepActFloats());
    q.stageActs =
        staged >= std::min<int64_t>(held, kPrepWorkgroupsPerSM) && staged >= 1;
    return cu / (4 * q.prepLdsFloats());
  };
  p.gLoBytes = 4;
  if (stage(p) >= 1)
    return;
  // Fitting or not (makePlan then names the least the prep needs).
  p.gLoBytes = 1;
  stage(p);
}

/// What both kernels share: index and float arithmetic, loops over pieces
/// and threads, atom products from element functions, the batch rows.
class ChunkEmitter {
public:
  using At = std::function<Value(Value, Value)>;
  /// How an operand's elements are held: f32 values, split into hi and lo
  /// at every fragment that reads them; split words (packSplitWord), split
  /// once by whoever wrote them - what the scan's operands are, each read
  /// by many fragments (the prep writes W, q o exp G, k o exp(G_last - G)
  /// and A_qk as words; the scan its state block's and V_new's copies); or
  /// pair words (packPairWords, along the operand's k: T' and k o exp2(G)
  /// in the prep), read only whole from an LDS array (inLds); or fragment
  /// runs (TileLayer.h: the register scans' W, ChunkPlan::wRuns), read
  /// only whole from an LDS array (inRuns).
  enum class Held { F32, SplitWords, PairWords, FragmentRuns };
  /// An atom operand by element (`at`), held as `held` says.
  struct Operand {
    template <typename F>
    Operand(F fn, bool splitWords = false)
        : at(std::move(fn)), held(splitWords ? Held::SplitWords : Held::F32) {}
    At at;
    Held held;
    bool words() const { return held != Held::F32; }
    bool paired() const { return held == Held::PairWords; }
    /// Where the operand is a plain LDS array, element (r, c) at
    /// mem[r * rowStride + c * colStride]: fragments are then read by the
    /// tile layer's vector loads (MemTile) instead of element by element.
    Value mem;
    int64_t rowStride = 0, colStride = 0;
    /// Fragment runs: the operand's tiles along k (runOffset).
    int64_t runKBlocks = 0;
    /// `at` gives values exact in the atom's operand type, in that type (the
    /// bf16 inputs): fragments are built as they are, not split, and a
    /// product with them takes two atoms.
    bool exact = false;
  };
  static Operand words(At at) { return Operand(std::move(at), true); }
  /// The operand held in LDS array `mem` with rows of `stride` elements
  /// (`transposed`: element (r, c) at mem[c * stride + r]), as `held`.
  Operand inLds(Value mem, int64_t stride, Held held, bool transposed = false) {
    const int64_t rs = transposed ? 1 : stride, cs = transposed ? stride : 1;
    Operand op([this, mem, rs, cs](Value r, Value c) {
      return load(mem, add(mul(r, idx(rs)), mul(c, idx(cs))));
    });
    op.held = held;
    op.mem = mem, op.rowStride = rs, op.colStride = cs;
    return op;
  }

  /// The atoms' B operand of `width` along k held as fragment runs in LDS
  /// array `mem` (ChunkPlan::wRuns).
  Operand inRuns(Value mem, int64_t width) {
    Operand op([](Value, Value) -> Value {
      // a builder bug, not an input error: fail loudly
      llvm::report_fatal_error("kda: fragment runs are read whole from LDS");
    });
    op.held = Held::FragmentRuns;
    op.mem = mem;
    op.runKBlocks = width / p.atom->k;
    return op;
  }

  ChunkEmitter(OpBuilder &b, Location loc, const ChunkPlan &p, ChunkStageOp op,
               const TargetInfo &target)
      : b(b), loc(loc), p(p), op(op), target(target), layer(op.getLayer()),
        f32(b.getF32Type()) {}

  void emitPrep(gpu::GPUFuncOp func);
  /// The scan; `ring` is the kda.lds_buffer of its row pipeline (null at
  /// depth 1). Fails, with the op error, when the verifier rejects the
  /// pipeline at the plan's depth.
  LogicalResult emitScan(gpu::GPUFuncOp func, FlatSymbolRefAttr ring);
  /// The join of the split scan (ChunkKernelBuilder.h).
  void emitJoin(gpu::GPUFuncOp func);

private:
  // Arithmetic.
  Value idx(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }
  Value f(double v) {
    return arith::ConstantOp::create(b, loc, b.getF32FloatAttr(v));
  }
  Value i32(int64_t v) {
    return arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(v));
  }
  Value add(Value x, Value y) { return arith::AddIOp::create(b, loc, x, y); }
  Value sub(Value x, Value y) { return arith::SubIOp::create(b, loc, x, y); }
  Value mul(Value x, Value y) { return arith::MulIOp::create(b, loc, x, y); }
  Value div(Value x, int64_t y) {
    return arith::DivUIOp::create(b, loc, x, idx(y));
  }
  Value rem(Value x, int64_t y) {
    return arith::RemUIOp::create(b, loc, x, idx(y));
  }
  Value lt(Value x, Value y) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, x, y);
  }
  Value fadd(Value x, Value y) { return arith::AddFOp::create(b, loc, x, y); }
  Value fsub(Value x, Value y) { return arith::SubFOp::create(b, loc, x, y); }
  Value fmul(Value x, Value y) { return arith::MulFOp::create(b, loc, x, y); }
  /// 2^x: G is kept in log2 units (KDA-MATH.md section 2: the cumsum in
  /// base 2), so every decay factor is one exp2 (ex2 / v_exp_f32),
  /// approximate (afn: sm_90's ex2.approx.ftz, FastMathToNVVM.cpp). A factor
  /// flushed below 2^-126 is never multiplied by one above 1 that could bring
  /// it back: the anchored atoms bound both of theirs within e^+-40.
  Value exp2(Value x) {
    return math::Exp2Op::create(b, loc, x, arith::FastMathFlags::afn);
  }
  Value select(Value c, Value x, Value y) {
    return arith::SelectOp::create(b, loc, c, x, y);
  }
  Value widen(Value v) {
    return v.getType() == f32 ? v : arith::ExtFOp::create(b, loc, f32, v);
  }
  Value narrow(Value v, Type to) {
    return to == f32 ? v : arith::TruncFOp::create(b, loc, to, v);
  }
  Value toIndex(Value v) {
    return arith::IndexCastOp::create(b, loc, b.getIndexType(), v);
  }
  Value load(Value mem, Value i) {
    return memref::LoadOp::create(b, loc, mem, i);
  }
  Value loadF(Value mem, Value i) { return widen(load(mem, i)); }
  void store(Value v, Value mem, Value i) {
    Type elem = cast<MemRefType>(mem.getType()).getElementType();
    memref::StoreOp::create(b, loc, narrow(v, elem), mem, i);
  }

  // Control flow (bodies built with the same builder, insertion restored).
  void forRange(Value lb, Value ub, Value step,
                llvm::function_ref<void(Value)> body) {
    auto loop = scf::ForOp::create(b, loc, lb, ub, step);
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPoint(loop.getBody()->getTerminator());
    body(loop.getInductionVar());
  }
  Value forReduce(Value lb, Value ub, Value init,
                  llvm::function_ref<Value(Value, Value)> body) {
    return forReduceAll(lb, ub, init,
                        [&](Value i, ValueRange acc) {
                          return SmallVector<Value>{body(i, acc[0])};
                        })
        .front();
  }
  /// The same carrying several values.
  SmallVector<Value>
  forReduceAll(Value lb, Value ub, ValueRange init,
               llvm::function_ref<SmallVector<Value>(Value, ValueRange)> body,
               int64_t step = 1) {
    auto loop = scf::ForOp::create(b, loc, lb, ub, idx(step), init);
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(loop.getBody());
    scf::YieldOp::create(
        b, loc, body(loop.getInductionVar(), loop.getRegionIterArgs()));
    return SmallVector<Value>(loop.getResults());
  }
  void ifThen(Value cond, llvm::function_ref<void()> then) {
    auto ifOp = scf::IfOp::create(b, loc, cond, /*withElse=*/false);
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPoint(ifOp.thenBlock()->getTerminator());
    then();
  }
  void ifThenElse(Value cond, llvm::function_ref<void()> then,
                  llvm::function_ref<void()> otherwise) {
    auto ifOp = scf::IfOp::create(b, loc, cond, /*withElse=*/true);
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPoint(ifOp.thenBlock()->getTerminator());
    then();
    b.setInsertionPoint(ifOp.elseBlock()->getTerminator());
    otherwise();
  }
  Value ifValue(Value cond, llvm::function_ref<Value()> then,
                llvm::function_ref<Value()> otherwise) {
    return ifValue(f32, cond, then, otherwise);
  }
  Value ifValue(Type type, Value cond, llvm::function_ref<Value()> then,
                llvm::function_ref<Value()> otherwise) {
    auto ifOp = scf::IfOp::create(b, loc, TypeRange{type}, cond,
                                  /*withElse=*/true);
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    scf::YieldOp::create(b, loc, then());
    b.setInsertionPointToStart(ifOp.elseBlock());
    scf::YieldOp::create(b, loc, otherwise());
    return ifOp.getResult(0);
  }
  /// A register scan's phase: the compute waves' products (their values)
  /// and the staging waves' copies of the next phase's rows. Self-staged,
  /// every wave does both, the copies first: they are asynchronous, so they
  /// land while the products run (copyFence waits for them before the
  /// phase's barrier).
  SmallVector<Value>
  scanPhase(TypeRange types, llvm::function_ref<SmallVector<Value>()> products,
            llvm::function_ref<SmallVector<Value>()> copies) {
    if (!p.selfStaged())
      return ifValues(computes, types, products, copies);
    copies();
    return products();
  }
  /// Self-staged: the calling thread's pieces have landed (before the
  /// barrier that hands them to the other waves).
  void copyFence() {
    if (p.selfStaged())
      CopyFenceOp::create(b, loc);
  }
  /// The calling thread's index among the threads that copy rows.
  Value stagerThread() {
    return p.selfStaged() ? tid
                          : sub(tid, idx(int64_t(p.computeWaves) * p.waveSize));
  }
  /// then() where `cond` holds, otherwise() elsewhere, values of `types`
  /// (then() alone, unconditionally, without a condition).
  SmallVector<Value>
  ifValues(Value cond, TypeRange types,
           llvm::function_ref<SmallVector<Value>()> then,
           llvm::function_ref<SmallVector<Value>()> otherwise) {
    if (!cond)
      return then();
    if (types.empty()) {
      ifThenElse(
          cond, [&] { then(); }, [&] { otherwise(); });
      return {};
    }
    auto ifOp = scf::IfOp::create(b, loc, types, cond, /*withElse=*/true);
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    scf::YieldOp::create(b, loc, then());
    b.setInsertionPointToStart(ifOp.elseBlock());
    scf::YieldOp::create(b, loc, otherwise());
    return SmallVector<Value>(ifOp.getResults());
  }
  void ifMaybe(Value cond, llvm::function_ref<void()> then) {
    if (cond)
      ifThen(cond, then);
    else
      then();
  }
  void barrier() { gpu::BarrierOp::create(b, loc); }
  /// The sum of `x` over the wave (every lane gets it).
  Value waveSum(Value x) {
    return gpu::SubgroupReduceOp::create(b, loc, x,
                                         gpu::AllReduceOperation::ADD,
                                         /*uniform=*/true)
        .getResult();
  }
  /// for (i = tid; i < count; i += threads)
  void forThreads(Value count, llvm::function_ref<void(Value)> body) {
    forRange(tid, count, idx(p.threads()), body);
  }
  /// The same unrolled over a static `count`: body(i, in) for each trip,
  /// i clamped to 0 where the trip may pass `count` and `in` then its
  /// predicate (null where every thread's i is below count).
  void forThreadTrips(int64_t count,
                      llvm::function_ref<void(Value, Value)> body) {
    const int64_t threads = p.threads();
    for (int64_t j = 0; j * threads < count; ++j) {
      Value i = add(tid, idx(j * threads));
      Value in = (j + 1) * threads > count ? lt(i, idx(count)) : Value();
      body(in ? select(in, i, idx(0)) : i, in);
    }
  }
  /// body(r, c0) for each run of kRun adjacent columns of a C x `width`
  /// block of rows, the runs dealt to the threads (width % kRun == 0);
  /// with `rowStep`, only rows r that are multiples of it (the body takes
  /// rows r .. r + rowStep - 1).
  void forRowRuns(int64_t width, llvm::function_ref<void(Value, Value)> body,
                  int64_t rowStep = 1) {
    assert(width % kRun == 0 && p.C % rowStep == 0 && "rows are whole runs");
    const int64_t runs = width / kRun;
    forThreads(idx(p.C / rowStep * runs), [&](Value i) {
      body(mul(div(i, runs), idx(rowStep)), mul(rem(i, runs), idx(kRun)));
    });
  }
  /// Alignment (bytes) of a run at an offset that is a multiple of every
  /// `multiples` (elements of `mem`, whose base is 16-byte aligned).
  unsigned runAlign(Value mem, std::initializer_list<int64_t> multiples) {
    int64_t g = kRun;
    for (int64_t m : multiples)
      g = std::gcd(g, m);
    return unsigned(g) *
           cast<MemRefType>(mem.getType()).getElementTypeBitWidth() / 8;
  }
  /// kRun adjacent elements of `mem` at `offset`, as they are: one vector
  /// load.
  Value loadVector(Value mem, Value offset, unsigned align) {
    Type elem = cast<MemRefType>(mem.getType()).getElementType();
    return vector::LoadOp::create(
        b, loc, VectorType::get({kRun}, elem), mem, ValueRange{offset},
        /*nontemporal=*/false, llvm::MaybeAlign(align));
  }
  /// A loaded run's elements widened to f32.
  SmallVector<Value> widenRun(Value vec) {
    SmallVector<Value> vals;
    for (int64_t e = 0; e < kRun; ++e)
      vals.push_back(widen(vector::ExtractOp::create(b, loc, vec, e)));
    return vals;
  }
  /// kRun adjacent elements of `mem` at `offset`, widened to f32: one
  /// vector load.
  SmallVector<Value> loadRun(Value mem, Value offset, unsigned align) {
    return widenRun(loadVector(mem, offset, align));
  }
  /// The store twin: `values` (f32) narrowed to `mem`'s type, one vector
  /// store.
  void storeRun(ArrayRef<Value> values, Value mem, Value offset,
                unsigned align) {
    Type elem = cast<MemRefType>(mem.getType()).getElementType();
    SmallVector<Value> narrowed;
    for (Value x : values)
      narrowed.push_back(narrow(x, elem));
    vector::StoreOp::create(
        b, loc,
        vector::FromElementsOp::create(
            b, loc, VectorType::get({int64_t(values.size())}, elem), narrowed),
        mem, ValueRange{offset}, /*nontemporal=*/false,
        llvm::MaybeAlign(align));
  }
  /// Piece = wave, wave + waves, ... below `count`: every wave runs the
  /// same number of trips (ceil(count / waves)), so every wave issues the
  /// same atoms in the same order - a wave past the end computes on a
  /// clamped piece (`live` false) and stores nothing. Wave collectives then
  /// never depend on how the pieces divide, and the waves meet at each
  /// barrier after the same trips (the emulator checks both: a wave's lanes
  /// at the same collective, the workgroup at the same barrier).
  void forPieces(int64_t count, llvm::function_ref<void(Value, Value)> body) {
    forPieceTrips(count,
                  [&](Value piece, Value live, Value) { body(piece, live); });
  }
  /// The same, body(piece, live, trip) also given the trip (0, 1, ...).
  void forPieceTrips(int64_t count,
                     llvm::function_ref<void(Value, Value, Value)> body) {
    if (count == 0) // nothing to deal: no loop, no body
      return;
    const int64_t trips = (count + p.waves - 1) / p.waves;
    forRange(idx(0), idx(trips), idx(1), [&](Value i) {
      auto [piece, live] = pieceAt(i, count);
      body(piece, live, i);
    });
  }
  /// This wave's piece on trip `trip` of forPieces over `count`, clamped
  /// to 0 past the last, and whether it is live.
  std::pair<Value, Value> pieceAt(Value trip, int64_t count) {
    Value piece = add(wave, mul(trip, idx(p.waves)));
    Value live = lt(piece, idx(count));
    return {select(live, piece, idx(0)), live};
  }
  /// acc + A B over kDim for the atom tile at (row0, col0): A(i, kk) and
  /// B(kk, j) give operand elements by tile coordinates.
  Value gemm(Value acc, Value row0, Value col0, int64_t kDim, const Operand &a,
             const Operand &bAt) {
    return gemmTo(acc, row0, col0, idx(kDim), kDim % p.atom->k != 0, a, bAt);
  }
  /// The same over k < kEnd (a value; `ragged` when it may not be a
  /// multiple of the atom's k: the last step is then padded with zeros and
  /// its indices clamped, as the inverse's 16-row blocks on a k = 32 atom
  /// need).
  Value gemmTo(Value acc, Value row0, Value col0, Value kEnd, bool ragged,
               const Operand &aAt, const Operand &bAt) {
    return gemmBlock({acc}, TileBlock{1, 1, row0, col0}, kEnd, ragged, aAt, bAt)
        .front();
  }
  /// A block of mt x nt atom tiles of one product, the (i, j) tile at
  /// (row0 + i m, col0 + j n); its tiles are numbered t = i nt + j.
  struct TileBlock {
    int64_t mt = 1, nt = 1;
    Value row0, col0;
    int64_t tiles() const { return mt * nt; }
  };
  Value blockRow(const TileBlock &blk, int64_t i) {
    return add(blk.row0, idx(i * p.atom->m));
  }
  Value blockCol(const TileBlock &blk, int64_t j) {
    return add(blk.col0, idx(j * p.atom->n));
  }
  /// The origin (row, col) of tile t of `blk`.
  std::pair<Value, Value> tileOf(const TileBlock &blk, int64_t t) {
    return {blockRow(blk, t / blk.nt), blockCol(blk, t % blk.nt)};
  }
  /// accs[t] + A B over k < kEnd for the tiles of `blk`: each k step reads
  /// mt A and nt B fragments and feeds every one to nt or mt atoms (a
  /// fragment read from LDS once, where single tiles read it once per
  /// tile). `ragged` when kEnd may not be a multiple of the atom's k: the
  /// last step is then padded with zeros and its indices clamped, as the
  /// inverse's 16-row blocks on a k = 32 atom need.
  SmallVector<Value> gemmBlock(ArrayRef<Value> accs, const TileBlock &blk,
                               Value kEnd, bool ragged, const Operand &aAt,
                               const Operand &bAt) {
    const MmaAtom &atom = *p.atom;
    assert(int64_t(accs.size()) == blk.tiles() && "one accumulator a tile");
    // Padding is 0, whose split word is 0 too.
    auto inK = [&](const Operand &op, bool kFirst) -> Operand {
      if (!ragged)
        return op;
      At at = op.at;
      return Operand(
          [this, at, kFirst, kEnd](Value x, Value y) {
            Value kk = kFirst ? x : y;
            Value in = lt(kk, kEnd);
            Value safe = select(in, kk, sub(kEnd, idx(1)));
            return select(in, kFirst ? at(safe, y) : at(x, safe), f(0));
          },
          op.words());
    };
    assert(!(ragged && (aAt.exact || bAt.exact)) &&
           "ragged padding is f32 zeros");
    if (ragged && (aAt.paired() || bAt.paired())) // a builder bug
      llvm::report_fatal_error("kda: pair words are never padded along k");
    assert(!aAt.exact && "only B operands are taken exact");
    const Operand aK = inK(aAt, /*kFirst=*/false),
                  bK = inK(bAt, /*kFirst=*/true);
    // ceil(kEnd / k) steps; each tile's split atoms into two accumulators.
    SmallVector<Value> init;
    for (Value acc : accs)
      init.append({acc, zeroAccumulator(b, loc, atom)});
    auto loop = scf::ForOp::create(b, loc, idx(0), kEnd, idx(atom.k), init);
    {
      OpBuilder::InsertionGuard g(b);
      b.setInsertionPointToStart(loop.getBody());
      Value k0 = loop.getInductionVar();
      // With operandRuns both operands' fragments follow the atom's
      // k-contiguous twin: a lane's k of a row of A (a column of B) are
      // then one vector load wherever the operand's k is contiguous in LDS
      // (the staged rows, the state's and V_new's transposed words), where
      // the atom's own layout reads them in pairs (A) or one at a time (B).
      const MmaAtom &kAtom = p.operandRuns ? contiguousKAtom(atom) : atom;
      SmallVector<SplitFragment> as, bsSplit;
      SmallVector<Value> bsExact;
      for (int64_t i = 0; i < blk.mt; ++i)
        as.push_back(
            splitOperand(kAtom, MmaOperand::A, blockRow(blk, i), k0, aK));
      for (int64_t j = 0; j < blk.nt; ++j) {
        if (bK.exact)
          bsExact.push_back(
              exactFragment(kAtom, MmaOperand::B, k0, blockCol(blk, j), bK));
        else
          bsSplit.push_back(
              splitOperand(kAtom, MmaOperand::B, k0, blockCol(blk, j), bK));
      }
      SmallVector<Value> next;
      for (int64_t t = 0; t < blk.tiles(); ++t) {
        const int64_t i = t / blk.nt, j = t % blk.nt;
        SplitAccumulator acc{loop.getRegionIterArgs()[2 * t],
                             loop.getRegionIterArgs()[2 * t + 1]};
        SplitAccumulator out =
            bK.exact ? emitMmaExactInto(b, loc, atom, as[i], bsExact[j], acc)
                     : emitMmaSplitInto(b, loc, atom, as[i], bsSplit[j], acc);
        next.append({out.big, out.small});
      }
      scf::YieldOp::create(b, loc, next);
    }
    SmallVector<Value> sums;
    for (int64_t t = 0; t < blk.tiles(); ++t)
      sums.push_back(
          SplitAccumulator{loop.getResult(2 * t), loop.getResult(2 * t + 1)}
              .sum(b, loc));
    return sums;
  }
  /// The same over kDim (gemm's ragged rule).
  SmallVector<Value> gemmBlock(ArrayRef<Value> accs, const TileBlock &blk,
                               int64_t kDim, const Operand &a,
                               const Operand &bAt) {
    return gemmBlock(accs, blk, idx(kDim), kDim % p.atom->k != 0, a, bAt);
  }
  /// 32-bit registers a lane holds for one k step of an mt x nt block:
  /// mt A and nt B fragments and mt x nt accumulators, each split in two
  /// (hi and lo fragments; big and small accumulators).
  int64_t blockFragmentRegs(int64_t mt, int64_t nt) const {
    const MmaAtom &atom = *p.atom;
    const int64_t a = (atom.a.elems + 1) / 2, bf = (atom.b.elems + 1) / 2;
    return 2 * (mt * a + nt * bf + mt * nt * int64_t(atom.c.elems));
  }
  /// body(block, live) for the atom tiles of a rows x cols product dealt to
  /// the waves as blocks (forPieces, blockingOf's geometry).
  void forTileBlocks(int64_t rows, int64_t cols,
                     llvm::function_ref<void(const TileBlock &, Value)> body) {
    forTileBlockTrips(rows, cols, [&](const TileBlock &blk, Value live, Value) {
      body(blk, live);
    });
  }
  /// The same, body(block, live, trip) also given the wave's trip, so values
  /// a trip needs can be computed ahead of it by the same geometry (the
  /// update's decays). The trips stay a loop: written out, they took
  /// sm_90's 16-column scan from 110 to 166 registers.
  void forTileBlockTrips(
      int64_t rows, int64_t cols,
      llvm::function_ref<void(const TileBlock &, Value, Value)> body) {
    const Blocking bl = blockingOf(rows, cols);
    forPieceTrips(bl.count, [&](Value piece, Value live, Value trip) {
      body(blockOf(bl, piece), live, trip);
    });
  }
  /// How forTileBlocks deals a rows x cols product: `count` blocks of mt x
  /// nt atom tiles, blocksN a block row. Where the tiles are a whole
  /// multiple of the waves and a wave's share is at most the plan's
  /// maxBlockTiles, each wave takes one block of them, shaped as square as
  /// the tiles divide (nt first) within kBlockFragmentRegs; else single
  /// tiles.
  struct Blocking {
    int64_t mt = 1, nt = 1, blocksN = 1, count = 0;
    int64_t trips(int64_t waves) const { return (count + waves - 1) / waves; }
  };
  Blocking blockingOf(int64_t rows, int64_t cols) const {
    const MmaAtom &atom = *p.atom;
    const int64_t tilesR = rows / atom.m, tilesN = cols / atom.n;
    const int64_t tiles = tilesR * tilesN;
    Blocking bl;
    const int64_t perWave = tiles / p.waves;
    if (tiles % p.waves == 0 && perWave > 1 && perWave <= p.maxBlockTiles) {
      for (int64_t n = perWave; n >= 1; --n) {
        const int64_t m = perWave / n;
        if (perWave % n == 0 && tilesN % n == 0 && tilesR % m == 0 &&
            blockFragmentRegs(m, n) <= kBlockFragmentRegs &&
            (bl.mt * bl.nt == 1 || std::abs(n - m) < std::abs(bl.nt - bl.mt)))
          bl.nt = n, bl.mt = m;
      }
    }
    bl.blocksN = tilesN / bl.nt;
    bl.count = (tilesR / bl.mt) * bl.blocksN;
    return bl;
  }
  TileBlock blockOf(const Blocking &bl, Value piece) {
    return TileBlock{bl.mt, bl.nt,
                     mul(div(piece, bl.blocksN), idx(bl.mt * p.atom->m)),
                     mul(rem(piece, bl.blocksN), idx(bl.nt * p.atom->n))};
  }
  SplitFragment splitOperand(const MmaAtom &atom, MmaOperand operand,
                             Value row0, Value col0, const Operand &op) {
    if (op.held == Held::FragmentRuns) {
      // (row0, col0): the tile's origin in the B operand, k its row.
      assert(operand == MmaOperand::B && "W's runs are the B operand's");
      const RunLayout &rl = *p.wRuns;
      Value run = vector::LoadOp::create(
          b, loc, VectorType::get({rl.elems}, f32), op.mem,
          ValueRange{runOffset(b, loc, atom, rl, div(col0, rl.tileRows),
                               div(row0, atom.k), op.runKBlocks, lane)},
          /*nontemporal=*/false, llvm::MaybeAlign(4 * rl.elems));
      return runFragment(b, loc, atom, run);
    }
    if (op.mem) {
      // Every LDS array starts on 16 bytes (carve), the strides are padded
      // widths (multiples of 4) and every tile origin a multiple of the
      // atom's m, n or k (8 at least): 4 elements at a time may align.
      const unsigned align =
          (op.rowStride % 4 == 0 || op.rowStride == 1) &&
                  (op.colStride % 4 == 0 || op.colStride == 1)
              ? 4
              : 1;
      MemTile tile{
          op.mem,
          add(mul(row0, idx(op.rowStride)), mul(col0, idx(op.colStride))),
          idx(op.rowStride), idx(op.colStride), align};
      if (op.words()) {
        SmallVector<Value> words =
            loadFragmentElements(b, loc, atom, operand, tile, lane);
        return op.paired() ? pairWordsFragment(b, loc, atom, words)
                           : splitWordsFragment(b, loc, atom, words);
      }
      SmallVector<Value> elems =
          loadFragmentElements(b, loc, atom, operand, tile, lane);
      auto type = VectorType::get({int64_t(elems.size())}, f32);
      return splitFragment(b, loc, atom,
                           vector::FromElementsOp::create(b, loc, type, elems));
    }
    auto at = [&](OpBuilder &, Location, Value r, Value c) {
      return op.at(add(row0, r), add(col0, c));
    };
    if (op.paired()) // a builder bug, not an input error: fail loudly
      llvm::report_fatal_error("kda: pair words are read whole from LDS");
    if (op.words())
      return buildSplitFragment(b, loc, atom, operand, lane, at);
    return splitFragment(b, loc, atom,
                         buildFragment(b, loc, atom, operand, lane, at));
  }
  /// A field's chunk rows of `width` as an operand of split words: from
  /// their LDS buffer `buf` where the plan stages them, else by `at`.
  Operand rowsOperand(Value buf, int64_t width, At at) {
    return p.stageScan ? inLds(buf, stagedStride(buf, width), Held::SplitWords)
                       : words(std::move(at));
  }
  /// The fragment of an exact operand, in the atom's operand type.
  Value exactFragment(const MmaAtom &atom, MmaOperand operand, Value row0,
                      Value col0, const Operand &op) {
    const FragmentLayout &layout = layoutOf(atom, operand);
    SmallVector<Value> elems;
    for (unsigned e = 0; e < layout.elems; ++e) {
      auto [r, c] = fragmentCoords(b, loc, layout, lane, e);
      elems.push_back(op.at(add(row0, r), add(col0, c)));
    }
    return vector::FromElementsOp::create(
        b, loc, fragmentType(b.getContext(), atom, operand), elems);
  }
  /// The split word of `x` (see Operand).
  Value word(Value x) { return packSplitWord(b, loc, *p.atom, x); }
  Value fragment(MmaOperand operand, Value row0, Value col0, const At &at) {
    return buildFragment(b, loc, *p.atom, operand, lane,
                         [&](OpBuilder &, Location, Value r, Value c) {
                           return at(add(row0, r), add(col0, c));
                         });
  }
  /// sink(row, col, value) for each accumulator element of the tile at
  /// (row0, col0).
  void eachResult(Value acc, Value row0, Value col0,
                  llvm::function_ref<void(Value, Value, Value)> sink) {
    forEachFragmentElement(
        b, loc, *p.atom, MmaOperand::C, acc, lane,
        [&](OpBuilder &, Location, Value v, Value r, Value c) {
          sink(add(row0, r), add(col0, c), v);
        });
  }
  /// eachResult over every tile of `block` (accs in gemmBlock's order).
  void eachBlockResult(ArrayRef<Value> accs, const TileBlock &block,
                       llvm::function_ref<void(Value, Value, Value)> sink) {
    for (int64_t t = 0; t < block.tiles(); ++t) {
      auto [row0, col0] = tileOf(block, t);
      eachResult(accs[t], row0, col0, sink);
    }
  }
  /// Zero accumulators for every tile of `block`.
  SmallVector<Value> zeros(const TileBlock &block) {
    return SmallVector<Value>(block.tiles(), zeroAccumulator(b, loc, *p.atom));
  }
  /// Stores a live piece's results to workspace field `field` of the
  /// chunk's rows (masked rows are not stored), as split words if `asWords`.
  /// Where the atom's lanes hold adjacent columns of a row side by side
  /// (accumulatorPairsAlongRow) and the field's rows start on 8 bytes, a
  /// pair is one 8-byte store: one sector a row per warp store instead of
  /// two half-filled ones (ncu on the H200, 2026-12-03: W's and U's 4-byte
  /// stores were half of their sectors excessive). Measured on the H200
  /// (2026-12-03, one call, two rounds): the prep 0.520 -> 0.480 ms (1 x
  /// 8192 H32), 1.010 -> 0.930 (4 x 4096); A_qk's pairs (storeQkWords)
  /// then 0.477 / 0.920.
  void storeRows(Value acc, Value row0, Value col0, Value live, int64_t field,
                 bool asWords) {
    ifThen(live, [&] {
      SmallVector<Result> results = resultsOf(acc, row0, col0);
      if (asWords)
        for (Result &r : results)
          r.x = word(r.x);
      const bool pairs = recordPairs(field);
      for (size_t e = 0; e < results.size(); e += pairs ? 2 : 1) {
        const Result &r = results[e];
        ifThen(rowValid(r.i), [&] {
          Value at = recAt(rowToken(r.i), field, r.col);
          if (pairs)
            storeRecPair(r.x, results[e + 1].x, at);
          else
            store(r.x, ws, at);
        });
      }
    });
  }
  /// W's results of a block to the workspace in run order (ChunkPlan::
  /// wRuns): where two tiles side by side make a k block, each lane's two
  /// pairs of a row are one run, one 16-byte store (where split words took
  /// two 8-byte ones); else each pair's hi and lo pair words to their
  /// places.
  void storeWRuns(ArrayRef<Value> accs, const TileBlock &blk, Value live) {
    const RunLayout &rl = *p.wRuns;
    const int64_t k = p.atom->k, n = p.atom->n;
    // The word of pair (c, c + 1) within its block (markRecordRuns checked
    // the form).
    auto pairWord = [&](Value c) {
      Value i = div(rem(c, k), 2);
      return add(mul(rem(i, p.wRunsPerBlock()), idx(rl.elems)),
                 div(i, p.wRunsPerBlock()));
    };
    auto at = [&](Value row, Value c) {
      return recAt(rowToken(row), p.recW(),
                   add(mul(div(c, k), idx(k)), pairWord(c)));
    };
    const bool runs = blk.nt % 2 == 0 && 2 * n == k;
    ifThen(live, [&] {
      for (int64_t t = 0; t < blk.tiles(); t += runs ? 2 : 1) {
        auto [r0, c0] = tileOf(blk, t);
        SmallVector<Result> first = resultsOf(accs[t], r0, c0);
        if (runs) {
          // Tiles t and t + 1 are columns c0 and c0 + n of a block (the
          // block's tiles run along n from a multiple of k).
          auto [r1, c1] = tileOf(blk, t + 1);
          SmallVector<Result> second = resultsOf(accs[t + 1], r1, c1);
          for (size_t e = 0; e < first.size(); e += 2) {
            Value values = vector::FromElementsOp::create(
                b, loc, VectorType::get({4}, f32),
                ValueRange{first[e].x, first[e + 1].x, second[e].x,
                           second[e + 1].x});
            Value run = packRun(b, loc, *p.atom, values);
            ifThen(rowValid(first[e].i), [&] {
              vector::StoreOp::create(
                  b, loc, run, ws, ValueRange{at(first[e].i, first[e].col)},
                  /*nontemporal=*/false, llvm::MaybeAlign(16));
            });
          }
          continue;
        }
        for (size_t e = 0; e < first.size(); e += 2) {
          auto [hi, lo] =
              packPairWords(b, loc, *p.atom, first[e].x, first[e + 1].x);
          ifThen(rowValid(first[e].i), [&] {
            Value w = at(first[e].i, first[e].col);
            store(hi, ws, w);
            store(lo, ws, add(w, idx(rl.elems / 2)));
          });
        }
      }
    });
  }
  /// One accumulator element of a tile: its row, column and value.
  struct Result {
    Value i, col, x;
  };
  /// eachResult's elements of the tile at (row0, col0), in fragment order.
  SmallVector<Result> resultsOf(Value acc, Value row0, Value col0) {
    SmallVector<Result> results;
    eachResult(acc, row0, col0, [&](Value i, Value col, Value x) {
      results.push_back({i, col, x});
    });
    return results;
  }
  /// Whether record field `field` takes a lane's accumulator elements 2e and
  /// 2e + 1 as one 8-byte pair (storeRows): adjacent columns of a row
  /// (accumulatorPairsAlongRow) starting on 8 bytes.
  bool recordPairs(int64_t field) const {
    return accumulatorPairsAlongRow(*p.atom) && p.recFloats() % 2 == 0 &&
           field % 2 == 0;
  }
  /// x0, x1 as one 8-byte store at workspace element `at` (recordPairs).
  void storeRecPair(Value x0, Value x1, Value at) {
    Value two = vector::FromElementsOp::create(
        b, loc, VectorType::get({2}, f32), ValueRange{x0, x1});
    vector::StoreOp::create(b, loc, two, ws, ValueRange{at},
                            /*nontemporal=*/false, llvm::MaybeAlign(8));
  }
  /// The (row, column) of atom tile `tile` in an M x N product tiled by the
  /// atom, tiles numbered row-major.
  std::pair<Value, Value> tileOrigin(Value tile, int64_t n) {
    int64_t tilesN = n / p.atom->n;
    return {mul(div(tile, tilesN), idx(p.atom->m)),
            mul(rem(tile, tilesN), idx(p.atom->n))};
  }

  /// Flat views of the kernel's arguments, by their ABI names.
  void bindArguments(gpu::GPUFuncOp func);
  /// The kernel's LDS is its dynamic shared memory, cut into f32 arrays in
  /// order: beginLds, then carve(floats) per array.
  void beginLds();
  Value carve(int64_t floats);
  /// Views of element types `types` over the same `floats` x 4 bytes.
  SmallVector<Value> carveShared(int64_t floats, TypeRange types);
  /// The workgroup's place and the sequence's rows.
  void bindPlace(Value seq);
  /// A kernel over (column blocks, value heads, sequences): its arguments,
  /// place and first state column (col0), at the top of `func`.
  void bindColumnBlock(gpu::GPUFuncOp func);
  /// Index of float `field` of token `t`'s workspace record (head h).
  Value rec(Value t, int64_t field) {
    return add(mul(add(mul(t, idx(p.HV)), h), idx(p.recFloats())),
               idx(field));
  }
  Value recAt(Value t, int64_t field, Value i) { return add(rec(t, field), i); }
  /// The split scan's shape of sequence n (ChunkPlan::segChunks): its
  /// segments (segCount) and their chunks (segLen, the last one the rest).
  void bindSegments();
  /// The key of segment s of sequence n: its first row over segKeyTokens.
  Value segKey(Value s) {
    Value first = add(bos, mul(mul(s, segLen), idx(p.C)));
    return div(first, p.segKeyTokens());
  }
  /// Index of element (d, col) of [M | B] (K x (K + V), row-major) of the
  /// segment keyed `key`, head h: its block past the records.
  Value segAt(Value key, Value d, Value col) {
    Value block = add(mul(key, idx(p.HV)), h);
    return add(segBase,
               add(mul(add(mul(block, idx(p.K)), d), idx(p.K + p.V)), col));
  }
  /// Flat offset of S[kk][vv] of head h in slot `slot`.
  Value stateOffset(Value slot, Value kk, Value vv) {
    Value base = mul(add(mul(slot, idx(p.HV)), h), idx(p.K * p.V));
    if (layer.getStateLayout() == StateLayout::VK)
      return add(base, add(mul(vv, idx(p.K)), kk));
    return add(base, add(mul(kk, idx(p.V)), vv));
  }

  // prep steps.
  void prepRows();
  /// Whether the gate pass takes the rows' norms and beta (prepRows then
  /// does nothing): each row's runs are one cluster of adjacent lanes of
  /// one wave and every thread makes the same trips, so a row's sums are a
  /// cluster sum inside the pass - one memory latency a trip for the rows
  /// instead of a wave walking its rows one after another.
  bool normsInGatePass() const;
  /// The row factors of chunk row r (scale / |q_r|, 1 / |k_r|, beta; 0 on
  /// masked rows) from its sums of squares (null without l2norm), stored
  /// by the lanes where `writer`.
  /// `braw`: beta's raw value if already loaded, else the writer loads it.
  void storeRowFactors(Value r, Value qss, Value kss, Value writer,
                       Value braw = {});
  /// The sum of x over aligned clusters of `lanes` adjacent lanes (xor
  /// steps: every lane of a cluster gets the same bits).
  Value clusterSum(Value x, int64_t lanes);
  void prepGateCumsum();
  /// A_kk and A_qk, the diagonal blocks by atoms or pairwise.
  void prepIntraChunk(bool diagonal);
  /// Whether the chunk's gates let its diagonal blocks go by atoms
  /// (workgroup-uniform; ends with a barrier).
  Value chunkAnchorable();
  void prefetchChunkRows();
  void storeQkWords(Value acc, Value r0, Value c0, bool diagonal);
  bool intraStagesQ(int64_t pieces) const;
  void zeroIntra();
  /// The atom tiles of A_kk and A_qk of a prep piece (raw sums, in the
  /// block's tile order), anchored at row `anchor`.
  struct IntraTiles {
    SmallVector<Value> kk, qk;
  };
  IntraTiles intraTiles(const TileBlock &blk, Value anchor);
  void prepOperandWords();
  /// The chunk's V rows (masked rows 0) as U = T' V's B operand.
  Operand vRows();
  void prepDiagonal();
  void prepInverse();
  void prepWU();
  void prepDecayedRows();
  Value rowToken(Value r) { // the token of chunk row r (r < L)
    return add(chunkStart, r);
  }
  Value rowValid(Value r) { return lt(r, rows); }
  /// Chunk row r's token, clamped into the chunk so masked rows never
  /// address memory past the sequence.
  Value safeToken(Value r) {
    return add(chunkStart, select(rowValid(r), r, idx(0)));
  }
  Value gIdx(Value r, Value d) {
    return add(mul(r, idx(p.prepPadded(p.K))), d);
  }
  /// Index of (row, column of the block) in the scan's f32 state block
  /// (rows of blockV, padded), and in the word copies of the state and
  /// V_new without operandRuns.
  Value blockAt(Value r, Value col) {
    return add(mul(r, idx(p.padded(p.blockV))), col);
  }
  /// Index of (row, column of the block) in a word copy of `rows` rows -
  /// the state block's (rows = K) or V_new's (rows = C): blockAt's, or
  /// transposed with operandRuns.
  Value wordCopyAt(Value r, Value col, int64_t rows) {
    return p.operandRuns ? add(mul(col, idx(p.paddedK(rows))), r)
                         : blockAt(r, col);
  }
  /// A word copy of `rows` rows in LDS `mem` as the atoms' B operand.
  Operand wordCopyOperand(Value mem, int64_t rows) {
    return p.operandRuns ? inLds(mem, p.paddedK(rows), Held::SplitWords,
                                 /*transposed=*/true)
                         : inLds(mem, p.padded(p.blockV), Held::SplitWords);
  }
  /// The row stride of a staged buffer of the scan: U's rows are read by
  /// accumulator coordinates (padded), the others' as atom operands.
  int64_t stagedStride(Value buf, int64_t width) {
    return buf == ldsU ? p.padded(width) : p.paddedK(width);
  }
  Value aIdx(Value i, Value j) {
    return add(mul(i, idx(p.prepPadded(p.C))), j);
  }
  /// Element (i, m) of A's LDS block with a unit diagonal: T' = T + I once
  /// the inverse holds T's strictly lower part there.
  Value unitLower(Value i, Value m) {
    Value diag = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, i, m);
    return select(diag, f(1.0), load(ldsA, aIdx(i, m)));
  }
  /// G at (r, d) as prepGateCumsum holds it: its f32 rounding (gam) and
  /// the rest (gamLo, given the rounding).
  Value gam(Value r, Value d) { return load(ldsG, gIdx(r, d)); }
  Value loIdx(Value r, Value d) {
    return p.gLoBytes == 4 ? add(mul(r, idx(p.gLoStride())), d)
                           : add(mul(d, idx(p.gLoStride())), r);
  }
  Value gamLo(Value r, Value d, Value hi) {
    return restOf(hi, load(ldsGLo, loIdx(r, d)));
  }
  /// G_i - G_j from both parts: the roundings' difference is exact where
  /// they are close (Sterbenz), so a small fall after a large one keeps its
  /// own precision (prepGateCumsum).
  Value fallOf(Value hiI, Value loI, Value hiJ, Value loJ) {
    return fadd(fsub(hiI, hiJ), fsub(loI, loJ));
  }
  Value fall(Value i, Value j, Value d) {
    Value hiI = gam(i, d), hiJ = gam(j, d);
    return fallOf(hiI, gamLo(i, d, hiI), hiJ, gamLo(j, d, hiJ));
  }
  /// The rest of G's rounding `hi` as the LDS holds it (gLoBytes), and back.
  /// As an i8: rest x 2^(158 - E) for hi's biased exponent E (ulp(hi) =
  /// 2^(E - 150), |rest| <= ulp / 2, so within +-128, clamped to 127), 0
  /// where E < 32 (|hi| < 2^-95: its rest is below anything a factor
  /// resolves) or hi is not finite (its rest is 0).
  Value storedRest(Value hi, Value rest);
  Value restOf(Value hi, Value stored);
  /// Column d's stored rests of rows r0, r0 + 1, ...: an f32 a row, or i8s
  /// 4 rows a word (a word is one thread's: no two threads write bytes of
  /// one word, which real LDS allows but the emulator's race shadow, a word
  /// at a time, would flag).
  void storeRests(ArrayRef<Value> rests, Value r0, Value d);
  /// hi's biased exponent, and 2^(n - 127) for a biased exponent n in
  /// [1, 254] (0.0 for n = 0), as i32 bits.
  Value biasedExponent(Value hi);
  Value powerOfTwo(Value n);
  Value qkElem(Value mem, Value r, Value d) {
    return loadF(mem, add(qkRow(safeToken(r)), d));
  }
  /// scale * q_r / |q_r| and k_r / |k_r| (0 on masked rows).
  Value qs(Value r, Value d) {
    return select(rowValid(r), fmul(qkElem(q, r, d), load(ldsRowQ, r)), f(0));
  }
  Value kn(Value r, Value d) {
    return select(rowValid(r), fmul(qkElem(k, r, d), load(ldsRowK, r)), f(0));
  }
  /// k's element (r, d) / run at d0, from its staged rows where the plan
  /// stages them (masked rows are zeros there).
  Value kAct(Value r, Value d) {
    if (!p.stageActs)
      return qkElem(k, r, d);
    return loadF(ldsK, add(mul(r, idx(p.actStride())), d));
  }
  /// q's element (r, d) for A_qk's fragments: from its rows staged in A's
  /// bytes while prepIntraChunk has them there (qStaged), else global.
  Value qAct(Value r, Value d) {
    if (!qStaged)
      return qkElem(q, r, d);
    return loadF(ldsQ, add(mul(r, idx(p.actStride())), d));
  }
  SmallVector<Value> kRowRun(Value r, Value d0) {
    if (!p.stageActs)
      return qkRun(k, r, d0);
    return loadRun(ldsK, add(mul(r, idx(p.actStride())), d0),
                   runAlign(ldsK, {p.actStride()}));
  }
  /// The run at column c0 of an activation row of `width` starting at
  /// element `rowStart` of `src`, as it is (no widening), and its store
  /// into row r of a staged copy `dst` (rows of actStride; a masked row's
  /// as zeros).
  Value loadActRun(Value src, Value rowStart, Value c0, int64_t width);
  void storeActRun(Value run, Value dst, Value r, Value c0);
  /// The chunk's rows of `src` (row of token t at element rowStart(t), of
  /// `width`) staged into `dst`: every run a thread copies is loaded before
  /// any is stored (one memory latency, not one a trip; ncu, H200: v's
  /// staging a run at a time waited on its loads for 4% of the prep).
  void stageActRows(Value src, Value dst, int64_t width,
                    llvm::function_ref<Value(Value)> rowStart);
  /// Row r of k / v starts at element qkRow(t) / vRow(t) of its tensor.
  Value qkRow(Value t) { return mul(add(mul(t, idx(p.H)), hq), idx(p.K)); }
  Value vRow(Value t) { return mul(add(mul(t, idx(p.HV)), h), idx(p.V)); }
  Value gRow(Value t) { return mul(add(mul(t, idx(p.HV)), h), idx(p.K)); }
  /// Runs (forRowRuns) of the same: rows of q, k and g start at multiples
  /// of K, G's at multiples of its padded width, a workspace field at
  /// multiples of the record.
  SmallVector<Value> qkRun(Value mem, Value r, Value d0) {
    return loadRun(mem, add(qkRow(safeToken(r)), d0), runAlign(mem, {p.K}));
  }
  SmallVector<Value> gamRun(Value r, Value d0) {
    return loadRun(ldsG, gIdx(r, d0), gAlign());
  }
  /// The rest's run at (r, d0), given the rounding's run `hi`.
  SmallVector<Value> gamLoRun(Value r, Value d0, ArrayRef<Value> hi) {
    if (p.gLoBytes == 4) // along a row, as G; restOf is then the identity
      return loadRun(ldsGLo, loIdx(r, d0), runAlign(ldsGLo, {p.gLoStride()}));
    SmallVector<Value> rest; // down a column: one byte a column
    for (int64_t e = 0; e < kRun; ++e)
      rest.push_back(gamLo(r, add(d0, idx(e)), hi[e]));
    return rest;
  }
  unsigned gAlign() { return runAlign(ldsG, {p.prepPadded(p.K)}); }
  unsigned aAlign() { return runAlign(ldsA, {p.prepPadded(p.C)}); }
  void storeRec(ArrayRef<Value> run, Value t, int64_t field, Value d0) {
    storeRun(run, ws, recAt(t, field, d0),
             runAlign(ws, {p.recFloats(), field}));
  }

  // register-state scan (ChunkPlan::regState).
  /// The scan with its state in registers: the state's slabs loaded, the
  /// chunk loop, the slabs stored.
  void emitRegisterScan();
  /// Chunk c (of `chunks`) from the wave's state slab `s` (tiles); the
  /// next slab. Two phases, a barrier after each: the compute waves take
  /// the products of S, then those of V_new, while the staging waves bring
  /// the rows the next phase reads into buffers the current one does not.
  SmallVector<Value> registerScanChunk(Value c, Value chunks,
                                       ArrayRef<Value> s);
  // warpgroup scan (ChunkPlan::warpgroup).
  /// The scan on the warpgroup atom: S^T loaded into registers, the chunk
  /// loop, S^T stored.
  void emitWarpgroupScan();
  /// Chunk c (of `chunks`) from the thread's S^T registers `s` (row r, k =
  /// 4 i + t at r K / 4 + i); the next ones. Phase 1: X = S^T W^T and Y =
  /// S^T (q o exp G)^T, V_new^T = U^T - X, while chunk c's A_qk, k o
  /// exp(G_last - G) and exp(G_last) land; phase 2: O^T = Y + V_new^T
  /// A_qk^T stored, S^T = S^T diag(exp G_last) + V_new^T (k o exp(G_last -
  /// G)), while chunk c + 1's W, q o exp G and U land.
  SmallVector<Value> warpgroupChunk(Value c, Value chunks, ArrayRef<Value> s);
  /// Chunk c's rows of phase 1 (W, q o exp G, U) or of phase 2 (A_qk, k o
  /// exp(G_last - G), exp(G_last)), placed where the atoms read them.
  void stageWarpgroupRows(Value c, bool phase1);
  /// The A fragments of a product with a split-word B read k doubled: of
  /// four values (pair P of the fragment: row half P mod 2, k half P div
  /// 2), (hi, hi) pairs and (lo, 0) pairs.
  std::pair<Value, Value> doubledA(ArrayRef<Value> vals);
  /// The k' steps [0, steps) of a product read k doubled, `batch` steps at
  /// a time: their A fragments (doubledA of valuesOf(j)) and B offsets
  /// first, then their atoms back to back (issue(hi, lo, byte offset)), so
  /// a batch takes one wgmma.fence (markWgmmaChains).
  void doubledSteps(int64_t steps, int64_t batch,
                    llvm::function_ref<SmallVector<Value>(int64_t)> valuesOf,
                    llvm::function_ref<void(Value, Value, Value)> issue);
  /// A workspace field's chunk rows staged into an LDS array.
  struct StagedField {
    Value buf;
    int64_t field;
    Value from;
    int64_t width, stride;
    /// Self-staged pieces: where the piece of row r, column x lands
    /// (elements of buf; by default r stride + x), and whether it is
    /// copied beside its row being in the chunk (else 16 zero bytes; by
    /// default every piece of such a row).
    std::function<Value(Value, Value)> place = nullptr, keep = nullptr;
    /// Elements a placed piece moves when its row moves 8 on (0: place
    /// every row): a thread's pieces 8 k rows apart are then one base plus
    /// constants (kda.copy_piece's lowering carries them as immediates).
    int64_t placeRows8 = 0;
  };
  /// The staging waves copy chunk c's rows of `fields` (masked rows zero).
  void stageChunkFields(Value c, ArrayRef<StagedField> fields);
  /// ... exp(G_last) of chunk c, and the rows phase 1 reads (W,
  /// q o exp G and, unsplit, U) of chunk c.
  void stageExpGLast(Value c);
  void stagePhase1Rows(Value c);
  /// U's block of columns, staged (ChunkPlan::stageU).
  StagedField uField() {
    return {ldsU, p.recU(), uCol0, p.blockV,
            ChunkPlan::regStride(p.blockV, true)};
  }
  /// Row d of the wave's slab as a row of K.
  Value slabRowOf(Value d) { return slabRow0 ? add(slabRow0, d) : d; }
  /// The wave's slab (TileLayer's slabs: the scan's atom and identity).
  SlabLayout slab() const { return {p.atom, p.slab, lane}; }
  /// One term of slabProducts: acc += L X, L (acc's length x kLen) of
  /// split words in LDS `mem` with row stride `stride`: L(i, kk) at
  /// mem[i stride + kk], or at mem[kk stride + i] `byColumn`; `lower`: L is
  /// lower triangular (k steps past a tile's last row skipped).
  /// `kOffset` / `rowOffset`: L's k / rows start there in `mem` (a K
  /// part's share of W's columns, of k o exp(G_last - G)'s rows).
  struct SlabTerm {
    SmallVector<Value> *acc;
    Value mem;
    int64_t stride;
    bool byColumn = false, lower = false;
    Value kOffset = Value(), rowOffset = Value();
    Held held = Held::SplitWords; // how `mem` holds L (W's runs aside)
  };
  /// Every term's acc += L X for the slab X (`x`, kLen rows): X's k steps
  /// are the operand the slab's identity gives (natural: B, L as A;
  /// transposed: X^T as A, L^T as B), each split once for all the terms.
  void slabProducts(ArrayRef<Value> x, int64_t kLen, ArrayRef<SlabTerm> terms);
  /// The K parts' partial products of S (kSplit > 1): `which` (0: W S,
  /// 1: (q o exp G) S) of part (compute wave) `w`, element (i, col), in
  /// ldsXs.
  Value partialAt(int64_t which, Value w, Value i, Value col);
  /// The sum over the K parts, in part order (every part adds the same
  /// values in the same order).
  SmallVector<Value> sumParts(int64_t which);

  // scan steps.
  /// Chunk c of the sequence; with `ringSlot`, its W rows and U columns
  /// are read from that slot of the row pipeline's ring.
  void scanChunk(Value c, Value ringSlot = Value());
  /// The chunk loop as a kda.pipeline over the ring, expanded and verified.
  LogicalResult emitChunkPipeline(Value chunks);
  /// The produce body: chunk `iter`'s rows into ring slot `slot`.
  void copyChunkRows(Value iter, Value slot);
  /// exp(G_last) for each element of this lane's update accumulators, per
  /// trip of forTileBlockTrips(K, blockV) and tile of its block.
  SmallVector<SmallVector<Value>> updateDecays();
  /// The next chunk's workspace records toward L2 (kda.prefetch_row).
  /// The records of the C tokens from `next` toward L2, one a thread:
  /// thread `thread` (of the workgroup, or of the register scan's staging
  /// waves, ChunkPlan::regPrefetch) takes token next + thread.
  void prefetchChunkRecords(Value next, Value thread);
  /// W and U of the current chunk from ring slot `slot`.
  std::pair<At, At> ringRows(Value slot);
  /// This thread's 16-byte pieces of the chunk rows of `width` floats from
  /// column `from` of workspace field `field` (piece i = base + tid +
  /// j x threads, row i / (width / 4)), loaded and not yet stored.
  /// Who copies a chunk's rows, and which chunk: thread `thread` of the
  /// `threads` copying threads, the chunk's first token `start` and its
  /// `valid` rows. The whole workgroup on the current chunk (byWorkgroup),
  /// or the register scan's staging waves on any chunk.
  struct RowCopy {
    Value thread;
    int64_t threads;
    Value start, valid;
  };
  RowCopy byWorkgroup() {
    return {tid, int64_t(p.threads()), chunkStart, rows};
  }
  /// One 16-byte piece of a field's chunk rows, loaded: its row r and
  /// column x, and `in` where the piece index may pass the rows' end (a
  /// clamped piece is loaded and never stored).
  struct Piece {
    Value in, r, x, value;
    bool zeroed = false; // value is already 0 on rows past the valid ones
  };
  /// Piece `i` (r = i / (width / 4)) of field `field` from column `from`,
  /// its token clamped into the chunk; `mayPass` adds the range test.
  Piece loadPiece(const RowCopy &by, int64_t field, Value from, int64_t width,
                  Value i, bool mayPass);
  /// A thread's pieces base + thread + j x threads of a field's chunk rows
  /// (base a multiple of the threads), where a row's pieces divide the
  /// threads: one column of rows rowsPerTrip apart, so their record
  /// indices are `first` plus constants. The register scan's staging waves
  /// load this way (stageChunkFields); the LDS scan's loadPieces does not
  /// (its pipelined form on gfx950 took 126 -> 132 VGPRs, 4 -> 3 waves a
  /// SIMD, with it, and sm_90's PTX kept its multiplies: the ring's copies
  /// are its staging). Each piece's own row, column and
  /// clamped token index took 15 of a staging thread's 21 instructions a
  /// piece (ncu, H200, the maps of 1 x 32768 H8: staging waves busy 93% of
  /// the time, compute waves 64%); the staging sets every register scan's
  /// pace. Measured on the H200 (2026-12-03, one call, two rounds): scans
  /// 0.831 -> 0.582 ms (1 x 8192 H32), 0.90 -> 0.71 (4 x 4096), maps 0.80
  /// -> 0.485 and segments 0.46 -> 0.357 (1 x 32768 H8).
  struct PieceColumn {
    Value r0, x, first;
    int64_t rowsPerTrip;
  };
  std::optional<PieceColumn> pieceColumn(const RowCopy &by, int64_t field,
                                         Value from, int64_t width, Value base);
  /// Piece j of `col`. A masked row's piece is not loaded: zeros, from a
  /// branch (a clamped index kept live beside the base spilled on gfx950).
  Piece loadColumnPiece(const RowCopy &by, const PieceColumn &col, int64_t j,
                        bool mayPass);
  /// The LDS offset of W's piece at column x of chunk row r, in run order.
  Value runSlot(Value r, Value x);
  /// Self-staged: the calling thread's piece j of field `f`'s chunk rows
  /// (thread + j x threads in row-major piece order) copied by the chip's
  /// per-thread async atom to its place in f.buf (its run slot where W is
  /// in run order), zeros on rows past the chunk's valid ones.
  /// `col`: the thread's column of the field's pieces (pieceColumn), where
  /// a row's pieces divide the threads.
  void copyPiece(const RowCopy &by, const StagedField &f, int64_t j,
                 const PieceColumn *col);
  /// Stores a loaded piece at row r of `buf` (rows `stride` floats apart),
  /// zeros for rows past the chunk's valid ones.
  void storePiece(const RowCopy &by, Value buf, int64_t stride,
                  const Piece &piece);
  /// Stores a loaded piece of W's record rows (in run order) to its run's
  /// slot in `buf` (ChunkPlan::wRuns).
  void storeRunPiece(const RowCopy &by, Value buf, const Piece &piece);
  /// What both share: the piece (zeros past the valid rows) at element
  /// at() of `buf`.
  void storePieceAt(const RowCopy &by, Value buf, const Piece &piece,
                    llvm::function_ref<Value()> at);
  struct PendingRows {
    int64_t field, width;
    Value from;
    bool deferred = true; // nothing loaded: stagePending stages them itself
    SmallVector<Piece> pieces;
  };
  /// Loads `n` pieces after `base` into `rows` (the whole workgroup, the
  /// current chunk); a trip j that `mayPass` past the rows' end loads a
  /// clamped piece and is never stored.
  void loadPieces(PendingRows &rows, Value base, int64_t n,
                  llvm::function_ref<bool(int64_t)> mayPass);
  /// Stores the loaded pieces into `buf` (C x width, LDS), masked rows zero.
  void storePieces(Value buf, const PendingRows &rows);
  /// Copies a field's chunk rows into `buf`: one coalesced pass, loaded in
  /// batches of kPiecesInFlight before they are stored (measured on the
  /// H200: one load at a time made the staging a chain of memory latencies).
  void stageRows(Value buf, int64_t field, Value from, int64_t width);
  /// Element (row, x) of the rows in `buf`.
  At stagedAt(Value buf, int64_t width);
  /// Element (row, x) of those rows: from `buf` after staging them when the
  /// plan stages (the caller then needs a barrier), else straight from the
  /// workspace.
  At chunkRows(Value buf, int64_t field, Value from, int64_t width);
  /// A field's chunk rows loaded into registers ahead of their staging, so
  /// their memory latency passes behind the products that still read the
  /// LDS buffer they go to; `stagePending` stores them once those reads are
  /// done. Deferred (a plain chunkRows then) where the plan does not stage
  /// or a thread's share exceeds one batch.
  PendingRows issueRows(int64_t field, Value from, int64_t width);
  /// Stores `rows` into `buf` (or stages them now if deferred) and gives
  /// their elements as chunkRows does; the caller then needs a barrier.
  At stagePending(Value buf, PendingRows &rows);

  OpBuilder &b;
  Location loc;
  const ChunkPlan &p;
  ChunkStageOp op;
  const TargetInfo &target;
  LayerAttr layer;
  Type f32;
  Value tid, lane, wave, h, hq, n, bos, eos, slot;
  Value chunkStart, rows; // the chunk's first token and its rows (<= C)
  // LDS views (prep: G, A, row factors; scan: state block, V_new).
  Value ldsG, ldsGLo, ldsA, ldsT, ldsRowQ, ldsRowK, ldsRowB, ldsS, ldsSw, ldsVn;
  Value ldsK, ldsV;        // prep: the staged k rows, then v rows, in one area
  Value ldsQ; // prep: q's rows staged in A's bytes for the k loops (or null)
  bool qStaged = false;    // prep: A_qk's q fragments read ldsQ (qAct)
  Value ldsX, ldsU, ldsAq; // scan: staged chunk rows
  Value ldsQg, ldsKd, ldsGl; // register scan: its own staged rows
  Value computes;            // register scan: this wave holds a slab (or null)
  Value slabCol0;            // register scan: its first column in the block
  Value slabRow0; // register scan split along K: its first row (else null)
  Value slabIdx;  // register scan split along K: its column slab
  Value ldsXs;               // register scan: the K parts' partial products
  // warpgroup scan: the i8 views the atoms read (same bytes as ldsX, ldsQg,
  // ldsKd, ldsAq), the thread's quad column t and its first block column.
  Value wgW, wgQg, wgKd, wgAq, wgT, wgRow;
  const MmaAtom *wg64 = nullptr, *wg128 = nullptr;
  FlatSymbolRefAttr ring;  // scan: the row pipeline's kda.lds_buffer
  Value ringMem;           // scan: its bytes (a view of the dynamic LDS)
  Value col0; // scan: the workgroup's first state column
  /// Split scan: the workgroup's segment (maps, segments), the sequence's
  /// segments and their chunks (bindSegments), the segment's chunks.
  Value seg, segCount, segLen, segFirst, segEnd;
  Value segBase; // the segments' blocks: past the batch's records
  /// The register scan's first column of U (maps: B's block less K; 0 in
  /// M's blocks, where uZero holds and U is taken as 0).
  Value uCol0, uZero;
  Value dynLds;          // the dynamic shared memory (beginLds)
  int64_t dynOffset = 0; // bytes of it carved so far
  // Arguments.
  Value q, k, v, g, beta, aLog, dtBias, cu, slots, hasInit, state, out, ws;
};

void ChunkEmitter::bindArguments(gpu::GPUFuncOp func) {
  Block &entry = func.getBody().front();
  Value huge = idx(int64_t(1) << 40);
  auto abi = func->getAttrOfType<ArrayAttr>(kAbiAttrName);
  for (auto [i, a] : llvm::enumerate(abi)) {
    BlockArgument arg = entry.getArgument(i);
    auto type = cast<MemRefType>(arg.getType());
    auto flat = MemRefType::get({ShapedType::kDynamic}, type.getElementType());
    Value view = memref::ReinterpretCastOp::create(
        b, loc, flat, arg, OpFoldResult(b.getIndexAttr(0)),
        ArrayRef<OpFoldResult>{huge},
        ArrayRef<OpFoldResult>{b.getIndexAttr(1)});
    StringRef name = cast<KernelArgAttr>(a).getName();
    Value *slotFor = llvm::StringSwitch<Value *>(name)
                         .Case("q", &q)
                         .Case("k", &k)
                         .Case("v", &v)
                         .Case("g", &g)
                         .Case("beta", &beta)
                         .Case("a_log", &aLog)
                         .Case("dt_bias", &dtBias)
                         .Case("cu_seqlens", &cu)
                         .Case("slots", &slots)
                         .Case("has_initial_state", &hasInit)
                         .Case("state", &state)
                         .Case("out", &out)
                         .Case("workspace", &ws)
                         .Default(nullptr);
    assert(slotFor && "the chunk kernels' ABI names only known operands");
    *slotFor = view;
  }
  if (!op.getALog())
    aLog = Value();
  if (!op.getDtBias())
    dtBias = Value();
}

void ChunkEmitter::beginLds() {
  auto space = gpu::AddressSpaceAttr::get(b.getContext(),
                                          gpu::AddressSpace::Workgroup);
  auto bytes =
      MemRefType::get({ShapedType::kDynamic}, b.getI8Type(), nullptr, space);
  dynLds = gpu::DynamicSharedMemoryOp::create(b, loc, bytes);
  dynOffset = 0;
}

Value ChunkEmitter::carve(int64_t floats) {
  assert(dynOffset % 16 == 0 && "LDS arrays start on 16 bytes (inLds)");
  auto space = gpu::AddressSpaceAttr::get(b.getContext(),
                                          gpu::AddressSpace::Workgroup);
  auto type = MemRefType::get({floats}, f32, nullptr, space);
  Value view = memref::ViewOp::create(b, loc, type, dynLds, idx(dynOffset),
                                      ValueRange{});
  dynOffset += 4 * floats;
  return view;
}

SmallVector<Value> ChunkEmitter::carveShared(int64_t floats, TypeRange types) {
  assert(dynOffset % 16 == 0 && "LDS arrays start on 16 bytes (inLds)");
  auto space =
      gpu::AddressSpaceAttr::get(b.getContext(), gpu::AddressSpace::Workgroup);
  SmallVector<Value> views;
  for (Type t : types) {
    auto type = MemRefType::get({4 * floats * 8 / t.getIntOrFloatBitWidth()}, t,
                                nullptr, space);
    views.push_back(memref::ViewOp::create(b, loc, type, dynLds, idx(dynOffset),
                                           ValueRange{}));
  }
  dynOffset += 4 * floats;
  return views;
}

Value ChunkEmitter::biasedExponent(Value hi) {
  Value bits = arith::BitcastOp::create(b, loc, b.getI32Type(), hi);
  return arith::AndIOp::create(
      b, loc, arith::ShRUIOp::create(b, loc, bits, i32(23)), i32(255));
}

Value ChunkEmitter::powerOfTwo(Value n) {
  return arith::BitcastOp::create(b, loc, f32,
                                  arith::ShLIOp::create(b, loc, n, i32(23)));
}

Value ChunkEmitter::storedRest(Value hi, Value rest) {
  if (p.gLoBytes == 4)
    return rest;
  Value e = biasedExponent(hi);
  Value inRange = arith::AndIOp::create(
      b, loc,
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, e, i32(32)),
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sle, e, i32(254)));
  // 2^(158 - E): biased 285 - E, in [31, 253] where in range; else 0.0.
  Value scale = powerOfTwo(
      select(inRange, arith::SubIOp::create(b, loc, i32(285), e), i32(0)));
  Value units = math::RoundEvenOp::create(b, loc, fmul(rest, scale));
  Value q = arith::FPToSIOp::create(b, loc, b.getI32Type(), units);
  q = arith::MaxSIOp::create(
      b, loc, arith::MinSIOp::create(b, loc, q, i32(127)), i32(-127));
  return arith::TruncIOp::create(b, loc, b.getI8Type(), q);
}

void ChunkEmitter::storeRests(ArrayRef<Value> rests, Value r0, Value d) {
  if (p.gLoBytes == 4) {
    for (size_t e = 0; e < rests.size(); ++e)
      store(rests[e], ldsGLo, loIdx(add(r0, idx(e)), d));
    return;
  }
  assert(rests.size() % 4 == 0 && "whole words of rows");
  auto word = VectorType::get({4}, b.getI8Type());
  for (size_t e = 0; e < rests.size(); e += 4)
    vector::StoreOp::create(
        b, loc, vector::FromElementsOp::create(b, loc, word, rests.slice(e, 4)),
        ldsGLo, ValueRange{loIdx(add(r0, idx(e)), d)}, /*nontemporal=*/false,
        llvm::MaybeAlign(4));
}

Value ChunkEmitter::restOf(Value hi, Value stored) {
  if (p.gLoBytes == 4)
    return stored;
  // 2^(E - 158): biased E - 31, 0.0 where E < 32 (stored 0 there).
  Value n = arith::MaxSIOp::create(
      b, loc, arith::SubIOp::create(b, loc, biasedExponent(hi), i32(31)),
      i32(0));
  return fmul(arith::SIToFPOp::create(b, loc, f32, stored), powerOfTwo(n));
}

Value ChunkEmitter::loadActRun(Value src, Value rowStart, Value c0,
                               int64_t width) {
  Type elem = cast<MemRefType>(src.getType()).getElementType();
  return vector::LoadOp::create(
      b, loc, VectorType::get({kRun}, elem), src, ValueRange{add(rowStart, c0)},
      /*nontemporal=*/false, llvm::MaybeAlign(runAlign(src, {width})));
}

void ChunkEmitter::stageActRows(Value src, Value dst, int64_t width,
                                llvm::function_ref<Value(Value)> rowStart) {
  const int64_t runs = width / kRun;
  struct Loaded {
    Value in, r, c0, run;
  };
  SmallVector<Loaded> loaded;
  forThreadTrips(p.C * runs, [&](Value i, Value in) {
    Value r = div(i, runs), c0 = mul(rem(i, runs), idx(kRun));
    loaded.push_back(
        {in, r, c0, loadActRun(src, rowStart(safeToken(r)), c0, width)});
  });
  for (const Loaded &l : loaded) {
    if (l.in)
      ifThen(l.in, [&] { storeActRun(l.run, dst, l.r, l.c0); });
    else
      storeActRun(l.run, dst, l.r, l.c0);
  }
}

void ChunkEmitter::storeActRun(Value run, Value dst, Value r, Value c0) {
  auto type = cast<VectorType>(run.getType());
  Value zeros = arith::ConstantOp::create(b, loc, type, b.getZeroAttr(type));
  vector::StoreOp::create(b, loc, select(rowValid(r), run, zeros), dst,
                          ValueRange{add(mul(r, idx(p.actStride())), c0)},
                          /*nontemporal=*/false,
                          llvm::MaybeAlign(runAlign(dst, {p.actStride()})));
}

void ChunkEmitter::bindPlace(Value seq) {
  tid = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  lane = gpu::LaneIdOp::create(b, loc, b.getIndexAttr(p.waveSize));
  wave = div(tid, p.waveSize);
  h = gpu::BlockIdOp::create(b, loc, gpu::Dimension::y);
  if (p.segmented()) {
    seg = div(h, p.HV);
    h = rem(h, p.HV);
  }
  hq = div(h, p.G);
  n = seq;
  bos = toIndex(load(cu, n));
  eos = toIndex(load(cu, add(n, idx(1))));
  slot = toIndex(load(slots, n));
}

void ChunkEmitter::bindColumnBlock(gpu::GPUFuncOp func) {
  b.setInsertionPointToStart(&func.getBody().front());
  bindArguments(func);
  bindPlace(gpu::BlockIdOp::create(b, loc, gpu::Dimension::z));
  col0 = mul(gpu::BlockIdOp::create(b, loc, gpu::Dimension::x), idx(p.blockV));
}

void ChunkEmitter::bindSegments() {
  Value tokens =
      toIndex(load(cu, gpu::GridDimOp::create(b, loc, gpu::Dimension::z)));
  segBase = mul(tokens, idx(p.HV * p.recFloats()));
  Value chunks = div(add(sub(eos, bos), idx(p.C - 1)), p.C);
  Value parts =
      arith::MaxUIOp::create(b, loc, div(chunks, p.segChunks), idx(1));
  segCount = arith::MinUIOp::create(b, loc, parts, idx(kMaxSegments));
  segLen = arith::DivUIOp::create(b, loc, chunks, segCount);
  if (!seg)
    return;
  // Segment seg's chunks: segLen of them, the last segment the rest.
  Value last = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, seg,
                                     sub(segCount, idx(1)));
  segFirst = mul(seg, segLen);
  segEnd = select(last, chunks, add(segFirst, segLen));
}

//===----------------------------------------------------------------------===//
// prep
//===----------------------------------------------------------------------===//

// Per chunk row: the q and k normalisation factors (scale folded into q's)
// and beta; masked rows get 0. A wave per row: its lanes read the row's
// head_k columns (coalesced) and the wave sums the squares (one thread a
// row made each row 2 x head_k dependent loads).
void ChunkEmitter::prepRows() {
  if (normsInGatePass())
    return;
  const int64_t per = (p.K + p.waveSize - 1) / p.waveSize;
  forPieces(p.C, [&](Value r, Value live) {
    Value qss, kss;
    if (layer.getQkL2norm()) {
      auto sumSq = [&](Value mem) {
        Value acc = f(0);
        for (int64_t e = 0; e < per; ++e) {
          Value d = add(lane, idx(e * p.waveSize));
          Value in = lt(d, idx(p.K));
          Value x = qkElem(mem, r, select(in, d, idx(0)));
          acc = fadd(acc, select(in, fmul(x, x), f(0)));
        }
        return waveSum(acc);
      };
      qss = sumSq(q), kss = sumSq(k);
    }
    Value first =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, lane, idx(0));
    storeRowFactors(r, qss, kss, arith::AndIOp::create(b, loc, live, first));
  });
}

bool ChunkEmitter::normsInGatePass() const {
  const int64_t runs = p.K / kRun;
  return llvm::isPowerOf2_64(runs) && p.waveSize % runs == 0 &&
         (p.C * runs) % p.threads() == 0;
}

void ChunkEmitter::storeRowFactors(Value r, Value qss, Value kss, Value writer,
                                   Value braw) {
  Value qf = f(layer.getEffectiveScale()), kf = f(1.0);
  if (qss) {
    // eps inside the sqrt, as the oracle and fla do.
    auto inv = [&](Value ss) {
      return arith::DivFOp::create(
          b, loc, f(1.0), math::SqrtOp::create(b, loc, fadd(ss, f(1e-6))));
    };
    qf = fmul(qf, inv(qss));
    kf = inv(kss);
  }
  ifThen(writer, [&] {
    Value valid = rowValid(r);
    Value bv = braw ? braw : loadF(beta, add(mul(safeToken(r), idx(p.HV)), h));
    store(select(valid, qf, f(0)), ldsRowQ, r);
    store(select(valid, kf, f(0)), ldsRowK, r);
    store(select(valid, emitBeta(b, loc, layer, bv), f(0)), ldsRowB, r);
  });
}

Value ChunkEmitter::clusterSum(Value x, int64_t lanes) {
  auto i32 = [&](int64_t v) {
    return arith::ConstantIntOp::create(b, loc, v, 32);
  };
  for (int64_t o = 1; o < lanes; o *= 2)
    x = fadd(x, gpu::ShuffleOp::create(b, loc, x, i32(o), i32(p.waveSize),
                                       gpu::ShuffleMode::XOR)
                    .getShuffleResult());
  return x;
}

// G[r][d] = log2(e) x the sum over rows <= r of the gate (base 2: every
// factor built from G is one exp2); masked rows add 0, so G of a masked
// row is G of the chunk's last row.
void ChunkEmitter::prepGateCumsum() {
  Value expALog;
  if (aLog)
    expALog = emitExpALog(b, loc, loadF(aLog, h));
  const bool norms = normsInGatePass(), l2norm = layer.getQkL2norm();
  const bool loadK = p.stageActs || (norms && l2norm), loadQ = norms && l2norm;
  const int64_t runs = p.K / kRun, count = p.C * runs;
  // Trip i's global loads (g, dt_bias, k, q, beta), raw: issued one trip
  // ahead and carried by the loop, so that a trip's math waits on loads
  // issued a whole trip earlier. Issued in the trip that uses them (as
  // before), each trip waited a memory latency on g, and ptxas moved
  // beta's load, used only by a row's first lane, past the norms'
  // shuffles: a second latency a trip (ncu, H200, 2026-12-04, 1 x 8192
  // H32: the two loads' consumers took 8% of the prep's warp samples). A
  // trip past the block (the prefetch of a thread's last trip) loads
  // trip 0's addresses: in bounds, never used.
  auto place = [&](Value i) {
    return std::make_pair(div(i, runs), mul(rem(i, runs), idx(kRun)));
  };
  auto issue = [&](Value i) {
    auto [r, d0] = place(select(lt(i, idx(count)), i, idx(0)));
    Value t = safeToken(r);
    SmallVector<Value> raw;
    raw.push_back(loadVector(g, add(gRow(t), d0), runAlign(g, {p.K})));
    if (dtBias)
      raw.push_back(loadVector(dtBias, add(mul(h, idx(p.K)), d0),
                               runAlign(dtBias, {p.K})));
    if (loadK)
      raw.push_back(loadActRun(k, qkRow(t), d0, p.K));
    if (loadQ)
      raw.push_back(loadActRun(q, qkRow(t), d0, p.K));
    if (norms)
      raw.push_back(load(beta, add(mul(t, idx(p.HV)), h)));
    return raw;
  };
  auto loop =
      scf::ForOp::create(b, loc, tid, idx(count), idx(p.threads()), issue(tid));
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    Value i = loop.getInductionVar();
    SmallVector<Value> next = issue(add(i, idx(p.threads())));
    ValueRange cur = loop.getRegionIterArgs();
    auto [r, d0] = place(i);
    size_t at = 0;
    SmallVector<Value> raw = widenRun(cur[at++]), bias;
    if (dtBias)
      bias = widenRun(cur[at++]);
    Value kRaw = loadK ? cur[at++] : Value();
    Value qRaw = loadQ ? cur[at++] : Value();
    Value braw = norms ? widen(cur[at++]) : Value();
    Value valid = rowValid(r);
    SmallVector<Value> gates;
    for (int64_t e = 0; e < kRun; ++e) {
      Value x = dtBias ? fadd(raw[e], bias[e]) : raw[e];
      Value gate =
          fmul(emitGate(b, loc, layer, x, expALog), f(llvm::numbers::log2e));
      gates.push_back(select(valid, gate, f(0)));
    }
    storeRun(gates, ldsG, gIdx(r, d0), gAlign());
    // k's rows ride along (same runs; the barrier below publishes them).
    if (p.stageActs)
      storeActRun(kRaw, ldsK, r, d0);
    if (norms) {
      Value qss, kss;
      if (l2norm) {
        auto sumSq = [&](Value run) {
          Value acc = f(0);
          for (int64_t e = 0; e < kRun; ++e) {
            Value x = widen(vector::ExtractOp::create(b, loc, run, e));
            acc = fadd(acc, fmul(x, x));
          }
          return clusterSum(acc, runs);
        };
        qss = sumSq(qRaw), kss = sumSq(kRaw);
      }
      storeRowFactors(
          r, qss, kss,
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, d0, idx(0)),
          braw);
    }
    scf::YieldOp::create(b, loc, next);
  }
  barrier();
  // Down each column, a thread a column: its rows kCumsumRows at a time,
  // loaded together, summed in registers in row order and stored together.
  // A row at a time, each trip's LDS load waited on the last: a chain of C
  // load latencies while half the workgroup's threads waited at the
  // barrier. The sum is kept in f64 and stored as its f32 rounding (ldsG)
  // and the rest (ldsGLo): an f32 prefix sum loses the small steps after a
  // large one (after a step of -1000 nats its ulp is 6e-5), and every
  // consumer takes a difference G_i - G_j, whose error was then that ulp
  // however small the difference (the states of a row of -0.01 steps after
  // a masking -1000 were off by 1.8e-4 relative L2, outputs up to 1.8x of
  // bf16 rounding; docs/chunk-path.md, fifty-sixth session). The rest of
  // an infinite or NaN rounding is 0, so such a G behaves as before.
  const int64_t batch = std::gcd(kCumsumRows, p.C);
  Type f64 = b.getF64Type();
  Value inf = f(std::numeric_limits<float>::infinity());
  forThreads(idx(p.K), [&](Value d) {
    forReduceAll(
        idx(0), idx(p.C),
        ValueRange{arith::ConstantOp::create(b, loc, b.getF64FloatAttr(0))},
        [&](Value r0, ValueRange acc) {
          SmallVector<Value> at, x;
          for (int64_t e = 0; e < batch; ++e) {
            at.push_back(gIdx(add(r0, idx(e)), d));
            x.push_back(load(ldsG, at.back()));
          }
          Value sum = acc[0];
          SmallVector<Value> rests;
          for (int64_t e = 0; e < batch; ++e) {
            sum = fadd(sum, arith::ExtFOp::create(b, loc, f64, x[e]));
            Value hi = arith::TruncFOp::create(b, loc, f32, sum);
            Value rest = arith::TruncFOp::create(
                b, loc, f32, fsub(sum, arith::ExtFOp::create(b, loc, f64, hi)));
            Value finite =
                arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT,
                                      math::AbsFOp::create(b, loc, hi), inf);
            store(hi, ldsG, at[e]);
            rests.push_back(storedRest(hi, select(finite, rest, f(0))));
          }
          storeRests(rests, r0, d);
          return SmallVector<Value>{sum};
        },
        batch);
  });
  barrier();
}

// Whether the diagonal 16-row blocks of A_kk / A_qk go by atoms too,
// anchored at their middle row m = 16 I + 8: then one factor of a product
// is exp(G_i - G_m) or exp(G_m - G_j) >= 1, at most exp(8 |g|max). Only a
// gate bounded per token keeps that finite and far from f32's range:
// lower_bound(lb) with 8 |lb| <= kMaxAnchorExponent (Kimi's -5: e^40).
// Elements above the diagonal may be huge or inf in the accumulator (their
// own sums only: an atom's outputs do not mix) and are never stored.
// Other layers (softplus, or gate none, which reads g as the log decay
// itself: no bound a token) choose a chunk at a time (chunkAnchorable): by
// atoms where the chunk's gates keep every factor within the same bound,
// else pairwise (prepDiagonal).
constexpr double kMaxAnchorExponent = 64;
bool diagonalByAtoms(LayerAttr layer) {
  return layer.getGate() == GateKind::LowerBound &&
         std::abs(layer.getLowerBound().convertToDouble()) * (kSub / 2) <=
             kMaxAnchorExponent;
}

/// How the intra-chunk products are dealt to the waves: row block I's
/// column tiles (`tiles[I]`: those of its blocks J < I, and of its own
/// diagonal block where that goes by atoms) in runs of `perPiece`
/// consecutive tiles, a run a piece, so a piece builds its rows' A
/// fragments once a k step for all its tiles. The most tiles a piece may
/// take (its accumulators: 2 x perPiece x the row tiles).
constexpr int64_t kIntraMaxTiles = 4;
struct IntraSchedule {
  SmallVector<int64_t> tiles; // column tiles of row block I
  SmallVector<int64_t> start; // first piece of row block I
  int64_t perPiece = 1, pieces = 0;
};
/// The run length with the fewest fragment builds on the busiest wave:
/// trips x (per + 2 x rowTiles), a B fragment a column tile and the k and q
/// A fragments a row tile. At chunk 64 with mma.sync's 16 x 8 tiles and
/// diagonal blocks by atoms: runs of 3, 8 pieces on 8 waves (one trip),
/// where a piece a 16 x 16 block took two trips and built each row block's
/// A fragments once per block (ncu, H200: the prep is bound by its LDS
/// wavefronts, and A's elements are 2/3 of the loop's). Measured on the
/// H200 (2026-12-02, one call, two rounds, 32-bit LDS pointers both): the
/// prep 0.623 -> 0.564-0.568 ms (1 x 8192 H32), 1.219 -> 1.094-1.102 (4 x
/// 4096), 0.621-0.626 -> 0.558-0.562 (1 x 32768 H8). sm_90's prep then
/// spills 40 bytes at its 80 registers (the stores' indices, live across
/// the k loop; 72 with a run's columns each its own base), and is still
/// the faster: the same call measured the 60-byte variant 0.576-0.579.
IntraSchedule intraSchedule(int64_t blocks, int64_t nt, int64_t mt,
                            bool diagonal, int64_t waves) {
  // A run spans at most the chunk's columns (prepIntraChunk).
  const int64_t maxTiles = std::min(kIntraMaxTiles, blocks * nt);
  IntraSchedule s;
  for (int64_t i = 0; i < blocks; ++i)
    s.tiles.push_back((diagonal ? i + 1 : i) * nt);
  auto piecesAt = [&](int64_t per) {
    int64_t n = 0;
    for (int64_t t : s.tiles)
      n += (t + per - 1) / per;
    return n;
  };
  int64_t best = 0;
  for (int64_t per = 1; per <= maxTiles; ++per) {
    int64_t trips = (piecesAt(per) + waves - 1) / waves;
    int64_t cost = trips * (per + 2 * mt);
    if (!best || cost < best)
      best = cost, s.perPiece = per;
  }
  for (int64_t t : s.tiles) {
    s.start.push_back(s.pieces);
    s.pieces += (t + s.perPiece - 1) / s.perPiece;
  }
  return s;
}

/// Whether A_qk's q fragments read q's rows staged in A's bytes: where k is
/// staged (the activations are the atom's operand type), q's rows fit A's
/// block, and every wave takes at most one piece, so that one barrier after
/// all k loops frees A's bytes for A_kk's stores. The fragments' q loads
/// from global memory were 8 scalar loads a k step, each touching 8 rows'
/// sectors (ncu on the H200, 2026-12-03, 4 x 4096 H32: 25 M of the prep's
/// 44 M excessive L2 sectors).
bool ChunkEmitter::intraStagesQ(int64_t pieces) const {
  Type qElem = cast<MemRefType>(q.getType()).getElementType();
  return p.stageActs && ldsQ && pieces > 0 && pieces <= p.waves &&
         qElem.getIntOrFloatBitWidth() == 8 * p.actBytes &&
         p.C * p.actStride() * p.actBytes <= 4 * p.C * p.prepPadded(p.C);
}

// A's LDS block and the records' A_qk all zeros: the upper triangles are
// read by the inverse and the scan, and the pieces store only the lower.
void ChunkEmitter::zeroIntra() {
  forRowRuns(p.C, [&](Value r, Value j0) {
    SmallVector<Value> zeros(kRun, f(0));
    storeRun(zeros, ldsA, aIdx(r, j0), aAlign());
    ifThen(rowValid(r), [&] { storeRec(zeros, rowToken(r), p.recA(), j0); });
  });
}

// Whether this chunk's diagonal blocks may go by atoms anchored at their
// middle rows m (diagonalByAtoms's bound, from the chunk's own gates): for
// every block and column, G's fall over each half of the block, G[16 I] -
// G[m] and G[m] - G[16 I + 15] (base 2), at most kMaxAnchorExponent nats.
// A NaN fall counts as too large. Uniform over the workgroup: each wave's
// count of falls too large, summed through LDS.
Value ChunkEmitter::chunkAnchorable() {
  Value limit = f(kMaxAnchorExponent * llvm::numbers::log2e);
  Value over = f(0);
  forThreadTrips(p.C / kSub * p.K, [&](Value i, Value in) {
    Value row0 = mul(div(i, p.K), idx(kSub)), d = rem(i, p.K);
    auto at = [&](int64_t r) { return load(ldsG, gIdx(add(row0, idx(r)), d)); };
    Value top = at(0), mid = at(kSub / 2), bottom = at(kSub - 1);
    auto tooLarge = [&](Value fall) {
      return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UGT, fall,
                                   limit);
    };
    Value bad = arith::OrIOp::create(b, loc, tooLarge(fsub(top, mid)),
                                     tooLarge(fsub(mid, bottom)));
    if (in)
      bad = arith::AndIOp::create(b, loc, bad, in);
    over = fadd(over, select(bad, f(1), f(0)));
  });
  // A float a wave in the inverse's bytes (ldsT), free until it: every
  // read below comes before the barrier that A_kk / A_qk's k loops follow.
  Value waveOver = waveSum(over);
  ifThen(arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, lane, idx(0)),
         [&] { store(waveOver, ldsT, wave); });
  barrier();
  Value total = f(0);
  for (unsigned w = 0; w < p.waves; ++w)
    total = fadd(total, load(ldsT, idx(w)));
  return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, total, f(0));
}

// A_kk (LDS, strictly lower, beta_i folded in) and A_qk (workspace rows,
// lower with the diagonal), by atoms over row blocks (intraSchedule). Row
// block I's products are anchored at its first row 16 I (off-diagonal
// blocks only, both exponents <= 0; the diagonal blocks pairwise,
// prepDiagonal), or, where the diagonal blocks go by atoms
// (diagonalByAtoms), all of them at its middle row 16 I + 8: then a row's
// factor exp(G_i - G_m) is at most e^(8 |lb|) and a column's exp(G_m - G_j)
// in an off-diagonal block at most 1 - where it flushes to zero the product
// lost is below e^(8 |lb|) x 2^-126 (2^-68 at Kimi's -5), an absolute error
// far below the rounding of the stored values (chunkAnchorable: e^64 x
// 2^-126, 2^-34, at most). The caller's barrier completes both.
void ChunkEmitter::prepIntraChunk(bool diagonal) {
  const int64_t mt = kSub / p.atom->m, nt = kSub / p.atom->n;
  const IntraSchedule s = intraSchedule(p.C / kSub, nt, mt, diagonal, p.waves);
  // Zeros first, or q's rows first where A's bytes hold them for the k
  // loops (the zeros then follow every k loop).
  qStaged = intraStagesQ(s.pieces);
  if (qStaged)
    stageActRows(q, ldsQ, p.K, [&](Value t) { return qkRow(t); });
  else
    zeroIntra();
  barrier();
  // No pieces where the one 16-row block goes pairwise (chunk 16, diagonal
  // not by atoms).
  forPieces(s.pieces, [&](Value piece, Value live) {
    // piece -> (row block, its run): the blocks' pieces are in order.
    Value bi, first;
    for (int64_t i = 0; i < int64_t(s.tiles.size()); ++i) {
      if (!s.tiles[i])
        continue;
      Value run = sub(piece, idx(s.start[i]));
      if (!bi) {
        bi = idx(i), first = run;
        continue;
      }
      Value in = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge, piece,
                                       idx(s.start[i]));
      bi = select(in, idx(i), bi);
      first = select(in, run, first);
    }
    first = mul(first, idx(s.perPiece));
    Value row0 = mul(bi, idx(kSub));
    Value anchor = diagonal ? add(row0, idx(kSub / 2)) : row0;
    Value tiles = mul(add(bi, idx(diagonal ? 1 : 0)), idx(nt));
    // The run's tiles are consecutive columns (one base address for all
    // their fragments): a run that would pass the row block's last tile
    // starts earlier, at tiles - perPiece (at 0 where the block has fewer),
    // so every column is one of the chunk's (intraSchedule keeps perPiece x
    // n <= C); only the tiles from `first` on and below `tiles` are its to
    // store. The others' products are never stored (past the diagonal
    // their column factors may overflow: an atom's outputs do not mix).
    Value lastStart =
        sub(arith::MaxUIOp::create(b, loc, tiles, idx(s.perPiece)),
            idx(s.perPiece));
    Value start = arith::MinUIOp::create(b, loc, first, lastStart);
    TileBlock blk{mt, s.perPiece, row0, mul(start, idx(p.atom->n))};
    // Taken before the k loop: predicates, not indices, live across it.
    SmallVector<Value> mine;
    for (int64_t j = 0; j < blk.nt; ++j) {
      Value tile = add(start, idx(j));
      mine.push_back(arith::AndIOp::create(
          b, loc, live,
          arith::AndIOp::create(b, loc, lt(tile, tiles),
                                arith::CmpIOp::create(b, loc,
                                                      arith::CmpIPredicate::uge,
                                                      tile, first))));
    }
    IntraTiles accs = intraTiles(blk, anchor);
    if (qStaged) { // one piece a wave at most: every wave is here once
      barrier();
      qStaged = false;
      zeroIntra();
      barrier();
    }
    // Inside a diagonal block only j < i (A_kk) and j <= i (A_qk) are
    // stored; off it both hold.
    auto storeIf = [&](arith::CmpIPredicate pred, Value i, Value j, Value cond,
                       llvm::function_ref<void()> body) {
      if (diagonal) {
        Value below = arith::CmpIOp::create(b, loc, pred, j, i);
        cond = cond ? arith::AndIOp::create(b, loc, cond, below).getResult()
                    : below;
      }
      if (cond)
        ifThen(cond, body);
      else
        body();
    };
    for (int64_t t = 0; t < blk.tiles(); ++t) {
      auto [r0, c0] = tileOf(blk, t);
      ifThen(mine[t % blk.nt], [&] {
        eachResult(accs.kk[t], r0, c0, [&](Value i, Value j, Value x) {
          storeIf(arith::CmpIPredicate::ult, i, j, Value(), [&] {
            Value rows = fmul(load(ldsRowB, i), load(ldsRowK, i));
            store(fmul(fmul(rows, load(ldsRowK, j)), x), ldsA, aIdx(i, j));
          });
        });
        storeQkWords(accs.qk[t], r0, c0, diagonal);
      });
    }
  });
  if (!diagonal)
    prepDiagonal();
}

// A_qk's tile at (r0, c0) into the records as words (j <= i inside a
// diagonal block, every element off it), masked rows not stored. Where the
// atom's lanes hold adjacent columns (storeRows) a pair is one 8-byte store:
// on a diagonal block a pair's second element past the diagonal is stored
// as the 0 zeroIntra wrote there (its product may be inf: never stored).
void ChunkEmitter::storeQkWords(Value acc, Value r0, Value c0, bool diagonal) {
  auto value = [&](Value i, Value j, Value x) {
    return word(fmul(fmul(load(ldsRowQ, i), load(ldsRowK, j)), x));
  };
  auto below = [&](Value i, Value j) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ule, j, i);
  };
  if (!recordPairs(p.recA())) {
    eachResult(acc, r0, c0, [&](Value i, Value j, Value x) {
      Value cond = rowValid(i);
      if (diagonal)
        cond = arith::AndIOp::create(b, loc, cond, below(i, j));
      ifThen(cond, [&] {
        store(value(i, j, x), ws, recAt(rowToken(i), p.recA(), j));
      });
    });
    return;
  }
  SmallVector<Result> results = resultsOf(acc, r0, c0);
  for (size_t e = 0; e < results.size(); e += 2) {
    auto [i, j, x0] = results[e];
    Value j1 = add(j, idx(1)), x1 = results[e + 1].x;
    Value cond = rowValid(i);
    if (diagonal)
      cond = arith::AndIOp::create(b, loc, cond, below(i, j));
    ifThen(cond, [&] {
      Value second = value(i, j1, x1);
      if (diagonal)
        second = select(below(i, j1), second, f(0));
      storeRecPair(value(i, j, x0), second, recAt(rowToken(i), p.recA(), j));
    });
  }
}

// One k loop for both products and every atom tile of a piece's block, on
// the raw k and q rows (their row factors - normalisation, scale, beta, and
// 0 on masked rows - multiply the tile's results once, at its stores,
// instead of every operand element): k_i and q_i share their decay factor
// exp2(G_i - G_a), and the B fragment k_j exp2(G_a - G_j) is built and
// split once for both (as two gemms, each k step built B twice and every
// factor of A twice: 24 exp2 a step for 6 atoms at m16n8k16, then 12); a
// row tile's A fragments feed all the block's column tiles.
ChunkEmitter::IntraTiles ChunkEmitter::intraTiles(const TileBlock &blk,
                                                  Value anchor) {
  const MmaAtom &atom = *p.atom;
  Value zero = zeroAccumulator(b, loc, atom);
  // Per tile t: A_kk, then A_qk; each k step has 2 x tiles independent
  // chains of three atoms, so one accumulator each (emitMmaSplitFused):
  // with big and small ones sm_90's prep spilled at its 80 registers.
  auto loop = scf::ForOp::create(b, loc, idx(0), idx(p.K), idx(atom.k),
                                 SmallVector<Value>(2 * blk.tiles(), zero));
  OpBuilder::InsertionGuard g(b);
  b.setInsertionPointToStart(loop.getBody());
  Value k0 = loop.getInductionVar();
  SmallVector<std::array<SplitFragment, 2>> rowsA; // (k, q) a row tile
  for (int64_t i = 0; i < blk.mt; ++i) {
    Value row0 = blockRow(blk, i);
    SmallVector<Value> kq = buildFragments(
        b, loc, atom, MmaOperand::A, lane, 2,
        [&](OpBuilder &, Location, Value r, Value c) -> SmallVector<Value> {
          Value row = add(row0, r), d = add(k0, c);
          Value decay = exp2(fall(row, anchor, d));
          return {fmul(kAct(row, d), decay), fmul(qAct(row, d), decay)};
        });
    rowsA.push_back({splitFragment(b, loc, atom, kq[0]),
                     splitFragment(b, loc, atom, kq[1])});
  }
  SmallVector<SplitFragment> colsB;
  for (int64_t j = 0; j < blk.nt; ++j) {
    Value col0 = blockCol(blk, j);
    colsB.push_back(splitFragment(
        b, loc, atom,
        buildFragment(b, loc, atom, MmaOperand::B, lane,
                      [&](OpBuilder &, Location, Value r, Value c) {
                        Value d = add(k0, r), col = add(col0, c);
                        return fmul(kAct(col, d), exp2(fall(anchor, col, d)));
                      })));
  }
  SmallVector<Value> next;
  for (int64_t t = 0; t < blk.tiles(); ++t)
    for (unsigned x = 0; x < 2; ++x)
      next.push_back(emitMmaSplitFused(b, loc, atom, rowsA[t / blk.nt][x],
                                       colsB[t % blk.nt],
                                       loop.getRegionIterArgs()[2 * t + x]));
  scf::YieldOp::create(b, loc, next);
  b.setInsertionPointAfter(loop);
  IntraTiles out;
  for (int64_t t = 0; t < blk.tiles(); ++t) {
    out.kk.push_back(loop.getResult(2 * t));
    out.qk.push_back(loop.getResult(2 * t + 1));
  }
  return out;
}

// Diagonal blocks, pairwise (no anchor keeps both factors below 1 inside a
// block): a wave takes two rows of a block, r and 15 - r, and its lanes the
// head_k columns (coalesced row loads). For each j <= i of the row's block
// the two sums over d of k_j exp(G_i - G_j) times k_i and q_i are reduced
// across the wave; the row factors (normalisation, beta, scale) multiply
// the sums. The two rows have r + 1 and 16 - r such j, so every wave runs
// the same 17 reductions per piece (the waves of a workgroup issue the same
// collectives, as forPieces requires).
void ChunkEmitter::prepDiagonal() {
  const int64_t per = (p.K + p.waveSize - 1) / p.waveSize;
  const bool ragged = p.K % p.waveSize != 0;
  const int64_t half = kSub / 2;
  SmallVector<Value> cols;
  SmallVector<Value> inRange;
  for (int64_t e = 0; e < per; ++e) {
    Value d = add(lane, idx(e * p.waveSize));
    Value in = ragged ? lt(d, idx(p.K)) : Value();
    cols.push_back(in ? select(in, d, idx(0)) : d);
    inRange.push_back(in);
  }
  struct Row {
    Value i;
    SmallVector<Value> k, q, g, gLo;
  };
  auto loadRow = [&](Value i) {
    Row row{i, {}, {}, {}, {}};
    for (int64_t e = 0; e < per; ++e) {
      auto masked = [&](Value x) {
        return inRange[e] ? select(inRange[e], x, f(0)) : x;
      };
      row.k.push_back(masked(qkElem(k, i, cols[e])));
      row.q.push_back(masked(qkElem(q, i, cols[e])));
      row.g.push_back(gam(i, cols[e]));
      row.gLo.push_back(gamLo(i, cols[e], row.g.back()));
    }
    return row;
  };
  forPieces(p.C / 2, [&](Value piece, Value live) {
    Value base = mul(div(piece, half), idx(kSub)), r = rem(piece, half);
    Row lo = loadRow(add(base, r));
    Row hi = loadRow(add(base, sub(idx(kSub - 1), r)));
    forRange(idx(0), idx(kSub + 1), idx(1), [&](Value t) {
      Value first = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ule,
                                          t, r);
      auto pick = [&](Value x, Value y) { return select(first, x, y); };
      Value i = pick(lo.i, hi.i);
      Value j = add(base, pick(t, sub(t, add(r, idx(1)))));
      Value skk = f(0), sqk = f(0);
      for (int64_t e = 0; e < per; ++e) {
        Value gamJ = gam(j, cols[e]);
        Value x =
            fmul(qkElem(k, j, cols[e]),
                 exp2(fallOf(pick(lo.g[e], hi.g[e]), pick(lo.gLo[e], hi.gLo[e]),
                             gamJ, gamLo(j, cols[e], gamJ))));
        skk = fadd(skk, fmul(x, pick(lo.k[e], hi.k[e])));
        sqk = fadd(sqk, fmul(x, pick(lo.q[e], hi.q[e])));
      }
      skk = fmul(waveSum(skk), load(ldsRowK, j));
      sqk = fmul(waveSum(sqk), load(ldsRowK, j));
      // A wave past the last pair recomputes pair 0 (forPieces) and stores
      // nothing: two waves storing the same element race, whatever it holds.
      Value writer = arith::AndIOp::create(
          b, loc, live,
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, lane,
                                idx(0)));
      ifThen(writer, [&] {
        ifThen(lt(j, i), [&] {
          store(fmul(fmul(load(ldsRowB, i), load(ldsRowK, i)), skk), ldsA,
                aIdx(i, j));
        });
        ifThen(rowValid(i), [&] {
          store(word(fmul(load(ldsRowQ, i), sqk)), ws,
                recAt(rowToken(i), p.recA(), j));
        });
      });
    });
  });
}

// T = (I + A_kk)^-1, strictly lower part in place of A_kk, by 16-row blocks
// (two barriers per block row instead of two per row):
//  - each diagonal block by forward substitution, one thread per column j:
//    x_i = delta_ij - sum_{m < i} A[i][m] x_m needs only the column's own
//    values (kept in LDS: unrolled in registers they made gfx950 spill),
//    so rows follow each other without a barrier;
//  - then block row I from the rows above it, by atoms:
//    T_IJ = -T_II X_IJ with X_IJ = sum_{J <= M < I} A_IM T_MJ (T_JJ with its
//    unit diagonal; T's zero upper triangle masks the blocks M < J).
void ChunkEmitter::prepInverse() {
  const int64_t blocks = p.C / kSub;
  auto aAt = [&](Value i, Value m) {
    return load(ldsA, aIdx(i, m));
  };
  At tUnit = [&](Value i, Value m) { return unitLower(i, m); };
  {
    // Thread `col` owns column col % 16 of diagonal block col / 16, by
    // forward substitution with its x in registers (unrolled: a row's A
    // loads are independent of each other and of x). Every thread reaches
    // the barriers; only owners work. With x in LDS (a loop over rows, each
    // sum's loads after the last row's store) a thread's column was a chain
    // of 136 LDS latencies while six of the eight waves waited.
    const int64_t columns = blocks * kSub;
    Value owner = lt(tid, idx(columns));
    Value task = rem(tid, columns);
    Value base = mul(div(task, kSub), idx(kSub)), j = rem(task, kSub);
    SmallVector<Value> x = ifValues(
        owner, SmallVector<Type>(kSub, f32),
        [&] {
          SmallVector<Value> col;
          for (int64_t i = 0; i < kSub; ++i) {
            Value row = add(base, idx(i)), s = f(0);
            for (int64_t m = 0; m < i; ++m)
              s = fadd(s, fmul(aAt(row, add(base, idx(m))), col[m]));
            auto cmp = [&](arith::CmpIPredicate pred) {
              return arith::CmpIOp::create(b, loc, pred, idx(i), j);
            };
            col.push_back(
                select(cmp(arith::CmpIPredicate::ugt),
                       arith::NegFOp::create(b, loc, s).getResult(),
                       select(cmp(arith::CmpIPredicate::eq), f(1.0), f(0))));
          }
          return col;
        },
        [&] { return SmallVector<Value>(kSub, f(0)); });
    barrier(); // every read of the diagonal blocks' A is done
    ifThen(owner, [&] {
      for (int64_t i = 1; i < kSub; ++i)
        ifThen(
            arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ugt, idx(i), j),
            [&] { store(x[i], ldsA, aIdx(add(base, idx(i)), add(base, j))); });
    });
    barrier();
  }
  const int64_t tilesPerBlock = (kSub / p.atom->m) * (kSub / p.atom->n);
  for (int64_t bi = 1; bi < blocks; ++bi) {
    const int64_t rowI = bi * kSub;
    auto tileOf = [&](Value piece) {
      auto [tr, tc] = tileOrigin(rem(piece, tilesPerBlock), kSub);
      return std::make_pair(add(idx(rowI), tr),
                            add(mul(div(piece, tilesPerBlock), idx(kSub)), tc));
    };
    // X_IJ for every J < I, into ldsT (row i - 16 I, column of T).
    forPieces(bi * tilesPerBlock, [&](Value piece, Value live) {
      auto [row0, col0] = tileOf(piece);
      Value acc = gemm(zeroAccumulator(b, loc, *p.atom), row0, col0, rowI,
                       aAt, tUnit);
      ifThen(live, [&] {
        eachResult(acc, row0, col0, [&](Value i, Value n, Value x) {
          store(x, ldsT, add(mul(sub(i, idx(rowI)), idx(p.C)), n));
        });
      });
    });
    barrier(); // X complete; block row I's A is read for the last time
    forPieces(bi * tilesPerBlock, [&](Value piece, Value live) {
      auto [row0, col0] = tileOf(piece);
      Value acc = gemm(
          zeroAccumulator(b, loc, *p.atom), row0, col0, kSub,
          [&](Value i, Value kk) { return tUnit(i, add(idx(rowI), kk)); },
          [&](Value kk, Value n) {
            return load(ldsT, add(mul(kk, idx(p.C)), n));
          });
      ifThen(live, [&] {
        eachResult(acc, row0, col0, [&](Value i, Value n, Value x) {
          store(arith::NegFOp::create(b, loc, x).getResult(), ldsA,
                aIdx(i, n));
        });
      });
    });
    barrier(); // block row I of T is complete before the next reads it
  }
}

// T' = T diag(beta) (its unit diagonal becomes beta_i) in place of T, and
// W's B operand k o exp2(G) in place of G, both as pair words along W's k
// (m: T's columns, the B operand's rows): written once here, read by
// prepWU's atoms as vector loads (before: beta, the normalised k and
// exp(G) were computed again at every fragment element). G and T are read
// for the last time before this (prepIntraChunk is followed by a barrier,
// prepInverse ends with one); each thread rewrites only the elements it
// reads.
void ChunkEmitter::prepOperandWords() {
  forRowRuns(p.C, [&](Value i, Value m0) {
    SmallVector<Value> a = loadRun(ldsA, aIdx(i, m0), aAlign());
    SmallVector<Value> rowB = loadRun(ldsRowB, m0, runAlign(ldsRowB, {}));
    SmallVector<Value> t;
    for (int64_t e = 0; e < kRun; ++e) {
      Value diag = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, i,
                                         add(m0, idx(e)));
      t.push_back(fmul(select(diag, f(1.0), a[e]), rowB[e]));
    }
    SmallVector<Value> out;
    for (int64_t e = 0; e < kRun; e += 2) {
      auto [hi, lo] = packPairWords(b, loc, *p.atom, t[e], t[e + 1]);
      out.append({hi, lo});
    }
    storeRun(out, ldsA, aIdx(i, m0), aAlign());
  });
  // Two rows a thread: a pair's words span rows m and m + 1 (each thread
  // rewrites only the G runs it read, as the single rows did).
  forRowRuns(
      p.K,
      [&](Value m, Value d0) {
        std::array<SmallVector<Value>, 2> x;
        for (int64_t h = 0; h < 2; ++h) {
          Value row = add(m, idx(h));
          SmallVector<Value> kr = kRowRun(row, d0), gr = gamRun(row, d0);
          Value kf = select(rowValid(row), load(ldsRowK, row), f(0));
          for (int64_t e = 0; e < kRun; ++e)
            x[h].push_back(fmul(fmul(kr[e], kf), exp2(gr[e])));
        }
        SmallVector<Value> his, los;
        for (int64_t e = 0; e < kRun; ++e) {
          auto [hi, lo] = packPairWords(b, loc, *p.atom, x[0][e], x[1][e]);
          his.push_back(hi);
          los.push_back(lo);
        }
        storeRun(his, ldsG, gIdx(m, d0), gAlign());
        storeRun(los, ldsG, gIdx(add(m, idx(1)), d0), gAlign());
      },
      /*rowStep=*/2);
  barrier();
}

// Exact where the activations are of the atom's operand type: the
// fragment is loaded as it is, and T' V takes two atoms instead of three.
ChunkEmitter::Operand ChunkEmitter::vRows() {
  Type elem = cast<MemRefType>(v.getType()).getElementType();
  const bool exact = elem == scalarType(b.getContext(), p.atom->ab);
  Operand op([this, exact](Value m, Value col) {
    if (p.stageActs) { // masked rows are staged zeros
      Value at = add(mul(m, idx(p.actStride())), col);
      return exact ? load(ldsV, at) : loadF(ldsV, at);
    }
    Value at = add(vRow(safeToken(m)), col);
    Value x = exact ? load(v, at) : loadF(v, at);
    Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(x.getType()));
    return select(rowValid(m), x, zero);
  });
  op.exact = exact;
  return op;
}

// W = T' (K o exp G) and U = T' V, rows of the chunk only, from the words
// prepOperandWords wrote. A piece is a block of atom tiles of one row tile
// of W or U (forTileBlocks: one A fragment of T' read for all of them). T' is
// lower triangular, so row tile r's product stops at its last row, rounded
// up to the atom's k (the columns past it are T's zero upper triangle, and
// C % k == 0 keeps them inside the chunk): 10 of the 16 (row tile, k
// step) products at chunk 64. The row tiles run one after another (a
// loop, not unrolled: unrolled copies took gfx950's prep past its SGPRs),
// so every wave of a pass issues the same atoms.
void ChunkEmitter::prepWU() {
  // prepOperandWords wrote both as pair words.
  Operand tOp = inLds(ldsA, p.prepPadded(p.C), Held::PairWords);
  Operand bW = inLds(ldsG, p.prepPadded(p.K), Held::PairWords);
  const int64_t m = p.atom->m, k = p.atom->k;
  forRange(idx(0), idx(p.C), idx(m), [&](Value row0) {
    Value kEnd = mul(div(add(row0, idx(m + k - 1)), k), idx(k));
    // W only feeds the scan's atoms (split words); U also starts V_new
    // (f32). Two passes: a U tile may take fewer atoms than a W tile, and
    // every wave must issue the same atoms (forPieces).
    auto pass = [&](int64_t cols, const Operand &bOp, int64_t field,
                    bool asWords) {
      forTileBlocks(m, cols, [&](const TileBlock &inRow, Value live) {
        TileBlock blk = inRow; // a block of the row tile at row0
        blk.row0 = row0;
        SmallVector<Value> accs = gemmBlock(zeros(blk), blk, kEnd,
                                            /*ragged=*/false, tOp, bOp);
        if (p.wRuns && field == p.recW()) {
          storeWRuns(accs, blk, live);
          return;
        }
        for (int64_t t = 0; t < blk.tiles(); ++t) {
          auto [r0, c0] = tileOf(blk, t);
          storeRows(accs[t], r0, c0, live, field, asWords);
        }
      });
    };
    pass(p.K, bW, p.recW(), /*asWords=*/true);
    pass(p.V, vRows(), p.recU(), /*asWords=*/false);
  });
}

// The scan's per-row operands: q o exp(G) (scaled, normalised),
// k o exp(G_last - G), and exp(G_last) on the chunk's first row.
void ChunkEmitter::prepDecayedRows() {
  Value last = sub(rows, idx(1));
  // A run of kRun columns a trip (one vector access per row and field);
  // batching several trips' loads (as the scan's staging does) took gfx942
  // / gfx950's prep past their SGPRs (softplus and bf16-state test layers).
  forRowRuns(p.K, [&](Value r, Value d0) {
    ifThen(rowValid(r), [&] {
      Value t = rowToken(r);
      SmallVector<Value> qr = qkRun(q, r, d0), kr = kRowRun(r, d0);
      SmallVector<Value> gl = gamRun(last, d0), gr = gamRun(r, d0);
      SmallVector<Value> gll = gamLoRun(last, d0, gl),
                         grl = gamLoRun(r, d0, gr);
      Value qf = load(ldsRowQ, r), kf = load(ldsRowK, r);
      SmallVector<Value> qg, kd, el;
      for (int64_t e = 0; e < kRun; ++e) {
        Value decay = exp2(fallOf(gl[e], gll[e], gr[e], grl[e]));
        qg.push_back(fmul(fmul(qr[e], qf), exp2(gr[e])));
        kd.push_back(word(fmul(fmul(kr[e], kf), decay)));
        el.push_back(exp2(gl[e]));
      }
      // d0 is even (a run of kRun): pairs (d0 + e, d0 + e + 1) stay whole.
      for (int64_t e = 0; e < kRun; e += 2) {
        if (!p.qgPairs()) {
          qg[e] = word(qg[e]), qg[e + 1] = word(qg[e + 1]);
          continue;
        }
        std::tie(qg[e], qg[e + 1]) =
            packPairWords(b, loc, *p.atom, qg[e], qg[e + 1]);
      }
      storeRec(qg, t, p.recQG(), d0);
      storeRec(kd, t, p.recKD(), d0);
      Value first = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, r,
                                          idx(0));
      ifThen(first, [&] { storeRec(el, t, p.recGL(), d0); });
    });
  });
}

// The chunk's rows of q, k and g toward the L2 (kda.prefetch_row: sm_90
// only; nothing on targets without the hint), one thread a row and field,
// before the gate pass's first loads, so that its trips wait on the L2
// rather than each on the DRAM (ncu on the H200, 2026-12-03: the gate pass
// 24% of the prep's warp samples, most of them on its loads). Measured on
// the H200 (2026-12-03, one call, two rounds): the prep 0.528-0.531 ->
// 0.522 ms (1 x 8192 H32), 1.029-1.034 -> 1.012 (4 x 4096), 0.991 -> 0.973
// (varlen 16); v's rows too (read after W's operand words) took it to
// 0.527 / 1.022 / 0.980 only.
void ChunkEmitter::prefetchChunkRows() {
  const Value mems[] = {q, k, g};
  for (Value mem : mems) {
    Type elem = cast<MemRefType>(mem.getType()).getElementType();
    if (p.K * elem.getIntOrFloatBitWidth() / 8 % 16)
      return; // rows of whole 16-byte pieces only (kda.prefetch_row)
  }
  const int64_t fields = std::size(mems), count = fields * p.C;
  const int64_t threads = p.threads();
  for (int64_t j = 0; j * threads < count; ++j) {
    Value i = add(tid, idx(j * threads));
    Value r = rem(i, p.C), which = div(i, p.C);
    Value live = arith::AndIOp::create(b, loc, lt(i, idx(count)), rowValid(r));
    ifThen(live, [&] {
      Value t = rowToken(r);
      Value starts[] = {qkRow(t), qkRow(t), gRow(t)};
      for (int64_t f = 0; f < fields; ++f)
        ifThen(arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, which,
                                     idx(f)),
               [&] { PrefetchRowOp::create(b, loc, mems[f], starts[f], p.K); });
    });
  }
}

void ChunkEmitter::emitPrep(gpu::GPUFuncOp func) {
  Block &entry = func.getBody().front();
  b.setInsertionPointToStart(&entry);
  bindArguments(func);
  bindPlace(gpu::BlockIdOp::create(b, loc, gpu::Dimension::z));
  Value c = gpu::BlockIdOp::create(b, loc, gpu::Dimension::x);
  chunkStart = add(bos, mul(c, idx(p.C)));
  // A chunk past its sequence's end, or of a padding sequence, has no work.
  Value live = arith::AndIOp::create(
      b, loc, lt(chunkStart, eos),
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sgt, slot, idx(0)));
  ifThen(live, [&] {
    rows = arith::MinUIOp::create(b, loc, idx(p.C), sub(eos, chunkStart));
    beginLds();
    ldsG = carve(p.C * p.prepPadded(p.K));
    ldsGLo = p.gLoBytes == 4 ? carve(p.gLoFloats())
                             : carveShared(p.gLoFloats(), {b.getI8Type()})[0];
    if (p.stageActs) {
      // A's bytes hold q's staged rows until A_kk is stored (prepIntraChunk).
      SmallVector<Value> a =
          carveShared(p.C * p.prepPadded(p.C),
                      {f32, cast<MemRefType>(q.getType()).getElementType()});
      ldsA = a[0], ldsQ = a[1];
    } else {
      ldsA = carve(p.C * p.prepPadded(p.C));
    }
    ldsT = carve(kSub * p.C);
    ldsRowQ = carve(p.C);
    ldsRowK = carve(p.C);
    ldsRowB = carve(p.C);
    if (p.stageActs) {
      SmallVector<Value> acts = carveShared(
          p.prepActFloats(), {cast<MemRefType>(k.getType()).getElementType(),
                              cast<MemRefType>(v.getType()).getElementType()});
      ldsK = acts[0], ldsV = acts[1];
    }
    prefetchChunkRows();
    prepRows();
    prepGateCumsum(); // ends with a barrier: rows and G are visible
    prepDecayedRows();
    if (diagonalByAtoms(layer)) {
      prepIntraChunk(/*diagonal=*/true);
    } else {
      // Measured on the H200 (2026-12-04, one call, two rounds), the
      // Kimi-Linear example's prep (softplus) with every chunk pairwise /
      // chosen a chunk at a time: 0.872-0.873 / 0.516-0.517 ms at 1 x 8192
      // H32, 1.699-1.700 / 1.008 at 4 x 4096; sm_90's prep then spills 12
      // bytes at its 80 registers (0 before).
      ifThenElse(
          chunkAnchorable(), [&] { prepIntraChunk(/*diagonal=*/true); },
          [&] { prepIntraChunk(/*diagonal=*/false); });
    }
    // A_kk and A_qk complete: one barrier after the branch for either side
    // (its condition, read from LDS after a barrier, is one value for every
    // thread: kda-verify-lds-handoffs shows that since 2026-12-05; before,
    // it refused this kernel with the barrier inside each side).
    barrier();
    prepInverse();
    prepOperandWords();
    if (p.stageActs) {
      // v's rows take k's bytes: k was read for the last time above.
      stageActRows(v, ldsV, p.V, [&](Value t) { return vRow(t); });
      barrier();
    }
    prepWU();
  });
  b.setInsertionPointToEnd(&entry);
  gpu::ReturnOp::create(b, loc);
}

//===----------------------------------------------------------------------===//
// scan
//===----------------------------------------------------------------------===//

ChunkEmitter::Piece ChunkEmitter::loadPiece(const RowCopy &by, int64_t field,
                                            Value from, int64_t width, Value i,
                                            bool mayPass) {
  const int64_t quads = width / 4;
  Piece piece;
  piece.in = mayPass ? lt(i, idx(p.C * quads)) : Value();
  Value safe = piece.in ? select(piece.in, i, idx(0)) : i;
  piece.r = div(safe, quads);
  piece.x = mul(rem(safe, quads), idx(4));
  Value token = add(by.start, select(lt(piece.r, by.valid), piece.r, idx(0)));
  piece.value = vector::LoadOp::create(
      b, loc, VectorType::get({4}, f32), ws,
      ValueRange{recAt(token, field, add(from, piece.x))},
      /*nontemporal=*/false, llvm::MaybeAlign(16));
  return piece;
}

std::optional<ChunkEmitter::PieceColumn>
ChunkEmitter::pieceColumn(const RowCopy &by, int64_t field, Value from,
                          int64_t width, Value base) {
  const int64_t quads = width / 4;
  if (by.threads % quads)
    return std::nullopt;
  Value r0 = add(div(base, quads), div(by.thread, quads));
  Value x = mul(rem(by.thread, quads), idx(4));
  return PieceColumn{r0, x, recAt(add(by.start, r0), field, add(from, x)),
                     by.threads / quads};
}

ChunkEmitter::Piece ChunkEmitter::loadColumnPiece(const RowCopy &by,
                                                  const PieceColumn &col,
                                                  int64_t j, bool mayPass) {
  Piece piece;
  piece.r = add(col.r0, idx(j * col.rowsPerTrip));
  piece.x = col.x;
  piece.in = mayPass ? lt(piece.r, idx(p.C)) : Value();
  piece.zeroed = true;
  auto type = VectorType::get({4}, f32);
  const int64_t step = j * col.rowsPerTrip * p.HV * p.recFloats();
  piece.value = ifValues(
      lt(piece.r, by.valid), TypeRange{type},
      [&] {
        return SmallVector<Value>{vector::LoadOp::create(
            b, loc, type, ws, ValueRange{add(col.first, idx(step))},
            /*nontemporal=*/false, llvm::MaybeAlign(16))};
      },
      [&] {
        return SmallVector<Value>{
            arith::ConstantOp::create(b, loc, type, b.getZeroAttr(type))};
      })[0];
  return piece;
}

void ChunkEmitter::storePieceAt(const RowCopy &by, Value buf,
                                const Piece &piece,
                                llvm::function_ref<Value()> at) {
  ifMaybe(piece.in, [&] {
    auto type = cast<VectorType>(piece.value.getType());
    Value zeros = arith::ConstantOp::create(b, loc, type, b.getZeroAttr(type));
    vector::StoreOp::create(
        b, loc,
        piece.zeroed ? piece.value
                     : select(lt(piece.r, by.valid), piece.value, zeros),
        buf, ValueRange{at()}, /*nontemporal=*/false, llvm::MaybeAlign(16));
  });
}

void ChunkEmitter::copyPiece(const RowCopy &by, const StagedField &f, int64_t j,
                             const PieceColumn *col) {
  const int64_t quads = f.width / 4;
  Value i = add(by.thread, idx(j * by.threads));
  // The piece's row r and column x, and its record index: in a column of
  // pieces, the column's first plus a constant, so every piece of a
  // thread addresses from one base (each piece's own 64-bit index kept
  // its registers live until the copy issued: ncu on the H200, the
  // 128-column scan's address registers overwritten after their copies
  // were 13% of its stall samples). A masked row's piece reads nothing,
  // so its index may pass the sequence's rows.
  Value r = col ? add(col->r0, idx(j * col->rowsPerTrip)) : div(i, quads);
  Value x = col ? col->x : mul(rem(i, quads), idx(4));
  auto place = [&] {
    Value valid = lt(r, by.valid);
    if (f.keep)
      valid = arith::AndIOp::create(b, loc, valid, f.keep(r, x));
    Value src =
        col ? add(col->first, idx(j * col->rowsPerTrip * p.HV * p.recFloats()))
            : recAt(add(by.start, select(valid, r, idx(0))), f.field,
                    add(f.from, x));
    Value at = add(mul(r, idx(f.stride)), x);
    if (f.place && col && f.placeRows8 && col->rowsPerTrip % 8 == 0)
      at = add(f.place(col->r0, x),
               idx(j * col->rowsPerTrip / 8 * f.placeRows8));
    else if (f.place)
      at = f.place(r, x);
    else if (p.wRuns && f.buf == ldsX)
      at = runSlot(r, x);
    CopyPieceOp::create(b, loc, ws, src, f.buf, at, valid,
                        toCopyAtom(target.copyAtom));
  };
  if ((j + 1) * by.threads > p.C * quads) // may pass the rows' end
    ifThen(col ? lt(r, idx(p.C)) : lt(i, idx(p.C * quads)), place);
  else
    place();
}

Value ChunkEmitter::runSlot(Value r, Value x) {
  // W's record rows are in run order (ChunkPlan::wRuns) and a piece is one
  // run: piece x / 4 of row r's k block x / k is run (x mod k) / elems of
  // tile row r mod tileRows.
  const RunLayout &rl = *p.wRuns;
  assert(rl.elems == 4 && "a 16-byte piece is one run");
  Value kb = div(x, p.atom->k);
  Value run = div(rem(x, p.atom->k), rl.elems);
  Value runLane = add(mul(rem(r, rl.tileRows), idx(rl.laneOfRow)),
                      mul(run, idx(rl.laneOfRun)));
  return runOffset(b, loc, *p.atom, rl, div(r, rl.tileRows), kb,
                   p.K / p.atom->k, runLane);
}

void ChunkEmitter::storeRunPiece(const RowCopy &by, Value buf,
                                 const Piece &piece) {
  storePieceAt(by, buf, piece, [&] { return runSlot(piece.r, piece.x); });
}

void ChunkEmitter::storePiece(const RowCopy &by, Value buf, int64_t stride,
                              const Piece &piece) {
  storePieceAt(by, buf, piece,
               [&] { return add(mul(piece.r, idx(stride)), piece.x); });
}

void ChunkEmitter::loadPieces(PendingRows &rows, Value base, int64_t n,
                              llvm::function_ref<bool(int64_t)> mayPass) {
  const RowCopy by = byWorkgroup();
  for (int64_t j = 0; j < n; ++j)
    rows.pieces.push_back(
        loadPiece(by, rows.field, rows.from, rows.width,
                  add(base, add(by.thread, idx(j * by.threads))), mayPass(j)));
}

void ChunkEmitter::storePieces(Value buf, const PendingRows &rows) {
  const RowCopy by = byWorkgroup();
  const int64_t stride = stagedStride(buf, rows.width);
  for (const Piece &piece : rows.pieces)
    storePiece(by, buf, stride, piece);
}

void ChunkEmitter::stageRows(Value buf, int64_t field, Value from,
                             int64_t width) {
  const int64_t count = p.C * (width / 4), threads = p.threads();
  const int64_t group =
      std::min(kPiecesInFlight, (count + threads - 1) / threads);
  const int64_t span = group * threads;
  const bool exact = count % span == 0;
  forRange(idx(0), idx((count + span - 1) / span * span), idx(span),
           [&](Value base) {
             PendingRows batch{field, width, from};
             loadPieces(batch, base, group, [&](int64_t) { return !exact; });
             storePieces(buf, batch);
           });
}

ChunkEmitter::At ChunkEmitter::stagedAt(Value buf, int64_t width) {
  return inLds(buf, stagedStride(buf, width), Held::F32).at;
}

ChunkEmitter::At ChunkEmitter::chunkRows(Value buf, int64_t field, Value from,
                                         int64_t width) {
  if (!p.stageScan)
    return [this, field, from](Value i, Value x) {
      return select(rowValid(i),
                    loadF(ws, recAt(safeToken(i), field, add(from, x))), f(0));
    };
  stageRows(buf, field, from, width);
  return stagedAt(buf, width);
}

ChunkEmitter::PendingRows ChunkEmitter::issueRows(int64_t field, Value from,
                                                  int64_t width) {
  PendingRows rows{field, width, from};
  const int64_t count = p.C * (width / 4), threads = p.threads();
  const int64_t trips = (count + threads - 1) / threads;
  if (!p.stageScan || trips > kPiecesInFlight)
    return rows;
  rows.deferred = false;
  loadPieces(rows, idx(0), trips,
             [&](int64_t j) { return (j + 1) * threads > count; });
  return rows;
}

ChunkEmitter::At ChunkEmitter::stagePending(Value buf, PendingRows &rows) {
  if (rows.deferred)
    return chunkRows(buf, rows.field, rows.from, rows.width);
  storePieces(buf, rows);
  return stagedAt(buf, rows.width);
}

void ChunkEmitter::scanChunk(Value c, Value ringSlot) {
  chunkStart = add(bos, mul(c, idx(p.C)));
  rows = arith::MinUIOp::create(b, loc, idx(p.C), sub(eos, chunkStart));
  const int64_t BV = p.blockV;
  if (p.prefetchNext)
    prefetchChunkRecords(add(chunkStart, idx(p.C)), tid);
  // exp(G_last) of the state rows this lane's update tiles hold, loaded
  // now: read where the update needs them, the global load's latency sat
  // on every chunk's serial path (after the barrier before the update).
  SmallVector<SmallVector<Value>> decays = updateDecays();
  // Every operand is a split word: S and V_new from their copies here, the
  // chunk's rows as the prep wrote them.
  Operand sOp = p.stateWords ? wordCopyOperand(ldsSw, p.K)
                             : inLds(ldsS, p.padded(BV), Held::F32);
  Operand vnOp = wordCopyOperand(ldsVn, p.C);
  auto staged = [&] {
    if (p.stageScan)
      barrier();
  };

  // V_new = U - W S. From the ring, the schedule's wait and drained
  // barrier before this iteration made the slot visible.
  At wAt, u;
  if (ringSlot) {
    std::tie(wAt, u) = ringRows(ringSlot);
  } else {
    wAt = chunkRows(ldsX, p.recW(), idx(0), p.K);
    u = chunkRows(ldsU, p.recU(), col0, BV);
    staged();
  }
  Operand w = ringSlot ? words(wAt) : rowsOperand(ldsX, p.K, wAt);
  // The output's rows load while V_new is computed (their buffer holds W).
  PendingRows qgRows = issueRows(p.recQG(), idx(0), p.K);
  PendingRows aqkRows = issueRows(p.recA(), idx(0), p.C);
  forTileBlocks(p.C, BV, [&](const TileBlock &blk, Value live) {
    SmallVector<Value> accs = gemmBlock(zeros(blk), blk, p.K, w, sOp);
    ifThen(live, [&] {
      eachBlockResult(accs, blk, [&](Value i, Value col, Value x) {
        store(word(fsub(u(i, col), x)), ldsVn, wordCopyAt(i, col, p.C));
      });
    });
  });
  barrier(); // V_new is complete; W's buffer may be restaged

  // O = (q o exp G) S + A_qk V_new, rows of the chunk only.
  Operand qg = rowsOperand(ldsX, p.K, stagePending(ldsX, qgRows));
  Operand aqk = rowsOperand(ldsAq, p.C, stagePending(ldsAq, aqkRows));
  staged();
  // The update's rows load while the output is computed.
  PendingRows kdRows = issueRows(p.recKD(), idx(0), p.K);
  forTileBlocks(p.C, BV, [&](const TileBlock &blk, Value live) {
    SmallVector<Value> accs = gemmBlock(zeros(blk), blk, p.K, qg, sOp);
    accs = gemmBlock(accs, blk, p.C, aqk, vnOp);
    ifThen(live, [&] {
      eachBlockResult(accs, blk, [&](Value i, Value col, Value x) {
        ifThen(rowValid(i), [&] {
          Value t = rowToken(i);
          store(x, out,
                add(mul(add(mul(t, idx(p.HV)), h), idx(p.V)), add(col0, col)));
        });
      });
    });
  });
  barrier(); // every read of S (and of q o exp G) is done before the update

  // S = diag(exp G_last) S + (k o exp(G_last - G))^T V_new: each piece
  // reads and writes only its own elements of S (and of their words).
  At kd = stagePending(ldsX, kdRows);
  staged();
  forTileBlockTrips(p.K, BV, [&](const TileBlock &blk, Value live, Value trip) {
    SmallVector<Value> accs;
    const FragmentLayout &c = p.atom->c;
    // This trip's decays, chosen among the trips' by select.
    auto decayOf = [&](size_t k) {
      Value d = decays[0][k];
      for (size_t i = 1; i < decays.size(); ++i)
        d = select(arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, trip,
                                         idx(int64_t(i))),
                   decays[i][k], d);
      return d;
    };
    // A wave past the last piece (computing on a clamped one) does not
    // read S: a live wave rewrites those elements in this phase, and the
    // read, whose result is dropped, would still race with that write.
    auto accType = VectorType::get({int64_t(c.elems)}, f32);
    for (int64_t t = 0; t < blk.tiles(); ++t) {
      auto [row0, col0] = tileOf(blk, t);
      accs.push_back(ifValue(
          accType, live,
          [&] {
            SmallVector<Value> elems;
            for (unsigned e = 0; e < c.elems; ++e) {
              auto [r, col] = fragmentCoords(b, loc, c, lane, e);
              elems.push_back(
                  fmul(decayOf(t * c.elems + e),
                       load(ldsS, blockAt(add(row0, r), add(col0, col)))));
            }
            return vector::FromElementsOp::create(b, loc, accType, elems)
                .getResult();
          },
          [&] { return zeroAccumulator(b, loc, *p.atom); }));
    }
    accs = gemmBlock(accs, blk, p.C,
                     words([&](Value d, Value j) { return kd(j, d); }), vnOp);
    ifThen(live, [&] {
      eachBlockResult(accs, blk, [&](Value d, Value col, Value x) {
        store(x, ldsS, blockAt(d, col));
        if (p.stateWords)
          store(word(x), ldsSw, wordCopyAt(d, col, p.K));
      });
    });
  });
  barrier(); // S, V_new and the staged rows are rewritten by the next chunk
}

// The next chunk's workspace records toward L2, one row (token) a thread:
// the prep wrote them long before (the whole workspace is far larger than
// L2), so without the hint every chunk's first staging waits on memory at
// the head of its serial step. On sm_90 a line prefetch per 128 bytes; AMD
// and the emulators drop the hint (kda.prefetch_row).
void ChunkEmitter::prefetchChunkRecords(Value next, Value thread) {
  Value t = add(next, thread);
  ifThen(arith::AndIOp::create(b, loc, lt(thread, idx(p.C)), lt(t, eos)),
         [&] { PrefetchRowOp::create(b, loc, ws, rec(t, 0), p.recFloats()); });
}

SmallVector<SmallVector<Value>> ChunkEmitter::updateDecays() {
  const Blocking bl = blockingOf(p.K, p.blockV);
  const FragmentLayout &c = p.atom->c;
  SmallVector<SmallVector<Value>> decays;
  for (int64_t i = 0; i < bl.trips(p.waves); ++i) {
    TileBlock blk = blockOf(bl, pieceAt(idx(i), bl.count).first);
    decays.emplace_back();
    for (int64_t t = 0; t < blk.tiles(); ++t) {
      Value row0 = tileOf(blk, t).first;
      for (unsigned e = 0; e < c.elems; ++e) {
        Value r = fragmentCoords(b, loc, c, lane, e).first;
        decays.back().push_back(
            loadF(ws, recAt(chunkStart, p.recGL(), add(row0, r))));
      }
    }
  }
  return decays;
}

void ChunkEmitter::copyChunkRows(Value iter, Value slot) {
  // Only the chunk's rows inside the sequence are copied: rows past its end
  // keep an earlier chunk's bytes and read as zero (ringRows). Each row is
  // one kda.copy_row; the schedule gives it its atom (staged or async).
  Value start = add(bos, mul(iter, idx(p.C)));
  Value valid = arith::MinUIOp::create(b, loc, idx(p.C), sub(eos, start));
  Value base = mul(slot, idx(4 * p.ringSlotFloats()));
  forRange(idx(0), valid, idx(1), [&](Value r) {
    Value t = add(start, r);
    CopyRowOp::create(b, loc, ws, rec(t, p.recW()), ringMem,
                      add(add(base, idx(4 * p.ringW())), mul(r, idx(4 * p.K))),
                      p.K, nullptr);
    CopyRowOp::create(b, loc, ws, add(rec(t, p.recU()), col0), ringMem,
                      add(add(base, idx(4 * p.ringU())),
                          mul(r, idx(4 * p.blockV))),
                      p.blockV, nullptr);
  });
}

std::pair<ChunkEmitter::At, ChunkEmitter::At>
ChunkEmitter::ringRows(Value slot) {
  auto space = gpu::AddressSpaceAttr::get(b.getContext(),
                                          gpu::AddressSpace::Workgroup);
  Value base = mul(slot, idx(4 * p.ringSlotFloats()));
  auto view = [&](int64_t at, int64_t floats) -> Value {
    return memref::ViewOp::create(
        b, loc, MemRefType::get({floats}, f32, nullptr, space), ringMem,
        add(base, idx(4 * at)), ValueRange{});
  };
  // Rows past the chunk's end hold stale bytes: zero by select, as the
  // staged path stores them.
  auto rowsOf = [this](Value mem, int64_t width) -> At {
    return [this, mem, width](Value i, Value x) {
      return select(rowValid(i), load(mem, add(mul(i, idx(width)), x)), f(0));
    };
  };
  return {rowsOf(view(p.ringW(), p.C * p.K), p.K),
          rowsOf(view(p.ringU(), p.C * p.blockV), p.blockV)};
}

LogicalResult ChunkEmitter::emitChunkPipeline(Value chunks) {
  // Iteration c copies chunk c's rows into slot c mod depth (the produce
  // body) and computes chunk c from that slot (the consume body: the whole
  // chunk step). Expanded and verified here, for every trip count; the
  // schedule stays in the kernel and the target's atom patterns lower
  // exactly it.
  // At least 0 by construction (the verifier's proof covers T >= 0; the
  // runtime refuses a batch whose lengths are negative anyway).
  Value trips = arith::MaxSIOp::create(b, loc, chunks, idx(0));
  auto pipe = PipelineOp::create(b, loc, "scan_rows", p.scanStages,
                                 /*trip_count=*/nullptr, trips);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(b.createBlock(&pipe.getBody()));
    Type index = b.getIndexType();
    auto produce = ProduceOp::create(
        b, loc, ring, p.ringAsync ? b.getUnitAttr() : UnitAttr(),
        b.getI64IntegerAttr(0));
    Block *copy = b.createBlock(&produce.getBody(), {}, {index, index},
                                {loc, loc});
    copyChunkRows(copy->getArgument(0), copy->getArgument(1));
    b.setInsertionPointAfter(produce);
    auto consume = ConsumeOp::create(b, loc, ring,
                                     b.getI64IntegerAttr(p.scanStages - 1));
    Block *read = b.createBlock(&consume.getBody(), {}, {index, index},
                                {loc, loc});
    scanChunk(read->getArgument(0), read->getArgument(1));
  }
  FailureOr<ScheduleOp> schedule = expandPipeline(pipe, target);
  if (failed(schedule))
    return failure();
  if (std::optional<PipelineHazard> hazard = findPipelineHazard(*schedule))
    return emitStageError(op) << "scan pipeline rejected on " << target.name
                              << ": " << hazard->message;
  return success();
}

LogicalResult ChunkEmitter::emitScan(gpu::GPUFuncOp func,
                                     FlatSymbolRefAttr ringSym) {
  ring = ringSym;
  LogicalResult built = success();
  Block &entry = func.getBody().front();
  bindColumnBlock(func);
  const int64_t BV = p.blockV;
  uCol0 = col0;
  Value isPadding =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sle, slot, idx(0));
  // Split: the segments past the sequence's own return at once; the maps
  // skip the last segment (its map is never composed) and the padding
  // rows, whose zeros the first segment's workgroups write.
  Value active, writesZeros;
  if (p.segmented()) {
    bindSegments();
    Value live = p.stage == ChunkStage::Maps ? sub(segCount, idx(1)) : segCount;
    active = lt(seg, live);
    writesZeros = p.stage == ChunkStage::Maps
                      ? Value()
                      : arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                              seg, idx(0));
  }
  ifThenElse(
      isPadding,
      [&] { // zero output rows, no state access
        if (p.stage == ChunkStage::Maps)
          return;
        ifMaybe(writesZeros, [&] {
          forThreads(mul(sub(eos, bos), idx(BV)), [&](Value i) {
            Value t = add(bos, div(i, BV));
            store(f(0), out,
                  add(mul(add(mul(t, idx(p.HV)), h), idx(p.V)),
                      add(col0, rem(i, BV))));
          });
        });
      },
      [&] {
        if (p.warpgroup) {
          emitWarpgroupScan();
          return;
        }
        if (p.regState) {
          ifMaybe(active, [&] { emitRegisterScan(); });
          return;
        }
        assert(!p.segmented() && "the split scan is a register scan");
        beginLds();
        ldsS = carve(p.K * p.padded(BV));
        if (p.stateWords)
          ldsSw =
              carve(p.operandRuns ? BV * p.paddedK(p.K) : p.K * p.padded(BV));
        ldsVn = carve(p.operandRuns ? BV * p.paddedK(p.C) : p.C * p.padded(BV));
        if (p.stageScan) {
          ldsX = carve(p.C * p.paddedK(p.K));
          if (!p.pipelined())
            ldsU = carve(p.C * p.padded(BV));
          ldsAq = carve(p.C * p.paddedK(p.C));
        }
        if (p.pipelined()) {
          // The ring's slots, last: the kda.lds_buffer's offset is this
          // view's (the verifier counts the bytes once, as the view's).
          assert(dynOffset == 4 * p.scanFixedFloats() && "ring offset");
          auto space = gpu::AddressSpaceAttr::get(b.getContext(),
                                                  gpu::AddressSpace::Workgroup);
          ringMem = memref::ViewOp::create(
              b, loc,
              MemRefType::get({4 * p.scanStages * p.ringSlotFloats()},
                              b.getI8Type(), nullptr, space),
              dynLds, idx(dynOffset), ValueRange{});
        }
        // The starting state: the slot's, or zeros without reading it.
        Value init = arith::CmpIOp::create(
            b, loc, arith::CmpIPredicate::ne, load(hasInit, n),
            arith::ConstantIntOp::create(b, loc, 0, 8));
        forThreads(idx(p.K * BV), [&](Value i) {
          Value d = div(i, BV), col = add(col0, rem(i, BV));
          Value s0 = ifValue(
              init, [&] { return loadF(state, stateOffset(slot, d, col)); },
              [&] { return f(0); });
          store(s0, ldsS, blockAt(d, rem(i, BV)));
          if (p.stateWords)
            store(word(s0), ldsSw, wordCopyAt(d, rem(i, BV), p.K));
        });
        barrier();
        Value chunks = div(add(sub(eos, bos), idx(p.C - 1)), p.C);
        if (p.pipelined())
          built = emitChunkPipeline(chunks);
        else
          forRange(idx(0), chunks, idx(1), [&](Value c) { scanChunk(c); });
        forThreads(idx(p.K * BV), [&](Value i) {
          Value d = div(i, BV), col = add(col0, rem(i, BV));
          store(load(ldsS, blockAt(d, rem(i, BV))),
                state, stateOffset(slot, d, col));
        });
      });
  b.setInsertionPointToEnd(&entry);
  gpu::ReturnOp::create(b, loc);
  return built;
}

//===----------------------------------------------------------------------===//
// scan, state in registers
//===----------------------------------------------------------------------===//

void ChunkEmitter::slabProducts(ArrayRef<Value> x, int64_t kLen,
                                ArrayRef<SlabTerm> terms) {
  const MmaAtom &atom = *p.atom;
  const bool natural = p.slab.form == SlabForm::Natural;
  const int64_t tl = p.slab.tileLength, per = p.slab.tilesPerStep;
  const unsigned elems = atom.c.elems;
  // L as the atom's A (natural) or L^T as its B (transposed): inLds's
  // element (r, c) at mem[r stride + c], or at mem[c stride + r].
  SmallVector<Operand> ls;
  for (const SlabTerm &term : terms) {
    if (p.wRuns && term.mem == ldsX) {
      assert(!natural && !term.byColumn && "W's runs: rows of B^T");
      ls.push_back(inRuns(term.mem, p.K));
      continue;
    }
    assert((term.held != Held::PairWords || (!natural && !term.byColumn)) &&
           "pair words run along the record row: L^T's k");
    ls.push_back(
        inLds(term.mem, term.stride, term.held,
              /*transposed=*/natural ? term.byColumn : !term.byColumn));
  }
  auto stepType = VectorType::get({int64_t(per * elems)}, f32);
  for (int64_t s = 0; s < kLen / int64_t(atom.k); ++s) {
    SmallVector<Value> elemsOfStep;
    for (int64_t j = 0; j < per; ++j)
      for (unsigned e = 0; e < elems; ++e)
        elemsOfStep.push_back(
            vector::ExtractOp::create(b, loc, x[s * per + j], int64_t(e)));
    SplitFragment xs = splitFragment(
        b, loc, atom,
        vector::FromElementsOp::create(b, loc, stepType, elemsOfStep));
    Value k0 = idx(s * atom.k);
    for (auto [term, l] : llvm::zip(terms, ls)) {
      assert(!(term.lower && term.rowOffset) &&
             "the triangle test counts rows from the term's first");
      SmallVector<int64_t> tiles;
      for (int64_t t = 0; t < int64_t(term.acc->size()); ++t)
        if (!term.lower || s * int64_t(atom.k) <= t * tl + tl - 1)
          tiles.push_back(t); // past it, L's upper triangle: zeros
      const size_t group =
          p.slabRoundTiles ? size_t(p.slabRoundTiles) : tiles.size();
      for (size_t g = 0; g < tiles.size(); g += group) {
        ArrayRef<int64_t> taken =
            ArrayRef(tiles).slice(g, std::min(group, tiles.size() - g));
        SmallVector<SplitFragment> ops;
        for (int64_t t : taken) {
          Value r0 = idx(t * tl), kk0 = k0;
          if (term.rowOffset)
            r0 = add(r0, term.rowOffset);
          if (term.kOffset)
            kk0 = add(k0, term.kOffset);
          ops.push_back(natural
                            ? splitOperand(atom, MmaOperand::A, r0, kk0, l)
                            : splitOperand(atom, MmaOperand::B, kk0, r0, l));
        }
        SmallVector<SplitProduct> products;
        for (auto [t, op] : llvm::zip(taken, ops))
          products.push_back(natural ? SplitProduct{&op, &xs, (*term.acc)[t]}
                                     : SplitProduct{&xs, &op, (*term.acc)[t]});
        for (auto [t, acc] :
             llvm::zip(taken, emitMmaSplitFusedRounds(b, loc, atom, products)))
          (*term.acc)[t] = acc;
      }
    }
  }
}

Value ChunkEmitter::partialAt(int64_t which, Value w, Value i, Value col) {
  // The area's first element, then the element's offset in it: a wave's
  // element offsets are then its lane's plus constants (immediates), where
  // (area x C + i) x stride with a wave-dependent area made every element's
  // address a value of its own, hoisted out of the chunk loop and live
  // across it (the 32-column split spilled 632 bytes on sm_90).
  const int64_t area = p.C * ChunkPlan::regXStride();
  Value first = add(idx(which * p.computeWaves * area), mul(w, idx(area)));
  return add(first, add(mul(i, idx(ChunkPlan::regXStride())), col));
}

SmallVector<Value> ChunkEmitter::sumParts(int64_t which) {
  return buildSlab(
      b, loc, slab(), p.C, [&](OpBuilder &, Location, Value i, Value col) {
        Value sum;
        for (int64_t part = 0; part < p.kSplit; ++part) {
          Value w = add(idx(part * p.colSlabs()), slabIdx);
          Value x = load(ldsXs, partialAt(which, w, i, col));
          sum = sum ? fadd(sum, x) : x;
        }
        return sum;
      });
}

void ChunkEmitter::stageChunkFields(Value c, ArrayRef<StagedField> fields) {
  // The staging waves (or, self-staged, every wave): thread st of
  // `stagers`.
  const int64_t stagers = p.stagerThreads();
  Value start = add(bos, mul(c, idx(p.C)));
  const RowCopy by{stagerThread(), stagers, start,
                   arith::MinUIOp::create(b, loc, idx(p.C), sub(eos, start))};
  // Pieces go kStagePieces at a time: all of a batch loaded, then stored
  // (the staging waves carry the compute waves' slab registers too, so a
  // phase's 16 to 24 pieces at once spilled on sm_90).
  struct FieldPiece {
    const StagedField *field;
    int64_t j;
  };
  SmallVector<FieldPiece> pieces;
  for (const StagedField &f : fields)
    for (int64_t j = 0; j * stagers < p.C * (f.width / 4); ++j)
      pieces.push_back({&f, j});
  DenseMap<const StagedField *, PieceColumn> columns;
  for (const StagedField &f : fields)
    if (auto col = pieceColumn(by, f.field, f.from, f.width, idx(0)))
      columns[&f] = *col;
  if (p.selfStaged()) {
    for (const FieldPiece &fp : pieces) {
      auto it = columns.find(fp.field);
      copyPiece(by, *fp.field, fp.j,
                it == columns.end() ? nullptr : &it->second);
    }
    return;
  }
  auto load = [&](const FieldPiece &fp) -> Piece {
    const StagedField &f = *fp.field;
    assert(!f.place && !f.keep && "placed pieces are self-staged");
    const bool mayPass = (fp.j + 1) * stagers > p.C * (f.width / 4);
    auto it = columns.find(&f);
    if (it != columns.end())
      return loadColumnPiece(by, it->second, fp.j, mayPass);
    return loadPiece(by, f.field, f.from, f.width,
                     add(by.thread, idx(fp.j * stagers)), mayPass);
  };
  for (size_t first = 0; first < pieces.size(); first += kStagePieces) {
    const size_t last = std::min(pieces.size(), first + size_t(kStagePieces));
    SmallVector<Piece> batch;
    for (size_t n = first; n < last; ++n)
      batch.push_back(load(pieces[n]));
    for (size_t n = first; n < last; ++n) {
      const StagedField &f = *pieces[n].field;
      if (p.wRuns && f.buf == ldsX)
        storeRunPiece(by, f.buf, batch[n - first]);
      else
        storePiece(by, f.buf, f.stride, batch[n - first]);
    }
  }
}

void ChunkEmitter::stageExpGLast(Value c) {
  assert(p.regGlFloats() / 4 <= p.stagerThreads() &&
         "one piece of exp(G_last) a thread");
  Value st = stagerThread();
  ifThen(lt(st, idx(p.regGlFloats() / 4)), [&] {
    Value at = mul(st, idx(4));
    Value start = add(bos, mul(c, idx(p.C)));
    if (p.selfStaged()) {
      CopyPieceOp::create(b, loc, ws, recAt(start, p.recGL(), at), ldsGl, at,
                          arith::ConstantIntOp::create(b, loc, 1, 1),
                          toCopyAtom(target.copyAtom));
      return;
    }
    Value gl =
        vector::LoadOp::create(b, loc, VectorType::get({4}, f32), ws,
                               ValueRange{recAt(start, p.recGL(), at)},
                               /*nontemporal=*/false, llvm::MaybeAlign(16));
    vector::StoreOp::create(b, loc, gl, ldsGl, ValueRange{at},
                            /*nontemporal=*/false, llvm::MaybeAlign(16));
  });
}

SmallVector<Value> ChunkEmitter::registerScanChunk(Value c, Value chunks,
                                                   ArrayRef<Value> s) {
  chunkStart = add(bos, mul(c, idx(p.C)));
  rows = arith::MinUIOp::create(b, loc, idx(p.C), sub(eos, chunkStart));
  // Columns of the wave's slab in the state block, and in the head.
  auto blockCol = [&](Value col) { return add(slabCol0, col); };
  auto headCol = [&](Value col) { return add(col0, blockCol(col)); };
  At u = [this](Value i, Value x) {
    Value ux =
        p.stageU
            ? load(ldsU,
                   add(mul(i, idx(ChunkPlan::regStride(p.blockV, true))), x))
            : select(rowValid(i),
                     loadF(ws, recAt(safeToken(i), p.recU(), add(uCol0, x))),
                     f(0));
    return uZero ? select(uZero, f(0), ux) : ux;
  };
  // The maps take no output: no (q o exp G) S, no A_qk V_new, and neither's
  // rows staged.
  const bool outputs = p.stage != ChunkStage::Maps;
  const int64_t rowStride = ChunkPlan::regStride(p.K, false);
  SmallVector<Type> cTypes = slabTileTypes(b.getContext(), slab(), p.C),
                    kTypes =
                        slabTileTypes(b.getContext(), slab(), p.slabRows());
  // The chunk's rows of O (the slab's columns) to the output.
  auto storeOutput = [&](ArrayRef<Value> o) {
    forEachSlabElement(
        b, loc, slab(), o,
        [&](OpBuilder &, Location, Value x, Value i, Value col) {
          ifThen(rowValid(i), [&] {
            Value t = rowToken(i);
            store(x, out,
                  add(mul(add(mul(t, idx(p.HV)), h), idx(p.V)), headCol(col)));
          });
        });
  };

  // Phase 1, the products of S: V_new = U - W S and O = (q o exp G) S
  // (each S step split once for both), while the staging waves bring
  // A_qk, k o exp(G_last - G), exp(G_last) and, split along K, U. Split,
  // each part takes its rows' share of W S and (q o exp G) S and leaves it
  // in LDS; V_new is taken in phase 2.
  SmallVector<Type> phase1Types(cTypes);
  phase1Types.append(cTypes);
  SmallVector<Value> vnO = scanPhase(
      phase1Types,
      [&] {
        SmallVector<Value> vn = zeroSlab(b, loc, slab(), p.C),
                           o = zeroSlab(b, loc, slab(), p.C);
        SmallVector<SlabTerm> terms = {
            {&vn, ldsX, rowStride, false, false, slabRow0}};
        if (outputs)
          terms.push_back({&o, ldsQg, rowStride, false, false, slabRow0,
                           Value(),
                           p.qgPairs() ? Held::PairWords : Held::SplitWords});
        slabProducts(s, p.slabRows(), terms);
        if (p.kSplit > 1) {
          // Partial sums over this part's rows of K: phase 2 adds the parts.
          for (auto [which, part] :
               llvm::enumerate(std::array<SmallVector<Value> *, 2>{&vn, &o}))
            forEachSlabElement(b, loc, slab(), *part,
                               [&, which = which](OpBuilder &, Location,
                                                  Value x, Value i, Value col) {
                                 store(x, ldsXs,
                                       partialAt(int64_t(which), wave, i, col));
                               });
          vn.append(o);
          return vn;
        }
        vn = mapSlab(b, loc, slab(), vn,
                     [&](OpBuilder &, Location, Value x, Value i, Value col) {
                       return fsub(u(i, blockCol(col)), x);
                     });
        vn.append(o);
        return vn;
      },
      [&] {
        if (p.regPrefetch)
          prefetchChunkRecords(add(bos, mul(add(c, idx(1)), idx(p.C))),
                               stagerThread());
        SmallVector<StagedField> fields = {
            {ldsKd, p.recKD(), idx(0), p.K, ChunkPlan::regStride(p.K, true)}};
        if (outputs)
          fields.insert(fields.begin(), {ldsAq, p.recA(), idx(0), p.C,
                                         ChunkPlan::regStride(p.C, false)});
        // Split along K, V_new = U - W S is taken in phase 2 (the parts'
        // sums meet there), so U comes with this phase's rows.
        if (p.stageU && p.kSplit > 1)
          fields.push_back(uField());
        stageChunkFields(c, fields);
        stageExpGLast(c);
        SmallVector<Value> zeros = zeroSlab(b, loc, slab(), p.C);
        zeros.append(zeroSlab(b, loc, slab(), p.C));
        return zeros;
      });
  copyFence();
  barrier();
  const size_t cTiles = cTypes.size();
  SmallVector<Value> vn(vnO.begin(), vnO.begin() + cTiles);
  SmallVector<Value> o(vnO.begin() + cTiles, vnO.end());

  // Phase 2, the products of V_new: O += A_qk V_new (stored, rows of the
  // chunk only) and S = diag(exp G_last) S + (k o exp(G_last - G))^T
  // V_new (unsplit, each V_new step split once for both; split, the
  // first part's O in a product of its own), while the staging waves
  // bring the next chunk's W, q o exp G and, unsplit, U.
  SmallVector<Value> next = scanPhase(
      kTypes,
      [&] {
        // Both products of V_new together (each step split once): O and
        // the new state's accumulators are live together and sm_90 spills
        // a few words, but measured on the H200 (2026-12-02, one call) one
        // after the other was slower: 1 x 8192 H32's scan 0.885 -> 1.011
        // ms, 1 x 32768 H8's 2.88 -> 3.2.
        SmallVector<Value> acc =
            mapSlab(b, loc, slab(), s,
                    [&](OpBuilder &, Location, Value x, Value d, Value) {
                      return fmul(load(ldsGl, slabRowOf(d)), x);
                    });
        if (p.kSplit > 1) {
          // V_new = U - sum of the parts' W S, in every part (each updates
          // its rows with all of V_new); the output in the first part.
          vn = mapSlab(b, loc, slab(), sumParts(0),
                       [&](OpBuilder &, Location, Value x, Value i, Value col) {
                         return fsub(u(i, blockCol(col)), x);
                       });
          ifThen(lt(slabRow0, idx(1)), [&] {
            SmallVector<Value> sum = sumParts(1);
            slabProducts(vn, p.C,
                         {{&sum, ldsAq, ChunkPlan::regStride(p.C, false),
                           /*byColumn=*/false, /*lower=*/true}});
            storeOutput(sum);
          });
          slabProducts(
              vn, p.C,
              {{&acc, ldsKd, ChunkPlan::regStride(p.K, true),
                /*byColumn=*/true, /*lower=*/false, Value(), slabRow0}});
          return acc;
        }
        SmallVector<SlabTerm> terms;
        if (outputs)
          terms.push_back({&o, ldsAq, ChunkPlan::regStride(p.C, false),
                           /*byColumn=*/false, /*lower=*/true});
        terms.push_back({&acc, ldsKd, ChunkPlan::regStride(p.K, true),
                         /*byColumn=*/true});
        slabProducts(vn, p.C, terms);
        if (outputs)
          storeOutput(o);
        return acc;
      },
      [&] {
        Value c1 = add(c, idx(1));
        ifThen(lt(c1, chunks), [&] { stagePhase1Rows(c1); });
        // The carried slab (zeros in a staging wave) passes through.
        // Yielding constants here instead (the slab dead in this branch)
        // measured slower in the call after: 1 x 8192 H32's scan 0.967 ms
        // against the commit before's 0.956, where this form took 0.885
        // against 0.956-0.960 in its own call.
        return SmallVector<Value>(s);
      });
  copyFence();
  barrier();
  return next;
}

void ChunkEmitter::stagePhase1Rows(Value c) {
  SmallVector<StagedField> fields = {
      {ldsX, p.recW(), idx(0), p.K, ChunkPlan::regStride(p.K, false)}};
  if (p.stage != ChunkStage::Maps) // the output's rows
    fields.push_back(
        {ldsQg, p.recQG(), idx(0), p.K, ChunkPlan::regStride(p.K, false)});
  if (p.stageU && p.kSplit == 1)
    fields.push_back(uField());
  stageChunkFields(c, fields);
}

// LLVM's loop-invariant code motion, off for a scan's chunk loop (the latch
// branch's loop_annotation, which scf-to-cf and the LLVM conversion carry
// over): it hoisted every loop-invariant LDS address, descriptor and copy
// base of the chunk's products out of the loop, live across it at 255
// registers.
static void disableLicm(scf::ForOp loop) {
  MLIRContext *ctx = loop.getContext();
  auto yes = BoolAttr::get(ctx, true);
  loop->setAttr("loop_annotation", LLVM::LoopAnnotationAttr::get(
                                       ctx, {}, {}, {}, {}, {},
                                       LLVM::LoopLICMAttr::get(ctx, yes, yes),
                                       {}, {}, {}, {}, {}, {}, {}, {}, {}));
}

void ChunkEmitter::emitRegisterScan() {
  beginLds();
  ldsX = carve(p.regRowsFloats(false));
  ldsQg = carve(p.regRowsFloats(false));
  ldsKd = carve(p.regRowsFloats(true));
  ldsAq = carve(p.regAqFloats());
  ldsGl = carve(p.regGlFloats());
  if (p.stageU)
    ldsU = carve(p.regUFloats());
  if (p.kSplit > 1)
    ldsXs = carve(p.regXFloats());
  computes = lt(wave, idx(p.computeWaves));
  // A staging wave holds no slab; its column is clamped to 0. Unsplit,
  // compute wave w holds column slab w, all rows (no row offset in the
  // products' or the state's addresses); split, column slab w mod
  // colSlabs, the rows of part w div colSlabs.
  Value cw = select(computes, wave, idx(0));
  if (p.kSplit > 1) {
    slabIdx = rem(cw, p.colSlabs());
    slabCol0 = mul(slabIdx, idx(p.slab.width));
    slabRow0 = mul(div(cw, p.colSlabs()), idx(p.slabRows()));
  } else {
    slabCol0 = mul(cw, idx(p.slab.width));
  }
  // The starting state: the slot's, or zeros without reading it; maps:
  // [I | 0]; a segment of a split sequence: its entering state, which the
  // join left in the workspace (so the slot, which the last segment
  // writes, is read by no segment).
  Value init =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, load(hasInit, n),
                            arith::ConstantIntOp::create(b, loc, 0, 8));
  auto headCol = [&](Value col) { return add(col0, add(slabCol0, col)); };
  const SmallVector<Type> slabTypes =
      slabTileTypes(b.getContext(), slab(), p.slabRows());
  auto slabOf = [&](llvm::function_ref<Value(Value, Value)> at) {
    return buildSlab(
        b, loc, slab(), p.slabRows(),
        [&](OpBuilder &, Location, Value d, Value col) { return at(d, col); });
  };
  auto fromSlot = [&] {
    return ifValues(
        arith::AndIOp::create(b, loc, computes, init), slabTypes,
        [&] {
          return slabOf([&](Value d, Value col) {
            return loadF(state, stateOffset(slot, slabRowOf(d), headCol(col)));
          });
        },
        [&] { return zeroSlab(b, loc, slab(), p.slabRows()); });
  };
  Value isSplit;
  if (p.segmented())
    isSplit = lt(idx(1), segCount);
  SmallVector<Value> s0;
  if (p.stage == ChunkStage::Maps) {
    // Column headCol of [M | B] starts as column headCol of [I | 0].
    s0 = slabOf([&](Value d, Value col) {
      Value diagonal = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                             slabRowOf(d), headCol(col));
      return select(diagonal, f(1), f(0));
    });
    Value inM = lt(col0, idx(p.K));
    uZero = inM;
    uCol0 = select(inM, idx(0), sub(col0, idx(p.K)));
  } else if (p.stage == ChunkStage::Segments) {
    s0 = ifValues(
        arith::AndIOp::create(b, loc, computes, isSplit), slabTypes,
        [&] {
          Value key = segKey(seg);
          return slabOf([&](Value d, Value col) {
            return load(ws,
                        segAt(key, slabRowOf(d), add(idx(p.K), headCol(col))));
          });
        },
        fromSlot);
  } else {
    s0 = fromSlot();
  }
  Value first = idx(0), end = div(add(sub(eos, bos), idx(p.C - 1)), p.C);
  if (p.segmented())
    first = segFirst, end = segEnd;
  // The first chunk's phase-1 rows, where the sequence has a chunk: an
  // empty one (bos = eos, possibly the batch's last token + 1) reads no
  // record.
  Value stages = lt(first, end);
  if (!p.selfStaged())
    stages = arith::AndIOp::create(
        b, loc, stages,
        arith::XOrIOp::create(b, loc, computes,
                              arith::ConstantIntOp::create(b, loc, 1, 1)));
  ifThen(stages, [&] { stagePhase1Rows(first); });
  copyFence();
  barrier();
  auto loop = scf::ForOp::create(b, loc, first, end, idx(1), s0);
  {
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(loop.getBody());
    SmallVector<Value> carried(loop.getRegionIterArgs());
    scf::YieldOp::create(
        b, loc, registerScanChunk(loop.getInductionVar(), end, carried));
  }
  // Self-staged (every wave computes and copies its own rows): LICM off.
  // Measured on a lent H100 (2026-12-06, one call, two rounds), the
  // 128-column scan 0.639 -> 0.618-0.621 ms at 4 x 4096 H32 (48 -> 0 bytes
  // spilled); off for the staged scans, their hoisted addresses fit, and
  // recomputing them each chunk cost the 32-column scan 0.477 -> 0.533
  // (1 x 8192 H32) and the maps 0.466-0.473 -> 0.532-0.536 (1 x 32768 H8).
  if (p.selfStaged())
    disableLicm(loop);
  SmallVector<Value> last(loop.getResults());
  // The final state: to the slot (segments: the last one's); maps: [M | B]
  // to the segment's records.
  Value writes = computes;
  if (p.stage == ChunkStage::Segments)
    writes = arith::AndIOp::create(
        b, loc, computes,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, seg,
                              sub(segCount, idx(1))));
  Value key = p.stage == ChunkStage::Maps ? segKey(seg) : Value();
  ifThen(writes, [&] {
    forEachSlabElement(b, loc, slab(), last,
                       [&](OpBuilder &, Location, Value x, Value d, Value col) {
                         if (key)
                           store(x, ws, segAt(key, slabRowOf(d), headCol(col)));
                         else
                           store(x, state,
                                 stateOffset(slot, slabRowOf(d), headCol(col)));
                       });
  });
}

//===----------------------------------------------------------------------===//
// scan on the warpgroup atom (docs/wgmma-plan.md, step 6)
//===----------------------------------------------------------------------===//

std::pair<Value, Value> ChunkEmitter::doubledA(ArrayRef<Value> vals) {
  assert(vals.size() == 4 && "four pairs an A fragment");
  Value v =
      vector::FromElementsOp::create(b, loc, VectorType::get({4}, f32), vals);
  SplitFragment sp = splitFragment(b, loc, *wg64, v);
  auto half = cast<VectorType>(sp.hi.getType());
  Value zeros = arith::ConstantOp::create(b, loc, half, b.getZeroAttr(half));
  // B' holds (hi, lo) of each k side by side: (hi, hi) sums A_hi (B_hi +
  // B_lo), (lo, 0) adds A_lo B_hi.
  Value hi = vector::ShuffleOp::create(
      b, loc, sp.hi, sp.hi, ArrayRef<int64_t>{0, 0, 1, 1, 2, 2, 3, 3});
  Value lo = vector::ShuffleOp::create(
      b, loc, sp.lo, zeros, ArrayRef<int64_t>{0, 4, 1, 4, 2, 4, 3, 4});
  return {hi, lo};
}

void ChunkEmitter::doubledSteps(
    int64_t steps, int64_t batch,
    llvm::function_ref<SmallVector<Value>(int64_t)> valuesOf,
    llvm::function_ref<void(Value, Value, Value)> issue) {
  assert(steps % batch == 0 && "whole batches");
  for (int64_t j0 = 0; j0 < steps; j0 += batch) {
    SmallVector<std::pair<Value, Value>> frags;
    SmallVector<Value> offs;
    for (int64_t j = j0; j < j0 + batch; ++j) {
      frags.push_back(doubledA(valuesOf(j)));
      offs.push_back(idx(256 * j)); // two core matrices of 128 bytes
    }
    for (int64_t j = j0; j < j0 + batch; ++j)
      issue(frags[j - j0].first, frags[j - j0].second, offs[j - j0]);
  }
}

void ChunkEmitter::stageWarpgroupRows(Value c, bool phase1) {
  // Chunk row (token) r is core-matrix row pos(r) of the products' n (and
  // of the update's k): tok(8 i + 2 t + q) = 8 i + t + 4 q, so that the
  // accumulator's columns 8 i + 2 t, + 1 of thread t are the tokens its A'
  // fragments take next (docs/wgmma-plan.md, step 6).
  auto pos = [&](Value r) {
    return add(add(mul(div(r, 8), idx(8)), mul(rem(r, 4), idx(2))),
               div(rem(r, 8), 4));
  };
  // A piece is 4 floats of a row from float x: 8 bf16 of k' = 2 x, one
  // core matrix's 16 bytes (x / 4 along k', from its start); the row's
  // token at n = pos(r) (K-major) or at k = pos(r) (MN-major, x along n').
  auto at = [&, pos](const SharedOperandLayout &l, Value r, Value x) {
    CoreCoord piece{div(x, 4), idx(0)};
    Value t = pos(r);
    CoreCoord token{div(t, 8), rem(t, 8)};
    return l.mnMajor ? sharedOperandIndex(b, loc, l, token, piece, 4)
                     : sharedOperandIndex(b, loc, l, piece, token, 4);
  };
  auto placed = [&, at](SharedOperandLayout l) {
    return [&, at, l](Value r, Value x) { return at(l, r, x); };
  };
  // Eight rows on is one core matrix on along the token's dimension.
  auto rows8 = [](SharedOperandLayout l) {
    return int64_t(l.mnMajor ? l.lbo : l.sbo) / 4;
  };
  if (phase1) {
    StagedField w{ldsX, p.recW(), idx(0), p.K, 0, placed(p.wgRowsLayout())};
    w.placeRows8 = rows8(p.wgRowsLayout());
    StagedField qg = w;
    qg.buf = ldsQg, qg.field = p.recQG();
    StagedField u = uField();
    const int64_t stride = u.stride;
    u.place = [&, stride](Value r, Value x) {
      return add(mul(r, idx(stride)), x);
    };
    u.placeRows8 = 8 * stride;
    stageChunkFields(c, {w, qg, u});
    return;
  }
  // A_qk's pieces wholly above the diagonal are zeros (the prep writes the
  // rest of the upper triangle as zeros, zeroIntra).
  StagedField aq{ldsAq,
                 p.recA(),
                 idx(0),
                 p.C,
                 0,
                 placed(p.wgAqLayout()),
                 [&](Value r, Value x) {
                   return arith::CmpIOp::create(
                       b, loc, arith::CmpIPredicate::ule, x, r);
                 }};
  aq.placeRows8 = rows8(p.wgAqLayout());
  StagedField kd{ldsKd, p.recKD(), idx(0), p.K, 0, placed(p.wgKdLayout())};
  kd.placeRows8 = rows8(p.wgKdLayout());
  stageChunkFields(c, {aq, kd});
  stageExpGLast(c);
}

void ChunkEmitter::emitWarpgroupScan() {
  std::string why;
  std::tie(wg64, wg128) = warpgroupScanAtoms(target, why);
  assert(wg128 && "planWarpgroupScan checked the atoms");
  beginLds();
  auto carveBoth = [&](int64_t floats, Value &bytes) {
    SmallVector<Value> views = carveShared(floats, {f32, b.getI8Type()});
    bytes = views[1];
    return views[0];
  };
  ldsX = carveBoth(p.wgRowsFloats(), wgW);
  ldsQg = carveBoth(p.wgRowsFloats(), wgQg);
  ldsKd = carveBoth(p.wgRowsFloats(), wgKd);
  ldsAq = carveBoth(p.C * p.C, wgAq);
  ldsU = carve(p.regUFloats());
  ldsGl = carve(p.regGlFloats());
  uCol0 = col0;
  // Thread t of its quad, quad row g of its wave: rows 16 w + g (+ 8) of its
  // warpgroup's 64, block columns 64 (warpgroup) + 16 w + g (+ 8).
  wgT = rem(lane, 4);
  wgRow = add(
      add(mul(div(tid, 128), idx(64)), mul(div(rem(tid, 128), 32), idx(16))),
      div(lane, 4));
  const int64_t quads = p.K / 4;
  SmallVector<Type> types(2 * quads, f32);
  auto stateAt = [&](int64_t r, int64_t i) {
    return stateOffset(slot, add(idx(4 * i), wgT),
                       add(col0, add(wgRow, idx(8 * r))));
  };
  // The starting state: the slot's, or zeros without reading it.
  Value init =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, load(hasInit, n),
                            arith::ConstantIntOp::create(b, loc, 0, 8));
  SmallVector<Value> s0 = ifValues(
      init, types,
      [&] {
        SmallVector<Value> s;
        for (int64_t r = 0; r < 2; ++r)
          for (int64_t i = 0; i < quads; ++i)
            s.push_back(loadF(state, stateAt(r, i)));
        return s;
      },
      [&] { return SmallVector<Value>(2 * quads, f(0)); });
  Value end = div(add(sub(eos, bos), idx(p.C - 1)), p.C);
  ifThen(lt(idx(0), end), [&] { stageWarpgroupRows(idx(0), true); });
  copyFence();
  barrier();
  auto loop = scf::ForOp::create(b, loc, idx(0), end, idx(1), s0);
  {
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(loop.getBody());
    SmallVector<Value> carried(loop.getRegionIterArgs());
    scf::YieldOp::create(b, loc,
                         warpgroupChunk(loop.getInductionVar(), end, carried));
  }
  disableLicm(loop);
  for (int64_t r = 0; r < 2; ++r)
    for (int64_t i = 0; i < quads; ++i)
      store(loop.getResult(r * quads + i), state, stateAt(r, i));
}

SmallVector<Value> ChunkEmitter::warpgroupChunk(Value c, Value chunks,
                                                ArrayRef<Value> s) {
  chunkStart = add(bos, mul(c, idx(p.C)));
  rows = arith::MinUIOp::create(b, loc, idx(p.C), sub(eos, chunkStart));
  const int64_t quads = p.K / 4;
  auto sAt = [&](int64_t r, int64_t i) { return s[r * quads + i]; };
  const SharedOperandLayout rowsB = p.wgRowsLayout(), aqB = p.wgAqLayout(),
                            kdB = p.wgKdLayout();
  // Accumulator element e of thread t: row 8 ((e / 2) mod 2) of its quad
  // row, column 8 (e / 4) + 2 t + e mod 2, the token 8 (e / 4) + t + 4 (e
  // mod 2) (stageWarpgroupRows' order); its block column.
  auto token = [&](int64_t e) {
    return add(idx(8 * (e / 4) + 4 * (e % 2)), wgT);
  };
  auto column = [&](int64_t e) { return add(wgRow, idx(8 * ((e / 2) % 2))); };
  auto elems = [&](Value acc, int64_t count) {
    SmallVector<Value> out;
    for (int64_t e = 0; e < count; ++e)
      out.push_back(vector::ExtractOp::create(b, loc, acc, e));
    return out;
  };
  const int64_t nAcc = wg64->c.elems;

  // Phase 1: chunk c's A_qk, k o exp(G_last - G) and exp(G_last) issued,
  // then the products of S^T; k' step j takes S^T's k = 8 j + t (pairs of
  // row half 0, 1) and 8 j + 4 + t: registers i = 2 j, 2 j + 1.
  stageWarpgroupRows(c, false);
  Value x = zeroAccumulator(b, loc, *wg64), y = x;
  doubledSteps(
      2 * p.K / 16, 2,
      [&](int64_t j) -> SmallVector<Value> {
        return {sAt(0, 2 * j), sAt(1, 2 * j), sAt(0, 2 * j + 1),
                sAt(1, 2 * j + 1)};
      },
      [&](Value hi, Value lo, Value off) {
        x = emitWgmma(b, loc, *wg64, hi, wgW, off, rowsB, x);
        x = emitWgmma(b, loc, *wg64, lo, wgW, off, rowsB, x);
        y = emitWgmma(b, loc, *wg64, hi, wgQg, off, rowsB, y);
        y = emitWgmma(b, loc, *wg64, lo, wgQg, off, rowsB, y);
      });
  WgmmaCommitOp::create(b, loc);
  auto xy =
      WgmmaWaitOp::create(b, loc, ValueRange{x, y}, b.getI64IntegerAttr(0));
  // V_new^T = U^T - X, element by element (U's rows staged last phase).
  SmallVector<Value> vn;
  for (auto [e, xe] : llvm::enumerate(elems(xy.getResult(0), nAcc))) {
    Value u = load(ldsU, add(mul(token(int64_t(e)),
                                 idx(ChunkPlan::regStride(p.blockV, true))),
                             column(int64_t(e))));
    vn.push_back(fsub(u, xe));
  }
  copyFence();
  barrier();

  // Phase 2: chunk c + 1's W, q o exp G and U issued; O^T = Y + V_new^T
  // A_qk^T (k' step j: tokens 8 j + t, 8 j + 4 + t, accumulator elements
  // 4 j + 2 r and 4 j + 2 r + 1).
  Value c1 = add(c, idx(1));
  ifThen(lt(c1, chunks), [&] { stageWarpgroupRows(c1, true); });
  Value o = xy.getResult(1);
  doubledSteps(
      2 * p.C / 16, 4,
      [&](int64_t j) -> SmallVector<Value> {
        return {vn[4 * j], vn[4 * j + 2], vn[4 * j + 1], vn[4 * j + 3]};
      },
      [&](Value hi, Value lo, Value off) {
        o = emitWgmma(b, loc, *wg64, hi, wgAq, off, aqB, o);
        o = emitWgmma(b, loc, *wg64, lo, wgAq, off, aqB, o);
      });
  WgmmaCommitOp::create(b, loc);
  o = WgmmaWaitOp::create(b, loc, ValueRange{o}, b.getI64IntegerAttr(0))
          .getResult(0);
  for (auto [e, oe] : llvm::enumerate(elems(o, nAcc))) {
    Value t = token(int64_t(e));
    ifThen(rowValid(t), [&, oe = oe, e = e] {
      store(oe, out,
            add(mul(add(mul(rowToken(t), idx(p.HV)), h), idx(p.V)),
                add(col0, column(int64_t(e)))));
    });
  }
  // The update, a half of K at a time (K's doubled columns: 128 of them a
  // product): A = V_new^T's accumulator elements 8 j .. 8 j + 7 (k step j:
  // the token order the rows were placed in), hi then lo; D' columns 2 k
  // and 2 k + 1 (k = 4 i + t) are its hi and lo products.
  SmallVector<Value> next(s.begin(), s.end());
  for (int64_t half = 0; half < p.K / 64; ++half) {
    Value d = zeroAccumulator(b, loc, *wg128);
    SmallVector<SplitFragment> frags;
    for (int64_t j = 0; j < p.C / 16; ++j) {
      Value v8 =
          vector::FromElementsOp::create(b, loc, VectorType::get({8}, f32),
                                         ArrayRef<Value>(vn).slice(8 * j, 8));
      frags.push_back(splitFragment(b, loc, *wg128, v8));
    }
    SmallVector<Value> offs;
    for (int64_t j = 0; j < p.C / 16; ++j)
      offs.push_back(idx(half * 16 * p.wgKdSbo() + 256 * j));
    for (int64_t j = 0; j < p.C / 16; ++j) {
      Value off = offs[j];
      d = emitWgmma(b, loc, *wg128, frags[j].hi, wgKd, off, kdB, d);
      d = emitWgmma(b, loc, *wg128, frags[j].lo, wgKd, off, kdB, d);
    }
    WgmmaCommitOp::create(b, loc);
    d = WgmmaWaitOp::create(b, loc, ValueRange{d}, b.getI64IntegerAttr(0))
            .getResult(0);
    SmallVector<Value> de = elems(d, wg128->c.elems);
    for (int64_t q = 0; q < 16; ++q) {
      const int64_t i = 16 * half + q;
      Value gl = load(ldsGl, add(idx(4 * i), wgT));
      for (int64_t r = 0; r < 2; ++r) {
        Value upd = fadd(de[4 * q + 2 * r], de[4 * q + 2 * r + 1]);
        next[r * quads + i] = fadd(fmul(gl, sAt(r, i)), upd);
      }
    }
  }
  copyFence();
  barrier();
  return next;
}

//===----------------------------------------------------------------------===//
// the split scan's join
//===----------------------------------------------------------------------===//

void ChunkEmitter::emitJoin(gpu::GPUFuncOp func) {
  Block &entry = func.getBody().front();
  bindColumnBlock(func);
  const int64_t BV = p.blockV;
  bindSegments();
  Value split = arith::AndIOp::create(
      b, loc,
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sgt, slot, idx(0)),
      lt(idx(1), segCount));
  ifThen(split, [&] {
    beginLds();
    Value cur = carve(p.joinHeldFloats()), next = carve(p.joinHeldFloats());
    Value mRows = carve(p.joinRows() * p.K);
    // Element i of the K x BV block: row d, column c of the block; its B
    // (and entering state) column in [M | B]; its place in LDS, where the
    // block is held by columns (a column's 4 adjacent rows: one 16-byte
    // read), padded by 4 floats so that the 8 columns of a quarter warp's
    // reads fall on distinct banks (unpadded, the 16 columns a warp reads
    // were one bank: the join's step took 41 us against 14 row-major).
    const int64_t heldStride = p.K + 4;
    auto row = [&](Value i) { return div(i, BV); };
    auto bCol = [&](Value i) { return add(idx(p.K), add(col0, rem(i, BV))); };
    auto held = [&](Value d, Value c) {
      return add(mul(c, idx(heldStride)), d);
    };
    auto heldAt = [&](Value i) { return held(row(i), rem(i, BV)); };
    Value init = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::ne, load(hasInit, n),
        arith::ConstantIntOp::create(b, loc, 0, 8));
    forThreads(idx(p.K * BV), [&](Value i) {
      Value s0 = ifValue(
          init,
          [&] {
            return loadF(state,
                         stateOffset(slot, row(i), add(col0, rem(i, BV))));
          },
          [&] { return f(0); });
      store(s0, cur, heldAt(i));
    });
    barrier();
    // E_{s+1} = M_s E_s + B_s; E_s goes to B_s's place, read by segment s.
    // M_s comes through LDS a block of joinRows() rows at a time, every
    // thread's 16-byte loads in flight together (read from the workspace
    // row by row, each thread's dependent loads made a step ~50 us on the
    // H200: 0.8 ms for 16 segments of 1 x 32768 H8).
    const int64_t rows = p.joinRows();
    const VectorType run = VectorType::get({4}, f32);
    auto vec = [&](Value mem, Value at) {
      return vector::LoadOp::create(b, loc, run, mem, ValueRange{at},
                                    /*nontemporal=*/false, llvm::MaybeAlign(16))
          .getResult();
    };
    forRange(idx(0), sub(segCount, idx(1)), idx(1), [&](Value s) {
      Value key = segKey(s);
      for (int64_t r0 = 0; r0 < p.K; r0 += rows) {
        // Every 16-byte load of the block issued before any store (as a
        // loop from tid, one load's latency a trip). With the outputs
        // below, measured on the H200 (2026-12-03, one call, two rounds):
        // the join of 1 x 32768 H8 0.091 -> 0.043 ms, of 2 x 16384 H8
        // 0.093 -> 0.045 (its 7 steps of 13 us now 6).
        const int64_t runs = rows * p.K / 4;
        const int64_t trips = (runs + p.threads() - 1) / p.threads();
        SmallVector<std::pair<Value, Value>> pending; // (live, LDS index)
        SmallVector<Value> loaded;
        for (int64_t t = 0; t < trips; ++t) {
          Value j = add(tid, idx(t * p.threads()));
          Value in = runs % p.threads() ? lt(j, idx(runs)) : Value();
          if (in)
            j = select(in, j, idx(0));
          Value r = div(j, p.K / 4), e = mul(rem(j, p.K / 4), idx(4));
          loaded.push_back(vec(ws, segAt(key, add(idx(r0), r), e)));
          pending.push_back({in, add(mul(r, idx(p.K)), e)});
        }
        for (int64_t t = 0; t < trips; ++t)
          ifMaybe(pending[t].first, [&] {
            vector::StoreOp::create(
                b, loc, loaded[t], mRows, ValueRange{pending[t].second},
                /*nontemporal=*/false, llvm::MaybeAlign(16));
          });
        barrier();
        // A thread's outputs of the block: column tid % BV of rows
        // tid / BV + j x rowStep, their sums side by side in one loop (each
        // E column's run read once for all of them) and B_s's elements
        // loaded before it (added after: one output a trip, the load
        // starting each trip's 128-deep FMA chain made a step ~13 us).
        const int64_t rowStep = int64_t(p.threads()) / BV;
        const int64_t per = (rows + rowStep - 1) / rowStep;
        Value c = rem(tid, BV), first = div(tid, BV);
        SmallVector<Value> r, live, at, bs;
        for (int64_t j = 0; j < per; ++j) {
          Value row = add(first, idx(j * rowStep));
          Value in = rows % rowStep ? lt(row, idx(rows)) : Value();
          r.push_back(in ? select(in, row, idx(0)) : row);
          live.push_back(in);
          at.push_back(
              segAt(key, add(idx(r0), r[j]), add(idx(p.K), add(col0, c))));
          bs.push_back(load(ws, at[j]));
        }
        SmallVector<Value> sums = forReduceAll(
            idx(0), idx(p.K / 4), SmallVector<Value>(per, f(0)),
            [&](Value e4, ValueRange acc) {
              Value e = mul(e4, idx(4));
              Value x = vec(cur, held(e, c));
              SmallVector<Value> out;
              for (int64_t j = 0; j < per; ++j) {
                Value m = vec(mRows, add(mul(r[j], idx(p.K)), e));
                Value sum = acc[j];
                for (int64_t t = 0; t < 4; ++t)
                  sum = math::FmaOp::create(
                      b, loc, vector::ExtractOp::create(b, loc, m, t),
                      vector::ExtractOp::create(b, loc, x, t), sum);
                out.push_back(sum);
              }
              return out;
            });
        for (int64_t j = 0; j < per; ++j)
          ifMaybe(live[j], [&] {
            Value own = held(add(idx(r0), r[j]), c);
            store(fadd(sums[j], bs[j]), next, own);
            store(load(cur, own), ws, at[j]);
          });
        barrier();
      }
      forThreads(idx(p.K * BV), [&](Value i) {
        store(load(next, heldAt(i)), cur, heldAt(i));
      });
      barrier();
    });
    // The last segment's entering state, in its own records (its map is
    // never taken, so its B place is free).
    Value lastKey = segKey(sub(segCount, idx(1)));
    forThreads(idx(p.K * BV), [&](Value i) {
      store(load(cur, heldAt(i)), ws, segAt(lastKey, row(i), bCol(i)));
    });
  });
  b.setInsertionPointToEnd(&entry);
  gpu::ReturnOp::create(b, loc);
}

/// The operands each stage reads or writes, with their roles, and the
/// workspace: the one statement of the kernel's ABI.
SmallVector<KernelArg> chunkStageAbi(ChunkStageOp op) {
  MLIRContext *ctx = op.getContext();
  auto elem = [&](Value operand) { return kernelArgElementType(ctx, operand); };
  auto in = [&](const char *name, Value operand) {
    return inputArg(ctx, name, operand);
  };
  KernelArg workspace{"workspace", Float32Type::get(ctx), ArgRole::Workspace};
  if (op.getStage() == ChunkStage::Prep) {
    SmallVector<KernelArg> abi = layerInputArgs(op);
    abi.push_back(workspace);
    return abi;
  }
  return {in("cu_seqlens", op.getCuSeqlens()),
          in("slots", op.getSlots()),
          in("has_initial_state", op.getHasInitialState()),
          {"state", elem(op.getState()), ArgRole::InOut},
          {"out", elem(op.getO()), ArgRole::Output},
          workspace};
}

} // namespace

ChunkStageOp mlir::kda::createChunkStage(OpBuilder &builder, ChunkOp chunk,
                                         ChunkStage stage,
                                         IntegerAttr chunkSize,
                                         IntegerAttr scanStages,
                                         std::optional<int64_t> blockV,
                                         IntegerAttr segmentChunks) {
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPoint(chunk);
  Location loc = FusedLoc::get(chunk.getContext(), {chunk.getLoc()},
                               builder.getStringAttr(kChunkOrigin));
  return ChunkStageOp::create(
      builder, loc, chunk.getLayer(), chunk.getConfigAttr(), chunk.getQ(),
      chunk.getK(), chunk.getV(), chunk.getG(), chunk.getBeta(),
      chunk.getALog(), chunk.getDtBias(), chunk.getCuSeqlens(),
      chunk.getSlots(), chunk.getHasInitialState(), chunk.getState(),
      chunk.getO(), chunkSize, stage, scanStages,
      blockV ? builder.getI64IntegerAttr(*blockV) : IntegerAttr(),
      segmentChunks, chunk.getWarpgroupScan());
}

const char *mlir::kda::chunkStageKind(ChunkStage stage) {
  switch (stage) {
  case ChunkStage::Prep:
    return "chunk_prep";
  case ChunkStage::Scan:
    return "chunk_scan";
  case ChunkStage::Maps:
    return "chunk_maps";
  case ChunkStage::Join:
    return "chunk_join";
  case ChunkStage::Segments:
    return "chunk_segments";
  }
  llvm_unreachable("a chunk stage");
}

/// Whether a W written as `atom`'s B runs by the prep of `p` takes the form
/// storeWRuns and the scans' staging assume: 16-byte runs (one piece
/// each), two column tiles of the accumulator to a k block, pair i of a
/// block at word (i mod R) elems + i div R (R runs a block), records of
/// whole 16-byte pieces.
static bool wRunsWritable(const MmaAtom &atom, const RunLayout &rl,
                          const ChunkPlan &p) {
  const int64_t runs = atom.k / rl.elems;
  if (rl.elems != 4 || 2 * atom.n != atom.k || runs != atom.n / 2 ||
      !accumulatorPairsAlongRow(atom) || p.K % atom.k || p.recFloats() % 4 ||
      p.recW() % 4)
    return false;
  for (int64_t i = 0; i < int64_t(rl.pairWord.size()); ++i)
    if (rl.pairWord[i] != (i % runs) * rl.elems + i / runs)
      return false;
  return true;
}

/// Whether every stage of one function's `stages` that reads W can take it
/// as runs (see markRecordRuns).
static bool recordRunsFit(MutableArrayRef<ChunkStageOp> stages,
                          const TargetInfo &target) {
  // The warpgroup scan reads every record as split words.
  if (llvm::any_of(stages,
                   [](ChunkStageOp op) { return op.getWarpgroupScan(); }))
    return false;
  const MmaAtom *atom = nullptr;
  bool scans = false;
  for (ChunkStageOp op : stages) {
    ChunkPlan p;
    if (op.getStage() == ChunkStage::Join)
      continue;
    // A stage that cannot be built says so when it is built, not here.
    std::string why;
    if (failed(planQuietly(op, target, p, why)))
      return false;
    if (atom && p.atom->kind != atom->kind)
      return false; // the prep writes the scans' atom's runs
    atom = p.atom;
    if (op.getStage() == ChunkStage::Prep)
      continue;
    std::optional<RunLayout> rl = runLayoutOf(*p.atom, MmaOperand::B);
    if (!p.regState || p.slab.form == SlabForm::Natural || !rl ||
        !wRunsWritable(*p.atom, *rl, p))
      return false;
    scans = true;
  }
  return scans;
}

void mlir::kda::markRecordRuns(ArrayRef<ChunkStageOp> ops,
                               const TargetInfo &target) {
  // Only this decision counts: an attribute the input already carried (a
  // hand-written or re-run module) would make the prep write runs that an
  // LDS scan then reads as split words.
  llvm::MapVector<Operation *, SmallVector<ChunkStageOp>> byFunction;
  for (ChunkStageOp op : ops) {
    op->removeAttr(kRecordRunsAttr);
    byFunction[op->getParentOp()].push_back(op);
  }
  for (auto &[fn, stages] : byFunction)
    if (recordRunsFit(stages, target))
      for (ChunkStageOp op : stages)
        op->setAttr(kRecordRunsAttr, UnitAttr::get(op.getContext()));
}

/// Why a block as wide as all the register scan's waves' slabs has no
/// self-staged form on `target` (ChunkPlan::selfStaged).
static std::string whyNotSelfStaged(const ChunkPlan &p,
                                    const TargetInfo &target) {
  std::string why;
  llvm::raw_string_ostream os(why);
  os << "it runs fast only as the self-staged "
     << "register scan (" << kWaves << " waves of " << kSub
     << " state columns, each copying its own rows), ";
  if (target.copyAtom != CopyAtomKind::CpAsync)
    os << "which takes per-thread async copies (cp_async), and " << target.name
       << " has none";
  else if (p.pipelined())
    os << "which runs at scan_stages 1, not " << p.scanStages;
  else
    os << "which does not hold it at head_k " << p.K << " on " << target.name
       << " (" << p.blockV / kSub << " slabs for " << kWaves << " waves, or "
       << "its LDS)";
  os << "; its LDS-resident form was measured slower and is not built";
  return why;
}

ScanChoice mlir::kda::chooseChunkScan(ChunkStageOp op,
                                      const TargetInfo &target) {
  std::optional<int64_t> bv = op.getBlockV();
  // A warpgroup scan's block on a chip without the atom: not there, so no
  // faster than the others (on a chip with it, a block its rules refuse is
  // unfit, like any other).
  if (op.getWarpgroupScan() && bv && *bv % 64 == 0) {
    std::string why;
    if (!warpgroupScanAtoms(target, why).second)
      return {ScanChoice::Slow, "warpgroup_scan takes warpgroup atoms: " + why};
  }
  ChunkPlan p;
  std::string why;
  if (failed(planQuietly(op, target, p, why)))
    return {ScanChoice::Unfit, why};
  // A pipelined scan's LDS is judged by the verifier's R6 when it is built
  // (naming the ring and depth); a block whose ring already does not fit is
  // unfit here, so that the blocks that fit stand.
  if (p.pipelined() && 4 * p.ldsFloats() > int64_t(target.ldsBytes))
    return {ScanChoice::Unfit,
            ("its ring at scan_stages " + Twine(p.scanStages) + " needs " +
             Twine(4 * p.ldsFloats()) + " bytes of LDS, " + target.name +
             " has " + Twine(target.ldsBytes))
                .str()};
  // Its other forms measured slower than the 64-column scan on the H200
  // (docs/chunk-path.md, thirty-fourth session: the rows copied through
  // the compute waves' registers, or by staging waves beside them at 168
  // registers); an LDS-resident scan of it was not built.
  if (bv && *bv / kSub >= int64_t(kWaves) && !p.selfStaged())
    return {ScanChoice::Slow, whyNotSelfStaged(p, target)};
  return {};
}

/// Whether one of `stages`' scans is built at chunk size `c` on `target`
/// (chooseChunkScan) - with `inRegisters`, one that holds its state in
/// registers (ChunkPlan::regState) -, or `stages` holds no scan.
static bool scanBuildsAt(ArrayRef<ChunkStageOp> stages,
                         const TargetInfo &target, int64_t c,
                         bool inRegisters = false) {
  bool anyScan = false;
  for (ChunkStageOp op : stages) {
    if (op.getStage() != ChunkStage::Scan)
      continue;
    anyScan = true;
    ChunkStageOp copy = cloneAtChunkSize(op, c);
    bool builds = chooseChunkScan(copy, target).kind == ScanChoice::Build;
    if (builds && inRegisters) {
      ChunkPlan p;
      std::string why;
      builds = succeeded(planQuietly(copy, target, p, why)) && p.regState;
    }
    copy->destroy();
    if (builds)
      return true;
  }
  return !anyScan;
}

int64_t mlir::kda::defaultChunkSize(ArrayRef<ChunkStageOp> stages,
                                    const TargetInfo &target) {
  assert(!stages.empty() && "the stages of one layer");
  // Measured on the H200 (docs/chunk-path.md, thirteenth and twenty-third
  // sessions): 64 the fastest on the H 32 batches, so the largest that
  // builds: the prep holds a chunk's rows of every operand in LDS, a scan a
  // block's (a pipelined one a ring of them), and chooseScans leaves out
  // the scans that do not fit while one stands.
  // One halving down, a size whose scan holds its state in registers
  // wins over an LDS-resident scan (gfx942 and emu at head_k 128: 32, not
  // 64, for their 64 KiB), so the AMD targets run the kernels measured on
  // sm_90. On the H200: with register scans, chunks of 32 cost 3-6%
  // against 64 on the H32 batches and gained 4% on 1 x 32768 H8
  // (twenty-third session), where the LDS-resident scan cost 13% of the
  // path (eighteenth: 2.64 against 2.33 ms at 4 x 4096 H32); and only a
  // register scan has the scan split within a sequence (1 x 32768 H8 2.87
  // -> 1.91 ms, docs/split-scan.md), the regime of few (sequence, head)
  // pairs such as Kimi-K3's 12 heads at TP8. Two halvings (64 to 16) cost
  // 31-54% there, more than the LDS-resident scan.
  for (int64_t c : kChunkSizes) {
    if (!plansAt(stages.front(), target, c, /*asPrep=*/true) ||
        !scanBuildsAt(stages, target, c))
      continue;
    const int64_t half = c / 2;
    if (!scanBuildsAt(stages, target, c, /*inRegisters=*/true) &&
        llvm::is_contained(kChunkSizes, half) &&
        plansAt(stages.front(), target, half, /*asPrep=*/true) &&
        scanBuildsAt(stages, target, half, /*inRegisters=*/true))
      return half;
    return c;
  }
  // No scan builds at any size: the largest the prep fits, whose scans'
  // builds name the rule they break; none fits: the smallest, whose build
  // names the LDS it lacks.
  for (int64_t c : kChunkSizes)
    if (plansAt(stages.front(), target, c, /*asPrep=*/true))
      return c;
  return kChunkSizes[std::size(kChunkSizes) - 1];
}

bool mlir::kda::chunkSegmentsBuildable(ChunkStageOp op,
                                       const TargetInfo &target) {
  if (op.getStage() == ChunkStage::Prep || op.getStage() == ChunkStage::Scan)
    return true;
  // The builder's own plan, its diagnostic (the register scan or the join
  // does not fit, or whatever else the stage's own build will report) kept
  // quiet.
  ChunkPlan p;
  std::string why;
  return succeeded(planQuietly(op, target, p, why));
}

FailureOr<gpu::GPUFuncOp>
mlir::kda::buildChunkStageKernel(OpBuilder &builder, gpu::GPUModuleOp module,
                                 StringRef name, ChunkStageOp op,
                                 const TargetInfo &target) {
  ChunkPlan p;
  if (failed(makePlan(op, target, p)))
    return failure();
  MLIRContext *ctx = builder.getContext();
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToEnd(module.getBody());
  Location loc = op.getLoc();
  const bool prep = op.getStage() == ChunkStage::Prep;
  // The scan's row ring, beside the kernel (the verifier and the atom
  // lowerings find it by symbol); its bytes are the last view of the
  // kernel's dynamic LDS, at this offset.
  FlatSymbolRefAttr ring;
  if (!prep && p.pipelined()) {
    std::string ringName = (name + "_scan_rows").str();
    LdsBufferOp::create(builder, loc, ringName, p.scanStages,
                        4 * p.ringSlotFloats(), 4 * p.scanFixedFloats());
    ring = FlatSymbolRefAttr::get(ctx, ringName);
  }
  SmallVector<KernelArg> abi = chunkStageAbi(op);
  auto func = gpu::GPUFuncOp::create(
      builder, loc, name, FunctionType::get(ctx, kernelArgTypes(ctx, abi), {}),
      TypeRange{}, TypeRange{});
  func->setAttr(gpu::GPUDialect::getKernelFuncAttrName(),
                builder.getUnitAttr());
  setKernelAbi(func, abi);
  func.setKnownBlockSizeAttr(
      builder.getDenseI32ArrayAttr({int32_t(p.threads()), 1, 1}));
  // The prep's occupancy, as a request the atom lowering gives each chip
  // (kda-lower-atoms: nvvm.minctasm on NVPTX, where ptxas then sizes the
  // registers for it). Measured on the H200 (2026-12-01, 1 x 8192 H32, ncu,
  // one call): the prep took 1.48 ms at 3 workgroups an SM (80 registers),
  // 1.43 ms at 4 (64 registers, spilling 132 bytes) and 1.71 ms at the 2 an
  // SM of the 121-123 registers ptxas picks on its own; whole path 2.75 /
  // 2.70 / 3.00 ms. 3: no spills for 2% of time.
  // Asked no higher than the LDS allows: since G is held in two parts
  // (2026-12-07) sm_90's prep at 64-row chunks takes 108 KiB, two
  // workgroups an SM, whose registers need no cap of 80.
  if (op.getStage() == ChunkStage::Prep) {
    int64_t byLds = int64_t(target.ldsBytes) / (4 * p.prepLdsFloats());
    func->setAttr(kWorkgroupsPerCuAttrName,
                  builder.getI32IntegerAttr(int32_t(
                      std::clamp<int64_t>(byLds, 1, kPrepWorkgroupsPerSM))));
  }
  // The 16-column scan keeps two workgroups an SM (128 registers): with
  // the update's decays loaded at the chunk's start (updateDecays) ptxas
  // took 167 on its own, one an SM. Measured on the H200 (2026-12-01, H 8,
  // one call; blocked scan without the early decays / early decays at 167 /
  // at 128, spilling 4 bytes): 1 x 32768 4.775 / 3.613 / 3.881 ms, 2 x 8192
  // (128 workgroups) 1.419 / 1.139 / 1.188, 3 x 8192 (192) 1.907 / 2.013 /
  // 1.814: the cap never loses to the late loads, and one an SM does where
  // the workgroups outnumber the SMs.
  if (p.stage == ChunkStage::Scan && p.waves == kWaves && !p.regState &&
      !p.warpgroup)
    func->setAttr(kWorkgroupsPerCuAttrName,
                  builder.getI32IntegerAttr(kNarrowScanWorkgroupsPerSM));
  func->setAttr("kda.kind", builder.getStringAttr(chunkStageKind(p.stage)));
  func->setAttr("kda.layer", op.getLayer());
  // prep: (chunks of the longest sequence, value heads, sequences);
  // scan and join: (state column blocks, value heads, sequences); maps:
  // (column blocks of [M | B], value heads x kMaxSegments, sequences);
  // segments: (state column blocks, value heads x kMaxSegments, sequences).
  const int64_t gridX = prep                          ? -2
                        : p.stage == ChunkStage::Maps ? (p.K + p.V) / p.blockV
                                                      : p.V / p.blockV;
  func->setAttr("kda.grid",
                builder.getDenseI64ArrayAttr(
                    {gridX, p.segmented() ? p.HV * kMaxSegments : p.HV, -1}));
  func->setAttr(
      "kda.workspace",
      builder.getDictionaryAttr(
          {builder.getNamedAttr("fixed",
                                builder.getI64IntegerAttr(p.wsFixed())),
           builder.getNamedAttr("per_token",
                                builder.getI64IntegerAttr(p.wsPerToken())),
           builder.getNamedAttr("per_seq", builder.getI64IntegerAttr(0))}));
  func->setAttr("kda.dynamic_lds_bytes",
                builder.getI64IntegerAttr(4 * p.ldsFloats()));
  func->setAttr(
      "kda.tile",
      builder.getDictionaryAttr(
          {builder.getNamedAttr("chunk_size", builder.getI64IntegerAttr(p.C)),
           builder.getNamedAttr("waves", builder.getI64IntegerAttr(p.waves)),
           builder.getNamedAttr("atom", builder.getStringAttr(
                                            stringifyMmaKind(p.atom->kind)))}));
  if (!prep) {
    // The scan's row pipeline depth and column block: the manifest's
    // kernel facts, the runtime's pick and the tuner read them here.
    NamedAttrList tile(func->getAttrOfType<DictionaryAttr>("kda.tile"));
    tile.set("scan_stages", builder.getI64IntegerAttr(p.scanStages));
    tile.set("block_v", builder.getI64IntegerAttr(p.blockV));
    if (p.regState)
      tile.set("k_split", builder.getI64IntegerAttr(p.kSplit));
    if (p.warpgroup)
      tile.set("warpgroup", builder.getBoolAttr(true));
    // The cost model prices its step apart (kda::rt::kSelfStagedStep).
    if (p.selfStaged())
      tile.set("self_staged", builder.getBoolAttr(true));
    if (p.segChunks) {
      tile.set("segment_chunks", builder.getI64IntegerAttr(p.segChunks));
      tile.set("max_segments", builder.getI64IntegerAttr(kMaxSegments));
    }
    func->setAttr("kda.tile", tile.getDictionary(ctx));
  }
  // Says which kernels take W's records in run order (markRecordRuns).
  if (p.wRuns)
    func->setAttr(kRecordRunsAttr, builder.getUnitAttr());
  ChunkEmitter emitter(builder, loc, p, op, target);
  if (prep) {
    emitter.emitPrep(func);
    return func;
  }
  if (p.stage == ChunkStage::Join) {
    emitter.emitJoin(func);
    return func;
  }
  if (failed(emitter.emitScan(func, ring))) {
    func.erase();
    if (ring)
      module.lookupSymbol<LdsBufferOp>(ring.getValue()).erase();
    return failure();
  }
  if (p.regState || p.warpgroup) {
    // The register scan's waves hand the staged arrays to each other
    // between barriers: checked here, and again by kda-verify-pipeline in
    // every target pipeline (the attribute asks for it).
    // Self-staged, every wave has the one role.
    SmallVector<int64_t> roles = {int64_t(p.waveSize)};
    if (!p.selfStaged())
      roles.push_back(int64_t(p.computeWaves));
    func->setAttr(kWaveRolesAttr, builder.getDenseI64ArrayAttr(roles));
    if (failed(verifyLdsHandoffs(func))) {
      func.erase();
      return failure();
    }
  }
  if (ring) {
    // The kernel's own LDS accesses against the schedule's entry (the
    // schedule was verified from quiescent LDS).
    if (failed(verifyScheduleEntries(func))) {
      func.erase();
      module.lookupSymbol<LdsBufferOp>(ring.getValue()).erase();
      return failure();
    }
    // Record what was verified; the ring stays beside the kernel for
    // kda-verify-pipeline and the atom lowerings (which erase it).
    auto buf = module.lookupSymbol<LdsBufferOp>(ring.getValue());
    func->setAttr("kda.verified_pipeline",
                  builder.getStringAttr(llvm::formatv(
                      "scan_rows: depth {0}, {1} slots of {2} bytes at "
                      "dynamic LDS byte {3}, {4} copies, verified for {5}",
                      p.scanStages, buf.getSlots(), buf.getSlotBytes(),
                      buf.getOffset(), p.ringAsync ? "async" : "staged",
                      target.name)));
  }
  return func;
}
