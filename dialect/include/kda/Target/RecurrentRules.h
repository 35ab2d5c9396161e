//===- RecurrentRules.h - the recurrent kernel's config rules ----*- C++ -*-===//
//
// The rules a #kda.config must satisfy for the recurrent (decode) kernel, in
// plain C++17 with no LLVM: the compiler's kernel builder derives its
// schedule here, kda-tune enumerates candidates through it, and the runtime
// checks every config table entry of a bundle with the same code when it
// opens it. A rule that fails returns its message naming the rule and the
// values; the pipeline hazard rules of lds_stages (R0-R6) stay with the
// verifier (kda-verify-pipeline), which kda-compile and kda-tune run.
//
// Head dims need not be powers of two: a column's k is spread over
// lanes_k x waves_k lanes of ceil(K / (lanes_k x waves_k)) k each, the k past
// head_k masked; the grid covers ceil(V / block_v) blocks of columns, the
// columns past head_v masked.
//
//===----------------------------------------------------------------------===//
#ifndef KDA_TARGET_RECURRENTRULES_H
#define KDA_TARGET_RECURRENTRULES_H

#include <algorithm>
#include <cstdint>
#include <string>

namespace mlir::kda::rules {

/// What the rules need of a layer.
struct LayerFacts {
  unsigned headK = 0, headV = 0;
  unsigned stateBytes = 4; // 4 (f32) or 2 (bf16)
  bool vk = true;          // state layout vk ([V, K]) or kv ([K, V])
};

/// What the rules need of a target (a row of the target table).
struct TargetFacts {
  std::string name;
  unsigned waveSize = 0, maxWorkgroupSize = 0, staticLdsBytes = 0;
  /// The n and k of the matrix atom the recurrent kernel takes with
  /// mma = 1 (bf16 operands, f32 accumulator, m = 16; the compiler picks
  /// it from the atom table, the manifest records it); 0 without one.
  unsigned mmaN = 0, mmaK = 0;
};

/// The integer fields of a #kda.config.
struct ConfigValues {
  unsigned blockK = 0, blockV = 0, blockT = 1, warps = 1, stages = 1;
  unsigned lanesK = 0, ldsStages = 0, wavesK = 1, vPasses = 1, mma = 0;
  unsigned sharedTerms = 0;
  bool operator==(const ConfigValues &o) const {
    return blockK == o.blockK && blockV == o.blockV && blockT == o.blockT &&
           warps == o.warps && stages == o.stages && lanesK == o.lanesK &&
           ldsStages == o.ldsStages && wavesK == o.wavesK &&
           vPasses == o.vPasses && mma == o.mma && sharedTerms == o.sharedTerms;
  }
};

/// The decode kernel's schedule, derived from a config, layer and target.
struct RecurrentPlan {
  unsigned waveSize = 0;
  unsigned warps = 0;         // waves per workgroup
  unsigned blockV = 0;        // state columns per workgroup
  unsigned lanesK = 0;        // lanes of one wave sharing one column
  unsigned wavesK = 1;        // waves sharing one column (k split across them)
  unsigned elemsK = 0;        // k per lane = ceil(K / (lanesK * wavesK))
  unsigned colsPerThread = 0; // columns each lane owns in one pass
  unsigned vPasses = 1;       // passes over the block's columns
  unsigned ldsStages = 0;     // depth of the LDS token pipeline (0: none)
  /// mma = 1: the column sums by the matrix atom (mmaN x mmaK of the
  /// target). A wave's lanes then hold B fragments of mmaN columns; lanesK
  /// (waveSize / mmaN) lanes share a column, each a contiguous k-run of
  /// elemsK (K / lanesK), and colsPerThread is the n-tiles a wave takes.
  bool mma = false;
  unsigned mmaN = 0, mmaK = 0;
  /// shared_terms = 1: a row's first token's terms (decays, normalised k
  /// and q, k.q, beta) computed once a workgroup into LDS before the
  /// v_passes, each pass reading its lanes' k-runs back (sharedTermsRule).
  bool sharedTerms = false;
  unsigned headK = 0, headV = 0;
  unsigned threads() const { return warps * waveSize; }
  unsigned colsPerWave() const { return waveSize / lanesK; }
  /// Columns of one pass (block_v / vPasses).
  unsigned passCols() const { return blockV / vPasses; }
  /// Distinct columns the lane grid covers at once.
  unsigned gridCols() const { return threads() / (lanesK * wavesK); }
  /// k the lanes of a column cover; past head_k they are masked.
  unsigned coveredK() const { return lanesK * wavesK * elemsK; }
  bool maskK() const { return coveredK() != headK; }
  /// Workgroups along the columns: the last block's columns past head_v
  /// are masked.
  unsigned gridX() const { return (headV + blockV - 1) / blockV; }
  bool maskV() const { return headV % blockV != 0; }
  /// f32 values one lane contributes to a token's cross-wave reduction:
  /// S'^T k and S'^T q per column, k.q and the q and k norms.
  unsigned exchangeValues() const { return 2 * colsPerThread + 3; }
  /// Bytes of the cross-wave exchange: two regions (tokens alternate) of
  /// wavesK x gridCols x exchangeValues floats; none when wavesK == 1.
  unsigned exchangeBytes() const {
    return wavesK == 1 ? 0 : 2 * wavesK * gridCols() * exchangeValues() * 4;
  }
  /// mma = 1: f32 words of one wave's LDS (each wave computes its own
  /// token terms): two regions of terms (tokens alternate), each the split
  /// words of the decayed k and q and the decays and k, K each; then rows 0
  /// and 1 of the atom's result (S'^T k and S'^T q) for the wave's columns.
  unsigned mmaWaveWords() const {
    return 2 * 4 * headK + 2 * colsPerThread * mmaN;
  }
  unsigned mmaLdsBytes() const { return mma ? warps * mmaWaveWords() * 4 : 0; }
  /// sharedTerms: the decays, k and q (head_k each), then k.q and beta.
  unsigned sharedTermsLdsBytes() const {
    return sharedTerms ? (3 * headK + 2) * 4 : 0;
  }
};

/// The ranges of a #kda.config's fields on their own (what the attribute's
/// verifier checks). Empty on success, else the rule.
std::string checkConfigRanges(const ConfigValues &c);

/// Where shared_terms = 1 means something: a row's first token's terms
/// (decays, normalised k and q, k.q, beta) computed once a workgroup into
/// LDS where more than one pass (v_passes > 1) or more than one column
/// group of lanes (warps x waveSize / (lanes_k x waves_k) > 1) would each
/// compute them, with direct token loads. With waves_k > 1 each wave reads
/// its share of k and the norms come normalised from LDS, so the token's
/// exchange carries the column sums only. Empty when `c` is such a config,
/// else the rule (deriveRecurrentPlan refuses shared_terms = 1 with it;
/// kda-tune enumerates it only where it is empty).
std::string sharedTermsRule(const ConfigValues &c, unsigned waveSize);

/// The fewest lanes (a power of two, at most a wave) a column takes so
/// that one wave covers no more columns than head_v has. Where that is
/// more lanes than head_k (K 12, V 3 on a wave of 32), the lanes past
/// head_k hold no k (their runs clamp to none): the one config past head_k
/// the rules accept, and the least the default config takes.
unsigned fewestLanes(unsigned waveSize, unsigned V);

/// Checks `c` for the recurrent kernel of `layer` on `target` and derives
/// `plan`. Empty on success, else the rule that fails with its values.
std::string deriveRecurrentPlan(const LayerFacts &layer, const ConfigValues &c,
                                const TargetFacts &target, RecurrentPlan &plan);

/// The largest power of two dividing `x` (x > 0).
inline unsigned pow2Part(uint64_t x) { return unsigned(x & (~x + 1)); }

/// Bytes of alignment of an access to elements `elemBytes` wide at an
/// element offset that is a multiple of `multiple`, from a 16-byte aligned
/// base; capped at 16 (the widest access the kernels make).
inline unsigned accessAlignment(unsigned elemBytes, uint64_t multiple) {
  return unsigned(std::min<uint64_t>(16, uint64_t(elemBytes) * pow2Part(multiple)));
}

} // namespace mlir::kda::rules

#endif // KDA_TARGET_RECURRENTRULES_H
