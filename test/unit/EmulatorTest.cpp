//===- EmulatorTest.cpp - the SIMT emulator's primitives, one by one ------===//
//
// The emulated kernels of test/numeric exercise only what the decode kernel
// uses (xor butterflies of one width, drained barriers, race-free schedules).
// These tests call the emulator's C entry points from hand-written packed
// entries, so every shuffle mode, the barrier, the divergence check and each
// of the race detector's reports is pinned by an exact value or message.
//
//===----------------------------------------------------------------------===//
#include "../../runtime/emu/Emulator.h"

#include <gtest/gtest.h>
#include <cstring>
#include <string>
#include <vector>

using kda::emu::LaunchConfig;

namespace {

int32_t lin(void *ctx) { return int32_t(kda_emu_id(ctx, 0)); }

LaunchConfig block(uint32_t threads, uint32_t wave = 64) {
  LaunchConfig c;
  c.block[0] = threads;
  c.waveSize = wave;
  return c;
}

std::string run(kda::emu::PackedEntry entry, const LaunchConfig &c,
                void *data = nullptr) {
  void *params[1] = {data};
  return kda::emu::launch(entry, c, params);
}

/// results[thread][i] of a 64-thread block.
struct Results {
  int32_t v[64][6];
};
Results *resultsOf(void **params) { return static_cast<Results *>(params[0]); }

// Modes 0 xor, 1 up, 2 down, 3 idx, within segments of `width` lanes.
void shuffleModes(void *ctx, void **params) {
  const int32_t me = lin(ctx);
  int32_t *out = resultsOf(params)->v[me];
  out[0] = kda_emu_shuffle_i32(ctx, me, 1, 64, 0);
  out[1] = kda_emu_shuffle_i32(ctx, me, 1, 16, 1);
  out[2] = kda_emu_shuffle_i32(ctx, me, 2, 16, 2);
  out[3] = kda_emu_shuffle_i32(ctx, me, 5, 16, 3);
  out[4] = kda_emu_shuffle_i32(ctx, me, 16, 32, 0);
  float f = kda_emu_shuffle_f32(ctx, 0.5f * float(me), 3, 64, 0);
  std::memcpy(&out[5], &f, 4);
}

TEST(EmulatorShuffles, EveryModeAndSegment) {
  Results r{};
  ASSERT_EQ(run(shuffleModes, block(64), &r), "");
  for (int32_t t = 0; t < 64; ++t) {
    const int32_t inSeg = t % 16, seg = t - inSeg;
    EXPECT_EQ(r.v[t][0], t ^ 1) << "xor, thread " << t;
    // A source outside the segment gives the caller its own value.
    EXPECT_EQ(r.v[t][1], inSeg >= 1 ? t - 1 : t) << "up, thread " << t;
    EXPECT_EQ(r.v[t][2], inSeg + 2 < 16 ? t + 2 : t) << "down, thread " << t;
    EXPECT_EQ(r.v[t][3], seg + 5) << "idx, thread " << t;
    EXPECT_EQ(r.v[t][4], t ^ 16) << "xor 16 in 32-lane segments, thread " << t;
    float f;
    std::memcpy(&f, &r.v[t][5], 4);
    EXPECT_EQ(f, 0.5f * float(t ^ 3)) << "f32 xor, thread " << t;
  }
}

// Wave 32: two waves in one block; a full-width shuffle never crosses into
// the other wave, and lane / subgroup ids follow the wave size.
void waveIds(void *ctx, void **params) {
  const int32_t me = lin(ctx);
  int32_t *out = resultsOf(params)->v[me];
  out[0] = kda_emu_shuffle_i32(ctx, me, 31, 32, 3);
  out[1] = int32_t(kda_emu_id(ctx, 12));
  out[2] = int32_t(kda_emu_id(ctx, 13));
  out[3] = int32_t(kda_emu_id(ctx, 14));
  out[4] = kda_emu_shuffle_i32(ctx, me, 1, 32, 2);
}

TEST(EmulatorShuffles, Wave32StaysInsideItsWave) {
  Results r{};
  ASSERT_EQ(run(waveIds, block(64, 32), &r), "");
  for (int32_t t = 0; t < 64; ++t) {
    EXPECT_EQ(r.v[t][0], t / 32 * 32 + 31) << "idx 31, thread " << t;
    EXPECT_EQ(r.v[t][1], t % 32) << "lane id, thread " << t;
    EXPECT_EQ(r.v[t][2], t / 32) << "subgroup id, thread " << t;
    EXPECT_EQ(r.v[t][3], 32) << "subgroup size";
    EXPECT_EQ(r.v[t][4], t % 32 == 31 ? t : t + 1) << "down 1, thread " << t;
  }
}

// Back-to-back shuffles: a lane that runs ahead must not overwrite the value
// a slower lane has yet to read (the exchange's two halves).
void backToBack(void *ctx, void **params) {
  const int32_t me = lin(ctx);
  int32_t *out = resultsOf(params)->v[me];
  out[0] = kda_emu_shuffle_i32(ctx, me, 1, 64, 0);
  out[1] = kda_emu_shuffle_i32(ctx, 100 + me, 2, 64, 0);
  out[2] = kda_emu_shuffle_i32(ctx, 200 + me, 4, 64, 0);
}

TEST(EmulatorShuffles, BackToBackShufflesKeepTheirValues) {
  Results r{};
  ASSERT_EQ(run(backToBack, block(64), &r), "");
  for (int32_t t = 0; t < 64; ++t) {
    EXPECT_EQ(r.v[t][0], t ^ 1);
    EXPECT_EQ(r.v[t][1], 100 + (t ^ 2));
    EXPECT_EQ(r.v[t][2], 200 + (t ^ 4));
  }
}

// Barrier: every thread writes its slot, then reads its neighbour's after
// the barrier; with fibers switched at the barrier, all writes are seen.
void barrierExchange(void *ctx, void **params) {
  Results *r = resultsOf(params);
  const int32_t me = lin(ctx);
  r->v[me][0] = 7 * me;
  kda_emu_barrier(ctx);
  r->v[me][1] = r->v[(me + 1) % 64][0];
  kda_emu_barrier(ctx);
  r->v[(me + 1) % 64][2] = r->v[me][1];
}

TEST(EmulatorBarriers, WritesBeforeABarrierAreSeenAfterIt) {
  Results r{};
  ASSERT_EQ(run(barrierExchange, block(64), &r), "");
  for (int32_t t = 0; t < 64; ++t) {
    EXPECT_EQ(r.v[t][1], 7 * ((t + 1) % 64));
    EXPECT_EQ(r.v[t][2], 7 * t);
  }
}

// Every block of the grid runs once with its own ids.
void gridIds(void *ctx, void **params) {
  auto *seen = static_cast<int32_t *>(params[0]);
  if (lin(ctx) != 0)
    return;
  const int64_t x = kda_emu_id(ctx, 3), y = kda_emu_id(ctx, 4),
                z = kda_emu_id(ctx, 5);
  seen[(z * 3 + y) * 2 + x] += 1;
  // Grid and block dims.
  seen[12] = int32_t(kda_emu_id(ctx, 9) * 100 + kda_emu_id(ctx, 10) * 10 +
                     kda_emu_id(ctx, 11));
  seen[13] = int32_t(kda_emu_id(ctx, 6));
}

TEST(EmulatorBarriers, EveryBlockOfTheGridRunsOnce) {
  LaunchConfig c = block(32, 32);
  c.grid[0] = 2, c.grid[1] = 3, c.grid[2] = 2;
  std::vector<int32_t> seen(14, 0);
  ASSERT_EQ(run(gridIds, c, seen.data()), "");
  for (int i = 0; i < 12; ++i)
    EXPECT_EQ(seen[i], 1) << "block " << i;
  EXPECT_EQ(seen[12], 232);
  EXPECT_EQ(seen[13], 32);
}

// Divergent synchronisation: one wave at a barrier, the other at a shuffle;
// then one thread at a barrier the others never reach.
void barrierVersusShuffle(void *ctx, void **) {
  if (lin(ctx) < 32)
    kda_emu_barrier(ctx);
  else
    kda_emu_shuffle_i32(ctx, 0, 1, 32, 0);
}
// Waves run different collectives between two barriers: wave 0 two
// shuffles, wave 1 none (a wave that computes while another stages).
void waveOwnShuffles(void *ctx, void **) {
  if (lin(ctx) < 32) {
    kda_emu_shuffle_i32(ctx, 0, 1, 32, 0);
    kda_emu_shuffle_i32(ctx, 0, 1, 32, 0);
  }
  kda_emu_barrier(ctx);
  kda_emu_shuffle_i32(ctx, 0, 1, 32, 0);
  kda_emu_barrier(ctx);
}
void lonelyBarrier(void *ctx, void **) {
  if (lin(ctx) == 0)
    kda_emu_barrier(ctx);
}
void extraBarrier(void *ctx, void **) {
  kda_emu_barrier(ctx);
  if (lin(ctx) != 5)
    kda_emu_barrier(ctx);
  else
    kda_emu_shuffle_i32(ctx, 0, 1, 64, 0);
}

TEST(EmulatorBarriers, DivergenceIsReported) {
  // Wave 1's shuffle is its own; then it finishes while wave 0 waits at a
  // barrier it never reaches.
  EXPECT_EQ(run(barrierVersusShuffle, block(64, 32)),
            "divergent synchronisation in block (0, 0, 0): thread 0 at "
            "barrier #1, thread 32 at finished");
  EXPECT_EQ(run(lonelyBarrier, block(64)),
            "divergent synchronisation in block (0, 0, 0): thread 0 at "
            "barrier #1, thread 1 at finished");
  EXPECT_EQ(run(extraBarrier, block(64)),
            "divergent synchronisation in block (0, 0, 0): thread 0 at "
            "barrier #2, thread 5 at shuffle #2");
}

// Shuffles and atoms are wave-collective: waves need not run the same
// ones between barriers, only the lanes of one wave.
TEST(EmulatorBarriers, WavesRunTheirOwnCollectives) {
  EXPECT_EQ(run(waveOwnShuffles, block(64, 32)), "");
  EXPECT_EQ(run(waveOwnShuffles, block(128, 32)), "");
}

TEST(EmulatorBarriers, BadConfigurationsAreRefused) {
  EXPECT_EQ(run(lonelyBarrier, block(0)), "block of 0 threads (1..1024)");
  EXPECT_EQ(run(lonelyBarrier, block(1025)), "block of 1025 threads (1..1024)");
  EXPECT_EQ(run(lonelyBarrier, block(64, 16)), "wave size must be 32 or 64");
}

//===----------------------------------------------------------------------===//
// The race detector through its C entry points (byte ranges of LDS).
//===----------------------------------------------------------------------===//

// The array a plain access indexes and the ring a pipeline marker names, for
// the race detector's cases: the whole of a 64 KiB LDS (the bounds checks
// have cases of their own below).
constexpr int64_t kWholeLds = 65536;

// RAW: thread t stores word t, then reads word t - 1 with no barrier.
void storeThenReadNeighbour(void *ctx, void **) {
  const int32_t me = lin(ctx);
  kda_emu_lds_store(ctx, 4 * me, 4, 0, kWholeLds);
  if (me > 0)
    kda_emu_lds_load(ctx, 4 * (me - 1), 4, 0, kWholeLds);
}
// WAW: every thread stores word 0.
void allStoreOneWord(void *ctx, void **) {
  kda_emu_lds_store(ctx, 0, 4, 0, kWholeLds);
}
// Thread t stores word t, barrier, then word t + 1 (its neighbour's word of
// the previous epoch): the barrier orders the two writes, race-free.
void storeBarrierStore(void *ctx, void **) {
  const int32_t me = lin(ctx);
  kda_emu_lds_store(ctx, 4 * me, 4, 0, kWholeLds);
  kda_emu_barrier(ctx);
  kda_emu_lds_store(ctx, 4 * ((me + 1) % 64), 4, 0, kWholeLds);
}

TEST(EmulatorRaceDetector, PlainStoresAndLoads) {
  EXPECT_EQ(run(storeThenReadNeighbour, block(64)),
            "LDS race in block (0, 0, 0): thread 1 reads byte 0 that thread 0 "
            "wrote with no barrier between");
  EXPECT_EQ(run(allStoreOneWord, block(64)),
            "LDS race in block (0, 0, 0): thread 1 the store to byte 0 races "
            "thread 0's write (no barrier between)");
  EXPECT_EQ(run(storeBarrierStore, block(64)), "");
}

// Every thread writes its part of `bytes` at `lo` as iteration `tag` and
// the workgroup passes a drained barrier: the tile the hazard tests then
// read is there (the detector checks each read's tile).
void fill(void *ctx, int64_t lo, int64_t bytes, int64_t tag) {
  kda_emu_lds_write(ctx, lo, bytes, tag, "ring", 0, kWholeLds);
  kda_emu_lds_drain(ctx);
  kda_emu_barrier(ctx);
}

// WAR across a barrier: every thread reads the whole 256-byte tile, then
// thread t overwrites its word after a barrier; drained or not.
template <bool Drain> void readBarrierOverwrite(void *ctx, void **) {
  const int32_t me = lin(ctx);
  fill(ctx, 0, 256, 0);
  kda_emu_lds_read(ctx, 0, 256, /*tag=*/0, "ring", 0, kWholeLds);
  if (Drain)
    kda_emu_lds_drain(ctx);
  kda_emu_barrier(ctx);
  kda_emu_lds_write(ctx, 0, 256, /*tag=*/1, "ring", 0, kWholeLds);
  (void)me;
}

TEST(EmulatorRaceDetector, BareBarrierDoesNotRetirePendingReads) {
  EXPECT_EQ(run(readBarrierOverwrite<false>, block(64)),
            "LDS race in block (0, 0, 0): thread 0 the register-staged copy of "
            "iteration 1 overwrites byte 0 that thread 1 read for iteration 0 "
            "without a drain before the barrier (a bare barrier does not order "
            "pending LDS reads)");
  EXPECT_EQ(run(readBarrierOverwrite<true>, block(64)), "");
}

// Reads retire only on the thread that drained: thread 0 drains, the others
// do not; thread 1's copy chunk overlaps nothing thread 0 alone read.
void onlyThreadZeroDrains(void *ctx, void **) {
  const int32_t me = lin(ctx);
  fill(ctx, 0, 256, 0);
  kda_emu_lds_read(ctx, 0, 256, 0, "ring", 0, kWholeLds);
  if (me == 0)
    kda_emu_lds_drain(ctx);
  kda_emu_barrier(ctx);
  kda_emu_lds_write(ctx, 0, 256, 1, "ring", 0, kWholeLds);
}

TEST(EmulatorRaceDetector, ADrainRetiresOnlyItsOwnThreadsReads) {
  EXPECT_EQ(run(onlyThreadZeroDrains, block(64)),
            "LDS race in block (0, 0, 0): thread 0 the register-staged copy of "
            "iteration 1 overwrites byte 0 that thread 1 read for iteration 0 "
            "without a drain before the barrier (a bare barrier does not order "
            "pending LDS reads)");
}

// A copy by all threads, then every thread reads the tile with no barrier:
// fibers run in order, so thread 0 reads byte 4 before thread 1 writes it,
// and thread 1's part of the copy is the racing access (WAR).
void copyThenReadNoBarrier(void *ctx, void **) {
  fill(ctx, 0, 256, 0);
  kda_emu_lds_write(ctx, 0, 256, 0, "ring", 0, kWholeLds);
  kda_emu_lds_read(ctx, 0, 256, 0, "ring", 0, kWholeLds);
}

TEST(EmulatorRaceDetector, ReadOfAStagedCopyNeedsABarrier) {
  EXPECT_EQ(run(copyThenReadNoBarrier, block(64)),
            "LDS race in block (0, 0, 0): thread 1 the register-staged copy of "
            "iteration 0 overwrites byte 4 that thread 0 read for iteration 0 "
            "with no barrier between");
}

// Async copies: `waitCount` groups may stay outstanding at the wait.
template <int WaitCount> void asyncThenRead(void *ctx, void **) {
  kda_emu_async_copy(ctx, 0, 256, 0, true, "ring", 0, kWholeLds);
  kda_emu_async_copy(ctx, 256, 256, 1, true, "ring", 0, kWholeLds);
  kda_emu_async_wait(ctx, WaitCount);
  kda_emu_barrier(ctx);
  kda_emu_lds_read(ctx, 0, 256, 0, "ring", 0, kWholeLds);
  kda_emu_async_wait(ctx, 0);
  kda_emu_lds_drain(ctx);
  kda_emu_barrier(ctx);
  kda_emu_lds_read(ctx, 256, 256, 1, "ring", 0, kWholeLds);
}

// wait_group 1 with two groups out lands the older one only: iteration 1's
// tile is still in flight.
void readNewerAfterWaitOne(void *ctx, void **) {
  kda_emu_async_copy(ctx, 0, 256, 0, true, "ring", 0, kWholeLds);
  kda_emu_async_copy(ctx, 256, 256, 1, true, "ring", 0, kWholeLds);
  kda_emu_async_wait(ctx, 1);
  kda_emu_lds_drain(ctx);
  kda_emu_barrier(ctx);
  kda_emu_lds_read(ctx, 256, 256, 1, "ring", 0, kWholeLds);
  kda_emu_async_wait(ctx, 0);
}

TEST(EmulatorRaceDetector, WaitCountTooHighLeavesTheCopyInFlight) {
  EXPECT_EQ(run(readNewerAfterWaitOne, block(64)),
            "LDS race in block (0, 0, 0): thread 0 reads byte 256 for "
            "iteration 1 while the async copy of iteration 1 into it has not "
            "landed");
  EXPECT_EQ(run(asyncThenRead<1>, block(64)), "");
  EXPECT_EQ(run(asyncThenRead<2>, block(64)),
            "LDS race in block (0, 0, 0): thread 0 reads byte 0 for iteration "
            "0 while the async copy of iteration 0 into it has not landed");
}

// A copy left in flight at the end of the kernel.
void asyncNeverWaited(void *ctx, void **) {
  kda_emu_async_copy(ctx, 0, 256, 3, true, "ring", 0, kWholeLds);
  kda_emu_async_copy(ctx, 256, 256, 4, true, "ring", 0, kWholeLds);
  kda_emu_async_wait(ctx, 1);
}
// A predicated-off copy commits an empty group that never lands anything.
void disabledCopy(void *ctx, void **) {
  fill(ctx, 0, 256, 6);
  kda_emu_async_copy(ctx, 0, 256, 7, false, "ring", 0, kWholeLds);
  kda_emu_lds_read(ctx, 0, 256, 6, "ring", 0, kWholeLds);
}

TEST(EmulatorRaceDetector, CopiesStillInFlightAtTheEnd) {
  EXPECT_EQ(run(asyncNeverWaited, block(64)),
            "LDS race in block (0, 0, 0): thread 0 ends with the async copy of "
            "iteration 4 into bytes [256, 260) still in flight");
  EXPECT_EQ(run(disabledCopy, block(64)), "");
}

// An async copy counts as a write from its issue: issuing into bytes another
// thread read in this epoch races (WAR), and a store into bytes whose copy
// is in flight races too.
void asyncOverPendingRead(void *ctx, void **) {
  const int32_t me = lin(ctx);
  fill(ctx, 0, 256, 0);
  kda_emu_lds_read(ctx, 0, 256, 0, "ring", 0, kWholeLds);
  kda_emu_lds_drain(ctx);
  kda_emu_barrier(ctx);
  if (me == 63)
    kda_emu_lds_read(ctx, 0, 256, 0, "ring", 0, kWholeLds);
  kda_emu_barrier(ctx); // bare: thread 63's read stays pending
  kda_emu_async_copy(ctx, 0, 256, 2, true, "ring", 0, kWholeLds);
  kda_emu_async_wait(ctx, 0);
  kda_emu_lds_drain(ctx);
  kda_emu_barrier(ctx);
}
void storeIntoCopyInFlight(void *ctx, void **) {
  kda_emu_async_copy(ctx, 0, 256, 5, true, "ring", 0, kWholeLds);
  kda_emu_lds_store(ctx, 4 * lin(ctx), 4, 0, kWholeLds);
  kda_emu_async_wait(ctx, 0);
}

// Thread t reads the word thread t + 1 copies into, in the same barrier
// interval; the reads retire (drained barrier) before the copies land, so
// only the check at the copy's issue can see the race.
void asyncIssueOverSameEpochRead(void *ctx, void **) {
  const int32_t me = lin(ctx);
  fill(ctx, 0, 260, 0);
  kda_emu_lds_read(ctx, 4 * (me + 1), 4, 0, "ring", 0, kWholeLds);
  kda_emu_async_copy(ctx, 0, 256, 1, true, "ring", 0,
                     kWholeLds); // thread t: bytes [4t, 4t + 4)
  kda_emu_lds_drain(ctx);
  kda_emu_barrier(ctx);
  kda_emu_async_wait(ctx, 0);
  kda_emu_lds_drain(ctx);
  kda_emu_barrier(ctx);
}

TEST(EmulatorRaceDetector, AsyncCopyIsAWriteFromItsIssue) {
  EXPECT_EQ(run(asyncIssueOverSameEpochRead, block(64)),
            "LDS race in block (0, 0, 0): thread 1 the async copy of iteration "
            "1 overwrites byte 4 that thread 0 read for iteration 0 with no "
            "barrier between");
  EXPECT_EQ(run(asyncOverPendingRead, block(64)),
            "LDS race in block (0, 0, 0): thread 0 the async copy of iteration "
            "2 overwrites byte 0 that thread 63 read for iteration 0 without a "
            "drain before the barrier (a bare barrier does not order pending "
            "LDS reads)");
  EXPECT_EQ(run(storeIntoCopyInFlight, block(64)),
            "LDS race in block (0, 0, 0): thread 0 the store into bytes [0, 4) "
            "while an async copy of iteration 5 into them is still in flight");
}

// Each block starts with a clean shadow: block x's thread x stores word 0.
void oneWriterPerBlock(void *ctx, void **) {
  if (lin(ctx) == int32_t(kda_emu_id(ctx, 3)))
    kda_emu_lds_store(ctx, 0, 4, 0, kWholeLds);
}

TEST(EmulatorRaceDetector, BlocksDoNotShareShadowState) {
  LaunchConfig c = block(64);
  c.grid[0] = 3;
  EXPECT_EQ(run(oneWriterPerBlock, c), "");
}

// Reads of bytes nothing in the workgroup wrote: a GPU returns what an
// earlier kernel left there (any bits, a NaN's included), which a later
// multiply by zero does not mask. Reported once the block ends without a
// race. Thread 0 writes bytes [0, 2) only, then
// after a barrier every thread reads a 2-byte half of word 0 (`Half`).
template <int Half> void readHalfOfWordZero(void *ctx, void **) {
  if (lin(ctx) == 0)
    kda_emu_lds_store(ctx, 0, 2, 0, kWholeLds);
  kda_emu_barrier(ctx);
  kda_emu_lds_load(ctx, 2 * Half, 2, 0, kWholeLds);
}
// Thread t reads word t + 1, then stores word t: thread 0 reads word 1
// before thread 1 writes it.
void readNeighbourThenStore(void *ctx, void **) {
  const int32_t me = lin(ctx);
  kda_emu_lds_load(ctx, 4 * ((me + 1) % 64), 4, 0, kWholeLds);
  kda_emu_lds_store(ctx, 4 * me, 4, 0, kWholeLds);
}
// A read of a never-written word.
void readNeverWritten(void *ctx, void **) {
  kda_emu_lds_load(ctx, 64 + 4 * lin(ctx), 4, 0, kWholeLds);
}
// An atomic on a word nothing wrote: not reported (an exchange, atomic_rmw
// assign, reads nothing; the emulator does not tell the kinds apart).
void atomicNeverWritten(void *ctx, void **) {
  kda_emu_lds_atomic(ctx, 0, 4, 0, kWholeLds);
}
// A kernel the lowering finds writing LDS where it does not watch: reads
// of bytes nothing (watched) wrote are then not reported.
void unwatchedThenRead(void *ctx, void **) {
  kda_emu_lds_unwatched_writes(ctx);
  kda_emu_barrier(ctx);
  kda_emu_lds_load(ctx, 64 + 4 * lin(ctx), 4, 0, kWholeLds);
}
// A copy row's bytes count as written (bare rows land unwatched).
void copyRowThenRead(void *ctx, void **) {
  if (lin(ctx) == 0)
    kda_emu_copy_row(ctx, 0, 256, 0, kWholeLds, 0, 0, nullptr);
  kda_emu_barrier(ctx);
  kda_emu_lds_load(ctx, 4 * lin(ctx), 4, 0, kWholeLds);
}

/// The report of an access to bytes nothing wrote.
std::string neverWritten(const std::string &access, int byte) {
  return "LDS bytes never written, in block (0, 0, 0): thread 0 " + access +
         " byte " + std::to_string(byte) +
         ", which nothing in the workgroup wrote before (on a GPU it holds "
         "what an earlier kernel left: any bits, NaN's included)";
}

TEST(EmulatorRaceDetector, ReadsOfBytesNothingWrote) {
  EXPECT_EQ(run(readHalfOfWordZero<0>, block(64)), "");
  EXPECT_EQ(run(readHalfOfWordZero<1>, block(64)), neverWritten("reads", 2));
  EXPECT_EQ(run(readNeverWritten, block(64)), neverWritten("reads", 64));
  EXPECT_EQ(run(atomicNeverWritten, block(64)), "");
  EXPECT_EQ(run(unwatchedThenRead, block(64)), "");
  EXPECT_EQ(run(copyRowThenRead, block(64)), "");
  // A read ahead of another thread's write is reported as that race.
  EXPECT_EQ(run(readNeighbourThenStore, block(64)),
            "LDS race in block (0, 0, 0): thread 1 the store overwrites byte 4 "
            "that thread 0 read with no barrier between");
}

TEST(EmulatorRaceDetector, OffWhenRaceCheckIsOff) {
  LaunchConfig c = block(64);
  c.raceCheck = false;
  EXPECT_EQ(run(allStoreOneWord, c), "");
  EXPECT_EQ(run(asyncNeverWaited, c), "");
}

} // namespace

