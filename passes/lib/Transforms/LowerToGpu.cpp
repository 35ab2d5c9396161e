//===- LowerToGpu.cpp - kda ops -> gpu.func kernels -----------------------===//
#include "kda/Dialect/KDA/KDAAttrs.h"
#include "kda/Passes/ChunkKernelBuilder.h"
#include "kda/Passes/Passes.h"
#include "kda/Passes/RecurrentKernelBuilder.h"
#include "kda/Passes/TileGemmKernelBuilder.h"

namespace mlir::kda {
#define GEN_PASS_DEF_KDALOWERTOGPU
#include "kda/Passes/Passes.h.inc"
} // namespace mlir::kda

using namespace mlir;
using namespace mlir::kda;

namespace {
struct KdaLowerToGpuPass
    : public kda::impl::KdaLowerToGpuBase<KdaLowerToGpuPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    const TargetInfo *info = lookupTargetOrEmit(module, target);
    if (!info)
      return signalPassFailure();
    SmallVector<RecurrentOp> ops;
    module.walk([&](RecurrentOp op) { ops.push_back(op); });
    SmallVector<TestTileGemmOp> tileOps;
    module.walk([&](TestTileGemmOp op) { tileOps.push_back(op); });
    SmallVector<ChunkStageOp> stageOps;
    module.walk([&](ChunkStageOp op) { stageOps.push_back(op); });
    if (failed(verifyOneLayerPerFunction(module)))
      return signalPassFailure();
    setDefaultChunkSizes(stageOps, *info);
    dropUnbuildableSegments(stageOps, *info);
    if (failed(chooseScans(stageOps, *info)))
      return signalPassFailure();
    markRecordRuns(stageOps, *info);
    WalkResult undecomposed = module.walk([&](ChunkOp op) {
      op.emitOpError() << "is built as its stages: run kda-decompose before "
                          "kda-lower-to-gpu";
      return WalkResult::interrupt();
    });
    if (undecomposed.wasInterrupted())
      return signalPassFailure();
    if (ops.empty() && tileOps.empty() && stageOps.empty())
      return;

