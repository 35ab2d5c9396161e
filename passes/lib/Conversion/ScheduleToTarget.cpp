//===- ScheduleToTarget.cpp - verified schedules -> AMDGPU / NVVM ---------===//
#include "kda/Dialect/KDA/KDAOps.h"
#include "kda/Passes/AtomLowering.h"

using namespace mlir;
using namespace mlir::kda;

void mlir::kda::populateScheduleToAMDGPUPatterns(RewritePatternSet &patterns,
                                                 const TargetInfo &target) {}

void mlir::kda::populateScheduleToNVVMPatterns(RewritePatternSet &patterns,
                                               const TargetInfo &target) {}
