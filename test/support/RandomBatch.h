//===- RandomBatch.h - random KDA batches for tests -------------*- C++ -*-===//
#ifndef KDA_TEST_RANDOMBATCH_H
#define KDA_TEST_RANDOMBATCH_H

#include "kda/Oracle/Reference.h"
#include <cstdint>
#include <vector>

namespace kda::test {

/// What a random batch should contain.
struct BatchShape {
  std::vector<int> lengths;        // one entry per sequence
  std::vector<int32_t> slots;      // empty: sequence n -> slot n + 1
  std::vector<uint8_t> hasInitial; // empty: all true
  /// Raw gate inputs set to this value on every third token (0: off); with
  /// the softplus gate and A_log = 0, 1000 gives g of about -1000.
  double extremeGate = 0;
  /// Only tokens below this one take extremeGate (0: all of them).
  size_t extremeTokens = 0;

  // Edge values of KDA-MATH.md that normal draws never reach (all optional).
  /// Tokens whose q (resp. k) rows are zero in every head: the l2norm's eps
  /// is then all that keeps 0 / sqrt(0) from being NaN.
  std::vector<int> zeroQTokens, zeroKTokens;
  /// Raw gate inputs cycled over (token, value head, channel), with dt_bias
  /// set to zero so the gate sees exactly these values (gate 'none': the
  /// log decay -|value|).
  std::vector<double> gateValues;
  /// A_log per value head, cycled (only where the gate uses A_log).
  std::vector<double> aLogValues;
  /// Forget events: each (token, channel) takes the gate's largest step
  /// (raw -1000 for 'none' and +1000 for softplus, both floored at -256
  /// nats by the kernels, kGateFloor; lb for lower_bound) at
  /// scattered places, about one in nine, and small steps (about -1e-2 to
  /// -3e-4) everywhere else, with dt_bias zero. After a large step the
  /// chunk-local cumsum is large and the small steps' falls must keep
  /// their own precision (prepGateCumsum).
  bool forgetEvents = false;
  /// With forgetEvents: the large steps come in bursts instead, each
  /// channel's first d positions of every 64 of its sequence (d = 0..8 by
  /// channel), small steps after them. A chunk's cumsum then sits in a
  /// different binade in neighbouring channels (up to -2048 nats) for
  /// the rest of the chunk: the rest's scale is each channel's own.
  bool forgetBursts = false;
  /// Raw beta inputs cycled over (token, value head); beta 'given' reads
  /// them as beta itself.
  std::vector<double> betaValues;
  /// The slots of sequences without initial state hold NaN (a stale state
  /// the kernel must not read); see Harness::prepare.
  bool staleNaN = false;
};

/// Fills a batch with draws from a fixed seed: q, k, v ~ N(0, 1) (k scaled by
/// K^-1/2 without l2norm so the delta rule stays contractive), gate and beta
/// inputs ~ N(0, 1), A_log ~ U(-1, 0.5) and dt_bias ~ N(0, 0.5) where the gate
/// uses them.
ref::Batch makeBatch(const ref::Layer &layer, const BatchShape &shape,
                     uint64_t seed);

/// Issue 9's seed scenario: 64 one-token decodes over scattered slots, then
/// prefills of 1500, 1200, 900 and 432 tokens (4096 tokens in all; the
/// prefill lengths times `prefillScale`, at least 1), the 900-token row
/// without initial state over a NaN slot. Slots 1..80 shuffled by `seed`;
/// the pool needs 81 slots.
BatchShape seedScenarioShape(double prefillScale, uint64_t seed);
inline constexpr int kSeedDecodes = 64;

/// A pool of `slots` slots filled with N(0, 0.5) draws.
std::vector<double> makePool(const ref::Layer &layer, int64_t slots,
                             uint64_t seed);

} // namespace kda::test

#endif // KDA_TEST_RANDOMBATCH_H