//===----------------------------------------------------------------------===//
// Plain LDS accesses stay inside the array they index
//===----------------------------------------------------------------------===//

// Two 256-byte arrays side by side (bytes [0, 256) and [256, 512)); thread t
// stores word t of the first and then reads word t + 1 of it: thread 63's
// read is the second array's first word.
void readPastFirstArray(void *ctx, void **) {
  const int32_t me = lin(ctx);
  kda_emu_lds_store(ctx, 4 * me, 4, 0, 256);
  kda_emu_barrier(ctx);
  kda_emu_lds_load(ctx, 4 * (me + 1), 4, 0, 256);
}
// Thread 5 writes a 16-byte vector starting 8 bytes before the second
// array's start.
void vectorStoreBeforeSecondArray(void *ctx, void **) {
  if (lin(ctx) == 5)
    kda_emu_lds_store(ctx, 248, 16, 256, 256);
}
// Every access in range, the last word of each array included.
void everyWordOfBothArrays(void *ctx, void **) {
  const int32_t me = lin(ctx);
  kda_emu_lds_store(ctx, 4 * me, 4, 0, 256);
  kda_emu_lds_store(ctx, 256 + 4 * me, 4, 256, 256);
}

/// readPastFirstArray's report, the race detector on or off.
constexpr const char *kPastFirstArray =
    "LDS access out of bounds in block (0, 0, 0): thread 63 reads bytes "
    "[256, 260) of the 256-byte workgroup array at bytes [0, 256)";

