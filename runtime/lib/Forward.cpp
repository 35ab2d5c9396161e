//===- Forward.cpp - kda_forward: one layer's mixed batch, planned ---------===//
//
// Validates a call in vLLM's terms as a whole (nothing launches unless all
// of it is valid), asks the planner which rows take which path, and packs
// one launch per segment. A segment's launch sees the batch through offset
// pointers: query_start_loc + first, slots + first, has_initial_state +
// first; the kernels index tokens absolutely, so q, k, v, g, beta and out
// stay as given.
//
//===----------------------------------------------------------------------===//
#include "Internal.h"
#include "Planner.h"
#include "kda/kda_runtime.h"

#include <algorithm>
#include <limits>
#include <sstream>
#include <utility>
#include <vector>

using namespace kda::rt;
namespace mf = kda::manifest;

namespace {

/// Refusals are built as streams; `refuse` sets the last error.
kda_status refuse(const std::ostringstream &why) {
  return fail(KDA_ERROR_INVALID_ARGUMENT, why.str());
}

bool alignedTo(const void *p, uintptr_t bytes) {
  return (reinterpret_cast<uintptr_t>(p) % bytes) == 0;
}

const char *paddingName(int32_t below) {
  return below == 1 ? "slot <= 0" : "slot < 0";
}

int32_t numRows(const kda_forward_args &a) {
  return a.num_decodes + a.num_prefills;
}

/// Slots per row: S for a speculative call, else 1.
int64_t slotsPerRow(const kda_forward_args &a) {
  return a.spec_tokens > 1 ? a.spec_tokens : 1;
}

//===----------------------------------------------------------------------===//
// Validation, in the order a reader of the message would check things
//===----------------------------------------------------------------------===//

kda_status checkKernels(const kda_kernel *rec, const kda_kernel *chunk) {
  std::ostringstream why;
  if (!rec) {
    why << "null recurrent kernel";
    return refuse(why);
  }
  if (kernelManifest(rec).kind != "recurrent") {
    why << describeKernel(rec) << " is not a recurrent kernel (kind "
        << kernelManifest(rec).kind << ")";
    return refuse(why);
  }
  if (!chunk)
    return KDA_OK;
  if (kernelBundle(chunk) != kernelBundle(rec)) {
    why << describeKernel(chunk) << " is not from the recurrent kernel's "
        << "bundle";
    return refuse(why);
  }
  const mf::Kernel &c = kernelManifest(chunk), &r = kernelManifest(rec);
  if (c.kind != "chunk_prep") {
    why << describeKernel(chunk) << " is not a chunk kernel (kind " << c.kind
        << "; kda_bundle_find on a chunk function gives its plan's first "
           "stage, chunk_prep)";
    return refuse(why);
  }
  // Both paths must compute one layer on one pool: each field that
  // differs, named with both values (chunk / recurrent).
  const std::string differ = mf::layerDifferences(c, r);
  if (!differ.empty()) {
    why << describeKernel(chunk) << " computes another layer than "
        << describeKernel(rec) << " (chunk / recurrent: " << differ << ")";
    return refuse(why);
  }
  // And one gate: a row's gate must not depend on which path its length
  // sends it down (and the call's a_log / dt_bias are checked against the
  // recurrent kernel's uses only).
  if (!mf::sameUses(c, r)) {
    std::vector<std::string> cu = c.uses, ru = r.uses;
    std::sort(cu.begin(), cu.end());
    std::sort(ru.begin(), ru.end());
    auto list = [](const std::vector<std::string> &names) {
      std::string out;
      for (const std::string &n : names)
        out += (out.empty() ? "" : ", ") + n;
      return out.empty() ? std::string("none") : out;
    };
    why << describeKernel(chunk) << " reads the optional operands (" << list(cu)
        << ") where " << describeKernel(rec) << " reads (" << list(ru)
        << "): the two paths would compute different gates";
    return refuse(why);
  }
  return KDA_OK;
}

kda_status checkEnums(const kda_forward_args &a) {
  std::ostringstream why;
  for (std::string w :
       {checkDtypeValue("act_dtype", enumBits(a.act_dtype)),
        checkDtypeValue("g_dtype", enumBits(a.g_dtype)),
        checkDtypeValue("beta_dtype", enumBits(a.beta_dtype)),
        checkDtypeValue("state.dtype", enumBits(a.state.dtype)),
        checkLayoutValue("state.layout", enumBits(a.state.layout))})
    if (!w.empty()) {
      why << w;
      return refuse(why);
    }
  if (const int padding = enumBits(a.padding);
      padding != KDA_PADDING_NONPOSITIVE && padding != KDA_PADDING_NEGATIVE) {
    why << "padding " << padding
        << " is neither KDA_PADDING_NONPOSITIVE (0) nor "
           "KDA_PADDING_NEGATIVE (1)";
    return refuse(why);
  }
  return KDA_OK;
}

/// Dims, element types and layout against the kernel's layer.
kda_status checkLayer(const kda_kernel *rec, const kda_forward_args &a) {
  const mf::Kernel &m = kernelManifest(rec);
  const mf::Layer &l = m.layer;
  std::ostringstream why;
  if (a.heads != l.heads || a.value_heads != l.valueHeads ||
      a.head_k != l.headK || a.head_v != l.headV) {
    why << "dims (H " << a.heads << ", HV " << a.value_heads << ", K "
        << a.head_k << ", V " << a.head_v << ") do not match "
        << describeKernel(rec) << " (H " << l.heads << ", HV " << l.valueHeads
        << ", K " << l.headK << ", V " << l.headV << ")";
    return refuse(why);
  }
  const char *names[] = {"f32", "bf16", "f16"};
  struct Check { const char *what; kda_dtype given; const std::string &want; };
  for (Check c : {Check{"act_dtype", a.act_dtype, m.act},
                  Check{"g_dtype", a.g_dtype, m.g},
                  Check{"beta_dtype", a.beta_dtype, m.beta},
                  Check{"state.dtype", a.state.dtype, m.state}})
    if (c.want != names[c.given]) {
      why << c.what << " " << names[c.given] << " is not the "
          << describeKernel(rec) << "'s " << c.want;
      return refuse(why);
    }
  const char *layout = a.state.layout == KDA_LAYOUT_VK ? "vk" : "kv";
  if (l.stateLayout != layout) {
    why << "state.layout " << layout << " is not the " << describeKernel(rec)
        << "'s " << l.stateLayout;
    return refuse(why);
  }
  return KDA_OK;
}

kda_status checkCounts(const kda_forward_args &a) {
  std::ostringstream why;
  if (a.num_decodes < 0 || a.num_prefills < 0 || a.num_tokens < 0 ||
      a.num_decode_tokens < 0 || a.recurrent_max_tokens < 0) {
    why << "negative count (num_decodes " << a.num_decodes
        << ", num_prefills " << a.num_prefills << ", num_decode_tokens "
        << a.num_decode_tokens << ", num_tokens " << a.num_tokens
        << ", recurrent_max_tokens " << a.recurrent_max_tokens << ")";
    return refuse(why);
  }
  if (int64_t(a.num_decodes) + a.num_prefills > 65535) {
    why << "num_decodes + num_prefills = "
        << int64_t(a.num_decodes) + a.num_prefills
        << " rows exceed 65535 (grid z of the recurrent kernel)";
    return refuse(why);
  }
  return KDA_OK;
}

kda_status checkPointers(const kda_kernel *rec, const kda_forward_args &a) {
  const mf::Kernel &m = kernelManifest(rec);
  // Activations, gate parameters and the state are read in 16-byte pieces;
  // the index arrays one element at a time (so a segment's offset pointer
  // into them is fine); host copies are read by the runtime. A batch of no
  // rows has no per-row arrays, one of no tokens no per-token tensors and an
  // empty pool no state (an empty vector's or tensor's data() is null).
  const bool rows = numRows(a) > 0, tokens = a.num_tokens > 0,
             pool = a.state.num_slots > 0;
  struct Ptr { const char *name; const void *p; bool needed; uintptr_t align; };
  const Ptr ptrs[] = {
      {"q", a.q, tokens, 16},
      {"k", a.k, tokens, 16},
      {"v", a.v, tokens, 16},
      {"g", a.g, tokens, 16},
      {"beta", a.beta, tokens, 16},
      {"a_log", a.a_log, m.usesOperand("a_log"), 16},
      {"dt_bias", a.dt_bias, m.usesOperand("dt_bias"), 16},
      {"state.data", a.state.data, pool, 16},
      {"out", a.out, tokens, 16},
      {"query_start_loc", a.query_start_loc, true, 4},
      {"slots", a.slots, rows, 4},
      {"has_initial_state", a.has_initial_state, rows, 1},
      {"query_start_loc_host", a.query_start_loc_host, true, 4},
      {"slots_host", a.slots_host, rows, 4},
      {"num_accepted_tokens", a.num_accepted_tokens, rows && a.spec_tokens > 1,
       4},
      {"num_accepted_tokens_host", a.num_accepted_tokens_host, false, 4}};
  std::ostringstream why;
  for (const Ptr &p : ptrs) {
    if (p.needed && !p.p) {
      why << p.name << " is null";
      return refuse(why);
    }
    if (p.p && !alignedTo(p.p, p.align)) {
      why << p.name << " is not " << p.align << "-byte aligned";
      return refuse(why);
    }
  }
  return KDA_OK;
}

/// The workspace after planning: the segments run one after the other on
/// one stream, so they share it and the call needs the largest.
kda_status checkWorkspace(const kda_forward_args &a, int64_t need) {
  std::ostringstream why;
  if (need != 0 && !a.workspace) {
    why << "workspace is null; this call needs " << need << " bytes";
    return refuse(why);
  }
  if (a.workspace && !alignedTo(a.workspace, 16)) {
    why << "workspace is not 16-byte aligned";
    return refuse(why);
  }
  if (a.workspace_bytes < 0) {
    why << "workspace_bytes is " << a.workspace_bytes << " (a size: >= 0)";
    return refuse(why);
  }
  if (a.workspace_bytes < need) {
    why << "workspace of " << a.workspace_bytes << " bytes; this call needs "
        << need;
    return refuse(why);
  }
  return KDA_OK;
}

/// The call's tensors as memory: none may overlap one the kernels write
/// (out, the pool's slots, the workspace bytes the call needs).
kda_status checkOverlaps(const kda_kernel *rec, const kda_forward_args &a,
                         int64_t workspaceNeed) {
  const mf::Layer &l = kernelManifest(rec).layer;
  const int64_t N = numRows(a);
  const int64_t slotElems = int64_t(l.valueHeads) * l.headK * l.headV;
  const int64_t stride = a.state.slot_stride ? a.state.slot_stride : slotElems;
  // Slot s at data + s * stride: the pool is its slots (overlappingWrite
  // leaves the gaps between them out where the stride is wider).
  const int64_t elemBytes = dtypeBytes(a.state.dtype);
  const Extent pool{"state.data",
                    a.state.data,
                    saturatedProduct({slotElems, elemBytes}),
                    true,
                    saturatedProduct({stride, elemBytes}),
                    a.state.num_slots};
  std::vector<Extent> extents = tokenExtents(kernelManifest(rec), a);
  extents.insert(
      extents.end(),
      {{"query_start_loc", a.query_start_loc, saturatedProduct({N + 1, 4}),
        false},
       {"slots", a.slots, saturatedProduct({N, slotsPerRow(a), 4}), false},
       {"has_initial_state", a.has_initial_state, saturatedProduct({N}), false},
       {"num_accepted_tokens", a.num_accepted_tokens,
        a.spec_tokens > 1 ? saturatedProduct({N, 4}) : 0, false},
       pool,
       {"workspace", a.workspace, workspaceNeed, true}});
  const std::string refusal = extentRefusal(extents);
  return refusal.empty() ? KDA_OK : fail(KDA_ERROR_INVALID_ARGUMENT, refusal);
}

/// The pool: size and stride. The kernel addresses slot s at s times the
/// stride it was built for, so another stride is refused, not misread.
kda_status checkPool(const kda_kernel *rec, const kda_forward_args &a) {
  const mf::Layer &l = kernelManifest(rec).layer;
  const int64_t slotElems = int64_t(l.valueHeads) * l.headK * l.headV;
  const int64_t built = rowVariant(rec).slotStride;
  const int64_t given = a.state.slot_stride ? a.state.slot_stride : slotElems;
  std::ostringstream why;
  if (a.state.num_slots < 0) {
    why << "state.num_slots " << a.state.num_slots << " is negative";
    return refuse(why);
  }
  if (given != built) {
    why << "state.slot_stride " << a.state.slot_stride << " (" << given
        << " elements between slots): " << describeKernel(rec)
        << " was built for slots " << built << " elements apart"
        << (built == slotElems ? " (HV * K * V; 0 means that)"
                               : " (kda.slot_stride)");
    return refuse(why);
  }
  return KDA_OK;
}

/// Speculative calls against the kernel's variant: the same slots per row,
/// decode rows only, accepted counts in 1..S where a host copy shows them.
kda_status checkSpeculative(const kda_kernel *rec, const kda_forward_args &a) {
  const int64_t built = rowVariant(rec).specTokens;
  std::ostringstream why;
  if (a.spec_tokens < 0 || slotsPerRow(a) != built) {
    why << "spec_tokens " << a.spec_tokens << " but " << describeKernel(rec)
        << " was built for " << built << " slot(s) per row"
        << (built > 1 ? " (kda.spec_tokens)" : " (0 or 1 here)");
    return refuse(why);
  }
  if (built == 1)
    return KDA_OK;
  if (a.num_prefills != 0) {
    why << "num_prefills " << a.num_prefills << ": a speculative kernel "
        << "takes decode rows only (each 1.." << built << " tokens)";
    return refuse(why);
  }
  if (a.num_accepted_tokens_host)
    for (int32_t i = 0; i < numRows(a); ++i) {
      const int32_t n = a.num_accepted_tokens_host[i];
      if (n < 1 || n > built) {
        why << "num_accepted_tokens[" << i << "] is " << n
            << ", outside 1.." << built;
        return refuse(why);
      }
    }
  return KDA_OK;
}

/// query_start_loc_host against the counts: starts at 0, never decreases,
/// ends at num_tokens; the decode front first, one token per row.
kda_status checkRows(const kda_forward_args &a) {
  const int32_t *cu = a.query_start_loc_host;
  const int32_t n = numRows(a);
  std::ostringstream why;
  if (cu[0] != 0) {
    why << "query_start_loc[0] is " << cu[0] << ", not 0";
    return refuse(why);
  }
  for (int32_t i = 0; i < n; ++i)
    if (cu[i + 1] < cu[i]) {
      why << "query_start_loc is not monotonic: query_start_loc[" << i + 1
          << "] = " << cu[i + 1] << " < query_start_loc[" << i
          << "] = " << cu[i];
      return refuse(why);
    }
  if (cu[n] != a.num_tokens) {
    why << "query_start_loc ends at " << cu[n] << ", not num_tokens "
        << a.num_tokens;
    return refuse(why);
  }
  // Decodes: one token each; speculative rows: the verified token and up to
  // S - 1 drafts.
  const int64_t most = slotsPerRow(a);
  for (int32_t i = 0; i < a.num_decodes; ++i) {
    const int64_t len = int64_t(cu[i + 1]) - cu[i];
    if (len < 1 || len > most) {
      why << "row " << i << " of the decode front (num_decodes "
          << a.num_decodes << ") has " << len << " tokens; decodes come "
          << "first, " << (most == 1 ? std::string("one token each")
                                     : "1.." + std::to_string(most) +
                                           " tokens each (spec_tokens)");
      return refuse(why);
    }
  }
  if (cu[a.num_decodes] != a.num_decode_tokens) {
    why << "num_decode_tokens is " << a.num_decode_tokens << " but the "
        << a.num_decodes << " decode rows hold " << cu[a.num_decodes];
    return refuse(why);
  }
  return KDA_OK;
}

/// Slots by the call's padding convention: real ones inside the pool and
/// named once; slot 0 refused when the kernel's convention reads it the
/// other way; host has_initial_state values 0 or 1. Speculative rows name
/// S slots each, all real unless the row is padding (its first slot).
kda_status checkSlots(const kda_kernel *rec, const kda_forward_args &a) {
  const int32_t below = a.padding == KDA_PADDING_NEGATIVE ? 0 : 1;
  const int64_t kernelBelow = rowVariant(rec).paddingBelow;
  const int64_t S = slotsPerRow(a);
  const int32_t n = numRows(a);
  std::ostringstream why;
  std::vector<std::pair<int32_t, int32_t>> named; // (slot, row)
  for (int32_t i = 0; i < n; ++i) {
    const bool padding = a.slots_host[i * S] < below;
    for (int64_t c = 0; c < S; ++c) {
      const int32_t s = a.slots_host[i * S + c];
      const std::string where =
          S == 1 ? "" : " (column " + std::to_string(c) + ")";
      // Only a named slot is read or written: a padding row's slots need
      // not be in the pool (slot 0 of an empty one), in any column.
      if (s >= a.state.num_slots && !padding) {
        why << "slot index " << s << " of row " << i << where
            << " is outside the pool of " << a.state.num_slots << " slots";
        return refuse(why);
      }
      if (padding && c > 0)
        continue; // a padding row's other columns are never read
      if ((s < below) != (s < kernelBelow)) {
        why << "row " << i << where << " names slot " << s << ", "
            << (s < below ? "padding" : "a real slot")
            << " under this call's convention (" << paddingName(below)
            << " is padding) but " << (s < below ? "a real slot" : "padding")
            << " for " << describeKernel(rec) << " ("
            << paddingName(int32_t(kernelBelow)) << ")";
        return refuse(why);
      }
      if (!padding && s < below) {
        why << "row " << i << where << " names padding slot " << s
            << " in a real speculative row (every column holds a state)";
        return refuse(why);
      }
      if (padding)
        continue;
      // Two columns of one row naming a slot: the row's speculative states
      // would overwrite each other (repeatedSlot names rows, so say it here).
      for (int64_t d = 0; d < c; ++d)
        if (a.slots_host[i * S + d] == s) {
          why << "row " << i << " names slot " << s << " in columns " << d
              << " and " << c << " (its speculative states would race)";
          return refuse(why);
        }
      named.push_back({s, i});
    }
  }
  const std::string repeat = repeatedSlot(std::move(named), "rows");
  if (!repeat.empty()) {
    why << repeat;
    return refuse(why);
  }
  if (a.has_initial_state_host)
    for (int32_t i = 0; i < n; ++i)
      if (a.has_initial_state_host[i] > 1) {
        why << "has_initial_state[" << i << "] is "
            << int(a.has_initial_state_host[i]) << "; only 0 and 1 are "
            << "meaningful";
        return refuse(why);
      }
  return KDA_OK;
}

/// Everything but the workspace, which depends on the plan.
kda_status validateRows(const kda_kernel *rec, const kda_kernel *chunk,
                        const kda_forward_args *a) {
  if (kda_status s = checkKernels(rec, chunk))
    return s;
  if (!a)
    return fail(KDA_ERROR_INVALID_ARGUMENT, "null forward arguments");
  for (auto check : {checkEnums, checkCounts})
    if (kda_status s = check(*a))
      return s;
  if (kda_status s = checkLayer(rec, *a))
    return s;
  // The kernel's variant first: which pointers a call needs depends on it.
  if (kda_status s = checkSpeculative(rec, *a))
    return s;
  if (kda_status s = checkPointers(rec, *a))
    return s;
  if (kda_status s = checkPool(rec, *a))
    return s;
  if (kda_status s = checkRows(*a))
    return s;
  return checkSlots(rec, *a);
}

//===----------------------------------------------------------------------===//
// Planning and packing
//===----------------------------------------------------------------------===//

PlannerPolicy policyOf(const kda_kernel *rec, const kda_kernel *chunk,
                       const kda_forward_args &a) {
  PlannerPolicy p;
  p.hasChunk = chunk != nullptr;
  p.recurrentMaxTokens =
      a.recurrent_max_tokens > 0
          ? a.recurrent_max_tokens
          : kda_bundle_recurrent_max_tokens(kernelBundle(rec), nullptr);
  return p;
}

/// The recurrent kernel's view of rows [first, first + count).
kda_batch segmentBatch(const kda_forward_args &a, const Segment &s) {
  kda_batch b{};
  b.num_seqs = s.count;
  b.num_tokens = a.num_tokens;
  const int64_t S = slotsPerRow(a);
  b.cu_seqlens_host = a.query_start_loc_host + s.first;
  b.slots_host = a.slots_host + s.first * S;
  b.q = a.q, b.k = a.k, b.v = a.v, b.g = a.g, b.beta = a.beta;
  b.a_log = a.a_log, b.dt_bias = a.dt_bias;
  b.cu_seqlens = a.query_start_loc + s.first;
  b.slots = a.slots + s.first * S;
  if (a.num_accepted_tokens)
    b.num_accepted_tokens = a.num_accepted_tokens + s.first;
  b.has_initial_state = a.has_initial_state + s.first;
  b.state = a.state.data;
  b.num_slots = a.state.num_slots;
  b.out = a.out;
  b.heads = a.heads, b.value_heads = a.value_heads;
  b.head_k = a.head_k, b.head_v = a.head_v;
  b.act_dtype = a.act_dtype, b.g_dtype = a.g_dtype, b.beta_dtype = a.beta_dtype;
  b.state_dtype = a.state.dtype;
  b.state_layout = a.state.layout;
  b.workspace = a.workspace;
  b.workspace_bytes = a.workspace_bytes;
  return b;
}

std::vector<Segment> segmentsOf(const kda_kernel *rec,
                                const kda_kernel *chunk,
                                const kda_forward_args &a) {
  PlannerRows rows;
  rows.numDecodes = a.num_decodes;
  rows.numPrefills = a.num_prefills;
  rows.cuSeqlens = a.query_start_loc_host;
  rows.slots = a.slots_host;
  rows.paddingBelow = a.padding == KDA_PADDING_NEGATIVE ? 0 : 1;
  return planSegments(rows, policyOf(rec, chunk, a));
}

/// The kernel that runs a segment.
const kda_kernel *kernelOf(const Segment &s, const kda_kernel *rec,
                           const kda_kernel *chunk) {
  return s.path == Path::Chunk ? chunk : rec;
}

/// The largest workspace any segment's kernel needs; -1 on overflow.
int64_t workspaceNeed(const std::vector<Segment> &segments,
                      const kda_kernel *rec, const kda_kernel *chunk,
                      const kda_forward_args &a) {
  int64_t need = 0;
  for (const Segment &s : segments) {
    const int32_t *cu = a.query_start_loc_host;
    // The chunk kernels index their workspace by absolute token.
    const int64_t tokens = s.path == Path::Chunk
                               ? int64_t(cu[s.first + s.count])
                               : int64_t(cu[s.first + s.count]) - cu[s.first];
    const int64_t n = kernelManifest(kernelOf(s, rec, chunk))
                          .workspace.bytes(tokens, s.count);
    if (n < 0)
      return -1;
    need = std::max(need, n);
  }
  return need;
}

/// The chunk kernels read vLLM's plain pool (contiguous slots, slot <= 0
/// padding): a call with another pool stride or padding convention keeps
/// its long rows on a recurrent variant (pass no chunk kernel).
kda_status checkChunkRows(const kda_forward_args &a,
                          const std::vector<Segment> &segments,
                          const kda_kernel *rec) {
  const auto chunked =
      std::find_if(segments.begin(), segments.end(),
                   [](const Segment &s) { return s.path == Path::Chunk; });
  if (chunked == segments.end())
    return KDA_OK;
  const int32_t row = chunked->first;
  const int64_t tokens =
      int64_t(a.query_start_loc_host[row + 1]) - a.query_start_loc_host[row];
  const mf::Layer &l = kernelManifest(rec).layer;
  const int64_t plain = int64_t(l.valueHeads) * l.headK * l.headV;
  const std::string which = "row " + std::to_string(row) + " (" +
                            std::to_string(tokens) +
                            " tokens) and any other row longer than the "
                            "planner's threshold take the chunk kernels, ";
  const char *instead =
      " (pass no chunk kernel to keep them on the recurrent kernel)";
  if (a.state.slot_stride != 0 && a.state.slot_stride != plain)
    return fail(KDA_ERROR_INVALID_ARGUMENT,
                which + "which read a contiguous pool (slot_stride 0 or " +
                    std::to_string(plain) + "); this call has slot_stride " +
                    std::to_string(a.state.slot_stride) + instead);
  // The chunk kernels take slot <= 0 as padding. Under the call's slot < 0
  // convention that is the same rows unless one names slot 0, a real slot
  // there and padding to them.
  if (a.padding == KDA_PADDING_NEGATIVE)
    for (const Segment &s : segments) {
      if (s.path != Path::Chunk)
        continue;
      for (int32_t r = s.first; r < s.first + s.count; ++r)
        if (a.slots_host[r] == 0)
          return fail(KDA_ERROR_INVALID_ARGUMENT,
                      "row " + std::to_string(r) +
                          " names slot 0, a real slot under this call's "
                          "padding (slot < 0), and takes the chunk kernels, "
                          "which read slot <= 0 as padding; rows there must "
                          "name slots >= 1 under slot < 0 padding" +
                          instead);
    }
  return KDA_OK;
}

/// Validates everything of the call but its workspace, which needs `need`
/// bytes for its `segments`: what kda_forward would refuse gets no size.
kda_status validateCall(const kda_kernel *rec, const kda_kernel *chunk,
                        const kda_forward_args *a,
                        std::vector<Segment> &segments, int64_t &need) {
  if (kda_status s = validateRows(rec, chunk, a))
    return s;
  segments = segmentsOf(rec, chunk, *a);
  if (kda_status s = checkChunkRows(*a, segments, rec))
    return s;
  need = workspaceNeed(segments, rec, chunk, *a);
  if (need < 0)
    return fail(KDA_ERROR_INVALID_ARGUMENT,
                "the workspace of this call overflows int64");
  return KDA_OK;
}

/// Validates the whole call and packs its launches into `plan`.
kda_status validateAndPack(const kda_kernel *rec, const kda_kernel *chunk,
                           const kda_forward_args *a, LaunchPlan &plan) {
  std::vector<Segment> segments;
  int64_t need = 0;
  if (kda_status s = validateCall(rec, chunk, a, segments, need))
    return s;
  if (kda_status s = checkWorkspace(*a, need))
    return s;
  if (kda_status s = checkOverlaps(rec, *a, need))
    return s;
  for (const Segment &s : segments) {
    const kda_batch b = segmentBatch(*a, s);
    if (kda_status st = s.path == Path::Chunk
                            ? packChunkUnchecked(chunk, b, plan)
                            : packRecurrentUnchecked(rec, b, plan))
      return st;
  }
  return KDA_OK;
}

} // namespace

