//===- Internal.h - what the runtime's other C API files share -*- C++ -*-===//
//
// Runtime.cpp owns bundles, kernels, plans and this thread's last error;
// files that add entry points (Forward.cpp, the chunk path) reach them
// through these functions instead of the structs, so the structs stay in
// one file.
//
//===----------------------------------------------------------------------===//
#ifndef KDA_RUNTIME_INTERNAL_H
#define KDA_RUNTIME_INTERNAL_H

#include "LaunchPlan.h"
#include "Manifest.h"
#include "kda/kda_runtime.h"

#include <cstring>
#include <string>
#include <utility>
#include <vector>

namespace kda::rt {

/// Sets this thread's last error (kda_last_error) and returns `status`.
kda_status fail(kda_status status, std::string message);
/// Every C entry point starts here: a successful call leaves no message.
void clearError();

/// The manifest entry a kernel was opened from.
const manifest::Kernel &kernelManifest(const kda_kernel *kernel);
/// "kernel 'name' (target)", for messages.
std::string describeKernel(const kda_kernel *kernel);
/// The bundle a kernel belongs to / a plan launches on.
const kda_bundle *kernelBundle(const kda_kernel *kernel);
const kda_bundle *planBundle(const kda_plan *plan);
LaunchPlan &planLaunches(kda_plan *plan);
/// Refuses a null plan and one whose bundle was closed (the plan outlived
/// it): every plan entry point that reaches the bundle checks this first.
kda_status checkPlanOpen(const kda_plan *plan);

/// The row variant a recurrent kernel was built for (the manifest's config;
/// RecurrentKernelBuilder.cpp): slots per row (speculative decode), the
/// padding floor (slot < paddingBelow pads) and the slot stride in
/// elements. Kernels without the entries are vLLM's plain kernel.
using RowVariant = manifest::RowVariant;
RowVariant rowVariant(const kda_kernel *kernel);

/// Out-of-range enum values of a descriptor, each named with its value
/// ("state_layout 7 is neither KDA_LAYOUT_KV (0) nor KDA_LAYOUT_VK (1)").
/// Empty when all are in range.
std::string checkDtypeValue(const char *field, int value);
std::string checkLayoutValue(const char *field, int value);

/// An enum field of a caller's struct as the int it holds: loading a C
/// enum whose value is none of its enumerators is undefined in C++, so
/// the checks above read its bytes, not the enum.
template <typename E> int enumBits(const E &field) {
  static_assert(sizeof(E) == sizeof(int), "a C enum is an int");
  int v;
  std::memcpy(&v, &field, sizeof v);
  return v;
}

/// KDA-MATH.md section 4: two real rows naming one slot would race on its
/// state. `named` holds (slot, row) of every real slot a batch names; the
/// message names the first repeat ("<rows> 0 and 2 both name slot 3 ..."),
/// or is empty.
std::string repeatedSlot(std::vector<std::pair<int32_t, int32_t>> named,
                         const char *rows);

/// A tensor of a call as memory: where it starts, how many bytes it spans
/// (saturated at INT64_MAX when its shape overflows) and whether the call
/// writes it; `count` pieces of `bytes` each, `stride` bytes apart (a
/// pool's slots; one piece for any other tensor). Where stride > bytes the
/// gaps between the pieces are not its memory, and may hold another tensor,
/// as in an engine's cache page that keeps a layer's other states beside
/// each slot.
struct Extent {
  const char *name;
  const void *data;
  int64_t bytes;
  bool written;
  int64_t stride = 0, count = 1;
};
/// The product of `factors` (a shape and its element bytes): 0 when one is
/// 0 or negative, INT64_MAX when it overflows.
int64_t saturatedProduct(std::initializer_list<int64_t> factors);
/// Element bytes of a kda_dtype (f32 4, bf16 and f16 2).
int64_t dtypeBytes(kda_dtype d);
/// The per-token tensors and gate parameters of a call on kernel `m`'s
/// layer as extents: q, k [T, H, K], v [T, HV, V], g [T, HV, K], beta
/// [T, HV], a_log [HV] and dt_bias [HV * K] (f32; none where the kernel
/// does not read them: a stale pointer there is not the call's), out
/// [T, HV, V] (written). `Call` is kda_batch or kda_forward_args, which
/// name these fields alike.
template <typename Call>
std::vector<Extent> tokenExtents(const manifest::Kernel &m, const Call &c) {
  const manifest::Layer &l = m.layer;
  const int64_t T = c.num_tokens, act = dtypeBytes(c.act_dtype);
  const bool aLog = m.usesOperand("a_log"), dtBias = m.usesOperand("dt_bias");
  return {
      {"q", c.q, saturatedProduct({T, l.heads, l.headK, act}), false},
      {"k", c.k, saturatedProduct({T, l.heads, l.headK, act}), false},
      {"v", c.v, saturatedProduct({T, l.valueHeads, l.headV, act}), false},
      {"g", c.g,
       saturatedProduct({T, l.valueHeads, l.headK, dtypeBytes(c.g_dtype)}),
       false},
      {"beta", c.beta,
       saturatedProduct({T, l.valueHeads, dtypeBytes(c.beta_dtype)}), false},
      {"a_log", c.a_log, aLog ? saturatedProduct({l.valueHeads, 4}) : 0, false},
      {"dt_bias", c.dt_bias,
       dtBias ? saturatedProduct({l.valueHeads, l.headK, 4}) : 0, false},
      {"out", c.out, saturatedProduct({T, l.valueHeads, l.headV, act}), true}};
}

/// The kernels take their tensors as disjoint (a kernel reading q while
/// another workgroup writes out over it computes garbage): the first pair
/// in which one is written and the two share a byte ("out overlaps q:
/// ..."), or empty. Null or empty extents take no memory; a strided
/// extent's gaps are not its own (two strided extents are compared by
/// their hulls).
std::string overlappingWrite(const std::vector<Extent> &extents);
/// What a call's tensors as memory are refused for, or empty: first an
/// extent whose size (or a strided one's slots times their stride)
/// overflowed (saturatedProduct's INT64_MAX: a count it is sized by cannot
/// be right, and an overlap named from it would point at the wrong field),
/// then overlappingWrite.
std::string extentRefusal(const std::vector<Extent> &extents);

/// Packs one recurrent launch of `batch` (none when it has no sequences)
/// without validating it: the caller validated the whole batch it was cut
/// from (a planner segment starts at cu_seqlens[first] != 0).
kda_status packRecurrentUnchecked(const kda_kernel *kernel,
                                  const kda_batch &batch, LaunchPlan &plan);
/// Packs the chunk path's launches (prep, then scan) of `batch`, which the
/// caller validated, into `plan`: the segment's host cu_seqlens give the
/// prep grid. Its workspace is indexed by absolute token (cu_seqlens
/// values), so it must hold per_token x cu_seqlens[last] bytes.
/// With `forced` >= 0 (kda_plan_add_chunk_scan's index, in range), that
/// alternative instead of the one the planner picks for the batch.
kda_status packChunkUnchecked(const kda_kernel *chunk, const kda_batch &batch,
                              LaunchPlan &plan, int32_t forced = -1);
/// Enqueues `plan` on `stream` with the backend of `bundle`.
kda_status runPlan(const kda_bundle *bundle, const LaunchPlan &plan,
                   void *stream);
/// The same for its launches [first, first + count) (inside the plan).
kda_status runPlan(const kda_bundle *bundle, const LaunchPlan &plan,
                   void *stream, size_t first, size_t count);

} // namespace kda::rt

#endif // KDA_RUNTIME_INTERNAL_H
