//===- InterruptCleanup.cpp - what an interrupted tool leaves -------------===//
//
// The handler runs on whichever thread takes the signal, and the others go
// on: the main thread may still be writing a target's files into the
// staging folder, or moving it into place, and a child (clang, ptxas) may
// still be writing into the scratch folder. So the handler
//  - ignores further interrupt signals,
//  - waits for other threads' FolderWrites to end, and holds back new ones,
//  - puts back a bundle moved aside, then renames each folder it removes
//    (new files under the old name then fail with ENOENT instead of landing
//    in a folder `rm` already walked),
//  - removes it by `rm -rf`, again while anything is left under either name,
//  - and holds back a thread that ends the process meanwhile (atexit), so
//    the process is gone only once the folders are.
//
//===----------------------------------------------------------------------===//
#include "kda/Codegen/InterruptCleanup.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Signals.h"

#include <atomic>
#include <cerrno>
#include <climits>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <mutex>
#include <sys/wait.h>
#include <unistd.h>

using namespace mlir::kda;
namespace fs = llvm::sys::fs;
using llvm::StringRef;

namespace {
enum Kind : int { Free, Remove, Restore, RemoveEmpty };

/// A registered folder, in storage a signal handler may read: fixed
/// buffers, published by `kind` once both paths are written. `other` is
/// the name a removed folder is renamed to first (`path`.removing), the
/// name a restored folder goes back to, or the outermost of the empty
/// folders `path` and its parents up to `other` to remove.
struct Entry {
  std::atomic<int> kind{Free};
  char path[PATH_MAX];
  char other[PATH_MAX];
};
constexpr int kInterruptEntries = 8;
Entry entries[kInterruptEntries];
std::mutex registration; // never taken in the handler
/// Set by the handler: a thread that ends the process meanwhile waits.
std::atomic<bool> cleaning{false};
/// FolderWrite: how many are held, by all threads and by this one.
std::atomic<int> writing{0};
thread_local int writingHere = 0;
/// The interrupt signals LLVM's handler takes that end a process by
/// default, and the one that came (noteSignal): LLVM's interrupt function
/// is not told which, and the process should end by that one.
constexpr int kInterruptSignals[] = {SIGHUP, SIGINT, SIGTERM};
std::atomic<int> caught{0};
struct sigaction chained[NSIG]; // LLVM's actions, which noteSignal calls
} // namespace

/// Sleeps `ms` milliseconds (nanosleep: async-signal-safe).
static void sleepMs(long ms) {
  timespec t{0, ms * 1000000L};
  while (nanosleep(&t, &t) < 0 && errno == EINTR) {
  }
}

/// `rm -rf -- path` in a child, waited for. _Fork, not fork: fork takes the
/// allocator's locks first and may hang where the signal interrupted a
/// thread holding one (glibc 2.34).
static void removeTree(char *path) {
  const pid_t child = _Fork();
  if (child == 0) {
    char rm[] = "rm", rf[] = "-rf", dashes[] = "--";
    char *argv[] = {rm, rf, dashes, path, nullptr};
    execv("/bin/rm", argv);
    _exit(127);
  }
  if (child > 0)
    while (waitpid(child, nullptr, 0) < 0 && errno == EINTR) {
    }
}

/// rmdir of `path`, then of each parent up to `top`, stopping at the first
/// that is not empty (async-signal-safe: rmdir, and `path` cut in place).
static void removeEmptyUpTo(char *path, const char *top) {
  const size_t topLength = std::strlen(top);
  for (size_t n = std::strlen(path); n >= topLength;) {
    if (rmdir(path) < 0 && errno != ENOENT)
      return;
    if (n == topLength)
      return;
    while (n > topLength && path[n - 1] != '/')
      --n;
    while (n > topLength && path[n - 1] == '/')
      --n;
    path[n] = '\0';
  }
}

