//===- AbiTest.cpp - one kernel ABI: packing by name, plans, workspace ----===//
//
// The argument order of a kernel lives in its ABI alone (kda.abi, written to
// the manifest's "args"): kernels compiled with their ABI reversed (the
// hidden --kda-test-reverse-abi) give oracle-correct results through both
// kda_launch_recurrent and kda_launch_named. Manifests naming arguments the
// runtime does not know, lacking ones it needs or disagreeing on types and
// roles are refused at open with the argument's and kernel's names; named
// launches with unknown, duplicate or missing names are refused with nothing
// written. Workspace sizes follow the manifest's formula and are enforced; a
// launch plan strings two kernels together on one state pool.
//
//===----------------------------------------------------------------------===//
#include "EditedBundles.h"
#include "Harness.h"
#include "Manifest.h"
#include "OpenedBundle.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>

using namespace kda;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

std::string bundleDir(const std::string &name) {
  return test::numericBundleDir(name);
}

using Opened = test::OpenedBundle;

/// The batch shapes of these tests: decodes and short prefills, a padding
/// row, sequences with and without initial state.
const test::BatchShape kMixed{{1, 3, 1, 4, 2}, {3, 1, 0, 6, 8}, {1, 0, 1, 1, 1}};
constexpr int64_t kSlots = 10;

void expectOracle(test::Harness &h, const test::KernelLayer &layer,
                  const std::string &what) {
  test::CaseResult r = h.check();
  EXPECT_TRUE(r.finite) << what << ": NaN or inf";
  EXPECT_LE(r.outErr, test::kOutputErrorBar) << what << ": outputs";
  EXPECT_LE(r.stateErr, test::stateErrorBar(layer.state)) << what << ": states";
  EXPECT_TRUE(r.paddingZero) << what << ": padding rows not zero";
  EXPECT_TRUE(r.untouchedIdentical) << what << ": untouched slots changed";
}

/// The batch's pointers by name, deliberately in neither the builder's
/// order nor its reverse.
std::vector<kda_arg> namedArgs(const kda_batch &b) {
  auto p = [](const void *x) { return const_cast<void *>(x); };
  return {{"state", b.state},      {"g", p(b.g)},
          {"q", p(b.q)},           {"cu_seqlens", p(b.cu_seqlens)},
          {"out", b.out},          {"beta", p(b.beta)},
          {"a_log", p(b.a_log)},   {"has_initial_state", p(b.has_initial_state)},
          {"v", p(b.v)},           {"slots", p(b.slots)},
          {"dt_bias", p(b.dt_bias)}, {"k", p(b.k)}};
}

std::vector<std::string> argNames(const std::string &dir,
                                  const std::string &kernel,
                                  const std::string &target) {
  manifest::Manifest m;
  std::string error;
  EXPECT_TRUE(manifest::readManifest(dir, m, error)) << error;
  std::vector<std::string> names;
  if (const manifest::Kernel *k = m.find(kernel, target))
    for (const manifest::Arg &a : k->args)
      names.push_back(a.name);
  return names;
}

//===----------------------------------------------------------------------===//
// Kernels whose ABI is reversed launch correctly
//===----------------------------------------------------------------------===//

struct ReversedCase {
  const char *spec, *target;
};
void PrintTo(const ReversedCase &c, std::ostream *os) {
  *os << c.spec << "/" << c.target;
}

class ReversedAbi : public ::testing::TestWithParam<ReversedCase> {};

TEST_P(ReversedAbi, ManifestOrderIsTheKernelsAndLaunchesMatchTheOracle) {
  const ReversedCase &c = GetParam();
  const std::string dir = bundleDir(std::string(c.spec) + "_reversed");
  // The bundle really is reversed: the same names, the other way round.
  std::vector<std::string> normal = argNames(bundleDir(c.spec), c.spec, c.target);
  std::vector<std::string> reversed = argNames(dir, c.spec, c.target);
  ASSERT_EQ(normal.size(), 12u);
  ASSERT_EQ(normal.front(), "q");
  std::reverse(normal.begin(), normal.end());
  ASSERT_EQ(reversed, normal);

  Opened o(dir, c.target);
  ASSERT_EQ(o.status, KDA_OK) << o.error;
  const kda_kernel *kernel = o.find(c.spec);
  ASSERT_NE(kernel, nullptr) << o.error;
  test::HostMemory mem;
  const test::KernelLayer layer = test::readKernelLayer(dir, c.spec, c.target);

  test::Harness h(layer, mem);
  h.prepare(kMixed, kSlots, 11);
  kda_batch b = h.batch();
  ASSERT_EQ(kda_launch_recurrent(kernel, &b, nullptr), KDA_OK)
      << kda_last_error();
  expectOracle(h, layer, "kda_launch_recurrent");

  h.prepare(kMixed, kSlots, 12);
  b = h.batch();
  std::vector<kda_arg> args = namedArgs(b);
  ASSERT_EQ(kda_launch_named(kernel, args.data(), int32_t(args.size()),
                             b.num_seqs, nullptr),
            KDA_OK)
      << kda_last_error();
  expectOracle(h, layer, "kda_launch_named");
}

INSTANTIATE_TEST_SUITE_P(
    Bundles, ReversedAbi,
    ::testing::Values(ReversedCase{"k3_small", "emu"},
                      ReversedCase{"k3_small", "emu32"},
                      ReversedCase{"linear_lds3", "emu"},
                      ReversedCase{"linear_lds3", "emu950"},
                      ReversedCase{"linear_lds3", "emu32"}),
    [](const auto &info) {
      return std::string(info.param.spec) + "_" + info.param.target;
    });

//===----------------------------------------------------------------------===//
// Manifests the runtime refuses at open
//===----------------------------------------------------------------------===//

class EditedBundles : public test::EditedBundles {
protected:
  static json *arg(json &kernel, const std::string &name) {
    for (json &a : kernel.at("args"))
      if (a.at("name") == name)
        return &a;
    return nullptr;
  }
};

TEST_F(EditedBundles, UnknownArgumentIsRefusedByName) {
  std::string dir = edited("k3_small", [](json &k) {
    (*arg(k, "beta"))["name"] = "beta_typo";
  });
  expectRefused(dir, {"kernel 'k3_small'", "unknown argument 'beta_typo'"});
}

