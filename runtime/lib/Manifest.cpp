//===- Manifest.cpp - the one reader of a bundle's manifest.json ----------===//
#include "Manifest.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <limits>
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <stdexcept>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace kda::manifest {

using nlohmann::json;

const char *roleName(Role role) {
  switch (role) {
  case Role::Input: return "input";
  case Role::Output: return "output";
  case Role::InOut: return "inout";
  case Role::Workspace: return "workspace";
  }
  return "?";
}

int64_t Workspace::bytes(int64_t numTokens, int64_t numSeqs) const {
  int64_t a = 0, b = 0, sum = 0;
  if (__builtin_mul_overflow(perToken, numTokens, &a) ||
      __builtin_mul_overflow(perSeq, numSeqs, &b) ||
      __builtin_add_overflow(a, b, &sum) ||
      __builtin_add_overflow(sum, fixed, &sum))
    return -1;
  return sum;
}

const Arg *Kernel::findArg(const std::string &argName) const {
  for (const Arg &a : args)
    if (a.name == argName)
      return &a;
  return nullptr;
}

bool Kernel::usesOperand(const std::string &operand) const {
  for (const std::string &u : uses)
    if (u == operand)
      return true;
  return false;
}

RowVariant rowVariantOf(const Kernel &k) {
  RowVariant v;
  v.slotStride = int64_t(k.layer.valueHeads) * k.layer.headK * k.layer.headV;
  auto get = [&](const char *key, int64_t &out) {
    auto it = k.config.find(key);
    if (it != k.config.end())
      out = it->second;
  };
  get("spec_tokens", v.specTokens);
  get("padding_below", v.paddingBelow);
  get("slot_stride", v.slotStride);
  return v;
}

std::string layerDifferences(const Kernel &a, const Kernel &b) {
  const Layer &x = a.layer, &y = b.layer;
  std::string differ;
  noteDifference(differ, "heads", x.heads, y.heads);
  noteDifference(differ, "value_heads", x.valueHeads, y.valueHeads);
  noteDifference(differ, "head_k", x.headK, y.headK);
  noteDifference(differ, "head_v", x.headV, y.headV);
  noteDifference(differ, "gate", x.gate, y.gate);
  noteDifference(differ, "lower_bound", x.lowerBound, y.lowerBound);
  noteDifference(differ, "beta", x.beta, y.beta);
  noteDifference(differ, "qk_l2norm", x.qkL2norm, y.qkL2norm);
  noteDifference(differ, "scale", x.scale, y.scale);
  noteDifference(differ, "state_layout", x.stateLayout, y.stateLayout);
  noteDifference(differ, "act", a.act, b.act);
  noteDifference(differ, "g dtype", a.g, b.g);
  noteDifference(differ, "beta dtype", a.beta, b.beta);
  noteDifference(differ, "state dtype", a.state, b.state);
  return differ;
}

bool sameUses(const Kernel &a, const Kernel &b) {
  std::vector<std::string> x = a.uses, y = b.uses;
  std::sort(x.begin(), x.end());
  std::sort(y.begin(), y.end());
  return x == y;
}

const Kernel *Manifest::find(const std::string &name,
                             const std::string &target) const {
  for (const Kernel &k : kernels)
    if (k.name == name && k.target == target)
      return &k;
  return nullptr;
}

namespace {
/// The targets the runtime knows, restated from the compiler's target table
/// (dialect/lib/Target/TargetInfo.cpp; `TargetWaves` unit tests hold the
/// two together).
struct KnownTarget {
  const char *name;
  uint32_t wave;
  bool emulator;
};
constexpr KnownTarget kTargets[] = {
    {"gfx942", 64, false}, {"gfx950", 64, false}, {"sm_90", 32, false},
    {"emu", 64, true},     {"emu950", 64, true},  {"emu32", 32, true}};

const KnownTarget *knownTarget(const std::string &target) {
  for (const KnownTarget &t : kTargets)
    if (target == t.name)
      return &t;
  return nullptr;
}
} // namespace

uint32_t targetWaveSize(const std::string &target) {
  const KnownTarget *t = knownTarget(target);
  return t ? t->wave : 0;
}

bool isEmulatorTarget(const std::string &target) {
  const KnownTarget *t = knownTarget(target);
  return t && t->emulator;
}

namespace {

// Field access that throws one message naming where the field is: "<where>:
// <field>: <what is wrong>". Every reader below goes through these, so no
// nlohmann exception text (which names neither kernel nor field) escapes.
[[noreturn]] void bad(const std::string &where, const std::string &field,
                      const std::string &what) {
  throw std::runtime_error(where + ": " + field + ": " + what);
}

/// A value as an error message shows it: a scalar as written (long strings
/// cut), an array or object by its size. Dumping a container whole could
/// copy a file's worth into the message, and recurses once per level of
/// nesting (a deep one overflowed the stack).
std::string shown(const json &v) {
  if (v.is_array())
    return "an array of " + std::to_string(v.size()) + " entries";
  if (v.is_object())
    return "an object of " + std::to_string(v.size()) + " keys";
  std::string s = v.dump();
  return s.size() > 80 ? s.substr(0, 77) + "..." : s;
}

const json &at(const json &obj, const char *key, const std::string &where,
               const std::string &field) {
  if (!obj.is_object())
    bad(where, field.empty() ? "(entry)" : field,
        "expected an object, found " + shown(obj));
  auto it = obj.find(key);
  if (it == obj.end())
    bad(where, field.empty() ? key : field + "." + key, "missing");
  return *it;
}

std::string str(const json &obj, const char *key, const std::string &where,
                const std::string &parent = "") {
  const json &v = at(obj, key, where, parent);
  std::string field = parent.empty() ? key : parent + "." + key;
  if (!v.is_string())
    bad(where, field, "expected a string, found " + shown(v));
  std::string s = v.get<std::string>();
  if (s.empty())
    bad(where, field, "empty");
  return s;
}

int64_t integer(const json &v, const std::string &where,
                const std::string &field, int64_t lo, int64_t hi) {
  if (!v.is_number_integer())
    bad(where, field, "expected an integer, found " + shown(v));
  // Unsigned JSON integers above int64 are out of range as well.
  if (v.is_number_unsigned() &&
      v.get<uint64_t>() > uint64_t(std::numeric_limits<int64_t>::max()))
    bad(where, field, shown(v) + " is out of range");
  int64_t x = v.get<int64_t>();
  if (x < lo || x > hi)
    bad(where, field,
        std::to_string(x) + " is outside " + std::to_string(lo) + ".." +
            std::to_string(hi));
  return x;
}

int64_t integer(const json &obj, const char *key, const std::string &where,
                int64_t lo, int64_t hi, const std::string &parent = "") {
  return integer(at(obj, key, where, parent), where,
                 parent.empty() ? key : parent + "." + key, lo, hi);
}

double number(const json &obj, const char *key, const std::string &where,
              const std::string &parent) {
  const json &v = at(obj, key, where, parent);
  if (!v.is_number())
    bad(where, parent + "." + key, "expected a number, found " + shown(v));
  return v.get<double>();
}

const json &array(const json &obj, const char *key, const std::string &where) {
  const json &v = at(obj, key, where, "");
  if (!v.is_array())
    bad(where, key, "expected an array, found " + shown(v));
  return v;
}

/// The keys an object of the manifest may have. A misspelt optional field
/// ("limit", "use") was skipped before and its absence read as meant.
void onlyKeys(const json &obj, std::initializer_list<const char *> known,
              const std::string &where, const std::string &field) {
  for (const auto &item : obj.items()) {
    bool ok = false;
    for (const char *k : known)
      ok |= item.key() == k;
    if (!ok) {
      std::string name = item.key().size() > 40
                             ? item.key().substr(0, 37) + "..."
                             : item.key();
      bad(where, field.empty() ? name : field + "." + name,
          "is not a field of " +
              (field.empty() ? std::string("this object") : "'" + field + "'"));
    }
  }
}

/// Member `key` of `obj`: an object holding only the `known` keys.
const json &object(const json &obj, const char *key,
                   std::initializer_list<const char *> known,
                   const std::string &where, const std::string &parent) {
  const json &v = at(obj, key, where, parent);
  const std::string field = parent.empty() ? key : parent + "." + key;
  if (!v.is_object())
    bad(where, field, "expected an object, found " + shown(v));
  onlyKeys(v, known, where, field);
  return v;
}

void oneOf(const std::string &value, std::initializer_list<const char *> ok,
           const std::string &where, const std::string &field) {
  std::string list;
  for (const char *o : ok) {
    if (value == o)
      return;
    list += (list.empty() ? "" : ", ") + std::string(o);
  }
  bad(where, field, "'" + value + "' is not one of " + list);
}

const std::initializer_list<const char *> kDtypes = {"f32", "bf16", "f16",
                                                     "i32", "i8",   "i64"};
constexpr int64_t kMaxDim = std::numeric_limits<int32_t>::max();

/// A manifest lists a few kernels per target; 64 MiB is far past any.
constexpr std::uintmax_t kMaxManifestBytes = 64u << 20;

Role parseRole(const std::string &s, const std::string &where,
               const std::string &field) {
  oneOf(s, {"input", "output", "inout", "workspace"}, where, field);
  return s == "input"    ? Role::Input
         : s == "output" ? Role::Output
         : s == "inout"  ? Role::InOut
                         : Role::Workspace;
}

/// "args": [{"name", "dtype", "role"}] in parameter order; names unique, at
/// most one workspace.
void readArgs(const json &j, const std::string &where, Kernel &k) {
  const json &args = array(j, "args", where);
  std::set<std::string> seen;
  int workspaces = 0;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string field = "args[" + std::to_string(i) + "]";
    Arg a;
    a.name = str(args[i], "name", where, field);
    onlyKeys(args[i], {"name", "dtype", "role"}, where, field);
    a.dtype = str(args[i], "dtype", where, field);
    oneOf(a.dtype, kDtypes, where, field + ".dtype");
    a.role = parseRole(str(args[i], "role", where, field), where,
                       field + ".role");
    if (!seen.insert(a.name).second)
      bad(where, field + ".name", "argument '" + a.name + "' is named twice");
    workspaces += a.role == Role::Workspace;
    k.args.push_back(std::move(a));
  }
  if (workspaces > 1)
    bad(where, "args", "more than one argument of role workspace");
}

/// "workspace": {"fixed", "per_token", "per_seq"} bytes, all >= 0; a kernel
/// that needs bytes must have an argument to receive them.
void readWorkspace(const json &j, const std::string &where, Kernel &k) {
  const json &w =
      object(j, "workspace", {"fixed", "per_token", "per_seq"}, where, "");
  const int64_t big = std::numeric_limits<int64_t>::max();
  k.workspace.fixed = integer(w, "fixed", where, 0, big, "workspace");
  k.workspace.perToken = integer(w, "per_token", where, 0, big, "workspace");
  k.workspace.perSeq = integer(w, "per_seq", where, 0, big, "workspace");
  bool hasArg = false;
  for (const Arg &a : k.args)
    hasArg |= a.role == Role::Workspace;
  if (!k.workspace.empty() && !hasArg)
    bad(where, "workspace",
        "the kernel needs workspace bytes but no argument has role workspace");
}

void readLayer(const json &j, const std::string &where, Kernel &k) {
  const json &l =
      object(j, "layer",
             {"heads", "value_heads", "head_k", "head_v", "gate", "lower_bound",
              "beta", "qk_l2norm", "scale", "act", "state", "state_layout"},
             where, "");
  Layer &y = k.layer;
  y.heads = int32_t(integer(l, "heads", where, 1, kMaxDim, "layer"));
  y.valueHeads = int32_t(integer(l, "value_heads", where, 1, kMaxDim, "layer"));
  y.headK = int32_t(integer(l, "head_k", where, 1, kMaxDim, "layer"));
  y.headV = int32_t(integer(l, "head_v", where, 1, kMaxDim, "layer"));
  y.gate = str(l, "gate", where, "layer");
  oneOf(y.gate, {"none", "softplus", "lower_bound"}, where, "layer.gate");
  // As the dialect's layer verifier says: a negative bound, and only on
  // the lower_bound gate.
  if (y.gate == "lower_bound") {
    y.lowerBound = number(l, "lower_bound", where, "layer");
    if (!(y.lowerBound < 0))
      bad(where, "layer.lower_bound",
          shown(l.at("lower_bound")) + " is not a negative bound");
  } else if (l.contains("lower_bound")) {
    bad(where, "layer.lower_bound",
        "only the lower_bound gate takes a bound (gate '" + y.gate + "')");
  }
  y.beta = str(l, "beta", where, "layer");
  oneOf(y.beta, {"given", "sigmoid", "sigmoid_x2"}, where, "layer.beta");
  const json &norm = at(l, "qk_l2norm", where, "layer");
  if (!norm.is_boolean())
    bad(where, "layer.qk_l2norm", "expected true or false");
  y.qkL2norm = norm.get<bool>();
  y.scale = number(l, "scale", where, "layer");
  if (!(y.scale > 0)) // the effective scale: K^-1/2 unless given
    bad(where, "layer.scale", shown(l.at("scale")) + " is not positive");
  y.stateLayout = str(l, "state_layout", where, "layer");
  oneOf(y.stateLayout, {"kv", "vk"}, where, "layer.state_layout");
  const json &d = object(j, "dtypes", {"act", "g", "beta", "state"}, where, "");
  std::string *slots[] = {&k.act, &k.g, &k.beta, &k.state};
  const char *keys[] = {"act", "g", "beta", "state"};
  for (int i = 0; i < 4; ++i) {
    *slots[i] = str(d, keys[i], where, "dtypes");
    oneOf(*slots[i], {"f32", "bf16", "f16"}, where,
          std::string("dtypes.") + keys[i]);
  }
  // The layer restates two of them; the two must agree.
  for (auto [key, dtype] :
       {std::pair<const char *, const std::string *>{"act", &k.act},
        {"state", &k.state}})
    if (l.contains(key) && str(l, key, where, "layer") != *dtype)
      bad(where, std::string("layer.") + key,
          "'" + str(l, key, where, "layer") + "' is not dtypes." + key + " ('" +
              *dtype + "')");
  k.hasLayer = true;
}

/// "planner": {"recurrent_max_tokens": N >= 1, "provenance": "..."}: a
/// measured threshold always says where it was measured.
Planner readPlanner(const json &m, const std::string &path) {
  const json &p =
      object(m, "planner", {"recurrent_max_tokens", "provenance"}, path, "");
  Planner result;
  result.recurrentMaxTokens = int32_t(integer(
      p, "recurrent_max_tokens", path, 1, kMaxDim, "planner"));
  result.provenance = str(p, "provenance", path, "planner");
  return result;
}

/// The gate's operands (the dialect's rule): softplus reads a_log; gate
/// 'none' reads neither. A kernel built without one its gate needs would
/// be launched with it unchecked (a null a_log reached the kernel).
void checkUses(const Kernel &k, const std::string &where) {
  if (k.layer.gate == "softplus" && !k.usesOperand("a_log"))
    bad(where, "uses", "the softplus gate reads a_log, which is not listed");
  if (k.layer.gate == "none" && !k.uses.empty())
    bad(where, "uses",
        "gate 'none' takes no a_log or dt_bias, but '" + k.uses.front() +
            "' is listed");
}

Kernel readKernel(const json &j, const std::string &path, size_t index) {
  std::string where = path + ": kernels[" + std::to_string(index) + "]";
  Kernel k;
  k.name = str(j, "name", where);
  k.target = str(j, "target", where);
  where = path + ": kernel '" + k.name + "' (" + k.target + ")";
  onlyKeys(j,
           {"name",
            "kind",
            "symbol",
            "target",
            "file",
            "file_digest",
            "ptx",
            "block",
            "wave_size",
            "grid",
            "stage",
            "args",
            "dynamic_lds_bytes",
            "workspace",
            "uses",
            "config",
            "figures",
            "limits",
            "variant",
            "layer",
            "dtypes"},
           where, "");
  k.kind = str(j, "kind", where);
  // What kda-compile writes (the chunk path's stages, the tile-GEMM test
  // kernels, the recurrent kernel), and "probe": a hand-written kernel of
  // the device tests, launched by name.
  oneOf(k.kind,
        {"recurrent", "chunk_prep", "chunk_scan", "chunk_maps", "chunk_join",
         "chunk_segments", "tile_gemm", "probe"},
        where, "kind");
  k.symbol = str(j, "symbol", where);
  k.file = str(j, "file", where);
  // A code object of the bundle: a relative path that stays inside it.
  if (k.file.front() == '/' || k.file == ".." || k.file.rfind("../", 0) == 0 ||
      k.file.find("/../") != std::string::npos ||
      (k.file.size() >= 3 && k.file.compare(k.file.size() - 3, 3, "/..") == 0))
    bad(where, "file",
        "'" + k.file +
            "' leaves the bundle (an absolute path or a '..' "
            "component)");
  k.fileDigest = str(j, "file_digest", where);
  if (k.fileDigest.size() != 16 ||
      k.fileDigest.find_first_not_of("0123456789abcdef") != std::string::npos)
    bad(where, "file_digest",
        "'" + k.fileDigest +
            "' is not 16 lower-case hex digits (the FNV-1a digest of the "
            "code object kda-compile wrote)");
  const json &block = array(j, "block", where);
  if (block.size() != 3)
    bad(where, "block", "expected 3 dimensions, found " + shown(block));
  for (int i = 0; i < 3; ++i)
    k.block[i] = uint32_t(integer(block[i], where,
                                  "block[" + std::to_string(i) + "]", 1, 1024));
  k.waveSize = uint32_t(integer(j, "wave_size", where, 1, 64));
  // The wave a kernel was compiled for is its target's (the target table,
  // dialect/lib/Target/TargetInfo.cpp, which the runtime does not link):
  // another would have the emulator run a wave-32 kernel as wave 64.
  if (const uint32_t wave = targetWaveSize(k.target);
      wave != 0 && k.waveSize != wave)
    bad(where, "wave_size",
        std::to_string(k.waveSize) + ", but " + k.target + "'s wave is " +
            std::to_string(wave));
  const json &grid = array(j, "grid", where);
  if (grid.size() != 3)
    bad(where, "grid", "expected 3 dimensions, found " + shown(grid));
  for (int i = 0; i < 3; ++i) {
    const std::string field = "grid[" + std::to_string(i) + "]";
    if (grid[i].is_string()) {
      if (grid[i] != "num_seqs" && grid[i] != "max_chunks")
        bad(where, field,
            shown(grid[i]) +
                " is neither a count nor \"num_seqs\" or \"max_chunks\"");
      k.grid[i] = grid[i] == "num_seqs" ? kGridNumSeqs : kGridMaxChunks;
    } else {
      // A launch takes at most 65535 workgroups in y and z on every
      // target: a bundle past that could never run.
      k.grid[i] = integer(grid[i], where, field, 1, i == 0 ? kMaxDim : 65535);
    }
  }
  if (j.contains("figures") && !j.at("figures").is_object())
    bad(where, "figures",
        "expected an object, found " + shown(j.at("figures")));
  if (j.contains("stage"))
    k.stage = int32_t(integer(j, "stage", where, 0, 15));
  readArgs(j, where, k);
  k.dynamicLdsBytes =
      uint32_t(integer(j, "dynamic_lds_bytes", where, 0, kMaxDim));
  readWorkspace(j, where, k);
  if (j.contains("uses")) {
    const json &uses = array(j, "uses", where);
    for (size_t i = 0; i < uses.size(); ++i) {
      const std::string field = "uses[" + std::to_string(i) + "]";
      if (!uses[i].is_string())
        bad(where, field, "expected a string, found " + shown(uses[i]));
      std::string operand = uses[i].get<std::string>();
      oneOf(operand, {"a_log", "dt_bias"}, where, field);
      if (k.usesOperand(operand))
        bad(where, field, "'" + operand + "' is listed twice");
      k.uses.push_back(std::move(operand));
    }
  }
  // The integer and boolean entries of the config (block sizes, a test
  // kernel's m/n/k): what tools that pick a kernel by its shape read.
  if (j.contains("config") && j.at("config").is_object()) {
    // A flag the runtime reads (the planner prices a self-staged scan's
    // step apart) must say true or false, not anything else.
    const json &config = j.at("config");
    if (config.contains("self_staged") &&
        !config.at("self_staged").is_boolean())
      bad(where, "config.self_staged", "expected true or false");
    for (const auto &[key, value] : config.items()) {
      // Every entry is a count or a flag (a tile kernel's atom, a name);
      // a value of another type was dropped before, and its default read
      // in its place (spec_tokens "3": a speculative kernel taken as a
      // plain one).
      if (key == "atom" && value.is_string())
        continue;
      if (!value.is_number_integer() && !value.is_boolean())
        bad(where, "config." + key,
            "expected an integer or true / false, found " + shown(value));
      // Counts (tiles, warps, stages, sizes) are 0 .. 2^31 - 1: a negative
      // or wider one is refused here, as written, not after a cast.
      k.config[key] = value.is_boolean()
                          ? int64_t(value.get<bool>())
                          : integer(value, where, "config." + key, 0, kMaxDim);
    }
  } else if (j.contains("config")) {
    bad(where, "config", "expected an object, found " + shown(j.at("config")));
  }
  if (j.contains("limits")) {
    const json &l = object(
        j, "limits", {"max_workgroup_size", "static_lds_bytes"}, where, "");
    k.maxWorkgroupSize = uint32_t(
        integer(l, "max_workgroup_size", where, 1, 1 << 16, "limits"));
    k.staticLdsBytes =
        uint32_t(integer(l, "static_lds_bytes", where, 0, kMaxDim, "limits"));
  }
  if (j.contains("variant")) {
    const json &v =
        object(j, "variant", {"of", "n_min", "n_max", "provenance"}, where, "");
    k.isVariant = true;
    k.variant.of = str(v, "of", where, "variant");
    k.variant.nMin = integer(v, "n_min", where, 1, kMaxDim, "variant");
    k.variant.nMax =
        integer(v, "n_max", where, k.variant.nMin, kMaxDim, "variant");
  }
  // A layer's kernels say which layer; kernels of other kinds (tile_gemm)
  // need not.
  if (k.kind == "recurrent" || j.contains("layer"))
    readLayer(j, where, k);
  if (k.hasLayer)
    checkUses(k, where);
  if (k.kind == "recurrent") {
    // Its config is checked at open against the chip's limits it records;
    // without them that check could not run.
    if (!j.contains("limits"))
      bad(where, "limits",
          "missing (a recurrent kernel's config is checked against them)");
    // One workgroup per (column block, value head, sequence): the runtime
    // passes no other shape, and a kernel built for another would index
    // heads or rows past the tensors.
    if (k.block[1] != 1 || k.block[2] != 1)
      bad(where, "block", "a recurrent kernel's block is one-dimensional");
    if (k.grid[1] != k.layer.valueHeads)
      bad(where, "grid[1]",
          std::to_string(k.grid[1]) + " is not the layer's value heads (" +
              std::to_string(k.layer.valueHeads) + ")");
    if (k.grid[2] != kGridNumSeqs)
      bad(where, "grid[2]", "a recurrent kernel's grid z is \"num_seqs\"");
  }
  return k;
}

/// A parser callback that refuses a key written twice in one object: the
/// JSON reader keeps the last, so `"uses": [...]` written twice, or two
/// "block"s, would be read as whichever came second. Sets `repeated` to
/// the message and throws to stop the parse.
json::parser_callback_t keysOnce(std::string &repeated) {
  auto open = std::make_shared<std::vector<std::set<std::string>>>();
  return [open, &repeated](int, json::parse_event_t event, json &parsed) {
    switch (event) {
    case json::parse_event_t::object_start:
    case json::parse_event_t::array_start:
      open->emplace_back(); // arrays hold no keys; kept for the nesting
      break;
    case json::parse_event_t::object_end:
    case json::parse_event_t::array_end:
      open->pop_back();
      break;
    case json::parse_event_t::key: {
      const std::string key = parsed.get<std::string>();
      if (!open->back().insert(key).second) {
        repeated = "key \"" +
                   (key.size() > 40 ? key.substr(0, 37) + "..." : key) +
                   "\" appears twice in one object (at depth " +
                   std::to_string(open->size()) + ")";
        throw std::runtime_error(repeated);
      }
      break;
    }
    case json::parse_event_t::value:
      break;
    }
    return true;
  };
}

} // namespace

