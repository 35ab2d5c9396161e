//===- Runtime.cpp - bundles, validation, launches ------------------------===//
#include "Backend.h"
#include "Internal.h"
#include "LaunchPlan.h"
#include "Manifest.h"
#include "Planner.h"
#include "Variants.h"
#include "kda/kda_runtime.h"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <filesystem>
#include <limits>
#include <map>
#include <memory>
#include <sstream>
#include <vector>

using kda::rt::Backend;
using kda::rt::KernelHandle;
using kda::rt::LaunchPlan;
using kda::rt::PlannedLaunch;
using kda::rt::ScanRows;
namespace mf = kda::manifest;

namespace {
/// What a recurrent launch passes for an ABI argument: a kda_batch field.
enum class BatchField {
  Q, K, V, G, Beta, ALog, DtBias, CuSeqlens, Slots, HasInitialState, State,
  Out, Workspace, NumAcceptedTokens
};
} // namespace

struct kda_kernel {
  kda_bundle *bundle = nullptr;
  mf::Kernel m; // its manifest entry, validated
  kda_dtype act = KDA_BF16, g = KDA_BF16, beta = KDA_BF16, state = KDA_F32;
  kda_state_layout layout = KDA_LAYOUT_KV;
  /// Kernels of a layer: the batch field of each ABI argument, in order.
  std::vector<BatchField> binding;
  /// A plan of stages (the chunk path), on its stage-0 kernel: every stage
  /// in order, itself first, then the scan's alternatives (column blocks,
  /// narrowest first), of which a launch runs one (kda::rt::chooseScan).
  std::vector<const kda_kernel *> stages;
  /// The plan's split scan (maps, join, segments; kda::rt::chooseScan may
  /// pick it instead of a scan), or nulls: a layer without
  /// segment_chunks, or a target that cannot build it.
  std::array<const kda_kernel *, 3> split{};
  KernelHandle handle = nullptr;
  /// Workgroups of it a compute unit holds at once (the backend's
  /// residentWorkgroups, asked at load of the kernels the planner weighs;
  /// 0: unknown or not asked).
  uint32_t resident = 0;
  size_t index = 0; // in its bundle's kernels
};

struct kda_bundle {
  std::string dir, target;
  mf::Planner planner; // the manifest's, for kda_forward
  std::unique_ptr<Backend> backend;
  std::vector<kda_kernel> kernels;
  kda::rt::VariantChooser variants; // config table variants by N
  /// Lives exactly as long as the bundle: its plans hold a weak reference,
  /// so a plan used after kda_bundle_close is refused instead of reaching
  /// freed kernels and unloaded code objects.
  std::shared_ptr<const int> alive = std::make_shared<const int>(0);
};

struct kda_plan {
  kda_bundle *bundle = nullptr;
  std::weak_ptr<const int> bundleAlive;
  LaunchPlan plan;
};

namespace {
thread_local std::string lastError;
/// The largest code object a bundle may hold (the largest kda writes, all
/// of a target's kernels in one file, is a few MiB): a bound on what is
/// read into memory at open.
constexpr uintmax_t kMaxCodeObjectBytes = uintmax_t(1) << 30;
} // namespace

kda_status kda::rt::fail(kda_status s, std::string message) {
  lastError = std::move(message);
  return s;
}

void kda::rt::clearError() { lastError.clear(); }

std::string
kda::rt::repeatedSlot(std::vector<std::pair<int32_t, int32_t>> named,
                      const char *rows) {
  std::sort(named.begin(), named.end()); // repeats become neighbours
  for (size_t i = 1; i < named.size(); ++i)
    if (named[i].first == named[i - 1].first)
      return std::string(rows) + " " + std::to_string(named[i - 1].second) +
             " and " + std::to_string(named[i].second) + " both name slot " +
             std::to_string(named[i].first) + " (their states would race)";
  return "";
}

int64_t kda::rt::saturatedProduct(std::initializer_list<int64_t> factors) {
  int64_t product = 1;
  for (int64_t f : factors)
    if (f <= 0)
      return 0;
    else if (__builtin_mul_overflow(product, f, &product))
      product = std::numeric_limits<int64_t>::max();
  return product;
}

int64_t kda::rt::dtypeBytes(kda_dtype d) { return d == KDA_F32 ? 4 : 2; }

namespace {
/// Addresses of an extent as 128-bit integers (no wrap at the end of the
/// address space).
using Addr = __int128;
/// [first, last] byte of piece i of `e`.
std::pair<Addr, Addr> pieceBytes(const kda::rt::Extent &e, int64_t i) {
  const Addr at = Addr(uintptr_t(e.data)) + Addr(i) * e.stride;
  return {at, at + e.bytes - 1};
}
bool strided(const kda::rt::Extent &e) {
  return e.count > 1 && e.stride > e.bytes;
}
/// The hull of `e`: its first piece's first byte to its last piece's last.
std::pair<Addr, Addr> hull(const kda::rt::Extent &e) {
  return {pieceBytes(e, 0).first, pieceBytes(e, e.count - 1).second};
}
/// The first piece of strided `x` that bytes [first, last] meet, or -1:
/// the first piece ending at or after `first`, if it starts by `last`.
int64_t meets(const kda::rt::Extent &x, Addr first, Addr last) {
  const Addr reach = first - pieceBytes(x, 0).second;
  const Addr i = reach <= 0 ? 0 : (reach + x.stride - 1) / x.stride;
  if (i >= x.count || pieceBytes(x, int64_t(i)).first > last)
    return -1;
  return int64_t(i);
}
} // namespace

std::string kda::rt::extentRefusal(const std::vector<Extent> &extents) {
  constexpr int64_t kOverflowed = std::numeric_limits<int64_t>::max();
  for (const Extent &e : extents)
    if (e.data &&
        (e.bytes == kOverflowed ||
         (e.count > 1 && saturatedProduct({e.count, e.stride}) == kOverflowed)))
      return std::string(e.name) +
             " would be more than 2^63 - 1 bytes: a count it is sized by "
             "(num_tokens, num_seqs, num_slots) is wrong";
  return overlappingWrite(extents);
}

std::string kda::rt::overlappingWrite(const std::vector<Extent> &extents) {
  for (size_t i = 0; i < extents.size(); ++i)
    for (size_t j = 0; j < extents.size(); ++j) {
      const Extent &w = extents[i], &o = extents[j];
      if (i == j || !w.written || (o.written && j < i) || !w.data || !o.data ||
          w.bytes <= 0 || o.bytes <= 0 || w.count <= 0 || o.count <= 0)
        continue;
      // A strided extent against a plain one piece by piece; otherwise
      // hulls (only the state pool is strided).
      const bool byPieces = strided(w) != strided(o);
      const Extent &plain = strided(w) ? o : w, &other = strided(w) ? w : o;
      int64_t piece = -1;
      if (byPieces) {
        const auto [first, last] = hull(plain);
        piece = meets(other, first, last);
      } else if (hull(w).first <= hull(o).second &&
                 hull(o).first <= hull(w).second) {
        piece = 0;
      }
      if (piece < 0)
        continue;
      std::ostringstream why;
      why << w.name << " overlaps " << o.name << ": " << w.name << " is "
          << w.bytes << " bytes at " << w.data << ", " << o.name << " "
          << o.bytes << " at " << o.data;
      if (byPieces)
        why << " (" << other.name << " is " << other.count << " slots of "
            << other.bytes << " bytes, " << other.stride
            << " bytes apart; slot " << piece << " overlaps)";
      why << " (the kernels write " << w.name << " while they read or write "
          << o.name << ")";
      return why.str();
    }
  return "";
}

