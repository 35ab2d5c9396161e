//===- PipelineHazards.h - the LDS pipeline hazard model --------*- C++ -*-===//
//
// PIPELINE-SAFETY.md as an analysis of expanded schedules (kda.schedule):
// the region is interpreted over every iteration (static trip counts) or
// over trip counts 0..depth+1 plus a steady state (dynamic ones), tracking
// per LDS byte range the async copy groups in flight (issued, landed at a
// covering wait, visible after a barrier) and the reads not yet behind a
// drained barrier. All threads of the workgroup are treated uniformly.
//
//===----------------------------------------------------------------------===//
#ifndef KDA_PASSES_PIPELINEHAZARDS_H
#define KDA_PASSES_PIPELINEHAZARDS_H

#include "kda/Dialect/KDA/KDAOps.h"
#include <optional>
#include <string>

namespace mlir::kda {

struct PipelineHazard {
  std::string rule;    // R1 .. R6
  std::string message; // buffer, slot, iteration, depth, trip count
  Operation *at = nullptr;
};

/// The first hazard of `schedule` in program order, or none when it is safe
/// for every trip count it may run with.
std::optional<PipelineHazard> findPipelineHazard(ScheduleOp schedule);

/// Emits the hazard as an error at the schedule (the pipeline it came from).
void reportPipelineHazard(ScheduleOp schedule, const PipelineHazard &hazard);

/// findPipelineHazard, reporting the hazard; failure when there is one.
LogicalResult verifyPipelineSchedule(ScheduleOp schedule);

} // namespace mlir::kda

#endif // KDA_PASSES_PIPELINEHAZARDS_H