namespace {
/// `text` as JSON with each key once in an object; on failure `error`
/// names `where` and says why.
bool parseJson(const std::string &text, const std::string &where, json &out,
               std::string &error) {
  std::string repeated; // a key written twice in one object
  try {
    out = json::parse(text, keysOnce(repeated));
  } catch (const std::exception &e) {
    error = repeated.empty() ? where + ": not JSON: " + e.what()
                             : where + ": " + repeated;
    return false;
  }
  return true;
}
} // namespace

std::string repeatedJsonKey(const std::string &text) {
  std::string repeated;
  try {
    (void)json::parse(text, keysOnce(repeated));
  } catch (const std::exception &) {
  }
  return repeated;
}

bool parseManifest(const std::string &text, const std::string &path,
                   Manifest &out, std::string &error) {
  json m;
  if (!parseJson(text, path, m, error))
    return false;
  try {
    if (!m.is_object())
      bad(path, "(top)", "expected an object");
    onlyKeys(m, {"format", "generator", "spec", "planner", "kernels"}, path,
             "");
    const int64_t format = integer(m, "format", path, 0, 1 << 20);
    if (format != kFormat)
      bad(path, "format",
          "this runtime reads format " + std::to_string(kFormat) +
              ", the bundle has " + std::to_string(format) +
              " (recompile it with this kda-compile)");
    Manifest result;
    result.path = path;
    if (m.contains("spec"))
      result.spec = str(m, "spec", path);
    if (m.contains("planner"))
      result.planner = readPlanner(m, path);
    const json &kernels = array(m, "kernels", path);
    // A name appears once per target, or once per stage of a plan of
    // stages (the chunk path), listed in stage order from 0; a stage after
    // the first may have alternatives (the scan's column blocks), listed
    // together under the same stage number.
    std::map<std::pair<std::string, std::string>, int32_t> lastStage;
    for (size_t i = 0; i < kernels.size(); ++i) {
      Kernel k = readKernel(kernels[i], path, i);
      auto [it, fresh] = lastStage.insert({{k.name, k.target}, k.stage});
      const int32_t expected = fresh ? (k.stage < 0 ? -1 : 0) : it->second + 1;
      const bool alternative = !fresh && k.stage > 0 && k.stage == it->second;
      if ((k.stage != expected && !alternative) || (!fresh && k.stage < 0))
        bad(path, "kernels[" + std::to_string(i) + "]",
            fresh ? "kernel '" + k.name + "' starts at stage " +
                        std::to_string(k.stage) + ", not 0"
            : k.stage < 0
                ? "kernel '" + k.name + "' appears twice for " + k.target
                : "stage " + std::to_string(k.stage) + " of kernel '" +
                      k.name + "' follows stage " +
                      std::to_string(it->second) + " for " + k.target);
      it->second = k.stage;
      result.kernels.push_back(std::move(k));
    }
    out = std::move(result);
  } catch (const std::exception &e) {
    error = e.what();
    return false;
  }
  return true;
}

