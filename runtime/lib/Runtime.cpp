//===- Runtime.cpp - bundles, validation, launches ------------------------===//
#include "Backend.h"
#include "kda/kda_runtime.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <vector>

using kda::rt::Backend;
using kda::rt::KernelHandle;

struct kda_kernel {
  kda_bundle *bundle = nullptr;
  std::string name, kind, symbol, target, file;
  uint32_t block = 0, waveSize = 0;
  int64_t grid[3] = {0, 0, 0};
  int32_t heads = 0, valueHeads = 0, headK = 0, headV = 0;
  kda_dtype act = KDA_BF16, g = KDA_BF16, beta = KDA_BF16, state = KDA_F32;
  kda_state_layout layout = KDA_LAYOUT_KV;
  bool usesALog = false, usesDtBias = false;
  KernelHandle handle = nullptr;
};

struct kda_bundle {
  std::string dir, target;
  std::unique_ptr<Backend> backend;
  std::vector<kda_kernel> kernels;
};

namespace {

thread_local std::string lastError;

kda_status fail(kda_status s, std::string message) {
  lastError = std::move(message);
  return s;
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

kda_status readKernel(const nlohmann::json &j, kda_kernel &k,
                      std::string &why) {
  try {
    k.name = j.at("name");
    k.kind = j.at("kind");
    k.symbol = j.at("symbol");
    k.target = j.at("target");
    k.file = j.at("file");
    k.block = j.at("block").at(0);
    k.waveSize = j.at("wave_size");
    for (int i = 0; i < 3; ++i) {
      const auto &g = j.at("grid").at(i);
      k.grid[i] = g.is_string() ? -1 : g.get<int64_t>();
    }
    const auto &l = j.at("layer");
    k.heads = l.at("heads");
    k.valueHeads = l.at("value_heads");
    k.headK = l.at("head_k");
    k.headV = l.at("head_v");
    k.layout = l.at("state_layout") == "vk" ? KDA_LAYOUT_VK : KDA_LAYOUT_KV;
    const auto &d = j.at("dtypes");
    if (!parseDtype(d.at("act"), k.act) || !parseDtype(d.at("g"), k.g) ||
        !parseDtype(d.at("beta"), k.beta) ||
        !parseDtype(d.at("state"), k.state))
      return why = "unknown dtype in kernel " + k.name, KDA_ERROR_BAD_BUNDLE;
    for (const auto &u : j.at("uses")) {
      k.usesALog |= u == "a_log";
      k.usesDtBias |= u == "dt_bias";
    }
  } catch (const std::exception &e) {
    return why = std::string("manifest: ") + e.what(), KDA_ERROR_BAD_BUNDLE;
  }
  return KDA_OK;
}

/// Which bundle target a backend runs, among those present.
std::string pickTarget(const Backend &b, const std::vector<kda_kernel> &all) {
  const char *wanted = std::getenv("KDA_TARGET");
  for (const kda_kernel &k : all)
    if (b.runs(k.target) && (!wanted || k.target == wanted))
      return k.target;
  return "";
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

bool aligned16(const void *p) { return (reinterpret_cast<uintptr_t>(p) & 15) == 0; }

} // namespace

extern "C" {

const char *kda_last_error(void) { return lastError.c_str(); }

kda_status kda_bundle_open(const char *dir, kda_backend backend,
                           kda_bundle **out) {
  if (!dir || !out)
    return fail(KDA_ERROR_INVALID_ARGUMENT, "null bundle path or result");
  *out = nullptr;
  std::string manifestPath = std::string(dir) + "/manifest.json";
  std::ifstream in(manifestPath);
  if (!in)
    return fail(KDA_ERROR_NOT_FOUND, "no manifest at " + manifestPath);
  nlohmann::json manifest;
  try {
    in >> manifest;
  } catch (const std::exception &e) {
    return fail(KDA_ERROR_BAD_BUNDLE, manifestPath + ": " + e.what());
  }
  if (manifest.value("format", 0) != 1)
    return fail(KDA_ERROR_BAD_BUNDLE, manifestPath + ": unknown format");
  std::vector<kda_kernel> all;
  for (const auto &j : manifest.value("kernels", nlohmann::json::array())) {
    kda_kernel k;
    std::string why;
    if (kda_status s = readKernel(j, k, why))
      return fail(s, why);
    all.push_back(std::move(k));
  }

  auto bundle = std::make_unique<kda_bundle>();
  bundle->dir = dir;
  std::string errors;
  const kda_backend order[] = {KDA_BACKEND_HIP, KDA_BACKEND_CUDA,
                               KDA_BACKEND_EMU};
  for (kda_backend kind : order) {
    if (backend != KDA_BACKEND_AUTO && backend != kind)
      continue;
    std::string error;
    std::unique_ptr<Backend> b = makeBackend(kind, error);
    if (!b) {
      errors += (errors.empty() ? "" : "; ") + error;
      continue;
    }
    std::string target = pickTarget(*b, all);
    if (target.empty()) {
      errors += (errors.empty() ? "" : "; ") +
                std::string("the bundle has no kernels for this backend");
      continue;
    }
    bundle->backend = std::move(b);
    bundle->target = target;
    break;
  }
  if (!bundle->backend)
    return fail(KDA_ERROR_UNSUPPORTED, "no usable backend: " + errors);

  for (kda_kernel &k : all) {
    if (k.target != bundle->target)
      continue;
    std::string error;
    if (kda_status s = bundle->backend->load(bundle->dir + "/" + k.file,
                                             k.symbol, k.handle, error))
      return fail(s, error);
    bundle->kernels.push_back(std::move(k));
  }
  for (kda_kernel &k : bundle->kernels)
    k.bundle = bundle.get();
  *out = bundle.release();
  return KDA_OK;
}

void kda_bundle_close(kda_bundle *bundle) { delete bundle; }

kda_backend kda_bundle_backend(const kda_bundle *bundle) {
  return bundle ? bundle->backend->kind() : KDA_BACKEND_AUTO;
}

const char *kda_bundle_target(const kda_bundle *bundle) {
  return bundle ? bundle->target.c_str() : "";
}

kda_status kda_bundle_find(kda_bundle *bundle, const char *name,
                           const kda_kernel **out) {
  if (!bundle || !name || !out)
    return fail(KDA_ERROR_INVALID_ARGUMENT, "null argument");
  for (const kda_kernel &k : bundle->kernels)
    if (k.name == name) {
      *out = &k;
      return KDA_OK;
    }
  return fail(KDA_ERROR_NOT_FOUND, std::string("no kernel '") + name +
                                       "' for " + bundle->target + " in " +
                                       bundle->dir);
}

kda_status kda_validate_recurrent(const kda_kernel *k, const kda_batch *b) {
  if (!k || !b)
    return fail(KDA_ERROR_INVALID_ARGUMENT, "null kernel or batch");
  if (k->kind != "recurrent")
    return fail(KDA_ERROR_INVALID_ARGUMENT,
                "kernel " + k->name + " is not a recurrent kernel");
  std::ostringstream why;
  auto bad = [&]() {
    return fail(KDA_ERROR_INVALID_ARGUMENT, why.str());
  };
  if (b->heads != k->heads || b->value_heads != k->valueHeads ||
      b->head_k != k->headK || b->head_v != k->headV) {
    why << "dims (H " << b->heads << ", HV " << b->value_heads << ", K "
        << b->head_k << ", V " << b->head_v << ") do not match kernel "
        << k->name << " (H " << k->heads << ", HV " << k->valueHeads << ", K "
        << k->headK << ", V " << k->headV << ")";
    return bad();
  }
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
    why << "state layout " << (b->state_layout == KDA_LAYOUT_VK ? "vk" : "kv")
        << " does not match the bundle's";
    return bad();
  }
  if (b->num_seqs < 0 || b->num_tokens < 0) {
    why << "negative num_seqs or num_tokens";
    return bad();
  }
  if (b->num_seqs > 65535) {
    why << "num_seqs " << b->num_seqs << " exceeds 65535 (grid z)";
    return bad();
  }
  struct Ptr { const char *name; const void *p; bool needed; };
  const Ptr ptrs[] = {
      {"q", b->q, true}, {"k", b->k, true}, {"v", b->v, true},
      {"g", b->g, true}, {"beta", b->beta, true},
      {"a_log", b->a_log, k->usesALog}, {"dt_bias", b->dt_bias, k->usesDtBias},
      {"cu_seqlens", b->cu_seqlens, true}, {"slots", b->slots, true},
      {"has_initial_state", b->has_initial_state, true},
      {"state", b->state, true}, {"out", b->out, true},
      {"cu_seqlens_host", b->cu_seqlens_host, true},
      {"slots_host", b->slots_host, true}};
  for (const Ptr &p : ptrs) {
    if (p.needed && !p.p) {
      why << p.name << " is null";
      return bad();
    }
    if (p.p && !aligned16(p.p)) {
      why << p.name << " is not 16-byte aligned";
      return bad();
    }
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
  for (int32_t i = 0; i < b->num_seqs; ++i)
    if (b->slots_host[i] >= b->num_slots) {
      why << "slot index " << b->slots_host[i] << " of sequence " << i
          << " is outside the pool of " << b->num_slots << " slots";
      return bad();
    }
  // KDA-MATH.md section 4: two non-padding rows naming one slot would race
  // on its state. (slot, sequence) pairs sorted: repeats are neighbours.
  std::vector<std::pair<int32_t, int32_t>> named;
  for (int32_t i = 0; i < b->num_seqs; ++i)
    if (b->slots_host[i] > 0)
      named.push_back({b->slots_host[i], i});
  std::sort(named.begin(), named.end());
  for (size_t i = 1; i < named.size(); ++i)
    if (named[i].first == named[i - 1].first) {
      why << "sequences " << named[i - 1].second << " and " << named[i].second
          << " both name slot " << named[i].first
          << " (their states would race)";
      return bad();
    }
  return KDA_OK;
}

kda_status kda_launch_recurrent(const kda_kernel *k, const kda_batch *b,
                                void *stream) {
  if (kda_status s = kda_validate_recurrent(k, b))
    return s;
  if (b->num_seqs == 0)
    return KDA_OK;
  const void *values[] = {b->q,          b->k,          b->v,
                          b->g,          b->beta,       b->a_log,
                          b->dt_bias,    b->cu_seqlens, b->slots,
                          b->has_initial_state, b->state, b->out};
  void *params[12];
  for (int i = 0; i < 12; ++i)
    params[i] = const_cast<void **>(&values[i]);
  kda::rt::LaunchDims dims{};
  for (int i = 0; i < 3; ++i)
    dims.grid[i] = uint32_t(k->grid[i] < 0 ? b->num_seqs : k->grid[i]);
  dims.block[0] = k->block, dims.block[1] = 1, dims.block[2] = 1;
  dims.waveSize = k->waveSize;
  std::string error;
  if (kda_status s = k->bundle->backend->launch(k->handle, dims, stream,
                                                params, error))
    return fail(s, error);
  return KDA_OK;
}

} // extern "C"