std::string kda::rt::checkDtypeValue(const char *field, int value) {
  if (value >= KDA_F32 && value <= KDA_F16)
    return "";
  return std::string(field) + " " + std::to_string(value) +
         " is not a kda_dtype (KDA_F32 0, KDA_BF16 1, KDA_F16 2)";
}

std::string kda::rt::checkLayoutValue(const char *field, int value) {
  if (value == KDA_LAYOUT_KV || value == KDA_LAYOUT_VK)
    return "";
  return std::string(field) + " " + std::to_string(value) +
         " is neither KDA_LAYOUT_KV (0) nor KDA_LAYOUT_VK (1)";
}

namespace {
using kda::rt::fail;

/// The enum fields of a batch, before they are compared with the bundle's
/// (a value outside the enum is reported as such, not as a mismatch).
kda_status checkEnums(const kda_batch &b) {
  std::string why;
  using kda::rt::enumBits;
  for (std::string w :
       {kda::rt::checkDtypeValue("act_dtype", enumBits(b.act_dtype)),
        kda::rt::checkDtypeValue("g_dtype", enumBits(b.g_dtype)),
        kda::rt::checkDtypeValue("beta_dtype", enumBits(b.beta_dtype)),
        kda::rt::checkDtypeValue("state_dtype", enumBits(b.state_dtype)),
        kda::rt::checkLayoutValue("state_layout", enumBits(b.state_layout))})
    if (why.empty())
      why = w;
  return why.empty() ? KDA_OK : fail(KDA_ERROR_INVALID_ARGUMENT, why);
}

bool parseDtype(const std::string &s, kda_dtype &out) {
  if (s == "f32")
    out = KDA_F32;
  else if (s == "bf16")
    out = KDA_BF16;
  else if (s == "f16")
    out = KDA_F16;
  else
    return false;
  return true;
}

const char *dtypeName(kda_dtype d) {
  switch (d) {
  case KDA_F32: return "f32";
  case KDA_BF16: return "bf16";
  case KDA_F16: return "f16";
  }
  return "?";
}

std::string describe(const mf::Kernel &k) {
  return "kernel '" + k.name + "' (" + k.target + ")";
}

//===----------------------------------------------------------------------===//
// The recurrent kernel's arguments by name
//===----------------------------------------------------------------------===//

/// An argument the runtime can pass to a recurrent kernel: the batch field,
/// the element type it must have (a kernel dtype or a fixed one) and role.
struct RecurrentArg {
  const char *name;
  BatchField field;
  const char *dtype; // "act", "g", "beta", "state" or a fixed type
  mf::Role role;
  const char *neededWhenUsed; // only required when "uses" lists this
  bool speculativeOnly = false; // only in speculative kernels (spec_tokens)
};

const RecurrentArg kRecurrentArgs[] = {
    {"q", BatchField::Q, "act", mf::Role::Input, nullptr},
    {"k", BatchField::K, "act", mf::Role::Input, nullptr},
    {"v", BatchField::V, "act", mf::Role::Input, nullptr},
    {"g", BatchField::G, "g", mf::Role::Input, nullptr},
    {"beta", BatchField::Beta, "beta", mf::Role::Input, nullptr},
    {"a_log", BatchField::ALog, "f32", mf::Role::Input, "a_log"},
    {"dt_bias", BatchField::DtBias, "f32", mf::Role::Input, "dt_bias"},
    {"cu_seqlens", BatchField::CuSeqlens, "i32", mf::Role::Input, nullptr},
    {"slots", BatchField::Slots, "i32", mf::Role::Input, nullptr},
    {"has_initial_state", BatchField::HasInitialState, "i8", mf::Role::Input,
     nullptr},
    {"state", BatchField::State, "state", mf::Role::InOut, nullptr},
    {"out", BatchField::Out, "act", mf::Role::Output, nullptr},
    {"num_accepted_tokens", BatchField::NumAcceptedTokens, "i32",
     mf::Role::Input, nullptr, /*speculativeOnly=*/true},
};

std::string knownRecurrentNames() {
  std::string names;
  for (const RecurrentArg &r : kRecurrentArgs)
    names += (names.empty() ? "" : ", ") + std::string(r.name);
  return names;
}

/// The element type a recurrent argument must have in kernel `k`.
std::string expectedDtype(const RecurrentArg &r, const mf::Kernel &k) {
  const std::string d = r.dtype;
  return d == "act" ? k.act : d == "g" ? k.g : d == "beta" ? k.beta
         : d == "state" ? k.state : d;
}

/// Maps each ABI argument of a layer's kernel to the batch field it is
/// launched with, in the manifest's order. Refuses names the runtime does
/// not know and types or roles that disagree with what it passes.
bool bindBatchFields(kda_kernel &k, std::string &why) {
  const mf::Kernel &m = k.m;
  k.binding.clear();
  for (const mf::Arg &a : m.args) {
    if (a.role == mf::Role::Workspace) {
      k.binding.push_back(BatchField::Workspace);
      continue;
    }
    const RecurrentArg *known = nullptr;
    for (const RecurrentArg &r : kRecurrentArgs)
      if (a.name == r.name)
        known = &r;
    if (!known) {
      why = describe(m) + ": unknown argument '" + a.name +
            "' (a recurrent kernel's arguments are " + knownRecurrentNames() +
            " and a workspace)";
      return false;
    }
    if (a.dtype != expectedDtype(*known, m)) {
      why = describe(m) + ": argument '" + a.name + "' has element type " +
            a.dtype + " but the runtime passes " + expectedDtype(*known, m);
      return false;
    }
    if (a.role != known->role) {
      why = describe(m) + ": argument '" + a.name + "' has role " +
            mf::roleName(a.role) + " but the runtime passes it as " +
            mf::roleName(known->role);
      return false;
    }
    k.binding.push_back(known->field);
  }
  return true;
}

/// Refuses a computation (one kernel, or the stages of a plan together)
/// whose ABIs lack an argument the runtime must pass.
bool checkNothingMissing(const mf::Kernel &m,
                         const std::vector<const mf::Kernel *> &parts,
                         std::string &why) {
  for (const RecurrentArg &r : kRecurrentArgs) {
    const auto spec = m.config.find("spec_tokens");
    const bool speculative = spec != m.config.end() && spec->second > 1;
    bool needed = (!r.neededWhenUsed || m.usesOperand(r.neededWhenUsed)) &&
                  (!r.speculativeOnly || speculative);
    bool listed = false;
    for (const mf::Kernel *p : parts)
      listed = listed || p->findArg(r.name);
    if (needed && !listed) {
      why = describe(m) + ": missing argument '" + std::string(r.name) +
            "' (the kernel's ABI does not list it)";
      return false;
    }
  }
  return true;
}

/// Whether the planner's cost model weighs this kernel's waves
/// (kda::rt::chooseScan: the scans, and the split's maps and segments), so
/// that its resident workgroups are asked of the driver at load.
bool weighedByPlanner(const std::string &kind) {
  return kind == "chunk_scan" || kind == "chunk_maps" ||
         kind == "chunk_segments";
}

bool isChunkKind(const std::string &kind) {
  return kind == "chunk_prep" || kind == "chunk_scan" || kind == "chunk_maps" ||
         kind == "chunk_join" || kind == "chunk_segments";
}

const void *batchValue(const kda_batch &b, BatchField f) {
  switch (f) {
  case BatchField::Q: return b.q;
  case BatchField::K: return b.k;
  case BatchField::V: return b.v;
  case BatchField::G: return b.g;
  case BatchField::Beta: return b.beta;
  case BatchField::ALog: return b.a_log;
  case BatchField::DtBias: return b.dt_bias;
  case BatchField::CuSeqlens: return b.cu_seqlens;
  case BatchField::Slots: return b.slots;
  case BatchField::HasInitialState: return b.has_initial_state;
  case BatchField::State: return b.state;
  case BatchField::Out: return b.out;
  case BatchField::Workspace: return b.workspace;
  case BatchField::NumAcceptedTokens: return b.num_accepted_tokens;
  }
  return nullptr;
}

//===----------------------------------------------------------------------===//
// Opening a bundle
//===----------------------------------------------------------------------===//

/// The runtime's view of a manifest entry: its dtypes as enums and, for a
/// recurrent kernel, the argument binding.
bool prepareKernel(const mf::Kernel &m, kda_kernel &k, std::string &why) {
  k.m = m;
  if (!m.hasLayer)
    return true;
  if (!parseDtype(m.act, k.act) || !parseDtype(m.g, k.g) ||
      !parseDtype(m.beta, k.beta) || !parseDtype(m.state, k.state)) {
    why = describe(m) + ": dtypes: unsupported element type";
    return false;
  }
  k.layout = m.layer.stateLayout == "vk" ? KDA_LAYOUT_VK : KDA_LAYOUT_KV;
  if (m.kind == "recurrent")
    return bindBatchFields(k, why) && checkNothingMissing(m, {&m}, why);
  if (isChunkKind(m.kind))
    return bindBatchFields(k, why);
  return true;
}

/// An entry's config value, 0 where absent.
int64_t configValue(const mf::Kernel &m, const char *key) {
  auto it = m.config.find(key);
  return it == m.config.end() ? 0 : it->second;
}

/// The split scan of chunk plan `k` from its stages 2 and up (none, or
/// maps, join and segments, one each, in that order: the manifest reader
/// checked the order), each stating the same segment_chunks and
/// max_segments and the grids the kernels index by.
bool linkSplit(kda_kernel &k, const std::vector<const kda_kernel *> &split,
               std::string &why) {
  if (split.empty())
    return true;
  static const char *const kinds[3] = {"chunk_maps", "chunk_join",
                                       "chunk_segments"};
  if (split.size() != 3) {
    why = describe(k.m) +
          ": a split scan is three stages (maps, join, "
          "segments); the plan has " +
          std::to_string(split.size()) + " after its scans";
    return false;
  }
  const mf::Layer &layer = k.m.layer;
  const int64_t chunks = configValue(split[0]->m, "segment_chunks");
  const int64_t most = configValue(split[0]->m, "max_segments");
  for (size_t i = 0; i < 3; ++i) {
    const mf::Kernel &m = split[i]->m;
    const int64_t blockV = configValue(m, "block_v");
    const int64_t columns =
        i == 0 ? int64_t(layer.headK) + layer.headV : layer.headV;
    const int64_t rows = i == 1 ? layer.valueHeads : layer.valueHeads * most;
    if (m.kind != kinds[i] || chunks < 2 || most < 1 ||
        configValue(m, "segment_chunks") != chunks ||
        configValue(m, "max_segments") != most || blockV <= 0 ||
        columns % blockV || m.grid[0] != columns / blockV ||
        m.grid[1] != rows || m.grid[2] != mf::kGridNumSeqs) {
      why = describe(m) + ": stage " + std::to_string(i + 2) +
            " of a split scan must be " + kinds[i] +
            " with the plan's segment_chunks and max_segments, grid (" +
            (i == 0 ? "(head_k + head_v)" : "head_v") +
            " / block_v, value_heads" + (i == 1 ? "" : " x max_segments") +
            ", num_seqs)";
      return false;
    }
  }
  std::copy(split.begin(), split.end(), k.split.begin());
  return true;
}

/// A stage of chunk plan `prep` runs on the batch and the workspace the
/// prep's entry sizes, at the prep's chunk size: it must compute the
/// prep's layer with its types and optional operands, count chunks alike
/// and size the workspace alike. Stages of two compiles assembled into one
/// plan (another chunk size, head count or gate) would read the records
/// otherwise, or past the workspace.
bool stageAgrees(const mf::Kernel &prep, const mf::Kernel &stage,
                 std::string &why) {
  std::string differ = mf::layerDifferences(stage, prep);
  mf::noteDifference(differ, "chunk_size", configValue(stage, "chunk_size"),
                     configValue(prep, "chunk_size"));
  mf::noteDifference(differ, "workspace fixed", stage.workspace.fixed,
                     prep.workspace.fixed);
  mf::noteDifference(differ, "workspace per_token", stage.workspace.perToken,
                     prep.workspace.perToken);
  mf::noteDifference(differ, "workspace per_seq", stage.workspace.perSeq,
                     prep.workspace.perSeq);
  if (!mf::sameUses(stage, prep))
    differ += std::string(differ.empty() ? "" : ", ") + "uses";
  if (differ.empty())
    return true;
  why = describe(stage) + ": stage " + std::to_string(stage.stage) +
        " of a chunk plan must compute its prep's layer at its chunk size "
        "with its workspace (stage / prep: " +
        differ + ")";
  return false;
}

/// Links each plan of stages (kernels sharing a name, stage 0 first; the
/// manifest reader checked the order) to its stage-0 kernel, and checks the
/// stages together pass everything the runtime must.
bool linkStages(std::vector<kda_kernel> &kernels, std::string &why) {
  for (kda_kernel &k : kernels) {
    if (k.m.stage != 0)
      continue;
    std::vector<const mf::Kernel *> parts;
    std::vector<const kda_kernel *> split;
    for (const kda_kernel &s : kernels)
      if (s.m.name == k.m.name && s.m.target == k.m.target) {
        (s.m.stage >= 2 ? split : k.stages).push_back(&s);
        parts.push_back(&s.m);
      }
    if (!linkSplit(k, split, why))
      return false;
    bool scans = k.stages.size() >= 2;
    for (size_t i = 1; i < k.stages.size(); ++i)
      scans &= k.stages[i]->m.kind == "chunk_scan";
    if (k.m.kind != "chunk_prep" || !scans) {
      why = describe(k.m) + ": a chunk plan is stage 0 chunk_prep and "
                            "stage 1 chunk_scan (one or more, by column "
                            "block)";
      return false;
    }
    // Alternatives differ in their column block alone: distinct, each
    // dividing head_v as its grid says, narrowest first.
    for (size_t i = 1; i < k.stages.size(); ++i) {
      const mf::Kernel &scan = k.stages[i]->m;
      auto bv = scan.config.find("block_v");
      const int64_t blockV = bv == scan.config.end() ? 0 : bv->second;
      if (blockV <= 0 || scan.layer.headV % blockV ||
          scan.grid[0] != scan.layer.headV / blockV) {
        why = describe(scan) + ": a scan's grid x must be head_v / block_v";
        return false;
      }
      if (i > 1 && scan.grid[0] >= k.stages[i - 1]->m.grid[0]) {
        why = describe(scan) + ": the scan alternatives must be listed "
                               "narrowest block first, each block distinct";
        return false;
      }
    }
    auto size = k.m.config.find("chunk_size");
    if (size == k.m.config.end() || size->second <= 0) {
      why = describe(k.m) + ": config has no chunk_size";
      return false;
    }
    for (const mf::Kernel *part : parts)
      if (!stageAgrees(k.m, *part, why))
        return false;
    if (!checkNothingMissing(k.m, parts, why))
      return false;
  }
  return true;
}

/// The target asked for: KDA_TARGET when set (the documented override, so a
/// program can be pointed at emu32 without a rebuild), else the caller's
/// argument; null: any.
const char *wantedTarget(const char *argument) {
  const char *env = std::getenv("KDA_TARGET");
  return env && *env ? env : argument;
}

/// Which bundle target a backend runs, among those present (`wanted` or,
/// when null, the first in the manifest's order).
std::string pickTarget(const Backend &b, const std::vector<kda_kernel> &all,
                       const char *wanted) {
  for (const kda_kernel &k : all)
    if (b.runs(k.m.target) && (!wanted || k.m.target == wanted))
      return k.m.target;
  return "";
}

/// Whether `bits` (a caller's kda_backend, read as an int: enumBits) is a
/// value of the enum; a C caller's int may be anything.
bool isBackend(int bits) {
  return bits == KDA_BACKEND_AUTO || bits == KDA_BACKEND_HIP ||
         bits == KDA_BACKEND_CUDA || bits == KDA_BACKEND_EMU;
}

std::unique_ptr<Backend> makeBackend(kda_backend kind, std::string &error) {
  switch (kind) {
  case KDA_BACKEND_HIP: return kda::rt::makeHipBackend(error);
  case KDA_BACKEND_CUDA: return kda::rt::makeCudaBackend(error);
  case KDA_BACKEND_EMU: return kda::rt::makeEmuBackend(error);
  case KDA_BACKEND_AUTO: break;
  }
  return nullptr;
}

/// Starts the first backend of `wanted` (or of hip, cuda, emu for AUTO) that
/// runs a target of the bundle.
kda_status startBackend(kda_backend wanted, const char *target,
                        const std::vector<kda_kernel> &all,
                        kda_bundle &bundle) {
  std::string errors;
  const kda_backend order[] = {KDA_BACKEND_HIP, KDA_BACKEND_CUDA,
                               KDA_BACKEND_EMU};
  for (kda_backend kind : order) {
    if (wanted != KDA_BACKEND_AUTO && wanted != kind)
      continue;
    std::string error;
    std::unique_ptr<Backend> b = makeBackend(kind, error);
    if (!b) {
      errors += (errors.empty() ? "" : "; ") + error;
      continue;
    }
    std::string picked = pickTarget(*b, all, target);
    if (picked.empty()) {
      const bool fromEnv = target && target == std::getenv("KDA_TARGET");
      errors += (errors.empty() ? "" : "; ") +
                std::string("the bundle has no kernels for this backend") +
                (target ? std::string(" and target ") + target +
                              (fromEnv ? " (KDA_TARGET)" : "")
                        : std::string());
      continue;
    }
    bundle.backend = std::move(b);
    bundle.target = picked;
    return KDA_OK;
  }
  return fail(KDA_ERROR_UNSUPPORTED, "no usable backend: " + errors);
}

bool aligned16(const void *p) { return (reinterpret_cast<uintptr_t>(p) & 15) == 0; }

//===----------------------------------------------------------------------===//
// Packing launches
//===----------------------------------------------------------------------===//

/// The launch dimensions of `k` for `numSeqs` sequences of at most
/// `maxChunks` chunks (the manifest's grid with "num_seqs" and "max_chunks"
/// replaced). Checks the hardware's grid limits.
kda_status launchDims(const kda_kernel &k, int64_t numSeqs,
                      kda::rt::LaunchDims &dims, int64_t maxChunks = 0) {
  const mf::Kernel &m = k.m;
  const int64_t limit[3] = {0x7fffffff, 65535, 65535};
  for (int i = 0; i < 3; ++i) {
    int64_t n = m.grid[i] == mf::kGridNumSeqs     ? numSeqs
                : m.grid[i] == mf::kGridMaxChunks ? maxChunks
                                                  : m.grid[i];
    if (n > limit[i])
      return fail(KDA_ERROR_INVALID_ARGUMENT,
                  (m.grid[i] == mf::kGridMaxChunks ? "max_chunks "
                   : m.grid[i] == mf::kGridNumSeqs ? "num_seqs "
                                                   : "the manifest's grid ") +
                      std::to_string(n) + " exceeds " +
                      std::to_string(limit[i]) + " (grid " + "xyz"[i] + " of " +
                      describe(m) + ")");
    dims.grid[i] = uint32_t(n);
    dims.block[i] = m.block[i];
  }
  dims.waveSize = m.waveSize;
  dims.dynamicLdsBytes = m.dynamicLdsBytes;
  return KDA_OK;
}

bool usesNumSeqs(const kda_kernel &k) {
  return k.m.grid[0] < 0 || k.m.grid[1] < 0 || k.m.grid[2] < 0;
}

/// Packs a recurrent launch of a validated batch; none when it has no
/// sequences.
kda_status packRecurrent(const kda_kernel *k, const kda_batch *b,
                         LaunchPlan &plan) {
  if (kda_status s = kda_validate_recurrent(k, b))
    return s;
  return kda::rt::packRecurrentUnchecked(k, *b, plan);
}

/// Packs a launch given by name: each ABI argument exactly once.
kda_status packNamed(const kda_kernel *k, const kda_arg *args,
                     int32_t numArgs, int64_t numSeqs, LaunchPlan &plan) {
  if (!k)
    return fail(KDA_ERROR_INVALID_ARGUMENT, "null kernel");
  const mf::Kernel &m = k->m;
  if (numArgs < 0 || (numArgs > 0 && !args))
    return fail(KDA_ERROR_INVALID_ARGUMENT,
                describe(m) + ": null or negative argument list");
  if (numSeqs < 0)
    return fail(KDA_ERROR_INVALID_ARGUMENT,
                describe(m) + ": negative num_seqs " + std::to_string(numSeqs));
  // A named launch fills in num_seqs only: a grid sized by the batch's
  // longest row (the chunk kernels' max_chunks) needs the batch itself.
  for (int64_t g : m.grid)
    if (g == mf::kGridMaxChunks)
      return fail(KDA_ERROR_INVALID_ARGUMENT,
                  describe(m) +
                      ": its grid is sized by max_chunks (the chunks of the "
                      "batch's longest row), which a launch by name does not "
                      "give; launch it with kda_launch_chunk or "
                      "kda_plan_add_chunk");
  std::vector<void *> values(m.args.size(), nullptr);
  std::vector<bool> given(m.args.size(), false);
  for (int32_t i = 0; i < numArgs; ++i) {
    if (!args[i].name)
      return fail(KDA_ERROR_INVALID_ARGUMENT,
                  describe(m) + ": argument " + std::to_string(i) +
                      " has no name");
    const std::string name = args[i].name;
    size_t j = 0;
    while (j < m.args.size() && m.args[j].name != name)
      ++j;
    if (j == m.args.size()) {
      std::string list;
      for (const mf::Arg &a : m.args)
        list += (list.empty() ? "" : ", ") + a.name;
      return fail(KDA_ERROR_INVALID_ARGUMENT,
                  describe(m) + " has no argument '" + name +
                      "' (its arguments: " + list + ")");
    }
    if (given[j])
      return fail(KDA_ERROR_INVALID_ARGUMENT,
                  describe(m) + ": argument '" + name + "' given twice");
    if (args[i].ptr && !aligned16(args[i].ptr))
      return fail(KDA_ERROR_INVALID_ARGUMENT,
                  describe(m) + ": argument '" + name +
                      "' is not 16-byte aligned");
    if (!args[i].ptr && m.args[j].role == mf::Role::Workspace &&
        !m.workspace.empty())
      return fail(KDA_ERROR_INVALID_ARGUMENT,
                  describe(m) + ": workspace argument '" + name +
                      "' is null but the kernel needs one");
    given[j] = true;
    values[j] = args[i].ptr;
  }
  for (size_t j = 0; j < m.args.size(); ++j)
    if (!given[j])
      return fail(KDA_ERROR_INVALID_ARGUMENT,
                  describe(m) + ": argument '" + m.args[j].name +
                      "' is missing");
  if (numSeqs == 0 && usesNumSeqs(*k))
    return KDA_OK; // an empty grid: nothing to launch
  PlannedLaunch l;
  l.kernel = m.name;
  l.symbol = m.symbol;
  l.handle = k->handle;
  if (kda_status s = launchDims(*k, numSeqs, l.dims))
    return s;
  l.values = std::move(values);
  plan.add(std::move(l));
  return KDA_OK;
}

} // namespace