bool parseKernelEntry(const std::string &text, const std::string &where,
                      Kernel &out, std::string &error) {
  json j;
  if (!parseJson(text, where, j, error))
    return false;
  try {
    out = readKernel(j, where, 0);
  } catch (const std::exception &e) {
    error = e.what();
    return false;
  }
  return true;
}

namespace {
/// The canonical description the digest is taken over: each field as
/// `key=<length>:<bytes>;`, so no two different entries write the same
/// text. Doubles by their bit pattern (a value, not a spelling).
class Canonical {
public:
  Canonical &put(const char *key, const std::string &value) {
    text += key;
    text += '=';
    text += std::to_string(value.size());
    text += ':';
    text += value;
    text += ';';
    return *this;
  }
  Canonical &put(const char *key, int64_t value) {
    return put(key, std::to_string(value));
  }
  Canonical &put(const char *key, double value) {
    uint64_t bits;
    static_assert(sizeof bits == sizeof value);
    std::memcpy(&bits, &value, sizeof bits);
    return put(key, std::to_string(bits));
  }
  std::string text;
};

uint64_t fnv1a64(const std::string &bytes) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned char c : bytes) {
    h ^= c;
    h *= 0x100000001b3ull;
  }
  return h;
}
} // namespace

std::string fileDigest(const std::string &bytes) {
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx",
                static_cast<unsigned long long>(fnv1a64(bytes)));
  return hex;
}

