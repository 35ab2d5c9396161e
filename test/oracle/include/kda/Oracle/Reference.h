//===- Reference.h - float64 KDA oracle -------------------------*- C++ -*-===//
//
// The ground truth of every kda test and benchmark: KDA evaluated in float64,
// token by token (KDA-MATH.md section 1), and separately by the chunked form
// (section 2) as an independent check of that algebra and as the algorithm
// reference for kernel writers. Not used by the runtime.
//
//===----------------------------------------------------------------------===//
#ifndef KDA_ORACLE_REFERENCE_H
#define KDA_ORACLE_REFERENCE_H

#include <cstdint>
#include <string>
#include <vector>

namespace kda::ref {

enum class Gate { None, Softplus, LowerBound };
enum class Beta { Sigmoid, Given, SigmoidX2 };
enum class Layout { KV, VK };

/// What #kda.layer says, in plain C++.
struct Layer {
  int H = 1, HV = 1, K = 1, V = 1;
  Gate gate = Gate::None;
  double lowerBound = 0;    // lb < 0 for Gate::LowerBound
  Beta beta = Beta::Sigmoid;
  bool qkL2norm = false;
  double scale = 0;         // <= 0: K^-1/2
  Layout layout = Layout::KV;

  double effectiveScale() const;
  int groupSize() const { return HV / H; }
  /// Elements of one slot of the state pool (HV * K * V).
  int64_t slotElems() const { return int64_t(HV) * K * V; }
  /// Offset of S[d_k][d_v] of head h inside one slot, honouring the layout.
  int64_t stateIndex(int h, int dk, int dv) const {
    return layout == Layout::KV ? (int64_t(h) * K + dk) * V + dv
                                : (int64_t(h) * V + dv) * K + dk;
  }
};

/// A packed varlen batch in float64 (KDA-MATH.md section 4), token-major.
struct Batch {
  int64_t T = 0;                     // total tokens
  std::vector<double> q, k;          // [T, H, K]
  std::vector<double> v;             // [T, HV, V]
  std::vector<double> g;             // [T, HV, K] raw gate input
  std::vector<double> beta;          // [T, HV] raw beta input
  std::vector<double> aLog;          // [HV] (empty: absent)
  std::vector<double> dtBias;        // [HV * K] (empty: absent)
  std::vector<int32_t> cuSeqlens;    // [N + 1]
  std::vector<int32_t> slots;        // [N]; <= 0 marks padding
  std::vector<uint8_t> hasInitialState; // [N]
  int numSequences() const { return int(cuSeqlens.size()) - 1; }
};

/// Describes what is wrong with a batch for this layer and a pool of
/// `numSlots` slots, or returns "" when it is valid.
std::string validate(const Layer &layer, const Batch &batch, int64_t numSlots);

/// g_t[d] for token t, value head h (the log decay, <= 0).
double gateValue(const Layer &layer, const Batch &batch, int64_t t, int h, int d);
/// The activated beta of token t, value head h.
double betaValue(const Layer &layer, const Batch &batch, int64_t t, int h);

/// Token-serial recurrence. `state` is the pool (numSlots slots, layout of the
/// layer), updated in place for non-padding sequences; `out` is [T, HV, V],
/// every element written. Throws std::invalid_argument on an invalid batch,
/// before touching `state` or `out`.
void recurrent(const Layer &layer, const Batch &batch, double *state,
               int64_t numSlots, double *out);

/// The chunked form with chunks of `chunkSize` rows; same contract.
void chunked(const Layer &layer, const Batch &batch, int chunkSize,
             double *state, int64_t numSlots, double *out);
/// The chunked form with the state scan split within each sequence into
/// segments of `segmentChunks` chunks (issue 8, point 5): each segment's
/// map S -> M S + B composed on its own, a serial pass over the segments
/// for their entering states, then each segment's outputs from its entering
/// state. Same contract; the algebra a split-scan kernel set must match.
void segmented(const Layer &layer, const Batch &batch, int chunkSize,
               int segmentChunks, double *state, int64_t numSlots, double *out);

/// ||a - b|| / ||b|| over n elements (0 when both are 0; inf on NaN).
double relativeL2(const double *a, const double *b, int64_t n);

} // namespace kda::ref

#endif // KDA_ORACLE_REFERENCE_H
