//===- BundleOutput.h - writing a bundle where a user named it --*- C++ -*-===//
//
// A bundle folder is written whole or not at all: its files go into a fresh
// folder beside the one named, which replaces the named one only when the
// bundle is complete (an earlier bundle there is moved aside, and put back
// if the move fails). Only a folder a kda tool wrote may be replaced: any
// other may hold the user's files.
//
//===----------------------------------------------------------------------===//
#ifndef KDA_CODEGEN_BUNDLEOUTPUT_H
#define KDA_CODEGEN_BUNDLEOUTPUT_H

#include "kda/Codegen/InterruptCleanup.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace mlir::kda {

/// Why `dir` may not be replaced by a bundle, or "" when it may: it must not
/// exist, be empty, or be a bundle a kda tool wrote (a real folder, not a
/// link, holding at most manifest.json and target folders).
std::string replaceableBundleOutput(llvm::StringRef dir);

/// A bundle being written for `dir`: files go to stagingDir(); commit()
/// puts it at `dir`. Destroyed uncommitted, the staging folder is removed.
class StagedBundle {
public:
  /// Checks `dir` (trailing separators and "." components dropped) with
  /// replaceableBundleOutput, creates its parent folders and a fresh
  /// staging folder beside it (removed if the tool is interrupted: see
  /// InterruptCleanup.h). Empty on success, else why.
  std::string begin(llvm::StringRef dir);
  llvm::StringRef stagingDir() const { return staging; }
  /// Moves the staged bundle to the named folder. Empty on success, else
  /// why (the earlier bundle, if any, is then where it was).
  std::string commit();
  ~StagedBundle();

private:
  std::string dir;
  llvm::SmallString<128> staging;
  /// Parent folders begin() created, innermost first: removed again (where
  /// still empty) when the bundle is not committed.
  std::vector<std::string> createdParents;
  bool committed = false;
};

} // namespace mlir::kda

#endif // KDA_CODEGEN_BUNDLEOUTPUT_H