std::string checkFileDigest(const Kernel &k, const std::string &bytes) {
  const std::string got = fileDigest(bytes);
  if (got == k.fileDigest)
    return "";
  return "code object " + k.file + " has digest " + got +
         " but its manifest entry states " + k.fileDigest +
         ": the file is not the one kda-compile wrote with this manifest "
         "(damaged, edited or from another build); recompile the bundle "
         "with kda-compile";
}

std::string entryDigest(const Kernel &k) {
  // The version of this description: a change to what it covers changes
  // every digest, so old bundles are refused rather than misread.
  Canonical c;
  c.put("kda-entry", int64_t(1));
  c.put("name", k.name).put("kind", k.kind).put("target", k.target);
  for (uint32_t b : k.block)
    c.put("block", int64_t(b));
  c.put("wave_size", int64_t(k.waveSize));
  for (int64_t g : k.grid)
    c.put("grid", g);
  c.put("stage", int64_t(k.stage));
  for (const Arg &a : k.args)
    c.put("arg", a.name).put("dtype", a.dtype).put("role", roleName(a.role));
  c.put("dynamic_lds_bytes", int64_t(k.dynamicLdsBytes));
  c.put("workspace.fixed", k.workspace.fixed)
      .put("workspace.per_token", k.workspace.perToken)
      .put("workspace.per_seq", k.workspace.perSeq);
  for (const std::string &u : k.uses)
    c.put("uses", u);
  for (const auto &[key, value] : k.config) // std::map: sorted by key
    c.put("config", key).put("value", value);
  c.put("variant", int64_t(k.isVariant));
  if (k.isVariant)
    c.put("variant.of", k.variant.of)
        .put("variant.n_min", k.variant.nMin)
        .put("variant.n_max", k.variant.nMax);
  c.put("limits.max_workgroup_size", int64_t(k.maxWorkgroupSize))
      .put("limits.static_lds_bytes", int64_t(k.staticLdsBytes));
  c.put("layer", int64_t(k.hasLayer));
  if (k.hasLayer) {
    const Layer &l = k.layer;
    c.put("heads", int64_t(l.heads))
        .put("value_heads", int64_t(l.valueHeads))
        .put("head_k", int64_t(l.headK))
        .put("head_v", int64_t(l.headV))
        .put("gate", l.gate)
        .put("lower_bound", l.lowerBound)
        .put("beta", l.beta)
        .put("qk_l2norm", int64_t(l.qkL2norm))
        .put("scale", l.scale)
        .put("state_layout", l.stateLayout)
        .put("dtypes.act", k.act)
        .put("dtypes.g", k.g)
        .put("dtypes.beta", k.beta)
        .put("dtypes.state", k.state);
  }
  static const char hex[] = "0123456789abcdef";
  const uint64_t h = fnv1a64(c.text);
  std::string out(16, '0');
  for (int i = 0; i < 16; ++i)
    out[size_t(i)] = hex[(h >> (60 - 4 * i)) & 0xf];
  return out;
}

