//===- kda-compile.cpp - model spec -> bundle -----------------------------===//
//
//   kda-compile SPEC --targets=gfx942,gfx950,sm_90,emu -o DIR
//               [--config-table=TABLE.json]
//
// Lowers every computation of SPEC for each target and writes DIR: the code
// objects (one folder per target) and manifest.json. The bundle is built in a
// temporary folder beside DIR and moved into place only when every target
// succeeded: a failed compile leaves DIR as it was. With a config table
// (kda-tune's), each recurrent kernel also gets one variant per matching
// entry, which the runtime launches for the entry's N range; an entry whose
// config breaks a rule or a pipeline hazard rule fails the compile.
//
//===----------------------------------------------------------------------===//
#include "kda/Codegen/BundleOutput.h"
#include "kda/Codegen/Compile.h"
#include "kda/Codegen/ConfigTable.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/Timer.h"

using namespace mlir;
using namespace mlir::kda;
namespace cl = llvm::cl;
namespace fs = llvm::sys::fs;

// Only this tool's options in --help (not every LLVM library's).
static cl::OptionCategory compileCategory("kda-compile options");

static cl::opt<std::string> specFile(cl::Positional, cl::cat(compileCategory),
                                     cl::desc("<spec.mlir>"), cl::Required);
static cl::opt<std::string> outDir("o", cl::cat(compileCategory),
                                   cl::desc("bundle folder to write"),
                                   cl::value_desc("dir"), cl::Required);
static cl::opt<std::string> targetList("targets", cl::cat(compileCategory),
                                       cl::desc("comma-separated targets"),
                                       cl::init("gfx942,gfx950,sm_90,emu"));
static cl::opt<bool> quiet("q", cl::cat(compileCategory),
                           cl::desc("no progress output"));
static cl::opt<std::string> configTable(
    "config-table", cl::cat(compileCategory),
    cl::desc("kda-tune's config table: compile a variant of each recurrent "
             "kernel per entry of its target and layer"),
    cl::value_desc("table.json"), cl::init(""));
static cl::opt<bool> printFigures(
    "print-figures", cl::cat(compileCategory),
    cl::desc("print each kernel's static figures (registers, spills, LDS, "
             "occupancy) read from the code objects"));

