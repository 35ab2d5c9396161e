//===- TargetInfo.cpp - the target table ----------------------------------===//
#include "kda/Target/TargetInfo.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir::kda;

static const TargetInfo kTargets[] = {
    {"gfx942", "gfx942", TargetFamily::AMDGPU, 64, 64 * 1024, 64 * 1024, 1024,
     CopyAtomKind::Staged, "MI300X: MFMA, register-staged tile copies"},
    {"gfx950", "gfx950", TargetFamily::AMDGPU, 64, 160 * 1024, 160 * 1024,
     1024, CopyAtomKind::GlobalLoadLds,
     "MI355X: MFMA, global_load_lds tile copies"},
    {"sm_90", "sm_90", TargetFamily::NVPTX, 32, 227 * 1024, 48 * 1024, 1024,
     CopyAtomKind::CpAsync, "H100/H200: mma.sync, cp.async tile copies"},
    {"emu", "gfx942", TargetFamily::Emulator, 64, 64 * 1024, 64 * 1024, 1024,
     CopyAtomKind::Staged, "host emulator executing gfx942's atoms (wave 64)"},
    {"emu950", "gfx950", TargetFamily::Emulator, 64, 160 * 1024, 160 * 1024,
     1024, CopyAtomKind::GlobalLoadLds,
     "host emulator executing gfx950's atoms (wave 64, global_load_lds)"},
    {"emu32", "sm_90", TargetFamily::Emulator, 32, 227 * 1024, 48 * 1024, 1024,
     CopyAtomKind::CpAsync,
     "host emulator executing sm_90's atoms (wave 32, cp.async, mma.sync)"},
};

llvm::ArrayRef<TargetInfo> mlir::kda::allTargets() { return kTargets; }

const TargetInfo *mlir::kda::lookupTarget(llvm::StringRef name) {
  for (const TargetInfo &t : kTargets)
    if (t.name == name)
      return &t;
  return nullptr;
}

std::string mlir::kda::knownTargetNames() {
  std::string s;
  for (const TargetInfo &t : kTargets)
    s += (s.empty() ? "" : ", ") + t.name.str();
  return s;
}

llvm::StringRef mlir::kda::stringifyCopyAtom(CopyAtomKind kind) {
  static const char *const names[] = {"staged", "cp_async", "global_load_lds"};
  return names[unsigned(kind)];
}

llvm::StringRef mlir::kda::stringifyScalar(ScalarKind kind) {
  static const char *const names[] = {"bf16", "f16", "f32"};
  return names[unsigned(kind)];
}