extern "C" {

int64_t kda_forward_args_size(void) { return sizeof(kda_forward_args); }

kda_status kda_forward_validate(const kda_kernel *rec, const kda_kernel *chunk,
                                const kda_forward_args *a) {
  clearError();
  LaunchPlan unused;
  return validateAndPack(rec, chunk, a, unused);
}

kda_status kda_forward_workspace_bytes(const kda_kernel *rec,
                                       const kda_kernel *chunk,
                                       const kda_forward_args *a,
                                       int64_t *bytes) {
  clearError();
  if (!bytes)
    return fail(KDA_ERROR_INVALID_ARGUMENT, "null result");
  std::vector<Segment> segments;
  int64_t need = 0;
  if (kda_status s = validateCall(rec, chunk, a, segments, need))
    return s;
  *bytes = need;
  return KDA_OK;
}

kda_status kda_forward(const kda_kernel *rec, const kda_kernel *chunk,
                       const kda_forward_args *a, void *stream) {
  clearError();
  LaunchPlan plan;
  if (kda_status s = validateAndPack(rec, chunk, a, plan))
    return s;
  return runPlan(kernelBundle(rec), plan, stream);
}

kda_status kda_plan_add_forward(kda_plan *plan, const kda_kernel *rec,
                                const kda_kernel *chunk,
                                const kda_forward_args *a) {
  clearError();
  if (kda_status s = checkPlanOpen(plan))
    return s;
  if (rec && kernelBundle(rec) != planBundle(plan))
    return fail(KDA_ERROR_INVALID_ARGUMENT,
                describeKernel(rec) + " is not from the plan's bundle");
  // Packed aside first: a refused call leaves the plan as it was.
  LaunchPlan added;
  if (kda_status s = validateAndPack(rec, chunk, a, added))
    return s;
  LaunchPlan &target = planLaunches(plan);
  for (size_t i = 0; i < added.size(); ++i)
    target.add(added[i]);
  return KDA_OK;
}

} // extern "C"
