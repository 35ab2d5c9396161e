//===- DescriptorTest.cpp - bad descriptors are refused, nothing written --===//
#include "Harness.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <gtest/gtest.h>
#include <utility>

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
    // Validation alone first: a batch it wrongly accepts fails here, before
    // the launch below could crash on it.
    ASSERT_EQ(kda_validate_recurrent(kernel, &b), KDA_ERROR_INVALID_ARGUMENT)
        << "accepted; expected: " << what;
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
                "state layout kv does not match the bundle's vk");
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

// A plan dies with its bundle: used after kda_bundle_close it is refused
// (nothing launched, nothing written), not a use of freed kernels.
TEST_F(Descriptors, PlanOutlivingItsBundleIsRefused) {
  kda_plan *plan = nullptr;
  ASSERT_EQ(kda_plan_create(bundle, &plan), KDA_OK);
  kda_batch b = harness->batch();
  ASSERT_EQ(kda_plan_add_recurrent(plan, kernel, &b), KDA_OK)
      << kda_last_error();
  ASSERT_EQ(kda_plan_size(plan), 1);
  kda_bundle_close(bundle);
  bundle = nullptr; // TearDown's close is then a no-op

  const std::string closed = "the plan's bundle was closed";
  EXPECT_EQ(kda_plan_launch(plan, nullptr), KDA_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(kda_last_error()).find(closed), std::string::npos)
      << kda_last_error();
  EXPECT_EQ(kda_plan_launch_range(plan, 0, 1, nullptr),
            KDA_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(kda_last_error()).find(closed), std::string::npos)
      << kda_last_error();
  EXPECT_EQ(harness->snapshot(), before) << "a refused launch wrote memory";

  // Adding to it is refused before the kernel is looked at, whichever
  // bundle that kernel is from.
  kda_bundle *other = nullptr;
  ASSERT_EQ(kda_bundle_open(dir.c_str(), KDA_BACKEND_EMU, &other), KDA_OK)
      << kda_last_error();
  const kda_kernel *live = nullptr;
  ASSERT_EQ(kda_bundle_find(other, "k3_small", &live), KDA_OK);
  EXPECT_EQ(kda_plan_add_recurrent(plan, live, &b), KDA_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(kda_last_error()).find(closed), std::string::npos)
      << kda_last_error();
  EXPECT_EQ(kda_plan_add_forward(plan, live, nullptr, nullptr),
            KDA_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(kda_last_error()).find(closed), std::string::npos)
      << kda_last_error();
  EXPECT_EQ(kda_plan_size(plan), 1);
  kda_plan_destroy(plan);

  // A plan on the bundle still open launches as before.
  ASSERT_EQ(kda_plan_create(other, &plan), KDA_OK);
  ASSERT_EQ(kda_plan_add_recurrent(plan, live, &b), KDA_OK) << kda_last_error();
  EXPECT_EQ(kda_plan_launch(plan, nullptr), KDA_OK) << kda_last_error();
  EXPECT_NE(harness->snapshot(), before);
  kda_plan_destroy(plan);
  kda_bundle_close(other);
}

// Every field of the validation, one case each: a check that forgets one
// field, or a loop that skips one position, is caught. The prepared batch:
// k3_small (H 2, HV 2, K 64, V 32, bf16 activations, gates and betas, f32
// vk state, A_log and dt_bias), sequences of 1, 3 and 1 tokens in slots 1,
// 2, 3 of a pool of 4.

TEST_F(Descriptors, EachDimIsChecked) {
  const char *kernelDims = ") do not match kernel k3_small (H 2, HV 2, K 64, V 32)";
  expectRefused([](kda_batch &b) { b.heads = 4; },
                std::string("dims (H 4, HV 2, K 64, V 32") + kernelDims);
  expectRefused([](kda_batch &b) { b.value_heads = 4; },
                std::string("dims (H 2, HV 4, K 64, V 32") + kernelDims);
  expectRefused([](kda_batch &b) { b.head_k = 32; },
                std::string("dims (H 2, HV 2, K 32, V 32") + kernelDims);
  expectRefused([](kda_batch &b) { b.head_v = 64; },
                std::string("dims (H 2, HV 2, K 64, V 64") + kernelDims);
}

TEST_F(Descriptors, EachDtypeIsChecked) {
  expectRefused([](kda_batch &b) { b.act_dtype = KDA_F32; },
                "activation dtype f32 is not the bundle's bf16 (unsupported here)");
  expectRefused([](kda_batch &b) { b.g_dtype = KDA_F32; },
                "g dtype f32 is not the bundle's bf16 (unsupported here)");
  expectRefused([](kda_batch &b) { b.beta_dtype = KDA_F16; },
                "beta dtype f16 is not the bundle's bf16 (unsupported here)");
  expectRefused([](kda_batch &b) { b.state_dtype = KDA_F16; },
                "state dtype f16 is not the bundle's f32 (unsupported here)");
}

