//===- TargetPipelines.h - registered per-target pipelines -----*- C++ -*-===//
//
// After kda-lower-to-gpu{target=T} has built the kernels (a gpu.module with
// `kda.target`), the pipeline `kda-to-T` takes them to T's code: verify every
// pipeline schedule, lower the atoms (kda-lower-atoms), the reductions, the
// GPU dialect, then serialize (gpu-module-to-binary for the GPU targets) or
// turn the kernels into host functions (the emulators). kda-compile runs
// exactly these registered pipelines; `kda-opt --kda-to-T` runs them by name.
//
//===----------------------------------------------------------------------===//
#ifndef KDA_CODEGEN_TARGETPIPELINES_H
#define KDA_CODEGEN_TARGETPIPELINES_H

#include "kda/Target/TargetInfo.h"
#include "mlir/Pass/PassOptions.h"
#include "llvm/Support/Error.h"
#include <string>

namespace mlir {
class OpPassManager;
namespace kda {

struct TargetPipelineOptions
    : public PassPipelineOptions<TargetPipelineOptions> {
  Option<std::string> toolkit{
      *this, "toolkit",
      llvm::cl::desc("sm_90: the CUDA toolkit root (nvvm/libdevice); gfx9xx: "
                     "a folder with llvm/bin/ld.lld and amdgcn/bitcode")};
  Option<std::string> format{
      *this, "format",
      llvm::cl::desc("gpu-module-to-binary format: isa (assembly) or bin"),
      llvm::cl::init("bin")};
};

/// The `kda-to-<target>` pipeline as text (builtin.module(...)), what
/// kda-compile runs and records.
std::string targetPipelineText(const TargetInfo &target,
                               const TargetPipelineOptions &options);

/// Sets what LLVM's backend for `target` needs before it serializes kda's
/// kernels; process-wide (LLVM's own command-line options), so every tool
/// that runs a `kda-to-<target>` pipeline calls it first. NVPTX: 32-bit
/// shared-memory pointers (`nvptx-short-ptr`), unless the command line set
/// the option itself. The error says what this LLVM lacks or refused.
llvm::Error configureTargetBackend(const TargetInfo &target);

/// Registers `kda-to-<name>` for every target of the table.
void registerTargetPipelines();

} // namespace kda
} // namespace mlir

#endif // KDA_CODEGEN_TARGETPIPELINES_H
