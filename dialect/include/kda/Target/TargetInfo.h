//===- TargetInfo.h - the target table, a leaf --------------------*- C++ -*-===//
//
// The one place per-target facts live: wave size, LDS, the copy atom and the
// matrix (MMA) atoms of each chip. Plain C++ over LLVM's ADT: the dialect
// (#kda.target verifies its name here), every pass, codegen and the tools read
// it; it depends on nothing of kda.
//
// A target names a chip whose atoms it executes. The emulator targets stand
// for a chip: `emu` executes gfx942's atoms at wave 64, `emu950` gfx950's
// (global_load_lds), `emu32` sm_90's (cp.async, mma.sync) at wave 32; so every
// atom of every chip runs somewhere in CI, with that chip's semantics.
//
//===----------------------------------------------------------------------===//
#ifndef KDA_TARGET_TARGETINFO_H
#define KDA_TARGET_TARGETINFO_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include <string>

namespace mlir::kda {

/// Which conversion lowers a target's atoms (AMDGPU/ROCDL, NVVM, or calls
/// into the host emulator).
enum class TargetFamily { AMDGPU, NVPTX, Emulator };

/// How a tile gets from global memory into LDS on a chip (the copy atom).
enum class CopyAtomKind {
  /// Global load into registers, then an LDS store: the bytes land at the
  /// store; no wait counts.
  Staged,
  /// sm_90 cp.async.cg: each thread copies 16-byte pieces; a group is
  /// committed per copy and `cp.async.wait_group n` waits for all but n.
  CpAsync,
  /// gfx950 global_load_lds_dwordx4: one instruction of a wave writes
  /// waveSize x 16 contiguous LDS bytes from a wave-uniform base, each lane
  /// its 16 bytes from its own address; `s_waitcnt vmcnt(n)` counts
  /// instructions, not groups.
  GlobalLoadLds,
};

llvm::StringRef stringifyCopyAtom(CopyAtomKind kind);

/// Element types an atom can take (the leaf cannot name mlir::Type).
enum class ScalarKind { BF16, F16, F32 };
llvm::StringRef stringifyScalar(ScalarKind kind);

struct TargetInfo {
  llvm::StringLiteral name;  // bundle-facing: gfx942, gfx950, sm_90, emu, ...
  llvm::StringLiteral chip;  // the chip whose atoms it executes
  TargetFamily family;
  unsigned waveSize;
  unsigned ldsBytes;         // per workgroup (sm_90: after the opt-in)
  /// LDS a kernel may declare statically (workgroup attributions). sm_90:
  /// CUDA caps static shared memory at 48 KiB; more needs dynamic shared
  /// memory and the opt-in (the runtime does it from the manifest).
  unsigned staticLdsBytes;
  unsigned maxWorkgroupSize;
  /// The chip's global -> LDS copy atom for pipelined tiles (Staged where it
  /// has no async copy).
  CopyAtomKind copyAtom;
  const char *stands; // one line: what it is / what it stands for

  bool asyncCopy() const { return copyAtom != CopyAtomKind::Staged; }
  /// Whether the chip sums a cluster of adjacent lanes with DPP: each level
  /// of the reduction is one VALU op with a lane-permute modifier (gfx9's
  /// row_shr / row_bcast, lowered in kda-lower-subgroup-reduce), no trip
  /// through the LDS crossbar. There one cluster reduction per value costs
  /// about what the recurrent kernel's transposed exchange would, so it keeps
  /// them; elsewhere (sm_90's shfl, gfx9 clusters with a stride) every level
  /// is a shuffle and the transposed exchange needs fewer. Keyed on the chip,
  /// so an emulator builds the kernel of the chip it stands for.
  bool dppClusterReduce(unsigned laneStride) const {
    return laneStride == 1 && chip.starts_with("gfx9");
  }
  bool isEmulator() const { return family == TargetFamily::Emulator; }
  /// The processor its code is compiled for (nvvm-attach-target / ptxas
  /// -arch, rocdl chipset): the chip, except that sm_90 compiles for sm_90a.
  /// Its warpgroup atoms (wgmma, MmaAtoms.h) are arch-specific instructions
  /// that exist only there (and need PTX 8.0, which LLVM emits for sm_90a);
  /// an sm_90a cubin runs on sm_90 parts (H100, H200) only, which is what
  /// the target stands for.
  llvm::StringRef codeArch() const {
    return chip == "sm_90" ? llvm::StringRef("sm_90a") : llvm::StringRef(chip);
  }
  /// LDS bytes one copy instruction writes contiguously from a uniform base:
  /// rows copied by a GlobalLoadLds atom are padded to this region.
  unsigned copyRegionBytes() const {
    return copyAtom == CopyAtomKind::GlobalLoadLds ? waveSize * 16 : 16;
  }
  /// Whether the async-copy waits count instructions (vmcnt) rather than
  /// committed groups (wait_group): then every group must issue the same
  /// instructions, a predicated-off one included.
  bool waitsCountInstructions() const {
    return copyAtom == CopyAtomKind::GlobalLoadLds;
  }
  /// Whether a bare workgroup barrier orders this thread's earlier LDS
  /// stores before other threads' later accesses. sm_90: bar.sync does.
  /// gfx9 (gfx90a and later have back-off barriers): s_barrier does not wait
  /// for the thread's own ds_write to complete; that takes s_waitcnt
  /// lgkmcnt(0) first, a drained barrier (kda.lds_barrier).
  bool bareBarrierOrdersLdsStores() const { return !chip.starts_with("gfx"); }
};

/// Every target, in the order tools list them.
llvm::ArrayRef<TargetInfo> allTargets();
/// The target named `name`, or null.
const TargetInfo *lookupTarget(llvm::StringRef name);
/// "gfx942, gfx950, sm_90, emu, emu950, emu32": for help texts and errors.
std::string knownTargetNames();

} // namespace mlir::kda

#endif // KDA_TARGET_TARGETINFO_H
