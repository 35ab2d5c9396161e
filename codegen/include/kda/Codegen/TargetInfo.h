//===- TargetInfo.h - the target table --------------------------*- C++ -*-===//
//
// The one source of per-target facts (wave size, LDS capacity, matrix atom,
// async copy). Kernel builders and the pipeline verifier read them from here,
// never from constants of their own.
//
//===----------------------------------------------------------------------===//
#ifndef KDA_CODEGEN_TARGETINFO_H
#define KDA_CODEGEN_TARGETINFO_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include <optional>

namespace mlir {
class MLIRContext;
class Operation;
namespace kda {
class TargetAttr;

enum class TargetKind { AMDGPU, NVPTX, Emulator };

struct TargetInfo {
  llvm::StringLiteral name;    // bundle-facing name: gfx942, gfx950, sm_90, emu
  llvm::StringLiteral chip;    // what the backend is told (emu: the chip it stands for)
  TargetKind kind;
  unsigned waveSize;
  unsigned ldsBytes;           // per workgroup (sm_90: after opt-in)
  unsigned maxWorkgroupSize;
  llvm::StringLiteral mma;     // mfma | mma | wgmma | none
  bool asyncCopy;              // global -> LDS without registers
  /// LDS a kernel may declare statically (workgroup attributions). sm_90:
  /// CUDA caps static shared memory at 48 KiB; the rest of ldsBytes needs
  /// dynamic shared memory and the opt-in, which no kernel uses yet.
  unsigned staticLdsBytes;

  TargetAttr toAttr(MLIRContext *ctx) const;
};

/// gfx942, gfx950, sm_90, emu (stands for gfx942: wave 64) and emu32
/// (stands for sm_90: wave 32).
llvm::ArrayRef<TargetInfo> allTargets();
std::optional<TargetInfo> lookupTarget(llvm::StringRef name);
/// lookupTarget, emitting "unknown kda target" at `at` when there is none.
std::optional<TargetInfo> lookupTargetOrEmit(Operation *at,
                                             llvm::StringRef name);

} // namespace kda
} // namespace mlir

#endif // KDA_CODEGEN_TARGETINFO_H
