//===- kda-bench.cpp - numerics and timing of a bundle's kernels ----------===//
//
//   kda-bench --bundle DIR --kernel NAME [--backend cuda|emu] [--target T]
//             [--numerics] [--decode 1,8,32,128,256] [--tokens-per-row L]
//             [--copy] [--json FILE] [--driver TEXT]
//   kda-bench --bundle DIR --all-kernels --decode 1,8,... --json FILE
//
// --target picks which of the bundle's targets the backend runs (emu, emu950
// or emu32 on the emulator; sm_90 on cuda); by default the first it can.
// --numerics runs decode, mixed (padding, no-initial-state, multi-token) and
// extreme-gate batches against the float64 oracle and fails on the issue #3
// bars. --decode times one-token decode batches of N rows (median of CUDA
// events around each launch, the L2 flushed in between, like
// triton.testing.do_bench) and reports bandwidth over the minimum bytes;
// with --tokens-per-row L each of the N rows is L tokens long (short
// prefills, where the LDS-pipelined token loop is meant to pay off).
// On CUDA every timing is taken two ways: CUDA events around the launch
// after an L2 flush ("us"), and CUDA-graph replay of [flush, launch] minus
// replay of [flush] ("us_graph": no host launch overhead, the method fla is
// timed with in test/device/fla-bench.py), medians of --reps each.
// --copy measures the device-to-device copy bandwidth (bytes read + written)
// in the same run, the ceiling the decode figures are compared with.
// --prefill times prefill batches (1x8192: one row of 8192 tokens; 4x4096;
// varlen16: 16 rows of 200..2000 tokens; any BxT) through the kernel's
// path - the chunk plan (prep + scan, workspace sized from the manifest)
// for a chunk kernel - the same way, with the L2 flushed. With --all-scans
// each row is followed by every way after the prep (the layer's scans,
// narrowest first, then its split scan: kda_plan_add_chunk_scan), whatever
// the batch shape picks: the whole path and the part after the prep.
// A chunk kernel's --numerics runs issue 8's batches (lengths 1 .. 1000 in
// one varlen batch, stale NaN slots, g at -1000, forget events) and a row
// of 4096 whose scan the plan splits where the layer has few value heads,
// against the oracle, naming the scan kernels each ran.
// --all-kernels times every recurrent kernel of the bundle's target (a
// kda-tune --candidates bundle) and writes {"machine", "driver", "date",
// "timing", "kernels": {name: {"config", "us", "us_graph"}}} for kda-tune
// --times.
//
//===----------------------------------------------------------------------===//
#include "Harness.h"
#include "Manifest.h"
#include "kda/kda_runtime.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

#ifdef KDA_BENCH_CUDA
#include <cuda_runtime.h>
#endif

using namespace kda;

