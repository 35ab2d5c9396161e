//===- BundleOutput.cpp - writing a bundle where a user named it ----------===//
#include "kda/Codegen/BundleOutput.h"
#include "kda/Codegen/ConfigTable.h"
#include "kda/Codegen/InterruptCleanup.h"
#include "kda/Target/TargetInfo.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"

#include <system_error>

using namespace mlir::kda;
namespace fs = llvm::sys::fs;
using llvm::StringRef;

static std::string notABundle(StringRef what) {
  return (what + ", which is not part of a bundle: only a bundle folder a "
                 "kda tool wrote (its manifest.json and target folders of "
                 "kda_kernels files) is replaced; name a new folder")
      .str();
}

/// Whether `path` holds only regular files named kda_kernels.* (what
/// kda-compile writes in a target folder), and, where `batches`, folders
/// batch<N> holding only such files (kda-tune's candidates); else the
/// first other entry, relative to the bundle, in `other`.
static bool onlyKernelFiles(StringRef path, StringRef rel, bool batches,
                            std::string &other) {
  std::error_code ec;
  for (fs::directory_iterator it(path, ec), end; it != end && !ec;
       it.increment(ec)) {
    StringRef file = llvm::sys::path::filename(it->path());
    const std::string here = (rel + "/" + file).str();
    fs::file_status st;
    if (fs::status(it->path(), st, /*follow=*/false)) {
      other = here;
      return false;
    }
    unsigned batch = 0;
    if (batches && fs::is_directory(st) && file.consume_front("batch") &&
        !file.getAsInteger(10, batch)) {
      if (!onlyKernelFiles(it->path(), here, /*batches=*/false, other))
        return false;
      continue;
    }
    if (llvm::sys::path::stem(file) != "kda_kernels" ||
        !fs::is_regular_file(st)) {
      other = here;
      return false;
    }
  }
  if (ec)
    other = (rel + " (cannot be listed: " + ec.message() + ")").str();
  return !ec;
}

/// Why `path` (an entry `name` of the output folder) is not a target folder
/// a kda tool wrote: a real folder named after a target holding only what
/// onlyKernelFiles accepts; or "".
static std::string notTargetFolder(StringRef path, StringRef name) {
  fs::file_status st;
  if (!lookupTarget(name) || fs::status(path, st, /*follow=*/false) ||
      !fs::is_directory(st))
    return notABundle("holds " + name.str());
  std::string other;
  if (!onlyKernelFiles(path, name, /*batches=*/true, other))
    return notABundle("holds " + other);
  return "";
}

/// Why the folder's manifest.json does not show a bundle a kda tool wrote
/// (a regular file, a JSON object whose "generator" is kda-compile or
/// kda-tune), or "".
static std::string notWrittenByKda(StringRef dir) {
  llvm::SmallString<256> path(dir);
  llvm::sys::path::append(path, "manifest.json");
  fs::file_status st;
  if (fs::status(path, st, /*follow=*/false))
    return notABundle("has no manifest.json but other entries");
  if (!fs::is_regular_file(st))
    return notABundle("holds a manifest.json that is not a regular file");
  llvm::json::Value parsed(nullptr);
  std::string error;
  if (!readJsonFile(path, parsed, error))
    return notABundle("holds a manifest.json no kda tool wrote (" + error +
                      ")");
  const llvm::json::Object *top = parsed.getAsObject();
  std::optional<StringRef> generator =
      top ? top->getString("generator") : std::nullopt;
  if (!generator || (*generator != "kda-compile" && *generator != "kda-tune"))
    return notABundle("holds a manifest.json no kda tool wrote (its "
                      "\"generator\" is not kda-compile or kda-tune)");
  return "";
}

std::string mlir::kda::replaceableBundleOutput(StringRef dir) {
  if (dir.empty())
    return "no folder named";
  fs::file_status st;
  if (fs::status(dir, st, /*follow=*/false))
    return ""; // does not exist
  if (fs::is_symlink_file(st))
    return "is a symbolic link; only a bundle folder a kda tool wrote is "
           "replaced";
  if (!fs::is_directory(st))
    return "exists and is not a folder";
  // Replacing moves the folder aside, which the system refuses for the
  // current folder (or one holding it) only after the whole compile.
  llvm::SmallString<256> cwd, named;
  if (!fs::real_path(".", cwd) && !fs::real_path(dir, named) &&
      (cwd == named || StringRef(cwd).starts_with(
                           (named + llvm::sys::path::get_separator()).str())))
    return "is the current folder or holds it; name a folder outside it";
  // An empty folder holds nothing to lose (a build system makes the
  // output's folder before running the compile). Anything else must be a
  // bundle a kda tool wrote, judged by what is inside it, not by names
  // alone: a folder of results with a gfx942/ subfolder, or the input's own
  // folder, is not one.
  std::error_code ec;
  bool empty = true;
  for (fs::directory_iterator it(dir, ec), end; it != end && !ec;
       it.increment(ec)) {
    empty = false;
    StringRef name = llvm::sys::path::filename(it->path());
    if (name == "manifest.json")
      continue;
    if (std::string why = notTargetFolder(it->path(), name); !why.empty())
      return why;
  }
  if (ec)
    return "cannot be listed: " + ec.message();
  if (empty)
    return "";
  return notWrittenByKda(dir);
}

