//===- ChunkNumericsTest.cpp - the chunk path vs the float64 oracle -------===//
//
// The chunk (prefill) kernels on the emulators (emu: gfx942's MFMA atoms at
// wave 64; emu950: gfx950's; emu32: sm_90's mma.sync at wave 32) through
// kda_launch_chunk, against the float64 oracle, on the batches of issue 8:
// sequence lengths 1, 2, 15, 16, 17, 63, 64, 65, 200 and 1000 in one varlen
// batch with padding rows, a zero-length row, initial states on and off
// behind poisoned (NaN) stale slots; softplus gates at +-1000; saturated
// betas; decodes (length-1 rows) only; every scan column block the plan
// may pick (the emulator's compute units steer the choice).
// Bars: outputs within 1.5x of the error of the oracle's own result rounded
// to the output type, and never above 5e-3; bf16 state pools likewise
// against bf16 rounding; f32 states within 1e-5 (the recurrent kernel's bar:
// f32 rounding of the result alone, ~4e-8, is below what any f32 evaluation
// over many tokens reaches); no NaN or Inf; padding rows zero; unnamed
// slots bit-identical. A length-1 row through the chunk path equals the
// recurrent kernel's result within the same bar. kda_forward with both
// kernels (the planner sends rows over 64 tokens to the chunk plan) agrees
// with the oracle and with the same call on the recurrent kernel alone.
//
//===----------------------------------------------------------------------===//
#include "Harness.h"
#include "Manifest.h"
#include "OpenedBundle.h"

#include <climits>
#include <cstdlib>
#include <gtest/gtest.h>
#include <limits>

#include <algorithm>
#include <map>
#include <ostream>
#include <utility>

using namespace kda;
using kda::test::BatchShape;

