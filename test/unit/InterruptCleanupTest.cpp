//===- InterruptCleanupTest.cpp - what an interrupted tool leaves ---------===//
//
// Each case runs in a child process (a death test) that registers folders,
// keeps writing into them from another thread, and takes SIGINT; the parent
// then looks at what is left. The lit test Codegen/compile-interrupt.mlir
// stops a real compile at a moment it cannot choose; these choose it.
//
//===----------------------------------------------------------------------===//
#include "kda/Codegen/InterruptCleanup.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <climits>
#include <csignal>
#include <cstdlib>
#include <fstream>
#include <pthread.h>
#include <string>
#include <thread>
#include <unistd.h>
#include <vector>

using namespace mlir::kda;
namespace fs = llvm::sys::fs;

namespace {

class InterruptCleanup : public ::testing::Test {
protected:
  void SetUp() override {
    // "fast": the child is a fork at the statement, with this test's folder
    // (a re-executed child would make a folder of its own). This process
    // has one thread there; the statements start the others.
    GTEST_FLAG_SET(death_test_style, "fast");
    llvm::SmallString<128> d;
    ASSERT_FALSE(fs::createUniqueDirectory("kda-interrupt-test", d));
    base = std::string(d);
  }
  void TearDown() override { fs::remove_directories(base); }

  /// A folder `name` holding one file `file`, as a bundle written earlier.
  std::string bundleWith(const std::string &name, const std::string &file) {
    const std::string dir = at(name);
    EXPECT_FALSE(fs::create_directory(dir));
    std::ofstream(dir + "/" + file) << "{}";
    return dir;
  }
  std::string at(const std::string &name) const {
    llvm::SmallString<128> p(base);
    llvm::sys::path::append(p, name);
    return std::string(p);
  }
  /// The names left in the test's folder.
  std::vector<std::string> left() const {
    std::vector<std::string> names;
    std::error_code ec;
    for (fs::directory_iterator it(base, ec), end; it != end && !ec;
         it.increment(ec))
      names.push_back(llvm::sys::path::filename(it->path()).str());
    return names;
  }

  std::string base;
};

/// Makes files (and a folder a hundred) under `dir` by path until `stop`;
/// counts the ones made in `made`.
void writeInto(const std::string &dir, std::atomic<bool> &stop,
               std::atomic<int> &made) {
  for (int i = 0; !stop.load(); ++i) {
    std::string sub = dir;
    if (i % 100 == 0) {
      sub += "/d" + std::to_string(i);
      (void)fs::create_directory(sub);
    }
    std::ofstream f(dir + "/f" + std::to_string(i));
    if (f) {
      f << "bytes";
      made.fetch_add(1);
    }
  }
}

void waitFor(std::atomic<int> &made, int n) {
  while (made.load() < n)
    std::this_thread::yield();
}

/// In a death test's child: a fresh folder registered for removal, or the
/// child ends with status 3.
std::string freshFolder(const std::string &prefix) {
  llvm::SmallString<128> dir;
  if (createFolderRemovedOnInterrupt(prefix, dir))
    std::exit(3);
  return std::string(dir);
}

/// In a death test's child: moves the bundle at `out` into a fresh folder
/// `out`.old-XXXXXX registered for removal, its restore registered first,
/// as StagedBundle::commit does; the child ends with status 5 if it cannot.
/// Returns where the bundle went.
std::string moveAside(const std::string &out) {
  const std::string old = freshFolder(out + ".old") + "/bundle";
  restoreOnInterrupt(old, out);
  if (fs::rename(out, old))
    std::exit(5);
  return old;
}

/// A thread that, once `made` reaches `n`, takes SIGINT itself: the
/// handler runs there while the caller's thread goes on.
void interruptOtherThreadAfter(std::atomic<int> &made, int n) {
  std::thread([&made, n] {
    waitFor(made, n);
    pthread_kill(pthread_self(), SIGINT);
  }).detach();
}

} // namespace

// The handler on the main thread while another thread goes on writing into
// the folder: the folder is gone when the process is.
TEST_F(InterruptCleanup, FolderGoneWhileAnotherThreadWritesIntoIt) {
  const std::string prefix = at("out.partial");
  EXPECT_EXIT(
      {
        const std::string dir = freshFolder(prefix);
        std::atomic<bool> stop{false};
        std::atomic<int> made{0};
        std::thread writer(writeInto, dir, std::ref(stop), std::ref(made));
        waitFor(made, 2000);
        raise(SIGINT);
        std::exit(4); // not reached: the handler ends the process
      },
      ::testing::KilledBySignal(SIGINT), "");
  EXPECT_EQ(left(), std::vector<std::string>{});
}

