//===- Compile.cpp - spec -> code objects for one target ------------------===//
//
// One lowering shared by every target up to the kernels (kda-lower-to-gpu);
// then the target's pipeline: NVVM -> PTX -> ptxas cubin, ROCDL -> hsaco
// (AMDHSA code object v5), or the emulator -> LLVM IR -> host shared object.
// Pipelines are textual so the manifest can record exactly what ran.
//
//===----------------------------------------------------------------------===//
#include "kda/Codegen/Compile.h"
#include "Manifest.h" // the runtime's reader: one description of an entry
#include "kda/Codegen/BundleOutput.h"
#include "kda/Codegen/TargetPipelines.h"
#include "kda/Dialect/KDA/KDADialect.h"
#include "kda/Dialect/KDA/KDAOps.h"
#include "kda/Passes/KernelAbi.h"
#include "kda/Passes/LdsModel.h"
#include "kda/Passes/Passes.h"
#include "kda/Passes/RecurrentKernelBuilder.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"
#include <limits>

#ifndef KDA_DEFAULT_LLVM_BIN
#define KDA_DEFAULT_LLVM_BIN "/usr/lib/llvm-22/bin"
#endif
#ifndef KDA_DEFAULT_AMDGCN_BITCODE
#define KDA_DEFAULT_AMDGCN_BITCODE "/usr/lib/x86_64-linux-gnu/amdgcn/bitcode"
#endif

using namespace mlir;
using namespace mlir::kda;
namespace fs = llvm::sys::fs;
namespace path = llvm::sys::path;

static std::string envOr(const char *name, StringRef fallback) {
  const char *v = std::getenv(name);
  return v && *v ? std::string(v) : fallback.str();
}

static bool hasLibdevice(StringRef root) {
  return fs::exists(root + "/nvvm/libdevice/libdevice.10.bc");
}

/// The CUDA toolkit: $KDA_CUDA_PATH when set (an explicit choice: used or
/// refused, never replaced); else the first of $CUDA_HOME, $CUDA_PATH, the
/// toolkit of the ptxas on PATH (through symlinks) and /usr/local/cuda that
/// has libdevice, which gpu-module-to-binary links for math functions.
/// PATH alone is not enough: a wrapper script named ptxas may sit outside
/// the toolkit.
static std::string findCudaToolkit() {
  if (const char *v = std::getenv("KDA_CUDA_PATH"); v && *v)
    return hasLibdevice(v) ? v : "";
  SmallVector<std::string> candidates;
  for (const char *var : {"CUDA_HOME", "CUDA_PATH"})
    if (const char *v = std::getenv(var); v && *v)
      candidates.push_back(v);
  if (auto found = llvm::sys::findProgramByName("ptxas")) {
    SmallString<256> real;
    if (!fs::real_path(*found, real))
      candidates.push_back(path::parent_path(path::parent_path(real)).str());
  }
  candidates.push_back("/usr/local/cuda");
  for (const std::string &root : candidates)
    if (hasLibdevice(root))
      return root;
  return "";
}

Toolchain Toolchain::fromEnvironment() {
  Toolchain t;
  t.llvmBinDir = envOr("KDA_LLVM_BIN", KDA_DEFAULT_LLVM_BIN);
  t.amdgcnBitcode = envOr("KDA_AMDGCN_BITCODE", KDA_DEFAULT_AMDGCN_BITCODE);
  t.cudaRoot = findCudaToolkit();
  std::string ptxas = envOr("KDA_PTXAS", "");
  if (ptxas.empty() && !t.cudaRoot.empty())
    ptxas = t.cudaRoot + "/bin/ptxas";
  if (ptxas.empty() || !fs::can_execute(ptxas)) {
    if (auto found = llvm::sys::findProgramByName("ptxas"))
      ptxas = *found;
  }
  t.ptxas = ptxas;
  SmallString<128> scratch;
  if (!createFolderRemovedOnInterrupt("kda-compile", scratch))
    t.scratchDir = scratch.str().str();
  return t;
}

llvm::json::Object KernelFigures::toJson() const {
  llvm::json::Object o;
  auto put = [&](StringRef k, int64_t v) {
    if (v >= 0)
      o[k] = v;
  };
  put("vgprs", vgprs);
  put("sgprs", sgprs);
  put("agprs", agprs);
  put("registers", registers);
  put("spills", spills);
  put("scratch_bytes", scratchBytes);
  put("lds_bytes", ldsBytes);
  put("occupancy_waves_per_simd", occupancy);
  return o;
}

llvm::json::Object CompiledKernel::toJson() const {
  llvm::json::Array gridJ;
  for (int64_t g : grid)
    gridJ.push_back(g == -1   ? llvm::json::Value("num_seqs")
                    : g == -2 ? llvm::json::Value("max_chunks")
                              : llvm::json::Value(g));
  llvm::json::Array argsJ, usesJ;
  for (const Arg &a : args)
    argsJ.push_back(llvm::json::Object{
        {"name", a.name}, {"dtype", a.dtype}, {"role", a.role}});
  for (const std::string &u : uses)
    usesJ.push_back(u);
  llvm::json::Object o{
      {"name", name},
      {"kind", kind},
      {"symbol", symbol},
      {"target", target},
      {"file", file},
      {"file_digest", fileDigest},
      {"block", llvm::json::Array{blockSize, 1, 1}},
      {"wave_size", waveSize},
      {"dtypes", llvm::json::Object(dtypes)},
      {"grid", std::move(gridJ)},
      {"args", std::move(argsJ)},
      {"dynamic_lds_bytes", dynamicLdsBytes},
      {"workspace", llvm::json::Object{{"fixed", workspaceFixed},
                                       {"per_token", workspacePerToken},
                                       {"per_seq", workspacePerSeq}}},
      {"uses", std::move(usesJ)},
      {"config", llvm::json::Object(config)},
      {"figures", figures.toJson()}};
  // Kernels of a layer say which; others (tile_gemm) have none.
  if (!layer.empty())
    o["layer"] = llvm::json::Object(layer);
  if (maxWorkgroupSize > 0)
    o["limits"] = llvm::json::Object{{"max_workgroup_size", maxWorkgroupSize},
                                     {"static_lds_bytes", staticLdsBytes}};
  if (!variantOf.empty()) {
    llvm::json::Object variant{{"of", variantOf},
                               {"n_min", variantNMin},
                               {"n_max", variantNMax}};
    if (auto p = llvm::json::parse(variantProvenance))
      variant["provenance"] = std::move(*p);
    else
      llvm::consumeError(p.takeError());
    o["variant"] = std::move(variant);
  }
  if (!extraFile.empty())
    o["ptx"] = extraFile;
  if (stage >= 0)
    o["stage"] = stage;
  return o;
}

