//===- kda-tune.cpp - a config table of safe decode configs ---------------===//
//
//   kda-tune SPEC --target=T --list
//   kda-tune SPEC --target=T --candidates=DIR
//   kda-tune SPEC --target=T --times=BENCH.json --table=TABLE.json
//   kda-tune SPEC --target=T --static --table=TABLE.json
//
// Enumerates configs of each recurrent kernel of SPEC on target T (lanes_k,
// warps, waves_k, columns per lane - hence block_v and the split of a
// head's columns over ceil(head_v / block_v) workgroups - and lds_stages).
// Only configs the rules (RecurrentRules.h) and, for the LDS token
// pipeline, the pipeline verifier accept enter the search; the rejected ones
// are listed with the rule. Then, per N bucket (--buckets, sequences per
// launch):
//   --candidates=DIR  compiles every accepted config into one bundle (kernel
//                     <fn>__c<i>) for kda-bench --all-kernels on the device;
//   --times=FILE      picks the fastest candidate per bucket from kda-bench's
//                     JSON (its machine, driver, date and times become the
//                     entries' provenance);
//   --static          picks by static figures of the compiled candidates
//                     (how much of the machine a launch of the bucket's
//                     smallest N fills, state access width, occupancy,
//                     registers): what the AMD targets get, having no
//                     hardware here - the provenance says so.
// --table merges the chosen entries into TABLE (entries of the same target
// and layer are replaced), which kda-compile --config-table compiles.
//
// With --list, each kda.chunk of SPEC is enumerated too: its scan kernel's
// row pipeline at every depth (--scan-stages, default 1..4; the kernel has
// a fixed wave count), each built and verified as kda-compile would build it,
// listed accepted (with its LDS and copy kind; the target's default depth
// marked) or rejected with the verifier's rule. No device is needed.
//
//===----------------------------------------------------------------------===//
#include "kda/Codegen/BundleOutput.h"
#include "kda/Codegen/Compile.h"
#include "kda/Codegen/ConfigTable.h"
#include "kda/Dialect/KDA/KDAOps.h"
#include "kda/Passes/ChunkKernelBuilder.h"
#include "kda/Passes/RecurrentKernelBuilder.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <numeric>

using namespace mlir;
using namespace mlir::kda;
namespace cl = llvm::cl;
namespace json = llvm::json;

// Only this tool's options in --help (not every LLVM library's).
static cl::OptionCategory tuneCategory("kda-tune options");

static cl::opt<std::string> specFile(cl::Positional, cl::cat(tuneCategory),
                                     cl::desc("<spec.mlir>"), cl::Required);
static cl::opt<std::string> targetName("target", cl::cat(tuneCategory),
                                       cl::desc("target to tune"),
                                       cl::Required);
static cl::opt<bool> listOnly("list", cl::cat(tuneCategory),
                              cl::desc("list accepted and rejected configs"));
static cl::opt<std::string>
    candidatesDir("candidates", cl::cat(tuneCategory),
                  cl::desc("compile the accepted configs into this bundle"),
                  cl::init(""));
static cl::opt<std::string>
    timesFile("times", cl::cat(tuneCategory),
              cl::desc("kda-bench --all-kernels JSON of the candidates bundle"),
              cl::init(""));
static cl::opt<unsigned> batchSize(
    "batch", cl::cat(tuneCategory),
    cl::desc("candidates compiled together into one code object, with a "
             "progress line each (--candidates, --static)"),
    cl::init(32));
static cl::opt<bool>
    staticChoice("static", cl::cat(tuneCategory),
                 cl::desc("choose by static figures (no hardware at hand)"));
static cl::opt<std::string>
    tableFile("table", cl::cat(tuneCategory),
              cl::desc("config table to write (merged)"), cl::init(""));
static cl::opt<std::string>
    bucketList("buckets", cl::cat(tuneCategory),
               cl::desc("N buckets, e.g. 1-8,9-64,65-65535"),
               cl::init("1-8,9-64,65-65535"));
static cl::list<unsigned> lanesList("lanes", cl::CommaSeparated,
                                    cl::cat(tuneCategory),
                                    cl::desc("lanes_k values (default "
                                             "4,8,16,32,64 up to the wave)"));
static cl::list<unsigned> warpsList("warps", cl::CommaSeparated,
                                    cl::cat(tuneCategory),
                                    cl::desc("warps values (default 1,2,4)"));
static cl::list<unsigned>
    colsList("cols", cl::CommaSeparated, cl::cat(tuneCategory),
             cl::desc("columns per lane (default 1,2,4,8)"));
static cl::list<unsigned> wavesKList("waves-k", cl::CommaSeparated,
                                     cl::cat(tuneCategory),
                                     cl::desc("waves_k values (default 1,2)"));
static cl::list<unsigned> passesList(
    "v-passes", cl::CommaSeparated, cl::cat(tuneCategory),
    cl::desc("v_passes values: passes of a workgroup over its columns "
             "(default 1,2,4)"));
static cl::list<unsigned> mmaList(
    "mma", cl::CommaSeparated, cl::cat(tuneCategory),
    cl::desc("mma values: column sums by the matrix atom (default 0,1; 1 "
             "for bf16 vk pools on chips with the atom, with warps and cols "
             "and nothing else)"));
