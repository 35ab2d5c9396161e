//===- EditedBundles.h - copies of test bundles with edited manifests -----===//
//
// Shared by the tests that show the runtime refusing a bundle at open: a
// copy of a compiled bundle (code objects too) whose manifest kernels an
// edit changed, removed when the test ends.
//
//===----------------------------------------------------------------------===//
#ifndef KDA_TEST_EDITEDBUNDLES_H
#define KDA_TEST_EDITEDBUNDLES_H

#include "kda/kda_runtime.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <unistd.h>
#include <vector>

namespace kda::test {

inline std::string numericBundleDir(const std::string &name) {
  return std::string(KDA_NUMERIC_BUNDLES_DIR) + "/" + name;
}

class EditedBundles : public ::testing::Test {
protected:
  using json = nlohmann::json;
  void TearDown() override {
    for (const std::filesystem::path &d : made)
      std::filesystem::remove_all(d);
  }

  /// A copy of bundle `name` (code objects too) whose manifest kernels
  /// `edit` changed, written with `indent` (-1: on one line, for deeply
  /// nested edits whose indentation would grow with the square of depth).
  std::string edited(const std::string &name,
                     const std::function<void(json &kernel)> &edit,
                     int indent = 2) {
    namespace fs = std::filesystem;
    fs::path dst = fs::temp_directory_path() /
                   ("kda-edited-" + std::to_string(getpid()) + "-" +
                    std::to_string(made.size()));
    fs::remove_all(dst);
    fs::copy(numericBundleDir(name), dst, fs::copy_options::recursive);
    made.push_back(dst);
    json m;
    std::ifstream(dst / "manifest.json") >> m;
    for (json &k : m.at("kernels"))
      edit(k);
    std::ofstream(dst / "manifest.json") << m.dump(indent);
    return dst.string();
  }

  /// Opening must fail with KDA_ERROR_BAD_BUNDLE and a message holding
  /// every one of `parts`; no bundle comes back.
  void expectRefused(const std::string &dir,
                     std::initializer_list<std::string> parts) {
    kda_bundle *bundle = reinterpret_cast<kda_bundle *>(this);
    EXPECT_EQ(kda_bundle_open(dir.c_str(), KDA_BACKEND_EMU, &bundle),
              KDA_ERROR_BAD_BUNDLE);
    EXPECT_EQ(bundle, nullptr);
    const std::string message = kda_last_error();
    for (const std::string &p : parts)
      EXPECT_NE(message.find(p), std::string::npos)
          << "'" << p << "' not in: " << message;
  }

  std::vector<std::filesystem::path> made;
};

} // namespace kda::test

#endif // KDA_TEST_EDITEDBUNDLES_H
