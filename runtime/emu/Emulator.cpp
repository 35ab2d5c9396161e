//===- Emulator.cpp - SIMT emulator for host-compiled kernels -------------===//
//
// Scheduling: round-robin over a workgroup's fibers; each runs to its next
// synchronisation point (barrier or shuffle) and yields. Kernels built by kda
// synchronise uniformly, so after one round every live thread sits at the
// same point; the scheduler checks that and reports divergence.
//
// Shuffles exchange through a per-lane buffer with two halves: a thread
// deposits into half p, yields, and after the round reads its source lane's
// value from half p; its next shuffle uses half 1 - p, so no lane overwrites
// a value another lane has yet to read.
//
//===----------------------------------------------------------------------===//
#include "Emulator.h"

#include <boost/context/fiber.hpp>
#include <boost/context/pooled_fixedsize_stack.hpp>
#include <cstring>
#include <vector>

namespace bctx = boost::context;

namespace kda::emu {
namespace {

enum class SyncKind : uint8_t { None, Barrier, Shuffle };

struct Workgroup;

struct Thread {
  Workgroup *wg = nullptr;
  uint32_t tid[3] = {0, 0, 0};
  uint32_t linear = 0;
  bctx::fiber scheduler; // where to go on yield
  uint64_t syncs = 0;
  SyncKind lastSync = SyncKind::None;
  uint32_t parity = 0;
  bool done = false;
};

struct Workgroup {
  const LaunchConfig *config = nullptr;
  uint32_t block[3] = {0, 0, 0};
  std::vector<Thread> threads;
  std::vector<uint32_t> exchange[2];
  std::string error;
  bool poisoned = false; // after an error: run to completion, no exchange
};

void yield(Thread *t, SyncKind kind) {
  ++t->syncs;
  t->lastSync = kind;
  t->scheduler = std::move(t->scheduler).resume();
}

uint32_t shuffleBits(Thread *t, uint32_t bits, int32_t offset, int32_t width,
                     int32_t mode) {
  Workgroup *wg = t->wg;
  if (wg->poisoned) {
    ++t->syncs;
    return bits;
  }
  const uint32_t wave = wg->config->waveSize;
  const uint32_t lane = t->linear % wave;
  const uint32_t waveBase = t->linear - lane;
  const uint32_t w = width > 0 ? uint32_t(width) : wave;
  const uint32_t segment = lane / w * w, inSeg = lane % w;
  int64_t src;
  switch (mode) {
  case 0: src = int64_t(inSeg ^ uint32_t(offset)); break;
  case 1: src = int64_t(inSeg) - offset; break;
  case 2: src = int64_t(inSeg) + offset; break;
  default: src = offset; break;
  }
  const uint32_t p = t->parity;
  t->parity ^= 1;
  wg->exchange[p][t->linear] = bits;
  yield(t, SyncKind::Shuffle);
  if (src < 0 || src >= int64_t(w))
    return bits;
  uint32_t srcLinear = waveBase + segment + uint32_t(src);
  if (srcLinear >= wg->threads.size())
    return bits;
  return wg->exchange[p][srcLinear];
}

/// After a round: every live thread must be at the same synchronisation
/// point, and threads finish together.
void checkRound(Workgroup &wg) {
  if (wg.poisoned)
    return;
  const Thread *ref = nullptr;
  for (const Thread &t : wg.threads) {
    if (!ref) {
      ref = &t;
      continue;
    }
    if (t.done != ref->done ||
        (!t.done && (t.syncs != ref->syncs || t.lastSync != ref->lastSync))) {
      auto describe = [](const Thread &x) {
        if (x.done)
          return std::string("finished");
        return std::string(x.lastSync == SyncKind::Barrier ? "barrier"
                                                           : "shuffle") +
               " #" + std::to_string(x.syncs);
      };
      wg.error = "divergent synchronisation in block (" +
                 std::to_string(wg.block[0]) + ", " +
                 std::to_string(wg.block[1]) + ", " +
                 std::to_string(wg.block[2]) + "): thread " +
                 std::to_string(ref->linear) + " at " + describe(*ref) +
                 ", thread " + std::to_string(t.linear) + " at " +
                 describe(t);
      wg.poisoned = true;
      return;
    }
  }
}

} // namespace

std::string launch(PackedEntry entry, const LaunchConfig &config,
                   void **params) {
  const uint64_t threads =
      uint64_t(config.block[0]) * config.block[1] * config.block[2];
  if (threads == 0 || threads > 1024)
    return "block of " + std::to_string(threads) + " threads (1..1024)";
  if (config.waveSize != 32 && config.waveSize != 64)
    return "wave size must be 32 or 64";
  bctx::pooled_fixedsize_stack stacks(256 * 1024);
  Workgroup wg;
  wg.config = &config;
  wg.threads.resize(threads);
  wg.exchange[0].assign(threads, 0);
  wg.exchange[1].assign(threads, 0);
  std::vector<bctx::fiber> fibers(threads);

  for (uint32_t bz = 0; bz < config.grid[2]; ++bz)
    for (uint32_t by = 0; by < config.grid[1]; ++by)
      for (uint32_t bx = 0; bx < config.grid[0]; ++bx) {
        wg.block[0] = bx, wg.block[1] = by, wg.block[2] = bz;
        for (uint64_t i = 0; i < threads; ++i) {
          Thread &t = wg.threads[i];
          t = Thread();
          t.wg = &wg;
          t.linear = uint32_t(i);
          t.tid[0] = uint32_t(i % config.block[0]);
          t.tid[1] = uint32_t(i / config.block[0] % config.block[1]);
          t.tid[2] = uint32_t(i / (uint64_t(config.block[0]) * config.block[1]));
          fibers[i] = bctx::fiber(
              std::allocator_arg, stacks,
              [&t, entry, params](bctx::fiber &&sched) {
                t.scheduler = std::move(sched);
                entry(&t, params);
                t.done = true;
                return std::move(t.scheduler);
              });
        }
        bool live = true;
        while (live) {
          live = false;
          for (uint64_t i = 0; i < threads; ++i)
            if (fibers[i]) {
              fibers[i] = std::move(fibers[i]).resume();
              live = live || bool(fibers[i]);
            }
          checkRound(wg);
        }
        if (!wg.error.empty())
          return wg.error;
      }
  return "";
}

} // namespace kda::emu

