// The interval of a target statistic from one fixed sample of its cells: the paired bootstrap
// over trial indices and the robust interval (sequential_interval.hpp). A precision target's look
// (precision/precision_target.cpp) and pmoe-analyze statistic (the claim pages) both draw it here,
// so the same rows at the same level and seed give the same interval either way.
#pragma once

#include <cstdint>
#include <vector>

#include "pmoe/stats/sequential_interval.hpp"
#include "pmoe/stats/target_statistics.hpp"

namespace pmoe {

struct BootstrapSettings {
  double alpha = 0.05;  // the interval's level is 1 - alpha
  int replicates = 1000;
  // The stream of the draws: a precision target's look k uses CombineSeed(seed, k); pmoe-analyze
  // statistic --seed S uses CombineSeed(S, 0), a one-look target's first look.
  uint64_t stream = 0;
  // Widen as Student's t with (fewest trials in a cell) - 1 degrees of freedom (the small-sample
  // widening, sequential_interval.hpp); off only for the naive rule of the simulation.
  bool widen = true;
};

// `samples[c].values`: cell c's trials 0..n_c-1 (NaN where a trial has no value); weights are
// ignored. Each replicate draws max n_c trial indices with replacement, shared by every cell (trial
// t of every cell shares its data), each cell counting the drawn indices it holds.
DecisionInterval PairedBootstrapInterval(const TargetStatistic& statistic,
                                         const std::vector<CellSample>& samples,
                                         const BootstrapSettings& settings);

}  // namespace pmoe