/// LLVM's handler calls this for an interrupt signal (once; its handlers are
/// then uninstalled). Only async-signal-safe calls. Restores come first, so
/// no removal reaches a bundle that was moved aside; then the process ends
/// as the signal would have ended it.
static void cleanUpOnInterrupt() {
  // A second signal (Ctrl-C again, a supervisor's SIGTERM after SIGINT)
  // would end the process part way (LLVM's handlers are gone by now).
  for (int sig : kInterruptSignals)
    signal(sig, SIG_IGN);
  cleaning.store(true);
  // Other threads' folder writes end first (FolderWrite); new ones wait.
  // Bounded: a writer stuck in the kernel does not hold the exit forever.
  for (int ms = 0; writing.load() > writingHere && ms < 5000; ++ms)
    sleepMs(1);
  for (Entry &e : entries)
    if (e.kind.load() == Restore)
      (void)rename(e.path, e.other);
  for (Entry &e : entries) {
    if (e.kind.load() != Remove)
      continue;
    if (e.other[0] != '\0')
      (void)rename(e.path, e.other);
    // A file made in the instant of the rename (its lookup already past the
    // old name; a child tool still writing) can still land inside, or make
    // the old name again: up to a second of further passes over both.
    for (int pass = 0; pass < 100; ++pass) {
      bool left = false;
      for (char *name : {e.other, e.path}) {
        if (name[0] == '\0')
          continue;
        removeTree(name);
        left |= !(access(name, F_OK) < 0 && errno == ENOENT);
      }
      if (!left)
        break;
      sleepMs(10);
    }
  }
  // Then the parents made for them, each only where empty (another
  // process may have put its own files there since).
  for (Entry &e : entries)
    if (e.kind.load() == RemoveEmpty)
      removeEmptyUpTo(e.path, e.other);
  const int sig = caught.load() > 0 ? caught.load() : SIGINT;
  signal(sig, SIG_DFL); // the others stay ignored
  raise(sig);
  _exit(128 + sig);
}

/// Installed over LLVM's handler for each interrupt signal: notes which one
/// came, then runs LLVM's (which runs cleanUpOnInterrupt).
static void noteSignal(int sig, siginfo_t *info, void *context) {
  caught.store(sig);
  const struct sigaction &llvmAction = chained[sig];
  if (llvmAction.sa_flags & SA_SIGINFO) {
    llvmAction.sa_sigaction(sig, info, context);
  } else if (llvmAction.sa_handler != SIG_DFL &&
             llvmAction.sa_handler != SIG_IGN) {
    llvmAction.sa_handler(sig);
  } else { // LLVM's handlers were not there: end as the signal would
    signal(sig, llvmAction.sa_handler);
    raise(sig);
  }
}

/// Copies `s` (shorter than PATH_MAX) into `buf` with its terminator.
static void copyPath(char *buf, StringRef s) {
  std::memcpy(buf, s.data(), s.size());
  buf[s.size()] = '\0';
}

/// While the handler runs, a thread changing files or the table, or ending
/// the process (atexit), waits for the handler to end the process.
static void waitIfCleaning() {
  while (cleaning.load())
    sleepMs(10);
}

FolderWrite::FolderWrite() {
  // Counted before the check: the handler either sees this write or this
  // write sees the handler (both sequentially consistent).
  writing.fetch_add(1);
  ++writingHere;
  if (cleaning.load()) {
    --writingHere;
    writing.fetch_sub(1);
    waitIfCleaning();
  }
}

FolderWrite::~FolderWrite() {
  --writingHere;
  writing.fetch_sub(1);
}