std::string StagedBundle::begin(StringRef given) {
  // "out/" and "out/." name out: LLVM's path functions read the trailing
  // separator as a "." component, and the staging folder and the move aside
  // then went inside the folder ("Invalid argument" after the compile).
  llvm::SmallString<256> named(given);
  llvm::sys::path::remove_dots(named, /*remove_dot_dot=*/false);
  while (named.size() > 1 && llvm::sys::path::is_separator(named.back()))
    named.pop_back();
  if (std::string why = replaceableBundleOutput(named); !why.empty())
    return why;
  // Absolute: LLVM puts a unique name made from a relative model in the
  // temporary folder, not beside the output (where the rename must land).
  llvm::SmallString<256> absolute(named);
  if (std::error_code ec = fs::make_absolute(absolute))
    return "cannot make it an absolute path: " + ec.message();
  dir = absolute.str().str();
  // The staging folder's name must fit the interrupt handler's table
  // (InterruptCleanup.h): refused before any parent is made.
  constexpr llvm::StringLiteral kStaging = ".partial";
  const size_t longest = longestFreshFolderPrefix() - kStaging.size();
  if (dir.size() > longest)
    return "cannot create a folder beside it: " +
           std::make_error_code(std::errc::filename_too_long).message() +
           " (the path is " + std::to_string(dir.size()) + " bytes; at most " +
           std::to_string(longest) + ")";
  const std::string stagingPrefix = dir + kStaging.str();
  // Parents that do not exist yet are made, and remembered so that a
  // compile that fails leaves none of them behind.
  // An interrupt removes them too, where empty (registered before they are
  // made, as the staging folder).
  for (StringRef p = llvm::sys::path::parent_path(dir);
       !p.empty() && !fs::exists(p); p = llvm::sys::path::parent_path(p))
    createdParents.push_back(p.str());
  if (!createdParents.empty()) {
    FolderWrite making;
    if (!removeEmptyOnInterrupt(createdParents.front(),
                                createdParents.back())) {
      createdParents.clear();
      return "cannot create its folder: too many folders registered for "
             "removal on interrupt";
    }
    for (auto it = createdParents.rbegin(); it != createdParents.rend(); ++it)
      if (std::error_code ec = fs::create_directory(*it))
        return "cannot create " + *it + ": " + ec.message();
  }
  // A fresh name beside the output: nothing of the user's is reused.
  if (std::error_code ec =
          createFolderRemovedOnInterrupt(stagingPrefix, staging))
    return "cannot create a folder beside it: " + ec.message();
  return "";
}

std::string StagedBundle::commit() {
  // The earlier bundle is moved into a fresh folder of our own (no name
  // another process could take between choosing and using it), and removed
  // only once the new one is in place. An interrupt until then puts it back
  // (InterruptCleanup.h): registered before each move it undoes, and the
  // moves as one FolderWrite, so the handler runs before or after them.
  FolderWrite moving;
  llvm::SmallString<128> aside, old;
  const bool exists = fs::exists(dir);
  auto forgetAside = [&] {
    forgetRestore(old);
    keepOnInterrupt(aside);
  };
  if (exists) {
    if (std::error_code ec =
            createFolderRemovedOnInterrupt(dir + ".old", aside))
      return "cannot move the earlier bundle aside: " + ec.message();
    old = aside;
    llvm::sys::path::append(old, "bundle");
    if (!restoreOnInterrupt(old, dir)) {
      fs::remove(aside);
      forgetAside();
      return "cannot move the earlier bundle aside: too many folders to "
             "restore on interrupt";
    }
    if (std::error_code ec = fs::rename(dir, old)) {
      fs::remove(aside);
      forgetAside();
      return "cannot move the earlier bundle " + dir +
             " aside: " + ec.message();
    }
  }
  if (std::error_code ec = fs::rename(staging, dir)) {
    std::string why =
        "cannot move the bundle into " + dir + ": " + ec.message();
    if (exists) {
      // Removed only once it is back: else the earlier bundle is all the
      // user has, and stays where it was moved (named in the error).
      if (!fs::rename(old, dir))
        fs::remove(aside);
      else
        why += "; the earlier bundle is in " + std::string(old);
      forgetAside();
    }
    return why;
  }
  committed = true;
  keepOnInterrupt(staging); // the name is gone: moved into place
  if (!createdParents.empty())
    forgetEmpty(createdParents.front());
  if (exists) {
    fs::remove_directories(aside);
    forgetAside();
  }
  return "";
}

StagedBundle::~StagedBundle() {
  if (committed)
    return;
  if (!staging.empty()) {
    fs::remove_directories(staging);
    keepOnInterrupt(staging);
  }
  for (const std::string &p : createdParents)
    (void)fs::remove(p); // only where empty: nothing else was put there
  if (!createdParents.empty())
    forgetEmpty(createdParents.front());
}
