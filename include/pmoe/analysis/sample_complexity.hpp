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

namespace pmoe {

struct AxisPoint {
  double value = 0;  // the axis's value (NaN when the axis is not numeric)
  std::string text;
  std::vector<size_t> cells;  // one per N, sorted by N
  std::vector<double> N;
};

struct Series {
  std::string label;  // the other swept parameters, "model.kind=cnn"; "all" if none
  std::string model_kind;
  std::string others;             // the label without model.kind: series of one design
  std::vector<AxisPoint> points;  // sorted by axis value
};

// The two readings of sample complexity (MODEL.md §6): the N where the success probability
// reaches a threshold (a logistic fit across N), and the paper's Figure 4 reading, the N where the
// mean test accuracy reaches 1 - epsilon (interpolated in log N between grid points).
enum class Reading { kSuccess, kMeanAccuracy };
const char* ReadingName(Reading reading);  // "success", "mean_accuracy"

struct NStar {
  // Inside the N grid: the estimate. Outside it the estimate is a bound, never a number: +inf
  // for "above N_max", -inf for "below N_min" (the curve is past its target already there).
  // The interval ends follow the same rule (bootstrap replicates outside the grid count as
  // +-inf), so no number printed is an extrapolation.
  double estimate = 0, lo = 0, hi = 0;
  bool below_grid = false;  // already at the target at the smallest N
  bool above_grid = false;  // does not reach the target within the largest N
  double N_min = 0, N_max = 0;
  int trials = 0;  // trials behind the estimate
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
};

struct SampleComplexity {
  std::string axis;  // "" when only N varies
  std::vector<Series> series;
  DeclaredBounds theory;  // the files' declared bounds (Results::theory)
  // [reading][series][point] and [reading][series][point][replicate]; reading as Reading's value.
  std::vector<std::vector<NStar>> estimates[2];
  std::vector<std::vector<std::vector<double>>> replicates[2];
  int trial_indices = 0;  // resampled by the bootstrap: intervals widen by SmallSampleFactor

  const std::vector<std::vector<NStar>>& Of(Reading r) const { return estimates[int(r)]; }
};

// Both readings, from one paired bootstrap. Throws std::invalid_argument when the cells do not
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
};

// Slope of log N* against log axis per series, over the axis values whose N* lies in the grid.
std::vector<Exponent> FitExponents(const SampleComplexity& sc, const SampleComplexityOptions& o,
                                   Reading reading = Reading::kSuccess);

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
// The slope of log ratio against log axis, with its bootstrap interval.
std::vector<Exponent> RatioExponents(const SampleComplexity& sc, const SampleComplexityOptions& o,
                                     Reading reading = Reading::kSuccess);

}  // namespace pmoe