kda_status kda::rt::runPlan(const kda_bundle *bundle, const LaunchPlan &plan,
                            void *stream) {
  return runPlan(bundle, plan, stream, 0, plan.size());
}

kda_status kda::rt::runPlan(const kda_bundle *bundle, const LaunchPlan &plan,
                            void *stream, size_t first, size_t count) {
  std::string error;
  if (kda_status s = plan.run(*bundle->backend, stream, error, first, count))
    return fail(s, error);
  return KDA_OK;
}

/// One launch of a layer's kernel on `b`: its grid for the batch, its
/// arguments from the batch fields its ABI names.
static kda_status packBatchLaunch(const kda_kernel *k, const kda_batch &b,
                                  int64_t maxChunks, PlannedLaunch &l) {
  l.kernel = k->m.stage < 0 ? k->m.name : k->m.name + " (" + k->m.kind + ")";
  l.symbol = k->m.symbol;
  l.handle = k->handle;
  if (kda_status s = launchDims(*k, b.num_seqs, l.dims, maxChunks))
    return s;
  for (BatchField f : k->binding)
    l.values.push_back(const_cast<void *>(batchValue(b, f)));
  return KDA_OK;
}

kda_status kda::rt::packRecurrentUnchecked(const kda_kernel *k,
                                           const kda_batch &b,
                                           LaunchPlan &plan) {
  if (b.num_seqs == 0)
    return KDA_OK;
  // The config table's variant for this N, if any (host data only).
  k = &k->bundle->kernels[k->bundle->variants.choose(k->index, b.num_seqs)];
  PlannedLaunch l;
  if (kda_status s = packBatchLaunch(k, b, /*maxChunks=*/0, l))
    return s;
  plan.add(std::move(l));
  return KDA_OK;
}