namespace {

struct Options {
  std::string bundle, kernel, backend = "cuda", target, json, driver;
  bool numerics = false, copy = false, allKernels = false, allScans = false;
  std::vector<int> decode;
  std::vector<std::string> prefill;
  int reps = 50;
  int tokensPerRow = 1;
};

[[noreturn]] void usage(const char *why) {
  std::fprintf(
      stderr,
      "kda-bench: %s\nusage: kda-bench --bundle DIR --kernel NAME "
      "[--backend cuda|emu] [--target T] [--numerics] [--decode N,N,...] "
      "[--tokens-per-row L] [--prefill BxT|varlenN,...] [--all-scans] [--copy] "
      "[--reps R] [--json FILE] [--driver TEXT]\n       kda-bench "
      "--bundle DIR --all-kernels --decode N,... --json FILE\n",
      why);
  std::exit(2);
}

// Bounds on the command line, so a size is refused by name rather than
// wrapped (atoi took 4294967297 as 1): rows well past what a launch takes
// (the runtime refuses more than its grid's 65535 with its own reason),
// tokens as query_start_loc (int32) holds them.
constexpr long kMostRows = 1 << 20;
constexpr long kMostTokens = std::numeric_limits<int32_t>::max();
constexpr long kMostTokensPerRow = 65536;
constexpr long kMostReps = 1000000;

/// `text`, all of it a decimal integer in 1..`most`, or usage().
int parseCount(const std::string &text, const char *what, long most) {
  errno = 0;
  char *end = nullptr;
  const long v = std::strtol(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0' || errno == ERANGE || v < 1 || v > most)
    usage((std::string(what) + " takes whole numbers in 1.." +
           std::to_string(most) + ", not '" + text + "'")
              .c_str());
  return int(v);
}

/// `text` as a JSON string literal (quotes, backslashes and control
/// characters escaped: a --driver with a quote made the file unreadable).
std::string jsonString(const std::string &text) {
  std::string out = "\"";
  for (unsigned char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += char(c);
    } else if (c < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
    } else {
      out += char(c);
    }
  }
  return out + "\"";
}

/// Writes `text` to `path` through a temporary file renamed over it once
/// written whole; false, with the reason on stderr, where that fails (a
/// missing folder or a folder named as the file was ignored, rc 0).
bool writeJsonFile(const std::string &path, const std::string &text) {
  const std::string tmp = path + ".tmp-" + std::to_string(::getpid());
  {
    std::ofstream f(tmp, std::ios::binary);
    f << text;
    f.close();
    if (!f) {
      std::fprintf(stderr, "kda-bench: cannot write %s: %s\n", path.c_str(),
                   std::strerror(errno));
      std::remove(tmp.c_str());
      return false;
    }
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    std::fprintf(stderr, "kda-bench: cannot write %s: %s\n", path.c_str(),
                 std::strerror(errno));
    std::remove(tmp.c_str());
    return false;
  }
  return true;
}

Options parse(int argc, char **argv) {
  Options o;
  auto count = [](const std::string &text, const char *what, long most) {
    return parseCount(text, what, most);
  };
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc)
        usage(("missing value after " + a).c_str());
      return argv[++i];
    };
    if (a == "--bundle") o.bundle = next();
    else if (a == "--kernel") o.kernel = next();
    else if (a == "--backend") o.backend = next();
    else if (a == "--target") o.target = next();
    else if (a == "--json") o.json = next();
    else if (a == "--driver") o.driver = next();
    else if (a == "--all-kernels") o.allKernels = true;
    else if (a == "--all-scans")
      o.allScans = true;
    else if (a == "--numerics") o.numerics = true;
    else if (a == "--copy") o.copy = true;
    else if (a == "--reps")
      o.reps = count(next(), "--reps", kMostReps);
    else if (a == "--tokens-per-row")
      o.tokensPerRow = count(next(), "--tokens-per-row", kMostTokensPerRow);
    else if (a == "--prefill") {
      std::stringstream ss(next());
      std::string n;
      while (std::getline(ss, n, ','))
        o.prefill.push_back(n);
    } else if (a == "--decode") {
      std::stringstream ss(next());
      std::string n;
      while (std::getline(ss, n, ','))
        o.decode.push_back(count(n, "--decode", kMostRows));
      if (o.decode.empty())
        usage("--decode takes row counts, none given");
    } else
      usage(("unknown option " + a).c_str());
  }
  if (o.allKernels && (o.bundle.empty() || o.decode.empty() || o.json.empty()))
    usage("--all-kernels needs --bundle, --decode and --json");
  if (o.allScans && o.prefill.empty())
    usage("--all-scans times a chunk layer's --prefill batches");
  if (!o.copy && !o.allKernels && (o.bundle.empty() || o.kernel.empty()))
    usage("--bundle and --kernel are required");
  if (o.backend != "cuda" && o.backend != "emu")
    usage("--backend must be cuda or emu");
  if (o.reps < 1)
    usage("--reps must be at least 1");
  if (o.tokensPerRow < 1)
    usage("--tokens-per-row must be at least 1");
  for (int n : o.decode)
    if (n < 1)
      usage("--decode takes row counts of at least 1");
  return o;
}

#ifdef KDA_BENCH_CUDA
void check(cudaError_t e, const char *what) {
  if (e != cudaSuccess) {
    std::fprintf(stderr, "kda-bench: %s: %s\n", what, cudaGetErrorString(e));
    std::exit(1);
  }
}

class CudaMemory : public test::Memory {
public:
  void *alloc(size_t bytes) override {
    void *p = nullptr;
    check(cudaMalloc(&p, bytes ? bytes : 16), "cudaMalloc");
    return p;
  }
  void upload(void *d, const void *s, size_t n) override {
    check(cudaMemcpy(d, s, n, cudaMemcpyHostToDevice), "upload");
  }
  void download(void *d, const void *s, size_t n) override {
    check(cudaMemcpy(d, s, n, cudaMemcpyDeviceToHost), "download");
  }
  void release(void *p) override { cudaFree(p); }
  void synchronize() override { check(cudaDeviceSynchronize(), "sync"); }
};