// The handler on another thread while the main thread writes, then ends the
// process by exit() once its writes fail: exit waits for the handler, and
// the process ends by the signal with the folder gone.
TEST_F(InterruptCleanup, ExitOnAnotherThreadWaitsForTheHandler) {
  const std::string prefix = at("scratch");
  EXPECT_EXIT(
      {
        const std::string d = freshFolder(prefix);
        std::atomic<int> made{0};
        interruptOtherThreadAfter(made, 2000);
        for (int i = 0, failed = 0; failed < 1000; ++i) {
          std::ofstream f(d + "/f" + std::to_string(i));
          f << "bytes";
          if (f)
            made.fetch_add(1);
          else
            ++failed;
        }
        std::exit(0); // the writes failed: the folder was moved
      },
      ::testing::KilledBySignal(SIGINT), "");
  EXPECT_EQ(left(), std::vector<std::string>{});
}

// The handler on another thread while the main thread makes folders and
// files under a FolderWrite (as Compile.cpp does: create_directories makes
// a removed folder again): the main thread's next write waits, so nothing
// is made again behind the handler.
TEST_F(InterruptCleanup, NoFolderMadeAgainBehindTheHandler) {
  const std::string prefix = at("out.partial");
  EXPECT_EXIT(
      {
        const std::string d = freshFolder(prefix);
        std::atomic<int> made{0};
        interruptOtherThreadAfter(made, 500);
        for (int i = 0;; ++i) {
          FolderWrite w;
          const std::string sub = d + "/gfx942";
          (void)fs::create_directories(sub);
          std::ofstream f(sub + "/f" + std::to_string(i));
          f << "bytes";
          if (f)
            made.fetch_add(1);
        }
      },
      ::testing::KilledBySignal(SIGINT), "");
  EXPECT_EQ(left(), std::vector<std::string>{});
}

// The handler taken while another thread is between the two moves of a
// commit (one FolderWrite): it waits for the second, so the new bundle
// stays and the earlier one goes with the aside folder, where it restored
// the earlier bundle over the empty name and the commit then failed.
TEST_F(InterruptCleanup, HandlerWaitsForACommitUnderWay) {
  const std::string out = bundleWith("out", "old.json");
  EXPECT_EXIT(
      {
        const std::string staging = freshFolder(out + ".partial");
        std::ofstream(staging + "/new.json") << "{}";
        std::atomic<bool> between{false};
        std::thread signaller([&] {
          while (!between.load())
            std::this_thread::yield();
          pthread_kill(pthread_self(), SIGINT);
        });
        signaller.detach();
        {
          FolderWrite moving;
          moveAside(out);
          between.store(true);
          std::this_thread::sleep_for(std::chrono::milliseconds(100));
          if (fs::rename(staging, out))
            std::exit(6);
        }
        for (;;)
          std::this_thread::sleep_for(std::chrono::milliseconds(10));
      },
      ::testing::KilledBySignal(SIGINT), "");
  EXPECT_EQ(left(), std::vector<std::string>{"out"});
  EXPECT_TRUE(fs::exists(out + "/new.json"));
}

// A second signal while the handler removes (Ctrl-C pressed twice) does
// not end the process part way: the folder still goes, and the process
// ends by the first signal.
TEST_F(InterruptCleanup, SecondSignalDuringCleanupIsIgnored) {
  const std::string prefix = at("out.partial");
  EXPECT_EXIT(
      {
        const std::string d = freshFolder(prefix);
        for (int i = 0; i < 4000; ++i)
          std::ofstream(d + "/f" + std::to_string(i)) << "bytes";
        std::thread second([d] {
          while (!fs::exists(d + ".removing"))
            std::this_thread::yield();
          kill(getpid(), SIGTERM);
        });
        second.detach();
        raise(SIGINT);
        std::exit(4);
      },
      ::testing::KilledBySignal(SIGINT), "");
  EXPECT_EQ(left(), std::vector<std::string>{});
}

// A bundle moved aside to be replaced goes back where it was, and the
// folder it was moved into goes.
TEST_F(InterruptCleanup, BundleMovedAsideIsPutBack) {
  const std::string out = bundleWith("out", "manifest.json");
  EXPECT_EXIT(
      {
        moveAside(out);
        raise(SIGINT);
        std::exit(4);
      },
      ::testing::KilledBySignal(SIGINT), "");
  EXPECT_EQ(left(), std::vector<std::string>{"out"});
  EXPECT_TRUE(fs::exists(out + "/manifest.json"));
}

// Once the new bundle is in place, the earlier one is not put back over
// it (a rename onto a folder that is not empty fails), and goes with the
// folder it was moved into.
TEST_F(InterruptCleanup, NewBundleInPlaceStays) {
  const std::string out = bundleWith("out", "old.json");
  EXPECT_EXIT(
      {
        const std::string staging = freshFolder(out + ".partial");
        std::ofstream(staging + "/new.json") << "{}";
        moveAside(out);
        if (fs::rename(staging, out))
          std::exit(6);
        raise(SIGINT);
        std::exit(4);
      },
      ::testing::KilledBySignal(SIGINT), "");
  EXPECT_EQ(left(), std::vector<std::string>{"out"});
  EXPECT_TRUE(fs::exists(out + "/new.json"));
  EXPECT_FALSE(fs::exists(out + "/old.json"));
}