const mf::Kernel &kda::rt::kernelManifest(const kda_kernel *k) { return k->m; }

kda::rt::RowVariant kda::rt::rowVariant(const kda_kernel *k) {
  return mf::rowVariantOf(k->m);
}
std::string kda::rt::describeKernel(const kda_kernel *k) {
  return describe(k->m);
}
const kda_bundle *kda::rt::kernelBundle(const kda_kernel *k) {
  return k->bundle;
}
const kda_bundle *kda::rt::planBundle(const kda_plan *p) { return p->bundle; }

kda_status kda::rt::checkPlanOpen(const kda_plan *p) {
  if (!p)
    return fail(KDA_ERROR_INVALID_ARGUMENT, "null plan");
  if (p->bundleAlive.expired())
    return fail(KDA_ERROR_INVALID_ARGUMENT,
                "the plan's bundle was closed (kda_bundle_close): a plan dies "
                "with its bundle; destroy it and build one on an open bundle");
  return KDA_OK;
}
LaunchPlan &kda::rt::planLaunches(kda_plan *p) { return p->plan; }

static kda_status validateLayerBatch(const kda_kernel *k, const kda_batch *b);
static kda_status openBundle(const char *dir, int backendBits,
                             const char *target, kda_bundle **out);

extern "C" {

const char *kda_last_error(void) { return lastError.c_str(); }

kda_status kda_bundle_open(const char *dir, kda_backend backend,
                           kda_bundle **out) {
  return openBundle(dir, kda::rt::enumBits(backend), nullptr, out);
}

kda_status kda_bundle_open_target(const char *dir, kda_backend backend,
                                  const char *target, kda_bundle **out) {
  return openBundle(dir, kda::rt::enumBits(backend), target, out);
}

} // extern "C"