int64_t mlir::kda::amdgpuOccupancy(int64_t vgprs, int64_t agprs,
                                   int64_t ldsBytes, int64_t wavesPerGroup,
                                   const TargetInfo &target) {
  if (vgprs < 0)
    return -1;
  auto alignTo8 = [](int64_t x) { return (std::max<int64_t>(x, 1) + 7) / 8 * 8; };
  int64_t regs = alignTo8(vgprs) + (agprs > 0 ? alignTo8(agprs) : 0);
  int64_t byRegs = std::min<int64_t>(8, 512 / regs);
  if (ldsBytes <= 0)
    return byRegs;
  // Workgroups per CU by LDS, spread over its 4 SIMDs.
  int64_t groups = target.ldsBytes / ldsBytes;
  return std::min(byRegs, groups * wavesPerGroup / 4);
}

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

/// Runs `pipeline`, written as `builtin.module(...)` like mlir-opt's
/// --pass-pipeline, on `module`.
static LogicalResult runPipeline(ModuleOp module, StringRef pipeline) {
  PassManager pm(module.getContext(), ModuleOp::getOperationName());
  StringRef inner = pipeline;
  if (!inner.consume_front("builtin.module(") || !inner.consume_back(")"))
    return module.emitError() << "pipeline must be builtin.module(...): "
                              << pipeline;
  std::string err;
  llvm::raw_string_ostream errOs(err);
  if (failed(parsePassPipeline(inner, pm, errOs)))
    return module.emitError() << "bad pipeline '" << pipeline << "': " << err;
  if (std::getenv("KDA_DEBUG_PIPELINE")) { pm.printAsTextualPipeline(llvm::errs()); llvm::errs() << "\n"; }
  return pm.run(module);
}

/// Writes `bytes` to `file`; "" or why not. The stream's error is checked
/// and cleared here: left set, the stream's destructor ended the process
/// ("LLVM ERROR: IO failure on output stream", naming no file) on a full
/// disk.
static std::string writeBytes(StringRef file, StringRef bytes) {
  FolderWrite writing; // into the staging or scratch folder
  std::string err;
  auto out = openOutputFile(file, &err);
  if (!out)
    return err;
  out->os() << bytes;
  out->os().close();
  if (std::error_code ec = out->os().error()) {
    out->os().clear_error();
    return ec.message(); // not kept: the file is removed
  }
  out->keep();
  return "";
}

static LogicalResult writeFile(Location loc, StringRef file, StringRef bytes) {
  if (std::string err = writeBytes(file, bytes); !err.empty())
    return emitError(loc) << "cannot write " << file << ": " << err;
  return success();
}

/// Runs `argv`, returns its exit code; stdout+stderr land in `log`.
static int runTool(ArrayRef<std::string> argv, std::string &log,
                   StringRef scratch) {
  SmallString<128> logPath(scratch);
  path::append(logPath, "tool.log");
  std::optional<StringRef> redirects[] = {std::nullopt, StringRef(logPath),
                                          StringRef(logPath)};
  SmallVector<StringRef> args(argv.begin(), argv.end());
  std::string errMsg;
  FolderWrite running; // it writes into the scratch folder
  int rc = llvm::sys::ExecuteAndWait(argv[0], args, std::nullopt, redirects,
                                     0, 0, &errMsg);
  if (auto buf = llvm::MemoryBuffer::getFile(logPath))
    log = (*buf)->getBuffer().str();
  if (rc < 0)
    log += errMsg;
  return rc;
}

/// The object bytes of the single gpu.binary left by gpu-module-to-binary.
static FailureOr<std::string> binaryObject(ModuleOp module) {
  for (auto bin : module.getOps<gpu::BinaryOp>())
    for (Attribute a : bin.getObjects())
      if (auto obj = dyn_cast<gpu::ObjectAttr>(a))
        return obj.getObject().getValue().str();
  return module.emitError("gpu-module-to-binary produced no object"),
         failure();
}

static std::string layerPipelinePrefix(const TargetInfo &t) {
  return "builtin.module(kda-decompose,kda-lower-to-gpu{target=" +
         t.name.str() + "})";
}

//===----------------------------------------------------------------------===//
// Figures
//===----------------------------------------------------------------------===//

/// Per-kernel values of the AMDGPU metadata (`amdhsa.kernels`) in assembly.
static void readAmdgpuFigures(StringRef asmText, const TargetInfo &t,
                              std::vector<CompiledKernel> &kernels) {
  size_t start = asmText.find("amdhsa.kernels:");
  if (start == StringRef::npos)
    return;
  StringRef meta = asmText.drop_front(start);
  SmallVector<StringRef> entries;
  // Each kernel's map starts with "  - ." at the list's indentation.
  size_t pos = 0;
  while ((pos = meta.find("\n  - .", pos)) != StringRef::npos) {
    size_t next = meta.find("\n  - .", pos + 1);
    entries.push_back(meta.slice(pos, next));
    if (next == StringRef::npos)
      break;
    pos = next;
  }
  auto value = [](StringRef entry, StringRef key) -> int64_t {
    llvm::Regex re(("[ \t]\\." + key + ":[ \t]+([0-9]+)").str());
    SmallVector<StringRef> m;
    int64_t v = -1;
    if (re.match(entry, &m))
      m[1].getAsInteger(10, v);
    return v;
  };
  for (StringRef entry : entries) {
    llvm::Regex nameRe("[ \t]\\.name:[ \t]+([A-Za-z0-9_]+)");
    SmallVector<StringRef> m;
    if (!nameRe.match(entry, &m))
      continue;
    for (CompiledKernel &k : kernels) {
      if (k.symbol != m[1])
        continue;
      KernelFigures &f = k.figures;
      f.vgprs = value(entry, "vgpr_count");
      f.sgprs = value(entry, "sgpr_count");
      f.agprs = value(entry, "agpr_count");
      f.spills = std::max<int64_t>(0, value(entry, "vgpr_spill_count")) +
                 std::max<int64_t>(0, value(entry, "sgpr_spill_count"));
      f.scratchBytes =
          std::max<int64_t>(0, value(entry, "private_segment_fixed_size"));
      f.ldsBytes =
          std::max<int64_t>(0, value(entry, "group_segment_fixed_size"));
      f.occupancy = amdgpuOccupancy(f.vgprs, f.agprs, f.ldsBytes,
                                    k.blockSize / t.waveSize, t);
    }
  }
}

