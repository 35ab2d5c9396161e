//===- kda-forward.cpp - the seed scenario through kda_forward ------------===//
//
//   kda-forward --bundle DIR --kernel NAME [--target T] [--prefill-scale F]
//
// Runs issue 9's seed scenario (64 decodes and 4 prefills, 4096 tokens, one
// row without initial state over a NaN slot) on the bundle's layer through
// kda_forward on the emulator, checks it against the float64 oracle and
// prints what the emulator's time means: host seconds and emulated
// token-heads per second (the emulator runs each workgroup's threads as
// fibers on one host core; it says nothing about a GPU's bandwidth, so no
// TB/s is printed). --prefill-scale shortens the prefills (default 1).
// The GPU counterpart, with torch, is test/device/forward_h200.py.
//
//===----------------------------------------------------------------------===//
#include "Harness.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

using namespace kda;

namespace {

struct Options {
  std::string bundle, kernel, target;
  double prefillScale = 1.0;
};

[[noreturn]] void usage(const std::string &why) {
  std::fprintf(stderr,
               "kda-forward: %s\nusage: kda-forward --bundle DIR --kernel NAME "
               "[--target T] [--prefill-scale F]\n",
               why.c_str());
  std::exit(2);
}

Options parse(int argc, char **argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc)
        usage(a + " needs a value");
      return argv[++i];
    };
    if (a == "--bundle")
      o.bundle = value();
    else if (a == "--kernel")
      o.kernel = value();
    else if (a == "--target")
      o.target = value();
    else if (a == "--prefill-scale") {
      const std::string v = value();
      char *end = nullptr;
      o.prefillScale = std::strtod(v.c_str(), &end);
      if (*end || !(o.prefillScale > 0 && o.prefillScale <= 1))
        usage("--prefill-scale " + v + " is not a number in (0, 1]");
    } else
      usage("unknown argument " + a);
  }
  if (o.bundle.empty() || o.kernel.empty())
    usage("--bundle and --kernel are required");
  return o;
}

int fail(const char *what) {
  std::fprintf(stderr, "kda-forward: %s: %s\n", what, kda_last_error());
  return 1;
}

} // namespace

int main(int argc, char **argv) {
  const Options o = parse(argc, argv);
  kda_bundle *bundle = nullptr;
  if (kda_bundle_open_target(o.bundle.c_str(), KDA_BACKEND_EMU,
                             o.target.empty() ? nullptr : o.target.c_str(),
                             &bundle) != KDA_OK)
    return fail("open");
  const kda_kernel *kernel = nullptr;
  if (kda_bundle_find(bundle, o.kernel.c_str(), &kernel) != KDA_OK)
    return fail("find");
  const std::string target = kda_bundle_target(bundle);
  const test::KernelLayer layer =
      test::readKernelLayer(o.bundle, o.kernel, target);
  std::printf("kda-forward: %s (%s) on %s: H %d, HV %d, K %d, V %d\n",
              o.kernel.c_str(), o.bundle.c_str(), target.c_str(),
              layer.layer.H, layer.layer.HV, layer.layer.K, layer.layer.V);

  test::HostMemory mem;
  test::Harness h(layer, mem);
  const test::BatchShape shape = test::seedScenarioShape(o.prefillScale, 9);
  h.prepare(shape, /*numSlots=*/96, 4096);
  const kda_forward_args args = test::forwardArgs(h.batch(), test::kSeedDecodes);
  kda_plan *plan = nullptr;
  if (kda_plan_create(bundle, &plan) != KDA_OK ||
      kda_plan_add_forward(plan, kernel, nullptr, &args) != KDA_OK)
    return fail("plan");
  const char *provenance = nullptr;
  const int32_t threshold = kda_bundle_recurrent_max_tokens(bundle, &provenance);
  std::printf("seed scenario: %d decodes + %zu prefills (", test::kSeedDecodes,
              shape.lengths.size() - test::kSeedDecodes);
  for (size_t i = test::kSeedDecodes; i < shape.lengths.size(); ++i)
    std::printf("%s%d", i == test::kSeedDecodes ? "" : ", ", shape.lengths[i]);
  std::printf(" tokens), %lld tokens; %d launch(es); rows above %d tokens "
              "would take the chunk path (%s), none here without one\n",
              (long long)args.num_tokens, kda_plan_size(plan), threshold,
              provenance);

  const auto t0 = std::chrono::steady_clock::now();
  if (kda_plan_launch(plan, nullptr) != KDA_OK)
    return fail("launch");
  const double s = std::chrono::duration<double>(
                       std::chrono::steady_clock::now() - t0)
                       .count();
  const double tokenHeads = double(args.num_tokens) * layer.layer.HV;
  std::printf("emulator: %.1f s of host time, %.0f token-heads/s (fibers on "
              "one host core: a correctness run, not a GPU speed)\n",
              s, tokenHeads / s);

  const test::CaseResult r = h.check();
  const bool ok = r.finite && r.outErr <= test::kOutputErrorBar &&
                  r.stateErr <= test::stateErrorBar(layer.state) &&
                  r.paddingZero && r.untouchedIdentical;
  std::printf("vs float64 oracle: out rel L2 %.3g (bar %.0e), state rel L2 "
              "%.3g (bar %.0e), %s, unnamed slots %s: %s\n",
              r.outErr, test::kOutputErrorBar, r.stateErr,
              test::stateErrorBar(layer.state),
              r.finite ? "no NaN" : "NaN or inf",
              r.untouchedIdentical ? "bit-identical" : "CHANGED",
              ok ? "ok" : "FAIL");
  kda_plan_destroy(plan);
  kda_bundle_close(bundle);
  return ok ? 0 : 1;
}