static cl::list<unsigned> sharedTermsList(
    "shared-terms", cl::CommaSeparated, cl::cat(tuneCategory),
    cl::desc("shared_terms values: a row's first token's terms once a "
             "workgroup for its v_passes and column groups (default 0,1; 1 "
             "only where it applies: lds_stages 0, v_passes > 1 or more "
             "than one column group)"));
static cl::list<unsigned> ldsList("lds-stages", cl::CommaSeparated,
                                  cl::cat(tuneCategory),
                                  cl::desc("lds_stages values (default 0,2)"));
static cl::list<unsigned> scanStagesList(
    "scan-stages", cl::CommaSeparated, cl::cat(tuneCategory),
    cl::desc("chunk scan row pipeline depths to list (default 1,2,3,4)"));

namespace {

struct Bucket {
  int64_t nMin, nMax;
};

struct Candidate {
  rules::ConfigValues config;
  RecurrentSchedule plan;
  std::string name; // <fn>__c<i> in the candidates bundle
  KernelFigures figures;
};

/// One recurrent computation of the spec and what is known about it.
struct Tuned {
  func::FuncOp fn;
  RecurrentOp op;
  std::vector<Candidate> accepted;
  std::vector<std::pair<rules::ConfigValues, std::string>> rejected;
};

std::vector<unsigned> orDefault(const cl::list<unsigned> &given,
                                std::vector<unsigned> dflt) {
  return given.empty() ? dflt : std::vector<unsigned>(given.begin(), given.end());
}

std::string describe(const rules::ConfigValues &c) {
  return llvm::formatv("lanes_k {0}, warps {1}, waves_k {2}, block_v {3}, "
                       "v_passes {4}, lds_stages {5}{6}{7}",
                       c.lanesK, c.warps, c.wavesK, c.blockV, c.vPasses,
                       c.ldsStages, c.mma ? ", mma 1" : "",
                       c.sharedTerms ? ", shared_terms 1" : "");
}

bool parseBuckets(std::vector<Bucket> &out) {
  SmallVector<StringRef> parts;
  StringRef(bucketList).split(parts, ',', -1, false);
  for (StringRef p : parts) {
    auto [lo, hi] = p.split('-');
    Bucket b{0, 0};
    if (lo.getAsInteger(10, b.nMin) || hi.getAsInteger(10, b.nMax) ||
        b.nMin < 1 || b.nMax < b.nMin || b.nMax > kMaxSequences ||
        (!out.empty() && b.nMin <= out.back().nMax)) {
      llvm::errs() << "kda-tune: --buckets: '" << p
                   << "' is not an increasing range lo-hi within 1-"
                   << kMaxSequences << "\n";
      return false;
    }
    out.push_back(b);
  }
  if (out.empty())
    llvm::errs() << "kda-tune: --buckets: no range given (e.g. "
                    "1-8,9-64,65-65535)\n";
  return !out.empty();
}

/// Search values each within [lo, hi]: a value outside would only ever be
/// rejected config by config (--mma=7 listed nothing and succeeded), or
/// read as another (--cols=0 as one column).
bool checkSearchValues() {
  struct List {
    const char *flag;
    const cl::list<unsigned> &values;
    unsigned lo, hi;
  } lists[] = {{"--lanes", lanesList, 0, 64},
               {"--warps", warpsList, 1, 32},
               {"--cols", colsList, 1, 256},
               {"--waves-k", wavesKList, 1, 64},
               {"--v-passes", passesList, 1, 256},
               {"--mma", mmaList, 0, 1},
               {"--shared-terms", sharedTermsList, 0, 1},
               {"--lds-stages", ldsList, 0, 4}};
  for (const List &l : lists)
    for (unsigned v : l.values)
      if (v < l.lo || v > l.hi) {
        llvm::errs() << "kda-tune: " << l.flag << ": " << v << " is outside "
                     << l.lo << ".." << l.hi << "\n";
        return false;
      }
  return true;
}

/// The pipeline verifier's verdict on a config with an LDS token ring:
/// build the kernel in a scratch module (the builder expands and verifies
/// the ring); empty when accepted.
std::string verifyPipeline(RecurrentOp op, const rules::ConfigValues &c,
                           const TargetInfo &t) {
  if (c.ldsStages == 0)
    return "";
  MLIRContext *ctx = op.getContext();
  OwningOpRef<ModuleOp> scratch = ModuleOp::create(op.getLoc());
  OpBuilder b(ctx);
  b.setInsertionPointToEnd(scratch->getBody());
  auto gm = gpu::GPUModuleOp::create(b, op.getLoc(), "scratch");
  std::string message;
  ScopedDiagnosticHandler capture(ctx, [&](Diagnostic &d) {
    message = d.str();
    return success();
  });
  if (failed(buildRecurrentKernel(b, gm, "candidate", op, configAttr(ctx, c),
                                  t)))
    return message.empty() ? "the kernel builder failed" : message;
  return "";
}

/// The chunk kernel of `op`'s `stage` built for `t` in a scratch module:
/// a scan with row pipeline depth `stages` (none: the builder's default)
/// and `blockV` state columns a workgroup, or the prep (neither). On
/// success, `stages`, `waves`, `chunkSize` and `lds` are the kernel's
/// (kda.tile, dynamic LDS bytes) and `pipeline` its kda.verified_pipeline
/// (empty at depth 1); on failure the builder's diagnostic (the verifier's
/// rule for a rejected depth).
struct ScanVerdict {
  bool accepted = false;
  std::string message;
  int64_t stages = 0, lds = 0, waves = 0, chunkSize = 0;
  std::string pipeline;
};

/// `op`'s chunk size on `t`: its own, else the one kda-lower-to-gpu gives
/// the layer there (defaultChunkSize over its prep and every scan block at
/// the layer's scan_stages), so that each block's depths are listed at the
/// size kda-compile builds them.
IntegerAttr layerChunkSize(ChunkOp op, const TargetInfo &t) {
  if (IntegerAttr own = op.getChunkSizeAttr())
    return own;
  OpBuilder b(op);
  SmallVector<ChunkStageOp> stages = {
      createChunkStage(b, op, ChunkStage::Prep, IntegerAttr(), IntegerAttr(),
                       std::nullopt, IntegerAttr())};
  for (int64_t bv : op.getScanBlocks())
    stages.push_back(createChunkStage(b, op, ChunkStage::Scan, IntegerAttr(),
                                      op.getScanStagesAttr(), bv,
                                      IntegerAttr()));
  const int64_t size = defaultChunkSize(stages, t);
  for (ChunkStageOp stage : stages)
    stage.erase();
  return Builder(op.getContext()).getI64IntegerAttr(size);
}

/// Builds `op`'s `stage` alone at `chunkSize` (layerChunkSize) on `t`.
ScanVerdict buildChunkStage(ChunkOp op, ChunkStage stage, IntegerAttr chunkSize,
                            std::optional<int64_t> stages,
                            std::optional<int64_t> blockV,
                            const TargetInfo &t) {
  MLIRContext *ctx = op.getContext();
  OwningOpRef<ModuleOp> scratch = ModuleOp::create(op.getLoc());
  OpBuilder b(ctx);
  b.setInsertionPointToEnd(scratch->getBody());
  auto gm = gpu::GPUModuleOp::create(b, op.getLoc(), "scratch");
  auto scan =
      createChunkStage(b, op, stage, chunkSize,
                       stages ? b.getI64IntegerAttr(*stages) : IntegerAttr(),
                       blockV, IntegerAttr());
  ScanVerdict v;
  {
    ScopedDiagnosticHandler capture(ctx, [&](Diagnostic &d) {
      v.message = d.str();
      return success();
    });
    FailureOr<gpu::GPUFuncOp> fn =
        buildChunkStageKernel(b, gm, "candidate", scan, t);
    if (succeeded(fn)) {
      v.accepted = true;
      auto tile = (*fn)->getAttrOfType<DictionaryAttr>("kda.tile");
      if (auto depth = tile.getAs<IntegerAttr>("scan_stages"))
        v.stages = depth.getInt();
      v.waves = cast<IntegerAttr>(tile.get("waves")).getInt();
      v.chunkSize = cast<IntegerAttr>(tile.get("chunk_size")).getInt();
      v.lds = (*fn)->getAttrOfType<IntegerAttr>("kda.dynamic_lds_bytes").getInt();
      if (auto p = (*fn)->getAttrOfType<StringAttr>("kda.verified_pipeline"))
        v.pipeline = p.str();
    } else if (v.message.empty()) {
      v.message = "the kernel builder failed";
    }
  }
  scan.erase();
  return v;
}

/// What kda-lower-to-gpu makes of `op`'s scan of block `bv` at depth
/// `stages` on `t` (chooseChunkScan), at `chunkSize` (layerChunkSize).
ScanChoice scanChoiceOf(ChunkOp op, IntegerAttr chunkSize, int64_t bv,
                        int64_t stages, const TargetInfo &t) {
  OpBuilder b(op);
  ChunkStageOp scan =
      createChunkStage(b, op, ChunkStage::Scan, chunkSize,
                       b.getI64IntegerAttr(stages), bv, IntegerAttr());
  ScanChoice choice = chooseChunkScan(scan, t);
  scan.erase();
  return choice;
}

/// Lists the chunk scan's row pipeline depths of `op` on `t`, for each of
/// its column blocks (kda-decompose's alternatives, scan_block_v).
void listChunkScan(func::FuncOp fn, ChunkOp op, const TargetInfo &t) {
  // Decided once for the layer, as kda-lower-to-gpu does.
  const IntegerAttr size = layerChunkSize(op, t);
  // The prep first: a layer whose prep the target cannot hold is refused
  // by kda-compile whatever its scans' depths.
  const ScanVerdict prep = buildChunkStage(op, ChunkStage::Prep, size,
                                           std::nullopt, std::nullopt, t);
  if (!prep.accepted)
    llvm::outs() << fn.getName() << " chunk prep on " << t.name
                 << ": refused (kda-compile refuses the layer there): "
                 << prep.message << "\n";
  for (int64_t bv : op.getScanBlocks()) {
    const ScanVerdict dflt =
        buildChunkStage(op, ChunkStage::Scan, size, std::nullopt, bv, t);
    std::vector<std::pair<int64_t, ScanVerdict>> verdicts;
    unsigned accepted = 0;
    for (unsigned d : orDefault(scanStagesList, {1, 2, 3, 4})) {
      // A form the target runs only slowly is left out by
      // kda-lower-to-gpu (the layer refused where nothing else is built),
      // however its build would go.
      ScanVerdict v;
      if (ScanChoice c = scanChoiceOf(op, size, bv, d, t);
          c.kind == ScanChoice::Slow)
        v.message = "not built (kda-compile leaves it out, and refuses the "
                    "layer where it leaves every block out): " +
                    c.why;
      else
        v = buildChunkStage(op, ChunkStage::Scan, size, d, bv, t);
      verdicts.push_back({d, v});
      accepted += v.accepted;
    }
    llvm::outs() << fn.getName() << " chunk scan on " << t.name << ", block_v "
                 << bv << ": " << accepted << " depths accepted, "
                 << verdicts.size() - accepted << " rejected";
    // The builder's wave count (not a tuning parameter).
    if (dflt.accepted)
      llvm::outs() << " (" << dflt.waves << " waves of " << t.waveSize
                   << " threads, fixed; chunk_size " << dflt.chunkSize
                   << (op.getChunkSizeAttr() ? "" : ", the target's") << ")";
    llvm::outs() << "\n";
    for (auto &[d, v] : verdicts) {
      const char *mark = dflt.accepted && dflt.stages == d ? " (default)" : "";
      if (!v.accepted) {
        llvm::outs() << "  rejected: scan_stages " << d << mark << ": "
                     << v.message << "\n";
        continue;
      }
      llvm::outs() << "  accepted: scan_stages " << d << mark << ": " << v.lds
                   << " bytes of dynamic LDS, "
                   << (v.pipeline.empty() ? std::string("rows staged in the "
                                                        "chunk loop")
                                          : v.pipeline)
                   << "\n";
    }
  }
}

/// Every config of the search space, checked.
void enumerate(Tuned &tu, const TargetInfo &t) {
  LayerAttr layer = tu.op.getLayer();
  const rules::LayerFacts facts = recurrentLayerFacts(layer);
  std::vector<unsigned> lanesDefault;
  for (unsigned l = 4; l <= t.waveSize; l *= 2)
    lanesDefault.push_back(l);
  const rules::TargetFacts tf = targetFacts(t);
  auto consider = [&](const rules::ConfigValues &c) {
    Candidate cand{c, {}, "", {}};
    std::string why = rules::deriveRecurrentPlan(facts, c, tf, cand.plan);
    if (why.empty())
      why = verifyPipeline(tu.op, c, t);
    if (!why.empty()) {
      tu.rejected.push_back({c, why});
      return;
    }
    // The candidate's kernel name in a --candidates bundle and in
    // kda-bench's times: the same enumeration gives the same names.
    cand.name = llvm::formatv("{0}__c{1}", tu.fn.getName(), tu.accepted.size());
    tu.accepted.push_back(cand);
  };
  const std::vector<unsigned> mmas = orDefault(mmaList, {0, 1});
  const std::vector<unsigned> shared = orDefault(sharedTermsList, {0, 1});
  if (llvm::is_contained(mmas, 0u))
    for (unsigned lanes : orDefault(lanesList, lanesDefault))
      for (unsigned warps : orDefault(warpsList, {1, 2, 4}))
        for (unsigned wavesK : orDefault(wavesKList, {1, 2}))
          for (unsigned cols : orDefault(colsList, {1, 2, 4, 8}))
            for (unsigned passes : orDefault(passesList, {1, 2, 4}))
              for (unsigned lds : orDefault(ldsList, {0, 2}))
                for (unsigned st : shared) {
                  rules::ConfigValues c;
                  c.blockK = facts.headK;
                  c.lanesK = lanes;
                  c.warps = warps;
                  c.wavesK = wavesK;
                  c.ldsStages = lds;
                  c.vPasses = passes;
                  c.sharedTerms = st;
                  // Computed in 64 bits, and only where the lanes of a
                  // column split the workgroup: a zero, or a product that
                  // wraps, is a config no rule would see (it would have
                  // divided by zero here).
                  const uint64_t split = uint64_t(lanes) * wavesK,
                                 threads = uint64_t(warps) * t.waveSize;
                  if (split == 0 || threads % split != 0) {
                    if (!st)
                      tu.rejected.push_back(
                          {c, llvm::formatv("lanes_k ({0}) x waves_k ({1}) "
                                            "does not split the {2} threads "
                                            "of {3} warps",
                                            lanes, wavesK, threads, warps)
                                  .str()});
                    continue;
                  }
                  const uint64_t width =
                      threads / split * uint64_t(cols) * passes;
                  c.blockV = unsigned(std::clamp<uint64_t>(width, 1, 1u << 20));
                  // shared_terms = 1 only where it means something (the
                  // rules refuse it elsewhere with this rule).
                  if (!st || rules::sharedTermsRule(c, t.waveSize).empty())
                    consider(c);
                }
  // mma = 1: the atom fixes the lanes of a column; a wave takes `cols`
  // n-tiles of the atom's n columns.
  if (llvm::is_contained(mmas, 1u))
    for (unsigned warps : orDefault(warpsList, {1, 2, 4}))
      for (unsigned cols : orDefault(colsList, {1, 2, 4, 8})) {
        rules::ConfigValues c;
        c.blockK = facts.headK;
        c.warps = warps;
        c.mma = 1;
        c.lanesK = tf.mmaN ? t.waveSize / tf.mmaN : 0;
        c.blockV = std::max(1u, warps * std::max(1u, tf.mmaN) * cols);
        consider(c);
      }
}

/// A module holding one copy of `tu.fn` per accepted config, or of the
/// `count` accepted configs from the `first`-th on (all layers' candidates
/// numbered in order).
OwningOpRef<ModuleOp> candidateModule(ModuleOp spec, std::vector<Tuned> &all,
                                      size_t first = 0,
                                      size_t count = SIZE_MAX) {
  OwningOpRef<ModuleOp> m = ModuleOp::create(spec.getLoc());
  size_t i = 0;
  for (Tuned &tu : all)
    for (const Candidate &cand : tu.accepted) {
      const size_t at = i++;
      if (at < first || at - first >= count)
        continue;
      auto copy = cast<func::FuncOp>(tu.fn->clone());
      copy.setName(cand.name);
      ConfigAttr config = configAttr(spec.getContext(), cand.config);
      copy.walk([&](RecurrentOp op) { op.setConfigAttr(config); });
      m->getBody()->push_back(copy);
    }
  return m;
}

/// Each candidate's static figures from the compiled kernels of its name.
void recordFigures(std::vector<Tuned> &all,
                   ArrayRef<CompiledKernel> kernels) {
  for (Tuned &tu : all)
    for (Candidate &c : tu.accepted)
      for (const CompiledKernel &k : kernels)
        if (k.name == c.name)
          c.figures = k.figures;
}

/// Compiles every accepted candidate for `t` into `dir`, a batch of
/// --batch a code object (`dir`/<target>/batch<first>/...: a bundle
/// may hold several, each kernel naming its own), their static figures
/// recorded; a progress line on stderr per batch.
LogicalResult compileInBatches(ModuleOp spec, std::vector<Tuned> &all,
                               const TargetInfo &t, StringRef dir,
                               std::vector<CompiledKernel> &kernels) {
  size_t total = 0;
  for (Tuned &tu : all)
    total += tu.accepted.size();
  Toolchain tools = Toolchain::fromEnvironment();
  llvm::scope_exit removeScratch([&] {
    if (!tools.scratchDir.empty()) {
      llvm::sys::fs::remove_directories(tools.scratchDir);
      keepOnInterrupt(tools.scratchDir);
    }
  });
  // Batches, not one module of every candidate: 1012 of them
  // (test/device/decode-bench.mlir on gfx942) had not finished, silently,
  // after 15 minutes on 2 cores; in batches of 32 they took 4.6.
  const size_t batch = batchSize;
  const auto start = std::chrono::steady_clock::now();
  for (size_t first = 0; first < total; first += batch) {
    OwningOpRef<ModuleOp> m = candidateModule(spec, all, first, batch);
    // Compiled beside the target's folder, then moved into it as
    // <target>/batch<first>: a bundle holds only manifest.json and target
    // folders (replaceableBundleOutput), so a later run may replace it.
    const std::string folder = llvm::formatv("batch{0}", first).str();
    SmallString<128> compiled(dir), target(dir), placed;
    llvm::sys::path::append(compiled, folder + ".partial");
    llvm::sys::path::append(target, t.name);
    placed = target;
    llvm::sys::path::append(placed, folder);
    const size_t before = kernels.size();
    if (failed(compileForTarget(*m, t, tools, compiled, kernels)))
      return failure();
    SmallString<128> from(compiled);
    llvm::sys::path::append(from, t.name);
    FolderWrite placing; // inside the staging folder
    if (std::error_code ec = llvm::sys::fs::create_directories(target);
        ec || (ec = llvm::sys::fs::rename(from, placed))) {
      llvm::errs() << "kda-tune: cannot move " << from << " to " << placed
                   << ": " << ec.message() << "\n";
      return failure();
    }
    llvm::sys::fs::remove_directories(compiled);
    const std::string prefix = (t.name + "/" + folder + "/").str();
    for (CompiledKernel &k : llvm::drop_begin(kernels, before)) {
      k.file = prefix + llvm::sys::path::filename(k.file).str();
      if (!k.extraFile.empty())
        k.extraFile = prefix + llvm::sys::path::filename(k.extraFile).str();
    }
    const double secs =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count();
    llvm::errs() << llvm::formatv(
        "kda-tune: {0} of {1} candidates compiled for {2} ({3:F0} s)\n",
        std::min(first + batch, total), total, t.name, secs);
  }
  recordFigures(all, kernels);
  return success();
}

/// --static: the candidates compiled into a scratch folder `dir` for their
/// static figures.
LogicalResult compileStaticFigures(ModuleOp spec, std::vector<Tuned> &all,
                                   const TargetInfo &t, StringRef dir) {
  std::vector<CompiledKernel> kernels;
  return compileInBatches(spec, all, t, dir, kernels);
}

/// --candidates: one bundle of every candidate for kda-bench --all-kernels.
LogicalResult compileCandidates(ModuleOp spec, std::vector<Tuned> &all,
                                const TargetInfo &t, StringRef dir,
                                std::vector<CompiledKernel> &kernels) {
  // Written whole or not at all, never over a folder of the user's
  // (BundleOutput.h).
  StagedBundle bundle;
  if (std::string why = bundle.begin(dir); !why.empty()) {
    llvm::errs() << "kda-tune: --candidates " << dir << ": " << why << "\n";
    return failure();
  }
  if (failed(compileInBatches(spec, all, t, bundle.stagingDir(), kernels)) ||
      failed(writeManifest(bundle.stagingDir(),
                           llvm::sys::path::filename(specFile), kernels,
                           /*planner=*/std::nullopt, "kda-tune")))
    return failure();
  if (std::string why = bundle.commit(); !why.empty()) {
    llvm::errs() << "kda-tune: " << why << "\n";
    return failure();
  }
  return success();
}

/// Compute units (SMs) per device of a target: the static model's one
/// assumption beyond the target table.
unsigned computeUnits(const TargetInfo &t) {
  StringRef chip = t.chip;
  return chip == "gfx942" ? 304 : chip == "gfx950" ? 256 : 132;
}

/// Waves a compute unit keeps resident for this candidate.
double residentWavesPerUnit(const Candidate &c, const TargetInfo &t) {
  const KernelFigures &f = c.figures;
  if (f.occupancy > 0) // AMDGPU: waves per SIMD, 4 SIMDs
    return 4.0 * f.occupancy;
  if (f.registers > 0) // sm_90: 64K registers, at most 64 warps
    return std::min(64.0, 65536.0 / (f.registers * 32.0));
  return 8.0;
}

/// Bytes one lane moves per state access (16 at best).
unsigned stateAccessBytes(const Candidate &c, LayerAttr layer) {
  const rules::LayerFacts f = recurrentLayerFacts(layer);
  const RecurrentSchedule &p = c.plan;
  if (f.vk)
    return std::min(p.elemsK * f.stateBytes,
                    rules::accessAlignment(f.stateBytes,
                                           std::gcd(f.headK, p.elemsK)));
  unsigned g = std::gcd(std::gcd(f.headV, p.blockV), p.colsPerThread);
  return std::min(p.colsPerThread * f.stateBytes,
                  rules::accessAlignment(f.stateBytes, g));
}

/// The static figure of merit at N sequences, compared in this order: the
/// state access width (the kernel is memory-bound), no cross-wave exchange
/// (waves_k > 1 was slower in every config measured on the H200), direct
/// token loads (lds_stages 0: every entry measured on the H200 has them; a
/// decode row is one token, and the ring adds a copy and a barrier a token
/// - without this the registers it saves made gfx942's kv entries pick
/// it), the FMA column sums with each pass's own terms (mma 0: mma = 1 was
/// slower than the FMA kernel at every candidate measured on the H200;
/// shared_terms 0 until shared_terms 1 is measured somewhere), how much
/// of the machine the launch fills (capped at 1), the state bytes a lane
/// keeps in flight (capped at 64: on the H200, 4 columns of 4 f32 per lane
/// beat one column by 2x, the norms and gates shared), then occupancy and
/// registers.
std::tuple<unsigned, bool, bool, bool, double, unsigned, double, int64_t>
staticScore(const Candidate &c, LayerAttr layer, const TargetInfo &t,
            int64_t n) {
  double launched = double(c.plan.gridX()) * layer.getValueHeads() * n *
                    c.plan.warps;
  double resident = residentWavesPerUnit(c, t) * computeUnits(t);
  double fill = std::min(1.0, launched / resident);
  int64_t regs = c.figures.vgprs >= 0 ? c.figures.vgprs : c.figures.registers;
  unsigned inFlight = std::min(64u, c.plan.elemsK * c.plan.colsPerThread *
                                        recurrentLayerFacts(layer).stateBytes);
  return {stateAccessBytes(c, layer), c.plan.wavesK == 1,
          c.config.ldsStages == 0,    !c.config.mma && !c.config.sharedTerms,
          std::round(fill * 20) / 20, inFlight,
          residentWavesPerUnit(c, t), -regs};
}

std::string today() {
  std::time_t now = std::time(nullptr);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%d", std::gmtime(&now));
  return buf;
}

/// Entries chosen by static figures.
void chooseStatic(std::vector<Tuned> &all, const TargetInfo &t,
                  const std::vector<Bucket> &buckets,
                  std::vector<ConfigTableEntry> &out) {
  for (Tuned &tu : all) {
    LayerAttr layer = tu.op.getLayer();
    for (const Bucket &bk : buckets) {
      const Candidate *best = nullptr;
      for (const Candidate &c : tu.accepted)
        if (c.figures.spills <= 0 &&
            (!best || staticScore(c, layer, t, bk.nMin) >
                          staticScore(*best, layer, t, bk.nMin)))
          best = &c;
      if (!best)
        continue;
      auto [bytes, noExchange, direct, plainForm, fill, inFlight, resident,
            negRegs] = staticScore(*best, layer, t, bk.nMin);
      (void)noExchange, (void)direct, (void)plainForm;
      ConfigTableEntry e;
      e.target = t.name.str();
      e.layer = TableLayerKey::of(layer);
      e.nMin = bk.nMin;
      e.nMax = bk.nMax;
      e.config = best->config;
      e.provenance = json::Object{
          {"method", "static"},
          {"why", llvm::formatv("no {0} hardware here: chosen by static "
                                "figures of the code object (state access "
                                "{3} bytes, fill of the machine at N = {1}: "
                                "{2}, {4} state bytes in flight per lane, "
                                "{5} resident waves per compute unit, {6} "
                                "registers), not measured",
                                t.name, bk.nMin, fill, bytes, inFlight,
                                resident, -negRegs)
                      .str()},
          {"date", today()},
          {"candidates", int64_t(tu.accepted.size())},
          {"rejected", int64_t(tu.rejected.size())}};
      out.push_back(std::move(e));
    }
  }
}

/// Entries chosen by kda-bench's times: per bucket, the candidate with the
/// least summed time over the measured N in the bucket.
bool chooseMeasured(std::vector<Tuned> &all, const TargetInfo &t,
                    const std::vector<Bucket> &buckets,
                    std::vector<ConfigTableEntry> &out) {
  json::Value parsed(nullptr);
  std::string error;
  if (!readJsonFile(timesFile, parsed, error)) {
    llvm::errs() << "kda-tune: " << error << "\n";
    return false;
  }
  const json::Object *top = parsed.getAsObject();
  const json::Object *kernels = top ? top->getObject("kernels") : nullptr;
  if (!kernels) {
    llvm::errs() << "kda-tune: " << timesFile
                 << ": expected kda-bench --all-kernels JSON with \"kernels\"\n";
    return false;
  }
  for (Tuned &tu : all)
    for (const Bucket &bk : buckets) {
      const Candidate *best = nullptr;
      double bestUs = 0;
      json::Object bestTimes;
      std::vector<int64_t> bestNs;
      for (const Candidate &c : tu.accepted) {
        // Graph replay times where the bench took them (no launch
        // overhead), else the event times.
        const json::Object *k = kernels->getObject(c.name);
        const json::Object *us =
            !k ? nullptr
               : k->getObject("us_graph") ? k->getObject("us_graph")
                                          : k->getObject("us");
        if (!us)
          continue;
        // The candidates bundle must be this enumeration's: same config
        // under the same name (kda-bench writes each kernel's config; times
        // without it cannot be matched to a candidate).
        const json::Object *cfg = k->getObject("config");
        if (!cfg) {
          llvm::errs() << "kda-tune: " << timesFile << ": " << c.name
                       << " has no \"config\": its times cannot be matched "
                          "to this enumeration's candidate\n";
          return false;
        }
        if (cfg->getInteger("lanes_k") != int64_t(c.config.lanesK) ||
            cfg->getInteger("block_v") != int64_t(c.config.blockV) ||
            cfg->getInteger("warps") != int64_t(c.config.warps) ||
            cfg->getInteger("waves_k") != int64_t(c.config.wavesK) ||
            cfg->getInteger("lds_stages") != int64_t(c.config.ldsStages) ||
            cfg->getInteger("v_passes").value_or(1) !=
                int64_t(c.config.vPasses) ||
            cfg->getInteger("mma").value_or(0) != int64_t(c.config.mma) ||
            cfg->getInteger("shared_terms").value_or(0) !=
                int64_t(c.config.sharedTerms)) {
          llvm::errs() << "kda-tune: " << timesFile << ": " << c.name
                       << " was measured with another config than this "
                          "enumeration's ("
                       << describe(c.config)
                       << "); use the same search options as --candidates\n";
          return false;
        }
        double sum = 0;
        json::Object times;
        std::vector<int64_t> ns;
        for (const auto &[n, v] : *us) {
          int64_t nv = 0;
          std::optional<double> x = v.getAsNumber();
          // A time is a positive number of microseconds at a whole N.
          if (StringRef(n).getAsInteger(10, nv) || nv < 1 || !x ||
              !std::isfinite(*x) || *x <= 0) {
            llvm::errs() << "kda-tune: " << timesFile << ": " << c.name
                         << ": time at N '" << n.str() << "' is "
                         << llvm::formatv("{0}", v)
                         << ", not a positive number of microseconds at a "
                            "whole N\n";
            return false;
          }
          if (nv < bk.nMin || nv > bk.nMax)
            continue;
          sum += *x;
          ns.push_back(nv);
          times[n] = *x;
        }
        if (ns.empty())
          continue;
        llvm::sort(ns);
        // Sums compare only over the same N: a candidate timed at fewer N
        // of the bucket would win by its missing terms.
        if (best && ns != bestNs) {
          llvm::errs() << "kda-tune: " << timesFile << ": " << c.name << " and "
                       << best->name << " were timed at different N in bucket "
                       << bk.nMin << ".." << bk.nMax
                       << "; time every candidate at the same N\n";
          return false;
        }
        if (!best || sum < bestUs) {
          best = &c, bestUs = sum, bestTimes = std::move(times);
          bestNs = std::move(ns);
        }
      }
      if (!best)
        continue;
      ConfigTableEntry e;
      e.target = t.name.str();
      e.layer = TableLayerKey::of(tu.op.getLayer());
      e.nMin = bk.nMin;
      e.nMax = bk.nMax;
      e.config = best->config;
      e.provenance = json::Object{{"method", "measured"},
                                  {"candidates", int64_t(tu.accepted.size())},
                                  {"rejected", int64_t(tu.rejected.size())},
                                  {"times_us", std::move(bestTimes)}};
      for (StringRef key : {"machine", "driver", "date", "timing"})
        if (std::optional<StringRef> v = top->getString(key))
          e.provenance[key] = v->str();
      out.push_back(std::move(e));
    }
  return true;
}

bool mergeTable(const std::vector<ConfigTableEntry> &chosen) {
  ConfigTable table;
  std::string error;
  if (llvm::sys::fs::exists(tableFile) &&
      !ConfigTable::read(tableFile, table, error)) {
    llvm::errs() << "kda-tune: " << error << "\n";
    return false;
  }
  auto replaced = [&](const ConfigTableEntry &old) {
    return llvm::any_of(chosen, [&](const ConfigTableEntry &e) {
      return e.target == old.target && e.layer == old.layer;
    });
  };
  llvm::erase_if(table.entries, replaced);
  llvm::append_range(table.entries, chosen);
  if (std::string o = table.overlaps(); !o.empty()) {
    llvm::errs() << "kda-tune: " << tableFile << ": " << o << "\n";
    return false;
  }
  if (!table.write(tableFile, error)) {
    llvm::errs() << "kda-tune: " << error << "\n";
    return false;
  }
  llvm::outs() << "kda-tune: wrote " << chosen.size() << " entries to "
               << tableFile << "\n";
  return true;
}

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  DialectRegistry registry;
  registerCompilerTools(registry);
  cl::HideUnrelatedOptions(tuneCategory);
  cl::ParseCommandLineOptions(argc, argv, "kda-tune: decode config table\n");

