//===- Chunked.cpp - the chunked form of KDA in float64 -------------------===//
//
// KDA-MATH.md section 2, written for clarity rather than speed. Every decay
// factor is exp(Gamma_i - Gamma_j) with j <= i (never exp(Gamma_i) *
// exp(-Gamma_j)), so it stays <= 1 whatever the gate.
//
// `segmented` is the same algebra with the scan split within a sequence
// (issue 8, point 5): a chunk maps a state S to A_c S + B_c, with
// A_c = diag(exp Gamma_last) - Kd^T W and B_c = Kd^T U (Kd = k o
// exp(Gamma_last - Gamma)), so a segment of chunks maps S to M S + B with
// (M, B) the chunks' maps composed from (I, 0), each segment independently;
// a serial pass over the segments gives each one's entering state, and the
// segments' outputs then need only that state.
//
//===----------------------------------------------------------------------===//
#include "Prepared.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace kda::ref {
namespace {

using Mat = std::vector<double>; // row-major

/// What a chunk of L rows (token c0 on, value head h) contributes: the
/// intra-chunk matrices, W and U (KDA-MATH.md section 2).
struct ChunkTerms {
  int L = 0, K = 0, V = 0;
  std::vector<detail::TokenHead> rows;
  Mat Gam, Aqk, W, U; // L x K, L x L, L x K, L x V
};

ChunkTerms chunkTerms(const Layer &l, const Batch &b, int64_t c0, int L,
                      int h) {
  ChunkTerms c;
  c.L = L, c.K = l.K, c.V = l.V;
  const int K = l.K, V = l.V;
  for (int i = 0; i < L; ++i)
    c.rows.push_back(detail::prepare(l, b, c0 + i, h));
  const auto &rows = c.rows;
  // Gamma_i = sum_{j <= i} g_j
  c.Gam.assign(size_t(L) * K, 0.0);
  Mat &Gam = c.Gam;
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
  Mat Akk(size_t(L) * L, 0.0);
  c.Aqk.assign(size_t(L) * L, 0.0);
  for (int i = 0; i < L; ++i)
    for (int j = 0; j <= i; ++j) {
      if (j < i)
        Akk[i * L + j] = rows[i].beta * decayDot(rows[i].k, i, rows[j].k, j);
      c.Aqk[i * L + j] = decayDot(rows[i].q, i, rows[j].k, j);
    }
  // W = (I + Akk)^-1 diag(b) (K o exp Gamma), U = (I + Akk)^-1 diag(b) V,
  // by forward substitution (I + Akk is unit lower triangular).
  c.W.assign(size_t(L) * K, 0.0);
  c.U.assign(size_t(L) * V, 0.0);
  for (int i = 0; i < L; ++i) {
    for (int d = 0; d < K; ++d) {
      double x = rows[i].beta * rows[i].k[d] * std::exp(Gam[i * K + d]);
      for (int j = 0; j < i; ++j)
        x -= Akk[i * L + j] * c.W[j * K + d];
      c.W[i * K + d] = x;
    }
    for (int d = 0; d < V; ++d) {
      double x = rows[i].beta * rows[i].v[d];
      for (int j = 0; j < i; ++j)
        x -= Akk[i * L + j] * c.U[j * V + d];
      c.U[i * V + d] = x;
    }
  }
  return c;
}

/// X (K x cols, row-major) <- diag(exp Gamma_last) X + Kd^T (U' - W X),
/// U' = U when `withU`, else 0: the state update for X = S, the chunk's
/// transition applied to X for U' = 0. Returns Vnew = U' - W X (L x cols).
Mat advance(const ChunkTerms &c, Mat &X, int cols, bool withU) {
  const int L = c.L, K = c.K;
  Mat Vnew(size_t(L) * cols);
  for (int i = 0; i < L; ++i)
    for (int x = 0; x < cols; ++x) {
      double acc = 0;
      for (int dk = 0; dk < K; ++dk)
        acc += c.W[i * K + dk] * X[size_t(dk) * cols + x];
      Vnew[i * cols + x] = (withU ? c.U[i * c.V + x] : 0.0) - acc;
    }
  // S_next = diag(exp Gamma_last) S0 + sum_j (k_j o exp(Gamma_last -
  // Gamma_j)) Vnew_j^T
  const int last = L - 1;
  for (int dk = 0; dk < K; ++dk) {
    const double gl = c.Gam[last * K + dk];
    for (int x = 0; x < cols; ++x) {
      double acc = std::exp(gl) * X[size_t(dk) * cols + x];
      for (int j = 0; j < L; ++j)
        acc += c.rows[j].k[dk] * std::exp(gl - c.Gam[j * K + dk]) *
               Vnew[j * cols + x];
      X[size_t(dk) * cols + x] = acc;
    }
  }
  return Vnew;
}

/// The chunk's outputs from its entering state S0 (K x V) and Vnew:
/// O_i = (q_i o exp Gamma_i)^T S0 + sum_{j <= i} Aqk[i,j] Vnew_j (q already
/// carries the scale); rows of `out` are token c0 + i, head h.
void outputs(const Layer &l, const ChunkTerms &c, const Mat &S0,
             const Mat &Vnew, int64_t c0, int h, double *out) {
  const int L = c.L, K = c.K, V = c.V;
  for (int i = 0; i < L; ++i) {
    double *o = out + ((c0 + i) * l.HV + h) * V;
    for (int dv = 0; dv < V; ++dv) {
      double acc = 0;
      for (int dk = 0; dk < K; ++dk)
        acc += c.rows[i].q[dk] * std::exp(c.Gam[i * K + dk]) *
               S0[size_t(dk) * V + dv];
      for (int j = 0; j <= i; ++j)
        acc += c.Aqk[i * L + j] * Vnew[j * V + dv];
      o[dv] = acc;
    }
  }
}

/// Runs chunks [c0, c1) of a sequence from S (updated in place), writing
/// their outputs.
void scan(const Layer &l, const Batch &b, int C, int64_t c0, int64_t c1, int h,
          Mat &S, double *out) {
  for (int64_t t = c0; t < c1; t += C) {
    ChunkTerms c = chunkTerms(l, b, t, int(std::min<int64_t>(C, c1 - t)), h);
    Mat S0 = S;
    Mat Vnew = advance(c, S, l.V, /*withU=*/true);
    outputs(l, c, S0, Vnew, t, h, out);
  }
}

} // namespace

