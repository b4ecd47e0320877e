// A claim's statistic over a result file's rows, computed by the precision targets' own code
// (stats/target_kind.hpp, stats/paired_bootstrap.hpp): the cells placed on their sides as a
// target places them, each trial's value as a target reads it, and the interval a one-look target
// would draw at `level` (the paired bootstrap over trial indices with the small-sample widening,
// no alpha spending). pmoe-analyze statistic prints it; the claim pages read it (issue 41: one
// implementation of the claims' statistics).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "pmoe/analysis/results.hpp"
#include "pmoe/stats/target_statistics.hpp"

namespace pmoe {

struct RowStatisticSpec {
  // share, accuracy, accuracy_slope, rate or accuracy_difference (a target's kind).
  std::string target;
  std::string axis;  // accuracy_slope: the swept parameter of the slope
  // The model's cells ("": the cells' one kind) and, for share and accuracy_difference, the
  // baseline's: a model kind, or P=V,... naming cells by their parameters.
  std::string model;
  std::string baseline = "cnn";
  std::string metric;   // rate: the per-trial metric
  CurveSettings curve;  // share: the reading of N*
  double level = 0.95;
  int bootstrap = 1000;
  uint64_t seed = 1;  // the draws are a one-look target's with this seed
};

struct RowStatisticPlace {
  std::string label;  // the cell's swept values
  std::string kind;   // its model.kind
  int side = 0;       // 0: the baseline (paired) or the one model; 1: the model compared
  double axis = 1, N = 0;
  int trials = 0;  // trial indices held (0..trials-1, a gap counting as a trial without value)
  int values = 0;  // trials with a value
};

struct RowStatistic {
  std::vector<RowStatisticPlace> places;
  double estimate = 0, lo = 0, hi = 0;
  int paired_trials = 0;  // trial indices with a value in every place
  int fewest_trials = 0;  // the fewest trial indices of a place (the widening's df + 1)
};

// Throws ConfigError naming what is wrong: an unknown kind, a missing --over, a metric no file
// declares, cells of several model kinds on one side, places the kind cannot read (several N, no
// baseline, ...).
RowStatistic EvaluateRowStatistic(const Results& results, const RowStatisticSpec& spec);

}  // namespace pmoe
