//===- LdsHandoffs.h - barrier-interval check of LDS handoffs ---*- C++ -*-===//
//
// Kernels whose threads take different roles between barriers (the chunk
// scan with its state in registers: compute waves read a phase's rows while
// staging waves write the next phase's) hand LDS buffers from one group of
// threads to another with plain loads and stores, no kda.schedule. This
// analysis checks those handoffs statically: it walks the kernel in program
// order, tracking for the current barrier interval every workgroup-memory
// access with its byte range and the set of threads that may make it (from
// the thread-id conditions of the branches around it, evaluated for every
// thread of the block), and reports two accesses of overlapping bytes in one
// interval, at least one a write, whose threads fall in different roles (the
// kernel's groups of waves, kWaveRolesAttr). Loops
// are iterated to a fixpoint (the last interval of an iteration runs into
// the first of the next), so the result holds for every trip count.
// Pieces that land later than their issue (cp_async kda.copy_piece) write
// their array until a kda.copy_fence of their threads: any access of that
// array meanwhile is R1 / R2, and a barrier (or the kernel's end) reached
// with pieces in flight is R3; a kernel with such pieces is checked as one
// role where it states none.
// passes/PIPELINE-MODEL.md says what it proves and what it leaves to the
// emulator's race detector.
//
//===----------------------------------------------------------------------===//
#ifndef KDA_PASSES_LDSHANDOFFS_H
#define KDA_PASSES_LDSHANDOFFS_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include <optional>
#include <string>

namespace mlir::kda {

/// On a kernel whose waves take roles between barriers (a builder sets it
/// where it emits such handoffs): array<i64: wave size, first wave of role
/// 1, first wave of role 2, ...> (role 0 starts at wave 0; each role is the
/// waves up to the next one's first; the wave size alone: one role, every
/// wave doing the same work). kda-verify-pipeline checks every kernel that
/// carries it.
inline constexpr llvm::StringLiteral kWaveRolesAttr = "kda.wave_roles";

struct LdsHandoffHazard {
  std::string rule;    // R0 (cannot analyse), R1 (read), R2 (write), R3
                       // (pieces in flight at a barrier or the end)
  std::string message; // buffer bytes, thread sets, the other access
  Operation *at = nullptr;
  Operation *other = nullptr; // the earlier access of the same interval
};

/// The first handoff hazard of `kernel` in program order, or none.
std::optional<LdsHandoffHazard> findLdsHandoffHazard(gpu::GPUFuncOp kernel);

/// findLdsHandoffHazard, reported as an error at the access (with a note at
/// the other one); failure when there is a hazard.
LogicalResult verifyLdsHandoffs(gpu::GPUFuncOp kernel);

/// The kernel's own LDS accesses against the entries of its kda.schedule
/// ops: the schedule interpreter (PipelineHazards.h) starts each schedule
/// from quiescent LDS, so an access before a schedule of bytes the schedule
/// touches before its first drained barrier (a plain store to a ring slot
/// its prologue copies into, a read of bytes it writes) is R1 / R2 here,
/// whichever branches, loops and earlier schedules lie between them. A
/// kernel with wave roles, or with cp_async pieces, is checked by
/// findLdsHandoffHazard's walk, which covers its schedules the same way; a
/// kernel without either nor schedules has nothing to check. Without
/// known_block_size no branch is evaluated per thread.
std::optional<LdsHandoffHazard> findScheduleEntryHazard(gpu::GPUFuncOp kernel);

/// findScheduleEntryHazard reported like verifyLdsHandoffs.
LogicalResult verifyScheduleEntries(gpu::GPUFuncOp kernel);

} // namespace mlir::kda

#endif // KDA_PASSES_LDSHANDOFFS_H
