//===- PipelineExpansion.h - kda.pipeline -> kda.schedule -------*- C++ -*-===//
#ifndef KDA_PASSES_PIPELINEEXPANSION_H
#define KDA_PASSES_PIPELINEEXPANSION_H

#include "kda/Dialect/KDA/KDAAttrs.h"
#include "kda/Dialect/KDA/KDAOps.h"
#include "mlir/IR/BuiltinOps.h"
#include <string>
#include <vector>

namespace mlir::kda {

/// Expands `op` for `target` in place (sizing its rings to the depth) and
/// returns the schedule. Async producers fall back to register-staged
/// copies on targets without a global -> LDS async copy.
FailureOr<ScheduleOp> expandPipeline(PipelineOp op, const TargetInfo &target);

/// The kda.pipeline ops under `root`, in walk order (the index
/// enumeratePipelineConfigs takes).
SmallVector<PipelineOp> collectPipelines(Operation *root);

/// One candidate config of a pipeline and the verifier's verdict.
struct PipelineConfigVerdict {
  int64_t stages, warps, blockScale;
  bool safe;
  std::string reason; // the hazard, when rejected
};

/// Every (stages 1..4, warps fitting the target, block scale 1 or 2) config
/// of the `index`-th kda.pipeline of `module`, expanded and verified on
/// copies of the module.
std::vector<PipelineConfigVerdict>
enumeratePipelineConfigs(ModuleOp module, unsigned index,
                         const TargetInfo &target);

} // namespace mlir::kda

#endif // KDA_PASSES_PIPELINEEXPANSION_H
