//===- Emulator.cpp - SIMT emulator for host-compiled kernels -------------===//
//
// Scheduling: round-robin over a workgroup's fibers; each runs to its next
// synchronisation point (barrier or shuffle) and yields. Kernels built by kda
// synchronise uniformly, so after one round every live thread sits at the
// same point; the scheduler checks that and reports divergence.
//
// The race detector keeps, per 4-byte LDS word, the last writer, its
// barrier epoch and the tile it wrote (buffer and iteration, checked against
// the tile each pipeline read names), the reads not yet retired (a read retires when its thread
// drained, lgkmcnt(0), before a later barrier: a bare barrier does not), and
// async copies in flight (they land at the covering wait, as a write then).
//
// Shuffles exchange through a per-lane buffer with two halves: a thread
// deposits into half p, yields, and after the round reads its source lane's
// value from half p; its next shuffle uses half 1 - p, so no lane overwrites
// a value another lane has yet to read.
//
//===----------------------------------------------------------------------===//
#include "Emulator.h"

#include <algorithm>
#include <boost/context/fiber.hpp>
#include <boost/context/stack_context.hpp>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <optional>
#include <sys/mman.h>
#include <unistd.h>
#include <unordered_map>
#include <vector>

namespace bctx = boost::context;

namespace kda::emu {
namespace {

enum class SyncKind : uint8_t { None, Barrier, Shuffle };

struct Workgroup;
struct TileExtras; // matrix atoms and dynamic LDS: the block at the end

struct ReadRecord {
  uint32_t thread;
  uint64_t epoch, seq;
  int64_t tag;
};

struct ShadowWord {
  int32_t writer = -1;
  uint64_t writeEpoch = 0;
  int64_t writeTag = 0;
  const char *writeBuffer = nullptr; // null: a plain store
  // The write is an atomic read-modify-write; atomics of one epoch do not
  // race one another, only the plain accesses beside them. `atomicWriters`
  // counts the threads whose atomics wrote the word this epoch (beyond
  // `writer`, the last).
  bool writeAtomic = false;
  int32_t atomicWriters = 0;
  int32_t inFlight = 0; // async copies not yet landed
  int64_t inFlightTag = 0;
  /// The word's bytes (bit b: byte b) that a store, atomic or landed copy
  /// of this workgroup wrote: a read of any other byte reads what an
  /// earlier kernel left there on a GPU (possibly a NaN's bits).
  uint8_t written = 0;
  std::vector<ReadRecord> readers;
};

/// Bits of the bytes of [lo, hi) inside word `w` (bit b: byte 4w + b).
uint8_t bytesOfWord(int64_t w, int64_t lo, int64_t hi) {
  const int64_t a = std::max(lo, 4 * w), b = std::min(hi, 4 * w + 4);
  return b <= a ? 0 : uint8_t(((1u << (b - a)) - 1) << (a - 4 * w));
}

/// Bytes an async copy atom moves, read from the source at issue and
/// written to LDS when the copy lands (cp.async at its group's wait,
/// global_load_lds at the vmcnt wait that counts past its instruction).
struct PendingCopy {
  uint8_t *dst;
  uint8_t data[16];
  size_t bytes;
  void land() const { std::memcpy(dst, data, bytes); }
};

struct AsyncGroup {
  int64_t lo, hi, tag;
  bool empty; // nothing for the race detector to track
  const char *buffer;
  std::vector<PendingCopy> copies;
};

struct Thread {
  Workgroup *wg = nullptr;
  // Race detector: LDS op sequence, drained / retired marks, barrier epoch,
  // this thread's async copy groups in issue order.
  uint64_t seq = 0, drainedSeq = 0, retiredSeq = 0, epoch = 0;
  std::vector<AsyncGroup> groups;
  size_t landed = 0;
  std::vector<PendingCopy> open;  // cp.async pieces since the last commit
  std::vector<PendingCopy> vmem;  // global_load_lds instructions in flight
  size_t vmemLanded = 0;
  uint64_t vmemIssued = 0;        // instructions issued, for the base check
  uint32_t tid[3] = {0, 0, 0};
  uint32_t linear = 0;
  bctx::fiber scheduler; // where to go on yield
  uint64_t syncs = 0, barriers = 0;
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
  std::vector<ShadowWord> shadow;
  std::string race; // the first LDS race of the workgroup
  /// The first access to LDS bytes nothing in the workgroup wrote: reported
  /// after the block when it had no race (a read ahead of another thread's
  /// write is first of all that race, which the write then reports).
  std::string unwritten;
  /// The kernel writes LDS where the emulator does not watch
  /// (kda_emu_lds_unwatched_writes): `unwritten` is not reported.
  bool unwatchedWrites = false;
  /// global_load_lds: the LDS base each wave's n-th instruction uses (the
  /// hardware takes it from M0, one per wave): (wave << 32 | n) -> base.
  std::unordered_map<uint64_t, int64_t> waveBases;
  std::shared_ptr<TileExtras> tile; // created by the first atom that needs it
};

std::string blockName(const Workgroup &wg) {
  return "block (" + std::to_string(wg.block[0]) + ", " +
         std::to_string(wg.block[1]) + ", " + std::to_string(wg.block[2]) +
         ")";
}

void reportUnwritten(Thread *t, int64_t byte, const std::string &what) {
  Workgroup &wg = *t->wg;
  if (wg.unwritten.empty())
    wg.unwritten = "LDS bytes never written, in " + blockName(wg) +
                   ": thread " + std::to_string(t->linear) + " " + what +
                   " byte " + std::to_string(byte) +
                   ", which nothing in the workgroup wrote before (on a GPU "
                   "it holds what an earlier kernel left: any bits, NaN's "
                   "included)";
}

void reportRace(Thread *t, const std::string &what) {
  Workgroup &wg = *t->wg;
  if (wg.race.empty())
    wg.race = "LDS race in " + blockName(wg) + ": thread " +
              std::to_string(t->linear) + " " + what;
}

ShadowWord &word(Workgroup &wg, int64_t w) {
  if (size_t(w) >= wg.shadow.size())
    wg.shadow.resize(size_t(w) + 1024);
  return wg.shadow[size_t(w)];
}

/// Bytes [lo, hi) count as written (no race record).
void markWritten(Workgroup &wg, int64_t lo, int64_t hi) {
  for (int64_t w = lo / 4; w < (hi + 3) / 4; ++w)
    word(wg, w).written |= bytesOfWord(w, lo, hi);
}

/// This thread's chunk of a copy of [lo, lo + bytes), word aligned.
std::pair<int64_t, int64_t> chunkOf(Thread *t, int64_t lo, int64_t bytes) {
  const int64_t n = int64_t(t->wg->threads.size());
  int64_t chunk = ((bytes + n - 1) / n + 3) / 4 * 4;
  int64_t a = std::min(lo + int64_t(t->linear) * chunk, lo + bytes);
  return {a, std::min(a + chunk, lo + bytes)};
}

/// " of iteration N" for pipeline atoms; plain loads and stores have no
/// iteration (tag < 0).
std::string iterationText(int64_t tag) {
  return tag < 0 ? "" : " of iteration " + std::to_string(tag);
}

std::string bytesText(int64_t lo, int64_t hi) {
  return "[" + std::to_string(lo) + ", " + std::to_string(hi) + ")";
}

/// Whether another thread wrote word `s` in `t`'s barrier epoch: its last
/// writer, or one of several threads' atomics.
bool writtenByAnother(const ShadowWord &s, const Thread *t) {
  return s.writer >= 0 && s.writeEpoch == t->epoch &&
         (uint32_t(s.writer) != t->linear || s.atomicWriters > 1);
}

/// Checks and records a write (a store, or an async copy landing or being
/// issued - `record` false: check only; `atomic`: an atomic read-modify-
/// write, which races plain accesses of other threads but not their
/// atomics).
void shadowWrite(Thread *t, int64_t lo, int64_t hi, int64_t tag,
                 const char *kind, bool record, const char *buffer = nullptr,
                 bool atomic = false) {
  Workgroup &wg = *t->wg;
  for (int64_t w = lo / 4; w < (hi + 3) / 4; ++w) {
    ShadowWord &s = word(wg, w);
    // A plain write to a word several threads' atomics wrote this epoch
    // races at least one of them.
    if (!atomic && s.writeAtomic && writtenByAnother(s, t) &&
        uint32_t(s.writer) == t->linear)
      return reportRace(t, std::string(kind) + iterationText(tag) +
                               " to byte " + std::to_string(w * 4) +
                               " races another thread's atomic (no barrier "
                               "between)");
    if (s.inFlight > 0)
      return reportRace(t, std::string(kind) + iterationText(tag) +
                               " into bytes " + bytesText(lo, hi) +
                               " while an async copy of iteration " +
                               std::to_string(s.inFlightTag) +
                               " into them is still in flight");
    if (s.writer >= 0 && uint32_t(s.writer) != t->linear &&
        s.writeEpoch == t->epoch && !(atomic && s.writeAtomic))
      return reportRace(t, std::string(kind) + iterationText(tag) +
                               " to byte " + std::to_string(w * 4) +
                               " races thread " + std::to_string(s.writer) +
                               (s.writeAtomic ? "'s atomic" : "'s write") +
                               iterationText(s.writeTag) +
                               " (no barrier between)");
    for (const ReadRecord &r : s.readers) {
      if (r.thread == t->linear)
        continue;
      const Thread &reader = wg.threads[r.thread];
      if (r.epoch == t->epoch || r.seq > reader.retiredSeq)
        return reportRace(
            t, std::string(kind) + iterationText(tag) + " overwrites byte " +
                   std::to_string(w * 4) + " that thread " +
                   std::to_string(r.thread) + " read" +
                   (r.tag < 0 ? std::string()
                              : " for iteration " + std::to_string(r.tag)) +
                   (r.epoch == t->epoch
                        ? " with no barrier between"
                        : " without a drain before the barrier (a bare "
                          "barrier does not order pending LDS reads)"));
    }
    if (record) {
      // Atomics of other threads this epoch stay counted: a plain access
      // after them races one of them whichever thread wrote last.
      const bool joins =
          atomic && s.writeAtomic && s.writer >= 0 && s.writeEpoch == t->epoch;
      s.atomicWriters =
          !atomic ? 0
          : joins ? s.atomicWriters + (uint32_t(s.writer) != t->linear)
                  : 1;
      s.writer = int32_t(t->linear);
      s.writeEpoch = t->epoch;
      s.writeTag = tag;
      s.writeBuffer = buffer;
      s.writeAtomic = atomic;
      s.written |= bytesOfWord(w, lo, hi);
      s.readers.clear();
    }
  }
}

void landGroups(Thread *t, size_t upTo) {
  for (; t->landed < upTo; ++t->landed) {
    const AsyncGroup &g = t->groups[t->landed];
    for (const PendingCopy &c : g.copies)
      c.land();
    if (g.empty)
      continue;
    for (int64_t w = g.lo / 4; w < (g.hi + 3) / 4; ++w)
      --word(*t->wg, w).inFlight;
    shadowWrite(t, g.lo, g.hi, g.tag, "the async copy", /*record=*/true,
                g.buffer);
  }
}

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

std::string describeSync(const Thread &x) {
  if (x.done)
    return "finished";
  if (x.lastSync == SyncKind::Barrier)
    return "barrier #" + std::to_string(x.barriers);
  return "shuffle #" + std::to_string(x.syncs);
}

void divergent(Workgroup &wg, const Thread &a, const Thread &b) {
  wg.error = "divergent synchronisation in " + blockName(wg) + ": thread " +
             std::to_string(a.linear) + " at " + describeSync(a) + ", thread " +
             std::to_string(b.linear) + " at " + describeSync(b);
  wg.poisoned = true;
}

/// After a round of wave `w`'s lanes: wave collectives (shuffles, atoms)
/// are the wave's alone, so its live lanes must be at the same one, or all
/// at a barrier, or all finished. Other waves may run other collectives
/// meanwhile (a wave that computes while another stages rows).
void checkWaveRound(Workgroup &wg, uint32_t first, uint32_t end) {
  if (wg.poisoned)
    return;
  const Thread &ref = wg.threads[first];
  for (uint32_t i = first + 1; i < end; ++i) {
    const Thread &t = wg.threads[i];
    if (t.done != ref.done ||
        (!t.done && (t.syncs != ref.syncs || t.lastSync != ref.lastSync)))
      return divergent(wg, ref, t);
  }
}

/// Once every wave waits at a barrier or has finished: all threads must be
/// at the same barrier, or all finished.
void checkBarrierRound(Workgroup &wg) {
  if (wg.poisoned)
    return;
  const Thread &ref = wg.threads.front();
  for (const Thread &t : wg.threads)
    if (t.done != ref.done || (!t.done && t.barriers != ref.barriers))
      return divergent(wg, ref, t);
}

/// The emulated threads' fiber stacks: each kStackBytes with an
/// inaccessible page below it, so that a kernel whose frame outgrows its
/// stack faults at once instead of writing over the next thread's stack
/// (a head_k 256 scan's frame on emu32 is 265 KB: the frames hold every
/// per-thread array of the kernel). Kept for reuse across a launch's
/// workgroups; pages are committed only as frames touch them. Not Boost's
/// protected_fixedsize_stack: it maps and unmaps a stack per fiber, so
/// every workgroup would fault a large frame's pages in afresh.
class GuardedStacks {
public:
  static constexpr std::size_t kStackBytes = 1 << 20;