void chunked(const Layer &l, const Batch &b, int chunkSize, double *state,
             int64_t numSlots, double *out) {
  if (chunkSize <= 0)
    throw std::invalid_argument("kda oracle: chunk size must be positive");
  detail::checkOrThrow(l, b, numSlots);
  Mat S;
  detail::forEachSequenceHead(l, b, out,
                              [&](int n, int h, int64_t bos, int64_t eos) {
                                detail::loadState(l, b, n, h, state, S);
                                scan(l, b, chunkSize, bos, eos, h, S, out);
                                detail::storeState(l, b, n, h, S, state);
                              });
}

void segmented(const Layer &l, const Batch &b, int chunkSize, int segmentChunks,
               double *state, int64_t numSlots, double *out) {
  if (chunkSize <= 0 || segmentChunks <= 0)
    throw std::invalid_argument(
        "kda oracle: chunk size and chunks a segment must be positive");
  detail::checkOrThrow(l, b, numSlots);
  const int K = l.K, V = l.V;
  const int64_t segRows = int64_t(chunkSize) * segmentChunks;
  Mat S;
  detail::forEachSequenceHead(
      l, b, out, [&](int n, int h, int64_t bos, int64_t eos) {
        // Phase 1, each segment on its own: (M, B) composed from (I, 0) as
        // one K x (K + V) matrix [M | B]; M's columns take U' = 0.
        std::vector<Mat> Ms, Bs;
        for (int64_t s0 = bos; s0 < eos; s0 += segRows) {
          const int64_t s1 = std::min(eos, s0 + segRows);
          Mat M(size_t(K) * K, 0.0), B(size_t(K) * V, 0.0);
          for (int d = 0; d < K; ++d)
            M[size_t(d) * K + d] = 1.0;
          for (int64_t t = s0; t < s1; t += chunkSize) {
            ChunkTerms c = chunkTerms(
                l, b, t, int(std::min<int64_t>(chunkSize, s1 - t)), h);
            advance(c, M, K, /*withU=*/false);
            advance(c, B, V, /*withU=*/true);
          }
          Ms.push_back(std::move(M));
          Bs.push_back(std::move(B));
        }
        // Phase 2, serial over segments: S_{p+1} = M_p S_p + B_p.
        detail::loadState(l, b, n, h, state, S);
        std::vector<Mat> entering;
        for (size_t p = 0; p < Ms.size(); ++p) {
          entering.push_back(S);
          Mat next = Bs[p];
          for (int i = 0; i < K; ++i)
            for (int j = 0; j < K; ++j)
              for (int x = 0; x < V; ++x)
                next[size_t(i) * V + x] +=
                    Ms[p][size_t(i) * K + j] * S[size_t(j) * V + x];
          S = std::move(next);
        }
        // Phase 3, each segment on its own: its outputs from its entering
        // state (its final state is the next one's entering state).
        for (size_t p = 0; p < entering.size(); ++p) {
          const int64_t s0 = bos + int64_t(p) * segRows;
          Mat Sp = entering[p];
          scan(l, b, chunkSize, s0, std::min(eos, s0 + segRows), h, Sp, out);
        }
        detail::storeState(l, b, n, h, S, state);
      });
}

} // namespace kda::ref