/// Median of `reps` event-timed runs of `fn`, each after an L2 flush.
template <typename Fn> double medianMs(int reps, Fn fn) {
  static void *flush = nullptr;
  const size_t flushBytes = 256u << 20;
  if (!flush)
    check(cudaMalloc(&flush, flushBytes), "flush buffer");
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  std::vector<float> ms;
  for (int i = 0; i < 5; ++i)
    fn(); // warm-up
  for (int i = 0; i < reps; ++i) {
    cudaMemsetAsync(flush, i & 0xff, flushBytes);
    cudaEventRecord(a);
    fn();
    cudaEventRecord(b);
    check(cudaEventSynchronize(b), "timed run");
    float t = 0;
    cudaEventElapsedTime(&t, a, b);
    ms.push_back(t);
  }
  cudaEventDestroy(a);
  cudaEventDestroy(b);
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

/// Median of `reps` CUDA-graph replays of [flush, launch] minus the median
/// of replays of [flush] alone, in ms: the kernel's time without host
/// launch overhead. `launch` enqueues on the stream it is given.
template <typename Fn> double graphMs(int reps, Fn launch) {
  static void *flush = nullptr;
  const size_t flushBytes = 256u << 20;
  if (!flush)
    check(cudaMalloc(&flush, flushBytes), "flush buffer");
  cudaStream_t s;
  check(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "stream");
  auto capture = [&](bool withKernel) {
    cudaGraph_t g;
    cudaGraphExec_t e;
    check(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal),
          "begin capture");
    cudaMemsetAsync(flush, 0, flushBytes, s);
    if (withKernel)
      launch(s);
    check(cudaStreamEndCapture(s, &g), "end capture");
    check(cudaGraphInstantiate(&e, g, 0), "instantiate graph");
    cudaGraphDestroy(g);
    return e;
  };
  cudaGraphExec_t both = capture(true), flushOnly = capture(false);
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  auto timeOne = [&](cudaGraphExec_t e) {
    cudaEventRecord(a, s);
    cudaGraphLaunch(e, s);
    cudaEventRecord(b, s);
    check(cudaEventSynchronize(b), "graph replay");
    float t = 0;
    cudaEventElapsedTime(&t, a, b);
    return t;
  };
  for (int i = 0; i < 5; ++i)
    timeOne(both), timeOne(flushOnly); // warm-up
  std::vector<float> withK, without;
  for (int i = 0; i < reps; ++i) { // alternate: drifts cancel
    withK.push_back(timeOne(both));
    without.push_back(timeOne(flushOnly));
  }
  std::sort(withK.begin(), withK.end());
  std::sort(without.begin(), without.end());
  cudaGraphExecDestroy(both);
  cudaGraphExecDestroy(flushOnly);
  cudaEventDestroy(a);
  cudaEventDestroy(b);
  cudaStreamDestroy(s);
  return withK[withK.size() / 2] - without[without.size() / 2];
}

double copyTBps(int reps) {
  const size_t bytes = size_t(1) << 30;
  void *src = nullptr, *dst = nullptr;
  check(cudaMalloc(&src, bytes), "copy src");
  check(cudaMalloc(&dst, bytes), "copy dst");
  cudaMemset(src, 1, bytes);
  double ms = medianMs(reps, [&] {
    cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice);
  });
  cudaFree(src);
  cudaFree(dst);
  return 2.0 * bytes / (ms * 1e-3) / 1e12;
}
#endif

/// One timed launch configuration: events after a flush; graph replay
/// (CUDA only, else negative).
struct Timing {
  double us = 0, usGraph = -1;
};

/// A launch the runtime refuses (a grid past its limits, a batch the
/// kernel does not take) ends the run with the runtime's reason: timing it
/// would record how long a refusal takes as the kernel's time.
void launchOrExit(const kda_kernel *kernel, const kda_batch &b, void *stream) {
  if (kda_launch_recurrent(kernel, &b, stream) == KDA_OK)
    return;
  std::fprintf(stderr, "kda-bench: launch refused: %s\n", kda_last_error());
  std::exit(1);
}

Timing timeLaunch(const kda_kernel *kernel, const kda_batch &b,
                  kda_backend backend, int reps) {
  Timing t;
#ifdef KDA_BENCH_CUDA
  if (backend == KDA_BACKEND_CUDA) {
    launchOrExit(kernel, b, nullptr); // refused before any timing
    t.us = 1e3 * medianMs(reps, [&] { launchOrExit(kernel, b, nullptr); });
    t.usGraph = 1e3 * graphMs(reps, [&](cudaStream_t s) {
                  launchOrExit(kernel, b, s);
                });
    return t;
  }
#endif
  auto t0 = std::chrono::steady_clock::now();
  launchOrExit(kernel, b, nullptr);
  t.us = std::chrono::duration<double, std::micro>(
             std::chrono::steady_clock::now() - t0)
             .count();
  return t;
}

/// N rows of `tokens` tokens each, in slots 1..N, all with initial state.
test::BatchShape decodeShape(int n, int tokens) {
  test::BatchShape shape;
  for (int i = 0; i < n; ++i) {
    shape.lengths.push_back(tokens);
    shape.slots.push_back(i + 1);
    shape.hasInitial.push_back(1);
  }
  return shape;
}

std::string today() {
  std::time_t now = std::time(nullptr);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%d", std::gmtime(&now));
  return buf;
}

std::string machineName(kda_backend backend) {
#ifdef KDA_BENCH_CUDA
  if (backend == KDA_BACKEND_CUDA) {
    cudaDeviceProp p{};
    cudaGetDeviceProperties(&p, 0);
    int driver = 0;
    cudaDriverGetVersion(&driver);
    return std::string(p.name) + " (CUDA driver API " + std::to_string(driver) +
           ")";
  }
#endif
  (void)backend;
  return "host emulator";
}

