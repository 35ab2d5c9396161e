//===- Prepared.h - per-token activations shared by both oracles -*- C++ -*-===//
#ifndef KDA_ORACLE_PREPARED_H
#define KDA_ORACLE_PREPARED_H

#include "kda/Oracle/Reference.h"
#include <algorithm>
#include <vector>

namespace kda::ref::detail {

/// One token of one value head after the in-kernel activations: q normalised
/// and scaled, k normalised, g the log decay, beta activated.
struct TokenHead {
  std::vector<double> q, k, g, v;
  double beta = 0;
};

void checkOrThrow(const Layer &l, const Batch &b, int64_t numSlots);
TokenHead prepare(const Layer &l, const Batch &b, int64_t t, int h);
/// S (K x V, row-major) of sequence n, head h: the slot's state, or zeros
/// when the sequence has no initial state.
void loadState(const Layer &l, const Batch &b, int n, int h, const double *pool,
               std::vector<double> &S);
void storeState(const Layer &l, const Batch &b, int n, int h,
                const std::vector<double> &S, double *pool);

/// Calls fn(n, h, bos, eos) for every (sequence, value head) with a state
/// slot; a padding sequence's rows (slot <= 0) get zero outputs instead.
template <typename Fn>
void forEachSequenceHead(const Layer &l, const Batch &b, double *out, Fn fn) {
  for (int n = 0; n < b.numSequences(); ++n) {
    const int64_t bos = b.cuSeqlens[n], eos = b.cuSeqlens[n + 1];
    for (int h = 0; h < l.HV; ++h) {
      if (b.slots[n] > 0) {
        fn(n, h, bos, eos);
        continue;
      }
      for (int64_t t = bos; t < eos; ++t)
        std::fill_n(out + (t * l.HV + h) * l.V, l.V, 0.0);
    }
  }
}

} // namespace kda::ref::detail

#endif // KDA_ORACLE_PREPARED_H
