//===- RecurrentKernelBuilder.h - the decode kernel ------------*- C++ -*-===//
//
// One builder for the token-serial (recurrent) KDA kernel, shared by every
// target: the target enters only through TargetInfo (wave size) and the
// reduction atom (gpu.subgroup_reduce, lowered per target later).
//
// Work decomposition (memory-bound: each head's K x V state is read and
// written once per row): a workgroup owns (sequence n, value head h, a block
// of `block_v` state columns). Each column is spread over `lanesK` lanes of
// one wave, each lane holding `ceil(K / lanesK)` consecutive k of that column in
// registers, so every reduction over k stays inside a wave. With `wavesK` > 1
// the column's k is further split over that many waves (each lane then holds
// ceil(K / (lanesK * wavesK)) k); the waves' partial sums meet in a small LDS
// exchange, one region per reduction of a token so a token needs one barrier
// per reduction and no more. A lane may own
// several columns (`colsPerThread`, block_v / lane-grid columns apart): the
// q/k normalisation and the gate of its k-run are then computed once for all
// of them, and their loads and reductions are independent work in flight.
// The lane order follows the state layout so state loads coalesce:
//   vk ([V, K], K contiguous): k-lanes are adjacent (lane = vl * lanesK + kt),
//      each lane loads its k-run as one vector;
//   kv ([K, V], V contiguous): columns are adjacent (lane = kt * cols + vl),
//      lanes of one k-row read consecutive v.
// Head dims need not be powers of two: the k of a lane past head_k and the
// columns of the last workgroup past head_v are masked (masked loads read
// zeros, masked stores write nothing), so a zero contributes to no sum.
//
//===----------------------------------------------------------------------===//
#ifndef KDA_PASSES_RECURRENTKERNELBUILDER_H
#define KDA_PASSES_RECURRENTKERNELBUILDER_H

#include "kda/Dialect/KDA/KDAAttrs.h"
#include "kda/Dialect/KDA/KDAOps.h"
#include "kda/Target/RecurrentRules.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"

#include <algorithm>

namespace mlir::kda {

/// The decode kernel's schedule, derived from a #kda.config and the target
/// by the rules of RecurrentRules.h (shared with kda-tune and the runtime).
using RecurrentSchedule = rules::RecurrentPlan;

/// The rules' view of a layer, a config and a target.
rules::LayerFacts recurrentLayerFacts(LayerAttr layer);
rules::ConfigValues configValues(ConfigAttr config);
rules::TargetFacts targetFacts(const TargetInfo &target);
ConfigAttr configAttr(MLIRContext *ctx, const rules::ConfigValues &c);

/// The default config of the recurrent kernel for a layer on a target.
/// Few sequences per launch are served by the config table's variants
/// (kda-tune), which split a head's columns over more workgroups.
ConfigAttr defaultRecurrentConfig(LayerAttr layer, const TargetInfo &target);

/// Checks `config` against the layer and target; on success fills `schedule`.
/// On failure returns the reason.
LogicalResult deriveRecurrentSchedule(LayerAttr layer, ConfigAttr config,
                                      const TargetInfo &target,
                                      RecurrentSchedule &schedule,
                                      std::string &reason);

/// mma = 1: the matrix atom of the recurrent kernel on a target (bf16
/// operands, f32 accumulator, m = 16, the largest k the chip has) and how a
/// lane's B fragments sit on one contiguous k-run. The atom's k coordinate
/// of a B element must be a lane part plus an element part on disjoint bits
/// (laneMask, elemMask; the element part counting 0, 1, 2, ... in element
/// order) and its n coordinate the lane's alone: then lane set
/// s = pext(lane part) holds, over all k steps kt, the physical k
/// s * K / lanesK + kt * E + e (E elements a lane per step), a run of
/// K / lanesK contiguous k of its column. Only rows 0 and 1 of A and of the
/// result are used: an A or C element on a row >= 2 on every lane is a
/// constant zero or never read, and each other A element must sit on the
/// k of one of the lane's B elements (aFromB), all on one row a lane, so a
/// lane's A of a k step is read from its own run. None where the chip has
/// no such atom (the rules then refuse mma = 1).
struct DecodeMmaAtom {
  const MmaAtom *atom = nullptr;
  unsigned laneMask = 0, elemMask = 0;
  /// Per A element: the B element at its k, or -1 for a constant zero.
  std::vector<int> aFromB;
  /// Per C element: whether it can be on row 0 or 1.
  std::vector<bool> cUsed;
};
std::optional<DecodeMmaAtom> decodeMmaAtom(const TargetInfo &target);
/// One LDS slot of the token pipeline: a token's q, k and g rows.
struct TokenSlotLayout {
  int64_t q, k, g; // byte offsets of the rows in the slot
  int64_t bytes;   // slot size (16-byte multiple)
  bool async;      // rows arrive by the target's async copy atom
  /// The ring gets one more slot, after its last, that predicated-off
  /// copies write instead (targets whose waits count copy instructions:
  /// every group then issues the same instructions). Never read; not part
  /// of the verified ring.
  bool sinkSlot = false;
};
/// The slot layout on `target`: rows start at multiples of what one copy
/// instruction writes from a uniform base (TargetInfo::copyRegionBytes).
TokenSlotLayout tokenSlotLayout(RecurrentOp op, const TargetInfo &target);

/// Builds `gpu.func @name` in `module` computing `op` on `target`; its
/// argument list is stated as `kda.abi` (KernelAbi.h): q, k, v, g, beta,
/// a_log, dt_bias, cu_seqlens, slots, has_initial_state (inputs), state
/// (inout), out (output), bare pointers in that order. With
/// `lds_stages` in the config, the token loop is a kda.pipeline: expanded,
/// verified (an unsafe depth is an error) and instantiated with the copies
/// and reads of the token rows and the target's barrier atoms.
FailureOr<gpu::GPUFuncOp> buildRecurrentKernel(OpBuilder &builder,
                                               gpu::GPUModuleOp module,
                                               StringRef name, RecurrentOp op,
                                               ConfigAttr config,
                                               const TargetInfo &target);

} // namespace mlir::kda

#endif // KDA_PASSES_RECURRENTKERNELBUILDER_H