  const TargetInfo *target = lookupTarget(targetName);
  if (!target) {
    llvm::errs() << "kda-tune: unknown target '" << targetName
                 << "' (known: " << knownTargetNames() << ")\n";
    return 2;
  }
  const int modes = int(listOnly) + int(!candidatesDir.empty()) +
                    int(!timesFile.empty()) + int(staticChoice);
  const bool choosing = staticChoice || !timesFile.empty();
  if (modes != 1 || (choosing && tableFile.empty())) {
    llvm::errs() << "kda-tune: give one of --list, --candidates=DIR, "
                    "--times=FILE --table=T, --static --table=T\n";
    return 2;
  }
  if (batchSize == 0) {
    llvm::errs() << "kda-tune: --batch is 0 (candidates a code object: >= "
                    "1)\n";
    return 2;
  }
  std::vector<Bucket> buckets;
  if (!parseBuckets(buckets) || !checkSearchValues())
    return 2;

  MLIRContext ctx(registry);
  ctx.loadAllAvailableDialects();
  // An error names the user's line; the generic form of the internal op
  // that met it (a chunk stage, a built kernel) would bury it.
  ctx.printOpOnDiagnostic(false);
  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler diagHandler(sourceMgr, &ctx);
  OwningOpRef<ModuleOp> spec = readSpec(ctx, sourceMgr, specFile, "kda-tune");
  if (!spec)
    return 1;