/// Takes a free entry for `kind` (the handler installed on first use);
/// false when none is free or a path does not fit.
static bool add(Kind kind, StringRef path, StringRef other) {
  FolderWrite changing; // the table, as the handler reads it
  std::lock_guard<std::mutex> lock(registration);
  static bool installed = false;
  if (!installed) {
    llvm::sys::SetInterruptFunction(cleanUpOnInterrupt); // installs LLVM's
    for (int sig : kInterruptSignals) {
      struct sigaction note = {};
      note.sa_sigaction = noteSignal;
      // SA_NODEFER as LLVM's own: cleanUpOnInterrupt re-raises the signal.
      note.sa_flags = SA_SIGINFO | SA_NODEFER | SA_ONSTACK;
      sigemptyset(&note.sa_mask);
      sigaction(sig, &note, &chained[sig]);
    }
    std::atexit(waitIfCleaning);
    installed = true;
  }
  if (path.empty() || path.size() >= PATH_MAX || other.size() >= PATH_MAX)
    return false;
  for (Entry &e : entries) {
    if (e.kind.load() != Free)
      continue;
    copyPath(e.path, path);
    copyPath(e.other, other);
    e.kind.store(kind);
    return true;
  }
  return false;
}

static void drop(Kind kind, StringRef path) {
  FolderWrite changing;
  std::lock_guard<std::mutex> lock(registration);
  for (Entry &e : entries)
    if (e.kind.load() == kind && path == StringRef(e.path))
      e.kind.store(Free);
}

/// createFolderRemovedOnInterrupt's unique suffix, and the twin a removed
/// folder is renamed to first.
static constexpr llvm::StringLiteral kUniqueSuffix = "-%%%%%%";
static constexpr llvm::StringLiteral kRemovingSuffix = ".removing";

bool mlir::kda::removeOnInterrupt(StringRef dir) {
  return add(Remove, dir, (dir + kRemovingSuffix).str());
}

void mlir::kda::keepOnInterrupt(StringRef dir) { drop(Remove, dir); }

bool mlir::kda::restoreOnInterrupt(StringRef from, StringRef to) {
  return add(Restore, from, to);
}

void mlir::kda::forgetRestore(StringRef from) { drop(Restore, from); }

bool mlir::kda::removeEmptyOnInterrupt(StringRef deepest, StringRef top) {
  return deepest.starts_with(top) && add(RemoveEmpty, deepest, top);
}

void mlir::kda::forgetEmpty(StringRef deepest) { drop(RemoveEmpty, deepest); }

namespace {
/// The one error of the registration itself: every entry taken.
class CleanupErrors : public std::error_category {
public:
  const char *name() const noexcept override { return "kda-interrupt"; }
  std::string message(int) const override {
    return "too many folders registered for removal on interrupt at once "
           "(at most " +
           std::to_string(kInterruptEntries) + ")";
  }
};
} // namespace

std::error_code mlir::kda::interruptTableFull() {
  static const CleanupErrors category;
  return {1, category};
}

size_t mlir::kda::longestFreshFolderPrefix() {
  return PATH_MAX - 1 - kUniqueSuffix.size() - kRemovingSuffix.size();
}

std::error_code
mlir::kda::createFolderRemovedOnInterrupt(const llvm::Twine &prefix,
                                          llvm::SmallVectorImpl<char> &path) {
  const std::string model = (prefix + kUniqueSuffix).str();
  for (int attempt = 0; attempt < 128; ++attempt) {
    fs::createUniquePath(model, path, /*MakeAbsolute=*/true);
    const std::string p(path.begin(), path.end());
    if (fs::exists(p))
      continue;
    // Registered before it exists. The name is only ever another kda
    // tool's if it was made in the instant since the check above (then
    // create_directory fails below and the entry goes).
    // The handler's copy of the path and of its ".removing" twin.
    if (p.size() + kRemovingSuffix.size() >= PATH_MAX)
      return std::make_error_code(std::errc::filename_too_long);
    if (!removeOnInterrupt(p))
      return interruptTableFull();
    FolderWrite making;
    std::error_code ec = fs::create_directory(p, /*IgnoreExisting=*/false);
    if (!ec)
      return ec;
    keepOnInterrupt(p);
    if (ec != std::errc::file_exists)
      return ec;
  }
  return std::make_error_code(std::errc::file_exists);
}