    OpBuilder b(module.getContext());
    module->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                    b.getUnitAttr());
    auto gpuModule = module.lookupSymbol<gpu::GPUModuleOp>("kda_kernels");
    if (!gpuModule) {
      b.setInsertionPointToEnd(module.getBody());
      gpuModule = gpu::GPUModuleOp::create(b, module.getLoc(), "kda_kernels");
      gpuModule->setAttr(kTargetAttrName,
                         TargetAttr::get(module.getContext(), info->name));
    } else if (getEnclosingTarget(gpuModule) != info) {
      gpuModule.emitError() << "gpu.module @kda_kernels is not for target '"
                            << info->name << "'";
      return signalPassFailure();
    }
    SymbolTable symbols(gpuModule);
    for (RecurrentOp op : ops) {
      ConfigAttr config = op.getConfigAttr();
      if (!config)
        config = defaultRecurrentConfig(op.getLayer(), *info);
      auto build = [&](StringRef name) {
        return buildRecurrentKernel(b, gpuModule, name, op, config, *info);
      };
      if (failed(placeKernel(op, "recurrent", gpuModule, symbols, build)))
        return signalPassFailure();
    }
    // The chunk path: one kernel per stage, listed in stage order on the
    // function (kda.stages), named kda_<function>_<stage>.
    for (ChunkStageOp op : stageOps) {
      auto build = [&](StringRef name) {
        return buildChunkStageKernel(b, gpuModule, name, op, *info);
      };
      // A scan of another column block than the default 16 is an
      // alternative of the same stage: kda_<function>_scan_v<block>.
      std::string suffix = ("_" + stringifyChunkStage(op.getStage())).str();
      if (std::optional<int64_t> bv = op.getBlockV(); bv && *bv != 16)
        suffix += "_v" + std::to_string(*bv);
      if (failed(placeKernel(op, "chunk", gpuModule, symbols, build, suffix)))
        return signalPassFailure();
    }
    // Test-only tile-GEMM specs (the tile layer's kernels).
    for (TestTileGemmOp op : tileOps) {
      auto build = [&](StringRef name) {
        return buildTileGemmKernel(b, gpuModule, name, op, *info);
      };
      if (failed(placeKernel(op, "tile_gemm", gpuModule, symbols, build)))
        return signalPassFailure();
    }
  }

  /// Gives the stages of each function whose kda.chunk left chunk_size
  /// out the target's (defaultChunkSize), decided once a function so that
  /// every stage of it, and the scan choice and record layout decided
  /// next, take the same.
  static void setDefaultChunkSizes(ArrayRef<ChunkStageOp> stageOps,
                                   const TargetInfo &info) {
    llvm::MapVector<Operation *, SmallVector<ChunkStageOp>> unsized;
    for (ChunkStageOp op : stageOps)
      if (!op.getChunkSizeAttr())
        unsized[op->getParentOp()].push_back(op);
    for (auto &[fn, stages] : unsized) {
      auto size = IntegerAttr::get(IntegerType::get(fn->getContext(), 64),
                                   defaultChunkSize(stages, info));
      for (ChunkStageOp op : stages)
        op.setChunkSizeAttr(size);
    }
  }

  /// Where the target cannot build a function's split scan (the register
  /// scan does not fit its LDS), its three stages (maps, join, segments)
  /// are erased: the prep, the scans and the runtime do without them.
  static void dropUnbuildableSegments(SmallVectorImpl<ChunkStageOp> &stageOps,
                                      const TargetInfo &info) {
    llvm::SmallPtrSet<Operation *, 4> unbuildable;
    for (ChunkStageOp op : stageOps)
      if (!chunkSegmentsBuildable(op, info))
        unbuildable.insert(op->getParentOp());
    // The prep and scans forget segment_chunks too: their workspace then
    // holds the records alone.
    llvm::erase_if(stageOps, [&](ChunkStageOp op) {
      const ChunkStage stage = op.getStage();
      if (!unbuildable.contains(op->getParentOp()))
        return false;
      if (stage == ChunkStage::Prep || stage == ChunkStage::Scan) {
        op.removeSegmentChunksAttr();
        return false;
      }
      op.erase();
      return true;
    });
  }

  /// Leaves out each function's scan alternatives that `info` cannot hold
  /// or would run only slowly (chooseChunkScan) while one it builds
  /// stands. With none, the unfit ones stay, so that their builds name the
  /// rule they break; with only slow ones, the layer is refused here (a
  /// bundle without a scan would be refused only when the runtime opens
  /// it).
  static LogicalResult chooseScans(SmallVectorImpl<ChunkStageOp> &stageOps,
                                   const TargetInfo &info) {
    using Choice = std::pair<ChunkStageOp, ScanChoice>;
    llvm::MapVector<Operation *, SmallVector<Choice>> byFunction;
    for (ChunkStageOp op : stageOps)
      if (op.getStage() == ChunkStage::Scan)
        byFunction[op->getParentOp()].push_back(
            {op, chooseChunkScan(op, info)});
    llvm::SmallPtrSet<Operation *, 8> leftOut;
    for (auto &[fn, scans] : byFunction) {
      auto any = [&](ScanChoice::Kind kind) {
        return llvm::any_of(
            scans, [&](const Choice &c) { return c.second.kind == kind; });
      };
      const ScanChoice::Kind keep = any(ScanChoice::Build)   ? ScanChoice::Build
                                    : any(ScanChoice::Unfit) ? ScanChoice::Unfit
                                                             : ScanChoice::Slow;
      if (keep == ScanChoice::Slow) {
        InFlightDiagnostic diag = emitStageError(scans.front().first)
                                  << "no scan of the layer is built for "
                                  << info.name << ":";
        for (auto [i, c] : llvm::enumerate(scans))
          diag << (i ? "; " : " ") << "block_v "
               << c.first.getBlockV().value_or(16) << ": " << c.second.why;
        diag << " (list another block in scan_block_v)";
        return failure();
      }
      for (const Choice &c : scans)
        if (c.second.kind != keep)
          leftOut.insert(c.first);
    }
    llvm::erase_if(stageOps, [&](ChunkStageOp op) {
      if (!leftOut.contains(op))
        return false;
      op.erase();
      return true;
    });
    return success();
  }

  /// Builds the kernel of `op` as kda_<function> (distinct from the host
  /// function, whose name the emulator target would otherwise collide with),
  /// tags the function with `kda.kernel` and removes `op`.
  /// A kernel of several stages (`stageSuffix` given) is appended to the
  /// function's `kda.stages` list instead, in the order its ops come.
  static LogicalResult
  placeKernel(Operation *op, StringRef fallbackName, gpu::GPUModuleOp gpuModule,
              SymbolTable &symbols,
              function_ref<FailureOr<gpu::GPUFuncOp>(StringRef)> build,
              StringRef stageSuffix = {}) {
    auto fn = op->getParentOfType<FunctionOpInterface>();
    std::string name =
        "kda_" + (fn ? fn.getName().str() : fallbackName.str()) +
        stageSuffix.str();
    FailureOr<gpu::GPUFuncOp> kernel = build(name);
    if (failed(kernel))
      return failure();
    // Uniquify in case one function holds several computations.
    symbols.insert(*kernel);
    auto ref = SymbolRefAttr::get(gpuModule.getNameAttr(),
                                  {FlatSymbolRefAttr::get(*kernel)});
    if (fn && stageSuffix.empty()) {
      fn->setAttr("kda.kernel", ref);
    } else if (fn) {
      SmallVector<Attribute> stages;
      if (auto list = fn->getAttrOfType<ArrayAttr>("kda.stages"))
        stages.assign(list.begin(), list.end());
      stages.push_back(ref);
      fn->setAttr("kda.stages", ArrayAttr::get(op->getContext(), stages));
    }
    op->erase();
    return success();
  }
};
} // namespace
