//===- GuardedMemoryTest.cpp - the emulators' buffers catch overruns ------===//
//
// Every numeric case runs on test::HostMemory, whose buffers end at a
// PROT_NONE page. These tests hand real kernels buffers shorter than the
// batch says - which the runtime cannot see: it gets bare pointers - and
// check that the overrun is caught where it happens, with the buffer named,
// rather than the kernel reading a neighbour's bytes and a case passing.
//
//===----------------------------------------------------------------------===//
#include "GuardedMemory.h"
#include "Harness.h"
#include "OpenedBundle.h"

#include <cstring>
#include <memory>
#include <gtest/gtest.h>
#include <string>
#include <vector>

using namespace kda;

namespace {

using Opened = test::OpenedBundle;

/// The numeric bundles' folder of `spec` (the chunk specs live in chunk/).
std::string dirOf(const std::string &spec) {
  return std::string(KDA_NUMERIC_BUNDLES_DIR) +
         (spec.rfind("chunk_", 0) == 0 ? "/chunk/" : "/") + spec;
}

void open(const std::string &spec, Opened &o) {
  ASSERT_EQ(o.open(dirOf(spec), nullptr), KDA_OK) << o.error;
  ASSERT_NE(o.find(spec), nullptr) << o.error;
}

test::KernelLayer layerOf(const std::string &spec, const Opened &o) {
  return test::readKernelLayer(dirOf(spec), spec, kda_bundle_target(o.bundle));
}

/// A copy of the first `bytes` of `src` (which holds at least that many) in
/// a guarded buffer of exactly `bytes`.
void *shortCopy(test::HostMemory &mem, const void *src, size_t bytes) {
  void *p = mem.alloc(bytes);
  std::memcpy(p, src, bytes);
  return p;
}

class GuardedMemory : public ::testing::Test {
protected:
  void SetUp() override { GTEST_FLAG_SET(death_test_style, "threadsafe"); }
  /// k3_small opened and a mixed batch (rows of 1, 3 and 1 tokens, the last
  /// without initial state) prepared in guarded memory.
  void prepareK3Small(uint64_t seed) {
    ASSERT_NO_FATAL_FAILURE(open("k3_small", o));
    h = std::make_unique<test::Harness>(layerOf("k3_small", o), mem);
    h->prepare({{1, 3, 1}, {1, 2, 3}, {1, 1, 0}}, /*numSlots=*/4, seed);
  }

  Opened o;
  test::HostMemory mem;
  std::unique_ptr<test::Harness> h;
};

TEST_F(GuardedMemory, AllocatorFencesBothEndsAndChecksTheRoundUp) {
  auto *p = static_cast<unsigned char *>(mem.alloc(40));
  ASSERT_EQ(reinterpret_cast<uintptr_t>(p) % 16, 0u);
  std::memset(p, 1, 40); // every byte of the buffer is usable
  EXPECT_DEATH({ (void)*static_cast<volatile unsigned char *>(p + 48); },
               "8 bytes past the end of a guarded buffer of 40 bytes");
  EXPECT_DEATH({ (void)*static_cast<volatile unsigned char *>(p - 4096); },
               "before the start of a guarded buffer of 40 bytes");
  EXPECT_DEATH(
      {
        p[41] = 0; // inside the 16-byte round-up: no fault, the canary
        mem.release(p);
      },
      "byte 1 past the end of a guarded buffer of 40 bytes was written");
  mem.release(p);
  void *empty = mem.alloc(0);
  EXPECT_DEATH({ (void)*static_cast<volatile unsigned char *>(empty); },
               "0 bytes past the end of a guarded buffer of 0 bytes");
  mem.release(empty);
}

// The decode kernel reads the last token's q rows; given a buffer one head
// row short, that read faults.
TEST_F(GuardedMemory, RecurrentKernelReadingPastShortQFaults) {
  ASSERT_NO_FATAL_FAILURE(prepareK3Small(5));
  kda_batch b = h->batch();
  const size_t qBytes = size_t(b.num_tokens) * b.heads * b.head_k * 2;
  const size_t shortBytes = qBytes - size_t(b.head_k) * 2;
  void *q = shortCopy(mem, b.q, shortBytes);
  b.q = q;
  EXPECT_DEATH((void)kda_launch_recurrent(o.kernel, &b, nullptr),
               "past the end of a guarded buffer of " +
                   std::to_string(shortBytes) + " bytes");
  mem.release(q);
  // The full buffer launches cleanly: the fault is the shortfall's.
  b = h->batch();
  EXPECT_EQ(kda_launch_recurrent(o.kernel, &b, nullptr), KDA_OK)
      << kda_last_error();
}

// The chunk path's prep writes its records into the caller's workspace;
// with less than it claims, the first record past the end faults. Half of
// the need: the records are most of it (the split scan's blocks after
// them, 22% here, are untouched by a batch whose scan is not split).
TEST_F(GuardedMemory, ChunkPrepWritingPastShortWorkspaceFaults) {
  ASSERT_NO_FATAL_FAILURE(open("chunk_k3", o));
  int64_t need = 0;
  ASSERT_EQ(kda_kernel_workspace_bytes(o.kernel, 72, 3, &need), KDA_OK)
      << kda_last_error();
  ASSERT_GT(need, 4096);
  // The short workspace is mapped before the batch's tensors, with every
  // byte it claims past its end guarded: the records of one token lie
  // 2 x 2816 bytes apart, so which one a workgroup writes first past the end
  // may pass a single guard page (the runtime refuses a claimed workspace
  // that overlaps a tensor; it cannot tell one that runs into unmapped
  // memory).
  const int64_t have = need / 2 / 16 * 16;
  void *ws = test::guardedAlloc(size_t(have), size_t(need - have));
  h = std::make_unique<test::Harness>(layerOf("chunk_k3", o), mem);
  h->prepare({{1, 70, 1}, {1, 3, 2}}, /*numSlots=*/4, 9);
  kda_batch b = h->batch();
  ASSERT_EQ(b.num_tokens, 72);
  ASSERT_EQ(b.num_seqs, 3);
  b.workspace = ws;
  b.workspace_bytes = need; // the runtime cannot tell
  ASSERT_EQ(kda_validate_chunk(o.kernel, &b), KDA_OK) << kda_last_error();
  EXPECT_DEATH((void)kda_launch_chunk(o.kernel, &b, nullptr),
               "past the end of a guarded buffer of " + std::to_string(have) +
                   " bytes");
  mem.release(ws);
}

// A write that stays inside the round-up to 16 bytes does not fault; the
// canary there catches it when the buffer is released.
TEST_F(GuardedMemory, RecurrentKernelWritingPastShortOutputIsCaught) {
  ASSERT_NO_FATAL_FAILURE(prepareK3Small(6));
  kda_batch b = h->batch();
  const size_t outBytes = size_t(b.num_tokens) * b.value_heads * b.head_v * 2;
  ASSERT_EQ(outBytes % 16, 0u);
  void *out = mem.alloc(outBytes - 2); // the last element lands in the canary
  b.out = out;
  EXPECT_DEATH(
      {
        (void)kda_launch_recurrent(o.kernel, &b, nullptr);
        mem.release(out);
      },
      "byte 0 past the end of a guarded buffer of " +
          std::to_string(outBytes - 2) + " bytes was written");
  mem.release(out); // the parent never ran the kernel on it
}

} // namespace