/// One recurrent kernel of a bundle timed by --all-kernels.
struct TimedKernel {
  std::string name, config, us, usGraph; // JSON fragments
  const kda_kernel *kernel = nullptr;
  test::KernelLayer layer;
};

/// A key that is equal for kernels of one layer and dtypes: they can share
/// one prepared batch.
std::string layerKey(const test::KernelLayer &kl) {
  const ref::Layer &l = kl.layer;
  std::ostringstream os;
  os << l.H << ' ' << l.HV << ' ' << l.K << ' ' << l.V << ' '
     << int(l.layout) << ' ' << int(l.gate) << ' ' << int(l.beta) << ' '
     << l.qkL2norm << ' ' << l.scale << ' ' << l.lowerBound << ' '
     << int(kl.act) << ' ' << int(kl.g) << ' ' << int(kl.beta) << ' '
     << int(kl.state) << ' ' << kl.usesALog << ' ' << kl.usesDtBias;
  return os.str();
}

void appendTime(std::string &list, int n, double us) {
  list += (list.empty() ? "" : ", ") + ("\"" + std::to_string(n) + "\": ") +
          std::to_string(us);
}

/// Times every recurrent kernel of the open bundle's target at each N of
/// `o.decode` and writes kda-tune's --times JSON. Kernels of one layer share
/// each N's batch (a kda-tune candidates bundle holds hundreds of kernels of
/// a few layers; preparing a 256-sequence pool takes longer than timing).
int timeAllKernels(const Options &o, kda_bundle *bundle, kda_backend backend,
                   test::Memory &mem) {
  const std::string target = kda_bundle_target(bundle);
  manifest::Manifest m;
  std::string error;
  if (!manifest::readManifest(o.bundle, m, error)) {
    std::fprintf(stderr, "kda-bench: %s\n", error.c_str());
    return 1;
  }
  std::vector<TimedKernel> timed;
  for (const manifest::Kernel &k : m.kernels) {
    TimedKernel t;
    if (k.target != target || k.kind != "recurrent" ||
        kda_bundle_find(bundle, k.name.c_str(), &t.kernel) != KDA_OK)
      continue;
    t.name = k.name;
    t.layer = test::readKernelLayer(o.bundle, k.name, target);
    for (const auto &[key, value] : k.config)
      t.config += (t.config.empty() ? "" : ", ") + ("\"" + key + "\": ") +
                  std::to_string(value);
    timed.push_back(std::move(t));
  }
  std::vector<bool> done(timed.size(), false);
  for (size_t first = 0; first < timed.size(); ++first) {
    if (done[first])
      continue;
    const std::string key = layerKey(timed[first].layer);
    for (int n : o.decode) {
      test::Harness h(timed[first].layer, mem);
      h.prepare(decodeShape(n, o.tokensPerRow), n + 1, 1234 + n);
      for (size_t i = first; i < timed.size(); ++i) {
        TimedKernel &t = timed[i];
        if (done[i] || layerKey(t.layer) != key)
          continue;
        Timing r = timeLaunch(t.kernel, h.batch(), backend, o.reps);
        appendTime(t.us, n, r.us);
        if (r.usGraph >= 0)
          appendTime(t.usGraph, n, r.usGraph);
        std::printf("%-40s N %6d %10.2f us, graph %10.2f us\n", t.name.c_str(),
                    n, r.us, r.usGraph);
      }
    }
    for (size_t i = first; i < timed.size(); ++i)
      if (layerKey(timed[i].layer) == key)
        done[i] = true;
  }
  std::ostringstream f;
  f << "{\n  \"machine\": \"" << machineName(backend)
    << "\",\n  \"driver\": " << jsonString(o.driver) << ",\n  \"date\": \""
    << today() << "\",\n  \"timing\": \"median of " << o.reps
    << " runs: CUDA events after an L2 flush (us); CUDA-graph replay of "
       "[flush, launch] minus [flush] (us_graph)\",\n  \"kernels\": {";
  for (size_t i = 0; i < timed.size(); ++i) {
    const TimedKernel &t = timed[i];
    f << (i ? "," : "") << "\n    " << jsonString(t.name) << ": {\"config\": {"
      << t.config << "}, \"us\": {" << t.us << "}";
    if (!t.usGraph.empty())
      f << ", \"us_graph\": {" << t.usGraph << "}";
    f << "}";
  }
  f << "\n  }\n}\n";
  return writeJsonFile(o.json, f.str()) ? 0 : 1;
}

struct NumericRun {
  const char *name;
  test::BatchShape shape;
};

