//===- Compile.h - spec -> code objects for one target ----------*- C++ -*-===//
#ifndef KDA_CODEGEN_COMPILE_H
#define KDA_CODEGEN_COMPILE_H

#include "kda/Dialect/KDA/KDAAttrs.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/SourceMgr.h"
#include <string>
#include <vector>

namespace mlir::kda {

/// Where the external tools live; defaults come from the build.
struct Toolchain {
  std::string llvmBinDir;     // ld.lld, clang (LLVM 22)
  std::string amdgcnBitcode;  // rocm-device-libs bitcode folder
  std::string cudaRoot;       // CUDA toolkit (nvvm/libdevice); empty: none
  std::string ptxas;          // CUDA toolkit's ptxas
  std::string scratchDir;     // temporary files (AMDGPU toolkit links)
  static Toolchain fromEnvironment();
};

/// Static resource figures of one kernel, read from the compiled object.
struct KernelFigures {
  int64_t vgprs = -1, sgprs = -1, agprs = -1; // AMDGPU (registers: vgprs)
  int64_t registers = -1;                     // NVPTX registers per thread
  int64_t spills = 0;                         // spill stores / spill count
  int64_t scratchBytes = 0;                   // private segment / stack frame
  int64_t ldsBytes = 0;                       // static LDS / shared memory
  int64_t occupancy = -1;                     // waves per SIMD (AMDGPU)
  llvm::json::Object toJson() const;
};

/// One compiled kernel as the manifest describes it.
struct CompiledKernel {
  std::string name;        // the spec function it implements
  std::string kind;        // recurrent | chunk_prep | chunk_scan | tile_gemm
  int64_t stage = -1;      // position in its function's plan (chunk stages)
  std::string symbol;      // entry symbol in the object
  std::string target;      // gfx942 | gfx950 | sm_90 | emu | emu32
  std::string file;        // code object, relative to the bundle
  std::string fileDigest;  // of the file's bytes (writeManifest fills it)
  std::string extraFile;   // sm_90: the PTX beside the cubin
  int64_t blockSize = 0;
  int64_t waveSize = 0;
  llvm::json::Object dtypes; // act, g, beta, state
  int64_t grid[3] = {0, 0, 0}; // -1: number of sequences, -2: most chunks
  llvm::json::Object layer, config;
  /// The kernel's ABI (its `kda.abi`) in parameter order: each argument a
  /// pointer (bare-pointer convention, passed as kernelParams) to elements
  /// of `dtype`; role input | output | inout | workspace.
  struct Arg {
    std::string name, dtype, role;
  };
  std::vector<Arg> args;
  /// Dynamic shared memory (LDS) bytes per workgroup the kernel launches
  /// with (`kda.dynamic_lds_bytes`; 0 when absent).
  int64_t dynamicLdsBytes = 0;
  /// Workspace bytes per launch: fixed + perToken * T + perSeq * N
  /// (`kda.workspace`; none when absent).
  int64_t workspaceFixed = 0, workspacePerToken = 0, workspacePerSeq = 0;
  std::vector<std::string> uses;
  KernelFigures figures;
  /// A variant of a recurrent kernel compiled from a config table entry:
  /// the kernel it stands in for at N in [variantNMin, variantNMax], and
  /// the entry's provenance (JSON text).
  std::string variantOf;
  int64_t variantNMin = 0, variantNMax = 0;
  std::string variantProvenance;
  /// The target's limits the config rules use (recurrent kernels): the
  /// runtime re-checks the config with them when it opens the bundle.
  int64_t maxWorkgroupSize = 0, staticLdsBytes = 0;
  llvm::json::Object toJson() const;
};

/// Registers what kda's compiling tools need: every upstream dialect,
/// extension, LLVM IR translation and pass, kda's passes and dialect.
void registerCompilerTools(DialectRegistry &registry);

/// Reads and verifies the spec at `path`, diagnostics through `sourceMgr`
/// (which must outlive the module); null after saying why ("<tool>: ...").
OwningOpRef<ModuleOp> readSpec(MLIRContext &ctx, llvm::SourceMgr &sourceMgr,
                               llvm::StringRef path, llvm::StringRef tool);

/// Lowers every computation of `spec` for `target` and writes the code
/// objects under `outDir/<target>/`. Diagnostics go to the spec's context.
LogicalResult compileForTarget(ModuleOp spec, const TargetInfo &target,
                               const Toolchain &tools, llvm::StringRef outDir,
                               std::vector<CompiledKernel> &kernels);

/// The target's assembly of every computation of `spec`: PTX (sm_90),
/// AMDGPU assembly (gfx942, gfx950) or LLVM IR (the emulator).
LogicalResult emitTargetAssembly(ModuleOp spec, const TargetInfo &target,
                                 const Toolchain &tools, llvm::raw_ostream &os);

/// The layer facts a manifest (and kda-translate --kda-spec-to-json) records.
llvm::json::Object describeLayer(LayerAttr layer);

/// The spec's planner threshold for kda_forward, from the module attribute
/// `kda.planner = {recurrent_max_tokens = N : i64, provenance = "..."}`
/// (where N was measured): the manifest's "planner" object, or none when
/// the spec has no such attribute; failure (with a diagnostic) when it is
/// malformed.
FailureOr<std::optional<llvm::json::Object>> plannerOf(ModuleOp spec);

/// Writes `outDir/manifest.json` (with "planner" when given); "generator"
/// names the tool that wrote it (kda-compile's bundles, kda-tune's
/// candidates).
LogicalResult writeManifest(llvm::StringRef outDir, llvm::StringRef specName,
                            const std::vector<CompiledKernel> &kernels,
                            const std::optional<llvm::json::Object> &planner,
                            llvm::StringRef generator);

/// Occupancy in waves per SIMD of an AMDGPU kernel from its VGPR count
/// (unified 512-entry VGPR+AGPR file on gfx90a/gfx942/gfx950, granule 8,
/// at most 8 waves) and LDS use per workgroup of `wavesPerGroup` waves.
int64_t amdgpuOccupancy(int64_t vgprs, int64_t agprs, int64_t ldsBytes,
                        int64_t wavesPerGroup, const TargetInfo &target);

} // namespace mlir::kda

#endif // KDA_CODEGEN_COMPILE_H
