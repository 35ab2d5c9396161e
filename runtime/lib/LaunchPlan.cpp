//===- LaunchPlan.cpp - kernel launches executed in order on one stream ---===//
#include "LaunchPlan.h"

#include <cassert>

namespace kda::rt {

kda_status LaunchPlan::run(Backend &backend, void *stream, std::string &error,
                           size_t first, size_t count) const {
  assert(first + count <= launches.size() && "launch range inside the plan");
  for (size_t i = first; i < first + count; ++i) {
    const PlannedLaunch &l = launches[i];
    // kernelParams convention: params[j] points at the value of argument j.
    // The values are copied so a plan stays reusable and const.
    std::vector<void *> values = l.values;
    std::vector<void *> params(values.size());
    for (size_t j = 0; j < values.size(); ++j)
      params[j] = &values[j];
    std::string why;
    if (kda_status s = backend.launch(l.handle, l.dims, stream,
                                      params.data(), why)) {
      error = "launch " + std::to_string(i + 1) + " of " +
              std::to_string(launches.size()) + " (kernel " + l.kernel +
              "): " + why;
      return s;
    }
  }
  return KDA_OK;
}

} // namespace kda::rt
