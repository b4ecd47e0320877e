// Per-cell summary: trials, statuses, success rate with its Wilson interval, means of the
// measured fields.
#pragma once

#include "pmoe/analysis/results.hpp"
#include "pmoe/stats/stats.hpp"

namespace pmoe {

struct CellSummary {
  int trials = 0, ok = 0, diverged = 0, infeasible = 0, error = 0, successes = 0;
  int converged = 0;  // ok trials that reached zero training error
  // How the others stopped (MODEL.md §5): at the epoch cap, at the step cap, any other way
  // (diverged, a family's own rule, or not trained: infeasible, error).
  int stopped_epoch_cap = 0, stopped_step_cap = 0, stopped_other = 0;
  Interval success_interval;
  Moments test_acc, train_acc, router_hit, router_hit_pos, router_hit_neg, epochs;
  std::vector<Moments> metrics;  // (Results::metrics) over the ok trials that recorded each
};

// Means and sds are over the trials with status ok.
std::vector<CellSummary> SummarizeCells(const Results& results);

}  // namespace pmoe