TEST_F(EditedBundles, MissingArgumentIsRefusedByName) {
  std::string dir = edited("k3_small", [](json &k) {
    json &args = k.at("args");
    args.erase(std::remove_if(args.begin(), args.end(),
                              [](const json &a) { return a["name"] == "slots"; }),
               args.end());
  });
  expectRefused(dir, {"kernel 'k3_small'", "missing argument 'slots'"});
}

TEST_F(EditedBundles, ArgumentOfAnotherTypeOrRoleIsRefused) {
  std::string dir = edited("k3_small", [](json &k) {
    (*arg(k, "state"))["dtype"] = "bf16";
  });
  expectRefused(dir, {"kernel 'k3_small'",
                      "argument 'state' has element type bf16 but the runtime "
                      "passes f32"});
  dir = edited("k3_small", [](json &k) { (*arg(k, "out"))["role"] = "input"; });
  expectRefused(dir, {"argument 'out' has role input", "as output"});
}

/// A chunk plan's scans are alternatives of stage 1, each of its own
/// column block, narrowest first; a manifest that breaks that is refused
/// when the bundle opens (chunk_k3: head_v 32, scans of 16 and 32 columns).
TEST_F(EditedBundles, ChunkScanAlternativesAreCheckedAtOpen) {
  auto scanV32 = [](json &k) {
    return test::withoutDigest(k.value("symbol", "").c_str()) ==
           "kda_chunk_k3_scan_v32_packed";
  };
  std::string dir = edited("chunk/chunk_k3", [&](json &k) {
    if (scanV32(k))
      k["grid"][0] = 3;
  });
  expectRefused(dir, {"kernel 'chunk_k3'", "grid x must be head_v / block_v"});
  dir = edited("chunk/chunk_k3", [&](json &k) {
    if (scanV32(k))
      k["config"]["block_v"] = 16, k["grid"][0] = 2;
  });
  expectRefused(dir, {"narrowest block first, each block distinct"});
  dir = edited("chunk/chunk_k3", [&](json &k) {
    if (scanV32(k))
      k["kind"] = "chunk_prep";
  });
  expectRefused(dir, {"stage 0 chunk_prep and stage 1 chunk_scan"});
  // A prep repeated as if an alternative: stage 0 has none.
  dir = edited("chunk/chunk_k3", [&](json &k) {
    if (scanV32(k))
      k["stage"] = 0;
  });
  expectRefused(dir, {"stage 0 of kernel 'chunk_k3' follows stage 1"});
  // The flag the planner prices a scan by is true or false, nothing else.
  dir = edited("chunk/chunk_k3", [&](json &k) {
    if (scanV32(k))
      k["config"]["self_staged"] = "yes";
  });
  expectRefused(dir, {"config.self_staged", "expected true or false"});
}

/// A chunk plan's split scan is stages 2, 3 and 4 (maps, join, segments),
/// each with the plan's segment_chunks and max_segments and the grid its
/// kernel indexes by; a manifest that breaks that is refused when the
/// bundle opens (chunk_split: head_k 64, head_v 32, 4 value heads, maps and
/// segments of 32 columns).
TEST_F(EditedBundles, SplitScanStagesAreCheckedAtOpen) {
  auto is = [](const json &k, const char *symbol) {
    return test::withoutDigest(k.value("symbol", "").c_str()) ==
           std::string(symbol) + "_packed";
  };
  const char *maps = "kda_chunk_split_maps_v32", *join = "kda_chunk_split_join",
             *segments = "kda_chunk_split_segments_v32";
  std::string dir = edited("chunk/chunk_split", [&](json &k) {
    if (is(k, maps))
      k["grid"][0] = 2; // (64 + 32) / 32 = 3 column blocks of [M | B]
  });
  expectRefused(dir, {"stage 2 of a split scan must be chunk_maps",
                      "(head_k + head_v) / block_v"});
  dir = edited("chunk/chunk_split", [&](json &k) {
    if (is(k, segments))
      k["config"]["segment_chunks"] = 3;
  });
  expectRefused(dir, {"stage 4 of a split scan must be chunk_segments",
                      "segment_chunks"});
  dir = edited("chunk/chunk_split", [&](json &k) {
    if (is(k, join))
      k["grid"][1] = 32; // value heads x max_segments: the maps' rows
  });
  expectRefused(dir, {"stage 3 of a split scan must be chunk_join"});
  dir = edited("chunk/chunk_split", [&](json &k) {
    if (is(k, maps))
      k["kind"] = "chunk_join";
  });
  expectRefused(dir, {"stage 2 of a split scan must be chunk_maps"});
}

