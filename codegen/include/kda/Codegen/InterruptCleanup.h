//===- InterruptCleanup.h - what an interrupted tool leaves -----*- C++ -*-===//
//
// A kda tool stopped by an interrupt signal (SIGINT, SIGTERM, SIGHUP: LLVM's
// interrupt function) leaves nothing of its own: the folders it made and
// removes once done (a bundle's staging folder, the toolchain's scratch) are
// removed with what they hold, and a bundle it moved aside to replace it is
// put back. The handler runs on whichever thread takes the signal while the
// others go on; it takes that into account (InterruptCleanup.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef KDA_CODEGEN_INTERRUPTCLEANUP_H
#define KDA_CODEGEN_INTERRUPTCLEANUP_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"

#include <system_error>

namespace mlir::kda {

/// Held around each file-system change a tool makes in a registered folder
/// (a file written, folders made, a bundle moved into place, a child tool
/// run): the handler waits until no other thread holds one before it moves
/// and removes anything, and a thread that starts one after the handler
/// has begun waits for the process to end. So no thread recreates a folder
/// behind the handler or moves a bundle while it restores one. (The
/// handler's own thread, interrupted inside one, is not waited for.)
class FolderWrite {
public:
  FolderWrite();
  ~FolderWrite();
  FolderWrite(const FolderWrite &) = delete;
  FolderWrite &operator=(const FolderWrite &) = delete;
};

/// Makes a fresh folder `prefix`-XXXXXX (in the temporary folder where
/// `prefix` is relative, like llvm::sys::fs::createUniqueDirectory), removed
/// on interrupt from before it exists: registered under its name first, so
/// no moment between making and registering it is left uncovered. Its path
/// is in `path`; the caller removes it and calls keepOnInterrupt. Errors:
/// filename_too_long for a path the handler cannot hold, interruptTableFull
/// when every entry is taken, else create_directory's.
std::error_code
createFolderRemovedOnInterrupt(const llvm::Twine &prefix,
                               llvm::SmallVectorImpl<char> &path);
/// The longest absolute `prefix` createFolderRemovedOnInterrupt takes (its
/// unique name and that name's ".removing" twin within PATH_MAX): a caller
/// that makes folders before it can refuse a longer path first.
size_t longestFreshFolderPrefix();

/// Registers `dir` for removal on interrupt / forgets it (committed, or
/// removed by the tool itself). At most a few at once (kInterruptEntries):
/// false, and nothing registered, when the table is full or the path too
/// long.
bool removeOnInterrupt(llvm::StringRef dir);

/// While registered, an interrupt removes the folder `deepest` and its
/// parents up to `top` (a prefix of it), after every other entry, each only
/// where empty: parents made for a new output path, which another process
/// may have used since. False, and nothing registered, as removeOnInterrupt.
bool removeEmptyOnInterrupt(llvm::StringRef deepest, llvm::StringRef top);
void forgetEmpty(llvm::StringRef deepest);

/// createFolderRemovedOnInterrupt's error when every entry is taken (its
/// message says so, not "Too many open files").
std::error_code interruptTableFull();
void keepOnInterrupt(llvm::StringRef dir);

/// While registered, an interrupt renames `from` back to `to` before it
/// removes anything: a bundle moved aside to be replaced goes back where it
/// was unless `to` already holds the new one (a rename onto a folder that
/// is not empty fails). Register before the move; forget once the move is
/// final.
bool restoreOnInterrupt(llvm::StringRef from, llvm::StringRef to);
void forgetRestore(llvm::StringRef from);

} // namespace mlir::kda

#endif // KDA_CODEGEN_INTERRUPTCLEANUP_H