TEST_F(Descriptors, NegativeCounts) {
  expectRefused([](kda_batch &b) { b.num_seqs = -1; },
                "num_seqs -1 is negative");
  expectRefused([](kda_batch &b) { b.num_tokens = -5; },
                "num_tokens -5 is negative");
  expectRefused([](kda_batch &b) { b.num_slots = -1; },
                "num_slots -1 is negative");
  // A pool whose size overflows is refused as that, not as an overlap.
  expectRefused([](kda_batch &b) { b.num_slots = int64_t(1) << 62; },
                "state would be more than 2^63 - 1 bytes: a count it is sized "
                "by (num_tokens, num_seqs, num_slots) is wrong");
}

// A padding row (slot <= 0) reads and writes no slot, so its slot need not
// be in the pool: slot 0 of an empty pool is padding, slot 1 is refused.
TEST_F(Descriptors, PaddingSlotsNeedNoPool) {
  slots = {0, -3, 0};
  kda_batch b = harness->batch();
  b.slots_host = slots.data();
  b.num_slots = 0;
  EXPECT_EQ(kda_validate_recurrent(kernel, &b), KDA_OK) << kda_last_error();
  slots = {0, 1, 0};
  expectRefused(
      [&](kda_batch &bb) {
        bb.slots_host = slots.data();
        bb.num_slots = 0;
      },
      "slot index 1 of sequence 1 is outside the pool of 0 slots");
}

// Every entry point that can fail clears the last error first, the variant
// query too.
TEST_F(Descriptors, VariantQueryClearsTheLastError) {
  ASSERT_EQ(kda_bundle_find(bundle, "no_such_layer", &kernel),
            KDA_ERROR_NOT_FOUND);
  ASSERT_STRNE(kda_last_error(), "");
  ASSERT_EQ(kda_bundle_find(bundle, "k3_small", &kernel), KDA_OK);
  ASSERT_EQ(kda_bundle_find(bundle, "no_such_layer", nullptr),
            KDA_ERROR_INVALID_ARGUMENT);
  const char *name = nullptr;
  EXPECT_EQ(kda_kernel_variant_for(kernel, 3, &name), KDA_OK);
  EXPECT_STREQ(kda_last_error(), "");
  EXPECT_STREQ(name, "k3_small");
}

// Grid z carries the sequences: 65535 is the last count that fits.
TEST_F(Descriptors, SequenceCountLimit) {
  expectRefused([](kda_batch &b) { b.num_seqs = 65536; },
                "num_seqs 65536 exceeds 65535 (grid z)");
  cu.assign(65536, 0); // 65535 empty padding sequences validate
  slots.assign(65535, 0);
  kda_batch b = harness->batch();
  b.num_seqs = 65535;
  b.num_tokens = 0;
  b.cu_seqlens_host = cu.data();
  b.slots_host = slots.data();
  EXPECT_EQ(kda_validate_recurrent(kernel, &b), KDA_OK) << kda_last_error();
}

TEST_F(Descriptors, EveryPointerIsCheckedForNull) {
  const std::pair<const char *, std::function<void(kda_batch &)>> fields[] = {
      {"q", [](kda_batch &b) { b.q = nullptr; }},
      {"k", [](kda_batch &b) { b.k = nullptr; }},
      {"v", [](kda_batch &b) { b.v = nullptr; }},
      {"g", [](kda_batch &b) { b.g = nullptr; }},
      {"beta", [](kda_batch &b) { b.beta = nullptr; }},
      {"a_log", [](kda_batch &b) { b.a_log = nullptr; }},
      {"dt_bias", [](kda_batch &b) { b.dt_bias = nullptr; }},
      {"cu_seqlens", [](kda_batch &b) { b.cu_seqlens = nullptr; }},
      {"slots", [](kda_batch &b) { b.slots = nullptr; }},
      {"has_initial_state", [](kda_batch &b) { b.has_initial_state = nullptr; }},
      {"state", [](kda_batch &b) { b.state = nullptr; }},
      {"out", [](kda_batch &b) { b.out = nullptr; }},
      {"cu_seqlens_host", [](kda_batch &b) { b.cu_seqlens_host = nullptr; }},
      {"slots_host", [](kda_batch &b) { b.slots_host = nullptr; }}};
  for (const auto &[name, spoil] : fields) {
    SCOPED_TRACE(name);
    expectRefused(spoil, std::string(name) + " is null");
  }
}

template <typename T> T *plus4(T *p) {
  return reinterpret_cast<T *>(reinterpret_cast<uintptr_t>(p) + 4);
}

