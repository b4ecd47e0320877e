// The cells of a sweep: the cartesian product of its axes over the base parameters, each cell
// validated (ranges and data-model feasibility) before anything runs. An axis applies to the
// cells whose families read it: a CNN in a sweep over model.l is one cell per other value, not
// one per l, and it keeps its pairing (its seeds do not depend on l).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "pmoe/core/spec.hpp"
#include "pmoe/core/validate.hpp"
#include "pmoe/sweep/grid/sweep_config.hpp"

namespace pmoe {

struct Cell {
  uint64_t id = 0;    // hash of key
  std::string key;    // canonical "name=value;..." over every parameter the cell reads
  std::string label;  // the swept values it reads: "model.l=3, N=500"
  TrialSpec spec;
};

// Throws ConfigError naming the file, the cell and the problem when any cell is invalid or
// infeasible, when two cells coincide, or when a parameter the file sets is read by no cell.
std::vector<Cell> ExpandGrid(const SweepConfig& config);

// Rough cost of one trial in seconds on one core of a machine like ours, for ordering work and
// for `plan`: the model family's nominal FLOPs at its expected epochs, and data generation.
double EstimateTrialSeconds(const TrialSpec& spec);

// Bytes of one test set (patches and their pattern scores), as the run's test-set cache keeps it.
double EstimateTestSetBytes(const TrialSpec& spec);

}  // namespace pmoe
