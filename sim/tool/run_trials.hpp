// Runs trials 0..T-1 of one cell across threads. Each trial is a pure function of its index, so
// the results do not depend on the thread count or on which thread ran which trial.
#pragma once

#include <cstdint>
#include <vector>

#include "pmoe/trial/trial.hpp"

namespace pmoe {

// threads = 0 uses every core.
std::vector<TrialResult> RunTrials(const TrialSpec& spec, int trials, uint64_t seed, int threads);

}  // namespace pmoe