TEST(EmulatorLdsBounds, AccessesOutsideTheirArrayFailTheLaunch) {
  EXPECT_EQ(run(readPastFirstArray, block(64)),
            kPastFirstArray);
  EXPECT_EQ(run(vectorStoreBeforeSecondArray, block(64)),
            "LDS access out of bounds in block (0, 0, 0): thread 5 writes "
            "bytes [248, 264) of the 256-byte workgroup array at bytes "
            "[256, 512)");
  EXPECT_EQ(run(everyWordOfBothArrays, block(64)), "");
}

// Without the race detector the bounds are still checked.
TEST(EmulatorLdsBounds, CheckedWithTheRaceDetectorOff) {
  LaunchConfig c = block(64);
  c.raceCheck = false;
  EXPECT_EQ(run(readPastFirstArray, c),
            kPastFirstArray);
}

//===----------------------------------------------------------------------===//
// Pipeline markers stay in their ring, copy rows in their array and slot
//===----------------------------------------------------------------------===//

// A ring of two 256-byte slots at bytes [512, 1024); a staged copy and a
// read of slot 2 (iteration 2 where the ring slot was not taken mod 2).
void copyIntoThirdSlot(void *ctx, void **) {
  kda_emu_lds_write(ctx, 512 + 2 * 256, 256, 2, "ring", 512, 512);
}
void readThirdSlot(void *ctx, void **) {
  kda_emu_lds_read(ctx, 512 + 2 * 256, 256, 2, "ring", 512, 512);
}
// An async copy into slot -1; the same copy with a false predicate writes
// nothing and is not checked.
void asyncCopyBeforeRing(void *ctx, void **) {
  kda_emu_async_copy(ctx, 256, 256, 0, true, "ring", 512, 512);
  kda_emu_async_wait(ctx, 0);
}
void emptyAsyncCopyBeforeRing(void *ctx, void **) {
  kda_emu_async_copy(ctx, 256, 256, 0, false, "ring", 512, 512);
  kda_emu_async_wait(ctx, 0);
}
// Both slots, written and read in turn.
void everySlotOfTheRing(void *ctx, void **) {
  for (int64_t i = 0; i < 2; ++i) {
    kda_emu_lds_write(ctx, 512 + 256 * i, 256, i, "ring", 512, 512);
    kda_emu_lds_drain(ctx);
    kda_emu_barrier(ctx);
    kda_emu_lds_read(ctx, 512 + 256 * i, 256, i, "ring", 512, 512);
  }
}

