//===- VariantTest.cpp - config table variants on the emulators -----------===//
//
// The decode benchmark layers (test/device/decode-bench.mlir) compiled with
// the checked-in config table (examples/config-table.json) for the three
// emulators: each emulator compiles the entries of the chip it stands for,
// so every tuned variant of sm_90, gfx942 and gfx950 runs here against the
// float64 oracle. The runtime's choice by N (from the host descriptor) is
// checked per bucket, and bundles whose variant configs break a rule, no
// longer match their code objects, or overlap are refused at open.
//
//===----------------------------------------------------------------------===//
#include "EditedBundles.h"
#include "Harness.h"
#include "Manifest.h"

#include <gtest/gtest.h>

#include <cstdlib>

using namespace kda;
using nlohmann::json;

namespace {

// The f32-state decode layers (test/device/decode-bench.mlir) and the
// bf16-state pools (test/device/decode-bf16-state.mlir), each compiled with
// the table.
const char *const kBundle = "decode_tuned";
const char *const kBf16Bundle = "bf16_tuned";

manifest::Manifest readTuned(const char *bundle = kBundle) {
  manifest::Manifest m;
  std::string error;
  if (!manifest::readManifest(test::numericBundleDir(bundle), m, error))
    ADD_FAILURE() << error;
  return m;
}

kda_bundle *openOn(const char *target, const char *dir = kBundle) {
  setenv("KDA_TARGET", target, 1);
  kda_bundle *bundle = nullptr;
  kda_status s =
      kda_bundle_open(test::numericBundleDir(dir).c_str(), KDA_BACKEND_EMU,
                      &bundle);
  unsetenv("KDA_TARGET");
  EXPECT_EQ(s, KDA_OK) << kda_last_error();
  return bundle;
}

/// Launches `name` of the open bundle on `shape`, checks it against the
/// oracle.
void expectOracle(kda_bundle *bundle, const std::string &name,
                  const char *target, const test::BatchShape &shape,
                  const char *dir = kBundle) {
  const kda_kernel *kernel = nullptr;
  ASSERT_EQ(kda_bundle_find(bundle, name.c_str(), &kernel), KDA_OK)
      << kda_last_error();
  test::HostMemory mem;
  const test::KernelLayer layer =
      test::readKernelLayer(test::numericBundleDir(dir), name, target);
  test::Harness h(layer, mem);
  h.prepare(shape, /*numSlots=*/13, std::hash<std::string>{}(name));
  kda_batch b = h.batch();
  ASSERT_EQ(kda_launch_recurrent(kernel, &b, nullptr), KDA_OK)
      << kda_last_error();
  test::CaseResult r = h.check();
  EXPECT_TRUE(r.finite) << name;
  EXPECT_LE(r.outErr, test::kOutputErrorBar) << name;
  EXPECT_LE(r.stateErr, test::stateErrorBar(layer.state)) << name;
  EXPECT_TRUE(r.paddingZero) << name;
  EXPECT_TRUE(r.untouchedIdentical) << name;
  std::printf("    %s/%s: out rel L2 %.3g, state rel L2 %.3g\n", name.c_str(),
              target, r.outErr, r.stateErr);
}

// Decodes, a multi-token row without initial state and padding ids 0 and
// -1; 8 tokens, so that 32- and 12-head layers of 128 x 128 stay quick on
// the emulator.
const test::BatchShape kMixed{{1, 3, 1, 2, 1}, {3, 1, 0, -1, 8},
                              {1, 0, 1, 1, 1}};

class TunedVariants : public ::testing::TestWithParam<const char *> {};

TEST_P(TunedVariants, EachVariantMatchesTheOracle) {
  const char *target = GetParam();
  kda_bundle *bundle = openOn(target);
  ASSERT_NE(bundle, nullptr);
  int variants = 0;
  for (const manifest::Kernel &k : readTuned().kernels)
    if (k.isVariant && k.target == target) {
      ++variants;
      expectOracle(bundle, k.name, target, kMixed);
    }
  // The table covers the four layers with at least one bucket each.
  EXPECT_GE(variants, 4) << "no tuned variants for " << target;
  kda_bundle_close(bundle);
}

INSTANTIATE_TEST_SUITE_P(Emulators, TunedVariants,
                         ::testing::Values("emu", "emu950", "emu32"));

// The bf16-state pools' variants: the table has them for sm_90 (measured),
// so emu32 runs each.
TEST(TunedVariantsBf16State, EachVariantMatchesTheOracle) {
  kda_bundle *bundle = openOn("emu32", kBf16Bundle);
  ASSERT_NE(bundle, nullptr);
  int variants = 0;
  for (const manifest::Kernel &k : readTuned(kBf16Bundle).kernels)
    if (k.isVariant && k.target == "emu32") {
      ++variants;
      expectOracle(bundle, k.name, "emu32", kMixed, kBf16Bundle);
    }
  EXPECT_GE(variants, 2) << "no tuned bf16-state variants";
  kda_bundle_close(bundle);
}

TEST(TunedVariantChoice, TheRuntimePicksTheBucketOfN) {
  kda_bundle *bundle = openOn("emu32");
  ASSERT_NE(bundle, nullptr);
  const manifest::Manifest m = readTuned();
  int checked = 0;
  for (const manifest::Kernel &v : m.kernels) {
    if (!v.isVariant || v.target != "emu32")
      continue;
    const kda_kernel *base = nullptr;
    ASSERT_EQ(kda_bundle_find(bundle, v.variant.of.c_str(), &base), KDA_OK);
    for (int64_t n : {v.variant.nMin, v.variant.nMax,
                      (v.variant.nMin + v.variant.nMax) / 2}) {
      const char *chosen = nullptr;
      ASSERT_EQ(kda_kernel_variant_for(base, n, &chosen), KDA_OK);
      EXPECT_EQ(std::string(chosen), v.name) << "N = " << n;
      ++checked;
    }
  }
  EXPECT_GT(checked, 0);
  // No sequences: no variant covers N = 0, the kernel itself is named.
  const kda_kernel *base = nullptr;
  ASSERT_EQ(kda_bundle_find(bundle, "decode_h32_vk", &base), KDA_OK);
  const char *chosen = nullptr;
  ASSERT_EQ(kda_kernel_variant_for(base, 0, &chosen), KDA_OK);
  EXPECT_STREQ(chosen, "decode_h32_vk");
  // A launch through the kernel runs the variant of its N (6 here) and
  // matches the oracle.
  expectOracle(bundle, "decode_h32_vk", "emu32", kMixed);
  kda_bundle_close(bundle);
}

class TunedVariantsEdited : public test::EditedBundles {
protected:
  /// Edits the first variant of emu32 in a copy of the bundle.
  std::string editFirstVariant(const std::function<void(json &)> &edit) {
    bool done = false;
    return edited(kBundle, [&](json &k) {
      if (!done && k.contains("variant") && k.at("target") == "emu32") {
        edit(k);
        done = true;
      }
    });
  }
};

TEST_F(TunedVariantsEdited, AConfigBreakingARuleIsRefused) {
  std::string dir = editFirstVariant(
      [](json &k) { k["config"]["lanes_k"] = 64; });
  expectRefused(dir, {"(emu32): config refused: each column needs a "
                      "power-of-two number of lanes within one wave of 32, "
                      "got 64"});
}

TEST_F(TunedVariantsEdited, SharedTermsWithNothingToShareAreRefused) {
  // One pass of one column group (a wave's 32 lanes on one column's k):
  // nothing to share a row's first token's terms with.
  std::string dir = editFirstVariant([](json &k) {
    k["config"]["v_passes"] = 1;
    k["config"]["lanes_k"] = 32;
    k["config"]["warps"] = 1;
    k["config"]["waves_k"] = 1;
    k["config"]["shared_terms"] = 1;
  });
  expectRefused(dir, {"(emu32): config refused: shared_terms = 1 computes a "
                      "row's first token's terms once a workgroup for the "
                      "passes and column groups that would each compute "
                      "them: it takes lds_stages = 0 and v_passes > 1 or more "
                      "than one column group (warps x wave / (lanes_k x "
                      "waves_k)), got lds_stages 0, v_passes 1 and 1 column "
                      "group"});
}

TEST_F(TunedVariantsEdited, AConfigNotMatchingItsCodeObjectIsRefused) {
  std::string dir = editFirstVariant([](json &k) {
    k["block"][0] = 2 * k["block"][0].get<int>();
  });
  expectRefused(dir, {"the compiled kernel does not match its config"});
}

TEST_F(TunedVariantsEdited, OverlappingBucketsAreRefused) {
  std::string dir = edited(kBundle, [](json &k) {
    if (k.contains("variant") && k.at("target") == "emu32")
      k["variant"]["n_max"] = 65535;
  });
  expectRefused(dir, {"overlaps"});
}

TEST_F(TunedVariantsEdited, AVariantOfAnUnknownKernelIsRefused) {
  std::string dir = editFirstVariant(
      [](json &k) { k["variant"]["of"] = "no_such_kernel"; });
  expectRefused(dir, {"a variant of 'no_such_kernel'"});
}

} // namespace
