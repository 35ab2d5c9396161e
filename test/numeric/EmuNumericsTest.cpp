//===- EmuNumericsTest.cpp - emulated kernels vs the float64 oracle -------===//
//
// The kernels CI executes: every spec under specs/ compiled for the emulator
// at wave 64 (emu; the LDS-pipelined specs also emu950, gfx950's copy atom)
// and wave 32 (emu32), run through the runtime's emu
// backend on batches that mix decodes and multi-token rows, padding slots,
// sequences with and without initial state; bf16/f16/f32 inputs; and the edges
// of KDA-MATH.md random draws never reach: zero-length sequences, all-zero q
// and k rows, stale NaN states behind has_initial_state = 0, gates around
// the softplus threshold and at +-1000, saturated betas.
// Bars (issue #3): relative L2 <= 2e-3 on outputs, <= 1e-5 on f32 states
// (5e-3 on the bf16 pools of the *_bf16_state specs), no NaN, padding rows
// zero, untouched slots (1e30) bit-identical.
//
//===----------------------------------------------------------------------===//
#include "Harness.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <ostream>
#include <thread>
#include <vector>

using namespace kda;
using kda::test::BatchShape;

namespace {

struct NumericCase {
  const char *spec;   // bundle folder and kernel name
  const char *target; // emu | emu950 | emu32
  const char *batch;  // a name for the batch shape below
};

BatchShape shapeFor(const std::string &batch) {
  if (batch == "decode")   // N one-token decodes in scattered slots
    return {{1, 1, 1, 1, 1, 1}, {5, 2, 7, 9, 1, 11}, {1, 1, 0, 1, 1, 0}};
  if (batch == "mixed")    // decodes, short prefills, padding rows
    return {{1, 3, 1, 17, 2, 1}, {3, 1, 0, 6, -1, 8}, {1, 0, 1, 1, 1, 1}};
  if (batch == "long")     // one row of 40 tokens after a decode
    return {{1, 40}, {2, 4}, {1, 1}};
  if (batch == "degenerate") { // KDA-MATH.md's edge rows, all in one batch
    // Zero-length sequences (with and without initial state, one padding),
    // padding ids 0 and -1, all-zero q and k rows (0 / sqrt(0 + eps) = 0,
    // not NaN), and NaN in the slots of sequences without initial state
    // (stale states the kernel must not read; it must write zeros or the
    // sequence's final state there).
    BatchShape s{{0, 2, 0, 1, 3, 0}, {4, 1, 0, -1, 2, 5}, {0, 1, 1, 1, 0, 1}};
    s.zeroQTokens = {0, 3};
    s.zeroKTokens = {1, 3};
    s.staleNaN = true;
    return s;
  }
  if (batch == "saturation") { // gates and betas at their numeric boundaries
    BatchShape s{{4, 7, 1}, {1, 2, 3}, {1, 0, 1}};
    // The softplus threshold (20) from both sides and past it, where a
    // softplus saturating at 20 would differ; +-1000 (sigmoids saturate,
    // exp overflows if unclamped); A_log = -4 keeps those decays visible.
    // A_log = 89 overflows exp(A_log) in f32: with a raw gate of 0 (or a
    // softplus that underflows) that was inf x 0, and with softplus(1000)
    // g = -inf, NaN in the chunk path's cumulative differences.
    s.gateValues = {19.9, 20, 20.1, 25, 50, 100, -1000, 1000, 0.5, -20, 0};
    s.aLogValues = {-4, 89, 0};
    s.betaValues = {-1000, -20, 0, 20, 1000, 0.3};
    return s;
  }
  // "extreme": g near -1000 every third token (softplus) / saturated bound
  BatchShape s{{5, 9}, {1, 3}, {1, 1}};
  s.extremeGate = 1000;
  return s;
}

void PrintTo(const NumericCase &c, std::ostream *os) {
  *os << c.spec << "/" << c.target << "/" << c.batch;
}

class EmuNumerics : public ::testing::TestWithParam<NumericCase> {};

TEST_P(EmuNumerics, MatchesFloat64Oracle) {
  const NumericCase &c = GetParam();
  const std::string dir = std::string(KDA_NUMERIC_BUNDLES_DIR) + "/" + c.spec;
  setenv("KDA_TARGET", c.target, 1);
  kda_bundle *bundle = nullptr;
  ASSERT_EQ(kda_bundle_open(dir.c_str(), KDA_BACKEND_EMU, &bundle), KDA_OK)
      << kda_last_error();
  unsetenv("KDA_TARGET");
  ASSERT_STREQ(kda_bundle_target(bundle), c.target);
  const kda_kernel *kernel = nullptr;
  ASSERT_EQ(kda_bundle_find(bundle, c.spec, &kernel), KDA_OK)
      << kda_last_error();

  test::HostMemory mem;
  const test::KernelLayer layer = test::readKernelLayer(dir, c.spec, c.target);
  test::Harness h(layer, mem);
  BatchShape shape = shapeFor(c.batch);
  h.prepare(shape, /*numSlots=*/13, std::hash<std::string>{}(
                                        std::string(c.spec) + c.batch));
  kda_batch b = h.batch();
  ASSERT_EQ(kda_launch_recurrent(kernel, &b, nullptr), KDA_OK)
      << kda_last_error();
  test::CaseResult r = h.check();
  EXPECT_TRUE(r.finite) << "NaN or inf in outputs or states";
  EXPECT_LE(r.outErr, test::kOutputErrorBar) << "outputs";
  EXPECT_LE(r.stateErr, test::stateErrorBar(layer.state)) << "states";
  EXPECT_TRUE(r.paddingZero) << "padding rows must be zeros";
  EXPECT_TRUE(r.untouchedIdentical) << "slots not in the batch changed";
  RecordProperty("out_err", std::to_string(r.outErr));
  RecordProperty("state_err", std::to_string(r.stateErr));
  std::printf("    %s/%s/%s: out rel L2 %.3g, state rel L2 %.3g\n", c.spec,
              c.target, c.batch, r.outErr, r.stateErr);
  kda_bundle_close(bundle);
}

std::vector<NumericCase> allCases() {
  std::vector<NumericCase> cases;
  // The *_wavesk specs split each column's k over several waves (partial
  // sums through LDS); the *_passes specs walk a workgroup's columns in
  // passes (v_passes). The *_lds specs stage token rows through a verified LDS
  // pipeline of depth 1..4 (the emulator's race detector watches every slot
  // access). k3_mma takes the column sums by the chip's matrix atom (mma = 1);
  // the *_shared specs share a row's first token's terms across their
  // passes and column groups through LDS (shared_terms = 1; *_shared_wavesk
  // with k split over waves).
  const char *small[] = {"k3_small",
                         "linear_gva",
                         "none_f16",
                         "lb_noalog",
                         "k3_multicol",
                         "linear_multicol",
                         "k3_lds1",
                         "k3_lds2",
                         "linear_lds3",
                         "linear_lds4",
                         "linear_wavesk",
                         "k3_wavesk_lds2",
                         "k3_bf16_state",
                         "linear_bf16_state",
                         "k3_passes",
                         "linear_passes",
                         "k3_mma",
                         "k3_shared",
                         "linear_shared",
                         "none_f16_shared",
                         "linear_shared_wavesk",
                         "k3_shared_wavesk"};
  for (const char *spec : small)
    for (const char *target : {"emu", "emu32"})
      for (const char *batch :
           {"decode", "mixed", "long", "extreme", "degenerate", "saturation"})
        cases.push_back({spec, target, batch});
  // The pipelined specs also on emu950, which executes gfx950's copy atom
  // (global_load_lds: wave 0 issues, 16 bytes a lane from a wave-uniform
  // base, landing at the vmcnt wait that counts past the instruction), and
  // emu32 executes sm_90's cp.async (landing at wait_group); emu stages
  // through registers as gfx942 does.
  for (const char *spec :
       {"k3_lds1", "k3_lds2", "linear_lds3", "linear_lds4", "k3_wavesk_lds2"})
    for (const char *batch : {"decode", "mixed", "long", "extreme"})
      cases.push_back({spec, "emu950", batch});
  // f32 activations and head dims that are not powers of two (masked k
  // tails in a lane's run, masked columns in the last block, lanes past a
  // small head_k holding none), both layouts and wave sizes; the edge
  // batches included.
  for (const char *spec :
       {"k3_f32_act", "linear_f32_act", "k3_head60", "linear_head60",
        "k3_head96", "linear_head96", "k3_head100", "linear_head100_bf16_state",
        "k3_head12x3", "linear_head3x31"})
    for (const char *target : {"emu", "emu32"})
      for (const char *batch : {"decode", "mixed", "extreme", "degenerate"})
        cases.push_back({spec, target, batch});
  // Full 128 x 128 heads: fewer batches, both wave sizes.
  for (const char *spec : {"k3_heads128", "linear_heads128"})
    for (const char *target : {"emu", "emu32"})
      for (const char *batch : {"decode", "mixed"})
        cases.push_back({spec, target, batch});
  return cases;
}

/// One bundle's kernel launched from two threads at once, each on its own
/// batch and pool: the emulator's workgroup memory of a static LDS array is
/// one global of the loaded object, so the backend runs one launch of a
/// bundle at a time (on a GPU each workgroup has its own). k3_lds1 stages
/// its token rows through a static LDS ring; before launches were
/// serialized, both threads' results were wrong.
TEST(EmuConcurrency, OneBundleLaunchedFromTwoThreads) {
  const char *spec = "k3_lds1", *target = "emu";
  const std::string dir = std::string(KDA_NUMERIC_BUNDLES_DIR) + "/" + spec;
  kda_bundle *bundle = nullptr;
  ASSERT_EQ(
      kda_bundle_open_target(dir.c_str(), KDA_BACKEND_EMU, target, &bundle),
      KDA_OK)
      << kda_last_error();
  const kda_kernel *kernel = nullptr;
  ASSERT_EQ(kda_bundle_find(bundle, spec, &kernel), KDA_OK) << kda_last_error();
  const test::KernelLayer layer = test::readKernelLayer(dir, spec, target);
  constexpr int kThreads = 2, kRounds = 2;
  std::vector<std::string> errors(kThreads);
  std::vector<test::CaseResult> results(kThreads * kRounds);
  std::atomic<int> ready{0};
  auto job = [&](int t) {
    test::HostMemory mem;
    test::Harness h(layer, mem);
    ready.fetch_add(1);
    while (ready.load() < kThreads) {
    }
    for (int r = 0; r < kRounds; ++r) {
      h.prepare(shapeFor("long"), /*numSlots=*/13, 100 * t + r);
      kda_batch b = h.batch();
      if (kda_launch_recurrent(kernel, &b, nullptr) != KDA_OK) {
        errors[t] = kda_last_error();
        return;
      }
      results[t * kRounds + r] = h.check();
    }
  };
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back(job, t);
  for (std::thread &t : threads)
    t.join();
  for (int t = 0; t < kThreads; ++t)
    EXPECT_EQ(errors[t], "") << "thread " << t;
  for (size_t i = 0; i < results.size(); ++i) {
    EXPECT_TRUE(results[i].finite) << "launch " << i;
    EXPECT_LE(results[i].outErr, test::kOutputErrorBar) << "launch " << i;
    EXPECT_LE(results[i].stateErr, test::stateErrorBar(layer.state))
        << "launch " << i;
  }
  kda_bundle_close(bundle);
}

INSTANTIATE_TEST_SUITE_P(
    Bundles, EmuNumerics, ::testing::ValuesIn(allCases()),
    [](const auto &info) {
      return std::string(info.param.spec) + "_" + info.param.target + "_" +
             info.param.batch;
    });

} // namespace
