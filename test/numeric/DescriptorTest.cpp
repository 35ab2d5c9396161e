//===- DescriptorTest.cpp - bad descriptors are refused, nothing written --===//
#include "Harness.h"

#include <gtest/gtest.h>
#include <cstdio>
#include <cstdlib>
#include <functional>

using namespace kda;

namespace {

class Descriptors : public ::testing::Test {
protected:
  void SetUp() override {
    dir = std::string(KDA_NUMERIC_BUNDLES_DIR) + "/k3_small";
    ASSERT_EQ(kda_bundle_open(dir.c_str(), KDA_BACKEND_EMU, &bundle), KDA_OK)
        << kda_last_error();
    ASSERT_EQ(kda_bundle_find(bundle, "k3_small", &kernel), KDA_OK);
    harness = std::make_unique<test::Harness>(
        test::readKernelLayer(dir, "k3_small", kda_bundle_target(bundle)),
        mem);
    harness->prepare({{1, 3, 1}, {1, 2, 3}, {1, 1, 0}}, /*numSlots=*/4, 77);
    before = harness->snapshot();
  }
  void TearDown() override { kda_bundle_close(bundle); }

  /// Launches with one field spoiled: must be refused, say `what`, and leave
  /// state and output bit-identical.
  void expectRefused(const std::function<void(kda_batch &)> &spoil,
                     const std::string &what) {
    kda_batch b = harness->batch();
    spoil(b);
    EXPECT_EQ(kda_launch_recurrent(kernel, &b, nullptr),
              KDA_ERROR_INVALID_ARGUMENT);
    EXPECT_NE(std::string(kda_last_error()).find(what), std::string::npos)
        << "message: " << kda_last_error();
    EXPECT_EQ(harness->snapshot(), before) << "a refused launch wrote memory";
  }

  std::string dir;
  kda_bundle *bundle = nullptr;
  const kda_kernel *kernel = nullptr;
  test::HostMemory mem;
  std::unique_ptr<test::Harness> harness;
  std::vector<uint8_t> before;
  std::vector<int32_t> cu, slots;
};

TEST_F(Descriptors, SlotIndexOutsidePool) {
  slots = {1, 4, 3}; // pool of 4 slots: 4 is out of range
  expectRefused([&](kda_batch &b) { b.slots_host = slots.data(); },
                "slot index 4 of sequence 1 is outside the pool of 4 slots");
}

TEST_F(Descriptors, CuSeqlensNotMonotonic) {
  cu = {0, 3, 1, 5};
  expectRefused([&](kda_batch &b) { b.cu_seqlens_host = cu.data(); },
                "cu_seqlens is not monotonic");
}

TEST_F(Descriptors, CuSeqlensNotEndingAtTokens) {
  cu = {0, 1, 4, 6};
  expectRefused([&](kda_batch &b) { b.cu_seqlens_host = cu.data(); },
                "not num_tokens 5");
}

TEST_F(Descriptors, NullPointers) {
  expectRefused([](kda_batch &b) { b.q = nullptr; }, "q is null");
  expectRefused([](kda_batch &b) { b.state = nullptr; }, "state is null");
  expectRefused([](kda_batch &b) { b.a_log = nullptr; }, "a_log is null");
  expectRefused([](kda_batch &b) { b.slots_host = nullptr; },
                "slots_host is null");
}

TEST_F(Descriptors, DimsThatDoNotMatchTheBundle) {
  expectRefused([](kda_batch &b) { b.head_k = 128; }, "do not match kernel");
  expectRefused([](kda_batch &b) { b.value_heads = 4; }, "do not match kernel");
}

TEST_F(Descriptors, UnsupportedDtypes) {
  expectRefused([](kda_batch &b) { b.act_dtype = KDA_F16; },
                "activation dtype f16 is not the bundle's bf16");
  expectRefused([](kda_batch &b) { b.state_dtype = KDA_BF16; },
                "state dtype bf16");
}

TEST_F(Descriptors, StateLayoutMismatch) {
  expectRefused([](kda_batch &b) { b.state_layout = KDA_LAYOUT_KV; },
                "state layout kv");
}

TEST_F(Descriptors, MisalignedPointer) {
  expectRefused(
      [](kda_batch &b) { b.v = static_cast<const char *>(b.v) + 2; },
      "v is not 16-byte aligned");
}

TEST_F(Descriptors, ValidBatchLaunches) {
  kda_batch b = harness->batch();
  ASSERT_EQ(kda_launch_recurrent(kernel, &b, nullptr), KDA_OK)
      << kda_last_error();
  test::CaseResult r = harness->check();
  EXPECT_LE(r.outErr, 2e-3);
  EXPECT_NE(harness->snapshot(), before);
}

TEST(Bundles, MissingBundleAndKernel) {
  kda_bundle *bundle = nullptr;
  EXPECT_EQ(kda_bundle_open("/nonexistent/bundle", KDA_BACKEND_EMU, &bundle),
            KDA_ERROR_NOT_FOUND);
  EXPECT_EQ(bundle, nullptr);
  std::string dir = std::string(KDA_NUMERIC_BUNDLES_DIR) + "/k3_small";
  ASSERT_EQ(kda_bundle_open(dir.c_str(), KDA_BACKEND_EMU, &bundle), KDA_OK);
  const kda_kernel *k = nullptr;
  EXPECT_EQ(kda_bundle_find(bundle, "no_such_layer", &k), KDA_ERROR_NOT_FOUND);
  kda_bundle_close(bundle);
}

} // namespace

