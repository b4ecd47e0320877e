// The cells of a sweep: the cartesian product of its axes over the base parameters, each cell
// validated (ranges and data-model feasibility) before anything runs.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "pmoe/core/spec.hpp"
#include "pmoe/sweep/sweep_config.hpp"

namespace pmoe {

struct Cell {
  uint64_t id = 0;        // hash of key
  std::string key;        // canonical "name=value;..." over every parameter
  std::string label;      // the swept values only: "model.l=3, N=500"
  TrialSpec spec;
};

// Throws ConfigError naming the file, the cell and the problem when any cell is invalid or
// infeasible, or when two cells coincide.
std::vector<Cell> ExpandGrid(const SweepConfig& config);

// Rough cost of one trial in seconds on one core of a machine like ours, for ordering work and
// for `plan`: FLOPs of training at the epoch cap, evaluation and data generation.
double EstimateTrialSeconds(const TrialSpec& spec);

// Peak bytes one trial holds (data sets and model inputs).
double EstimateTrialBytes(const TrialSpec& spec);

// Bytes of one test set (patches and their pattern scores), as the run's test-set cache keeps it.
double EstimateTestSetBytes(const TrialSpec& spec);

}  // namespace pmoe
