// Sample complexity N*: for each series of cells (all parameters but N and the axis fixed) and
// each value of the axis, the N at which the fitted success curve reaches a threshold, with a
// bootstrap interval over trials. The bootstrap resamples trial indices, the same draw for every
// cell in a replicate: trials of one index share their data across cells (DESIGN.md, seeds), so
// ratios between models and slopes across the axis keep that pairing.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "pmoe/analysis/results.hpp"
#include "pmoe/analysis/series.hpp"
#include "pmoe/analysis/trend.hpp"

namespace pmoe {

// The two readings of sample complexity (MODEL.md §6): the N where the success probability
// reaches a threshold (a logistic fit across N), and the paper's Figure 4 reading, the N where the
// mean test accuracy reaches 1 - epsilon (a monotone fit in log N, interpolated between grid
// points). Reading's values index SampleComplexity::readings: these two come first.
enum class Reading { kSuccess, kMeanAccuracy };
const char* ReadingName(Reading reading);  // "success", "mean_accuracy"

// One reading. The theorems are high-probability statements (error at most epsilon with
// probability 1 - delta once N >= N_S), so besides the median (delta = 0.5) the success curve is
// read at small delta too: the quantile readings.
struct ReadingSpec {
  Reading kind = Reading::kSuccess;
  double probability = 0.5;  // success: the success probability read (1 - delta)
  double delta = 0.5;        // success: 1 - probability as given (0.2, not 0.19999999999999996)
  double epsilon = NAN;      // success: test accuracy >= 1 - epsilon; NaN: the recorded `success`
  double target = NAN;       // mean accuracy: the target (1 - epsilon)
  std::string name;          // "success", "mean_accuracy", "success@0.9", "success@0.9,eps=0.1"
};

struct NStar {
  // Inside the N grid: the estimate. Outside it the estimate is a bound, never a number: +inf
  // for "above N_max", -inf for "below N_min" (the curve is past its target already there).
  // The interval ends follow the same rule (bootstrap replicates outside the grid count as
  // +-inf), so no number printed is an extrapolation.
  double estimate = 0, lo = 0, hi = 0;
  bool below_grid = false;  // already at the target at the smallest N
  bool above_grid = false;  // does not reach the target within the largest N
  double N_min = 0, N_max = 0;
  int trials = 0;         // trials behind the estimate
  int trial_indices = 0;  // distinct trial indices in its cells: its interval widens for these
  // The training budget (MODEL.md §5): the fraction of the trials near the estimate (the cells
  // whose N brackets it; the largest or smallest N outside the grid) that reached zero training
  // error, and whether it is below the options' min_converged.
  double converged_near = NAN;
  bool low_convergence = false;
  bool Censored() const { return below_grid || above_grid; }
};

struct SampleComplexityOptions {
  double threshold = 0.5;         // success probability that defines N*
  double target_accuracy = 0.95;  // mean test accuracy that defines N_acc (1 - epsilon)
  double min_converged = 0.9;     // below this converged fraction near an estimate: flagged
  int bootstrap = 1000;
  uint64_t seed = 1;
  double level = 0.95;
  // The quantile readings: success probability 1 - delta for each delta (0.5 is the threshold
  // reading itself unless --threshold moved it), at the recorded success and at each epsilon.
  std::vector<double> deltas = {0.5, 0.2, 0.1, 0.05};
  std::vector<double> epsilons;  // test accuracy >= 1 - epsilon, recomputed from test_acc
};

// [0] success at `threshold`, [1] mean accuracy at `target_accuracy`, then a success reading per
// (epsilon, delta) that is not [0] again.
std::vector<ReadingSpec> MakeReadings(const SampleComplexityOptions& options);

struct SampleComplexity {
  std::string axis;  // "" when only N varies
  std::vector<Series> series;
  DeclaredBounds theory;              // the files' declared bounds (Results::theory)
  std::vector<ReadingSpec> readings;  // MakeReadings
  // [reading][series][point] and [reading][series][point][replicate].
  std::vector<std::vector<std::vector<NStar>>> estimates;
  std::vector<std::vector<std::vector<std::vector<double>>>> replicates;

