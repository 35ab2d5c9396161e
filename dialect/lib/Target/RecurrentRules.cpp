//===- RecurrentRules.cpp - the recurrent kernel's config rules -----------===//
//
// Plain C++17 (no LLVM): compiled into the target table library for the
// compiler and into the runtime, which checks a bundle's config table with
// exactly these rules.
//
//===----------------------------------------------------------------------===//
#include "kda/Target/RecurrentRules.h"

#include <sstream>

namespace mlir::kda::rules {

static bool isPow2(unsigned x) { return x != 0 && (x & (x - 1)) == 0; }

std::string checkConfigRanges(const ConfigValues &c) {
  std::ostringstream os;
  // Block sizes along a head dim may be any size up to the largest head: a
  // kernel covering a head of 60 or 100 uses a block of that size, or masks
  // the tail of a larger one.
  for (auto [name, v] : {std::pair<const char *, unsigned>{"block_k", c.blockK},
                         {"block_v", c.blockV}})
    if (v == 0 || v > 256) {
      os << name << " must be in [1, 256], got " << v;
      return os.str();
    }
  if (!isPow2(c.blockT) || c.blockT > 256)
    os << "block_t must be a power of two in [1, 256], got " << c.blockT;
  else if (c.warps == 0 || c.warps > 32)
    os << "warps must be in [1, 32], got " << c.warps;
  else if (c.stages == 0 || c.stages > 8)
    os << "stages must be in [1, 8], got " << c.stages;
  else if (c.lanesK != 0 && (!isPow2(c.lanesK) || c.lanesK > 64))
    os << "lanes_k must be a power of two up to 64, got " << c.lanesK;
  else if (c.ldsStages > 4)
    os << "lds_stages must be in [0, 4], got " << c.ldsStages;
  else if (!isPow2(c.wavesK) || c.warps % c.wavesK != 0)
    os << "waves_k must be a power of two dividing warps (" << c.warps
       << "), got " << c.wavesK;
  else if (c.vPasses == 0 || c.vPasses > 8)
    os << "v_passes must be in [1, 8], got " << c.vPasses;
  else if (c.mma > 1)
    os << "mma must be 0 or 1, got " << c.mma;
  else if (c.sharedTerms > 1)
    os << "shared_terms must be 0 or 1, got " << c.sharedTerms;
  return os.str();
}

// mma = 1: each wave takes colsPerThread n-tiles of mmaN columns; a lane
// holds, per n-tile, one column's k-run of K / lanesK (its B fragments of
// every k step, the atom's k order permuted so that the run is contiguous
// in memory), so runs of 8 bf16 (16 bytes) need K / lanesK % 8 == 0.
static std::string deriveMmaPlan(const LayerFacts &layer, const ConfigValues &c,
                                 const TargetFacts &t, RecurrentPlan &s) {
  std::ostringstream os;
  const unsigned K = layer.headK, V = layer.headV;
  if (t.mmaN == 0 || t.mmaK == 0)
    os << "mma = 1 needs a bf16 matrix atom with m = 16, and " << t.name
       << " has none";
  else if (t.waveSize == 0 || t.waveSize % t.mmaN != 0)
    // The atom's columns share the wave's lanes (a manifest read by the
    // runtime states n: one past the wave would divide by zero below).
    os << "mma = 1: the atom's n (" << t.mmaN << ") must divide the wave ("
       << t.waveSize << ")";
  else if (layer.stateBytes != 2)
    os << "mma = 1 takes a bf16 state pool (the state is the atom's exact "
          "operand), got an f32 state";
  else if (!layer.vk)
    os << "mma = 1 takes the vk state layout (k-runs contiguous in memory)";
  else if (c.wavesK != 1 || c.vPasses != 1 || c.ldsStages != 0)
    os << "mma = 1 takes waves_k = 1, v_passes = 1 and lds_stages = 0, got "
       << c.wavesK << ", " << c.vPasses << " and " << c.ldsStages;
  else if (c.lanesK != 0 && c.lanesK != t.waveSize / t.mmaN)
    os << "mma = 1: lanes_k is the atom's " << t.waveSize / t.mmaN
       << " lanes a column, got " << c.lanesK;
  else if (K % t.mmaK != 0 || K % t.waveSize != 0 ||
           (K / (t.waveSize / t.mmaN)) % 8 != 0)
    os << "mma = 1: head_k (" << K << ") must be a multiple of the atom's k ("
       << t.mmaK << "), of the wave (" << t.waveSize << ", one k a lane in "
       << "the token terms) and of " << t.waveSize / t.mmaN
       << " runs of 8 k (16 bytes)";
  else if (c.blockV % (c.warps * t.mmaN) != 0 || V % c.blockV != 0)
    os << "mma = 1: block_v (" << c.blockV << ") must be a multiple of "
       << c.warps << " waves x the atom's n (" << t.mmaN
       << ") and divide head_v (" << V << ")";
  if (!os.str().empty())
    return os.str();
  s.mma = true;
  s.mmaN = t.mmaN;
  s.mmaK = t.mmaK;
  s.lanesK = t.waveSize / t.mmaN;
  s.vPasses = 1;
  s.colsPerThread = c.blockV / (c.warps * t.mmaN);
  s.elemsK = K / s.lanesK;
  if (s.mmaLdsBytes() > t.staticLdsBytes)
    os << "mma = 1: the token terms need " << s.mmaLdsBytes()
       << " bytes of LDS, more than the " << t.staticLdsBytes
       << " a kernel may declare statically on " << t.name;
  return os.str();
}

std::string sharedTermsRule(const ConfigValues &c, unsigned waveSize) {
  // Lane groups of a workgroup that read the same k of a token: one a
  // column group (lanes_k x waves_k lanes split a column's k), so
  // warps x wave / (lanes_k x waves_k) of them.
  const unsigned groups =
      c.lanesK && c.wavesK ? c.warps * waveSize / (c.lanesK * c.wavesK) : 0;
  if (c.ldsStages == 0 && (c.vPasses >= 2 || groups >= 2))
    return "";
  std::ostringstream os;
  os << "shared_terms = 1 computes a row's first token's terms once a "
        "workgroup for the passes and column groups that would each compute "
        "them: it takes lds_stages = 0 and v_passes > 1 or more than one "
        "column group (warps x wave / (lanes_k x waves_k)), got lds_stages "
     << c.ldsStages << ", v_passes " << c.vPasses << " and " << groups
     << " column group" << (groups == 1 ? "" : "s");
  return os.str();
}

unsigned fewestLanes(unsigned waveSize, unsigned V) {
  unsigned lanes = 1;
  while (lanes < waveSize && waveSize / lanes > V)
    lanes *= 2;
  return lanes;
}

std::string deriveRecurrentPlan(const LayerFacts &layer, const ConfigValues &c,
                                const TargetFacts &t, RecurrentPlan &s) {
  std::ostringstream os;
  if (std::string ranges = checkConfigRanges(c); !ranges.empty())
    return ranges;
  const unsigned K = layer.headK, V = layer.headV;
  s = RecurrentPlan{};
  s.waveSize = t.waveSize;
  s.warps = c.warps;
  s.blockV = c.blockV;
  s.headK = K;
  s.headV = V;
  s.wavesK = c.wavesK;
  if (c.blockK != K)
    os << "the recurrent kernel keeps whole columns: block_k must be head_k ("
       << K << "), got " << c.blockK;
  else if (c.blockT != 1 || c.stages != 1)
    os << "the recurrent kernel takes block_t = 1 and stages = 1";
  else if (c.blockV > V)
    os << "block_v (" << c.blockV << ") exceeds head_v (" << V << ")";
  else if (s.threads() > t.maxWorkgroupSize)
    os << s.warps << " waves of " << t.waveSize << " exceed the "
       << t.maxWorkgroupSize << "-thread workgroup limit of " << t.name;
  if (!os.str().empty())
    return os.str();
  if (c.mma && c.sharedTerms)
    os << "shared_terms = 1 takes the FMA column sums (mma = 0): with mma = 1 "
          "each wave already computes a token's terms once";
  if (!os.str().empty())
    return os.str();
  if (c.mma)
    return deriveMmaPlan(layer, c, t, s);
  if (s.wavesK > 1 && c.lanesK == 0)
    os << "waves_k = " << s.wavesK
       << " needs lanes_k (the lanes of one wave sharing a column)";
  else if (c.lanesK == 0 && s.threads() % s.blockV != 0)
    os << "block_v (" << s.blockV << ") must divide the " << s.threads()
       << " threads of a workgroup";
  if (!os.str().empty())
    return os.str();
  s.lanesK = c.lanesK ? c.lanesK : s.threads() / s.blockV;
  if (!isPow2(s.lanesK) || s.lanesK > t.waveSize)
    os << "each column needs a power-of-two number of lanes within one wave "
          "of "
       << t.waveSize << ", got " << s.lanesK;
  else if (s.lanesK * s.wavesK > K &&
           !(s.wavesK == 1 && s.lanesK == fewestLanes(t.waveSize, V)))
    os << s.lanesK << " lanes x " << s.wavesK
       << " waves per column exceed head_k (" << K
       << "): every lane needs a k (lanes past head_k are taken only where "
          "fewer would give a wave more columns than head_v: waves_k = 1, "
          "lanes_k = "
       << fewestLanes(t.waveSize, V) << ")";
  else if (s.gridCols() == 0 || s.blockV % (s.gridCols() * c.vPasses) != 0)
    os << "block_v (" << s.blockV << ") must be a multiple of the "
       << s.gridCols() << " columns " << s.threads() << " threads of "
       << s.lanesK << " lanes cover"
       << (c.vPasses > 1 ? " times v_passes (" + std::to_string(c.vPasses) + ")"
                         : std::string());
  else if (c.vPasses > 1 && c.ldsStages > 0)
    os << "v_passes (" << c.vPasses
       << ") needs direct token loads: the LDS token ring (lds_stages = "
       << c.ldsStages << ") is one pipeline over the tokens of one pass";
  if (!os.str().empty())
    return os.str();
  s.vPasses = c.vPasses;
  s.colsPerThread = s.blockV / (s.gridCols() * s.vPasses);
  s.ldsStages = c.ldsStages;
  s.elemsK = (K + s.lanesK * s.wavesK - 1) / (s.lanesK * s.wavesK);
  if (c.sharedTerms) {
    ConfigValues derived = c; // lanes_k as derived when the config omits it
    derived.lanesK = s.lanesK;
    if (std::string rule = sharedTermsRule(derived, t.waveSize); !rule.empty())
      return rule;
  }
  s.sharedTerms = c.sharedTerms != 0;
  if (s.exchangeBytes() > t.staticLdsBytes)
    os << "the cross-wave exchange needs " << s.exchangeBytes()
       << " bytes of LDS, more than the " << t.staticLdsBytes
       << " a kernel may declare statically on " << t.name;
  else if (s.sharedTermsLdsBytes() > t.staticLdsBytes)
    os << "shared_terms = 1: the token terms need " << s.sharedTermsLdsBytes()
       << " bytes of LDS, more than the " << t.staticLdsBytes
       << " a kernel may declare statically on " << t.name;
  return os.str();
}

} // namespace mlir::kda::rules