  GuardedStacks() : page_(std::size_t(sysconf(_SC_PAGESIZE))) {}
  GuardedStacks(const GuardedStacks &) = delete;
  GuardedStacks &operator=(const GuardedStacks &) = delete;
  ~GuardedStacks() {
    for (void *base : free_)
      munmap(base, page_ + kStackBytes);
  }

  bctx::stack_context allocate() {
    void *base;
    if (!free_.empty()) {
      base = free_.back();
      free_.pop_back();
    } else {
      base = mmap(nullptr, page_ + kStackBytes, PROT_READ | PROT_WRITE,
                  MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
      if (base == MAP_FAILED)
        throw std::bad_alloc();
      // Stacks grow down: the guard is the lowest page.
      if (mprotect(base, page_, PROT_NONE) != 0) {
        munmap(base, page_ + kStackBytes);
        throw std::bad_alloc();
      }
    }
    bctx::stack_context sc;
    sc.size = kStackBytes;
    sc.sp = static_cast<char *>(base) + page_ + kStackBytes;
    return sc;
  }

  void deallocate(bctx::stack_context &sc) noexcept {
    free_.push_back(static_cast<char *>(sc.sp) - kStackBytes - page_);
  }

  /// What a fiber holds (Boost copies its stack allocator into the fiber):
  /// a handle on the pool, which outlives every fiber of the launch.
  struct Handle {
    GuardedStacks *pool;
    bctx::stack_context allocate() { return pool->allocate(); }
    void deallocate(bctx::stack_context &sc) noexcept { pool->deallocate(sc); }
  };

private:
  std::size_t page_;
  std::vector<void *> free_;
};

} // namespace

std::string launch(PackedEntry entry, const LaunchConfig &config,
                   void **params) {
  const uint64_t threads =
      uint64_t(config.block[0]) * config.block[1] * config.block[2];
  if (threads == 0 || threads > 1024)
    return "block of " + std::to_string(threads) + " threads (1..1024)";
  if (config.waveSize != 32 && config.waveSize != 64)
    return "wave size must be 32 or 64";
  GuardedStacks stacks; // before the fibers: it outlives them
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
        wg.shadow.clear();
        wg.race.clear();
        wg.unwritten.clear();
        wg.unwatchedWrites = false;
        wg.waveBases.clear();
        // Matrix-atom tiles are cached per wave by the lanes' sync count;
        // a block's counts restart at 0, so the previous block's cache
        // would pass for this one's (and its dynamic LDS is not this
        // block's either).
        wg.tile.reset();
        for (uint64_t i = 0; i < threads; ++i) {
          Thread &t = wg.threads[i];
          t = Thread();
          t.wg = &wg;
          t.linear = uint32_t(i);
          t.tid[0] = uint32_t(i % config.block[0]);
          t.tid[1] = uint32_t(i / config.block[0] % config.block[1]);
          t.tid[2] = uint32_t(i / (uint64_t(config.block[0]) * config.block[1]));
          fibers[i] =
              bctx::fiber(std::allocator_arg, GuardedStacks::Handle{&stacks},
                          [&t, entry, params](bctx::fiber &&sched) {
                            t.scheduler = std::move(sched);
                            entry(&t, params);
                            t.done = true;
                            return std::move(t.scheduler);
                          });
        }
        // Each wave runs in lockstep from one barrier to the next (its
        // lanes meet at every shuffle and atom); then the workgroup meets
        // at the barrier.
        const uint32_t wave = config.waveSize;
        bool live = true;
        while (live) {
          for (uint32_t first = 0; first < threads; first += wave) {
            const uint32_t end = std::min<uint32_t>(first + wave, threads);
            for (bool running = true; running;) {
              running = false;
              for (uint32_t i = first; i < end; ++i)
                if (fibers[i] && wg.threads[i].lastSync != SyncKind::Barrier) {
                  fibers[i] = std::move(fibers[i]).resume();
                  running =
                      running || (bool(fibers[i]) &&
                                  wg.threads[i].lastSync != SyncKind::Barrier);
                }
              checkWaveRound(wg, first, end);
            }
          }
          checkBarrierRound(wg);
          live = false;
          for (uint64_t i = 0; i < threads; ++i) {
            if (wg.threads[i].lastSync == SyncKind::Barrier)
              wg.threads[i].lastSync = SyncKind::None; // released
            live = live || bool(fibers[i]);
          }
        }
        if (!wg.error.empty())
          return wg.error;
        if (config.raceCheck)
          for (Thread &t : wg.threads)
            for (size_t g = t.landed; g < t.groups.size(); ++g)
              if (!t.groups[g].empty) {
                reportRace(&t, "ends with the async copy of iteration " +
                                   std::to_string(t.groups[g].tag) +
                                   " into bytes " +
                                   bytesText(t.groups[g].lo, t.groups[g].hi) +
                                   " still in flight");
                break;
              }
        if (!wg.race.empty())
          return wg.race;
        if (!wg.unwritten.empty() && !wg.unwatchedWrites)
          return wg.unwritten;
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
  t->retiredSeq = t->drainedSeq; // reads drained before arriving retire
  if (t->wg->poisoned) {
    ++t->syncs;
    ++t->barriers;
    ++t->epoch;
    return;
  }
  ++t->barriers;
  kda::emu::yield(t, kda::emu::SyncKind::Barrier);
  ++t->epoch;
}

static bool raceChecking(Thread *t) { return t->wg->config->raceCheck; }

/// Whether [lo, lo + bytes) lies in [arrayLo, arrayLo + arrayBytes), the
/// region the access may touch (`region`: "workgroup array", "ring @b",
/// "slot of @b"); if not, the launch fails naming both. Always on (not only
/// with the race detector): on a GPU such an access silently reads or
/// overwrites the LDS next to it, and on the emulator a module global.
namespace kda::emu {
/// A watched LDS write of bytes [lo, lo + bytes) (offsets in the dynamic
/// region: a warpgroup atom reads B only there) against the warpgroup
/// atoms in flight: an error when it meets B bytes of a flight whose
/// covering wait the writing lane has not passed (a lane of another wave:
/// any lane of the flight's wave).
void wgmmaStoreCheck(Thread *t, int64_t lo, int64_t bytes);
} // namespace kda::emu

static bool inArray(Thread *t, const char *verb, int64_t lo, int64_t bytes,
                    int64_t arrayLo, int64_t arrayBytes,
                    const std::string &region = "workgroup array") {
  if (lo >= arrayLo && lo + bytes <= arrayLo + arrayBytes)
    return true;
  kda::emu::Workgroup &wg = *t->wg;
  if (wg.error.empty())
    wg.error = "LDS access out of bounds in " + kda::emu::blockName(wg) +
               ": thread " + std::to_string(t->linear) + " " + verb +
               " bytes " + kda::emu::bytesText(lo, lo + bytes) + " of the " +
               std::to_string(arrayBytes) + "-byte " + region + " at bytes " +
               kda::emu::bytesText(arrayLo, arrayLo + arrayBytes);
  return false;
}

/// A pipeline marker's slot lies in its buffer's ring.
static bool inRing(Thread *t, const char *verb, int64_t lo, int64_t bytes,
                   const char *buffer, int64_t ringLo, int64_t ringBytes) {
  return inArray(t, verb, lo, bytes, ringLo, ringBytes,
                 std::string("ring @") + buffer);
}

extern "C" void kda_emu_lds_write(void *ctx, int64_t lo, int64_t bytes,
                                  int64_t tag, const char *buffer,
                                  int64_t ringLo, int64_t ringBytes) {
  auto *t = static_cast<Thread *>(ctx);
  ++t->seq;
  if (!inRing(t, "copies into", lo, bytes, buffer, ringLo, ringBytes) ||
      !raceChecking(t))
    return;
  auto [a, b] = kda::emu::chunkOf(t, lo, bytes);
  kda::emu::shadowWrite(t, a, b, tag, "the register-staged copy", true, buffer);
}

/// A pipeline read names its tile: every word must hold that buffer's tile
/// of that iteration. "" when it does, else what the word holds instead.
static std::string wrongTile(const kda::emu::ShadowWord &s, int64_t w,
                             int64_t tag, const char *buffer) {
  const std::string at = "byte " + std::to_string(w * 4);
  const std::string mine = std::string("@") + buffer;
  if (s.writer < 0)
    return "reads " + at + " of " + mine + " for iteration " +
           std::to_string(tag) + ", which nothing has written";
  if (!s.writeBuffer)
    return "reads " + at + " of " + mine + " for iteration " +
           std::to_string(tag) + ", but thread " + std::to_string(s.writer) +
           "'s plain store overwrote it: the wrong tile";
  if (std::strcmp(s.writeBuffer, buffer) != 0)
    return "reads " + at + " of " + mine + " for iteration " +
           std::to_string(tag) + ", but @" + s.writeBuffer +
           "'s copy of iteration " + std::to_string(s.writeTag) +
           " (thread " + std::to_string(s.writer) +
           ") overwrote it: " + mine + " and @" + s.writeBuffer +
           " share LDS bytes while both are live";
  if (s.writeTag != tag)
    return "reads " + at + " of " + mine + " for iteration " +
           std::to_string(tag) + ", but it holds the tile of iteration " +
           std::to_string(s.writeTag) + " (written by thread " +
           std::to_string(s.writer) + "): the wrong tile";
  return "";
}

/// Checks and records a read of [lo, hi) by `t`.
static void shadowRead(kda::emu::Thread *t, int64_t lo, int64_t hi,
                       int64_t tag, const char *buffer = nullptr) {
  kda::emu::Workgroup &wg = *t->wg;
  const std::string what =
      tag < 0 ? std::string() : " for iteration " + std::to_string(tag);
  for (int64_t w = lo / 4; w < (hi + 3) / 4; ++w) {
    kda::emu::ShadowWord &s = kda::emu::word(wg, w);
    if (s.inFlight > 0)
      return kda::emu::reportRace(
          t, "reads byte " + std::to_string(w * 4) + what +
                 " while the async copy of iteration " +
                 std::to_string(s.inFlightTag) + " into it has not landed");
    if (kda::emu::writtenByAnother(s, t))
      return kda::emu::reportRace(
          t, "reads byte " + std::to_string(w * 4) + what + " that " +
                 (uint32_t(s.writer) != t->linear
                      ? "thread " + std::to_string(s.writer)
                      : std::string("another thread")) +
                 (s.writeAtomic ? " wrote by an atomic" : " wrote") +
                 " with no barrier between");
    if (buffer) {
      if (std::string wrong = wrongTile(s, w, tag, buffer); !wrong.empty())
        return kda::emu::reportRace(t, wrong);
    } else if (uint8_t unwritten =
                   kda::emu::bytesOfWord(w, lo, hi) & ~s.written) {
      // A ring's read names a never-written slot in wrongTile.
      kda::emu::reportUnwritten(t, w * 4 + __builtin_ctz(unwritten), "reads");
    }
    // Keep only reads that can still race.
    auto &rs = s.readers;
    rs.erase(std::remove_if(rs.begin(), rs.end(),
                            [&](const kda::emu::ReadRecord &r) {
                              return r.thread == t->linear ||
                                     (r.epoch < t->epoch &&
                                      r.seq <= wg.threads[r.thread].retiredSeq);
                            }),
             rs.end());
    rs.push_back({t->linear, t->epoch, t->seq, tag});
  }
}

extern "C" void kda_emu_lds_read(void *ctx, int64_t lo, int64_t bytes,
                                 int64_t tag, const char *buffer,
                                 int64_t ringLo, int64_t ringBytes) {
  auto *t = static_cast<Thread *>(ctx);
  ++t->seq;
  if (inRing(t, "reads", lo, bytes, buffer, ringLo, ringBytes) &&
      raceChecking(t))
    shadowRead(t, lo, lo + bytes, tag, buffer);
}

extern "C" void kda_emu_lds_load(void *ctx, int64_t lo, int64_t bytes,
                                 int64_t arrayLo, int64_t arrayBytes) {
  auto *t = static_cast<Thread *>(ctx);
  ++t->seq;
  if (inArray(t, "reads", lo, bytes, arrayLo, arrayBytes) && raceChecking(t))
    shadowRead(t, lo, lo + bytes, /*tag=*/-1);
}

extern "C" void kda_emu_lds_store(void *ctx, int64_t lo, int64_t bytes,
                                  int64_t arrayLo, int64_t arrayBytes) {
  auto *t = static_cast<Thread *>(ctx);
  ++t->seq;
  kda::emu::wgmmaStoreCheck(t, lo, bytes);
  if (inArray(t, "writes", lo, bytes, arrayLo, arrayBytes) && raceChecking(t))
    kda::emu::shadowWrite(t, lo, lo + bytes, /*tag=*/-1, "the store", true);
}

extern "C" void kda_emu_lds_atomic(void *ctx, int64_t lo, int64_t bytes,
                                   int64_t arrayLo, int64_t arrayBytes) {
  auto *t = static_cast<Thread *>(ctx);
  ++t->seq;
  kda::emu::wgmmaStoreCheck(t, lo, bytes);
  if (inArray(t, "updates", lo, bytes, arrayLo, arrayBytes) && raceChecking(t))
    kda::emu::shadowWrite(t, lo, lo + bytes, /*tag=*/-1, "the atomic", true,
                          nullptr, /*atomic=*/true);
}

extern "C" void kda_emu_copy_row(void *ctx, int64_t lo, int64_t bytes,
                                 int64_t arrayLo, int64_t arrayBytes,
                                 int64_t slotLo, int64_t slotBytes,
                                 const char *buffer) {
  auto *t = static_cast<Thread *>(ctx);
  if (!inArray(t, "copies a row into", lo, bytes, arrayLo, arrayBytes))
    return;
  if (buffer)
    inArray(t, "copies a row into", lo, bytes, slotLo, slotBytes,
            std::string("slot of @") + buffer);
  // The row's bytes are written (a row outside a pipeline copy lands
  // unwatched by the race detector; inside one, its copy is watched too).
  if (raceChecking(t))
    kda::emu::markWritten(*t->wg, lo, lo + bytes);
}

extern "C" void kda_emu_lds_unwatched_writes(void *ctx) {
  static_cast<Thread *>(ctx)->wg->unwatchedWrites = true;
}

extern "C" void kda_emu_async_copy(void *ctx, int64_t lo, int64_t bytes,
                                   int64_t tag, bool enabled,
                                   const char *buffer, int64_t ringLo,
                                   int64_t ringBytes) {
  auto *t = static_cast<Thread *>(ctx);
  ++t->seq;
  // An empty group (false predicate) writes nothing: its slot is not checked.
  const bool inside = !enabled || inRing(t, "copies into", lo, bytes, buffer,
                                         ringLo, ringBytes);
  auto [a, b] = kda::emu::chunkOf(t, lo, bytes);
  if (raceChecking(t) && enabled && inside) {
    // An async copy counts as a write from its issue (WAR).
    kda::emu::shadowWrite(t, a, b, tag, "the async copy", /*record=*/false);
    for (int64_t w = a / 4; w < (b + 3) / 4; ++w) {
      kda::emu::ShadowWord &s = kda::emu::word(*t->wg, w);
      ++s.inFlight;
      s.inFlightTag = tag;
    }
  }
  t->groups.push_back({a, b, tag, !enabled || !inside || !raceChecking(t),
                       buffer, std::move(t->open)});
  t->open.clear();
}

extern "C" void kda_emu_async_wait(void *ctx, int64_t outstanding) {
  auto *t = static_cast<Thread *>(ctx);
  ++t->seq;
  size_t n = t->groups.size();
  size_t keep = size_t(std::max<int64_t>(0, outstanding));
  if (n > keep)
    kda::emu::landGroups(t, n - keep);
}

extern "C" void kda_emu_lds_drain(void *ctx) {
  auto *t = static_cast<Thread *>(ctx);
  t->drainedSeq = ++t->seq;
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

// The copy atoms of the chips the emulator stands for, with their data
// semantics (the race detector's view of them is kda_emu_async_copy/_wait).
// Once the launch has failed (a row outside its array or slot:
// kda_emu_copy_row) their pieces land nowhere: the report stands and the
// emulator's own memory stays intact.

/// The bytes a piece issued now writes when it lands.
static size_t landingBytes(const Thread *t, int64_t bytes) {
  return t->wg->error.empty() ? size_t(bytes) : 0;
}

extern "C" void kda_emu_cp_async(void *ctx, int64_t dst, int64_t src,
                                 int64_t bytes) {
  auto *t = static_cast<Thread *>(ctx);
  kda::emu::PendingCopy c{
      reinterpret_cast<uint8_t *>(dst), {}, landingBytes(t, bytes)};
  std::memcpy(c.data, reinterpret_cast<const void *>(src), c.bytes);
  t->open.push_back(c);
}

// kda.copy_piece atom(cp_async): the piece - 16 zero bytes where it is not
// valid (src-size 0: nothing read) - joins the thread's open pieces and
// lands at its kda.copy_fence. Its bounds and races are checked at issue
// (the kda_emu_lds_store the lowering puts before it).
extern "C" void kda_emu_cp_async_piece(void *ctx, int64_t dst, int64_t src,
                                       int64_t valid) {
  auto *t = static_cast<Thread *>(ctx);
  kda::emu::PendingCopy c{
      reinterpret_cast<uint8_t *>(dst), {}, landingBytes(t, 16)};
  if (valid)
    std::memcpy(c.data, reinterpret_cast<const void *>(src), c.bytes);
  t->open.push_back(c);
}

// kda.copy_fence: the thread's open pieces, one group, landed.
extern "C" void kda_emu_copy_fence(void *ctx) {
  auto *t = static_cast<Thread *>(ctx);
  ++t->seq;
  t->groups.push_back({0, 0, -1, /*empty=*/true, nullptr, std::move(t->open)});
  t->open.clear();
  kda::emu::landGroups(t, t->groups.size());
}

extern "C" void kda_emu_global_load_lds(void *ctx, int64_t ldsBase,
                                        int64_t src) {
  auto *t = static_cast<Thread *>(ctx);
  kda::emu::Workgroup &wg = *t->wg;
  const uint32_t wave = t->linear / wg.config->waveSize;
  const uint32_t lane = t->linear % wg.config->waveSize;
  const uint64_t key = (uint64_t(wave) << 32) | t->vmemIssued++;
  auto [it, first] = wg.waveBases.emplace(key, ldsBase);
  if (!first && it->second != ldsBase && wg.error.empty())
    wg.error = "global_load_lds in " + kda::emu::blockName(wg) + ": lane " +
               std::to_string(lane) + " of wave " + std::to_string(wave) +
               " gives LDS base " + std::to_string(ldsBase) +
               " but its wave's instruction uses " +
               std::to_string(it->second) + " (the base is wave-uniform)";
  kda::emu::PendingCopy c{reinterpret_cast<uint8_t *>(ldsBase) + 16 * lane,
                          {},
                          landingBytes(t, 16)};
  std::memcpy(c.data, reinterpret_cast<const void *>(src), c.bytes);
  t->vmem.push_back(c);
}

extern "C" void kda_emu_vmcnt_wait(void *ctx, int64_t outstanding) {
  auto *t = static_cast<Thread *>(ctx);
  const size_t keep = size_t(std::max<int64_t>(0, outstanding));
  while (t->vmem.size() - t->vmemLanded > keep)
    t->vmem[t->vmemLanded++].land();
}

//===----------------------------------------------------------------------===//
// The tile layer: matrix atoms (kda_emu_mma) and dynamic LDS.
//
// kda_emu_mma is wave-collective like a shuffle (and counts as one for the
// divergence check): a lane deposits pointers to its fragments in its slot
// of half p, yields, and after the round the first lane of the wave to run
// gathers the wave's fragments into whole A, B and C tiles (checking every
// element is given exactly once) in the wave's half p; each lane then
// computes its own D elements. The deposits point into the lanes' stacks,
// which stay put while they wait in the call. A lane's next collective uses
// half 1 - p, so no lane overwrites tiles another lane has yet to read.
//===----------------------------------------------------------------------===//

namespace kda::emu {
namespace {

struct MmaDeposit {
  uint64_t stamp = ~uint64_t(0); // the lane's sync count at the call
  int32_t m = 0, n = 0, k = 0;
  const float *vals[3] = {nullptr, nullptr, nullptr};
  const int32_t *at[3] = {nullptr, nullptr, nullptr};
  int32_t elems[3] = {0, 0, 0};
};

struct WaveTiles {
  uint64_t stamp = ~uint64_t(0); // which collective these tiles are of
  std::vector<float> tile[3];     // A (m x k), B (k x n), C (m x n)
};

/// A warpgroup atom's lane: its A and C fragments and the B descriptor.
struct WgmmaDeposit {
  uint64_t stamp = ~uint64_t(0);
  int32_t n = 0;
  const float *vals[2] = {nullptr, nullptr}; // A, C
  const int32_t *at[2] = {nullptr, nullptr};
  int32_t elems[2] = {0, 0};
  const uint8_t *b = nullptr;
  int64_t lbo = 0, sbo = 0;
  bool mnMajor = false;
};

/// A wave's share of a warpgroup atom in flight: the B elements it read at
/// issue (their offsets from `b` and values). A watched LDS store into them
/// by a lane that has not passed its covering wait is an error
/// (wgmmaStoreCheck), and at the first lane's covering wait (before any
/// lane's later stores) they must still hold what was read.
struct WgmmaFlight {
  int64_t group = -1; // commit group (-1: not committed yet)
  const uint8_t *b = nullptr;
  int64_t dynamicLo = 0; // b's offset in the dynamic LDS region
  std::vector<int64_t> at;
  std::vector<uint16_t> bits;
  uint64_t waited = 0; // lanes whose wait covered it
};

struct TileExtras {
  std::vector<MmaDeposit> deposits[2]; // per thread
  std::vector<WaveTiles> waves[2];     // per wave
  std::vector<WgmmaDeposit> groupDeposits[2];    // per thread
  std::vector<WaveTiles> groupWaves[2];          // per wave: A, B, C
  std::vector<std::vector<WgmmaFlight>> flights; // per wave
  std::vector<int64_t> committed;                // per wave
  std::vector<unsigned char> dynamicLds;
};

TileExtras &tileExtras(Workgroup &wg) {
  if (!wg.tile) {
    wg.tile = std::make_shared<TileExtras>();
    const size_t threads = wg.threads.size();
    const size_t waves = (threads + wg.config->waveSize - 1) /
                         wg.config->waveSize;
    for (int p = 0; p < 2; ++p) {
      wg.tile->deposits[p].resize(threads);
      wg.tile->waves[p].resize(waves);
      wg.tile->groupDeposits[p].resize(threads);
      wg.tile->groupWaves[p].resize(waves);
    }
    wg.tile->flights.resize(waves);
    wg.tile->committed.assign(waves, 0);
  }
  return *wg.tile;
}

/// A matrix collective's start: the half of the deposits this call uses
/// (a lane's next collective uses the other), or none when the workgroup
/// is poisoned (the call then counts as a sync and passes C through).
std::optional<uint32_t> collectiveHalf(Thread *t) {
  if (t->wg->poisoned) {
    ++t->syncs;
    return std::nullopt;
  }
  const uint32_t p = t->parity;
  t->parity ^= 1;
  return p;
}

void copyAccumulator(const float *c, float *d, int32_t elems) {
  for (int32_t e = 0; e < elems; ++e)
    d[e] = c[e];
}

void mmaError(Thread *t, const std::string &what) {
  Workgroup &wg = *t->wg;
  if (wg.error.empty())
    wg.error = "kda.mma in " + blockName(wg) + ", wave " +
               std::to_string(t->linear / wg.config->waveSize) + ": " + what;
  wg.poisoned = true;
}

/// Gathers the wave's deposits of half `p` into whole tiles; false (with
/// the workgroup's error set) when a lane is missing or disagrees, or an
/// element is given twice or never.
bool gatherTiles(Thread *t, uint32_t p, WaveTiles &out) {
  Workgroup &wg = *t->wg;
  TileExtras &x = tileExtras(wg);
  const uint32_t wave = wg.config->waveSize;
  const uint32_t base = t->linear - t->linear % wave;
  if (base + wave > wg.threads.size())
    return mmaError(t, "the workgroup's last wave is partial (" +
                           std::to_string(wg.threads.size() - base) +
                           " of " + std::to_string(wave) + " lanes)"),
           false;
  const MmaDeposit &first = x.deposits[p][base];
  const int64_t rows[3] = {first.m, first.k, first.m};
  const int64_t cols[3] = {first.k, first.n, first.n};
  static const char *names[3] = {"A", "B", "C"};
  for (int o = 0; o < 3; ++o) {
    out.tile[o].assign(size_t(rows[o] * cols[o]), 0.0f);
    std::vector<uint32_t> given(size_t(rows[o] * cols[o]), 0);
    for (uint32_t l = 0; l < wave; ++l) {
      const MmaDeposit &d = x.deposits[p][base + l];
      if (d.stamp != t->syncs || d.m != first.m || d.n != first.n ||
          d.k != first.k)
        return mmaError(t, "lane " + std::to_string(l) +
                               " did not take part in the same atom as lane "
                               "0 (matrix atoms are wave-collective)"),
               false;
      for (int32_t e = 0; e < d.elems[o]; ++e) {
        const int32_t r = d.at[o][2 * e], c = d.at[o][2 * e + 1];
        if (r < 0 || r >= rows[o] || c < 0 || c >= cols[o])
          return mmaError(t, std::string("lane ") + std::to_string(l) +
                                 " gives " + names[o] + " element (" +
                                 std::to_string(r) + ", " + std::to_string(c) +
                                 ") outside the " + std::to_string(rows[o]) +
                                 " x " + std::to_string(cols[o]) + " tile"),
                 false;
        const size_t i = size_t(r) * size_t(cols[o]) + size_t(c);
        if (given[i]++)
          return mmaError(t, std::string(names[o]) + " element (" +
                                 std::to_string(r) + ", " + std::to_string(c) +
                                 ") is given twice (again by lane " +
                                 std::to_string(l) + ")"),
                 false;
        out.tile[o][i] = d.vals[o][e];
      }
    }
    for (size_t i = 0; i < given.size(); ++i)
      if (!given[i])
        return mmaError(t, std::string(names[o]) + " element (" +
                               std::to_string(i / size_t(cols[o])) + ", " +
                               std::to_string(i % size_t(cols[o])) +
                               ") is given by no lane"),
               false;
  }
  out.stamp = t->syncs;
  return true;
}

} // namespace
} // namespace kda::emu

extern "C" void kda_emu_mma(void *ctx, int32_t m, int32_t n, int32_t k,
                            const float *a, const int32_t *aAt, int32_t aElems,
                            const float *b, const int32_t *bAt, int32_t bElems,
                            const float *c, const int32_t *cAt, int32_t cElems,
                            float *d) {
  auto *t = static_cast<Thread *>(ctx);
  kda::emu::Workgroup &wg = *t->wg;
  auto passThrough = [&] { kda::emu::copyAccumulator(c, d, cElems); };
  std::optional<uint32_t> half = kda::emu::collectiveHalf(t);
  if (!half)
    return passThrough();
  kda::emu::TileExtras &x = kda::emu::tileExtras(wg);
  const uint32_t p = *half;
  kda::emu::MmaDeposit &dep = x.deposits[p][t->linear];
  dep = {t->syncs + 1, m, n, k, {a, b, c}, {aAt, bAt, cAt},
         {aElems, bElems, cElems}};
  kda::emu::yield(t, kda::emu::SyncKind::Shuffle);
  if (wg.poisoned)
    return passThrough();
  kda::emu::WaveTiles &tiles = x.waves[p][t->linear / wg.config->waveSize];
  if (tiles.stamp != t->syncs && !kda::emu::gatherTiles(t, p, tiles))
    return passThrough();
  // D at this lane's C coordinates, accumulated in f32 in k order.
  const std::vector<float> &A = tiles.tile[0], &B = tiles.tile[1],
                           &C = tiles.tile[2];
  for (int32_t e = 0; e < cElems; ++e) {
    const int32_t r = cAt[2 * e], col = cAt[2 * e + 1];
    float acc = C[size_t(r) * size_t(n) + size_t(col)];
    for (int32_t kk = 0; kk < k; ++kk)
      acc += A[size_t(r) * size_t(k) + size_t(kk)] *
             B[size_t(kk) * size_t(n) + size_t(col)];
    d[e] = acc;
  }
}

//===----------------------------------------------------------------------===//
// Warpgroup atoms (kda.wgmma): the tensor core of a warpgroup reads B from
// LDS and each wave of the group gets the rows of D its A rows make, so a
// wave's share is computed by the wave alone (wave-collective, like
// kda_emu_mma): its 16 rows of A and C from its lanes, all of B through the
// descriptor's placement (SharedOperandLayout). D is computed at issue; the
// B bytes read are kept as the wave's flight and compared at the
// kda.wgmma_wait that covers their commit group: a change in between is an
// error (the hardware may read them any time until then).
//===----------------------------------------------------------------------===//

namespace kda::emu {
namespace {

uint32_t groupRowOf(const Thread *t) {
  return 16 * ((t->linear / t->wg->config->waveSize) % 4);
}

float bf16At(const uint8_t *p) {
  uint16_t h;
  std::memcpy(&h, p, 2);
  uint32_t w = uint32_t(h) << 16;
  float f;
  std::memcpy(&f, &w, 4);
  return f;
}

/// SharedOperandLayout::byteOffset (MmaAtoms.h; the runtime links no
/// dialect): K-major core-matrix rows are 8 k of one n, MN-major 8 n of
/// one k.
int64_t sharedOffset(const WgmmaDeposit &d, int64_t k, int64_t n) {
  const int64_t core = (n / 8) * d.sbo + (k / 8) * d.lbo;
  return d.mnMajor ? core + (k % 8) * 16 + (n % 8) * 2
                   : core + (n % 8) * 16 + (k % 8) * 2;
}

/// Gathers the wave's A rows (16 x 16), C rows (16 x n) and B (16 x n)
/// into `out`, and records the wave's flight; false with the error set.
bool gatherGroupTiles(Thread *t, uint32_t p, WaveTiles &out) {
  Workgroup &wg = *t->wg;
  TileExtras &x = tileExtras(wg);
  const uint32_t wave = wg.config->waveSize;
  const uint32_t base = t->linear - t->linear % wave;
  const uint32_t groupBase = t->linear - t->linear % 128;
  if (wave != 32 || groupBase + 128 > wg.threads.size())
    return mmaError(t, "a warpgroup atom needs whole warpgroups of four "
                       "32-lane waves (the workgroup has " +
                           std::to_string(wg.threads.size()) +
                           " threads of wave " + std::to_string(wave) + ")"),
           false;
  const WgmmaDeposit &first = x.groupDeposits[p][base];
  const int64_t n = first.n, row0 = groupRowOf(t);
  const int64_t rows[2] = {16, 16}, cols[2] = {16, n};
  static const char *names[2] = {"A", "C"};
  for (int o = 0; o < 2; ++o) {
    std::vector<float> &tile = out.tile[o == 0 ? 0 : 2];
    tile.assign(size_t(rows[o] * cols[o]), 0.0f);
    std::vector<uint32_t> given(tile.size(), 0);
    for (uint32_t l = 0; l < wave; ++l) {
      const WgmmaDeposit &d = x.groupDeposits[p][base + l];
      if (d.stamp != t->syncs || d.n != n || d.b != first.b ||
          d.lbo != first.lbo || d.sbo != first.sbo ||
          d.mnMajor != first.mnMajor)
        return mmaError(t, "lane " + std::to_string(l) +
                               " did not take part in the same warpgroup "
                               "atom as lane 0 (same n and B descriptor)"),
               false;
      for (int32_t e = 0; e < d.elems[o]; ++e) {
        const int64_t r = d.at[o][2 * e] - row0, c = d.at[o][2 * e + 1];
        if (r < 0 || r >= rows[o] || c < 0 || c >= cols[o])
          return mmaError(t, std::string("lane ") + std::to_string(l) +
                                 " gives " + names[o] + " element (" +
                                 std::to_string(r + row0) + ", " +
                                 std::to_string(c) +
                                 ") outside its wave's rows [" +
                                 std::to_string(row0) + ", " +
                                 std::to_string(row0 + 16) + ")"),
                 false;
        const size_t i = size_t(r * cols[o] + c);
        if (given[i]++)
          return mmaError(t, std::string(names[o]) + " element (" +
                                 std::to_string(r + row0) + ", " +
                                 std::to_string(c) + ") is given twice"),
                 false;
        tile[i] = d.vals[o][e];
      }
    }
    for (size_t i = 0; i < given.size(); ++i)
      if (!given[i])
        return mmaError(t, std::string(names[o]) + " element (" +
                               std::to_string(row0 + int64_t(i) / cols[o]) +
                               ", " + std::to_string(int64_t(i) % cols[o]) +
                               ") is given by no lane"),
               false;
  }
  // B through the descriptor, inside the dynamic LDS region.
  const int64_t extent = sharedOffset(first, 15, n - 1) + 2;
  const uint8_t *lo = x.dynamicLds.data(),
                *hi = x.dynamicLds.data() + x.dynamicLds.size();
  if (first.b < lo || first.b + extent > hi)
    return mmaError(t, "the warpgroup atom's B (" + std::to_string(extent) +
                           " bytes from its start) is not inside the dynamic "
                           "LDS region"),
           false;
  if ((first.b - lo) % 16)
    return mmaError(t, "the warpgroup atom's B starts at LDS byte " +
                           std::to_string(first.b - lo) +
                           ", not 16-byte aligned (the descriptor drops the "
                           "low 4 bits)"),
           false;
  out.tile[1].assign(size_t(16 * n), 0.0f);
  WgmmaFlight f;
  f.b = first.b;
  f.dynamicLo = first.b - lo;
  for (int64_t k = 0; k < 16; ++k)
    for (int64_t c = 0; c < n; ++c) {
      const int64_t at = sharedOffset(first, k, c);
      uint16_t h;
      std::memcpy(&h, first.b + at, 2);
      f.at.push_back(at);
      f.bits.push_back(h);
      out.tile[1][size_t(k * n + c)] = bf16At(first.b + at);
    }
  x.flights[t->linear / wave].push_back(std::move(f));
  out.stamp = t->syncs;
  return true;
}

} // namespace
} // namespace kda::emu

void kda::emu::wgmmaStoreCheck(Thread *t, int64_t lo, int64_t bytes) {
  Workgroup &wg = *t->wg;
  if (!wg.tile || wg.poisoned)
    return;
  const uint32_t wave = wg.config->waveSize;
  const uint64_t lane = uint64_t(1) << (t->linear % wave);
  for (size_t w = 0; w < wg.tile->flights.size(); ++w)
    for (const WgmmaFlight &f : wg.tile->flights[w]) {
      if (w == t->linear / wave && (f.waited & lane))
        continue;
      for (int64_t at : f.at) {
        const int64_t b = f.dynamicLo + at;
        if (b + 2 <= lo || b >= lo + bytes)
          continue;
        if (wg.error.empty())
          wg.error = "kda.wgmma in " + blockName(wg) + ", wave " +
                     std::to_string(w) + ": thread " +
                     std::to_string(t->linear) + " writes LDS bytes " +
                     bytesText(lo, lo + bytes) +
                     " of its B operand before its kda.wgmma_wait covering "
                     "the atom's group (the tensor core may read them any "
                     "time until then)";
        wg.poisoned = true;
        return;
      }
    }
}

extern "C" void kda_emu_wgmma(void *ctx, int32_t n, const float *a,
                              const int32_t *aAt, int32_t aElems,
                              const uint8_t *b, int64_t lbo, int64_t sbo,
                              int32_t mnMajor, const float *c,
                              const int32_t *cAt, int32_t cElems, float *d) {
  auto *t = static_cast<Thread *>(ctx);
  kda::emu::Workgroup &wg = *t->wg;
  auto passThrough = [&] { kda::emu::copyAccumulator(c, d, cElems); };
  std::optional<uint32_t> half = kda::emu::collectiveHalf(t);
  if (!half)
    return passThrough();
  kda::emu::TileExtras &x = kda::emu::tileExtras(wg);
  const uint32_t p = *half;
  kda::emu::WgmmaDeposit &dep = x.groupDeposits[p][t->linear];
  dep = {t->syncs + 1, n,   {a, c},      {aAt, cAt}, {aElems, cElems}, b,
         lbo,          sbo, mnMajor != 0};
  kda::emu::yield(t, kda::emu::SyncKind::Shuffle);
  if (wg.poisoned)
    return passThrough();
  kda::emu::WaveTiles &tiles = x.groupWaves[p][t->linear / wg.config->waveSize];
  if (tiles.stamp != t->syncs && !kda::emu::gatherGroupTiles(t, p, tiles))
    return passThrough();
  const std::vector<float> &A = tiles.tile[0], &B = tiles.tile[1],
                           &C = tiles.tile[2];
  const int32_t row0 = int32_t(kda::emu::groupRowOf(t));
  for (int32_t e = 0; e < cElems; ++e) {
    const int32_t r = cAt[2 * e] - row0, col = cAt[2 * e + 1];
    float acc = C[size_t(r) * size_t(n) + size_t(col)];
    for (int32_t kk = 0; kk < 16; ++kk)
      acc += A[size_t(r) * 16 + size_t(kk)] *
             B[size_t(kk) * size_t(n) + size_t(col)];
    d[e] = acc;
  }
}

// Commit and wait are executed by every lane. The wave's first lane keeps
// the commit books (the lanes run them in the same order); every lane's
// wait compares the flights it covers, so a store by a later lane of the
// wave before its own wait is seen, and the wave's last lane retires them.
extern "C" void kda_emu_wgmma_commit(void *ctx) {
  auto *t = static_cast<Thread *>(ctx);
  kda::emu::Workgroup &wg = *t->wg;
  if (wg.poisoned || t->linear % wg.config->waveSize)
    return;
  kda::emu::TileExtras &x = kda::emu::tileExtras(wg);
  const uint32_t w = t->linear / wg.config->waveSize;
  const int64_t group = ++x.committed[w];
  for (kda::emu::WgmmaFlight &f : x.flights[w])
    if (f.group < 0)
      f.group = group;
}

extern "C" void kda_emu_wgmma_wait(void *ctx, int64_t pending) {
  auto *t = static_cast<Thread *>(ctx);
  kda::emu::Workgroup &wg = *t->wg;
  if (wg.poisoned)
    return;
  kda::emu::TileExtras &x = kda::emu::tileExtras(wg);
  const uint32_t wave = wg.config->waveSize, w = t->linear / wave;
  const int64_t last = x.committed[w] - pending;
  std::vector<kda::emu::WgmmaFlight> &flights = x.flights[w];
  for (size_t i = 0; i < flights.size();) {
    kda::emu::WgmmaFlight &f = flights[i];
    if (f.group < 0 || f.group > last) {
      ++i;
      continue;
    }
    const uint64_t lane = uint64_t(1) << (t->linear % wave);
    for (size_t e = 0; !f.waited && e < f.at.size() && wg.error.empty(); ++e) {
      uint16_t h;
      std::memcpy(&h, f.b + f.at[e], 2);
      if (h == f.bits[e])
        continue;
      wg.error = "kda.wgmma in " + kda::emu::blockName(wg) + ", wave " +
                 std::to_string(w) + ": bytes " + std::to_string(f.at[e]) +
                 ".." + std::to_string(f.at[e] + 1) +
                 " of its B operand changed between the atom's issue and "
                 "its first kda.wgmma_wait covering its group (the tensor "
                 "core may read them any time until then)";
      wg.poisoned = true;
    }
    f.waited |= lane;
    if (f.waited == (wave == 64 ? ~uint64_t(0) : (uint64_t(1) << wave) - 1))
      flights.erase(flights.begin() + std::ptrdiff_t(i));
    else
      ++i;
  }
}

extern "C" void *kda_emu_dynamic_lds(void *ctx, int64_t bytes) {
  auto *t = static_cast<Thread *>(ctx);
  kda::emu::Workgroup &wg = *t->wg;
  kda::emu::TileExtras &x = kda::emu::tileExtras(wg);
  const int64_t given = wg.config->dynamicLdsBytes;
  if (bytes > given && wg.error.empty()) {
    wg.error = "the kernel uses " + std::to_string(bytes) +
               " bytes of dynamic LDS but was launched with " +
               std::to_string(given) +
               " (LaunchConfig::dynamicLdsBytes, from the manifest's "
               "dynamic_lds_bytes)";
    wg.poisoned = true;
  }
  // Enough for what the kernel touches either way, so a refused launch
  // still runs to its end.
  const size_t size = size_t(std::max<int64_t>(bytes, given));
  if (x.dynamicLds.size() < size)
    x.dynamicLds.resize(size);
  return x.dynamicLds.data();
}