/// kda_bundle_open_target with the backend as the caller's int: it becomes
/// a kda_backend only once it is one of the enum's values (a C caller may
/// pass any int, which C++ may not hold in the enum).
static kda_status openBundle(const char *dir, int backendBits,
                             const char *target, kda_bundle **out) {
  lastError.clear();
  if (!dir || !out)
    return fail(KDA_ERROR_INVALID_ARGUMENT, "null bundle path or result");
  *out = nullptr;
  if (!isBackend(backendBits))
    return fail(KDA_ERROR_INVALID_ARGUMENT,
                "backend " + std::to_string(backendBits) +
                    " is none of auto, hip, cuda, emu");
  const auto backend = static_cast<kda_backend>(backendBits);
  if (target && !*target)
    return fail(KDA_ERROR_INVALID_ARGUMENT,
                "empty target name (pass null for the first target the "
                "backend runs)");
  // "" would name /manifest.json, a file of the root, not a bundle folder.
  if (!*dir)
    return fail(KDA_ERROR_INVALID_ARGUMENT,
                "empty bundle path (name the folder kda-compile wrote; \".\" "
                "for the current one)");
  const std::string manifestPath = std::string(dir) + "/manifest.json";
  // Whether it is there, without opening it (a FIFO would block the open);
  // what it is, is readManifest's to check.
  std::error_code ec;
  if (!std::filesystem::exists(manifestPath, ec))
    return fail(KDA_ERROR_NOT_FOUND, "no manifest at " + manifestPath);
  mf::Manifest manifest;
  std::string why;
  if (!mf::readManifest(dir, manifest, why))
    return fail(KDA_ERROR_BAD_BUNDLE, why);
  // Every kernel of the bundle is checked, whichever target runs: a bundle
  // is refused as a whole.
  std::vector<kda_kernel> all(manifest.kernels.size());
  for (size_t i = 0; i < all.size(); ++i)
    if (!prepareKernel(manifest.kernels[i], all[i], why))
      return fail(KDA_ERROR_BAD_BUNDLE, manifestPath + ": " + why);
  if (std::string bad = kda::rt::checkVariants(manifest); !bad.empty())
    return fail(KDA_ERROR_BAD_BUNDLE, manifestPath + ": " + bad);

  auto bundle = std::make_unique<kda_bundle>();
  bundle->dir = dir;
  bundle->planner = manifest.planner;
  if (kda_status s =
          startBackend(backend, wantedTarget(target), all, *bundle))
    return s;
  // The target's code objects, each read once (a regular file, read
  // without blocking: the loaders blocked on a FIFO and read a device
  // without end) and checked against every entry naming it; the backend
  // loads these bytes, not the path again.
  std::map<std::string, std::string> images;
  for (kda_kernel &k : all) {
    if (k.m.target != bundle->target)
      continue;
    std::string error;
    const std::string file = bundle->dir + "/" + k.m.file;
    auto [image, fresh] = images.try_emplace(file);
    if (fresh &&
        !mf::readBoundedFile(file, kMaxCodeObjectBytes, image->second, error)) {
      images.erase(image);
      return fail(KDA_ERROR_BAD_BUNDLE, describe(k.m) + ": " + error);
    }
    if (std::string bad = mf::checkFileDigest(k.m, image->second); !bad.empty())
      return fail(KDA_ERROR_BAD_BUNDLE, describe(k.m) + ": " + bad);
    if (kda_status s =
            bundle->backend->load(file, image->second, k.m.symbol,
                                  k.m.dynamicLdsBytes, k.handle, error))
      return fail(s, describe(k.m) + ": " + error);
    if (weighedByPlanner(k.m.kind))
      k.resident = bundle->backend->residentWorkgroups(
          k.handle, uint32_t(k.m.block[0] * k.m.block[1] * k.m.block[2]),
          k.m.dynamicLdsBytes);
    bundle->kernels.push_back(std::move(k));
  }
  std::vector<const mf::Kernel *> loaded;
  for (size_t i = 0; i < bundle->kernels.size(); ++i) {
    bundle->kernels[i].bundle = bundle.get();
    bundle->kernels[i].index = i;
    loaded.push_back(&bundle->kernels[i].m);
  }
  bundle->variants.build(loaded);
  if (!linkStages(bundle->kernels, why))
    return fail(KDA_ERROR_BAD_BUNDLE, manifestPath + ": " + why);
  // Last, so that an entry that breaks a rule is refused by that rule: an
  // entry that breaks none but is not the one its code object was compiled
  // from would launch that code with another geometry or argument order.
  for (const mf::Kernel &m : manifest.kernels)
    if (std::string unbound = mf::checkBinding(m); !unbound.empty())
      return fail(KDA_ERROR_BAD_BUNDLE,
                  manifestPath + ": " + describe(m) + ": " + unbound);
  *out = bundle.release();
  return KDA_OK;
}

