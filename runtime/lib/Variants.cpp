//===- Variants.cpp - a bundle's config table variants --------------------===//
#include "Variants.h"

#include "kda/Target/RecurrentRules.h"

#include <sstream>

namespace kda::rt {
namespace mf = kda::manifest;
namespace rules = mlir::kda::rules;

namespace {

std::string describe(const mf::Kernel &k) {
  return "kernel '" + k.name + "' (" + k.target + ")";
}

unsigned configField(const mf::Kernel &k, const char *key, unsigned dflt) {
  auto it = k.config.find(key);
  if (it == k.config.end())
    return dflt;
  // The manifest reader holds config counts to 0 .. 2^31 - 1.
  return unsigned(it->second);
}

/// The manifest's config as the rules read it.
rules::ConfigValues configOf(const mf::Kernel &k) {
  rules::ConfigValues c;
  c.blockK = configField(k, "block_k", 0);
  c.blockV = configField(k, "block_v", 0);
  c.blockT = configField(k, "block_t", 1);
  c.warps = configField(k, "warps", 0);
  c.stages = configField(k, "stages", 1);
  c.lanesK = configField(k, "lanes_k", 0);
  c.ldsStages = configField(k, "lds_stages", 0);
  c.wavesK = configField(k, "waves_k", 1);
  c.vPasses = configField(k, "v_passes", 1);
  c.mma = configField(k, "mma", 0);
  c.sharedTerms = configField(k, "shared_terms", 0);
  return c;
}

/// How `v`'s rows differ from `base`'s ("spec_tokens 3 / 1"): a batch is
/// validated against the base kernel (its slots per row, padding
/// convention and slot stride) and launched on the variant, so they must
/// read rows alike. Empty where they do.
std::string rowDifferences(const mf::Kernel &v, const mf::Kernel &base) {
  const mf::RowVariant x = mf::rowVariantOf(v), y = mf::rowVariantOf(base);
  std::string differ;
  mf::noteDifference(differ, "spec_tokens", x.specTokens, y.specTokens);
  mf::noteDifference(differ, "padding_below", x.paddingBelow, y.paddingBelow);
  mf::noteDifference(differ, "slot_stride", x.slotStride, y.slotStride);
  return differ;
}

} // namespace

std::string checkRecurrentConfig(const mf::Kernel &k) {
  if (k.kind != "recurrent" || k.maxWorkgroupSize == 0)
    return "";
  rules::LayerFacts layer{unsigned(k.layer.headK), unsigned(k.layer.headV),
                          k.state == "f32" ? 4u : 2u,
                          k.layer.stateLayout == "vk"};
  // The matrix atom of an mma = 1 kernel, as the compiler recorded it.
  rules::TargetFacts target{k.target,
                            k.waveSize,
                            k.maxWorkgroupSize,
                            k.staticLdsBytes,
                            configField(k, "mma_n", 0),
                            configField(k, "mma_k", 0)};
  rules::RecurrentPlan plan;
  std::string rule = rules::deriveRecurrentPlan(layer, configOf(k), target,
                                                plan);
  if (!rule.empty())
    return describe(k) + ": config refused: " + rule;
  // The manifest's geometry must be the one its config gives: a config
  // edited alone after compiling is refused, not launched. (Edited together
  // with the geometry it is not: nothing here reads the code object's own
  // facts.)
  std::ostringstream why;
  if (plan.threads() != k.block[0])
    why << "block of " << k.block[0] << " threads, the config gives "
        << plan.threads();
  else if (k.grid[0] != int64_t(plan.gridX()))
    why << "grid x " << k.grid[0] << ", the config gives " << plan.gridX();
  else if (configField(k, "lanes_k", 0) != plan.lanesK ||
           configField(k, "cols_per_thread", 0) != plan.colsPerThread)
    why << "lanes_k " << configField(k, "lanes_k", 0) << " and cols_per_thread "
        << configField(k, "cols_per_thread", 0) << ", the config gives "
        << plan.lanesK << " and " << plan.colsPerThread;
  if (!why.str().empty())
    return describe(k) + ": the compiled kernel does not match its config (" +
           why.str() + ")";
  return "";
}

std::string checkVariants(const mf::Manifest &m) {
  for (const mf::Kernel &k : m.kernels)
    if (std::string why = checkRecurrentConfig(k); !why.empty())
      return why;
  for (size_t i = 0; i < m.kernels.size(); ++i) {
    const mf::Kernel &v = m.kernels[i];
    if (!v.isVariant)
      continue;
    const mf::Kernel *base = m.find(v.variant.of, v.target);
    if (v.kind != "recurrent" || !base || base->kind != "recurrent" ||
        base->isVariant)
      return describe(v) + ": a variant of '" + v.variant.of +
             "', which is no recurrent kernel of " + v.target + " here";
    // It is launched where the base is validated: the same layer, dtypes,
    // optional operands and rows.
    if (std::string d = mf::layerDifferences(v, *base); !d.empty())
      return describe(v) + ": computes another layer or dtypes than '" +
             base->name + "', which it stands in for (variant / base: " + d +
             ")";
    if (!mf::sameUses(v, *base))
      return describe(v) + ": reads other optional operands than '" +
             base->name + "', which it stands in for";
    if (std::string d = rowDifferences(v, *base); !d.empty())
      return describe(v) + ": reads its rows otherwise than '" + base->name +
             "', against which a batch is checked (variant / base: " + d + ")";
    if (v.maxWorkgroupSize == 0)
      return describe(v) + ": a variant without \"limits\" (its config "
                           "cannot be checked)";
    for (size_t j = 0; j < i; ++j) {
      const mf::Kernel &w = m.kernels[j];
      if (w.isVariant && w.target == v.target && w.variant.of == v.variant.of &&
          w.variant.nMin <= v.variant.nMax && v.variant.nMin <= w.variant.nMax)
        return describe(v) + ": its N range " + std::to_string(v.variant.nMin) +
               ".." + std::to_string(v.variant.nMax) + " overlaps '" + w.name +
               "' (" + std::to_string(w.variant.nMin) + ".." +
               std::to_string(w.variant.nMax) + ")";
    }
  }
  return "";
}

void VariantChooser::build(const std::vector<const mf::Kernel *> &kernels) {
  byBase.assign(kernels.size(), {});
  for (size_t i = 0; i < kernels.size(); ++i) {
    if (!kernels[i]->isVariant)
      continue;
    for (size_t b = 0; b < kernels.size(); ++b)
      if (!kernels[b]->isVariant && kernels[b]->name == kernels[i]->variant.of)
        byBase[b].push_back(
            {kernels[i]->variant.nMin, kernels[i]->variant.nMax, i});
  }
}

size_t VariantChooser::choose(size_t base, int64_t numSeqs) const {
  if (base < byBase.size())
    for (const Range &r : byBase[base])
      if (r.nMin <= numSeqs && numSeqs <= r.nMax)
        return r.index;
  return base;
}

} // namespace kda::rt
