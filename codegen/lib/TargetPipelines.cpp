//===- TargetPipelines.cpp - registered per-target pipelines --------------===//
#include "kda/Codegen/TargetPipelines.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::kda;

/// Passes on the kernels common to every target: the schedules verified
/// (what is verified is what the atom lowering then emits), atoms lowered,
/// cross-lane reductions lowered.
static std::string kernelPrefix() {
  return "kda-verify-pipeline,gpu.module(kda-lower-atoms,"
         "kda-lower-subgroup-reduce";
}

static std::string nvptxText(const TargetInfo &t,
                             const TargetPipelineOptions &o) {
  return "builtin.module(" + kernelPrefix() +
         ",convert-scf-to-cf,convert-nvgpu-to-nvvm,convert-gpu-to-nvvm{use-"
         "bare-ptr-memref-call-conv=1}),nvvm-attach-target{chip=" +
         t.codeArch().str() +
         " O=3},reconcile-unrealized-casts,gpu-module-to-binary{format=" +
         o.format.getValue() + " toolkit=" + o.toolkit.getValue() + "})";
}

static std::string amdgpuText(const TargetInfo &t,
                              const TargetPipelineOptions &o) {
  return "builtin.module(" + kernelPrefix() +
         ",convert-scf-to-cf,convert-gpu-to-rocdl{use-bare-ptr-memref-call-"
         "conv=1 chipset=" +
         t.chip.str() + "}),rocdl-attach-target{chip=" + t.chip.str() +
         " abi=500 O=3},reconcile-unrealized-casts,gpu-module-to-binary{"
         "format=" +
         o.format.getValue() + " toolkit=" + o.toolkit.getValue() + "})";
}

static std::string emulatorText() {
  return "builtin.module(" + kernelPrefix() +
         "),kda-gpu-to-emu,func.func(convert-scf-to-cf,arith-expand{include-"
         "bf16=1}),convert-vector-to-llvm,expand-strided-metadata,finalize-"
         "memref-to-llvm,convert-math-to-llvm,convert-math-to-libm,convert-"
         "arith-to-llvm,convert-cf-to-llvm,convert-func-to-llvm{use-bare-ptr-"
         "memref-call-conv=1},reconcile-unrealized-casts,kda-emu-entry)";
}

std::string mlir::kda::targetPipelineText(const TargetInfo &t,
                                          const TargetPipelineOptions &o) {
  switch (t.family) {
  case TargetFamily::NVPTX:
    return nvptxText(t, o);
  case TargetFamily::AMDGPU:
    return amdgpuText(t, o);
  case TargetFamily::Emulator:
    return emulatorText();
  }
  llvm_unreachable("target family");
}

/// LLVM's NVPTX backend gives the shared, const and local address spaces
/// 64-bit pointers unless `nvptx-short-ptr` is set (a cl::opt of the
/// backend; MLIR's NVVM target has no knob for it). The hardware's shared
/// window is 32 bits, so 64-bit LDS addresses only cost registers and
/// 64-bit adds: the prep's k loop of A_kk / A_qk kept its 12 LDS base
/// addresses in 24 registers. Measured on the H200 (2026-12-02, one call,
/// two rounds, kda-bench --prefill): the chunk path 1.503-1.513 -> 1.449 ms
/// (1 x 8192 H32), 2.190 -> 2.116 (4 x 4096), 3.456 -> 3.265 (1 x 32768
/// H8), the scans gaining most.
static llvm::Error configureNvptx() {
  const auto &options = llvm::cl::getRegisteredOptions();
  auto it = options.find("nvptx-short-ptr");
  if (it == options.end())
    return llvm::createStringError(
        "this LLVM's NVPTX backend has no nvptx-short-ptr option (kda's "
        "sm_90 kernels address LDS with 32-bit pointers)");
  // Once per process; an explicit -nvptx-short-ptr=false on the command
  // line wins.
  if (it->second->getNumOccurrences() == 0 &&
      it->second->addOccurrence(0, "nvptx-short-ptr", "true"))
    return llvm::createStringError(
        "LLVM refused -nvptx-short-ptr=true (kda's sm_90 kernels address LDS "
        "with 32-bit pointers)");
  return llvm::Error::success();
}

llvm::Error mlir::kda::configureTargetBackend(const TargetInfo &t) {
  if (t.family == TargetFamily::NVPTX)
    return configureNvptx();
  return llvm::Error::success();
}

void mlir::kda::registerTargetPipelines() {
  for (const TargetInfo &t : allTargets()) {
    std::string name = ("kda-to-" + t.name).str();
    std::string description =
        ("kda kernels (after kda-lower-to-gpu{target=" + t.name +
         "}) to code for " + t.name + ": " + t.stands)
            .str();
    PassPipelineRegistration<TargetPipelineOptions>(
        name, description,
        [&t](OpPassManager &pm, const TargetPipelineOptions &options) {
          if (llvm::Error err = configureTargetBackend(t))
            llvm::report_fatal_error(std::move(err));
          std::string text = targetPipelineText(t, options);
          std::string inner = StringRef(text)
                                  .drop_front(strlen("builtin.module("))
                                  .drop_back()
                                  .str();
          if (failed(parsePassPipeline(inner, pm, llvm::errs())))
            llvm::report_fatal_error("kda: bad target pipeline text");
        });
  }
}
