//===- Reference.cpp - token-serial float64 KDA ---------------------------===//
#include "kda/Oracle/Reference.h"
#include "Prepared.h"

#include <cmath>
#include <stdexcept>

namespace kda::ref {

double Layer::effectiveScale() const {
  return scale > 0 ? scale : 1.0 / std::sqrt(double(K));
}

std::string validate(const Layer &l, const Batch &b, int64_t numSlots) {
  if (l.H <= 0 || l.HV <= 0 || l.HV % l.H != 0)
    return "value heads must be a positive multiple of heads";
  if (l.K <= 0 || l.V <= 0)
    return "head dims must be positive";
  if (l.gate == Gate::LowerBound && !(l.lowerBound < 0))
    return "lower_bound gate needs a negative bound";
  if (l.gate == Gate::Softplus && b.aLog.empty())
    return "softplus gate needs A_log";
  if (b.cuSeqlens.empty() || b.cuSeqlens.front() != 0)
    return "cu_seqlens must start at 0";
  for (size_t i = 1; i < b.cuSeqlens.size(); ++i)
    if (b.cuSeqlens[i] < b.cuSeqlens[i - 1])
      return "cu_seqlens must be non-decreasing";
  if (b.cuSeqlens.back() != b.T)
    return "cu_seqlens must end at T";
  const size_t n = size_t(b.numSequences());
  if (b.slots.size() != n || b.hasInitialState.size() != n)
    return "slots and has_initial_state must hold one entry per sequence";
  for (int32_t s : b.slots)
    if (s >= numSlots)
      return "slot index " + std::to_string(s) + " is outside the pool of " +
             std::to_string(numSlots) + " slots";
  const auto T = size_t(b.T);
  if (b.q.size() != T * l.H * l.K || b.k.size() != T * l.H * l.K ||
      b.v.size() != T * l.HV * l.V || b.g.size() != T * l.HV * l.K ||
      b.beta.size() != T * l.HV)
    return "activation sizes do not match T and the layer";
  if (!b.aLog.empty() && b.aLog.size() != size_t(l.HV))
    return "A_log must hold HV entries";
  if (!b.dtBias.empty() && b.dtBias.size() != size_t(l.HV) * l.K)
    return "dt_bias must hold HV * K entries";
  return "";
}

static double softplus(double x) { return x > 20 ? x : std::log1p(std::exp(x)); }
static double sigmoid(double x) { return 1.0 / (1.0 + std::exp(-x)); }

double gateValue(const Layer &l, const Batch &b, int64_t t, int h, int d) {
  double x = b.g[(t * l.HV + h) * l.K + d];
  if (l.gate == Gate::None)
    return x;
  if (!b.dtBias.empty())
    x += b.dtBias[size_t(h) * l.K + d];
  if (l.gate == Gate::Softplus)
    return -std::exp(b.aLog[h]) * softplus(x);
  // lower_bound: A_log optional.
  if (!b.aLog.empty())
    x *= std::exp(b.aLog[h]);
  return l.lowerBound * sigmoid(x);
}

double betaValue(const Layer &l, const Batch &b, int64_t t, int h) {
  double x = b.beta[t * l.HV + h];
  switch (l.beta) {
  case Beta::Sigmoid:
    return sigmoid(x);
  case Beta::SigmoidX2:
    return 2 * sigmoid(x);
  case Beta::Given:
    return x;
  }
  return x;
}

double relativeL2(const double *a, const double *b, int64_t n) {
  double num = 0, den = 0;
  for (int64_t i = 0; i < n; ++i) {
    if (std::isnan(a[i]) || std::isnan(b[i]))
      return INFINITY;
    num += (a[i] - b[i]) * (a[i] - b[i]);
    den += b[i] * b[i];
  }
  if (den == 0)
    return num == 0 ? 0 : INFINITY;
  return std::sqrt(num / den);
}

namespace detail {

void checkOrThrow(const Layer &l, const Batch &b, int64_t numSlots) {
  std::string err = validate(l, b, numSlots);
  if (!err.empty())
    throw std::invalid_argument("kda oracle: " + err);
}

TokenHead prepare(const Layer &l, const Batch &b, int64_t t, int h) {
  TokenHead p;
  const int hq = h / l.groupSize();
  const double *q = &b.q[(t * l.H + hq) * l.K];
  const double *k = &b.k[(t * l.H + hq) * l.K];
  p.q.assign(q, q + l.K);
  p.k.assign(k, k + l.K);
  if (l.qkL2norm) {
    for (std::vector<double> *x : {&p.q, &p.k}) {
      double ss = 0;
      for (double e : *x)
        ss += e * e;
      double inv = 1.0 / std::sqrt(ss + 1e-6);
      for (double &e : *x)
        e *= inv;
    }
  }
  const double s = l.effectiveScale();
  for (double &e : p.q)
    e *= s;
  p.g.resize(l.K);
  for (int d = 0; d < l.K; ++d)
    p.g[d] = gateValue(l, b, t, h, d);
  p.beta = betaValue(l, b, t, h);
  const double *v = &b.v[(t * l.HV + h) * l.V];
  p.v.assign(v, v + l.V);
  return p;
}

void loadState(const Layer &l, const Batch &b, int n, int h,
               const double *pool, std::vector<double> &S) {
  S.assign(size_t(l.K) * l.V, 0.0);
  if (!b.hasInitialState[n])
    return; // a stale state may sit in the slot: never read it
  const double *slot = pool + int64_t(b.slots[n]) * l.slotElems();
  for (int dk = 0; dk < l.K; ++dk)
    for (int dv = 0; dv < l.V; ++dv)
      S[size_t(dk) * l.V + dv] = slot[l.stateIndex(h, dk, dv)];
}

void storeState(const Layer &l, const Batch &b, int n, int h,
                const std::vector<double> &S, double *pool) {
  double *slot = pool + int64_t(b.slots[n]) * l.slotElems();
  for (int dk = 0; dk < l.K; ++dk)
    for (int dv = 0; dv < l.V; ++dv)
      slot[l.stateIndex(h, dk, dv)] = S[size_t(dk) * l.V + dv];
}

} // namespace detail

void recurrent(const Layer &l, const Batch &b, double *state, int64_t numSlots,
               double *out) {
  detail::checkOrThrow(l, b, numSlots);
  const int K = l.K, V = l.V;
  std::vector<double> S, r(V);
  // Padding rows: zeros out, no state access.
  detail::forEachSequenceHead(
      l, b, out, [&](int n, int h, int64_t bos, int64_t eos) {
        detail::loadState(l, b, n, h, state, S);
        for (int64_t t = bos; t < eos; ++t) {
          detail::TokenHead p = detail::prepare(l, b, t, h);
          // S <- diag(exp g) S
          for (int dk = 0; dk < K; ++dk) {
            double decay = std::exp(p.g[dk]);
            for (int dv = 0; dv < V; ++dv)
              S[size_t(dk) * V + dv] *= decay;
          }
          // r = v - S^T k ; S <- S + beta k r^T
          for (int dv = 0; dv < V; ++dv) {
            double acc = 0;
            for (int dk = 0; dk < K; ++dk)
              acc += S[size_t(dk) * V + dv] * p.k[dk];
            r[dv] = p.v[dv] - acc;
          }
          for (int dk = 0; dk < K; ++dk)
            for (int dv = 0; dv < V; ++dv)
              S[size_t(dk) * V + dv] += p.beta * p.k[dk] * r[dv];
          // o = S^T (scale q)
          double *o = out + (t * l.HV + h) * V;
          for (int dv = 0; dv < V; ++dv) {
            double acc = 0;
            for (int dk = 0; dk < K; ++dk)
              acc += S[size_t(dk) * V + dv] * p.q[dk];
            o[dv] = acc;
          }
        }
        detail::storeState(l, b, n, h, S, state);
      });
}

} // namespace kda::ref