std::string boundSymbolSuffix(const Kernel &k) {
  return "_kd" + entryDigest(k) + (isEmulatorTarget(k.target) ? "_packed" : "");
}

std::string checkBinding(const Kernel &k) {
  const std::string suffix = boundSymbolSuffix(k);
  const std::string &s = k.symbol;
  if (s.size() > suffix.size() &&
      s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0)
    return "";
  return "symbol '" + s +
         "' does not carry its entry's digest (it must end in '" + suffix +
         "'): the entry is not the one its code object was compiled from "
         "(edited, or from another build); recompile the bundle with "
         "kda-compile";
}

bool readBoundedFile(const std::string &path, uintmax_t maxBytes,
                     std::string &text, std::string &error) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    error = path + ": cannot open it: " + std::strerror(errno);
    return false;
  }
  struct FdCloser {
    int fd;
    ~FdCloser() { ::close(fd); }
  } closer{fd};
  struct stat st;
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    error = path + ": not a regular file";
    return false;
  }
  if (uintmax_t(st.st_size) > maxBytes) {
    error = path + ": " + std::to_string(st.st_size) + " bytes, more than " +
            std::to_string(maxBytes) + " such a file may have";
    return false;
  }
  text.assign(size_t(st.st_size), '\0');
  size_t got = 0;
  while (got < text.size()) {
    const ssize_t n = ::read(fd, text.data() + got, text.size() - got);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0) {
      error = path + ": cannot read it" +
              (n < 0 ? std::string(": ") + std::strerror(errno) : "");
      return false;
    }
    got += size_t(n);
  }
  return true;
}

std::string jsonTooDeep(const std::string &text, size_t maxDepth) {
  size_t depth = 0;
  bool inString = false, escaped = false;
  for (char c : text) {
    if (inString) {
      if (escaped)
        escaped = false;
      else if (c == '\\')
        escaped = true;
      else if (c == '"')
        inString = false;
      continue;
    }
    if (c == '"') {
      inString = true;
    } else if (c == '[' || c == '{') {
      if (++depth > maxDepth)
        return "arrays and objects nested deeper than " +
               std::to_string(maxDepth) + " levels";
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return "";
}

bool readManifest(const std::string &dir, Manifest &out, std::string &error) {
  const std::string path = dir + "/manifest.json";
  if (::access(path.c_str(), F_OK) != 0 && errno == ENOENT) {
    error = "no manifest at " + path;
    return false;
  }
  std::string text;
  if (!readBoundedFile(path, kMaxManifestBytes, text, error))
    return false;
  return parseManifest(text, path, out, error);
}

} // namespace kda::manifest