extern "C" {

void kda_bundle_close(kda_bundle *bundle) { delete bundle; }

int32_t kda_bundle_recurrent_max_tokens(const kda_bundle *bundle,
                                        const char **provenance) {
  const bool measured = bundle && bundle->planner.recurrentMaxTokens > 0;
  if (provenance)
    *provenance = measured ? bundle->planner.provenance.c_str() : "default";
  return measured ? bundle->planner.recurrentMaxTokens
                  : KDA_DEFAULT_RECURRENT_MAX_TOKENS;
}

kda_backend kda_bundle_backend(const kda_bundle *bundle) {
  return bundle ? bundle->backend->kind() : KDA_BACKEND_AUTO;
}

const char *kda_bundle_target(const kda_bundle *bundle) {
  return bundle ? bundle->target.c_str() : "";
}

kda_status kda_bundle_find(kda_bundle *bundle, const char *name,
                           const kda_kernel **out) {
  lastError.clear();
  if (!bundle || !name || !out)
    return fail(KDA_ERROR_INVALID_ARGUMENT, "null argument");
  for (const kda_kernel &k : bundle->kernels)
    if (k.m.name == name) {
      *out = &k;
      return KDA_OK;
    }
  return fail(KDA_ERROR_NOT_FOUND, std::string("no kernel '") + name +
                                       "' for " + bundle->target + " in " +
                                       bundle->dir);
}

kda_status kda_kernel_variant_for(const kda_kernel *k, int64_t numSeqs,
                                   const char **name) {
  lastError.clear();
  if (!k || !name || numSeqs < 0)
    return fail(KDA_ERROR_INVALID_ARGUMENT,
                "null kernel or result, or negative num_seqs");
  *name = k->bundle->kernels[k->bundle->variants.choose(k->index, numSeqs)]
              .m.name.c_str();
  return KDA_OK;
}

kda_status kda_kernel_workspace_bytes(const kda_kernel *k, int64_t numTokens,
                                      int64_t numSeqs, int64_t *bytes) {
  lastError.clear();
  if (!k || !bytes)
    return fail(KDA_ERROR_INVALID_ARGUMENT, "null kernel or result");
  if (numTokens < 0 || numSeqs < 0)
    return fail(KDA_ERROR_INVALID_ARGUMENT,
                "negative num_tokens or num_seqs");
  int64_t n = k->m.workspace.bytes(numTokens, numSeqs);
  if (n < 0)
    return fail(KDA_ERROR_INVALID_ARGUMENT,
                describe(k->m) + ": the workspace of " +
                    std::to_string(numTokens) + " tokens in " +
                    std::to_string(numSeqs) + " sequences overflows int64");
  *bytes = n;
  return KDA_OK;
}

kda_status kda_validate_recurrent(const kda_kernel *k, const kda_batch *b) {
  lastError.clear();
  if (!k || !b)
    return fail(KDA_ERROR_INVALID_ARGUMENT, !k ? "null kernel" : "null batch");
  if (k->m.kind != "recurrent")
    return fail(KDA_ERROR_INVALID_ARGUMENT,
                "kernel " + k->m.name + " is not a recurrent kernel");
  // A kda_batch has one slot per row, slot <= 0 as padding and contiguous
  // slots; kernel variants (speculative rows, slot < 0 padding, a wider
  // slot stride) are described by kda_forward_args instead.
  const mf::Kernel &m = k->m;
  const kda::rt::RowVariant variant = kda::rt::rowVariant(k);
  if (!variant.plain(int64_t(m.layer.valueHeads) * m.layer.headK *
                     m.layer.headV))
    return fail(KDA_ERROR_INVALID_ARGUMENT,
                describe(m) + " is a row variant (spec_tokens " +
                    std::to_string(variant.specTokens) + ", padding_below " +
                    std::to_string(variant.paddingBelow) + ", slot_stride " +
                    std::to_string(variant.slotStride) +
                    "): launch it with kda_forward");
  return validateLayerBatch(k, b);
}

kda_status kda_validate_chunk(const kda_kernel *k, const kda_batch *b) {
  lastError.clear();
  if (!k || !b)
    return fail(KDA_ERROR_INVALID_ARGUMENT, !k ? "null kernel" : "null batch");
  if (k->stages.empty())
    return fail(KDA_ERROR_INVALID_ARGUMENT,
                "kernel " + k->m.name + " is not a chunk kernel");
  return validateLayerBatch(k, b);
}

} // extern "C"

/// The batch's tensors as memory, by the layer's shapes; a contiguous pool
/// (kda_batch has no slot stride). The host copies are the runtime's to
/// read, not the kernels'.
static std::vector<kda::rt::Extent>
batchExtents(const mf::Kernel &m, const kda_batch &b, int64_t workspaceNeed) {
  using kda::rt::dtypeBytes;
  using kda::rt::saturatedProduct;
  const mf::Layer &l = m.layer;
  const int64_t N = b.num_seqs;
  std::vector<kda::rt::Extent> extents = kda::rt::tokenExtents(m, b);
  extents.insert(
      extents.end(),
      {{"cu_seqlens", b.cu_seqlens, saturatedProduct({N + 1, 4}), false},
       {"slots", b.slots, saturatedProduct({N, 4}), false},
       {"has_initial_state", b.has_initial_state, saturatedProduct({N}), false},
       {"state", b.state,
        saturatedProduct({b.num_slots, l.valueHeads, l.headK, l.headV,
                          dtypeBytes(b.state_dtype)}),
        true},
       // The bytes the kernels write: a launch that needs none writes none.
       {"workspace", b.workspace, workspaceNeed, true}});
  return extents;
}