TEST_F(Descriptors, EveryPointerIsCheckedForAlignment) {
  const std::pair<const char *, std::function<void(kda_batch &)>> fields[] = {
      {"q", [](kda_batch &b) { b.q = plus4(b.q); }},
      {"k", [](kda_batch &b) { b.k = plus4(b.k); }},
      {"v", [](kda_batch &b) { b.v = plus4(b.v); }},
      {"g", [](kda_batch &b) { b.g = plus4(b.g); }},
      {"beta", [](kda_batch &b) { b.beta = plus4(b.beta); }},
      {"a_log", [](kda_batch &b) { b.a_log = plus4(b.a_log); }},
      {"dt_bias", [](kda_batch &b) { b.dt_bias = plus4(b.dt_bias); }},
      {"cu_seqlens", [](kda_batch &b) { b.cu_seqlens = plus4(b.cu_seqlens); }},
      {"slots", [](kda_batch &b) { b.slots = plus4(b.slots); }},
      {"has_initial_state",
       [](kda_batch &b) { b.has_initial_state = plus4(b.has_initial_state); }},
      {"state", [](kda_batch &b) { b.state = plus4(b.state); }},
      {"out", [](kda_batch &b) { b.out = plus4(b.out); }}};
  for (const auto &[name, spoil] : fields) {
    SCOPED_TRACE(name);
    expectRefused(spoil, std::string(name) + " is not 16-byte aligned");
  }
}

// Host copies are read element by element, so they need only their int32
// elements' alignment; one off by a byte is refused (as kda_forward's are),
// not read misaligned.
TEST_F(Descriptors, HostCopiesAreCheckedForElementAlignment) {
  alignas(16) static char spare[2][64];
  const std::pair<const char *, std::function<void(kda_batch &)>> fields[] = {
      {"cu_seqlens_host",
       [](kda_batch &b) {
         std::memcpy(spare[0] + 1, b.cu_seqlens_host,
                     sizeof(int32_t) * size_t(b.num_seqs + 1));
         b.cu_seqlens_host = reinterpret_cast<const int32_t *>(spare[0] + 1);
       }},
      {"slots_host", [](kda_batch &b) {
         std::memcpy(spare[1] + 2, b.slots_host,
                     sizeof(int32_t) * size_t(b.num_seqs));
         b.slots_host = reinterpret_cast<const int32_t *>(spare[1] + 2);
       }}};
  for (const auto &[name, spoil] : fields) {
    SCOPED_TRACE(name);
    expectRefused(spoil, std::string(name) +
                             " is not 4-byte aligned (its int32 elements)");
  }
  // At an element boundary inside a larger array: accepted.
  kda_batch b = harness->batch();
  std::memcpy(spare[0] + 4, b.cu_seqlens_host,
              sizeof(int32_t) * size_t(b.num_seqs + 1));
  b.cu_seqlens_host = reinterpret_cast<const int32_t *>(spare[0] + 4);
  EXPECT_EQ(kda_validate_recurrent(kernel, &b), KDA_OK) << kda_last_error();
}

TEST_F(Descriptors, CuSeqlensMustStartAtZero) {
  cu = {1, 2, 4, 5};
  expectRefused([&](kda_batch &b) { b.cu_seqlens_host = cu.data(); },
                "cu_seqlens[0] is 1, not 0");
}

// The batch has 3 sequences: pairs (0, 1), (1, 2), (2, 3) - first, middle
// and last - each broken alone (the end still at num_tokens 5).
TEST_F(Descriptors, CuSeqlensMonotonicAtEveryPosition) {
  const std::pair<std::vector<int32_t>, const char *> cases[] = {
      {{0, -1, 4, 5}, "cu_seqlens[1] = -1 < cu_seqlens[0] = 0"},
      {{0, 3, 1, 5}, "cu_seqlens[2] = 1 < cu_seqlens[1] = 3"},
      {{0, 1, 6, 5}, "cu_seqlens[3] = 5 < cu_seqlens[2] = 6"}};
  for (const auto &[values, what] : cases) {
    SCOPED_TRACE(what);
    cu = values;
    expectRefused([&](kda_batch &b) { b.cu_seqlens_host = cu.data(); },
                  std::string("cu_seqlens is not monotonic: ") + what);
  }
}

TEST_F(Descriptors, CuSeqlensEndChecked) {
  cu = {0, 1, 4, 4};
  expectRefused([&](kda_batch &b) { b.cu_seqlens_host = cu.data(); },
                "cu_seqlens ends at 4, not num_tokens 5");
}