using kda::emu::Thread;

extern "C" int64_t kda_emu_id(void *ctx, int32_t which) {
  auto *t = static_cast<Thread *>(ctx);
  const kda::emu::LaunchConfig &c = *t->wg->config;
  switch (which) {
  case 0: case 1: case 2: return t->tid[which];
  case 3: case 4: case 5: return t->wg->block[which - 3];
  case 6: case 7: case 8: return c.block[which - 6];
  case 9: case 10: case 11: return c.grid[which - 9];
  case 12: return t->linear % c.waveSize;
  case 13: return t->linear / c.waveSize;
  case 14: return c.waveSize;
  default: return 0;
  }
}

extern "C" void kda_emu_barrier(void *ctx) {
  auto *t = static_cast<Thread *>(ctx);
  if (t->wg->poisoned) {
    ++t->syncs;
    return;
  }
  kda::emu::yield(t, kda::emu::SyncKind::Barrier);
}

extern "C" float kda_emu_shuffle_f32(void *ctx, float value, int32_t offset,
                                     int32_t width, int32_t mode) {
  uint32_t bits;
  std::memcpy(&bits, &value, 4);
  bits = kda::emu::shuffleBits(static_cast<Thread *>(ctx), bits, offset, width,
                               mode);
  float out;
  std::memcpy(&out, &bits, 4);
  return out;
}

extern "C" int32_t kda_emu_shuffle_i32(void *ctx, int32_t value, int32_t offset,
                                       int32_t width, int32_t mode) {
  return int32_t(kda::emu::shuffleBits(static_cast<Thread *>(ctx),
                                       uint32_t(value), offset, width, mode));
}
