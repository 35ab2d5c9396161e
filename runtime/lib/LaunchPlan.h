//===- LaunchPlan.h - kernel launches executed in order on one stream -*- C++ -*-===//
//
// Every launch of the runtime goes through a plan: a recurrent launch is a
// plan of one, kda_launch_named another, and the chunk (prefill) path strings
// several kernels (and their workspace) together. Arguments are packed when
// a launch is added - each already validated and put in the kernel's ABI
// order by name - so running a plan only hands them to the backend.
//
//===----------------------------------------------------------------------===//
#ifndef KDA_RUNTIME_LAUNCHPLAN_H
#define KDA_RUNTIME_LAUNCHPLAN_H

#include "Backend.h"

#include <string>
#include <vector>

namespace kda::rt {

/// One kernel launch, its arguments in the kernel's parameter order.
struct PlannedLaunch {
  std::string kernel; // for messages
  std::string symbol; // the code object's entry point (kda_plan_kernel_symbol)
  KernelHandle handle = nullptr;
  LaunchDims dims{};
  std::vector<void *> values; // one pointer per ABI argument
};

class LaunchPlan {
public:
  void add(PlannedLaunch launch) { launches.push_back(std::move(launch)); }
  size_t size() const { return launches.size(); }
  bool empty() const { return launches.empty(); }
  const PlannedLaunch &operator[](size_t i) const { return launches[i]; }

  /// Enqueues every launch in order on `stream`. Stream order is the only
  /// ordering between them: a launch sees everything the earlier ones wrote.
  /// A backend refusal stops the plan (the launches before it are already
  /// enqueued) and `error` says which launch.
  kda_status run(Backend &backend, void *stream, std::string &error) const {
    return run(backend, stream, error, 0, launches.size());
  }
  /// The same for launches [first, first + count), which must lie inside
  /// the plan.
  kda_status run(Backend &backend, void *stream, std::string &error,
                 size_t first, size_t count) const;

private:
  std::vector<PlannedLaunch> launches;
};

} // namespace kda::rt

#endif // KDA_RUNTIME_LAUNCHPLAN_H
