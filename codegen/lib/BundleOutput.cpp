//===- BundleOutput.cpp - writing a bundle where a user named it ----------===//
#include "kda/Codegen/BundleOutput.h"
#include "kda/Target/TargetInfo.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace mlir::kda;
namespace fs = llvm::sys::fs;
using llvm::StringRef;

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
  // output's folder before running the compile).
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; it != end && !ec;
       it.increment(ec)) {
    StringRef name = llvm::sys::path::filename(it->path());
    if (name == "manifest.json" ||
        (lookupTarget(name) && fs::is_directory(it->path())))
      continue;
    return ("holds " + name +
            ", which is not part of a bundle: only a bundle folder a kda "
            "tool wrote (manifest.json and target folders) is replaced; "
            "name a new folder")
        .str();
  }
  if (ec)
    return "cannot be listed: " + ec.message();
  return "";
}

std::string StagedBundle::begin(StringRef named) {
  if (std::string why = replaceableBundleOutput(named); !why.empty())
    return why;
  // Absolute: LLVM puts a unique name made from a relative model in the
  // temporary folder, not beside the output (where the rename must land).
  llvm::SmallString<256> absolute(named);
  if (std::error_code ec = fs::make_absolute(absolute))
    return "cannot make it an absolute path: " + ec.message();
  dir = absolute.str().str();
  if (StringRef parent = llvm::sys::path::parent_path(dir); !parent.empty())
    if (std::error_code ec = fs::create_directories(parent))
      return ("cannot create " + parent + ": " + ec.message()).str();
  // A fresh name beside the output: nothing of the user's is reused.
  if (std::error_code ec = fs::createUniqueDirectory(dir + ".partial", staging))
    return "cannot create a folder beside it: " + ec.message();
  return "";
}

std::string StagedBundle::commit() {
  // The earlier bundle is moved into a fresh folder of our own (no name
  // another process could take between choosing and using it), and removed
  // only once the new one is in place.
  llvm::SmallString<128> aside, old;
  const bool exists = fs::exists(dir);
  if (exists) {
    if (std::error_code ec = fs::createUniqueDirectory(dir + ".old", aside))
      return "cannot move the earlier bundle aside: " + ec.message();
    old = aside;
    llvm::sys::path::append(old, "bundle");
    if (std::error_code ec = fs::rename(dir, old)) {
      fs::remove(aside);
      return "cannot move the earlier bundle " + dir +
             " aside: " + ec.message();
    }
  }
  if (std::error_code ec = fs::rename(staging, dir)) {
    if (exists) {
      (void)fs::rename(old, dir);
      fs::remove(aside);
    }
    return "cannot move the bundle into " + dir + ": " + ec.message();
  }
  committed = true;
  if (exists)
    fs::remove_directories(aside);
  return "";
}

StagedBundle::~StagedBundle() {
  if (!committed && !staging.empty())
    fs::remove_directories(staging);
}