TEST(EmulatorLdsBounds, MarkersOutsideTheirRingFailTheLaunch) {
  EXPECT_EQ(run(copyIntoThirdSlot, block(64)),
            "LDS access out of bounds in block (0, 0, 0): thread 0 copies "
            "into bytes [1024, 1280) of the 512-byte ring @ring at bytes "
            "[512, 1024)");
  EXPECT_EQ(run(readThirdSlot, block(64)),
            "LDS access out of bounds in block (0, 0, 0): thread 0 reads "
            "bytes [1024, 1280) of the 512-byte ring @ring at bytes "
            "[512, 1024)");
  EXPECT_EQ(run(asyncCopyBeforeRing, block(64)),
            "LDS access out of bounds in block (0, 0, 0): thread 0 copies "
            "into bytes [256, 512) of the 512-byte ring @ring at bytes "
            "[512, 1024)");
  EXPECT_EQ(run(emptyAsyncCopyBeforeRing, block(64)), "");
  EXPECT_EQ(run(everySlotOfTheRing, block(64)), "");
  LaunchConfig off = block(64);
  off.raceCheck = false;
  EXPECT_NE(run(readThirdSlot, off), "") << "checked with the detector off";
}

// Rows of a copy into slot 0 of the ring above (bytes [512, 768)) of a
// 1 KiB array at LDS byte 0: one inside the slot, one that starts inside it
// and runs 16 bytes into the next, one written into slot 1 instead, and one
// outside any pipeline copy that runs past its array.
void rowInsideItsSlot(void *ctx, void **) {
  kda_emu_copy_row(ctx, 512, 256, 0, 1024, 512, 256, "ring");
}
void rowPastItsSlot(void *ctx, void **) {
  kda_emu_copy_row(ctx, 528, 256, 0, 1024, 512, 256, "ring");
}
void rowInTheOtherSlot(void *ctx, void **) {
  kda_emu_copy_row(ctx, 768, 256, 0, 1024, 512, 256, "ring");
}
void rowPastItsArray(void *ctx, void **) {
  kda_emu_copy_row(ctx, 896, 256, 0, 1024, 0, 1024, nullptr);
}

TEST(EmulatorLdsBounds, CopyRowsOutsideTheirSlotOrArrayFailTheLaunch) {
  EXPECT_EQ(run(rowInsideItsSlot, block(64)), "");
  EXPECT_EQ(run(rowPastItsSlot, block(64)),
            "LDS access out of bounds in block (0, 0, 0): thread 0 copies a "
            "row into bytes [528, 784) of the 256-byte slot of @ring at bytes "
            "[512, 768)");
  EXPECT_EQ(run(rowInTheOtherSlot, block(64)),
            "LDS access out of bounds in block (0, 0, 0): thread 0 copies a "
            "row into bytes [768, 1024) of the 256-byte slot of @ring at bytes "
            "[512, 768)");
  EXPECT_EQ(run(rowPastItsArray, block(64)),
            "LDS access out of bounds in block (0, 0, 0): thread 0 copies a "
            "row into bytes [896, 1152) of the 1024-byte workgroup array at "
            "bytes [0, 1024)");
}
