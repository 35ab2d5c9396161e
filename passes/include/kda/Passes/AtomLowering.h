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
#include "mlir/IR/PatternMatch.h"

namespace mlir::kda {

/// Checks every kda.copy_row under `root` names a copy atom `target` has
/// (staged everywhere; cp_async on sm_90 and emu32; global_load_lds on
/// gfx950 and emu950), with an error naming the atom and the chip.
LogicalResult checkCopyAtoms(Operation *root, const TargetInfo &target);

/// Schedules (kda.schedule, kda.ring_slot, kda.async_copy, kda.staged_copy,
/// kda.async_wait, kda.lds_read, kda.lds_drain, kda.barrier,
/// kda.lds_barrier) and row copies (kda.copy_row) -> amdgpu/rocdl ops.
void populateScheduleToAMDGPUPatterns(RewritePatternSet &patterns,
                                      const TargetInfo &target);
/// The same ops -> nvgpu/nvvm ops.
void populateScheduleToNVVMPatterns(RewritePatternSet &patterns,
                                    const TargetInfo &target);

} // namespace mlir::kda

#endif // KDA_PASSES_ATOMLOWERING_H