/// A fresh copy of the numeric bundle `name` in the temporary folder,
/// named `prefix` and this process's id.
static std::filesystem::path copyOfBundle(const char *name,
                                          const char *prefix) {
  namespace fs = std::filesystem;
  const fs::path dir =
      fs::temp_directory_path() / (prefix + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::copy(test::numericBundleDir(name), dir, fs::copy_options::recursive);
  return dir;
}

/// A bundle closed, rewritten at the same path and opened again runs the
/// new code objects: the emulator's libraries close with their bundle
/// (before, dlopen handed back the old library, and the new bundle's
/// kernels were not found in it).
TEST(BundleReopen, SamePathLoadsTheNewCodeObjects) {
  namespace fs = std::filesystem;
  const fs::path dir = copyOfBundle("k3_small", "kda-reopen-");
  {
    Opened first(dir.string(), "emu");
    ASSERT_EQ(first.status, KDA_OK) << first.error;
    ASSERT_NE(first.find("k3_small"), nullptr);
  }
  fs::remove_all(dir);
  fs::copy(test::numericBundleDir("chunk/chunk_k3"), dir,
           fs::copy_options::recursive);
  {
    Opened second(dir.string(), "emu");
    EXPECT_EQ(second.status, KDA_OK) << second.error;
    if (second.status == KDA_OK)
      EXPECT_NE(second.find("chunk_k3"), nullptr);
  }
  fs::remove_all(dir);
}

/// The same, with the first bundle still open: dlopen would hand back the
/// library loaded from that path, not the file there now, and the second
/// open ran the old code under the new manifest's entries.
TEST(BundleReopen, SamePathWhileOpenReadsTheFileThereNow) {
  namespace fs = std::filesystem;
  const fs::path dir = copyOfBundle("k3_small", "kda-reopen-open-");
  Opened first(dir.string(), "emu");
  ASSERT_EQ(first.status, KDA_OK) << first.error;
  ASSERT_NE(first.find("k3_small"), nullptr);
  // Another layer's object under the same name: its symbols are not the
  // manifest's, so the open must fail on the file there now.
  fs::copy_file(fs::path(test::numericBundleDir("chunk/chunk_k3")) / "emu" /
                    "kda_kernels.so",
                dir / "emu" / "kda_kernels.so",
                fs::copy_options::overwrite_existing);
  {
    // Its bytes are not the ones the manifest states.
    Opened second(dir.string(), "emu");
    EXPECT_EQ(second.status, KDA_ERROR_BAD_BUNDLE) << second.error;
    EXPECT_NE(second.error.find("code object emu/kda_kernels.so has digest"),
              std::string::npos)
        << second.error;
  }
  // The manifest stating the new file's digest: the open gets past it to
  // the symbols, which are the other layer's.
  {
    std::string bytes;
    {
      std::ifstream in(dir / "emu" / "kda_kernels.so", std::ios::binary);
      bytes.assign(std::istreambuf_iterator<char>(in), {});
    }
    json m;
    std::ifstream(dir / "manifest.json") >> m;
    for (json &k : m["kernels"])
      if (k["file"] == "emu/kda_kernels.so")
        k["file_digest"] = manifest::fileDigest(bytes);
    std::ofstream(dir / "manifest.json") << m.dump(2);
  }
  {
    Opened second(dir.string(), "emu");
    EXPECT_EQ(second.status, KDA_ERROR_NOT_FOUND) << second.error;
    EXPECT_NE(second.error.find("no symbol kda_k3_small"), std::string::npos)
        << second.error;
    EXPECT_NE(second.error.find(dir.string()), std::string::npos)
        << "the message names the bundle's file: " << second.error;
  }
  fs::remove_all(dir);
}

TEST_F(EditedBundles, DuplicateArgumentIsRefused) {
  std::string dir = edited("k3_small", [](json &k) {
    (*arg(k, "k"))["name"] = "q";
  });
  expectRefused(dir, {"kernel 'k3_small'", "argument 'q' is named twice"});
}

TEST_F(EditedBundles, MalformedFieldsAreNamed) {
  std::string dir = edited("k3_small", [](json &k) {
    (*arg(k, "v"))["role"] = "sideways";
  });
  expectRefused(dir, {"kernel 'k3_small'", ".role: 'sideways' is not one of"});
  dir = edited("k3_small", [](json &k) { k["dynamic_lds_bytes"] = -4; });
  expectRefused(dir, {"kernel 'k3_small'", "dynamic_lds_bytes: -4 is outside"});
  dir = edited("k3_small", [](json &k) { k.erase("workspace"); });
  expectRefused(dir, {"kernel 'k3_small'", "workspace: missing"});
  dir = edited("k3_small", [](json &k) { k["grid"][2] = "num_tokens"; });
  expectRefused(dir, {"grid[2]", "neither a count nor \"num_seqs\""});
}

// Edits a review of the bundle reader found opened (and then crashed a
// launch, or ran a config the rules refuse): each is refused at open now,
// naming the field.
TEST_F(EditedBundles, RecurrentShapeConfigAndFilesAreCheckedAtOpen) {
  // The grid the runtime launches: value heads in y, one row per z.
  std::string dir = edited("k3_small", [](json &k) { k["grid"][1] = 4; });
  expectRefused(dir, {"grid[1]", "not the layer's value heads (2)"});
  dir = edited("k3_small", [](json &k) { k["grid"][2] = 3; });
  expectRefused(dir, {"grid[2]", "grid z is \"num_seqs\""});
  dir = edited("k3_small", [](json &k) { k["block"][1] = 2; });
  expectRefused(dir, {"block", "one-dimensional"});
  // The wave the code object was compiled for is its target's: the
  // emulator ran a wave-32 kernel as wave 64 when told so.
  dir = edited("k3_small", [](json &k) {
    k["wave_size"] = k["target"] == "emu32" ? 64 : 32;
  });
  expectRefused(dir, {"wave_size", "'s wave is"});
  // A config entry of another type was dropped and its default used.
  dir = edited("k3_small", [](json &k) { k["config"]["block_v"] = "32"; });
  expectRefused(dir, {"config.block_v", "expected an integer"});
  dir = edited("k3_small", [](json &k) { k["config"]["warps"] = 1.0; });
  expectRefused(dir, {"config.warps", "expected an integer"});
  // A count past 32 bits wrapped into an accepted one (2^32 + 1 -> 1); a
  // negative one was shown as 4294967295. Both are refused as written.
  dir =
      edited("k3_small", [](json &k) { k["config"]["warps"] = 4294967297LL; });
  expectRefused(dir, {"config.warps", "4294967297 is outside 0..2147483647"});
  dir = edited("k3_small", [](json &k) { k["config"]["block_v"] = -1; });
  expectRefused(dir, {"config.block_v", "-1 is outside 0..2147483647"});
  // An atom n past the wave (with lanes_k 0, so no earlier rule stops it)
  // divided by zero in the config's check: refused by the rule.
  dir = edited("k3_mma", [](json &k) {
    if (k["target"] == "emu32") {
      k["config"]["mma_n"] = 64;
      k["config"]["lanes_k"] = 0;
    }
  });
  expectRefused(dir, {"the atom's n (64) must divide the wave (32)"});
  // Without its limits, the config's check could not run.
  dir = edited("k3_small", [](json &k) {
    k.erase("limits");
    k["config"]["warps"] = 0;
  });
  expectRefused(dir, {"limits: missing"});
  // Code objects of the bundle only.
  dir = edited("k3_small", [](json &k) {
    k["file"] = "../k3_small/" + k["file"].get<std::string>();
  });
  expectRefused(dir, {"file", "leaves the bundle"});
  // A deep value is described, not dumped (its dump recursed per level).
  dir = edited(
      "k3_small",
      [](json &k) {
        json deep = json::array();
        for (int i = 0; i < 20000; ++i)
          deep = json::array({std::move(deep)});
        k["wave_size"] = std::move(deep);
      },
      /*indent=*/-1);
  expectRefused(dir, {"wave_size", "expected an integer, found an array of 1 "
                                   "entries"});
}

// Edits the reader took without a word: a misspelt optional field was
// skipped and its absence read as meant, a key written twice kept its second
// value, an unknown kind or operand was carried along, and a manifest that
// is a FIFO blocked the open for ever.
TEST_F(EditedBundles, FieldsKindsAndOperandsAreTheOnesKnown) {
  std::string dir =
      edited("k3_small", [](json &k) { k["limit"] = k["limits"]; });
  expectRefused(dir, {"kernel 'k3_small'", "limit: is not a field"});
  dir = edited("k3_small", [](json &k) { k["layer"]["gates"] = "none"; });
  expectRefused(dir, {"layer.gates: is not a field of 'layer'"});
  dir = edited("k3_small", [](json &k) { k["kind"] = "recurent"; });
  expectRefused(dir, {"kind: 'recurent' is not one of recurrent"});
  // Operands: known, once each, and the ones the gate reads.
  dir = edited("k3_small", [](json &k) { k["uses"].push_back("a_log"); });
  expectRefused(dir, {"uses[2]", "'a_log' is listed twice"});
  dir = edited("k3_small", [](json &k) { k["uses"].push_back("beta"); });
  expectRefused(dir, {"uses[2]", "'beta' is not one of a_log, dt_bias"});
  dir = edited("linear_lds3", [](json &k) { k["uses"] = {"dt_bias"}; });
  expectRefused(dir, {"the softplus gate reads a_log"});
  dir = edited("none_f16", [](json &k) { k["uses"] = {"dt_bias"}; });
  expectRefused(dir, {"gate 'none' takes no a_log or dt_bias"});
  // The layer as the dialect states it.
  dir = edited("k3_small", [](json &k) { k["layer"]["lower_bound"] = 0.5; });
  expectRefused(dir, {"layer.lower_bound", "not a negative bound"});
  dir = edited("none_f16", [](json &k) { k["layer"]["lower_bound"] = -5; });
  expectRefused(dir, {"only the lower_bound gate takes a bound"});
  dir = edited("k3_small", [](json &k) { k["layer"]["scale"] = 0; });
  expectRefused(dir, {"layer.scale", "not positive"});
  dir = edited("k3_small", [](json &k) { k["layer"]["state"] = "bf16"; });
  expectRefused(dir, {"layer.state", "is not dtypes.state ('f32')"});
}

TEST_F(EditedBundles, ManifestTextIsOneRegularFileWithEachKeyOnce) {
  namespace fs = std::filesystem;
  // A key twice in one object: the reader would keep the second.
  std::string dir = edited("k3_small", [](json &) {});
  const fs::path manifest = fs::path(dir) / "manifest.json";
  std::string text;
  {
    std::ifstream in(manifest);
    std::stringstream ss;
    ss << in.rdbuf();
    text = ss.str();
  }
  const size_t kind = text.find("\"kind\":");
  ASSERT_NE(kind, std::string::npos);
  std::ofstream(manifest) << text.substr(0, kind) << "\"kind\": \"probe\", "
                          << text.substr(kind);
  expectRefused(dir, {"key \"kind\" appears twice in one object"});
  // Top-level fields are known too.
  dir = edited("k3_small", [](json &) {});
  {
    json m;
    std::ifstream(fs::path(dir) / "manifest.json") >> m;
    m["planer"] = m.value("planner", json::object());
    std::ofstream(fs::path(dir) / "manifest.json") << m.dump(2);
  }
  expectRefused(dir, {"planer: is not a field"});
  // A FIFO in the manifest's place blocked kda_bundle_open for ever.
  dir = edited("k3_small", [](json &) {});
  fs::remove(fs::path(dir) / "manifest.json");
  ASSERT_EQ(mkfifo((fs::path(dir) / "manifest.json").c_str(), 0600), 0);
  expectRefused(dir, {"manifest.json: not a regular file"});
  // A code object likewise (the loaders would block on it).
  std::string file;
  dir = edited("k3_small", [&](json &k) {
    if (k["target"] == "emu")
      file = k["file"].get<std::string>();
  });
  ASSERT_FALSE(file.empty());
  fs::remove(fs::path(dir) / file);
  ASSERT_EQ(mkfifo((fs::path(dir) / file).c_str(), 0600), 0);
  expectRefused(dir, {"kernel 'k3_small'", file + ": not a regular file"});
}

// The emulator's code objects: a truncated one crashed inside dlopen (its
// segments are mapped past the file's end), and a symbol of one of the
// object's dependencies ("abort", in libc) was launched as a kernel.
TEST_F(EditedBundles, EmulatorCodeObjectsAreWholeAndTheirOwnSymbols) {
  std::string file;
  std::string dir = edited("k3_small", [&](json &k) {
    if (k["target"] == "emu")
      file = k["file"].get<std::string>();
  });
  ASSERT_FALSE(file.empty());
  const std::filesystem::path object = std::filesystem::path(dir) / file;
  std::filesystem::resize_file(object, std::filesystem::file_size(object) / 3);
  expectRefused(dir, {"kernel 'k3_small'", "code object " + file,
                      "but its manifest entry states"});
  // A truncated object whose entries state its digest (a manifest written
  // for it): the loader's own check still refuses it.
  std::string cut;
  {
    std::ifstream in(object, std::ios::binary);
    cut.assign(std::istreambuf_iterator<char>(in), {});
  }
  const std::string digest = manifest::fileDigest(cut);
  dir = edited("k3_small", [&](json &k) {
    if (k["file"] == file)
      k["file_digest"] = digest;
  });
  std::filesystem::copy_file(object, std::filesystem::path(dir) / file,
                             std::filesystem::copy_options::overwrite_existing);
  expectRefused(dir, {"kernel 'k3_small'", "is truncated"});

  dir = edited("k3_small", [](json &k) { k["symbol"] = "abort"; });
  kda_bundle *bundle = nullptr;
  EXPECT_EQ(kda_bundle_open(dir.c_str(), KDA_BACKEND_EMU, &bundle),
            KDA_ERROR_NOT_FOUND);
  EXPECT_EQ(bundle, nullptr);
  EXPECT_NE(std::string(kda_last_error()).find("symbol abort is not defined"),
            std::string::npos)
      << kda_last_error();
}

// One edited program-header field of an emulator object made dlopen crash
// the process inside kda_bundle_open: each entry states its code object's
// digest, and the runtime loads only bytes that match it (read once: the
// loaders get those bytes, not the path again). A malformed digest is
// refused by name.
TEST_F(EditedBundles, CodeObjectsAreTheOnesTheManifestNames) {
  for (const char *target : {"emu", "emu32"}) {
    std::string file;
    std::string dir = edited("k3_small", [&](json &k) {
      if (k["target"] == target)
        file = k["file"].get<std::string>();
    });
    ASSERT_FALSE(file.empty());
    {
      std::fstream io(std::filesystem::path(dir) / file,
                      std::ios::binary | std::ios::in | std::ios::out);
      // e_phoff (bytes 32..39 of an ELF64 header) pointed elsewhere.
      io.seekp(33);
      io.put('\x7f');
    }
    kda_bundle *bundle = nullptr;
    EXPECT_EQ(
        kda_bundle_open_target(dir.c_str(), KDA_BACKEND_EMU, target, &bundle),
        KDA_ERROR_BAD_BUNDLE)
        << target;
    EXPECT_EQ(bundle, nullptr);
    const std::string error = kda_last_error();
    EXPECT_NE(error.find("code object " + file + " has digest"),
              std::string::npos)
        << error;
    EXPECT_NE(error.find("recompile the bundle"), std::string::npos) << error;
  }
  std::string dir = edited(
      "k3_small", [](json &k) { k["file_digest"] = "00000000000000000"; });
  expectRefused(dir, {"file_digest", "is not 16 lower-case hex digits"});
  dir = edited("k3_small", [](json &k) { k.erase("file_digest"); });
  expectRefused(dir, {"file_digest: missing"});
}

TEST_F(EditedBundles, WorkspaceWithoutItsArgumentIsRefused) {
  std::string dir = edited("k3_small", [](json &k) {
    k["workspace"]["per_seq"] = 256;
  });
  expectRefused(dir, {"kernel 'k3_small'", "no argument has role workspace"});
}

TEST(Manifest, OtherFormatsAndNonJsonAreRefused) {
  manifest::Manifest m;
  std::string error;
  EXPECT_FALSE(manifest::parseManifest(R"({"format": 1, "kernels": []})",
                                       "old/manifest.json", m, error));
  EXPECT_NE(
      error.find("old/manifest.json: format: this runtime reads format 3"),
      std::string::npos)
      << error;
  EXPECT_FALSE(manifest::parseManifest("{\"format\": 2,", "cut/manifest.json",
                                       m, error));
  EXPECT_NE(error.find("cut/manifest.json: not JSON"), std::string::npos)
      << error;
  EXPECT_TRUE(manifest::parseManifest(R"({"format": 3, "kernels": []})",
                                      "empty/manifest.json", m, error))
      << error;
  EXPECT_TRUE(m.kernels.empty());
}

TEST(Manifest, RepeatedKeyIsFoundForOtherReaders) {
  EXPECT_EQ(manifest::repeatedJsonKey(R"({"a": {"b": 1, "c": 2}, "d": [1]})"),
            "");
  EXPECT_EQ(manifest::repeatedJsonKey(R"({"a": [{"b": 1, "b": 2}]})"),
            "key \"b\" appears twice in one object (at depth 3)");
  EXPECT_EQ(manifest::repeatedJsonKey("{\"a\": "), ""); // no JSON: not ours
}

TEST(BundleOpen, EmptyPathIsRefusedNotReadAsTheRoot) {
  kda_bundle *bundle = reinterpret_cast<kda_bundle *>(1);
  EXPECT_EQ(kda_bundle_open("", KDA_BACKEND_EMU, &bundle),
            KDA_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(bundle, nullptr);
  EXPECT_NE(std::string(kda_last_error()).find("empty bundle path"),
            std::string::npos)
      << kda_last_error();
}

//===----------------------------------------------------------------------===//
// Workspace: sized by the manifest's formula, enforced at launch
//===----------------------------------------------------------------------===//

//===----------------------------------------------------------------------===//
// Binding: an entry runs only with the code object compiled from it
//===----------------------------------------------------------------------===//

/// The symbol kda-compile would have named for kernel entry `k` as edited.
std::string boundSymbol(const json &k) {
  manifest::Kernel read;
  std::string error;
  EXPECT_TRUE(manifest::parseKernelEntry(k.dump(), "edited", read, error))
      << error;
  const std::string stem = test::withoutDigest(read.symbol.c_str());
  const bool packed =
      stem.size() > 7 && stem.substr(stem.size() - 7) == "_packed";
  return (packed ? stem.substr(0, stem.size() - 7) : stem) +
         manifest::boundSymbolSuffix(read);
}

/// Edits that break no rule of the manifest but describe another kernel
/// than the one compiled: before the binding, the emulator ran the old
/// code object with the edited argument list, workspace or layer. Each is
/// refused at open, naming the symbol and the digest its entry has now;
/// re-naming the symbol after the edit names a function the code object
/// lacks.
TEST_F(EditedBundles, AnEntryRunsOnlyWithTheCodeCompiledFromIt) {
  Opened unedited(edited("k3_small", [](json &) {}), "emu");
  EXPECT_EQ(unedited.status, KDA_OK) << unedited.error;

  const std::initializer_list<std::string> unbound = {
      "kernel 'k3_small'", "does not carry its entry's digest",
      "recompile the bundle"};
  // A workspace argument and its formula, consistent with each other.
  std::string dir = edited("k3_small", [](json &k) {
    k["args"].push_back(
        {{"name", "scratch"}, {"dtype", "i8"}, {"role", "workspace"}});
    k["workspace"] = {{"fixed", 64}, {"per_token", 8}, {"per_seq", 16}};
  });
  expectRefused(dir, unbound);
  // The argument order (q and k are both bf16 inputs).
  dir = edited("k3_small",
               [](json &k) { std::swap(*arg(k, "q"), *arg(k, "k")); });
  expectRefused(dir, unbound);
  // The layer's math (another valid scale).
  dir = edited("k3_small", [](json &k) {
    k["layer"]["scale"] = 2 * k["layer"]["scale"].get<double>();
  });
  expectRefused(dir, unbound);
  // An edit whose symbol is renamed to match it: the code object has no
  // such function.
  std::string renamed;
  dir = edited("k3_small", [&](json &k) {
    if (k["target"] != "emu")
      return;
    k["layer"]["scale"] = 2 * k["layer"]["scale"].get<double>();
    renamed = boundSymbol(k);
    k["symbol"] = renamed;
  });
  kda_bundle *bundle = nullptr;
  EXPECT_EQ(kda_bundle_open(dir.c_str(), KDA_BACKEND_EMU, &bundle),
            KDA_ERROR_NOT_FOUND);
  EXPECT_EQ(bundle, nullptr);
  EXPECT_NE(std::string(kda_last_error()).find("no symbol " + renamed),
            std::string::npos)
      << kda_last_error();
  // Two stages' symbols swapped: each entry names the other's code.
  std::string prep, scan;
  edited("chunk/chunk_k3", [&](json &k) {
    if (k["target"] != "emu")
      return;
    if (k["kind"] == "chunk_prep")
      prep = k["symbol"];
    else if (scan.empty() && k["kind"] == "chunk_scan")
      scan = k["symbol"];
  });
  ASSERT_FALSE(prep.empty() || scan.empty());
  dir = edited("chunk/chunk_k3", [&](json &k) {
    if (k["symbol"] == prep)
      k["symbol"] = scan;
    else if (k["symbol"] == scan)
      k["symbol"] = prep;
  });
  expectRefused(dir,
                {"kernel 'chunk_k3'", "does not carry its entry's digest"});
}

/// The digest covers every field the runtime launches by, and no field it
/// does not: each edit below of a compiled entry changes it (a field left
/// out would let that edit run the old code), and the symbol, the file, the
/// figures and the variant's provenance leave it as it was.
TEST(Manifest, TheDigestCoversEveryLaunchField) {
  json m;
  std::ifstream(bundleDir("chunk/chunk_k3") + "/manifest.json") >> m;
  const json entry = m.at("kernels").at(0);
  auto digest = [](const json &k) {
    manifest::Kernel read;
    std::string error;
    EXPECT_TRUE(manifest::parseKernelEntry(k.dump(), "entry", read, error))
        << error << " in " << k.dump();
    return manifest::entryDigest(read);
  };
  const std::string base = digest(entry);
  ASSERT_EQ(base.size(), 16u);
  const std::vector<std::pair<const char *, std::function<void(json &)>>>
      launchFields = {
          {"name", [](json &k) { k["name"] = "chunk_k4"; }},
          {"kind", [](json &k) { k["kind"] = "probe"; }},
          {"target",
           [](json &k) {
             k["target"] = "emu32";
             k["wave_size"] = 32;
           }},
          {"block",
           [](json &k) { k["block"][0] = 2 * k["block"][0].get<int>(); }},
          {"grid", [](json &k) { k["grid"][0] = 7; }},
          {"stage", [](json &k) { k["stage"] = 1; }},
          {"args order",
           [](json &k) { std::swap(k["args"][0], k["args"][1]); }},
          {"arg dtype", [](json &k) { k["args"][0]["dtype"] = "f16"; }},
          {"arg role", [](json &k) { k["args"][0]["role"] = "inout"; }},
          {"dynamic_lds_bytes", [](json &k) { k["dynamic_lds_bytes"] = 16; }},
          {"workspace", [](json &k) { k["workspace"]["per_seq"] = 4; }},
          {"uses", [](json &k) { k["uses"] = json::array({"a_log"}); }},
          {"config", [](json &k) { k["config"]["chunk_size"] = 32; }},
          {"limits",
           [](json &k) {
             k["limits"] = {{"max_workgroup_size", 1024},
                            {"static_lds_bytes", 1}};
           }},
          {"variant",
           [](json &k) {
             k["variant"] = {{"of", "x"}, {"n_min", 1}, {"n_max", 2}};
           }},
          {"layer.scale",
           [](json &k) {
             k["layer"]["scale"] =
                 std::nextafter(k["layer"]["scale"].get<double>(), 1.0);
           }},
          {"layer.head_v", [](json &k) { k["layer"]["head_v"] = 64; }},
          {"layer.state_layout",
           [](json &k) {
             k["layer"]["state_layout"] =
                 k["layer"]["state_layout"] == "kv" ? "vk" : "kv";
           }},
          {"dtypes.g",
           [](json &k) {
             k["dtypes"]["g"] = k["dtypes"]["g"] == "f32" ? "bf16" : "f32";
           }},
      };
  for (const auto &[field, edit] : launchFields) {
    json k = entry;
    edit(k);
    EXPECT_NE(digest(k), base) << field << " is not in the digest";
  }
  const std::vector<std::pair<const char *, std::function<void(json &)>>>
      otherFields = {
          {"symbol", [](json &k) { k["symbol"] = "another"; }},
          {"file", [](json &k) { k["file"] = "emu/other.so"; }},
          {"figures",
           [](json &k) {
             k["figures"] = {{"vgprs", 1}};
           }},
      };
  for (const auto &[field, edit] : otherFields) {
    json k = entry;
    edit(k);
    EXPECT_EQ(digest(k), base) << field << " changed the digest";
  }
  json a = entry, b = entry;
  a["variant"] = {{"of", "x"}, {"n_min", 1}, {"n_max", 2}, {"provenance", "A"}};
  b["variant"] = {{"of", "x"}, {"n_min", 1}, {"n_max", 2}, {"provenance", "B"}};
  EXPECT_EQ(digest(a), digest(b)) << "the provenance changed the digest";
}

/// The device tests' hand-written probe kernels are named after their
/// entries' digests like compiled ones (test/device/dyn-smem*).
TEST(Manifest, HandWrittenProbesAreBound) {
  for (const char *probe : {"dyn-smem", "dyn-smem-too-big"}) {
    manifest::Manifest m;
    std::string error;
    ASSERT_TRUE(manifest::readManifest(
        std::string(KDA_DEVICE_TESTS_DIR) + "/" + probe, m, error))
        << error;
    ASSERT_EQ(m.kernels.size(), 1u);
    EXPECT_EQ(manifest::checkBinding(m.kernels[0]), "") << probe;
    std::ifstream ptx(std::string(KDA_DEVICE_TESTS_DIR) + "/" + probe + "/" +
                      m.kernels[0].file);
    std::stringstream text;
    text << ptx.rdbuf();
    EXPECT_NE(text.str().find(".entry " + m.kernels[0].symbol + "("),
              std::string::npos)
        << probe << ": the PTX does not define " << m.kernels[0].symbol;
  }
}

/// A chunk plan's workspace is its manifest's formula of the batch
/// (fixed + per_token x tokens + per_seq x sequences), refused where it
/// overflows. (No recurrent kernel takes a workspace; the chunk tests show
/// a short or overlapping one refused at launch.)
TEST(Workspace, ChunkBytesFollowTheManifest) {
  const std::string dir = bundleDir("chunk/chunk_k3");
  Opened o(dir, "emu");
  ASSERT_EQ(o.status, KDA_OK) << o.error;
  const kda_kernel *kernel = o.find("chunk_k3");
  ASSERT_NE(kernel, nullptr) << o.error;
  manifest::Manifest m;
  std::string error;
  ASSERT_TRUE(manifest::readManifest(dir, m, error)) << error;
  const manifest::Kernel *prep = m.find("chunk_k3", "emu");
  ASSERT_NE(prep, nullptr);
  ASSERT_FALSE(prep->workspace.empty());
  int64_t bytes = -1;
  ASSERT_EQ(kda_kernel_workspace_bytes(kernel, 11, 5, &bytes), KDA_OK);
  EXPECT_EQ(bytes, prep->workspace.fixed + 11 * prep->workspace.perToken +
                       5 * prep->workspace.perSeq);
  EXPECT_EQ(kda_kernel_workspace_bytes(kernel, INT64_MAX / 4, 1, &bytes),
            KDA_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(kda_last_error()).find("overflows"), std::string::npos);
  EXPECT_EQ(kda_kernel_workspace_bytes(kernel, -1, 1, &bytes),
            KDA_ERROR_INVALID_ARGUMENT);
}

TEST(Workspace, RecurrentKernelNeedsNone) {
  Opened o(bundleDir("k3_small"), "emu");
  ASSERT_EQ(o.status, KDA_OK) << o.error;
  int64_t bytes = -1;
  ASSERT_EQ(kda_kernel_workspace_bytes(o.find("k3_small"), 1000, 64, &bytes),
            KDA_OK);
  EXPECT_EQ(bytes, 0);
}

//===----------------------------------------------------------------------===//
// kda_launch_named refuses bad name lists, writing nothing
//===----------------------------------------------------------------------===//

class NamedLaunch : public ::testing::Test {
protected:
  void SetUp() override {
    opened = std::make_unique<Opened>(bundleDir("k3_small"), "emu");
    ASSERT_EQ(opened->status, KDA_OK) << opened->error;
    kernel = opened->find("k3_small");
    ASSERT_NE(kernel, nullptr) << opened->error;
    layer = test::readKernelLayer(bundleDir("k3_small"), "k3_small", "emu");
    harness = std::make_unique<test::Harness>(layer, mem);
    harness->prepare(kMixed, kSlots, 31);
    before = harness->snapshot();
  }

  void expectRefused(std::vector<kda_arg> args, const std::string &what) {
    kda_batch b = harness->batch();
    EXPECT_EQ(kda_launch_named(kernel, args.data(), int32_t(args.size()),
                               b.num_seqs, nullptr),
              KDA_ERROR_INVALID_ARGUMENT);
    EXPECT_NE(std::string(kda_last_error()).find(what), std::string::npos)
        << "message: " << kda_last_error();
    EXPECT_EQ(harness->snapshot(), before) << "a refused launch wrote memory";
  }

  std::unique_ptr<Opened> opened;
  const kda_kernel *kernel = nullptr;
  test::KernelLayer layer;
  test::HostMemory mem;
  std::unique_ptr<test::Harness> harness;
  std::vector<uint8_t> before;
};

TEST_F(NamedLaunch, UnknownNameIsRefused) {
  std::vector<kda_arg> args = namedArgs(harness->batch());
  args.push_back({"bias", args[0].ptr});
  expectRefused(args, "has no argument 'bias'");
}

TEST_F(NamedLaunch, DuplicateNameIsRefused) {
  std::vector<kda_arg> args = namedArgs(harness->batch());
  args.push_back(args[2]); // q again
  expectRefused(args, "argument 'q' given twice");
}

TEST_F(NamedLaunch, MissingNameIsRefused) {
  std::vector<kda_arg> args = namedArgs(harness->batch());
  args.erase(args.begin() + 4); // out
  expectRefused(args, "argument 'out' is missing");
}

TEST_F(NamedLaunch, MisalignedPointerIsRefused) {
  std::vector<kda_arg> args = namedArgs(harness->batch());
  args[0].ptr = static_cast<char *>(args[0].ptr) + 4; // state
  expectRefused(args, "argument 'state' is not 16-byte aligned");
}

TEST_F(NamedLaunch, GivenInAnyOrderMatchesTheOracle) {
  kda_batch b = harness->batch();
  std::vector<kda_arg> args = namedArgs(b);
  ASSERT_EQ(kda_launch_named(kernel, args.data(), int32_t(args.size()),
                             b.num_seqs, nullptr),
            KDA_OK)
      << kda_last_error();
  expectOracle(*harness, layer, "named");
}

// A chunk function's first stage (what kda_bundle_find returns) has a grid
// sized by max_chunks, which a launch by name does not give: refused, with
// the call to use instead, rather than a launch of an empty grid reported
// as done.
TEST(NamedLaunchChunk, GridSizedByMaxChunksIsRefused) {
  Opened o(bundleDir("chunk/chunk_k3"), "emu");
  ASSERT_EQ(o.status, KDA_OK) << o.error;
  const kda_kernel *chunk = o.find("chunk_k3");
  ASSERT_NE(chunk, nullptr) << o.error;
  EXPECT_EQ(kda_launch_named(chunk, nullptr, 0, 1, nullptr),
            KDA_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(kda_last_error())
                .find("its grid is sized by "
                      "max_chunks"),
            std::string::npos)
      << kda_last_error();
  kda_plan *plan = nullptr;
  ASSERT_EQ(kda_plan_create(o.bundle, &plan), KDA_OK) << kda_last_error();
  EXPECT_EQ(kda_plan_add_named(plan, chunk, nullptr, 0, 1),
            KDA_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(kda_last_error()).find("kda_launch_chunk"),
            std::string::npos)
      << kda_last_error();
  EXPECT_EQ(kda_plan_size(plan), 0);
  kda_plan_destroy(plan);
}

//===----------------------------------------------------------------------===//
// Launch plans
//===----------------------------------------------------------------------===//

/// Host buffers owned by a test (64-byte aligned).
struct Buffers {
  ~Buffers() {
    for (void *p : all)
      mem.release(p);
  }
  void *alloc(size_t bytes) {
    all.push_back(mem.alloc(bytes));
    return all.back();
  }
  test::HostMemory mem;
  std::vector<void *> all;
};

size_t dtypeBytes(kda_dtype t) { return t == KDA_F32 ? 4 : 2; }

/// Rows `cu[n] + step` of a token-major tensor, one per sequence.
void *gatherRows(Buffers &bufs, const void *src, size_t rowBytes,
                 const std::vector<int32_t> &cu, int step) {
  const size_t n = cu.size() - 1;
  char *dst = static_cast<char *>(bufs.alloc(n * rowBytes));
  for (size_t i = 0; i < n; ++i)
    std::memcpy(dst + i * rowBytes,
                static_cast<const char *>(src) + (cu[i] + step) * rowBytes,
                rowBytes);
  return dst;
}

/// Sequences of two tokens, as two one-token launches of two kernels of one
/// bundle in one plan: the second reads the state the first wrote, so only
/// in-order execution matches the oracle of the two-token rows.
TEST(LaunchPlan, TwoKernelsInOrderOnOneStateMatchTheOracle) {
  const std::string dir = bundleDir("two_kernels");
  for (const char *target : {"emu", "emu32"}) {
    SCOPED_TRACE(target);
    Opened o(dir, target);
    ASSERT_EQ(o.status, KDA_OK) << o.error;
    const kda_kernel *first = o.find("two_direct");
    ASSERT_NE(first, nullptr) << o.error;
    const kda_kernel *second = o.find("two_lds2");
    ASSERT_NE(second, nullptr) << o.error;
    test::HostMemory mem;
    const test::KernelLayer layer = test::readKernelLayer(dir, "two_direct", target);
    test::Harness h(layer, mem);
    const test::BatchShape shape{{2, 2, 2, 2}, {3, 0, 5, 7}, {1, 1, 0, 1}};
    h.prepare(shape, kSlots, 41);
    const kda_batch b = h.batch();
    const ref::Layer &l = layer.layer;
    const std::vector<int32_t> cu(b.cu_seqlens_host,
                                  b.cu_seqlens_host + b.num_seqs + 1);
    const size_t act = dtypeBytes(layer.act);
    const size_t qRow = size_t(l.H) * l.K * act, vRow = size_t(l.HV) * l.V * act,
                 gRow = size_t(l.HV) * l.K * dtypeBytes(layer.g),
                 betaRow = size_t(l.HV) * dtypeBytes(layer.beta);

    Buffers bufs;
    const int32_t n = b.num_seqs;
    std::vector<int32_t> stepCu(size_t(n) + 1);
    for (int32_t i = 0; i <= n; ++i)
      stepCu[size_t(i)] = i;
    auto *cuDev = static_cast<int32_t *>(bufs.alloc(stepCu.size() * 4));
    std::memcpy(cuDev, stepCu.data(), stepCu.size() * 4);
    auto *ones = static_cast<uint8_t *>(bufs.alloc(size_t(n)));
    std::memset(ones, 1, size_t(n));
    kda_batch steps[2];
    for (int s = 0; s < 2; ++s) {
      kda_batch &t = steps[s];
      t = b;
      t.num_tokens = n;
      t.cu_seqlens_host = stepCu.data();
      t.cu_seqlens = cuDev;
      t.q = gatherRows(bufs, b.q, qRow, cu, s);
      t.k = gatherRows(bufs, b.k, qRow, cu, s);
      t.v = gatherRows(bufs, b.v, vRow, cu, s);
      t.g = gatherRows(bufs, b.g, gRow, cu, s);
      t.beta = gatherRows(bufs, b.beta, betaRow, cu, s);
      t.out = bufs.alloc(size_t(n) * vRow);
      // The second token continues from the state the first one wrote.
      if (s == 1)
        t.has_initial_state = ones;
    }

    kda_plan *plan = nullptr;
    ASSERT_EQ(kda_plan_create(o.bundle, &plan), KDA_OK);
    std::vector<kda_arg> args = namedArgs(steps[0]);
    ASSERT_EQ(kda_plan_add_named(plan, first, args.data(),
                                 int32_t(args.size()), n),
              KDA_OK)
        << kda_last_error();
    // A refused launch leaves the plan as it was.
    kda_batch broken = steps[1];
    broken.state = nullptr;
    EXPECT_EQ(kda_plan_add_recurrent(plan, second, &broken),
              KDA_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(kda_plan_size(plan), 1);
    ASSERT_EQ(kda_plan_add_recurrent(plan, second, &steps[1]), KDA_OK)
        << kda_last_error();
    EXPECT_EQ(kda_plan_size(plan), 2);
    ASSERT_EQ(kda_plan_launch(plan, nullptr), KDA_OK) << kda_last_error();
    kda_plan_destroy(plan);

    // Scatter the two steps' outputs back to the rows of the batch.
    for (int s = 0; s < 2; ++s)
      for (int32_t i = 0; i < n; ++i)
        std::memcpy(static_cast<char *>(b.out) + (cu[size_t(i)] + s) * vRow,
                    static_cast<const char *>(steps[s].out) + i * vRow, vRow);
    expectOracle(h, layer, "plan of two kernels");
  }
}

TEST(LaunchPlan, KernelOfAnotherBundleIsRefused) {
  Opened a(bundleDir("k3_small"), "emu"), b(bundleDir("two_kernels"), "emu");
  ASSERT_EQ(a.status, KDA_OK) << a.error;
  ASSERT_EQ(b.status, KDA_OK) << b.error;
  kda_plan *plan = nullptr;
  ASSERT_EQ(kda_plan_create(a.bundle, &plan), KDA_OK);
  kda_batch empty{};
  const kda_kernel *other = b.find("two_direct");
  ASSERT_NE(other, nullptr) << b.error;
  EXPECT_EQ(kda_plan_add_recurrent(plan, other, &empty),
            KDA_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(kda_last_error()).find("not from the plan's bundle"),
            std::string::npos)
      << kda_last_error();
  EXPECT_EQ(kda_plan_size(plan), 0);
  kda_plan_destroy(plan);
}

} // namespace