/// ptxas -v: "Compiling entry function 'X'", then "N bytes stack frame, S
/// bytes spill stores", then "Used R registers, ... M bytes smem".
static void readPtxasFigures(StringRef log,
                             std::vector<CompiledKernel> &kernels) {
  SmallVector<StringRef> lines;
  log.split(lines, '\n');
  CompiledKernel *current = nullptr;
  llvm::Regex entryRe("entry function '([A-Za-z0-9_]+)'");
  llvm::Regex regsRe("Used ([0-9]+) registers");
  llvm::Regex smemRe("([0-9]+) bytes smem");
  llvm::Regex spillRe("([0-9]+) bytes stack frame, ([0-9]+) bytes spill stores");
  for (StringRef line : lines) {
    SmallVector<StringRef> m;
    if (entryRe.match(line, &m)) {
      current = nullptr;
      for (CompiledKernel &k : kernels)
        if (k.symbol == m[1])
          current = &k;
      continue;
    }
    if (!current)
      continue;
    if (regsRe.match(line, &m))
      m[1].getAsInteger(10, current->figures.registers);
    if (smemRe.match(line, &m))
      m[1].getAsInteger(10, current->figures.ldsBytes);
    if (spillRe.match(line, &m)) {
      m[1].getAsInteger(10, current->figures.scratchBytes);
      m[2].getAsInteger(10, current->figures.spills);
    }
  }
}

//===----------------------------------------------------------------------===//
// Targets
//===----------------------------------------------------------------------===//

static LogicalResult requireCudaToolkit(ModuleOp m, const Toolchain &tools) {
  if (!tools.cudaRoot.empty())
    return success();
  if (const char *v = std::getenv("KDA_CUDA_PATH"); v && *v)
    return m.emitError() << "KDA_CUDA_PATH=" << v
                         << " has no nvvm/libdevice/libdevice.10.bc; sm_90 "
                            "needs a CUDA toolkit's libdevice and ptxas";
  return m.emitError("no CUDA toolkit with nvvm/libdevice/libdevice.10.bc "
                     "found (tried $CUDA_HOME, $CUDA_PATH, the toolkit of "
                     "ptxas on PATH, /usr/local/cuda; set $KDA_CUDA_PATH); "
                     "sm_90 needs its libdevice and ptxas");
}

/// The registered `kda-to-<target>` pipeline with these options.
static std::string targetPipeline(const TargetInfo &t, StringRef toolkit,
                                  StringRef format) {
  TargetPipelineOptions options;
  options.toolkit = toolkit.str();
  options.format = format.str();
  return targetPipelineText(t, options);
}

static std::string nvptxPipeline(const TargetInfo &t, const Toolchain &tools) {
  return targetPipeline(t, tools.cudaRoot, "isa");
}

/// The kernels of `km` to PTX (kda-compile's bundles and kda-translate's
/// --kda-to-ptx alike): the toolkit found, the backend configured
/// (configureTargetBackend), the registered pipeline run.
static LogicalResult runNvptxPipeline(ModuleOp km, const TargetInfo &t,
                                      const Toolchain &tools) {
  if (failed(requireCudaToolkit(km, tools)))
    return failure();
  if (llvm::Error err = configureTargetBackend(t))
    return km.emitError(llvm::toString(std::move(err)));
  return runPipeline(km, nvptxPipeline(t, tools));
}

static LogicalResult compileNvptx(ModuleOp km, const TargetInfo &t,
                                  const Toolchain &tools, StringRef dir,
                                  std::vector<CompiledKernel> &kernels) {
  if (failed(runNvptxPipeline(km, t, tools)))
    return failure();
  FailureOr<std::string> ptx = binaryObject(km);
  if (failed(ptx))
    return failure();
  SmallString<128> ptxPath(dir), cubinPath(dir);
  path::append(ptxPath, "kda_kernels.ptx");
  path::append(cubinPath, "kda_kernels.cubin");
  if (failed(writeFile(km.getLoc(), ptxPath, *ptx)))
    return failure();
  std::string log;
  int rc = runTool({tools.ptxas, "-arch=" + t.codeArch().str(), "-O3", "-v",
                    ptxPath.str().str(), "-o", cubinPath.str().str()},
                   log, tools.scratchDir);
  if (rc != 0)
    return km.emitError() << "ptxas (" << tools.ptxas << ") failed with "
                          << rc << ":\n" << log;
  for (CompiledKernel &k : kernels) {
    k.file = t.name.str() + "/kda_kernels.cubin";
    k.extraFile = t.name.str() + "/kda_kernels.ptx";
  }
  readPtxasFigures(log, kernels);
  return success();
}