static void printFigureTable(const std::vector<CompiledKernel> &kernels) {
  llvm::outs() << llvm::format("%-8s %-36s %6s %6s %6s %7s %7s %8s %9s\n",
                               "target", "kernel", "block", "vgprs", "sgprs",
                               "spills", "scratch", "lds", "occupancy");
  for (const CompiledKernel &k : kernels) {
    const KernelFigures &f = k.figures;
    auto num = [](int64_t v) {
      return v < 0 ? std::string("-") : std::to_string(v);
    };
    llvm::outs() << llvm::format(
        "%-8s %-36s %6s %6s %6s %7s %7s %8s %9s\n", k.target.c_str(),
        k.symbol.c_str(), std::to_string(k.blockSize).c_str(),
        num(f.vgprs >= 0 ? f.vgprs : f.registers).c_str(), num(f.sgprs).c_str(),
        num(f.spills).c_str(), num(f.scratchBytes).c_str(),
        num(f.ldsBytes).c_str(),
        f.occupancy >= 0 ? (std::to_string(f.occupancy) + " w/SIMD").c_str()
                         : "-");
  }
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  DialectRegistry registry;
  registerCompilerTools(registry);
  cl::HideUnrelatedOptions(compileCategory);
  cl::ParseCommandLineOptions(argc, argv, "kda-compile: model spec -> bundle\n");

  // Validate the target list before doing any work.
  SmallVector<StringRef> names;
  StringRef(targetList).split(names, ',', -1, /*KeepEmpty=*/false);
  std::vector<TargetInfo> targets;
  for (StringRef n : names) {
    const TargetInfo *t = lookupTarget(n.trim());
    if (!t) {
      llvm::errs() << "kda-compile: unknown target '" << n
                   << "' (known: " << knownTargetNames() << ")\n";
      return 2;
    }
    if (llvm::any_of(targets,
                     [&](const TargetInfo &o) { return o.name == t->name; })) {
      llvm::errs() << "kda-compile: --targets names " << t->name
                   << " twice (a bundle holds one code object a target)\n";
      return 2;
    }
    targets.push_back(*t);
  }
  if (targets.empty()) {
    llvm::errs() << "kda-compile: --targets names no target\n";
    return 2;
  }

  if (std::string why = replaceableBundleOutput(outDir); !why.empty()) {
    llvm::errs() << "kda-compile: -o " << outDir << ": " << why << "\n";
    return 2;
  }

  MLIRContext ctx(registry);
  ctx.loadAllAvailableDialects();
  // An error names the user's line; the generic form of the internal op
  // that met it (a chunk stage, a built kernel) would bury it.
  ctx.printOpOnDiagnostic(false);
  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler diagHandler(sourceMgr, &ctx);
  OwningOpRef<ModuleOp> spec = readSpec(ctx, sourceMgr, specFile, "kda-compile");
  if (!spec)
    return 1; // the parser or verifier already said why

  ConfigTable table;
  if (!configTable.empty()) {
    std::string error;
    if (!ConfigTable::read(configTable, table, error)) {
      llvm::errs() << "kda-compile: config table " << error << "\n";
      return 1;
    }
  }

  Toolchain tools = Toolchain::fromEnvironment();
  // The bundle is staged beside the output and moved into place only when
  // whole (BundleOutput.h); the toolchain's scratch goes either way.
  llvm::scope_exit removeScratch([&] {
    if (!tools.scratchDir.empty()) {
      fs::remove_directories(tools.scratchDir);
      keepOnInterrupt(tools.scratchDir);
    }
  });
  StagedBundle bundle;
  if (std::string why = bundle.begin(outDir); !why.empty()) {
    llvm::errs() << "kda-compile: -o " << outDir << ": " << why << "\n";
    return 1;
  }
  // Checked before any target compiles: a malformed threshold writes nothing.
  FailureOr<std::optional<llvm::json::Object>> planner = plannerOf(*spec);
  if (failed(planner))
    return 1;
  std::vector<CompiledKernel> kernels;
  // A diagnostic met while a target's progress line is open starts on a
  // line of its own (then falls through to the source manager's handler).
  bool progressOpen = false;
  ScopedDiagnosticHandler endProgressLine(&ctx, [&](Diagnostic &) {
    if (progressOpen)
      llvm::errs() << "\n";
    progressOpen = false;
    return failure();
  });
  for (auto [i, t] : llvm::enumerate(targets)) {
    llvm::TimeRecord start = llvm::TimeRecord::getCurrentTime(true);
    if (!quiet)
      llvm::errs() << "[" << i + 1 << "/" << targets.size() << "] " << t.name
                   << ": compiling...";
    progressOpen = !quiet;
    size_t before = kernels.size();
    OwningOpRef<ModuleOp> withVariants = spec->clone();
    if (failed(addTableVariants(*withVariants, table, configTable, t)) ||
        failed(compileForTarget(*withVariants, t, tools, bundle.stagingDir(),
                                kernels))) {
      llvm::errs() << (progressOpen ? "\n" : "") << "kda-compile: " << t.name
                   << " failed; " << outDir << " left unchanged\n";
      return 1;
    }
    double secs =
        llvm::TimeRecord::getCurrentTime(false).getWallTime() -
        start.getWallTime();
    if (progressOpen)
      llvm::errs() << " " << kernels.size() - before << " kernel(s) in "
                   << llvm::format("%.2f", secs) << " s\n";
    else if (!quiet) // warnings or remarks broke the line
      llvm::errs() << "[" << i + 1 << "/" << targets.size() << "] " << t.name
                   << ": " << kernels.size() - before << " kernel(s) in "
                   << llvm::format("%.2f", secs) << " s\n";
    progressOpen = false;
  }
  if (kernels.empty()) {
    llvm::errs() << "kda-compile: " << specFile
                 << " holds nothing to compile (no kda.recurrent, kda.chunk "
                    "or kernel); "
                 << outDir << " left unchanged\n";
    return 1;
  }
  if (failed(writeManifest(bundle.stagingDir(),
                           llvm::sys::path::filename(specFile), kernels,
                           *planner, "kda-compile"))) {
    llvm::errs() << "kda-compile: cannot write the manifest\n";
    return 1;
  }
  if (std::string error = bundle.commit(); !error.empty()) {
    llvm::errs() << "kda-compile: " << error << "\n";
    return 1;
  }
  if (printFigures)
    printFigureTable(kernels);
  if (!quiet)
    llvm::errs() << "kda-compile: wrote " << kernels.size()
                 << " kernel(s) and manifest.json to " << outDir << "\n";
  return 0;
}