TEST_F(Descriptors, SlotOutsidePoolAtEveryPosition) {
  const std::pair<std::vector<int32_t>, const char *> cases[] = {
      {{4, 2, 3}, "slot index 4 of sequence 0 is outside the pool of 4 slots"},
      {{1, 9, 3}, "slot index 9 of sequence 1 is outside the pool of 4 slots"},
      {{1, 2, 4}, "slot index 4 of sequence 2 is outside the pool of 4 slots"}};
  for (const auto &[values, what] : cases) {
    SCOPED_TRACE(what);
    slots = values;
    expectRefused([&](kda_batch &b) { b.slots_host = slots.data(); }, what);
  }
}

// KDA-MATH.md section 4: two non-padding rows naming one slot would race on
// its state; padding ids (<= 0) may repeat.
TEST_F(Descriptors, TwoSequencesNamingOneSlot) {
  const std::pair<std::vector<int32_t>, const char *> cases[] = {
      {{2, 2, 3}, "sequences 0 and 1 both name slot 2"},
      {{1, 3, 3}, "sequences 1 and 2 both name slot 3"},
      {{3, 2, 3}, "sequences 0 and 2 both name slot 3"}};
  for (const auto &[values, what] : cases) {
    SCOPED_TRACE(what);
    slots = values;
    expectRefused([&](kda_batch &b) { b.slots_host = slots.data(); }, what);
  }
  slots = {0, -1, 0};
  kda_batch b = harness->batch();
  b.slots_host = slots.data();
  EXPECT_EQ(kda_validate_recurrent(kernel, &b), KDA_OK) << kda_last_error();
}

// A tensor the kernel writes shares no byte with another (the kernel reads
// q while other workgroups write out over it).
TEST_F(Descriptors, WrittenTensorsOverlapNoOther) {
  expectRefused([](kda_batch &b) { b.out = const_cast<void *>(b.q); },
                "out overlaps q");
  expectRefused([](kda_batch &b) { b.state = b.out; }, "out overlaps state");
  expectRefused(
      [](kda_batch &b) {
        b.cu_seqlens = static_cast<const int32_t *>(b.state);
      },
      "state overlaps cu_seqlens");
  expectRefused(
      [](kda_batch &b) { b.a_log = static_cast<const float *>(b.out) + 4; },
      "out overlaps a_log");
  // A num_tokens past the offsets' end is named as such, not as the
  // overlaps its stretched extents would make.
  expectRefused([](kda_batch &b) { b.num_tokens = int64_t(1) << 40; },
                "cu_seqlens ends at");
}

// An empty batch is valid and launches nothing.
TEST_F(Descriptors, EmptyBatchWritesNothing) {
  cu = {0};
  kda_batch b = harness->batch();
  b.num_seqs = 0;
  b.num_tokens = 0;
  b.cu_seqlens_host = cu.data();
  EXPECT_EQ(kda_launch_recurrent(kernel, &b, nullptr), KDA_OK)
      << kda_last_error();
  EXPECT_EQ(harness->snapshot(), before);
}

TEST_F(Descriptors, NotARecurrentKernelOrNoBatch) {
  EXPECT_EQ(kda_validate_recurrent(kernel, nullptr), KDA_ERROR_INVALID_ARGUMENT);
  EXPECT_STREQ(kda_last_error(), "null batch");
  kda_batch b = harness->batch();
  EXPECT_EQ(kda_launch_recurrent(nullptr, &b, nullptr),
            KDA_ERROR_INVALID_ARGUMENT);
  EXPECT_STREQ(kda_last_error(), "null kernel");
  EXPECT_EQ(harness->snapshot(), before);
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

// A backend value outside the enum is a bad argument, named, not a missing
// driver.
TEST(Bundles, BackendOutsideTheEnumIsRefused) {
  std::string dir = std::string(KDA_NUMERIC_BUNDLES_DIR) + "/k3_small";
  for (int value : {99, -1}) {
    kda_bundle *bundle = nullptr;
    EXPECT_EQ(kda_bundle_open(dir.c_str(), kda_backend(value), &bundle),
              KDA_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(bundle, nullptr);
    EXPECT_EQ(std::string(kda_last_error()),
              "backend " + std::to_string(value) +
                  " is none of auto, hip, cuda, emu");
  }
}

// An empty target name is a bad argument, not a target the bundle lacks
// (null asks for the first target the backend runs).
TEST(Bundles, EmptyTargetNameIsRefused) {
  std::string dir = std::string(KDA_NUMERIC_BUNDLES_DIR) + "/k3_small";
  kda_bundle *bundle = nullptr;
  EXPECT_EQ(kda_bundle_open_target(dir.c_str(), KDA_BACKEND_EMU, "", &bundle),
            KDA_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(bundle, nullptr);
  EXPECT_NE(std::string(kda_last_error()).find("empty target name"),
            std::string::npos)
      << kda_last_error();
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
