//===- GuardedMemory.cpp - host buffers fenced by PROT_NONE pages ---------===//
#include "GuardedMemory.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <new>
#include <sys/mman.h>
#include <unistd.h>

namespace kda::test {
namespace {

constexpr unsigned char kCanary = 0xa5;

/// One live buffer: the mapping and where the caller's bytes lie in it. The
/// fault handler reads the table without a lock (it only runs on a crash
/// path); slots are published by their `bytes` field last.
struct Guarded {
  std::atomic<uintptr_t> user{0}; // 0: free slot
  uintptr_t map = 0;
  size_t mapBytes = 0, bytes = 0, rounded = 0;
};
std::array<Guarded, 1 << 14> table;
std::mutex tableLock;
size_t pageBytes() { return size_t(sysconf(_SC_PAGESIZE)); }

/// async-signal-safe formatting: unsigned decimal and a fixed text.
void put(const char *s) { (void)!write(2, s, strlen(s)); }
void putNum(uintptr_t v) {
  char buf[24];
  int i = sizeof buf;
  do
    buf[--i] = char('0' + v % 10);
  while ((v /= 10) && i > 0);
  (void)!write(2, buf + i, sizeof buf - i);
}

void onFault(int sig, siginfo_t *info, void *) {
  const uintptr_t at = reinterpret_cast<uintptr_t>(info->si_addr);
  for (const Guarded &g : table) {
    uintptr_t user = g.user.load(std::memory_order_acquire);
    if (!user || at < g.map || at >= g.map + g.mapBytes)
      continue;
    const bool below = at < user;
    put("kda test memory: an access ");
    putNum(below ? user - at : at - (user + g.bytes));
    put(below ? " bytes before the start of " : " bytes past the end of ");
    put("a guarded buffer of ");
    putNum(g.bytes);
    put(" bytes (the kernel read or wrote outside the buffer it was given)\n");
    break;
  }
  // Die by the signal, as without the handler.
  signal(sig, SIG_DFL);
  raise(sig);
}

void installHandler() {
  static std::once_flag once;
  std::call_once(once, [] {
    struct sigaction sa;
    std::memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = onFault;
    sa.sa_flags = SA_SIGINFO | SA_RESETHAND;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGSEGV, &sa, nullptr);
    sigaction(SIGBUS, &sa, nullptr);
  });
}

} // namespace

void *guardedAlloc(size_t bytes, size_t guardAfter) {
  installHandler();
  const size_t page = pageBytes();
  const size_t rounded = (bytes + 15) / 16 * 16;
  const size_t body = (rounded + page - 1) / page * page;
  const size_t after = std::max(page, (guardAfter + page - 1) / page * page);
  const size_t mapBytes = page + body + after;
  void *m = mmap(nullptr, mapBytes, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (m == MAP_FAILED)
    throw std::bad_alloc();
  const uintptr_t map = reinterpret_cast<uintptr_t>(m);
  if (mprotect(m, page, PROT_NONE) != 0 ||
      mprotect(reinterpret_cast<void *>(map + page + body), after, PROT_NONE) !=
          0) {
    munmap(m, mapBytes);
    throw std::bad_alloc();
  }
  const uintptr_t user = map + page + body - rounded;
  std::memset(reinterpret_cast<void *>(user + bytes), kCanary, rounded - bytes);
  std::lock_guard<std::mutex> guard(tableLock);
  for (Guarded &g : table)
    if (!g.user.load(std::memory_order_relaxed)) {
      g.map = map, g.mapBytes = mapBytes, g.bytes = bytes, g.rounded = rounded;
      g.user.store(user, std::memory_order_release);
      return reinterpret_cast<void *>(user);
    }
  munmap(m, mapBytes);
  throw std::bad_alloc(); // more live buffers than any test holds
}

void guardedRelease(void *p) {
  if (!p)
    return;
  const uintptr_t user = reinterpret_cast<uintptr_t>(p);
  std::lock_guard<std::mutex> guard(tableLock);
  for (Guarded &g : table) {
    if (g.user.load(std::memory_order_relaxed) != user)
      continue;
    const auto *tail = reinterpret_cast<const unsigned char *>(user + g.bytes);
    for (size_t i = 0; i < g.rounded - g.bytes; ++i)
      if (tail[i] != kCanary) {
        std::fprintf(stderr,
                     "kda test memory: byte %zu past the end of a guarded "
                     "buffer of %zu bytes was written\n",
                     i, g.bytes);
        std::abort();
      }
    g.user.store(0, std::memory_order_release);
    munmap(reinterpret_cast<void *>(g.map), g.mapBytes);
    return;
  }
  std::fprintf(stderr,
               "kda test memory: release of %p, which guardedAlloc "
               "did not return\n",
               p);
  std::abort();
}

} // namespace kda::test