  std::vector<std::pair<func::FuncOp, ChunkOp>> chunks;
  std::vector<Tuned> all;
  for (auto fn : spec->getOps<func::FuncOp>()) {
    fn.walk([&](ChunkOp op) { chunks.push_back({fn, op}); });
    fn.walk([&](RecurrentOp op) { all.push_back({fn, op, {}, {}}); });
  }
  if (listOnly)
    for (auto [fn, op] : chunks)
      listChunkScan(fn, op, *target);
  // Nothing to tune is an error, not an empty table or listing (a chunk
  // layer's scans are listed, not yet timed).
  const bool listsChunks = listOnly && !chunks.empty();
  if (all.empty() && !listsChunks) {
    llvm::errs() << "kda-tune: " << specFile
                 << " holds no kda.recurrent op: nothing to tune\n";
    return 1;
  }
  for (Tuned &tu : all) {
    enumerate(tu, *target);
    llvm::outs() << tu.fn.getName() << " on " << target->name << ": "
                 << tu.accepted.size() << " configs accepted, "
                 << tu.rejected.size() << " rejected\n";
    if (listOnly)
      for (const Candidate &c : tu.accepted)
        llvm::outs() << "  accepted: " << describe(c.config) << " ("
                     << c.plan.gridX() << " workgroups per head, "
                     << c.plan.threads() << " threads)\n";
    for (auto &[c, why] : tu.rejected)
      llvm::outs() << "  rejected: " << describe(c) << ": " << why << "\n";
  }
  if (listOnly)
    return 0;

  std::vector<CompiledKernel> kernels;
  if (!candidatesDir.empty()) {
    if (failed(compileCandidates(*spec, all, *target, candidatesDir, kernels)))
      return 1;
    llvm::outs() << "kda-tune: " << kernels.size() << " candidate kernels in "
                 << candidatesDir << "\n";
    return 0;
  }
  if (staticChoice) {
    SmallString<128> dir;
    if (createFolderRemovedOnInterrupt("kda-tune", dir)) {
      llvm::errs() << "kda-tune: cannot create a scratch folder\n";
      return 1;
    }
    LogicalResult compiled = compileStaticFigures(*spec, all, *target, dir);
    llvm::sys::fs::remove_directories(dir);
    keepOnInterrupt(dir);
    if (failed(compiled))
      return 1;
  }
  std::vector<ConfigTableEntry> chosen;
  if (staticChoice)
    chooseStatic(all, *target, buckets, chosen);
  else if (!chooseMeasured(all, *target, buckets, chosen))
    return 1;
  for (const ConfigTableEntry &e : chosen)
    llvm::outs() << "  N " << e.nMin << ".." << e.nMax << ": "
                 << describe(e.config) << "\n";
  return mergeTable(chosen) ? 0 : 1;
}