namespace {

// AUTO tries hip, then cuda, then the emulator; a bundle with only emulator
// code objects always ends on the emulator, whatever drivers the machine has.
TEST(Bundles, AutoBackendFallsBackToTheEmulator) {
  std::string dir = std::string(KDA_NUMERIC_BUNDLES_DIR) + "/k3_small";
  kda_bundle *bundle = nullptr;
  ASSERT_EQ(kda_bundle_open(dir.c_str(), KDA_BACKEND_AUTO, &bundle), KDA_OK)
      << kda_last_error();
  EXPECT_EQ(kda_bundle_backend(bundle), KDA_BACKEND_EMU);
  EXPECT_EQ(std::string(kda_bundle_target(bundle)).rfind("emu", 0), 0u);
  kda_bundle_close(bundle);
}

// Asking for a GPU backend the bundle has no code objects for (or the
// machine has no driver for) is refused with the reasons, nothing opened.
TEST(Bundles, UnavailableBackendIsRefused) {
  std::string dir = std::string(KDA_NUMERIC_BUNDLES_DIR) + "/k3_small";
  for (kda_backend b : {KDA_BACKEND_CUDA, KDA_BACKEND_HIP}) {
    kda_bundle *bundle = nullptr;
    EXPECT_EQ(kda_bundle_open(dir.c_str(), b, &bundle), KDA_ERROR_UNSUPPORTED);
    EXPECT_EQ(bundle, nullptr);
    EXPECT_NE(std::string(kda_last_error()).find("no usable backend"),
              std::string::npos);
  }
}

// A manifest that is not JSON is a bad bundle, reported with its path.
TEST(Bundles, CorruptManifestIsRefused) {
  std::string dir = ::testing::TempDir() + "/kda-corrupt-bundle";
  std::string mkdir = "mkdir -p " + dir;
  ASSERT_EQ(std::system(mkdir.c_str()), 0);
  std::FILE *f = std::fopen((dir + "/manifest.json").c_str(), "w");
  ASSERT_NE(f, nullptr);
  std::fputs("{ not json", f);
  std::fclose(f);
  kda_bundle *bundle = nullptr;
  EXPECT_EQ(kda_bundle_open(dir.c_str(), KDA_BACKEND_EMU, &bundle),
            KDA_ERROR_BAD_BUNDLE);
  EXPECT_NE(std::string(kda_last_error()).find("manifest.json"),
            std::string::npos);
}

} // namespace
