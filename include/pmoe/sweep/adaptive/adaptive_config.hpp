// The [adaptive] section of a sweep config: instead of an N axis, each series searches its N*.
//   [adaptive]
//   N_min = 12          N_max = 1536     the range searched
//   target = 0.25       stop when the 95 % interval's width is at most 25 % of N*
//   budget = 120        trials per series at most
//   round = 4           trials per round, all at one N
//   threshold = 0.5     the success probability that defines N*
//   steps_per_doubling = 4   the candidate N grid: ratio 2^(1/4)
#pragma once

#include <string>

#include "pmoe/sweep/adaptive/psi_search.hpp"
#include "pmoe/sweep/grid/sweep_config.hpp"

namespace pmoe {

// Sets `key` (without "adaptive.") from `value`; ConfigError naming the file, key and expectation.
void SetAdaptiveKey(const std::string& path, const std::string& key, const std::string& value,
                    AdaptiveSettings& settings);

// After the whole file is read: checks the settings (N_min < N_max, round <= budget, no N axis,
// no `trials` key) and turns the candidates into the grid's N axis, the last one. Throws
// ConfigError naming the file and what is wrong.
void FinishAdaptive(SweepConfig& config, bool trials_set);

// "N_min=12;N_max=1536;target=0.25;budget=120;round=4;threshold=0.5;steps=4": every setting,
// so a journal alone says what its search is and when it stops; and back (ConfigError when the
// text is not such a list).
std::string AdaptiveIdentity(const AdaptiveSettings& settings);
AdaptiveSettings ParseAdaptiveIdentity(const std::string& text);

}  // namespace pmoe
