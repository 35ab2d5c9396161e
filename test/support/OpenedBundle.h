//===- OpenedBundle.h - a bundle a test opened, closed on scope exit -----===//
//
// The one way the numeric tests hold a bundle: opened on the emulator for a
// target (kda_bundle_open_target), closed when the holder goes out of scope,
// with the status and the runtime's message kept for the test's own
// assertion (this header knows no test framework: kda-bench builds the
// support library too).
//
//===----------------------------------------------------------------------===//
#ifndef KDA_TEST_SUPPORT_OPENEDBUNDLE_H
#define KDA_TEST_SUPPORT_OPENEDBUNDLE_H

#include "kda/kda_runtime.h"

#include <string>

namespace kda::test {

class OpenedBundle {
public:
  OpenedBundle() = default;
  /// Opens `dir` for `target` (null: the manifest's first emulator target).
  OpenedBundle(const std::string &dir, const char *target) {
    open(dir, target);
  }
  OpenedBundle(const OpenedBundle &) = delete;
  OpenedBundle &operator=(const OpenedBundle &) = delete;
  ~OpenedBundle() { kda_bundle_close(bundle); }

  /// (Re)opens; `status` and `error` say how it went.
  kda_status open(const std::string &dir, const char *target) {
    kda_bundle_close(bundle);
    bundle = nullptr;
    kernel = nullptr;
    return keep(
        kda_bundle_open_target(dir.c_str(), KDA_BACKEND_EMU, target, &bundle));
  }
  /// The kernel `name`, also kept as `kernel`; null with `error` set if the
  /// bundle has none of that name.
  const kda_kernel *find(const std::string &name) {
    kernel = nullptr;
    keep(kda_bundle_find(bundle, name.c_str(), &kernel));
    return kernel;
  }

  kda_bundle *bundle = nullptr;
  const kda_kernel *kernel = nullptr;
  kda_status status = KDA_OK;
  std::string error; // kda_last_error() of the last failed call
private:
  kda_status keep(kda_status s) {
    status = s;
    error = s == KDA_OK ? "" : kda_last_error();
    return s;
  }
};

} // namespace kda::test

#endif // KDA_TEST_SUPPORT_OPENEDBUNDLE_H
