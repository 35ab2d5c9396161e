#include "RandomBatch.h"
#include <cmath>
#include <random>

namespace kda::test {

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
    for (size_t t = 0; t < T; t += 3)
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
