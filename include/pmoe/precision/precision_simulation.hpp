// The check by simulation that a precision target keeps its error rate under its own stopping:
// synthetic outcomes whose true target value sits exactly at the threshold, many independent runs
// of the whole procedure (looks, allocation, stopping), and how often it decided each way.
// Outcomes are pure functions of (seed, run, cell, trial index), like a sweep's rows.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "pmoe/precision/precision_target.hpp"

namespace pmoe {

enum class NullScenario {
  kLogNormalSlope,  // 5 cells at x = 1..16, per-trial values lognormal(0, 1): slope of log mean 0
  kBernoulliSlope,  // 5 cells at x = 1..16, successes with p = 0.3 everywhere: slope of log p 0
  kNStarRatio,      // CNN-like and pMoE-like success curves over N at n/l = 2, 4, 8 with
                    // N*_a / N*_b = 3 at every axis value: the ratio's exponent is 0
  kAccuracyDifference,  // two cells, accuracies 0.8 + 0.05 normal each: difference 0
  kAccuracySlope,       // 4 cells at x = 1..8, accuracies 0.8 + 0.05 normal: slope over log x 0
  kShare,               // two models with one accuracy curve over N (N_acc at 0.9 alike):
                        // the sample share is 1 (the threshold of this scenario)
  kCostlySlope,         // not a null: lognormal-slope with a true slope of 0.3 and cells at x = 1
                        // and 4 costing 50 times the others (allocation = cost against even)
};
const char* ScenarioName(NullScenario scenario);
// Throws std::invalid_argument listing the names when `name` is none of them.
NullScenario ParseScenario(const std::string& name);

struct SimulationTally {
  int runs = 0, above = 0, below = 0, undecided = 0;
  double mean_trials = 0;     // trials spent per run
  double mean_cost = 0;       // their cost per run (the scenario's cost per trial)
  std::vector<int> wrong_at;  // wrong decisions by look index
  double Wrong() const { return double(above + below) / runs; }
};

// Runs the procedure `runs` times on the scenario (threshold: the true value, 0 or the share's 1).
// The settings' budget, looks, start, alpha, bootstrap and naive apply; its threshold and seed are
// set per run.
SimulationTally SimulateAtThreshold(NullScenario scenario, PrecisionSettings settings, int runs,
                                    uint64_t seed);

}  // namespace pmoe