static LogicalResult makeAmdgpuToolkit(const Toolchain &tools,
                                       std::string &toolkit) {
  // gpu-module-to-binary wants <toolkit>/llvm/bin/ld.lld and
  // <toolkit>/amdgcn/bitcode: a folder of links to Debian's lld-22 and
  // rocm-device-libs.
  SmallString<128> root(tools.scratchDir);
  path::append(root, "amdgpu-toolkit");
  SmallString<128> bin(root), amdgcn(root);
  path::append(bin, "llvm", "bin");
  path::append(amdgcn, "amdgcn");
  FolderWrite making;
  if (fs::create_directories(bin) || fs::create_directories(amdgcn))
    return failure();
  SmallString<128> lld(bin), bitcode(amdgcn), lldSrc(tools.llvmBinDir);
  path::append(lld, "ld.lld");
  path::append(bitcode, "bitcode");
  path::append(lldSrc, "ld.lld");
  if (!fs::exists(lld) && fs::create_link(lldSrc, lld))
    return failure();
  if (!fs::exists(bitcode) && fs::create_link(tools.amdgcnBitcode, bitcode))
    return failure();
  toolkit = root.str().str();
  return success();
}

static LogicalResult compileAmdgpu(ModuleOp km, const TargetInfo &t,
                                   const Toolchain &tools, StringRef dir,
                                   std::vector<CompiledKernel> &kernels) {
  std::string toolkit;
  if (failed(makeAmdgpuToolkit(tools, toolkit)))
    return km.emitError() << "cannot set up the AMDGPU toolkit links in "
                          << tools.scratchDir;
  if (!fs::exists(tools.amdgcnBitcode))
    return km.emitError() << "AMDGPU device bitcode not found at "
                          << tools.amdgcnBitcode
                          << " (install rocm-device-libs or set "
                             "KDA_AMDGCN_BITCODE)";
  // The assembly carries the resource metadata; the binary is what ships.
  OwningOpRef<ModuleOp> asmModule = km.clone();
  if (failed(runPipeline(*asmModule, targetPipeline(t, toolkit, "isa"))) ||
      failed(runPipeline(km, targetPipeline(t, toolkit, "bin"))))
    return failure();
  FailureOr<std::string> isa = binaryObject(*asmModule);
  FailureOr<std::string> hsaco = binaryObject(km);
  if (failed(isa) || failed(hsaco))
    return failure();
  SmallString<128> asmPath(dir), hsacoPath(dir);
  path::append(asmPath, "kda_kernels.s");
  path::append(hsacoPath, "kda_kernels.hsaco");
  if (failed(writeFile(km.getLoc(), asmPath, *isa)) ||
      failed(writeFile(km.getLoc(), hsacoPath, *hsaco)))
    return failure();
  for (CompiledKernel &k : kernels)
    k.file = t.name.str() + "/kda_kernels.hsaco";
  readAmdgpuFigures(*isa, t, kernels);
  return success();
}

