// A pilot for `pmoe-sweep plan --pilot T`: a few of the sweep's trials, run and timed, to turn
// the static cost model (fixed rates; early-stopping trials guessed at a third of their epoch
// cap) into an estimate measured on this machine for this sweep. Early stopping makes the
// static model wrong by whatever factor the data decide, and only running trials tells.
#pragma once

#include <cstddef>
#include <vector>

#include "pmoe/sweep/run/sweep_runner.hpp"

namespace pmoe {

// `count` of the items, spread evenly over their order (most costly first), the first and the
// last included; all of them when count >= items.size().
std::vector<WorkItem> PilotItems(const std::vector<WorkItem>& items, size_t count);

struct PilotEstimate {
  size_t trials = 0;            // run by the pilot
  double measured_seconds = 0;  // their trial times, summed
  double modeled_seconds = 0;   // what the static model said for them
  double ratio = 0;             // measured / modeled
  double ratio_error = 0;       // its standard error from the trials' spread; NaN for one
  double wall_seconds = 0;      // the pilot's own run time
};

// The ratio estimate from per-trial (measured, modeled) seconds: R = sum m / sum e, with the
// usual large-sample standard error sqrt(sum (m_i - R e_i)^2 / (T (T - 1))) / mean(e).
PilotEstimate EstimateFromTimes(const std::vector<double>& measured,
                                const std::vector<double>& modeled);

// Runs PilotItems(items, count) on `threads` cores (0: all), each trial drawing its own test set
// (a run shares them, so a run is a little cheaper); the results are timed and dropped: nothing
// is written.
PilotEstimate RunPilot(const SweepSetup& setup, const std::vector<WorkItem>& items, size_t count,
                       int threads);

}  // namespace pmoe