/// Issue 8's batches for the chunk path.
std::vector<NumericRun> chunkNumericRuns() {
  std::vector<NumericRun> runs;
  test::BatchShape varlen{{1, 2, 15, 16, 17, 63, 64, 65, 200, 1000, 3, 0, 5},
                          {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 0, 11, -1},
                          {1, 0, 1, 0, 1, 1, 0, 1, 0, 1, 1, 0, 1}};
  varlen.staleNaN = true;
  runs.push_back({"varlen_1_to_1000", varlen});
  test::BatchShape extreme{{70, 1, 130}, {2, 5, 3}, {1, 1, 0}};
  extreme.extremeGate = 1000;
  runs.push_back({"extreme_gate", extreme});
  // A large step then small ones, per channel (RandomBatch.h): the
  // cumsum's rest (prepGateCumsum).
  test::BatchShape forget{{70, 33, 130, 1}, {1, 2, 3, 4}, {1, 0, 1, 1}};
  forget.forgetEvents = true;
  runs.push_back({"forget_events", forget});
  test::BatchShape decodes;
  for (int i = 0; i < 16; ++i) {
    decodes.lengths.push_back(1);
    decodes.slots.push_back(i + 1);
    decodes.hasInitial.push_back(i % 3 != 0);
  }
  runs.push_back({"length_1_rows", decodes});
  // A row of 64 chunks beside a decode: on the H200 (132 SMs) a layer of 8
  // value heads or fewer splits its scan there (the runtime's cost
  // model, chooseScan), and slow gates and small betas carry the state across
  // the segments, so the join's maps count.
  test::BatchShape split{{4096, 1}, {2, 5}, {1, 0}};
  split.aLogValues = {-7, -5};
  split.betaValues = {-4, -2, 0, -3};
  runs.push_back({"split_rows", split});
  return runs;
}

/// A prefill batch by name: BxT (B rows of T tokens) or varlenN (N rows of
/// 200 .. 2000 tokens from a fixed draw).
test::BatchShape prefillShape(const std::string &name) {
  test::BatchShape s;
  if (name.rfind("varlen", 0) == 0) {
    const int n = parseCount(name.substr(6), "--prefill varlenN", kMostRows);
    uint64_t x = 12345;
    for (int i = 0; i < n; ++i) {
      x = x * 6364136223846793005ull + 1442695040888963407ull;
      s.lengths.push_back(200 + int((x >> 33) % 1801));
    }
  } else {
    const size_t x = name.find('x');
    if (x == std::string::npos)
      usage(("--prefill takes BxT or varlenN, not " + name).c_str());
    const int b = parseCount(name.substr(0, x), "--prefill B (BxT)", kMostRows);
    const int t =
        parseCount(name.substr(x + 1), "--prefill T (BxT)", kMostTokens / b);
    s.lengths.assign(size_t(b), t);
  }
  for (size_t i = 0; i < s.lengths.size(); ++i) {
    s.slots.push_back(int32_t(i + 1));
    s.hasInitial.push_back(1);
  }
  return s;
}

std::vector<NumericRun> numericRuns() {
  std::vector<NumericRun> runs;
  runs.push_back({"decode_n64", {}});
  for (int i = 0; i < 64; ++i) {
    runs.back().shape.lengths.push_back(1);
    runs.back().shape.slots.push_back(i + 1);
    runs.back().shape.hasInitial.push_back(i % 5 != 0);
  }
  runs.push_back({"mixed_padding",
                  {{1, 3, 1, 17, 2, 1, 64}, {3, 1, 0, 6, -1, 8, 9},
                   {1, 0, 1, 1, 1, 1, 0}}});
  runs.push_back({"long_rows", {{1, 200, 77}, {2, 4, 5}, {1, 1, 0}}});
  test::BatchShape extreme{{5, 9, 1}, {1, 3, 7}, {1, 1, 1}};
  extreme.extremeGate = 1000;
  runs.push_back({"extreme_gate", extreme});
  return runs;
}

/// The chunk plan of `b`'s launches after the prep: the scan, or the split
/// scan's maps, join and segments, joined by '+'.
std::string chunkScanOf(kda_bundle *bundle, const kda_kernel *kernel,
                        const kda_batch &b) {
  kda_plan *plan = nullptr;
  std::string scan;
  if (kda_plan_create(bundle, &plan) == KDA_OK &&
      kda_plan_add_chunk(plan, kernel, &b) == KDA_OK)
    for (int32_t i = 1; i < kda_plan_size(plan); ++i)
      scan += (i > 1 ? "+" : "") + std::string(kda_plan_kernel_symbol(plan, i));
  kda_plan_destroy(plan);
  return scan;
}

/// The workspace the kernel's path needs for `b` (0 for the recurrent
/// kernel).
int64_t workspaceBytes(const kda_kernel *kernel, const kda_batch &b) {
  int64_t bytes = 0;
  if (kda_kernel_workspace_bytes(kernel, b.num_tokens, b.num_seqs, &bytes) !=
      KDA_OK) {
    std::fprintf(stderr, "kda-bench: %s\n", kda_last_error());
    std::exit(1);
  }
  return bytes;
}

} // namespace

