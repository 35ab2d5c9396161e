//===- PipelineHazards.h - the LDS pipeline hazard model --------*- C++ -*-===//
//
// PIPELINE-SAFETY.md as an analysis of expanded schedules (kda.schedule):
// an abstract interpreter in program order over every iteration (static trip
// counts) or every trip count (dynamic ones: a bounded prefix plus a proof
// that the state repeats), tracking per LDS byte range the last write of any
// kind (buffer, slot, iteration), the async copy groups in flight per thread
// class (all threads, or the first wave for issuers("wave0") copies) and the
// reads not yet behind a drained barrier. R6 counts every workgroup
// allocation of the kernel. What it cannot interpret is R0. The model and
// what it proves: passes/PIPELINE-MODEL.md.
//
//===----------------------------------------------------------------------===//
#ifndef KDA_PASSES_PIPELINEHAZARDS_H
#define KDA_PASSES_PIPELINEHAZARDS_H

#include "kda/Dialect/KDA/KDAOps.h"
#include <optional>
#include <string>

namespace mlir::kda {

/// Which threads issue a copy: a string attribute of kda.async_copy,
/// kda.staged_copy (and kda.produce, carried to its copies): "all" (the
/// default, when absent) or "wave0" (only the first wave issues, as gfx950's
/// global_load_lds of a row; the other waves have no group to wait for).
/// Any other value is R0.
inline constexpr llvm::StringLiteral kIssuersAttr = "issuers";

struct PipelineHazard {
  std::string rule;    // R1 .. R6
  std::string message; // buffer, slot, iteration, depth, trip count
  Operation *at = nullptr;
};

/// How a dynamic trip count was proven: every trip count below `bound` was
/// run, and the runs at bound .. bound + period - 1 showed the state of the
/// loop to T repeating with `period` once every decision had settled
/// (`horizon`): see proveDynamic in PipelineHazards.cpp.
struct PipelineProof {
  bool dynamic = false;
  int64_t bound = 0, period = 1, horizon = 1;
};

/// The first hazard of `schedule` in program order, or none when it is safe
/// for every trip count it may run with (then `proof`, when given, says how
/// a dynamic trip count was covered).
std::optional<PipelineHazard> findPipelineHazard(ScheduleOp schedule,
                                                 PipelineProof *proof = nullptr);

/// The first byte of workgroup array `mem` in its kernel's LDS, where the
/// rings' offsets are counted: a workgroup attribution of the enclosing
/// gpu.func (laid out one after another, 16-byte aligned), the dynamic LDS
/// (byte 0), or a view of one of those at a constant offset; failure for
/// anything else.
/// The verifier and the emulator place copy rows and views by it.
FailureOr<int64_t> workgroupArrayBase(Value mem);

/// Emits the hazard as an error at the schedule (the pipeline it came from).
void reportPipelineHazard(ScheduleOp schedule, const PipelineHazard &hazard);

/// findPipelineHazard, reporting the hazard; failure when there is one.
LogicalResult verifyPipelineSchedule(ScheduleOp schedule);

/// How many times copy row `row` issues in one run of `copy`'s body: the
/// product of the trip counts of the `scf.for` loops between them, each of
/// constant bounds; nullopt where something between them (a branch, a loop
/// of run-time bounds) makes it known only at run time, `*blocker` then
/// that op. The one count the vmcnt rule (R0) and the lowering's wait
/// counts (lowering::instructionsPerAsyncGroup) both read.
std::optional<int64_t> copyRowTrips(CopyRowOp row, Operation *copy,
                                    Operation **blocker = nullptr);

/// Why a global_load_lds row cannot be issued as modelled in its kernel, or
/// nullopt when it can: the first wave issues one instruction per region of
/// waveSize x 16 bytes, each lane writing its own 16, so that wave must be
/// whole, which only a known_block_size of at least a wave shows (a
/// 32-thread block on a 64-lane wave leaves half of each region unwritten,
/// stale bytes a read then takes as the copy's). Read by the verifier (R0)
/// and by the atom lowering, which refuses such a row.
std::optional<std::string> globalLoadLdsWaveProblem(CopyRowOp row,
                                                    const TargetInfo &target);

} // namespace mlir::kda

#endif // KDA_PASSES_PIPELINEHAZARDS_H
