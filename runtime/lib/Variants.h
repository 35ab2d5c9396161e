//===- Variants.h - a bundle's config table variants ------------*- C++ -*-===//
//
// kda-compile --config-table compiles, beside a recurrent kernel, one
// variant per entry of kda-tune's table for its target and layer, each for
// a range of sequences per launch (an N bucket; manifest "variant"). The
// runtime checks them when it opens the bundle - every recurrent config
// against the rules of kda/Target/RecurrentRules.h (the compiler's own
// code), the compiled kernel against its config, the buckets against each
// other - and at launch picks the kernel for the batch's N from host data
// alone (no device read, no sync).
//
//===----------------------------------------------------------------------===//
#ifndef KDA_RUNTIME_VARIANTS_H
#define KDA_RUNTIME_VARIANTS_H

#include "Manifest.h"

#include <cstddef>
#include <string>
#include <vector>

namespace kda::rt {

/// Checks the recurrent configs and variants of `m`; empty when sound, else
/// one message naming the kernel and the rule.
std::string checkVariants(const manifest::Manifest &m);

/// The config of recurrent kernel `k` against the rules, with the target
/// limits the manifest records ("limits"; skipped without them), and the
/// compiled kernel's block, grid and lane split against what the rules
/// derive. Empty when sound.
std::string checkRecurrentConfig(const manifest::Kernel &k);

/// Which of a bundle's kernels runs a recurrent launch of N sequences.
class VariantChooser {
public:
  /// `kernels`: the kernels of the bundle's target, in the bundle's order.
  void build(const std::vector<const manifest::Kernel *> &kernels);
  /// The index (into `kernels`) of the kernel that runs a launch of kernel
  /// `base` with `numSeqs` sequences: its variant for that N, else itself.
  size_t choose(size_t base, int64_t numSeqs) const;

private:
  struct Range {
    int64_t nMin, nMax;
    size_t index;
  };
  std::vector<std::vector<Range>> byBase;
};

} // namespace kda::rt

#endif // KDA_RUNTIME_VARIANTS_H