/// What every launch of a layer's kernels checks first: the batch against
/// the layer, dtypes and layout, pointers, workspace, the host copies of
/// cu_seqlens and slots.
static kda_status validateLayerBatch(const kda_kernel *k, const kda_batch *b) {
  const mf::Kernel &m = k->m;
  std::ostringstream why;
  auto bad = [&]() {
    return fail(KDA_ERROR_INVALID_ARGUMENT, why.str());
  };
  const mf::Layer &l = m.layer;
  if (b->heads != l.heads || b->value_heads != l.valueHeads ||
      b->head_k != l.headK || b->head_v != l.headV) {
    why << "dims (H " << b->heads << ", HV " << b->value_heads << ", K "
        << b->head_k << ", V " << b->head_v << ") do not match kernel "
        << m.name << " (H " << l.heads << ", HV " << l.valueHeads << ", K "
        << l.headK << ", V " << l.headV << ")";
    return bad();
  }
  if (kda_status s = checkEnums(*b))
    return s;
  struct DtypeCheck { const char *what; kda_dtype given, expected; };
  for (DtypeCheck c : {DtypeCheck{"activation", b->act_dtype, k->act},
                       DtypeCheck{"g", b->g_dtype, k->g},
                       DtypeCheck{"beta", b->beta_dtype, k->beta},
                       DtypeCheck{"state", b->state_dtype, k->state}})
    if (c.given != c.expected) {
      why << c.what << " dtype " << dtypeName(c.given) << " is not the "
          << "bundle's " << dtypeName(c.expected) << " (unsupported here)";
      return bad();
    }
  if (b->state_layout != k->layout) {
    auto name = [](kda_state_layout l) {
      return l == KDA_LAYOUT_VK ? "vk" : "kv";
    };
    why << "state layout " << name(b->state_layout)
        << " does not match the bundle's " << name(k->layout);
    return bad();
  }
  if (b->num_seqs < 0 || b->num_tokens < 0) {
    why << (b->num_seqs < 0 ? "num_seqs " : "num_tokens ")
        << (b->num_seqs < 0 ? b->num_seqs : b->num_tokens) << " is negative";
    return bad();
  }
  if (b->num_slots < 0) {
    why << "num_slots " << b->num_slots << " is negative";
    return bad();
  }
  if (b->num_seqs > 65535) {
    why << "num_seqs " << b->num_seqs << " exceeds 65535 (grid z)";
    return bad();
  }
  const int64_t need = m.workspace.bytes(b->num_tokens, b->num_seqs);
  // As kda_forward: a batch of no rows has no per-row arrays, one of no
  // tokens no per-token tensors, an empty pool no state (an empty vector's
  // or tensor's data() is null); the kernels read none of them then.
  const bool rows = b->num_seqs > 0, tokens = b->num_tokens > 0,
             pool = b->num_slots > 0;
  struct Ptr { const char *name; const void *p; bool needed; };
  const Ptr ptrs[] = {{"q", b->q, tokens},
                      {"k", b->k, tokens},
                      {"v", b->v, tokens},
                      {"g", b->g, tokens},
                      {"beta", b->beta, tokens},
                      {"a_log", b->a_log, m.usesOperand("a_log")},
                      {"dt_bias", b->dt_bias, m.usesOperand("dt_bias")},
                      {"cu_seqlens", b->cu_seqlens, true},
                      {"slots", b->slots, rows},
                      {"has_initial_state", b->has_initial_state, rows},
                      {"state", b->state, pool},
                      {"out", b->out, tokens},
                      {"cu_seqlens_host", b->cu_seqlens_host, true},
                      {"slots_host", b->slots_host, rows},
                      {"workspace", b->workspace, need != 0}};
  for (const Ptr &p : ptrs) {
    if (p.needed && !p.p) {
      why << p.name << " is null";
      return bad();
    }
    // Host copies are read element by element: an engine may pass a
    // pointer into the middle of its own array, aligned to its int32
    // elements (as kda_forward requires of its host copies).
    const bool host = std::string(p.name).rfind("_host") != std::string::npos;
    if (p.p && host && (reinterpret_cast<uintptr_t>(p.p) & 3) != 0) {
      why << p.name << " is not 4-byte aligned (its int32 elements)";
      return bad();
    }
    if (p.p && !host && !aligned16(p.p)) {
      why << p.name << " is not 16-byte aligned";
      return bad();
    }
  }
  if (need < 0) { // the formula's overflow mark, not a size
    why << "the workspace of " << b->num_tokens << " tokens in " << b->num_seqs
        << " sequences overflows int64 (kernel " << m.name << ")";
    return bad();
  }
  if (b->workspace_bytes < 0) {
    why << "workspace_bytes is " << b->workspace_bytes << " (a size: >= 0)";
    return bad();
  }
  if (b->workspace_bytes < need) {
    why << "workspace of " << b->workspace_bytes << " bytes; kernel "
        << m.name << " needs " << need << " for this batch";
    return bad();
  }
  const int32_t *cu = b->cu_seqlens_host;
  if (cu[0] != 0) {
    why << "cu_seqlens[0] is " << cu[0] << ", not 0";
    return bad();
  }
  for (int32_t i = 0; i < b->num_seqs; ++i)
    if (cu[i + 1] < cu[i]) {
      why << "cu_seqlens is not monotonic: cu_seqlens[" << i + 1
          << "] = " << cu[i + 1] << " < cu_seqlens[" << i << "] = " << cu[i];
      return bad();
    }
  if (cu[b->num_seqs] != b->num_tokens) {
    why << "cu_seqlens ends at " << cu[b->num_seqs] << ", not num_tokens "
        << b->num_tokens;
    return bad();
  }
  // Only a named slot (> 0) is read or written: a padding row's slot need
  // not be in the pool (slot 0 of an empty one).
  for (int32_t i = 0; i < b->num_seqs; ++i)
    if (b->slots_host[i] > 0 && b->slots_host[i] >= b->num_slots) {
      why << "slot index " << b->slots_host[i] << " of sequence " << i
          << " is outside the pool of " << b->num_slots << " slots";
      return bad();
    }
  // Two non-padding rows naming one slot would race on its state.
  std::vector<std::pair<int32_t, int32_t>> named;
  for (int32_t i = 0; i < b->num_seqs; ++i)
    if (b->slots_host[i] > 0)
      named.push_back({b->slots_host[i], i});
  std::string repeat = kda::rt::repeatedSlot(std::move(named), "sequences");
  if (!repeat.empty())
    return fail(KDA_ERROR_INVALID_ARGUMENT, repeat);
  // Last: the extents follow num_tokens, which cu_seqlens has confirmed.
  std::string refusal = kda::rt::extentRefusal(batchExtents(m, *b, need));
  return refusal.empty() ? KDA_OK : fail(KDA_ERROR_INVALID_ARGUMENT, refusal);
}

/// The chunk layer's alternatives after the prep: its scans, then its
/// split scan (by its first stage) where it has one.
static std::vector<const kda_kernel *> chunkScanChoices(const kda_kernel *k) {
  std::vector<const kda_kernel *> choices;
  if (k->stages.empty())
    return choices;
  choices.assign(k->stages.begin() + 1, k->stages.end());
  if (k->split[0])
    choices.push_back(k->split[0]);
  return choices;
}

/// Which of chunkScanChoices(k) runs `batch` (chunks of `size` rows):
/// whichever the planner's cost model finds cheapest for its shape.
static int32_t chunkWayFor(const kda_kernel *k, const kda_batch &batch,
                           int64_t size) {
  auto way = [](const kda_kernel *stage) { // block_v checked at open
    auto self = stage->m.config.find("self_staged");
    return kda::rt::ScanWay{stage->m.grid[0], stage->m.config.at("block_v"),
                            stage->resident,
                            self != stage->m.config.end() && self->second != 0};
  };
  std::vector<kda::rt::ScanWay> scans;
  for (size_t i = 1; i < k->stages.size(); ++i)
    scans.push_back(way(k->stages[i]));
  kda::rt::SplitWay split;
  if (k->split[0])
    split = {k->split[0]->m.config.at("segment_chunks"),
             k->split[0]->m.config.at("max_segments"), way(k->split[0]),
             way(k->split[2])};
  const mf::Layer &layer = k->m.layer;
  ScanRows rows{batch.num_seqs, batch.cu_seqlens_host, batch.slots_host,
                layer.valueHeads, size};
  return int32_t(
      kda::rt::chooseScan(rows, scans, k->split[0] ? &split : nullptr,
                          layer.headK, k->bundle->backend->computeUnits()));
}