// A folder forgotten by keepOnInterrupt stays, and so does one that was
// never registered.
TEST_F(InterruptCleanup, KeptFolderStays) {
  const std::string prefix = at("kept");
  const std::string other = at("other");
  ASSERT_FALSE(fs::create_directory(other));
  EXPECT_EXIT(
      {
        keepOnInterrupt(freshFolder(prefix));
        raise(SIGINT);
        std::exit(4);
      },
      ::testing::KilledBySignal(SIGINT), "");
  std::vector<std::string> names = left();
  ASSERT_EQ(names.size(), 2u);
  EXPECT_TRUE(llvm::StringRef(names[0]).starts_with("kept-") ||
              llvm::StringRef(names[1]).starts_with("kept-"));
}

// SIGTERM (and SIGHUP) end the process by that signal, not SIGINT, once
// the folders are gone.
TEST_F(InterruptCleanup, EndsByTheSignalThatCame) {
  for (int sig : {SIGTERM, SIGHUP}) {
    const std::string prefix = at("term");
    EXPECT_EXIT(
        {
          freshFolder(prefix);
          raise(sig);
          std::exit(4);
        },
        ::testing::KilledBySignal(sig), "");
    EXPECT_EQ(left(), std::vector<std::string>{});
  }
}

// Fresh names: two folders from one prefix differ, both exist.
TEST_F(InterruptCleanup, FreshNames) {
  llvm::SmallString<128> a, b;
  ASSERT_FALSE(createFolderRemovedOnInterrupt(at("x"), a));
  ASSERT_FALSE(createFolderRemovedOnInterrupt(at("x"), b));
  EXPECT_NE(std::string(a), std::string(b));
  EXPECT_TRUE(fs::is_directory(a));
  EXPECT_TRUE(fs::is_directory(b));
  keepOnInterrupt(a);
  keepOnInterrupt(b);
}

// A fresh folder refused for what it is: every entry taken (named so, not
// "Too many open files"), or a path the handler cannot hold; nothing made,
// nothing left registered.
TEST_F(InterruptCleanup, RefusalsSayWhy) {
  std::vector<std::string> taken;
  for (int i = 0; i < 64; ++i) {
    const std::string p = at("taken" + std::to_string(i));
    if (!removeOnInterrupt(p))
      break;
    taken.push_back(p);
  }
  ASSERT_FALSE(taken.empty());
  ASSERT_LT(taken.size(), 64u);
  llvm::SmallString<128> dir;
  std::error_code ec = createFolderRemovedOnInterrupt(at("x"), dir);
  EXPECT_EQ(ec, interruptTableFull());
  EXPECT_NE(ec.message().find("too many folders registered for removal on "
                              "interrupt"),
            std::string::npos);
  EXPECT_EQ(left(), std::vector<std::string>{});
  for (const std::string &p : taken)
    keepOnInterrupt(p);

  const std::string deep = at(std::string(PATH_MAX, 'd'));
  ec = createFolderRemovedOnInterrupt(deep, dir);
  EXPECT_EQ(ec, std::make_error_code(std::errc::filename_too_long));
  // The table is free again: a folder of a path that fits is made.
  ASSERT_FALSE(createFolderRemovedOnInterrupt(at("x"), dir));
  EXPECT_TRUE(fs::is_directory(dir));
  keepOnInterrupt(dir);
}

// Parents made for a new output path (StagedBundle::begin) go on an
// interrupt after the staging folder inside them, each only where empty: a
// file another process put in one keeps it and those above it.
TEST_F(InterruptCleanup, ParentsMadeForTheOutputGoWhereEmpty) {
  for (bool theirs : {false, true}) {
    const std::string top = at("p"), mid = top + "/q", deep = mid + "/r";
    EXPECT_EXIT(
        {
          if (!removeEmptyOnInterrupt(deep, top))
            std::exit(3);
          for (const std::string &d : {top, mid, deep})
            if (fs::create_directory(d))
              std::exit(5);
          if (theirs)
            std::ofstream(mid + "/theirs") << "{}";
          const std::string dir = freshFolder(deep + "/out.partial");
          std::atomic<bool> stop{false};
          std::atomic<int> made{0};
          std::thread writer(writeInto, dir, std::ref(stop), std::ref(made));
          waitFor(made, 500);
          raise(SIGINT);
          std::exit(4);
        },
        ::testing::KilledBySignal(SIGINT), "");
    if (!theirs) {
      EXPECT_EQ(left(), std::vector<std::string>{});
      continue;
    }
    EXPECT_EQ(left(), std::vector<std::string>{"p"});
    EXPECT_TRUE(fs::exists(mid + "/theirs"));
    EXPECT_FALSE(fs::exists(deep));
  }
}
