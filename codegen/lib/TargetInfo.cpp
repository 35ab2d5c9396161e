//===- TargetInfo.cpp - the target table ----------------------------------===//
#include "kda/Codegen/TargetInfo.h"
#include "kda/Dialect/KDA/KDAAttrs.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Operation.h"

using namespace mlir;
using namespace mlir::kda;

static const TargetInfo kTargets[] = {
    // MI300X: 64 KiB LDS per workgroup, MFMA, no global->LDS async copy used.
    {"gfx942", "gfx942", TargetKind::AMDGPU, 64, 64 * 1024, 1024, "mfma", false,
     64 * 1024},
    // MI355X: 160 KiB LDS, MFMA, global_load_lds.
    {"gfx950", "gfx950", TargetKind::AMDGPU, 64, 160 * 1024, 1024, "mfma", true,
     160 * 1024},
    // H100/H200: 227 KiB shared memory per block after opt-in, cp.async.
    {"sm_90", "sm_90", TargetKind::NVPTX, 32, 227 * 1024, 1024, "wgmma", true,
     48 * 1024},
    // The host emulator, standing for gfx942 (wave 64, register-staged
    // copies) or sm_90 (wave 32, async copies whose bytes its race detector
    // holds in flight until the covering wait).
    {"emu", "gfx942", TargetKind::Emulator, 64, 64 * 1024, 1024, "none", false,
     64 * 1024},
    {"emu32", "sm_90", TargetKind::Emulator, 32, 227 * 1024, 1024, "none", true,
     48 * 1024},
};

ArrayRef<TargetInfo> mlir::kda::allTargets() { return kTargets; }

std::optional<TargetInfo> mlir::kda::lookupTarget(StringRef name) {
  for (const TargetInfo &t : kTargets)
    if (t.name == name)
      return t;
  return std::nullopt;
}

std::optional<TargetInfo> mlir::kda::lookupTargetOrEmit(Operation *at,
                                                        StringRef name) {
  std::optional<TargetInfo> t = lookupTarget(name);
  if (!t) {
    InFlightDiagnostic d = at->emitError();
    d << "unknown kda target '" << name << "' (known: ";
    llvm::interleaveComma(llvm::map_range(kTargets,
                                          [](const TargetInfo &k) {
                                            return k.name;
                                          }),
                          d);
    d << ")";
  }
  return t;
}

TargetAttr TargetInfo::toAttr(MLIRContext *ctx) const {
  return TargetAttr::get(ctx, name, waveSize, ldsBytes, maxWorkgroupSize, mma,
                         asyncCopy ? 1 : 0);
}
