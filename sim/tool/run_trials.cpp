// One TBB task per trial; grain size 1 because one trial is milliseconds to seconds of work.
#include "run_trials.hpp"

#include <tbb/global_control.h>
#include <tbb/parallel_for.h>

#include <memory>

namespace pmoe {

std::vector<TrialResult> RunTrials(const TrialSpec& spec, int trials, uint64_t seed, int threads) {
  std::unique_ptr<tbb::global_control> limit;
  if (threads > 0)
    limit = std::make_unique<tbb::global_control>(tbb::global_control::max_allowed_parallelism,
                                                  static_cast<size_t>(threads));
  std::vector<TrialResult> results(trials);
  tbb::parallel_for(tbb::blocked_range<int>(0, trials, 1), [&](const tbb::blocked_range<int>& r) {
    for (int t = r.begin(); t != r.end(); ++t) results[t] = RunTrial(spec, t, seed);
  });
  return results;
}

}  // namespace pmoe