static LogicalResult compileEmulator(ModuleOp km, const TargetInfo &t,
                                     const Toolchain &tools, StringRef dir,
                                     std::vector<CompiledKernel> &kernels) {
  if (failed(runPipeline(km, targetPipeline(t, "", ""))))
    return failure();
  llvm::LLVMContext llvmCtx;
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(km, llvmCtx, "kda_kernels");
  if (!llvmModule)
    return km.emitError("translation of the emulator kernels to LLVM IR failed");
  std::string ir;
  llvm::raw_string_ostream irOs(ir);
  llvmModule->print(irOs, nullptr);
  SmallString<128> llPath(dir), soPath(dir);
  path::append(llPath, "kda_kernels.ll");
  path::append(soPath, "kda_kernels.so");
  if (failed(writeFile(km.getLoc(), llPath, ir)))
    return failure();
  SmallString<128> clang(tools.llvmBinDir);
  path::append(clang, "clang");
  std::string log;
  // Undefined kda_emu_* symbols resolve against the runtime at dlopen.
  // compiler-rt's builtins are linked in: x86 lowers bf16 vector elements
  // it must promote (masked stores of bf16 state rows) through
  // __truncsfbf2, which Debian 12's libgcc lacks.
  int rc = runTool({clang.str().str(), "-O2", "-fPIC", "-shared",
                    "--rtlib=compiler-rt", "-Wno-override-module",
                    llPath.str().str(), "-o", soPath.str().str()},
                   log, tools.scratchDir);
  if (rc != 0)
    return km.emitError() << "clang failed building the emulator object:\n"
                          << log;
  for (CompiledKernel &k : kernels) {
    k.file = t.name.str() + "/kda_kernels.so";
    k.symbol += "_packed"; // added by kda-emu-entry
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Driver
//===----------------------------------------------------------------------===//

void mlir::kda::registerCompilerTools(DialectRegistry &registry) {
  registerAllDialects(registry);
  registerAllExtensions(registry);
  registerAllToLLVMIRTranslations(registry);
  registerAllPasses();
  registerKDAPasses();
  registry.insert<KDADialect>();
}

OwningOpRef<ModuleOp> mlir::kda::readSpec(MLIRContext &ctx,
                                          llvm::SourceMgr &sourceMgr,
                                          StringRef path, StringRef tool) {
  std::string err;
  auto file = openInputFile(path, &err);
  if (!file) {
    llvm::errs() << tool << ": " << err << "\n";
    return nullptr;
  }
  sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
  // The parser or the verifier says why when this fails.
  OwningOpRef<ModuleOp> spec = parseSourceFile<ModuleOp>(sourceMgr, &ctx);
  if (!spec)
    return nullptr;
  // A spec function is one layer (verifyOneLayerPerFunction): a config
  // table entry meant for one layer op would otherwise be applied to both.
  if (failed(verifyOneLayerPerFunction(*spec)))
    return nullptr;
  // Every layer op in a function of the spec module itself (kernels take
  // their function's name; a nested module's functions are not compiled).
  // A function name becomes part of kernel symbols (kda_<fn>_kd<digest>)
  // on every target: letters, digits and '_' only.
  WalkResult misplaced = spec->walk([&](Operation *op) {
    if (!isa<RecurrentOp, ChunkOp>(op))
      return WalkResult::advance();
    auto fn = op->getParentOfType<func::FuncOp>();
    if (!fn || fn->getParentOp() != spec->getOperation()) {
      op->emitError() << "a layer op outside a function of the spec module "
                         "is not compiled: put it in a func.func at the "
                         "module's top level";
      return WalkResult::interrupt();
    }
    StringRef name = fn.getSymName();
    const bool ok =
        !name.empty() && !llvm::isDigit(name.front()) &&
        llvm::all_of(name, [](char c) { return llvm::isAlnum(c) || c == '_'; });
    if (!ok) {
      fn.emitError() << "function name '" << name
                     << "' is not an identifier (letters, digits and '_', "
                        "not starting with a digit): it becomes part of the "
                        "kernels' symbols on every target";
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  if (misplaced.wasInterrupted())
    return nullptr;
  return spec;
}

llvm::json::Object mlir::kda::describeLayer(LayerAttr l) {
  std::string act, state;
  llvm::raw_string_ostream(act) << l.getActType();
  llvm::raw_string_ostream(state) << l.getStateType();
  llvm::json::Object o{{"heads", l.getHeads()},
                       {"value_heads", l.getValueHeads()},
                       {"head_k", l.getHeadK()},
                       {"head_v", l.getHeadV()},
                       {"gate", stringifyGateKind(l.getGate())},
                       {"beta", stringifyBetaMode(l.getBeta())},
                       {"qk_l2norm", l.getQkL2norm()},
                       {"scale", l.getEffectiveScale()},
                       {"act", act},
                       {"state", state},
                       {"state_layout", stringifyStateLayout(l.getStateLayout())}};
  if (l.getGate() == GateKind::LowerBound)
    o["lower_bound"] = l.getLowerBound().convertToDouble();
  return o;
}

/// A kernel that takes gpu.dynamic_shared_memory is launched with its
/// kda.dynamic_lds_bytes (the manifest's dynamic_lds_bytes; 0 without it):
/// a kernel without that attribute, or a view of that memory at a constant
/// byte shift reaching past it, would touch bytes the launch does not
/// reserve (another workgroup's on some chips, a fault on others). Views at
/// other shifts are bounded where they matter (LdsHandoffs' R1 in schedule
/// bodies, the emulator's bounds checks).
static LogicalResult checkDynamicLds(gpu::GPUFuncOp kernel, int64_t bytes) {
  LogicalResult result = success();
  kernel.walk([&](gpu::DynamicSharedMemoryOp lds) {
    if (bytes <= 0) {
      result = lds.emitOpError()
               << "in a kernel without kda.dynamic_lds_bytes: the launch "
                  "would reserve no dynamic shared memory for it (state the "
                  "bytes the kernel uses in kda.dynamic_lds_bytes)";
      return WalkResult::interrupt();
    }
    for (Operation *user : lds->getUsers()) {
      auto view = dyn_cast<memref::ViewOp>(user);
      if (!view)
        continue;
      std::optional<int64_t> shift = getConstantIntValue(view.getByteShift());
      auto type = view.getType();
      if (!shift || !type.hasStaticShape())
        continue;
      // Bytes past int64 (a huge static shape), or not known (elements LLVM
      // pads), are past any reservation.
      std::optional<int64_t> size = memrefBytes(type);
      int64_t end = 0;
      if (!size || llvm::AddOverflow(*shift, *size, end))
        end = std::numeric_limits<int64_t>::max();
      if (*shift < 0 || end > bytes) {
        result = view.emitOpError()
                 << "covers bytes [" << *shift << ", " << end
                 << ") of the dynamic shared memory, but the kernel's "
                    "kda.dynamic_lds_bytes reserves "
                 << bytes << " at launch";
        return WalkResult::interrupt();
      }
    }
    return WalkResult::advance();
  });
  return result;
}

/// The manifest's view of a kernel's ABI, dynamic shared memory and
/// workspace: `kda.abi` (required, stated by the kernel builder),
/// `kda.dynamic_lds_bytes` and `kda.workspace` (optional).
static LogicalResult describeAbi(gpu::GPUFuncOp kernel, CompiledKernel &k) {
  FailureOr<SmallVector<KernelArgAttr>> abi = getKernelAbi(kernel);
  if (failed(abi))
    return failure();
  for (KernelArgAttr a : *abi) {
    std::string dtype;
    llvm::raw_string_ostream(dtype) << a.getElementType();
    k.args.push_back({a.getName().str(), dtype,
                      stringifyArgRole(a.getRole()).str()});
  }
  if (Attribute lds = kernel->getAttr("kda.dynamic_lds_bytes")) {
    auto bytes = dyn_cast<IntegerAttr>(lds);
    if (!bytes || bytes.getInt() < 0 || bytes.getInt() > INT32_MAX)
      return kernel.emitOpError()
             << "kda.dynamic_lds_bytes must be a byte count, not " << lds;
    k.dynamicLdsBytes = bytes.getInt();
  }
  if (failed(checkDynamicLds(kernel, k.dynamicLdsBytes)))
    return failure();
  if (Attribute ws = kernel->getAttr("kda.workspace")) {
    auto dict = dyn_cast<DictionaryAttr>(ws);
    if (!dict)
      return kernel.emitOpError()
             << "kda.workspace must be {fixed, per_token, per_seq} bytes, not "
             << ws;
    for (NamedAttribute entry : dict) {
      auto bytes = dyn_cast<IntegerAttr>(entry.getValue());
      int64_t *slot = entry.getName() == "fixed"       ? &k.workspaceFixed
                      : entry.getName() == "per_token" ? &k.workspacePerToken
                      : entry.getName() == "per_seq"   ? &k.workspacePerSeq
                                                       : nullptr;
      if (!slot || !bytes || bytes.getInt() < 0)
        return kernel.emitOpError()
               << "kda.workspace entry " << entry.getName() << " = "
               << entry.getValue()
               << ": expected fixed, per_token or per_seq bytes (>= 0)";
      *slot = bytes.getInt();
    }
    bool hasArg = llvm::any_of(k.args, [](const CompiledKernel::Arg &a) {
      return a.role == "workspace";
    });
    if (!hasArg && (k.workspaceFixed || k.workspacePerToken ||
                    k.workspacePerSeq))
      return kernel.emitOpError()
             << "kda.workspace asks for bytes but kda.abi has no argument of "
                "role workspace";
  }
  return success();
}

/// The plan stage of a chunk kernel's kind: prep 0, the scans 1 (its
/// alternatives), then the split scan's maps, join and segments.
static int32_t chunkStageNumber(StringRef kind) {
  return llvm::StringSwitch<int32_t>(kind)
      .Case("chunk_prep", 0)
      .Case("chunk_scan", 1)
      .Case("chunk_maps", 2)
      .Case("chunk_join", 3)
      .Case("chunk_segments", 4)
      .Default(-1);
}

/// The element types of act (q), g, beta and state, as the layer op
/// (kda.chunk or kda.chunk_stage) of spec function `name` declares them.
static llvm::json::Object layerDtypes(ModuleOp spec, StringRef name) {
  llvm::json::Object dtypes;
  auto fn = spec.lookupSymbol<func::FuncOp>(name);
  if (!fn)
    return dtypes;
  auto fill = [&](auto op) {
    for (auto [key, value] : {std::pair<const char *, Value>{"act", op.getQ()},
                              {"g", op.getG()},
                              {"beta", op.getBeta()},
                              {"state", op.getState()}}) {
      auto type = dyn_cast<MemRefType>(value.getType());
      if (dtypes.get(key) || !type)
        continue;
      std::string dtype;
      llvm::raw_string_ostream(dtype) << type.getElementType();
      dtypes[key] = dtype;
    }
  };
  fn.walk([&](ChunkOp op) { fill(op); });
  fn.walk([&](ChunkStageOp op) { fill(op); });
  return dtypes;
}

/// The kernel's launch grid (kda.grid: fixed extents, or -1 / -2 for the
/// call's sequences / chunks). A fixed extent past what a launch takes on
/// every target (2^31 - 1 in x, 65535 in y and z: CUDA's and HIP's limits)
/// is refused here: the kernel could never be launched.
static LogicalResult readGrid(gpu::GPUFuncOp kernel, CompiledKernel &k) {
  auto grid = kernel->getAttrOfType<DenseI64ArrayAttr>("kda.grid");
  static constexpr int64_t limit[3] = {0x7fffffff, 65535, 65535};
  for (int i = 0; i < 3; ++i) {
    k.grid[i] = grid[i];
    if (grid[i] > limit[i])
      return kernel.emitOpError()
             << "launches " << grid[i] << " workgroups in grid "
             << "xyz"[i] << " (value heads or column blocks of the layer), "
             << "more than the " << limit[i]
             << " a launch takes on every target";
  }
  return success();
}

/// A kernel that states its kind (kda.kind, e.g. the tile-GEMM test
/// kernels): args from its ABI, config from kda.tile.
static LogicalResult describeAbiKernel(gpu::GPUFuncOp kernel, StringAttr kind,
                                       CompiledKernel &k) {
  // The kinds the runtime knows (Manifest.cpp reads no other): a kernel of
  // another would be written, then refused by every runtime.
  if (kind.getValue() != "tile_gemm" && chunkStageNumber(kind.getValue()) < 0)
    return kernel.emitOpError()
           << "kda.kind \"" << kind.getValue()
           << "\" is not a kind the runtime launches (tile_gemm, chunk_prep, "
              "chunk_scan, chunk_maps, chunk_join, chunk_segments)";
  if (failed(describeAbi(kernel, k)))
    return failure();
  k.kind = kind.str();
  if (failed(readGrid(kernel, k)))
    return failure();
  if (auto tile = kernel->getAttrOfType<DictionaryAttr>("kda.tile"))
    for (NamedAttribute e : tile) {
      if (auto b = dyn_cast<BoolAttr>(e.getValue())) // before IntegerAttr
        k.config[e.getName().str()] = b.getValue();
      else if (auto i = dyn_cast<IntegerAttr>(e.getValue()))
        k.config[e.getName().str()] = i.getInt();
      else if (auto str = dyn_cast<StringAttr>(e.getValue()))
        k.config[e.getName().str()] = str.str();
    }
  return success();
}

/// Names each kernel after the digest of its manifest entry
/// (`<name>_kd<digest>`, Manifest.h: binding an entry to its code object),
/// taken by the runtime's own reader from the entry as it will be written,
/// so the runtime, recomputing it, accepts exactly this entry. An entry
/// the runtime would refuse is refused here, before anything is written.
static LogicalResult
bindSymbolsToEntries(gpu::GPUModuleOp gm,
                     std::vector<CompiledKernel> &kernels) {
  llvm::StringMap<std::string> renamed;
  for (CompiledKernel &k : kernels) {
    auto kernel = gm.lookupSymbol<gpu::GPUFuncOp>(k.symbol);
    if (!kernel)
      return gm.emitError()
             << "no kernel @" << k.symbol << " for entry '" << k.name << "'";
    llvm::json::Object entry = k.toJson();
    // Not known yet (compiling writes it) and not part of the digest.
    entry["file"] = "(not written yet)";
    entry["file_digest"] = "0000000000000000";
    std::string text;
    llvm::raw_string_ostream(text) << llvm::json::Value(std::move(entry));
    ::kda::manifest::Kernel read;
    std::string error;
    if (!::kda::manifest::parseKernelEntry(text, "manifest entry", read, error))
      return kernel.emitOpError()
             << "its manifest entry would be refused by the runtime: " << error;
    std::string bound = k.symbol + "_kd" + ::kda::manifest::entryDigest(read);
    // One kernel, one entry: a kernel two entries described would need two
    // names.
    if (!renamed.try_emplace(k.symbol, bound).second)
      return kernel.emitOpError() << "is described by two manifest entries";
    if (failed(SymbolTable::replaceAllSymbolUses(
            kernel, StringAttr::get(gm.getContext(), bound), gm)))
      return kernel.emitOpError() << "cannot be renamed to " << bound;
    SymbolTable::setSymbolName(kernel, bound);
    k.symbol = bound;
  }
  return success();
}

LogicalResult mlir::kda::compileForTarget(ModuleOp spec, const TargetInfo &t,
                                          const Toolchain &tools,
                                          StringRef outDir,
                                          std::vector<CompiledKernel> &out) {
  OwningOpRef<ModuleOp> work = spec.clone();
  if (failed(runPipeline(*work, layerPipelinePrefix(t))))
    return failure();
  auto gm = work->lookupSymbol<gpu::GPUModuleOp>("kda_kernels");
  if (!gm)
    return success(); // nothing this target builds yet

  std::vector<CompiledKernel> kernels;
  for (auto fn : work->getOps<func::FuncOp>()) {
    // A chunk function: one entry per stage kernel, in stage order, under
    // the function's name (the runtime launches them as one plan); the
    // scans of several column blocks are alternatives of stage 1, listed
    // together (the runtime launches one of them).
    if (auto stages = fn->getAttrOfType<ArrayAttr>("kda.stages")) {
      for (auto [i, stage] : llvm::enumerate(stages)) {
        auto kernel = gm.lookupSymbol<gpu::GPUFuncOp>(
            cast<SymbolRefAttr>(stage).getLeafReference());
        CompiledKernel k;
        k.name = fn.getName().str();
        k.stage = chunkStageNumber(
            kernel->getAttrOfType<StringAttr>("kda.kind").getValue());
        k.symbol = kernel.getName().str();
        k.target = t.name.str();
        k.blockSize = (*kernel.getKnownBlockSize())[0];
        k.waveSize = t.waveSize;
        if (failed(describeAbiKernel(kernel,
                                     kernel->getAttrOfType<StringAttr>(
                                         "kda.kind"),
                                     k)))
          return failure();
        k.layer = describeLayer(kernel->getAttrOfType<LayerAttr>("kda.layer"));
        kernels.push_back(std::move(k));
      }
      // Every stage states the layer's element types, as its layer op
      // (kda.chunk, or a test's lone kda.chunk_stage) declares them: a
      // stage need not take q, g or beta itself.
      auto stageKernels =
          MutableArrayRef<CompiledKernel>(kernels).take_back(stages.size());
      llvm::json::Object dtypes = layerDtypes(spec, fn.getName());
      for (CompiledKernel &k : stageKernels)
        k.dtypes = llvm::json::Object(dtypes);
      continue;
    }
    auto ref = fn->getAttrOfType<SymbolRefAttr>("kda.kernel");
    if (!ref)
      continue;
    auto kernel = gm.lookupSymbol<gpu::GPUFuncOp>(ref.getLeafReference());
    CompiledKernel k;
    k.name = fn.getName().str();
    k.kind = "recurrent";
    k.symbol = kernel.getName().str();
    k.target = t.name.str();
    k.blockSize = (*kernel.getKnownBlockSize())[0];
    k.waveSize = t.waveSize;
    if (auto kind = kernel->getAttrOfType<StringAttr>("kda.kind")) {
      if (failed(describeAbiKernel(kernel, kind, k)))
        return failure();
      kernels.push_back(std::move(k));
      continue;
    }
    if (failed(describeAbi(kernel, k)))
      return failure();
    auto argDtype = [&](StringRef argName) {
      for (const CompiledKernel::Arg &a : k.args)
        if (a.name == argName)
          return a.dtype;
      return std::string();
    };
    k.dtypes = llvm::json::Object{{"act", argDtype("q")},
                                  {"g", argDtype("g")},
                                  {"beta", argDtype("beta")},
                                  {"state", argDtype("state")}};
    if (failed(readGrid(kernel, k)))
      return failure();
    auto layer = kernel->getAttrOfType<LayerAttr>("kda.layer");
    auto config = kernel->getAttrOfType<ConfigAttr>("kda.config");
    k.layer = describeLayer(layer);
    k.config = llvm::json::Object{
        {"block_k", config.getBlockK()},
        {"block_v", config.getBlockV()},
        {"block_t", config.getBlockT()},
        {"warps", config.getWarps()},
        {"stages", config.getStages()},
        {"lanes_k", kernel->getAttrOfType<IntegerAttr>("kda.lanes_k").getInt()},
        {"cols_per_thread",
         kernel->getAttrOfType<IntegerAttr>("kda.cols_per_thread").getInt()},
        {"waves_k", config.getWavesK()},
        {"v_passes", config.getVPasses()},
        {"lds_stages", config.getLdsStages()},
        {"mma", config.getMma()},
        {"shared_terms", config.getSharedTerms()}};
    // The row variant the kernel was built for (RecurrentKernelBuilder):
    // what kda_forward checks a call against.
    for (const char *key :
         {"spec_tokens", "padding_below", "slot_stride", "mma_n", "mma_k"})
      if (auto v = kernel->getAttrOfType<IntegerAttr>(
              (Twine("kda.") + key).str()))
        k.config[key] = v.getInt();
    k.maxWorkgroupSize = t.maxWorkgroupSize;
    k.staticLdsBytes = t.staticLdsBytes;
    if (auto variant = fn->getAttrOfType<DictionaryAttr>("kda.variant")) {
      k.variantOf = variant.getAs<StringAttr>("of").str();
      k.variantNMin = variant.getAs<IntegerAttr>("n_min").getInt();
      k.variantNMax = variant.getAs<IntegerAttr>("n_max").getInt();
      k.variantProvenance = variant.getAs<StringAttr>("provenance").str();
    }
    kernels.push_back(std::move(k));
  }
  // Optional operands the spec passes: the kernel reads them.
  auto noteUses = [&](func::FuncOp fn, Value aLog, Value dtBias) {
    // Once each, however many ops of the function read them (the runtime
    // refuses an operand listed twice).
    auto note = [](CompiledKernel &k, const char *operand) {
      if (!llvm::is_contained(k.uses, operand))
        k.uses.push_back(operand);
    };
    for (CompiledKernel &k : kernels)
      if (k.name == fn.getName()) {
        if (aLog)
          note(k, "a_log");
        if (dtBias)
          note(k, "dt_bias");
      }
  };
  for (auto fn : spec.getOps<func::FuncOp>()) {
    fn.walk([&](RecurrentOp op) { noteUses(fn, op.getALog(), op.getDtBias()); });
    fn.walk([&](ChunkOp op) { noteUses(fn, op.getALog(), op.getDtBias()); });
  }

  if (failed(bindSymbolsToEntries(gm, kernels)))
    return failure();

  OwningOpRef<ModuleOp> km = ModuleOp::create(spec.getLoc());
  (*km)->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                 UnitAttr::get(spec.getContext()));
  km->getBody()->push_back(gm->clone());

  SmallString<128> dir(outDir);
  path::append(dir, t.name);
  std::error_code made;
  {
    FolderWrite making; // in the staging folder
    made = fs::create_directories(dir);
  }
  if (made)
    return spec.emitError()
           << "cannot create " << dir << ": " << made.message();
  LogicalResult r = failure();
  switch (t.family) {
  case TargetFamily::NVPTX:
    r = compileNvptx(*km, t, tools, dir, kernels);
    break;
  case TargetFamily::AMDGPU:
    r = compileAmdgpu(*km, t, tools, dir, kernels);
    break;
  case TargetFamily::Emulator:
    r = compileEmulator(*km, t, tools, dir, kernels);
    break;
  }
  if (failed(r))
    return failure();
  for (CompiledKernel &k : kernels)
    out.push_back(std::move(k));
  return success();
}

LogicalResult mlir::kda::emitTargetAssembly(ModuleOp spec, const TargetInfo &t,
                                            const Toolchain &tools,
                                            raw_ostream &os) {
  OwningOpRef<ModuleOp> work = spec.clone();
  if (failed(runPipeline(*work, layerPipelinePrefix(t))))
    return failure();
  auto gm = work->lookupSymbol<gpu::GPUModuleOp>("kda_kernels");
  if (!gm)
    return spec.emitError("the spec has no computation this target builds");
  OwningOpRef<ModuleOp> km = ModuleOp::create(spec.getLoc());
  (*km)->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                 UnitAttr::get(spec.getContext()));
  km->getBody()->push_back(gm->clone());
  switch (t.family) {
  case TargetFamily::NVPTX:
    if (failed(runNvptxPipeline(*km, t, tools)))
      return failure();
    break;
  case TargetFamily::AMDGPU: {
    std::string toolkit;
    if (failed(makeAmdgpuToolkit(tools, toolkit)) ||
        failed(runPipeline(*km, targetPipeline(t, toolkit, "isa"))))
      return failure();
    break;
  }
  case TargetFamily::Emulator: {
    if (failed(runPipeline(*km, targetPipeline(t, "", ""))))
      return failure();
    llvm::LLVMContext llvmCtx;
    auto llvmModule = translateModuleToLLVMIR(*km, llvmCtx, "kda_kernels");
    if (!llvmModule)
      return spec.emitError("translation to LLVM IR failed");
    llvmModule->print(os, nullptr);
    return success();
  }
  }
  FailureOr<std::string> text = binaryObject(*km);
  if (failed(text))
    return failure();
  os << *text;
  return success();
}

FailureOr<std::optional<llvm::json::Object>>
mlir::kda::plannerOf(ModuleOp spec) {
  Attribute attr = spec->getAttr("kda.planner");
  if (!attr)
    return std::optional<llvm::json::Object>();
  auto dict = dyn_cast<DictionaryAttr>(attr);
  auto tokens = dict ? dict.getAs<IntegerAttr>("recurrent_max_tokens")
                     : IntegerAttr();
  auto provenance = dict ? dict.getAs<StringAttr>("provenance") : StringAttr();
  if (!tokens || tokens.getInt() < 1 || tokens.getInt() > INT32_MAX ||
      !provenance || provenance.getValue().empty() || dict.size() != 2)
    return spec.emitError()
           << "kda.planner must be {recurrent_max_tokens = N (1..2^31-1), "
              "provenance = \"where N was measured\"}, not "
           << attr;
  return std::optional<llvm::json::Object>(llvm::json::Object{
      {"recurrent_max_tokens", tokens.getInt()},
      {"provenance", provenance.getValue().str()}});
}

LogicalResult mlir::kda::writeManifest(
    StringRef outDir, StringRef specName, const std::vector<CompiledKernel> &ks,
    const std::optional<llvm::json::Object> &planner, StringRef generator) {
  // Each entry states its code object's digest, read back from the file as
  // written (the runtime refuses a file that differs).
  llvm::StringMap<std::string> digests;
  llvm::json::Array kernels;
  for (const CompiledKernel &k : ks) {
    auto [it, fresh] = digests.try_emplace(k.file);
    if (fresh) {
      SmallString<128> code(outDir);
      path::append(code, k.file);
      std::string bytes, error;
      if (!::kda::manifest::readBoundedFile(code.str().str(),
                                            uintmax_t(1) << 30, bytes, error)) {
        llvm::errs() << "cannot digest the code object " << error << "\n";
        return failure();
      }
      it->second = ::kda::manifest::fileDigest(bytes);
    }
    llvm::json::Object entry = k.toJson();
    entry["file_digest"] = it->second;
    kernels.push_back(std::move(entry));
  }
  // Format 3: args carry roles; dynamic_lds_bytes, workspace, file_digest
  // (the runtime's Manifest.h reads exactly this).
  llvm::json::Object manifest{{"format", ::kda::manifest::kFormat},
                              {"generator", generator},
                              {"spec", specName},
                              {"kernels", std::move(kernels)}};
  if (planner)
    manifest["planner"] = llvm::json::Object(*planner);
  SmallString<128> file(outDir);
  path::append(file, "manifest.json");
  std::string text;
  llvm::raw_string_ostream os(text);
  os << llvm::formatv("{0:2}", llvm::json::Value(std::move(manifest))) << "\n";
  if (std::string err = writeBytes(file, text); !err.empty()) {
    llvm::errs() << "cannot write " << file << ": " << err << "\n";
    return failure();
  }
  return success();
}
