#include "RandomBatch.h"
#include <algorithm>
#include <cmath>
#include <random>

namespace kda::test {

/// Overwrites the draws with the shape's edge values.
static void applyEdges(const ref::Layer &l, const BatchShape &shape,
                       ref::Batch &b) {
  const size_t qkRow = size_t(l.H) * l.K, gRow = size_t(l.HV) * l.K;
  for (int t : shape.zeroQTokens)
    std::fill_n(b.q.begin() + size_t(t) * qkRow, qkRow, 0.0);
  for (int t : shape.zeroKTokens)
    std::fill_n(b.k.begin() + size_t(t) * qkRow, qkRow, 0.0);
  if (!shape.gateValues.empty()) {
    const std::vector<double> &gv = shape.gateValues;
    for (size_t t = 0; t < size_t(b.T); ++t)
      for (size_t i = 0; i < gRow; ++i) {
        double x = gv[(t + i) % gv.size()];
        b.g[t * gRow + i] = l.gate == ref::Gate::None ? -std::abs(x) : x;
      }
    std::fill(b.dtBias.begin(), b.dtBias.end(), 0.0);
  }
  if (shape.forgetEvents) {
    // Raw inputs of the largest and of a small step: softplus(1000) = 1000,
    // softplus(-8) = 3.4e-4; lb x sigmoid(+-50 x exp(A_log)) = lb or about
    // lb x 1e-10; 'none' reads the log decay itself.
    const bool none = l.gate == ref::Gate::None;
    const double large = none                            ? -1000.0
                         : l.gate == ref::Gate::Softplus ? 1000.0
                                                         : 50.0;
    const double small = none ? -0.01 : -8.0;
    // Each token's position in its sequence (bursts).
    std::vector<size_t> position;
    for (int len : shape.lengths)
      for (int p = 0; p < len; ++p)
        position.push_back(size_t(p));
    position.resize(size_t(b.T), 0);
    for (size_t t = 0; t < size_t(b.T); ++t)
      for (size_t i = 0; i < gRow; ++i) {
        uint32_t h = uint32_t(t) * 2654435761u ^ uint32_t(i) * 2246822519u;
        h ^= h >> 15;
        uint32_t c = uint32_t(i % size_t(l.K)) * 2246822519u;
        c ^= c >> 13;
        const bool isLarge =
            shape.forgetBursts ? position[t] % 64 < c % 9 : h % 9 == 0;
        b.g[t * gRow + i] = isLarge ? large : small;
      }
    std::fill(b.dtBias.begin(), b.dtBias.end(), 0.0);
  }
  if (!shape.aLogValues.empty())
    for (size_t h = 0; h < b.aLog.size(); ++h)
      b.aLog[h] = shape.aLogValues[h % shape.aLogValues.size()];
  if (!shape.betaValues.empty())
    for (size_t i = 0; i < b.beta.size(); ++i) {
      double x = shape.betaValues[(i / size_t(l.HV) + i % size_t(l.HV)) %
                                  shape.betaValues.size()];
      // 'given' reads beta itself: its saturated ends, 0 and 1.
      b.beta[i] = l.beta == ref::Beta::Given ? 1.0 / (1.0 + std::exp(-x)) : x;
    }
}

BatchShape seedScenarioShape(double prefillScale, uint64_t seed) {
  std::mt19937 rng{uint32_t(seed)};
  std::vector<int32_t> slots(80);
  for (int i = 0; i < 80; ++i)
    slots[size_t(i)] = i + 1;
  std::shuffle(slots.begin(), slots.end(), rng);
  BatchShape shape;
  for (int i = 0; i < kSeedDecodes; ++i) {
    shape.lengths.push_back(1);
    shape.slots.push_back(slots[size_t(i)]);
    shape.hasInitial.push_back(1);
  }
  for (int len : {1500, 1200, 900, 432}) {
    shape.lengths.push_back(std::max(1, int(len * prefillScale)));
    shape.slots.push_back(slots[shape.slots.size()]);
    shape.hasInitial.push_back(len != 900);
  }
  shape.staleNaN = true;
  return shape;
}

ref::Batch makeBatch(const ref::Layer &l, const BatchShape &shape,
                     uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> normal(0.0, 1.0);
  ref::Batch b;
  b.cuSeqlens.push_back(0);
  for (int len : shape.lengths)
    b.cuSeqlens.push_back(b.cuSeqlens.back() + len);
  b.T = b.cuSeqlens.back();
  const int n = int(shape.lengths.size());
  b.slots = shape.slots;
  if (b.slots.empty())
    for (int i = 0; i < n; ++i)
      b.slots.push_back(i + 1);
  b.hasInitialState = shape.hasInitial;
  if (b.hasInitialState.empty())
    b.hasInitialState.assign(n, 1);

  auto fill = [&](std::vector<double> &x, size_t count, double scale) {
    x.resize(count);
    for (double &e : x)
      e = scale * normal(rng);
  };
  const size_t T = size_t(b.T);
  fill(b.q, T * l.H * l.K, 1.0);
  fill(b.k, T * l.H * l.K, l.qkL2norm ? 1.0 : 1.0 / std::sqrt(double(l.K)));
  fill(b.v, T * l.HV * l.V, 1.0);
  fill(b.g, T * l.HV * l.K, 1.0);
  fill(b.beta, T * l.HV, 1.0);
  if (l.gate == ref::Gate::None) // a log decay must be <= 0
    for (double &e : b.g)
      e = -std::abs(e) * 0.5;
  if (shape.extremeGate != 0)
    for (size_t t = 0;
         t < (shape.extremeTokens ? std::min(T, shape.extremeTokens) : T);
         t += 3)
      for (size_t i = 0; i < size_t(l.HV) * l.K; ++i)
        // gate 'none' reads g as the log decay itself: use -extremeGate.
        b.g[t * l.HV * l.K + i] =
            l.gate == ref::Gate::None ? -shape.extremeGate : shape.extremeGate;
  if (l.gate != ref::Gate::None) {
    std::uniform_real_distribution<double> uni(-1.0, 0.5);
    b.aLog.resize(l.HV);
    for (double &e : b.aLog)
      e = shape.extremeGate != 0 ? 0.0 : uni(rng);
    fill(b.dtBias, size_t(l.HV) * l.K, 0.5);
  }
  applyEdges(l, shape, b);
  return b;
}

std::vector<double> makePool(const ref::Layer &l, int64_t slots,
                             uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> normal(0.0, 0.5);
  std::vector<double> pool(size_t(slots * l.slotElems()));
  for (double &e : pool)
    e = normal(rng);
  return pool;
}

} // namespace kda::test
