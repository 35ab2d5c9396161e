//===- Chunked.cpp - the chunked form of KDA in float64 -------------------===//
//
// KDA-MATH.md section 2, written for clarity rather than speed. Every decay
// factor is exp(Gamma_i - Gamma_j) with j <= i (never exp(Gamma_i) *
// exp(-Gamma_j)), so it stays <= 1 whatever the gate.
//
//===----------------------------------------------------------------------===//
#include "Prepared.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace kda::ref {

void chunked(const Layer &l, const Batch &b, int chunkSize, double *state,
             int64_t numSlots, double *out) {
  if (chunkSize <= 0)
    throw std::invalid_argument("kda oracle: chunk size must be positive");
  detail::checkOrThrow(l, b, numSlots);
  const int K = l.K, V = l.V, C = chunkSize;
  using Mat = std::vector<double>; // row-major
  std::vector<double> S;

  for (int n = 0; n < b.numSequences(); ++n) {
    const int64_t bos = b.cuSeqlens[n], eos = b.cuSeqlens[n + 1];
    for (int h = 0; h < l.HV; ++h) {
      if (b.slots[n] <= 0) {
        for (int64_t t = bos; t < eos; ++t)
          std::fill_n(out + (t * l.HV + h) * V, V, 0.0);
        continue;
      }
      detail::loadState(l, b, n, h, state, S);
      for (int64_t c0 = bos; c0 < eos; c0 += C) {
        const int L = int(std::min<int64_t>(C, eos - c0));
        std::vector<detail::TokenHead> rows;
        for (int i = 0; i < L; ++i)
          rows.push_back(detail::prepare(l, b, c0 + i, h));
        // Gamma_i = sum_{j <= i} g_j
        Mat Gam(size_t(L) * K);
        for (int i = 0; i < L; ++i)
          for (int d = 0; d < K; ++d)
            Gam[i * K + d] = rows[i].g[d] + (i ? Gam[(i - 1) * K + d] : 0.0);
        auto decayDot = [&](const std::vector<double> &x, int i,
                            const std::vector<double> &y, int j) {
          double acc = 0;
          for (int d = 0; d < K; ++d)
            acc += x[d] * y[d] * std::exp(Gam[i * K + d] - Gam[j * K + d]);
          return acc;
        };
        Mat Akk(size_t(L) * L, 0.0), Aqk(size_t(L) * L, 0.0);
        for (int i = 0; i < L; ++i)
          for (int j = 0; j <= i; ++j) {
            if (j < i)
              Akk[i * L + j] = rows[i].beta * decayDot(rows[i].k, i, rows[j].k, j);
            Aqk[i * L + j] = decayDot(rows[i].q, i, rows[j].k, j);
          }
        // W = (I + Akk)^-1 diag(b) (K o exp Gamma), U = (I + Akk)^-1 diag(b) V,
        // by forward substitution (I + Akk is unit lower triangular).
        Mat W(size_t(L) * K), U(size_t(L) * V);
        for (int i = 0; i < L; ++i) {
          for (int d = 0; d < K; ++d) {
            double x = rows[i].beta * rows[i].k[d] * std::exp(Gam[i * K + d]);
            for (int j = 0; j < i; ++j)
              x -= Akk[i * L + j] * W[j * K + d];
            W[i * K + d] = x;
          }
          for (int d = 0; d < V; ++d) {
            double x = rows[i].beta * rows[i].v[d];
            for (int j = 0; j < i; ++j)
              x -= Akk[i * L + j] * U[j * V + d];
            U[i * V + d] = x;
          }
        }
        // Vnew = U - W S0
        Mat Vnew(size_t(L) * V);
        for (int i = 0; i < L; ++i)
          for (int dv = 0; dv < V; ++dv) {
            double acc = 0;
            for (int dk = 0; dk < K; ++dk)
              acc += W[i * K + dk] * S[size_t(dk) * V + dv];
            Vnew[i * V + dv] = U[i * V + dv] - acc;
          }
        // O_i = (q_i o exp Gamma_i)^T S0 + sum_{j <= i} Aqk[i,j] Vnew_j
        // (q already carries the scale).
        for (int i = 0; i < L; ++i) {
          double *o = out + ((c0 + i) * l.HV + h) * V;
          for (int dv = 0; dv < V; ++dv) {
            double acc = 0;
            for (int dk = 0; dk < K; ++dk)
              acc += rows[i].q[dk] * std::exp(Gam[i * K + dk]) *
                     S[size_t(dk) * V + dv];
            for (int j = 0; j <= i; ++j)
              acc += Aqk[i * L + j] * Vnew[j * V + dv];
            o[dv] = acc;
          }
        }
        // S_next = diag(exp Gamma_last) S0 + sum_j (k_j o exp(Gamma_last -
        // Gamma_j)) Vnew_j^T
        const int last = L - 1;
        for (int dk = 0; dk < K; ++dk) {
          const double gl = Gam[last * K + dk];
          for (int dv = 0; dv < V; ++dv) {
            double acc = std::exp(gl) * S[size_t(dk) * V + dv];
            for (int j = 0; j < L; ++j)
              acc += rows[j].k[dk] * std::exp(gl - Gam[j * K + dk]) *
                     Vnew[j * V + dv];
            S[size_t(dk) * V + dv] = acc;
          }
        }
      }
      detail::storeState(l, b, n, h, S, state);
    }
  }
}

} // namespace kda::ref