  const std::vector<std::vector<NStar>>& Of(Reading r) const { return estimates[size_t(r)]; }
};

// Every reading, from one paired bootstrap. Throws std::invalid_argument when the cells do not
// vary N, or the axis is not a parameter or not numeric.
SampleComplexity EstimateSampleComplexity(const Results& results, const std::string& axis,
                                          const SampleComplexityOptions& options);

struct Exponent {
  std::string label;  // the series, or "cnn/separate" for a ratio
  double slope = 0, lo = 0, hi = 0;
  double intercept = 0;  // log N* = intercept + slope log axis, for drawing the line
  int points = 0;        // axis values used (N* inside the grid)
  double theory = 0;     // theory_orders.hpp: the order in the axis (NaN when none)
  std::string theory_formula;
  int trials = 0;  // trial indices of the least-sampled point used: the interval's widening
  Shape shape;     // trend test, best of constant / power law / step, upper-half slope (trend.hpp)
};

// The exponent of estimates over an axis: the slope of log y on log x over `use` (the points
// inside the grid) with its interval, and the shape of the whole sequence (trend.hpp).
Exponent ExponentOf(const AxisEstimates& estimates, const std::vector<size_t>& use, double level);

// Slope of log N* against log axis per series, over the axis values whose N* lies in the grid.
std::vector<Exponent> FitExponents(const SampleComplexity& sc, const SampleComplexityOptions& o,
                                   Reading reading = Reading::kSuccess);
std::vector<Exponent> FitExponents(const SampleComplexity& sc, const SampleComplexityOptions& o,
                                   size_t reading);  // an index into sc.readings

struct Ratio {
  std::string label;  // "cnn/separate"
  std::vector<double> axis_values;
  std::vector<double> estimate, lo, hi;  // NaN where a side is outside its grid
  // Where a side lies outside its N grid the ratio is a bound: "> 2.5" (the CNN's N* above its
  // grid, or the pMoE's below), "< 0.4", or "n/a" (both sides beyond the same kind of edge).
  std::vector<std::string> bound;
  std::vector<bool> censored;
  std::vector<bool> low_convergence;  // either side flagged for its training budget
};

// N*(CNN) / N*(pMoE) at each axis value, for series that differ only in model.kind.
std::vector<Ratio> ModelRatios(const SampleComplexity& sc, const SampleComplexityOptions& o,
                               Reading reading = Reading::kSuccess);
std::vector<Ratio> ModelRatios(const SampleComplexity& sc, const SampleComplexityOptions& o,
                               size_t reading);
// The slope of log ratio against log axis, with its bootstrap interval.
std::vector<Exponent> RatioExponents(const SampleComplexity& sc, const SampleComplexityOptions& o,
                                     Reading reading = Reading::kSuccess);
std::vector<Exponent> RatioExponents(const SampleComplexity& sc, const SampleComplexityOptions& o,
                                     size_t reading);

// The l = n control (issue 39): where the pMoE routes every patch to each expert (l = n, or
// n/l = 1 on a derived axis) separate pMoE is the CNN's architecture, so the CNN/pMoE ratio of
// N* must include 1. One row per ratio and axis value that is such a point.
struct ControlCheck {
  std::string label;  // the ratio's
  double axis_value = NAN;
  double estimate = NAN, lo = NAN, hi = NAN;  // NaN when a side is outside its grid
  std::string bound;                          // the ratio's bound when censored
  bool includes_one = false;
};
std::vector<ControlCheck> EqualPatchControls(const SampleComplexity& sc,
                                             const SampleComplexityOptions& o, size_t reading);

}  // namespace pmoe
