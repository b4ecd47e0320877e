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
  double value = 0;            // the axis's value (NaN when the axis is not numeric)
  std::string text;
  std::vector<size_t> cells;   // one per N, sorted by N
  std::vector<double> N;
};

struct Series {
  std::string label;           // the other swept parameters, "model.kind=cnn"; "all" if none
  std::string model_kind;
  std::string others;          // the label without model.kind: series of one design
  std::vector<AxisPoint> points;  // sorted by axis value
};

struct NStar {
  double estimate = 0, lo = 0, hi = 0;  // hi may be +inf
  bool below_grid = false;  // the curve is above the threshold already at the smallest N
  bool above_grid = false;  // it does not reach the threshold within the largest N
  double N_min = 0, N_max = 0;
  int trials = 0;           // trials behind the estimate
  bool Censored() const { return below_grid || above_grid; }
};

struct SampleComplexityOptions {
  double threshold = 0.5;
  int bootstrap = 1000;
  uint64_t seed = 1;
  double level = 0.95;
};

struct SampleComplexity {
  std::string axis;  // "" when only N varies
  std::vector<Series> series;
  std::vector<std::vector<NStar>> nstar;                     // [series][point]
  std::vector<std::vector<std::vector<double>>> replicates;  // [series][point][replicate]
};

// Throws std::invalid_argument when the cells do not vary N, or the axis is not a parameter.
SampleComplexity EstimateSampleComplexity(const Results& results, const std::string& axis,
                                          const SampleComplexityOptions& options);

struct Exponent {
  std::string label;       // the series, or "cnn/separate" for a ratio
  double slope = 0, lo = 0, hi = 0;
  double intercept = 0;    // log N* = intercept + slope log axis, for drawing the line
  int points = 0;          // axis values used (N* inside the grid)
  double theory = 0;       // MODEL.md §9 order (NaN when it says nothing)
  std::string theory_formula;
};

// Slope of log N* against log axis per series, over the axis values whose N* lies in the grid.
std::vector<Exponent> FitExponents(const SampleComplexity& sc, const SampleComplexityOptions& o);

struct Ratio {
  std::string label;  // "cnn/separate"
  std::vector<double> axis_values;
  std::vector<double> estimate, lo, hi;
  std::vector<bool> censored;  // either N* outside its grid: the ratio is a bound at best
};

// N*(CNN) / N*(pMoE) at each axis value, for series that differ only in model.kind.
std::vector<Ratio> ModelRatios(const SampleComplexity& sc, const SampleComplexityOptions& o);
// The slope of log ratio against log axis, with its bootstrap interval.
std::vector<Exponent> RatioExponents(const SampleComplexity& sc, const SampleComplexityOptions& o);

// MODEL.md §9 sample-complexity order of `kind` in `axis` (NaN if none), and its formula.
double TheoryOrder(const std::string& kind, const std::string& axis);
std::string TheoryFormula(const std::string& kind);

}  // namespace pmoe