namespace {

constexpr double kAbsoluteBar = 5e-3;
constexpr double kRoundingMultiple = 1.5;
constexpr double kF32StateBar = 1e-5;

struct ChunkCase {
  const char *spec;
  const char *target;
  const char *batch;
  /// The emulator's compute units (KDA_EMU_COMPUTE_UNITS; null: its
  /// default, 132) and the scan the plan must pick with them: the batches
  /// here are small, so the default picks the narrowest block and 1 the
  /// widest.
  const char *units = nullptr;
  const char *scanSuffix = "_scan";
  /// >= 0: the plan runs this alternative after the prep
  /// (kda_plan_add_chunk_scan) instead of the one the batch shape picks:
  /// batches the cost model runs plainly, kept through a split.
  int32_t alternative = -1;
};

void PrintTo(const ChunkCase &c, std::ostream *os) {
  *os << c.spec << "/" << c.target << "/" << c.batch;
  if (c.units)
    *os << "/units " << c.units;
  if (c.alternative >= 0)
    *os << "/alternative " << c.alternative;
}

/// Sets the emulator's compute units for one scope.
struct ComputeUnits {
  explicit ComputeUnits(const char *units) {
    if (units)
      setenv("KDA_EMU_COMPUTE_UNITS", units, 1);
  }
  ~ComputeUnits() { unsetenv("KDA_EMU_COMPUTE_UNITS"); }
};

/// The scan a chunk plan of `b` launches (its last launch's kernel): the
/// one the batch shape picks, or `alternative` where >= 0; with `launch`,
/// the plan is launched too (an empty name where planning or launching
/// failed).
std::string chosenScan(kda_bundle *bundle, const kda_kernel *chunk,
                       const kda_batch &b, int32_t alternative = -1,
                       bool launch = false) {
  kda_plan *plan = nullptr;
  std::string scan;
  if (kda_plan_create(bundle, &plan) == KDA_OK &&
      (alternative < 0
           ? kda_plan_add_chunk(plan, chunk, &b)
           : kda_plan_add_chunk_scan(plan, chunk, &b, alternative)) == KDA_OK &&
      kda_plan_size(plan) > 0 &&
      (!launch || kda_plan_launch(plan, nullptr) == KDA_OK))
    scan = test::withoutDigest(
        kda_plan_kernel_symbol(plan, kda_plan_size(plan) - 1));
  kda_plan_destroy(plan);
  // The emulator's entry point is the kernel's packed-argument wrapper.
  const std::string packed = "_packed";
  if (scan.size() > packed.size() &&
      scan.compare(scan.size() - packed.size(), packed.size(), packed) == 0)
    scan.resize(scan.size() - packed.size());
  return scan;
}

BatchShape chunkShape(const std::string &batch) {
  if (batch == "varlen") { // issue 8's lengths, padding, stale NaN slots
    BatchShape s{{1, 2, 15, 16, 17, 63, 64, 65, 200, 1000, 3, 0, 5},
                 {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 0, 11, -1},
                 {1, 0, 1, 0, 1, 1, 0, 1, 0, 1, 1, 0, 1}};
    s.staleNaN = true;
    return s;
  }
  if (batch == "short") // every row shorter than or about one chunk
    return {{1, 2, 15, 16, 17, 33, 64, 65}, {}, {1, 0, 1, 1, 0, 1, 1, 0}};
  if (batch == "extreme") { // g about -1000 every third token (softplus)
    BatchShape s{{70, 1, 130}, {2, 5, 3}, {1, 1, 0}};
    s.extremeGate = 1000;
    return s;
  }
  if (batch == "mixed_gates") {
    // g about -1000 every third token of the first row only: its chunks
    // take the prep's pairwise diagonal blocks (chunkAnchorable), the other
    // rows' chunks the atoms, in one launch.
    BatchShape s{{130, 70, 200}, {1, 2, 3}, {1, 0, 1}};
    s.extremeGate = 1000;
    s.extremeTokens = 130;
    return s;
  }
  if (batch == "saturation") { // gate and beta inputs at their boundaries
    BatchShape s{{40, 7, 1}, {1, 2, 3}, {1, 0, 1}};
    // A_log = 89: exp(A_log) overflows f32 (inf x 0 at a raw gate of 0,
    // g = -inf at softplus(1000)); EmuNumericsTest's saturation batch, and
    // -inf (the gate 'none': a log decay of -inf, floored at kGateFloor,
    // where the chunk path's falls were -inf - -inf = NaN).
    s.gateValues = {19.9, 20,  20.1,  25,
                    50,   100, -1000, 1000,
                    0.5,  -20, 0,     -std::numeric_limits<double>::infinity()};
    s.aLogValues = {-4, 89, 0};
    s.betaValues = {-1000, -20, 0, 20, 1000, 0.3};
    return s;
  }
  if (batch == "forget") { // forget events: a large step, then small ones
    BatchShape s{{70, 33, 130, 1}, {1, 2, 3, 4}, {1, 0, 1, 1}};
    s.forgetEvents = true;
    return s;
  }
  if (batch == "forget_bursts") { // bursts of them, then small steps
    BatchShape s{{130, 64, 1}, {1, 2, 3}, {1, 0, 1}};
    s.forgetEvents = true;
    s.forgetBursts = true;
    return s;
  }
  if (batch == "carry") {
    // Slow gates (A_log -7 and -5) and small betas: a segment's map of the
    // state stays near the identity, so the split scan's join carries
    // each state far into the next segments (with the default draws a
    // segment of 32 rows decays it below the bars' resolution).
    BatchShape s{{2100, 200, 3, 65, 64}, {1, 2, 3, 4, 5}, {1, 0, 1, 1, 1}};
    s.aLogValues = {-7, -5};
    s.betaValues = {-4, -2, 0, -3};
    s.staleNaN = true;
    return s;
  }
  // "decodes": length-1 rows only, some without initial state.
  return {{1, 1, 1, 1, 1, 1}, {5, 2, 7, 9, 1, 11}, {1, 1, 0, 1, 1, 0}};
}

using Opened = test::OpenedBundle;

/// Opens the bundle in `dir` on `target` and finds `name`.
void open(const std::string &dir, const char *target, const std::string &name,
          Opened &o) {
  ASSERT_EQ(o.open(dir, target), KDA_OK) << o.error;
  ASSERT_STREQ(kda_bundle_target(o.bundle), target);
  ASSERT_NE(o.find(name), nullptr) << o.error;
}

std::string bundleDir(const char *spec) {
  return std::string(KDA_NUMERIC_BUNDLES_DIR) + "/chunk/" + spec;
}

void expectWithinBars(const test::CaseResult &r, kda_dtype state) {
  EXPECT_TRUE(r.finite) << "NaN or inf in outputs or states";
  EXPECT_LE(r.outErr, kAbsoluteBar) << "outputs";
  EXPECT_LE(r.outErr, kRoundingMultiple * r.outRoundErr)
      << "outputs: rounding the oracle to the output type costs "
      << r.outRoundErr;
  if (state == KDA_F32) {
    EXPECT_LE(r.stateErr, kF32StateBar) << "states";
  } else {
    EXPECT_LE(r.stateErr, kAbsoluteBar) << "states";
    EXPECT_LE(r.stateErr, kRoundingMultiple * r.stateRoundErr)
        << "states: rounding the oracle to the state type costs "
        << r.stateRoundErr;
  }
  EXPECT_TRUE(r.paddingZero) << "padding rows must be zeros";
  EXPECT_TRUE(r.untouchedIdentical) << "slots not in the batch changed";
}

/// Prepares `batch` for `layer` with the chunk path's workspace.
void prepareChunkBatch(test::Harness &h, const kda_kernel *chunk,
                       const std::string &seedName, const BatchShape &shape) {
  h.prepare(shape, /*numSlots=*/13, std::hash<std::string>{}(seedName));
  kda_batch b = h.batch();
  int64_t bytes = 0;
  ASSERT_EQ(kda_kernel_workspace_bytes(chunk, b.num_tokens, b.num_seqs,
                                       &bytes),
            KDA_OK)
      << kda_last_error();
  h.allocateWorkspace(bytes);
}

class ChunkNumerics : public ::testing::TestWithParam<ChunkCase> {};

TEST_P(ChunkNumerics, MatchesFloat64Oracle) {
  const ChunkCase &c = GetParam();
  const std::string dir = bundleDir(c.spec);
  Opened o;
  ASSERT_NO_FATAL_FAILURE(open(dir, c.target, c.spec, o));
  test::HostMemory mem;
  const test::KernelLayer layer = test::readKernelLayer(dir, c.spec, c.target);
  test::Harness h(layer, mem);
  ASSERT_NO_FATAL_FAILURE(prepareChunkBatch(
      h, o.kernel, std::string(c.spec) + c.batch, chunkShape(c.batch)));
  kda_batch b = h.batch();
  ComputeUnits units(c.units);
  const std::string expected = std::string("kda_") + c.spec + c.scanSuffix;
  if (c.alternative < 0) {
    EXPECT_EQ(chosenScan(o.bundle, o.kernel, b), expected);
    ASSERT_EQ(kda_launch_chunk(o.kernel, &b, nullptr), KDA_OK)
        << kda_last_error();
  } else {
    ASSERT_EQ(chosenScan(o.bundle, o.kernel, b, c.alternative,
                         /*launch=*/true),
              expected)
        << kda_last_error();
  }
  test::CaseResult r = h.check();
  expectWithinBars(r, layer.state);
  std::printf("    %s/%s/%s: out rel L2 %.3g (%.2fx rounding), state rel L2 "
              "%.3g (%.2fx rounding)\n",
              c.spec, c.target, c.batch, r.outErr,
              r.outErr / r.outRoundErr, r.stateErr,
              r.stateErr / r.stateRoundErr);
}

std::vector<ChunkCase> chunkCases() {
  std::vector<ChunkCase> cases;
  // The varlen batch's row of 1000 is 32 chunks and more at chunk 32 and
  // 16: four segments of the default 8 chunks, so the plan splits its scan
  // where the cost model finds it cheaper (chooseScan; the split scan at the
  // layer's widest block that divides head_k too), bf16 state and the gate
  // 'none' included.
  auto varlenScan = [](std::string spec) {
    if (spec == "chunk_bf16_state")
      return "_segments_v32";
    if (spec == "chunk_none_c16" || spec == "chunk_odd_heads")
      return "_segments";
    return "_scan";
  };
  for (const char *spec : {"chunk_k3", "chunk_linear_gva", "chunk_bf16_state",
                           "chunk_none_c16"})
    for (const char *target : {"emu", "emu32"})
      for (const char *batch :
           {"varlen", "short", "extreme", "saturation", "decodes"})
        cases.push_back(
            {spec, target, batch, nullptr,
             std::string(batch) == "varlen" ? varlenScan(spec) : "_scan"});
  // Forget events (RandomBatch.h) on every gate kind, both waves, and
  // through the split scan and the pairwise diagonal blocks of a 16-row
  // chunk; chunk_heads128 with G's rest as an f32 (emu32) and an i8 (emu:
  // its 64 KiB, gfx942's, at 64-row chunks of head_k 128).
  for (const char *spec : {"chunk_k3", "chunk_linear_gva", "chunk_bf16_state",
                           "chunk_none_c16", "chunk_heads128"})
    for (const char *target : {"emu", "emu32"})
      cases.push_back({spec, target, "forget"});
  // The i8 rest at the gate's floor and at saturated inputs (A_log 89:
  // G far past any forget event's).
  for (const char *batch : {"extreme", "saturation"})
    cases.push_back({"chunk_heads128", "emu", batch});
  cases.push_back({"chunk_split", "emu950", "forget", nullptr, "_scan"});
  // Bursts: every channel's cumsum in its own binade for most of a chunk,
  // so each rest must be read at its own channel's scale (the i8 on emu).
  for (const char *target : {"emu", "emu32"})
    cases.push_back({"chunk_heads128", target, "forget_bursts"});
  cases.push_back({"chunk_none_c16", "emu", "forget_bursts"});
  // gfx950's atoms (16x16x32 where the chunk allows).
  for (const char *spec : {"chunk_k3", "chunk_linear_gva"})
    cases.push_back({spec, "emu950", "short"});
  for (const char *target : {"emu", "emu32"})
    cases.push_back({"chunk_heads128", target, "short"});
  // Softplus layers choose the prep's diagonal blocks a chunk at a time.
  for (const char *spec : {"chunk_linear_gva", "chunk_heads128"})
    for (const char *target : {"emu", "emu32"})
      cases.push_back({spec, target, "mixed_gates"});
  // The 16-column scan split along K on emu32 (ChunkPlan::kSplit: four
  // parts of 32 rows, two k steps each) over the varlen mix.
  cases.push_back({"chunk_heads128", "emu32", "varlen"});
  // Head dims that are multiples of 16 but not powers of two (48 x 80):
  // staged row pieces that do not divide the workgroup, five scan column
  // blocks, gfx950 on its k = 16 atom.
  for (const char *target : {"emu", "emu32"})
    for (const char *batch : {"varlen", "extreme"})
      cases.push_back({"chunk_odd_heads", target, batch, nullptr,
                       std::string(batch) == "varlen"
                           ? varlenScan("chunk_odd_heads")
                           : "_scan"});
  cases.push_back({"chunk_odd_heads", "emu950", "short"});
  // The scan's row pipeline at depth 2 (not the default), register-staged
  // on emu, cp.async on emu32: sequences of 2, 1 and 3 chunks (the ring
  // wraps; a one-chunk sequence predicates its prologue copy off), and on
  // emu32 the varlen mix too. Few cases: the race detector checks each
  // thread's read of a ring slot word by word (emu's varlen took 107 s).
  for (const char *target : {"emu", "emu32"})
    cases.push_back({"chunk_k3_s2", target, "extreme"});
  cases.push_back({"chunk_k3_s2", "emu32", "varlen"});
  // The wider scans (kda-decompose's alternatives), picked by the plan when
  // the emulator reports few compute units: 32 columns (16 waves of 32 on
  // emu32, 8 of 64 on emu) on head_v 32 layers, 64 and 32 on head_v 128.
  for (const char *target : {"emu", "emu32"})
    for (const char *batch : {"varlen", "extreme"})
      cases.push_back({"chunk_k3", target, batch, "1", "_scan_v32"});
  cases.push_back({"chunk_k3", "emu950", "short", "1", "_scan_v32"});
  cases.push_back({"chunk_linear_gva", "emu32", "varlen", "1", "_scan_v32"});
  cases.push_back({"chunk_bf16_state", "emu32", "varlen", "1", "_scan_v32"});
  for (const char *target : {"emu", "emu950"})
    cases.push_back({"chunk_heads128", target, "short", "1", "_scan_v64"});
  // emu32 (sm_90's atoms) also builds the 128-column scan, self-staged
  // (its rows by cp.async pieces): the widest, picked on one unit, over the
  // short rows and the varlen mix; the 64-column scan as an alternative.
  for (const char *batch : {"short", "varlen"})
    cases.push_back({"chunk_heads128", "emu32", batch, "1", "_scan_v128"});
  cases.push_back(
      {"chunk_heads128", "emu32", "short", nullptr, "_scan_v64", 2});
  // "short" at H 2: 9 chunks, the longest 2; on 40 units 32 columns (64
  // workgroups: two steps) beat 16 (128: four) and 64 (two larger steps).
  cases.push_back({"chunk_heads128", "emu32", "short", "40", "_scan_v32"});
  // The same layer with warpgroup_scan: its 64- and 128-column scans on
  // sm_90's warpgroup atom (emu32 executes wgmma), the 64-column one picked
  // on one unit (both self-staged, it has the cheaper step), each over the
  // short rows and the varlen mix; its 32- and 16-column register scans
  // read the records as split words; on emu (no warpgroup atom) the wide
  // blocks are left out and the 16-column scan runs.
  for (const char *batch : {"short", "varlen"}) {
    cases.push_back({"chunk_heads128_wg", "emu32", batch, "1", "_scan_v64"});
    cases.push_back(
        {"chunk_heads128_wg", "emu32", batch, nullptr, "_scan_v128", 3});
  }
  cases.push_back({"chunk_heads128_wg", "emu32", "short", "40", "_scan_v32"});
  cases.push_back({"chunk_heads128_wg", "emu", "short"});
  // The scan split within a sequence (maps, join, segments), picked where
  // the planner's cost model finds it cheaper than the plain scan: at
  // chunk 16 and segment_chunks 2 (chunk_split) the varlen batch's rows
  // split into up to 8 segments, and "carry" keeps the states alive across
  // segments (a join that dropped M would pass the other batches: their
  // states decay within a segment); on the same layer with one unit, the
  // plain scan. The extreme batch's rows make 2 and 4 segments (5 and 9
  // chunks): too short for the split to pay (its join's steps), so it goes
  // through the split as a forced alternative (2: after the layer's two
  // scans). chunk_heads128 at its default segment_chunks (8): the row of
  // 2100 (33 chunks) in four segments of the 64-column register scan. The
  // plan splits only where the longest row makes four segments or more
  // (kMinSplitSegments), so the other cases keep the plain scan.
  for (const char *target : {"emu", "emu32"})
    for (const char *batch : {"varlen", "carry"})
      cases.push_back({"chunk_split", target, batch, nullptr, "_segments_v32"});
  for (const char *target : {"emu", "emu32", "emu950"})
    cases.push_back(
        {"chunk_split", target, "extreme", nullptr, "_segments_v32", 2});
  cases.push_back({"chunk_split", "emu32", "extreme", nullptr, "_scan"});
  cases.push_back({"chunk_split", "emu32", "carry", "1", "_scan_v32"});
  cases.push_back({"chunk_split", "emu32", "varlen", "1", "_scan_v32"});
  cases.push_back(
      {"chunk_heads128", "emu32", "carry", "65535", "_segments_v64"});
  // A layer without chunk_size, each emulator at the size its LDS holds
  // (ChunkDefaultSize below checks which).
  for (const char *target : {"emu", "emu950", "emu32"})
    cases.push_back({"chunk_head256", target, "short"});
  cases.push_back({"chunk_head256", "emu", "extreme"});
  return cases;
}

INSTANTIATE_TEST_SUITE_P(Bundles, ChunkNumerics,
                         ::testing::ValuesIn(chunkCases()),
                         [](const auto &info) {
                           const ChunkCase &c = info.param;
                           return std::string(c.spec) + "_" + c.target + "_" +
                                  c.batch +
                                  (c.units ? std::string("_units") + c.units
                                           : std::string()) +
                                  (c.alternative >= 0
                                       ? "_alternative" +
                                             std::to_string(c.alternative)
                                       : std::string());
                         });

/// A kda.chunk without chunk_size: every stage built for a target takes
/// the largest size at which the layer's prep and a scan fit that target's
/// LDS, or one halving below it where only that size's scan holds its state
/// in registers (head_k 256: 16 on emu's 64 KiB and 32 on emu950's 160 KiB,
/// register scans both; 64 on emu32's), and the manifest says so, so that
/// the runtime counts the chunks as the kernels do. The manifest names a
/// register scan by its k_split; the scan split within a sequence comes
/// with it where its join fits (not on emu: the join's M at head_k 256).
TEST(ChunkDefaultSize, EachTargetTakesTheLargestThatFits) {
  manifest::Manifest m;
  std::string error;
  ASSERT_TRUE(manifest::readManifest(bundleDir("chunk_head256"), m, error))
      << error;
  const std::map<std::string, int64_t> expected = {
      {"emu", 16}, {"emu950", 32}, {"emu32", 64}};
  const std::map<std::string, int> expectedMaps = {
      {"emu", 0}, {"emu950", 1}, {"emu32", 1}};
  std::map<std::string, int> stages, maps;
  for (const manifest::Kernel &k : m.kernels) {
    if (k.name != "chunk_head256")
      continue;
    ++stages[k.target];
    maps[k.target] += k.kind == "chunk_maps";
    if (k.kind == "chunk_scan")
      EXPECT_TRUE(k.config.count("k_split"))
          << k.symbol << " on " << k.target << ": not a register scan";
    auto size = k.config.find("chunk_size");
    ASSERT_NE(size, k.config.end()) << k.symbol << " on " << k.target;
    EXPECT_EQ(size->second, expected.at(k.target))
        << k.symbol << " on " << k.target;
  }
  for (const auto &[target, size] : expected) {
    EXPECT_GE(stages[target], 2) << "the prep and a scan for " << target;
    EXPECT_EQ(maps[target], expectedMaps.at(target))
        << "the split scan's maps on " << target;
  }
}

/// A length-1 row (and a short one) through the chunk path gives what the
/// recurrent kernel gives, both within the bars of the oracle.
class ChunkAgreesWithRecurrent : public ::testing::TestWithParam<const char *> {
};

TEST_P(ChunkAgreesWithRecurrent, OnShortRows) {
  const char *target = GetParam();
  const char *spec = "chunk_k3";
  const std::string dir = bundleDir(spec);
  Opened chunk, rec;
  ASSERT_NO_FATAL_FAILURE(open(dir, target, spec, chunk));
  ASSERT_NO_FATAL_FAILURE(
      open(dir, target, std::string(spec) + "_recurrent", rec));
  test::HostMemory mem;
  const test::KernelLayer layer = test::readKernelLayer(dir, spec, target);
  test::Harness h(layer, mem);
  BatchShape shape{{1, 1, 17, 1, 2}, {3, 1, 4, 2, 6}, {1, 0, 1, 1, 0}};
  ASSERT_NO_FATAL_FAILURE(prepareChunkBatch(h, chunk.kernel, "agree", shape));
  kda_batch b = h.batch();

  ASSERT_EQ(kda_launch_recurrent(rec.kernel, &b, nullptr), KDA_OK)
      << kda_last_error();
  test::CaseResult viaRecurrent = h.check();
  std::vector<double> recOut = h.outputs();
  h.restoreState();
  ASSERT_EQ(kda_launch_chunk(chunk.kernel, &b, nullptr), KDA_OK)
      << kda_last_error();
  test::CaseResult viaChunk = h.check();
  std::vector<double> chunkOut = h.outputs();

  expectWithinBars(viaRecurrent, layer.state);
  expectWithinBars(viaChunk, layer.state);
  double diff = ref::relativeL2(chunkOut.data(), recOut.data(),
                                int64_t(recOut.size()));
  EXPECT_LE(diff, kRoundingMultiple * viaChunk.outRoundErr)
      << "chunk and recurrent outputs differ";
  std::printf("    %s: chunk vs recurrent outputs rel L2 %.3g\n", target,
              diff);
}

INSTANTIATE_TEST_SUITE_P(Targets, ChunkAgreesWithRecurrent,
                         ::testing::Values("emu", "emu32"));

/// kda_launch_chunk takes only a chunk plan; a recurrent kernel is refused
/// (and the other way round) with nothing launched.
TEST(ChunkLaunch, RefusesTheOtherPath) {
  const std::string dir = bundleDir("chunk_k3");
  Opened chunk, rec;
  ASSERT_NO_FATAL_FAILURE(open(dir, "emu", "chunk_k3", chunk));
  ASSERT_NO_FATAL_FAILURE(open(dir, "emu", "chunk_k3_recurrent", rec));
  test::HostMemory mem;
  const test::KernelLayer layer = test::readKernelLayer(dir, "chunk_k3", "emu");
  test::Harness h(layer, mem);
  ASSERT_NO_FATAL_FAILURE(
      prepareChunkBatch(h, chunk.kernel, "refuse", {{3, 1}, {1, 2}, {1, 1}}));
  kda_batch b = h.batch();
  std::vector<uint8_t> before = h.snapshot();
  EXPECT_EQ(kda_launch_chunk(rec.kernel, &b, nullptr),
            KDA_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(kda_last_error()).find("not a chunk kernel"),
            std::string::npos)
      << kda_last_error();
  EXPECT_EQ(kda_launch_recurrent(chunk.kernel, &b, nullptr),
            KDA_ERROR_INVALID_ARGUMENT);
  // The workspace the prep writes must not lie over a tensor.
  kda_batch overQ = b;
  overQ.workspace = const_cast<void *>(b.q);
  EXPECT_EQ(kda_launch_chunk(chunk.kernel, &overQ, nullptr),
            KDA_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(kda_last_error()).find("workspace overlaps q"),
            std::string::npos)
      << kda_last_error();
  // A workspace one byte short is refused, naming the need.
  kda_batch shortWs = b;
  shortWs.workspace_bytes = b.workspace_bytes - 1;
  EXPECT_EQ(kda_launch_chunk(chunk.kernel, &shortWs, nullptr),
            KDA_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(kda_last_error()).find("workspace"), std::string::npos)
      << kda_last_error();
  // A negative size is refused as one, also where no workspace is needed
  // (the recurrent kernel).
  kda_batch negativeWs = b;
  negativeWs.workspace_bytes = -1;
  for (const kda_kernel *kernel : {chunk.kernel, rec.kernel}) {
    EXPECT_EQ(kernel == chunk.kernel
                  ? kda_launch_chunk(kernel, &negativeWs, nullptr)
                  : kda_launch_recurrent(kernel, &negativeWs, nullptr),
              KDA_ERROR_INVALID_ARGUMENT);
    EXPECT_NE(std::string(kda_last_error()).find("workspace_bytes is -1"),
              std::string::npos)
        << kda_last_error();
  }
  EXPECT_EQ(h.snapshot(), before) << "a refused launch wrote something";
}

/// Rows without tokens need no per-token tensors, and a batch without rows
/// no per-row arrays or pool (as kda_forward): the layer's kernels read none
/// of them, and an engine's empty tensors have null data(). Both paths still
/// write each named slot's final state (its initial state, or zeros).
TEST(ChunkLaunch, EmptyRowsAndBatchesNeedNoTensors) {
  const std::string dir = bundleDir("chunk_k3");
  for (const char *target : {"emu", "emu32"})
    for (const char *spec : {"chunk_k3", "chunk_k3_recurrent"}) {
      SCOPED_TRACE(std::string(spec) + " on " + target);
      Opened o;
      ASSERT_NO_FATAL_FAILURE(open(dir, target, spec, o));
      test::HostMemory mem;
      const test::KernelLayer layer = test::readKernelLayer(dir, spec, target);
      test::Harness h(layer, mem);
      ASSERT_NO_FATAL_FAILURE(prepareChunkBatch(
          h, o.kernel, "empty", {{0, 0, 0}, {1, 2, 3}, {1, 0, 1}}));
      kda_batch b = h.batch();
      b.q = b.k = b.v = b.g = b.beta = nullptr;
      b.out = nullptr;
      ASSERT_EQ(test::launchLayer(layer, o.kernel, b, nullptr), KDA_OK)
          << kda_last_error();
      expectWithinBars(h.check(), layer.state);
      // No rows: only the offsets (one entry) remain.
      const std::vector<uint8_t> before = h.snapshot();
      const int32_t cu0[1] = {0};
      kda_batch none = h.batch();
      none.num_seqs = 0;
      none.num_tokens = 0;
      none.num_slots = 0;
      none.q = none.k = none.v = none.g = none.beta = nullptr;
      none.out = none.state = nullptr;
      none.slots = none.slots_host = nullptr;
      none.has_initial_state = nullptr;
      none.cu_seqlens_host = cu0;
      EXPECT_EQ(test::launchLayer(layer, o.kernel, none, nullptr), KDA_OK)
          << kda_last_error();
      EXPECT_EQ(h.snapshot(), before);
      // A batch with tokens still needs them.
      kda_batch noQ = h.batch();
      noQ.num_tokens = 1;
      noQ.q = nullptr;
      EXPECT_EQ(test::launchLayer(layer, o.kernel, noQ, nullptr),
                KDA_ERROR_INVALID_ARGUMENT);
      EXPECT_STREQ(kda_last_error(), "q is null");
    }
}

/// Padding rows run no chunk loop: the prep's grid (the chunks of the
/// longest row) is sized by the named rows alone, so a batch of padding
/// rows is the scan's launch only (it writes their zeros), however long
/// they are, and a long padding row beside a short named one adds no prep
/// workgroups (a 2M-token padding row took the emulator 3.1 s, 60 ms
/// without it).
TEST(ChunkLaunch, PaddingRowsSizeNoPrep) {
  const std::string dir = bundleDir("chunk_k3");
  Opened o;
  ASSERT_NO_FATAL_FAILURE(open(dir, "emu32", "chunk_k3", o));
  test::HostMemory mem;
  const test::KernelLayer layer =
      test::readKernelLayer(dir, "chunk_k3", "emu32");
  test::Harness h(layer, mem);
  ASSERT_NO_FATAL_FAILURE(prepareChunkBatch(h, o.kernel, "padding only",
                                            {{300, 5}, {0, -1}, {1, 1}}));
  kda_batch b = h.batch();
  kda_plan *plan = nullptr;
  ASSERT_EQ(kda_plan_create(o.bundle, &plan), KDA_OK);
  ASSERT_EQ(kda_plan_add_chunk(plan, o.kernel, &b), KDA_OK) << kda_last_error();
  ASSERT_EQ(kda_plan_size(plan), 1);
  EXPECT_NE(std::string(kda_plan_kernel_symbol(plan, 0)).find("_scan"),
            std::string::npos)
      << kda_plan_kernel_symbol(plan, 0);
  ASSERT_EQ(kda_plan_launch(plan, nullptr), KDA_OK) << kda_last_error();
  kda_plan_destroy(plan);
  expectWithinBars(h.check(), layer.state);
}

/// A chunk plan is two launches, the prep and the scan the batch picks;
/// kda_plan_kernel_symbol names them in order and nothing past them.
/// chunk_k3 on emu32 with a batch of two rows (70 and 130 tokens, slots 1
/// and 2, an initial state on the first only): what the plan tests launch.
struct ChunkK3Batch {
  const std::string dir = bundleDir("chunk_k3");
  Opened chunk;
  test::HostMemory mem;
  const test::KernelLayer layer =
      test::readKernelLayer(dir, "chunk_k3", "emu32");
  test::Harness h{layer, mem};
  void prepare(const std::string &seedName) {
    ASSERT_NO_FATAL_FAILURE(open(dir, "emu32", "chunk_k3", chunk));
    ASSERT_NO_FATAL_FAILURE(prepareChunkBatch(h, chunk.kernel, seedName,
                                              {{70, 130}, {1, 2}, {1, 0}}));
  }
};

TEST(ChunkLaunch, PlanNamesThePrepAndThePickedScan) {
  ChunkK3Batch k3;
  ASSERT_NO_FATAL_FAILURE(k3.prepare("plan"));
  const Opened &chunk = k3.chunk;
  kda_batch b = k3.h.batch();
  // "0", "1x", "abc", "-1", "+1", " 1" and " -18446744073709551615" (which
  // strtoul wraps to 1) are not a unit count: the emulator keeps its 132.
  for (const char *units : {"132", "1", "0", "1x", "abc", "-1", "+1", " 1",
                            " -18446744073709551615"}) {
    ComputeUnits set(units);
    kda_plan *plan = nullptr;
    ASSERT_EQ(kda_plan_create(chunk.bundle, &plan), KDA_OK);
    ASSERT_EQ(kda_plan_add_chunk(plan, chunk.kernel, &b), KDA_OK)
        << kda_last_error();
    ASSERT_EQ(kda_plan_size(plan), 2);
    EXPECT_EQ(test::withoutDigest(kda_plan_kernel_symbol(plan, 0)),
              "kda_chunk_k3_prep_packed");
    // 2 rows x 2 heads: 32 columns fill one unit, not 132.
    EXPECT_EQ(test::withoutDigest(kda_plan_kernel_symbol(plan, 1)),
              std::string(units) == "1" ? "kda_chunk_k3_scan_v32_packed"
                                        : "kda_chunk_k3_scan_packed")
        << "units " << units;
    EXPECT_EQ(kda_plan_kernel_symbol(plan, 2), nullptr);
    EXPECT_EQ(kda_plan_kernel_symbol(plan, -1), nullptr);
    kda_plan_destroy(plan);
  }
  EXPECT_EQ(kda_plan_kernel_symbol(nullptr, 0), nullptr);
}

// kda_plan_add_chunk_scan: every way after the prep (the plain scans,
// narrowest first, then the split scan), whatever the batch shape picks,
// each within the bars on the carry batch (its row of 2100 splits into 8
// segments at chunk 16); out-of-range alternatives and a kernel that is
// not a chunk layer's are refused with the plan as it was.
TEST(ChunkLaunch, EveryScanAlternativeIsExact) {
  const std::string dir = bundleDir("chunk_split");
  Opened o;
  ASSERT_NO_FATAL_FAILURE(open(dir, "emu32", "chunk_split", o));
  const test::KernelLayer layer =
      test::readKernelLayer(dir, "chunk_split", "emu32");
  ASSERT_EQ(kda_kernel_chunk_scan_count(o.kernel), 3);
  const std::vector<std::vector<std::string>> launches = {
      {"kda_chunk_split_scan_packed"},
      {"kda_chunk_split_scan_v32_packed"},
      {"kda_chunk_split_maps_v32_packed", "kda_chunk_split_join_packed",
       "kda_chunk_split_segments_v32_packed"}};
  for (int32_t alt = 0; alt < 3; ++alt) {
    SCOPED_TRACE("alternative " + std::to_string(alt));
    EXPECT_EQ(test::withoutDigest(kda_kernel_chunk_scan_symbol(o.kernel, alt)),
              launches[size_t(alt)].front());
    test::HostMemory mem;
    test::Harness h(layer, mem);
    ASSERT_NO_FATAL_FAILURE(
        prepareChunkBatch(h, o.kernel, "alternatives", chunkShape("carry")));
    kda_batch b = h.batch();
    kda_plan *plan = nullptr;
    ASSERT_EQ(kda_plan_create(o.bundle, &plan), KDA_OK);
    ASSERT_EQ(kda_plan_add_chunk_scan(plan, o.kernel, &b, alt), KDA_OK)
        << kda_last_error();
    ASSERT_EQ(kda_plan_size(plan), int32_t(1 + launches[size_t(alt)].size()));
    EXPECT_EQ(test::withoutDigest(kda_plan_kernel_symbol(plan, 0)),
              "kda_chunk_split_prep_packed");
    for (size_t i = 0; i < launches[size_t(alt)].size(); ++i)
      EXPECT_EQ(
          test::withoutDigest(kda_plan_kernel_symbol(plan, int32_t(i + 1))),
          launches[size_t(alt)][i]);
    ASSERT_EQ(kda_plan_launch(plan, nullptr), KDA_OK) << kda_last_error();
    expectWithinBars(h.check(), layer.state);
    // Refusals leave the plan as it was.
    for (int32_t bad : {-1, 3, INT32_MAX}) {
      EXPECT_EQ(kda_plan_add_chunk_scan(plan, o.kernel, &b, bad),
                KDA_ERROR_INVALID_ARGUMENT);
      EXPECT_NE(std::string(kda_last_error()).find("not one of"),
                std::string::npos)
          << kda_last_error();
    }
    EXPECT_EQ(kda_plan_size(plan), int32_t(1 + launches[size_t(alt)].size()));
    kda_plan_destroy(plan);
  }
  EXPECT_EQ(kda_kernel_chunk_scan_symbol(o.kernel, 3), nullptr);
  EXPECT_EQ(kda_kernel_chunk_scan_symbol(o.kernel, -1), nullptr);
  EXPECT_EQ(kda_kernel_chunk_scan_count(nullptr), 0);
  EXPECT_EQ(kda_kernel_chunk_scan_symbol(nullptr, 0), nullptr);
  // The bundle's recurrent kernel has no alternatives.
  Opened rec;
  ASSERT_NO_FATAL_FAILURE(open(dir, "emu32", "chunk_split_recurrent", rec));
  EXPECT_EQ(kda_kernel_chunk_scan_count(rec.kernel), 0);
  EXPECT_EQ(kda_kernel_chunk_scan_symbol(rec.kernel, 0), nullptr);
  kda_plan *plan = nullptr;
  ASSERT_EQ(kda_plan_create(rec.bundle, &plan), KDA_OK);
  test::HostMemory mem;
  test::Harness h(layer, mem);
  h.prepare(chunkShape("short"), 13, 5);
  kda_batch b = h.batch();
  EXPECT_EQ(kda_plan_add_chunk_scan(plan, rec.kernel, &b, 0),
            KDA_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(kda_last_error()).find("not a chunk layer's"),
            std::string::npos)
      << kda_last_error();
  EXPECT_EQ(kda_plan_size(plan), 0);
  kda_plan_destroy(plan);
}

// kda_plan_launch_range: the chunk plan's stages one at a time (the prep,
// then the scan) leave the same state and outputs, bit for bit, as the
// whole plan; a range outside the plan is refused with nothing launched.
TEST(ChunkLaunch, PlanRangesRunTheStagesOneAtATime) {
  ChunkK3Batch k3;
  ASSERT_NO_FATAL_FAILURE(k3.prepare("range"));
  const Opened &chunk = k3.chunk;
  test::Harness &h = k3.h;
  const test::KernelLayer &layer = k3.layer;
  kda_batch b = h.batch();
  kda_plan *plan = nullptr;
  ASSERT_EQ(kda_plan_create(chunk.bundle, &plan), KDA_OK);
  ASSERT_EQ(kda_plan_add_chunk(plan, chunk.kernel, &b), KDA_OK)
      << kda_last_error();
  ASSERT_EQ(kda_plan_size(plan), 2);

  const std::vector<uint8_t> before = h.snapshot();
  for (auto [first, count] : {std::pair{1, 2},
                              {-1, 1},
                              {0, -1},
                              {2, 1},
                              {0, 3},
                              {INT32_MAX, 1},
                              {1, INT32_MAX}}) {
    EXPECT_EQ(kda_plan_launch_range(plan, first, count, nullptr),
              KDA_ERROR_INVALID_ARGUMENT)
        << first << ", " << count;
    EXPECT_NE(std::string(kda_last_error()).find("not inside the plan's 2"),
              std::string::npos)
        << kda_last_error();
  }
  EXPECT_EQ(kda_plan_launch_range(nullptr, 0, 1, nullptr),
            KDA_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(kda_plan_launch_range(plan, 2, 0, nullptr), KDA_OK);
  EXPECT_EQ(h.snapshot(), before) << "a refused range launched something";

  ASSERT_EQ(kda_plan_launch(plan, nullptr), KDA_OK) << kda_last_error();
  const std::vector<uint8_t> whole = h.snapshot();
  EXPECT_NE(whole, before);
  // The same start again: the initial pool, and outputs poisoned (NaN) so
  // that the stages must write every one of them.
  h.restoreState();
  const size_t outBytes = size_t(b.num_tokens) * layer.layer.HV *
                          layer.layer.V * (layer.act == KDA_F32 ? 4 : 2);
  k3.mem.upload(b.out, std::vector<uint8_t>(outBytes, 0xff).data(), outBytes);
  ASSERT_NE(h.snapshot(), whole);
  ASSERT_EQ(kda_plan_launch_range(plan, 0, 1, nullptr), KDA_OK)
      << kda_last_error();
  ASSERT_EQ(kda_plan_launch_range(plan, 1, 1, nullptr), KDA_OK)
      << kda_last_error();
  EXPECT_EQ(h.snapshot(), whole);
  kda_plan_destroy(plan);
}

/// Gives the prepared batch the workspace kda_forward asks for this call
/// (the chunk plan's, indexed by absolute token) and puts it into `a`.
void allocateForwardWorkspace(test::Harness &h, const kda_kernel *rec,
                              const kda_kernel *chunk, kda_forward_args &a) {
  int64_t bytes = 0;
  ASSERT_EQ(kda_forward_workspace_bytes(rec, chunk, &a, &bytes), KDA_OK)
      << kda_last_error();
  h.allocateWorkspace(bytes);
  a.workspace = h.batch().workspace;
  a.workspace_bytes = h.batch().workspace_bytes;
}

/// kda_forward with the layer's recurrent and chunk kernels: decodes and
/// short rows on the recurrent kernel, rows over the planner's threshold
/// (64 tokens by default) through the chunk plan; against the oracle and
/// against the same call with no chunk kernel (every row recurrent).
class ForwardWithChunk : public ::testing::TestWithParam<const char *> {};

TEST_P(ForwardWithChunk, MixedBatchSplitByThePlanner) {
  const char *target = GetParam();
  const std::string dir = bundleDir("chunk_k3");
  Opened chunk; // both kernels from one bundle, as an engine opens them
  ASSERT_NO_FATAL_FAILURE(open(dir, target, "chunk_k3", chunk));
  const kda_kernel *recKernel = nullptr;
  ASSERT_EQ(kda_bundle_find(chunk.bundle, "chunk_k3_recurrent", &recKernel),
            KDA_OK)
      << kda_last_error();
  test::HostMemory mem;
  const test::KernelLayer layer = test::readKernelLayer(dir, "chunk_k3", target);
  test::Harness h(layer, mem);
  // Three decodes (one padding), then prefills of 1, 65, 200, 30 and 130
  // tokens (one padding, some without initial state over NaN slots).
  BatchShape shape{{1, 1, 1, 1, 65, 200, 30, 130, 90},
                   {4, 0, 7, 2, 9, 1, 3, 11, -1},
                   {1, 1, 0, 1, 0, 1, 1, 0, 1}};
  shape.staleNaN = true;
  h.prepare(shape, /*numSlots=*/13, 4242);
  kda_forward_args a = test::forwardArgs(h.batch(), /*numDecodes=*/3);
  ASSERT_NO_FATAL_FAILURE(
      allocateForwardWorkspace(h, recKernel, chunk.kernel, a));

  // The plan: recurrent launches for the decode front and the short rows,
  // prep + scan for each run of long rows.
  kda_plan *plan = nullptr;
  ASSERT_EQ(kda_plan_create(chunk.bundle, &plan), KDA_OK);
  ASSERT_EQ(kda_plan_add_forward(plan, recKernel, chunk.kernel, &a), KDA_OK)
      << kda_last_error();
  const int32_t launches = kda_plan_size(plan);
  kda_plan_destroy(plan);
  EXPECT_GE(launches, 4) << "no row took the chunk path";

  ASSERT_EQ(kda_forward(recKernel, chunk.kernel, &a, nullptr), KDA_OK)
      << kda_last_error();
  test::CaseResult viaPlanner = h.check();
  std::vector<double> plannerOut = h.outputs();
  expectWithinBars(viaPlanner, layer.state);

  h.restoreState();
  ASSERT_EQ(kda_forward(recKernel, nullptr, &a, nullptr), KDA_OK)
      << kda_last_error();
  test::CaseResult allRecurrent = h.check();
  expectWithinBars(allRecurrent, layer.state);
  double diff = ref::relativeL2(plannerOut.data(), h.outputs().data(),
                                int64_t(plannerOut.size()));
  EXPECT_LE(diff, kRoundingMultiple * viaPlanner.outRoundErr)
      << "the planner's split and the recurrent kernel alone disagree";
  std::printf("    %s: %d launches; vs oracle %.3g (%.2fx rounding); "
              "planner vs all-recurrent %.3g\n",
              target, launches, viaPlanner.outErr,
              viaPlanner.outErr / viaPlanner.outRoundErr, diff);

  // The chunk kernels read slot <= 0 as padding. Under slot < 0 padding
  // this call's slot-0 padding row is a real row the recurrent kernel
  // (built for slot <= 0) refuses.
  kda_forward_args negative = a;
  negative.padding = KDA_PADDING_NEGATIVE;
  EXPECT_EQ(kda_forward_validate(recKernel, chunk.kernel, &negative),
            KDA_ERROR_INVALID_ARGUMENT);
  // With its padding row renamed for that convention and no row naming
  // slot 0, both conventions mark the same rows: the call runs as the
  // slot <= 0 one did, to the bit.
  std::vector<int32_t> slots(negative.slots_host,
                             negative.slots_host + shape.lengths.size());
  std::replace(slots.begin(), slots.end(), 0, -1);
  negative.slots_host = slots.data();
  negative.slots = slots.data(); // the emulator's device memory is the host's
  h.restoreState();
  ASSERT_EQ(kda_forward(recKernel, chunk.kernel, &negative, nullptr), KDA_OK)
      << kda_last_error();
  expectWithinBars(h.check(), layer.state);
  EXPECT_EQ(h.outputs(), plannerOut)
      << "slot < 0 padding changed the chunk path's outputs";

  // The same through the recurrent kernel built for slot < 0 (slot 0 is a
  // real slot to it; a kernel of its own, so within the bars, not to the
  // bit). A long row naming slot 0 would be padding to the chunk kernels:
  // refused, naming the row, nothing written.
  const kda_kernel *negKernel = nullptr;
  ASSERT_EQ(kda_bundle_find(chunk.bundle, "chunk_k3_negative", &negKernel),
            KDA_OK)
      << kda_last_error();
  h.restoreState();
  ASSERT_EQ(kda_forward(negKernel, chunk.kernel, &negative, nullptr), KDA_OK)
      << kda_last_error();
  expectWithinBars(h.check(), layer.state);
  std::vector<int32_t> withZero = slots;
  withZero[5] = 0; // 200 tokens: a chunk-path row
  kda_forward_args slotZero = negative;
  slotZero.slots_host = withZero.data();
  slotZero.slots = withZero.data();
  h.restoreState();
  const std::vector<uint8_t> before = h.snapshot();
  EXPECT_EQ(kda_forward(negKernel, chunk.kernel, &slotZero, nullptr),
            KDA_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(kda_last_error()).find("row 5 names slot 0"),
            std::string::npos)
      << kda_last_error();
  EXPECT_EQ(h.snapshot(), before) << "a refused call wrote";
  // Without the chunk kernel every row is the recurrent kernel's, to which
  // slot 0 is real: the call runs.
  EXPECT_EQ(kda_forward_validate(negKernel, nullptr, &slotZero), KDA_OK)
      << kda_last_error();
}

INSTANTIATE_TEST_SUITE_P(Targets, ForwardWithChunk,
                         ::testing::Values("emu", "emu32"));

/// Issue 9's seed scenario at its real shapes: the Kimi-K3 TP8 example
/// (12 heads of 128, lower_bound -5, vk f32 pool) compiled for emu32, 64
/// decodes and 4 prefills of about 4096 tokens (one without initial state
/// over a NaN slot) through kda_forward with both of its kernels: the
/// decodes on the recurrent kernel, the prefills on the chunk plan. The
/// seed's bug was NaN in this mix; the bars are the chunk path's.
TEST(ForwardSeedKimiK3, BothKernelsAtTheRealShapes) {
  const std::string dir = std::string(KDA_NUMERIC_BUNDLES_DIR) + "/kimi-k3-tp8";
  Opened chunk;
  ASSERT_NO_FATAL_FAILURE(open(dir, "emu32", "kimi_k3_tp8_chunk", chunk));
  const kda_kernel *recKernel = nullptr;
  ASSERT_EQ(kda_bundle_find(chunk.bundle, "kimi_k3_tp8_recurrent", &recKernel),
            KDA_OK)
      << kda_last_error();
  test::HostMemory mem;
  const test::KernelLayer layer =
      test::readKernelLayer(dir, "kimi_k3_tp8_chunk", "emu32");
  ASSERT_EQ(layer.layer.HV, 12);
  test::Harness h(layer, mem);
  h.prepare(test::seedScenarioShape(1.0, 9), /*numSlots=*/96, 4096);
  kda_forward_args a = test::forwardArgs(h.batch(), test::kSeedDecodes);
  ASSERT_NO_FATAL_FAILURE(
      allocateForwardWorkspace(h, recKernel, chunk.kernel, a));
  ASSERT_EQ(kda_forward(recKernel, chunk.kernel, &a, nullptr), KDA_OK)
      << kda_last_error();
  test::CaseResult r = h.check();
  expectWithinBars(r, layer.state);
  std::printf("    seed scenario, 12 heads, planner split: out rel L2 %.3g "
              "(%.2fx rounding), state rel L2 %.3g\n",
              r.outErr, r.outErr / r.outRoundErr, r.stateErr);
}

} // namespace