/// Packs the chunk path's launches of a validated batch: prep over (chunks
/// of the longest named sequence, value heads, sequences), then the scan. No
/// prep when no named sequence has a token; the scan still writes every
/// named slot's final state (its initial state, or zeros) and every padding
/// row's zeros.
kda_status kda::rt::packChunkUnchecked(const kda_kernel *k,
                                       const kda_batch &batch, LaunchPlan &plan,
                                       int32_t forced) {
  const kda_batch *b = &batch;
  if (b->num_seqs == 0)
    return KDA_OK;
  const int64_t size = k->m.config.at("chunk_size"); // checked at open
  // The prep's grid: the chunks of the longest named row (a padding row,
  // slot <= 0, runs no chunk loop; the scan writes its zeros).
  int64_t maxChunks = 0;
  for (int32_t i = 0; i < b->num_seqs; ++i) {
    if (b->slots_host[i] <= 0)
      continue;
    maxChunks = std::max(
        maxChunks,
        kda::rt::chunkCount(
            int64_t(b->cu_seqlens_host[i + 1]) - b->cu_seqlens_host[i], size));
  }
  // The prep, then a scan or the split scan's three stages: the caller's
  // choice, else the planner's.
  const int32_t choice = forced >= 0 ? forced : chunkWayFor(k, *b, size);
  const kda_kernel *after = chunkScanChoices(k).at(size_t(choice));
  std::vector<const kda_kernel *> stages = {k->stages[0], after};
  if (after == k->split[0])
    stages = {k->stages[0], k->split[0], k->split[1], k->split[2]};
  // Every stage packed before any joins the plan: a refusal leaves the
  // plan as it was.
  std::vector<PlannedLaunch> launches;
  for (const kda_kernel *stage : stages) {
    const bool perChunk = std::find(std::begin(stage->m.grid),
                                    std::end(stage->m.grid),
                                    mf::kGridMaxChunks) !=
                          std::end(stage->m.grid);
    if (perChunk && maxChunks == 0)
      continue;
    launches.emplace_back();
    if (kda_status s = packBatchLaunch(stage, *b, maxChunks, launches.back()))
      return s;
  }
  for (PlannedLaunch &l : launches)
    plan.add(std::move(l));
  return KDA_OK;
}

static kda_status packChunk(const kda_kernel *k, const kda_batch *b,
                            LaunchPlan &plan) {
  if (kda_status s = kda_validate_chunk(k, b))
    return s;
  return kda::rt::packChunkUnchecked(k, *b, plan);
}

extern "C" {

kda_status kda_launch_chunk(const kda_kernel *k, const kda_batch *b,
                            void *stream) {
  lastError.clear();
  LaunchPlan plan;
  if (kda_status s = packChunk(k, b, plan))
    return s;
  return kda::rt::runPlan(k->bundle, plan, stream);
}

kda_status kda_launch_recurrent(const kda_kernel *k, const kda_batch *b,
                                void *stream) {
  lastError.clear();
  LaunchPlan plan;
  if (kda_status s = packRecurrent(k, b, plan))
    return s;
  return kda::rt::runPlan(k->bundle, plan, stream);
}

kda_status kda_launch_named(const kda_kernel *k, const kda_arg *args,
                            int32_t numArgs, int64_t numSeqs, void *stream) {
  lastError.clear();
  LaunchPlan plan;
  if (kda_status s = packNamed(k, args, numArgs, numSeqs, plan))
    return s;
  return kda::rt::runPlan(k->bundle, plan, stream);
}

kda_status kda_plan_create(kda_bundle *bundle, kda_plan **out) {
  lastError.clear();
  if (!bundle || !out)
    return fail(KDA_ERROR_INVALID_ARGUMENT, "null bundle or result");
  *out = new kda_plan{bundle, bundle->alive, {}};
  return KDA_OK;
}

/// A kernel may join a plan only from the plan's bundle (one backend, one
/// stream).
static kda_status checkPlanKernel(const kda_plan *plan, const kda_kernel *k) {
  if (kda_status s = kda::rt::checkPlanOpen(plan))
    return s;
  if (!k)
    return fail(KDA_ERROR_INVALID_ARGUMENT, "null kernel");
  if (k->bundle != plan->bundle)
    return fail(KDA_ERROR_INVALID_ARGUMENT,
                describe(k->m) + " is not from the plan's bundle");
  return KDA_OK;
}

kda_status kda_plan_add_recurrent(kda_plan *plan, const kda_kernel *k,
                                  const kda_batch *b) {
  lastError.clear();
  if (kda_status s = checkPlanKernel(plan, k))
    return s;
  return packRecurrent(k, b, plan->plan);
}

kda_status kda_plan_add_chunk(kda_plan *plan, const kda_kernel *k,
                              const kda_batch *b) {
  lastError.clear();
  if (kda_status s = checkPlanKernel(plan, k))
    return s;
  return packChunk(k, b, plan->plan);
}

int32_t kda_kernel_chunk_scan_count(const kda_kernel *k) {
  return k ? int32_t(chunkScanChoices(k).size()) : 0;
}

const char *kda_kernel_chunk_scan_symbol(const kda_kernel *k, int32_t scan) {
  if (!k)
    return nullptr;
  std::vector<const kda_kernel *> choices = chunkScanChoices(k);
  if (scan < 0 || size_t(scan) >= choices.size())
    return nullptr;
  return choices[size_t(scan)]->m.symbol.c_str();
}

kda_status kda_plan_add_chunk_scan(kda_plan *plan, const kda_kernel *k,
                                   const kda_batch *b, int32_t scan) {
  lastError.clear();
  if (kda_status s = checkPlanKernel(plan, k))
    return s;
  const int32_t n = kda_kernel_chunk_scan_count(k);
  if (scan < 0 || scan >= n) {
    std::string symbol = k->m.symbol;
    return fail(KDA_ERROR_INVALID_ARGUMENT,
                n ? "scan alternative " + std::to_string(scan) +
                        " is not one of " + symbol + "'s " + std::to_string(n) +
                        " (0.." + std::to_string(n - 1) + ")"
                  : symbol + " is not a chunk layer's kernel: it has no scan "
                             "alternatives");
  }
  if (kda_status s = kda_validate_chunk(k, b))
    return s;
  return kda::rt::packChunkUnchecked(k, *b, plan->plan, scan);
}

kda_status kda_plan_add_named(kda_plan *plan, const kda_kernel *k,
                              const kda_arg *args, int32_t numArgs,
                              int64_t numSeqs) {
  lastError.clear();
  if (kda_status s = checkPlanKernel(plan, k))
    return s;
  return packNamed(k, args, numArgs, numSeqs, plan->plan);
}

int32_t kda_plan_size(const kda_plan *plan) {
  return plan ? int32_t(plan->plan.size()) : 0;
}

const char *kda_plan_kernel_symbol(const kda_plan *plan, int32_t index) {
  if (!plan || index < 0 || size_t(index) >= plan->plan.size())
    return nullptr;
  return plan->plan[size_t(index)].symbol.c_str();
}

kda_status kda_plan_launch(const kda_plan *plan, void *stream) {
  lastError.clear();
  if (kda_status s = kda::rt::checkPlanOpen(plan))
    return s;
  return kda::rt::runPlan(plan->bundle, plan->plan, stream);
}

kda_status kda_plan_launch_range(const kda_plan *plan, int32_t first,
                                 int32_t count, void *stream) {
  lastError.clear();
  if (kda_status s = kda::rt::checkPlanOpen(plan))
    return s;
  const int64_t size = int64_t(plan->plan.size());
  if (first < 0 || count < 0 || int64_t(first) + count > size)
    return fail(KDA_ERROR_INVALID_ARGUMENT,
                "launches [" + std::to_string(first) + ", " +
                    std::to_string(int64_t(first) + count) +
                    ") are not inside the plan's " + std::to_string(size));
  return kda::rt::runPlan(plan->bundle, plan->plan, stream, size_t(first),
                          size_t(count));
}

void kda_plan_destroy(kda_plan *plan) { delete plan; }

} // extern "C"