/// The output bar of a numerics run. Issue 8's for the chunk path: 1.5x
/// the error of the float64 result rounded to the output type; its matrix
/// products take bf16 operands (an f32 activation split in two), so f32
/// outputs are held to 2e-5, not to f32 rounding. The recurrent path: 2e-3
/// (test::kOutputErrorBar), or 1.5x of rounding where rounding alone costs
/// more (a head_v of 4 rounds to bf16 at ~2.3e-3).
static double outputBar(const test::KernelLayer &layer,
                        const test::CaseResult &r) {
  const double rounding = 1.5 * r.outRoundErr;
  if (!layer.chunk)
    return std::max(test::kOutputErrorBar, rounding);
  return layer.act == KDA_F32 ? std::max(2e-5, rounding) : rounding;
}

int run(int argc, char **argv) {
  Options o = parse(argc, argv);
  std::vector<std::string> json;
  bool ok = true;
  double copy = 0;

#ifdef KDA_BENCH_CUDA
  if (o.copy) {
    copy = copyTBps(20);
    std::printf("copy bandwidth (device to device, read + write): %.3f TB/s\n",
                copy);
    json.push_back("\"copy_TBps\": " + std::to_string(copy));
  }
#else
  if (o.copy || (o.backend == "cuda" &&
                 (o.numerics || !o.decode.empty() || !o.prefill.empty())))
    usage("this kda-bench was built without CUDA; use --backend emu");
#endif
  if (o.bundle.empty()) {
    if (!o.json.empty() && !writeJsonFile(o.json, "{" + json[0] + "}\n"))
      return 1;
    return 0;
  }

  kda_backend backend = o.backend == "cuda" ? KDA_BACKEND_CUDA : KDA_BACKEND_EMU;
  kda_bundle *bundle = nullptr;
  if (!o.target.empty())
    setenv("KDA_TARGET", o.target.c_str(), 1); // the runtime's target choice
  if (kda_bundle_open(o.bundle.c_str(), backend, &bundle) != KDA_OK) {
    std::fprintf(stderr, "kda-bench: %s\n", kda_last_error());
    return 1;
  }
  test::HostMemory hostMem;
#ifdef KDA_BENCH_CUDA
  CudaMemory cudaMem;
  test::Memory &mem = backend == KDA_BACKEND_CUDA
                          ? static_cast<test::Memory &>(cudaMem)
                          : hostMem;
#else
  test::Memory &mem = hostMem;
#endif
  if (o.allKernels) {
    int rc = timeAllKernels(o, bundle, backend, mem);
    kda_bundle_close(bundle);
    return rc;
  }
  const kda_kernel *kernel = nullptr;
  if (kda_bundle_find(bundle, o.kernel.c_str(), &kernel) != KDA_OK) {
    std::fprintf(stderr, "kda-bench: %s\n", kda_last_error());
    return 1;
  }
  const std::string target = kda_bundle_target(bundle);
  test::KernelLayer layer = test::readKernelLayer(o.bundle, o.kernel, target);
  std::printf("kda-bench: %s (%s) on %s: H %d, HV %d, K %d, V %d\n",
              o.kernel.c_str(), o.bundle.c_str(), target.c_str(),
              layer.layer.H, layer.layer.HV, layer.layer.K, layer.layer.V);

  if (o.numerics) {
    std::printf("%-16s %12s %12s  %s\n", "batch", "out rel L2", "state rel L2",
                "verdict");
    for (const NumericRun &run :
         layer.chunk ? chunkNumericRuns() : numericRuns()) {
      test::Harness h(layer, mem);
      int64_t slots = 0;
      for (int32_t s : run.shape.slots)
        slots = std::max<int64_t>(slots, s + 2);
      h.prepare(run.shape, slots, std::hash<std::string>{}(run.name));
      kda_batch b = h.batch();
      h.allocateWorkspace(workspaceBytes(kernel, b));
      b = h.batch();
      if (test::launchLayer(layer, kernel, b, nullptr) != KDA_OK) {
        std::fprintf(stderr, "kda-bench: launch: %s\n", kda_last_error());
        return 1;
      }
      const std::string scan =
          layer.chunk ? chunkScanOf(bundle, kernel, b) : std::string();
      test::CaseResult r = h.check();
      bool pass = r.finite && r.outErr <= outputBar(layer, r) &&
                  r.stateErr <= test::stateErrorBar(layer.state) &&
                  r.paddingZero && r.untouchedIdentical;
      ok &= pass;
      std::printf("%-16s %12.3g %12.3g  %s (out %.2fx rounding)%s%s%s%s\n",
                  run.name, r.outErr, r.stateErr, pass ? "ok" : "FAIL",
                  r.outRoundErr > 0 ? r.outErr / r.outRoundErr : 0.0,
                  r.paddingZero ? "" : " (padding rows not zero)",
                  r.untouchedIdentical ? "" : " (untouched slot changed)",
                  scan.empty() ? "" : "  ", scan.c_str());
      json.push_back("\"numerics_" + std::string(run.name) +
                     "\": {\"out_err\": " + std::to_string(r.outErr) +
                     ", \"state_err\": " + std::to_string(r.stateErr) +
                     ", \"pass\": " + (pass ? "true" : "false") + "}");
    }
  }

  if (!o.decode.empty()) {
    const int L = o.tokensPerRow;
    if (L > 1)
      std::printf("rows of %d tokens each\n", L);
    std::printf("%6s %10s %10s %10s %10s %8s\n", "N", "time us", "graph us",
                "TB/s", "MB moved", copy > 0 ? "of copy" : "");
    for (int n : o.decode) {
      test::Harness h(layer, mem);
      h.prepare(decodeShape(n, L), n + 1, 1234 + n);
      const char *chosen = "";
      kda_kernel_variant_for(kernel, n, &chosen);
      Timing t = timeLaunch(kernel, h.batch(), backend, o.reps);
      // Bandwidth by the graph time where there is one (no launch overhead).
      double us = t.usGraph > 0 ? t.usGraph : t.us;
      double bytes = h.minimumBytes();
      double tbps = bytes / (us * 1e-6) / 1e12;
      std::printf("%6d %10.2f %10.2f %10.3f %10.2f %7.1f%%  %s\n", n, t.us,
                  t.usGraph, tbps, bytes / 1e6,
                  copy > 0 ? 100 * tbps / copy : 0.0, chosen);
      json.push_back("\"decode_N" + std::to_string(n) +
                     (L > 1 ? "_L" + std::to_string(L) : std::string()) +
                     "\": {\"us\": " + std::to_string(t.us) +
                     ", \"us_graph\": " + std::to_string(t.usGraph) +
                     ", \"TBps\": " + std::to_string(tbps) +
                     ", \"bytes\": " + std::to_string(bytes) +
                     ", \"kernel\": \"" + chosen + "\"}");
    }
  }
  if (!o.prefill.empty()) {
    if (o.allScans && !layer.chunk) {
      std::fprintf(stderr,
                   "kda-bench: --all-scans: %s is not a chunk layer (it has "
                   "no scan alternatives)\n",
                   o.kernel.c_str());
      kda_bundle_close(bundle);
      return 2;
    }
    std::printf("%-10s %8s %8s %10s", "batch", "rows", "tokens", "time ms");
    if (layer.chunk)
      std::printf(" %10s %10s  %s", "prep ms", "scan ms", "scan");
    std::printf("\n");
    for (const std::string &name : o.prefill) {
      test::BatchShape shape = prefillShape(name);
      test::Harness h(layer, mem);
      h.prepare(shape, int64_t(shape.lengths.size()) + 1, 77);
      kda_batch b = h.batch();
      h.allocateWorkspace(workspaceBytes(kernel, b));
      b = h.batch();
      auto launch = [&] {
        if (test::launchLayer(layer, kernel, b, nullptr) != KDA_OK) {
          std::fprintf(stderr, "kda-bench: launch: %s\n", kda_last_error());
          std::exit(1);
        }
      };
      // The scan the runtime picks for this batch (its column block), and
      // the plan whose stages are timed one at a time.
      std::string scan;
      kda_plan *plan = nullptr;
      // The prep and the scan the batch shape picks (alternative -1), or
      // alternative `alt` (kda_plan_add_chunk_scan).
      auto chunkPlan = [&](int32_t alt) {
        kda_plan *made = nullptr;
        if (kda_plan_create(bundle, &made) != KDA_OK ||
            (alt < 0
                 ? kda_plan_add_chunk(made, kernel, &b)
                 : kda_plan_add_chunk_scan(made, kernel, &b, alt)) != KDA_OK) {
          std::fprintf(stderr, "kda-bench: chunk plan: %s\n", kda_last_error());
          std::exit(1);
        }
        return made;
      };
      if (layer.chunk) {
        plan = chunkPlan(-1);
        // prep, then the scan or the split scan (maps, join, segments).
        const int32_t n = kda_plan_size(plan);
        if (n != 2 && n != 4) {
          std::fprintf(stderr,
                       "kda-bench: chunk plan: %d launches, expected 2 "
                       "(prep, scan) or 4 (prep, maps, join, segments)\n",
                       int(n));
          std::exit(1);
        }
        for (int32_t i = 1; i < n; ++i)
          scan +=
              (i > 1 ? "+" : "") + std::string(kda_plan_kernel_symbol(plan, i));
      }
      // Launches [first, first + count) of the plan.
      auto stage = [&](int32_t first, int32_t count = 1) {
        return [&, first, count] {
          if (kda_plan_launch_range(plan, first, count, nullptr) != KDA_OK) {
            std::fprintf(stderr, "kda-bench: stages %d..%d: %s\n", first,
                         first + count - 1, kda_last_error());
            std::exit(1);
          }
        };
      };
      auto timeOf = [&](auto fn) {
        double ms = 0;
#ifdef KDA_BENCH_CUDA
        if (backend == KDA_BACKEND_CUDA)
          ms = medianMs(o.reps, fn);
#endif
        if (backend == KDA_BACKEND_EMU) {
          auto t0 = std::chrono::steady_clock::now();
          fn();
          ms = std::chrono::duration<double, std::milli>(
                   std::chrono::steady_clock::now() - t0)
                   .count();
        }
        return ms;
      };
      const double ms = timeOf(launch);
      // Each stage alone, after the whole path ran (the scan reads the
      // prep's workspace and the states the earlier runs left).
      const double prepMs = layer.chunk ? timeOf(stage(0)) : 0;
      const double scanMs =
          layer.chunk ? timeOf(stage(1, kda_plan_size(plan) - 1)) : 0;
      // The split scan's stages one at a time too (the join alone reads
      // entering states its last run left: its time, not its result).
      std::string parts;
      for (int32_t i = 1;
           layer.chunk && kda_plan_size(plan) > 2 && i < kda_plan_size(plan);
           ++i) {
        char ms[32];
        std::snprintf(ms, sizeof ms, "%.3f", timeOf(stage(i)));
        parts += (i > 1 ? " " : " (") + std::string(ms) +
                 (i + 1 < kda_plan_size(plan) ? "" : ")");
      }
      kda_plan_destroy(plan);
      std::printf("%-10s %8zu %8lld %10.3f", name.c_str(), shape.lengths.size(),
                  (long long)b.num_tokens, ms);
      if (layer.chunk)
        std::printf(" %10.3f %10.3f  %s%s", prepMs, scanMs, scan.c_str(),
                    parts.c_str());
      std::printf("\n");
      // --all-scans: every way after the prep, whatever the shape picks
      // (the planner's cost model measured: chooseScan).
      std::string alternatives;
      for (int32_t alt = 0; o.allScans && layer.chunk &&
                            alt < kda_kernel_chunk_scan_count(kernel);
           ++alt) {
        plan = chunkPlan(alt);
        const int32_t n = kda_plan_size(plan);
        const double whole = timeOf(stage(0, n));
        const double after = timeOf(stage(1, n - 1));
        const std::string symbol = kda_kernel_chunk_scan_symbol(kernel, alt);
        std::printf("  %-28s %10.3f %10s %10.3f  %s\n", "(alternative)", whole,
                    "", after, symbol.c_str());
        alternatives += std::string(alt ? ", " : "") + "{\"scan\": \"" +
                        symbol + "\", \"ms\": " + std::to_string(whole) +
                        ", \"after_prep_ms\": " + std::to_string(after) + "}";
        kda_plan_destroy(plan);
      }
      json.push_back(
          "\"prefill_" + name + "\": {\"ms\": " + std::to_string(ms) +
          (layer.chunk ? ", \"prep_ms\": " + std::to_string(prepMs) +
                             ", \"scan_ms\": " + std::to_string(scanMs)
                       : std::string()) +
          ", \"tokens\": " + std::to_string(b.num_tokens) + ", \"scan\": \"" +
          scan + "\"" +
          (o.allScans ? ", \"alternatives\": [" + alternatives + "]"
                      : std::string()) +
          "}");
    }
  }
  kda_bundle_close(bundle);
  if (!o.json.empty()) {
    std::ostringstream f;
    const ref::Layer &l = layer.layer;
    f << "{\n  \"impl\": \"kda\",\n  \"kernel\": " << jsonString(o.kernel)
      << ",\n  \"target\": \"" << target << "\",\n  \"machine\": \""
      << machineName(backend) << "\",\n  \"driver\": " << jsonString(o.driver)
      << ",\n  \"date\": \"" << today()
      << "\",\n  \"layer\": {\"heads\": " << l.H
      << ", \"value_heads\": " << l.HV << ", \"head_k\": " << l.K
      << ", \"head_v\": " << l.V << ", \"state_layout\": \""
      << (l.layout == ref::Layout::VK ? "vk" : "kv") << "\"}";
    for (const std::string &j : json)
      f << ",\n  " << j;
    f << "\n}\n";
    if (!writeJsonFile(o.json, f.str()))
      return 1;
  }
  return ok ? 0 : 1;
}

int main(int argc, char **argv) {
  // A batch too large for the host's memory is an error, not an abort.
  try {
    return run(argc, argv);
  } catch (const std::bad_alloc &) {
    std::fprintf(stderr, "kda-bench: out of host memory for this batch\n");
    return 1;
  }
}
