//===- AtomLowering.h - atoms -> a target's instructions --------*- C++ -*-===//
//
// Kernels are built from target-neutral atoms (kda.mma on fragments, the copy
// atoms, waits and barriers of verified kda.schedule regions). Each family
// of atoms lowers to a chip by rewrite patterns, one pattern per op, gathered
// by one populate function per (op family, target family); kda-lower-atoms
// applies those of the gpu.module's target. The emulator's lowering of the
// same atoms is part of kda-gpu-to-emu (they become calls that need the
// emulator context), with the semantics of the chip the emulator stands for.
//
//===----------------------------------------------------------------------===//
#ifndef KDA_PASSES_ATOMLOWERING_H
#define KDA_PASSES_ATOMLOWERING_H

#include "kda/Dialect/KDA/KDAAttrs.h"
#include "kda/Dialect/KDA/KDAOps.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::kda {

/// Checks every kda.copy_row under `root` names a copy atom `target` has
/// (staged everywhere; cp_async on sm_90 and emu32; global_load_lds on
/// gfx950 and emu950), with an error naming the atom and the chip.
LogicalResult checkCopyAtoms(Operation *root, const TargetInfo &target);

/// The async copies and waits of AMDGPU schedules (kda.async_copy,
/// kda.async_wait), applied before every other pattern and with folding and
/// constant CSE off. vmcnt counts instructions, so a copy predicated off
/// issues its rows into a sink slot: a clone of its body with the slot
/// operand mapped to the sink and the iteration to at most the last. That
/// clone is right only on the body as the verifier saw it: once
/// kda.ring_slot of a constant iteration folds, the slot, the iteration
/// and the body's own constants of equal value are one SSA value, and a
/// prologue's sink clone then moved every zero offset of its body and read
/// rows past the sequence (gfx950, pipelined recurrent kernels).
void populateAsyncCopyToAMDGPUPatterns(RewritePatternSet &patterns,
                                       const TargetInfo &target);
/// The rest of the schedules (kda.schedule, kda.ring_slot,
/// kda.staged_copy, kda.lds_read, kda.lds_drain, kda.barrier,
/// kda.lds_barrier) and row copies (kda.copy_row) -> amdgpu/rocdl ops.
void populateScheduleToAMDGPUPatterns(RewritePatternSet &patterns,
                                      const TargetInfo &target);
/// The same ops -> nvgpu/nvvm ops.
void populateScheduleToNVVMPatterns(RewritePatternSet &patterns,
                                    const TargetInfo &target);

/// Matrix atoms (kda.mma) -> amdgpu.mfma on gfx942 / gfx950. An atom the
/// chip does not have is an error naming both.
void populateMmaToAMDGPUPatterns(RewritePatternSet &patterns,
                                 const TargetInfo &target);
/// Matrix atoms -> sm_90(a): kda.mma -> nvvm.mma.sync; kda.wgmma,
/// kda.wgmma_commit, kda.wgmma_wait -> wgmma.fence + inline wgmma PTX,
/// nvvm.wgmma.commit.group, inline wgmma.wait_group returning the
/// accumulators.
void populateMmaToNVVMPatterns(RewritePatternSet &patterns,
                               const TargetInfo &target);
/// sm_90: in a module that issues kda.wgmma anywhere, a
/// fence.proxy.async.shared::cta before each barrier (gpu.barrier,
/// kda.barrier, kda.lds_barrier, nvvm.barrier0, nvvm.barrier), so LDS
/// written by plain stores and published by the barrier is visible to
/// wgmma's async-proxy reads of B.
void fenceBarriersForWgmma(Operation *module);

/// Marks (kWgmmaChainedAttr) each kda.wgmma that directly follows another
/// in its block: every operand it reads was written before that one (or is
/// its accumulator), so it takes no wgmma.fence of its own - the first
/// atom's fence orders them, and the hardware orders the accumulator
/// accesses of consecutive atoms of one shape (PTX ISA, wgmma.fence).
/// Where LLVM places a fragment's packing after the fence anyway, ptxas
/// injects the warpgroup.arrive (C7519). Builders issue a product's atoms
/// back to back, their A fragments computed first, to use it.
void markWgmmaChains(Operation *module);
inline constexpr llvm::StringLiteral kWgmmaChainedAttr = "kda.wgmma_chained";
/// Approximate f32 math (math.exp, math.exp2 and arith.divf with fastmath
/// afn; 1 / sqrt) -> ex2.approx.ftz, rcp.approx.ftz and rsqrt.approx.ftz
/// on sm_90, one MUFU each
/// (FastMathToNVVM.cpp says why flushing is safe for the builders' uses).
void populateFastMathToNVVMPatterns(RewritePatternSet &patterns);

/// Emulator targets: every kda.mma of `fn` becomes a wave-collective call
/// kda_emu_mma(ctx, ...) with the lane's fragment elements and each
/// element's (row, col) from the atom's layout, computed in IR from
/// gpu.lane_id. The atom must be one of `target.chip`'s (`target`: the
/// kernel's; null when its gpu.module names none, and then a kda.mma is an
/// error). Part of kda-gpu-to-emu, before gpu ops become emulator calls.
LogicalResult lowerMmaToEmu(Operation *fn, Value emuCtx,
                            const TargetInfo *target);
/// Emulator targets: gpu.dynamic_shared_memory becomes a call returning the
/// running workgroup's dynamic LDS region (kda_emu_dynamic_lds), sized by
/// the kernel's kda.dynamic_lds_bytes.
LogicalResult lowerDynamicLdsToEmu(Operation *fn, Value emuCtx,
                                   int64_t dynamicLdsBytes);

/// The atom of `op` when it is of `family` and `target`'s chip has it.
/// Otherwise reports that once per op (the greedy driver may revisit it;
/// kda-lower-atoms then fails on the op left behind) and returns null.
const MmaAtom *lowerableMmaAtom(MmaOp op, MmaFamily family,
                                const TargetInfo &target,
                                RewriterBase &rewriter);

/// The error for an atom the chip lacks (shared by every lowering).
InFlightDiagnostic emitAtomNotOnChip(Operation *op, MmaKind kind,
                                     const TargetInfo &target);

} // namespace mlir::kda

#endif // KDA_PASSES_ATOMLOWERING_H
