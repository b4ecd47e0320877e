// The shape of a sequence of estimates over an axis (issue 39): a slope through a step reads like
// a power law, so beside the log-log slope come a one-sided monotone trend test on the bootstrap
// replicates and a comparison of a constant, a power law and a single step on log y.
#pragma once

#include <cmath>
#include <string>
#include <vector>

#include "pmoe/stats/stats.hpp"

namespace pmoe {

// m axis values, B bootstrap replicates (paired: replicate r of every point is one draw).
// Estimates are positive; +inf and -inf are bounds (above or below the N grid: their order is
// known, their size is not), NaN is unknown.
struct AxisEstimates {
  std::vector<double> x;                        // (m) axis values, increasing
  std::vector<double> y;                        // (m) estimates
  std::vector<std::vector<double>> replicates;  // (m, B)
  std::vector<bool> use;  // (m) inside the grid: fitted (empty: every finite y)
  int trials = 0;  // trial indices behind the least-sampled point: intervals widen (stats.hpp)
};

// The percentile interval of `estimate` from its replicates (NaN ones left out), widened for
// `trials` resampled trial indices (SmallSampleFactor); on a log scale for positive quantities.
Interval BootstrapInterval(double estimate, const std::vector<double>& replicates, double level,
                           int trials, bool log_scale);

struct Slope {
  double slope = NAN, lo = NAN, hi = NAN;
  double intercept = NAN;  // log y = intercept + slope log x
  int points = 0;
};

// Least-squares slope of log y on log x over the points `index` lists (finite positive y only),
// with its bootstrap interval from the replicates' slopes.
Slope LogLogSlope(const AxisEstimates& e, const std::vector<size_t>& index, double level);

// Mann-Kendall over the axis: S = sum over pairs i < j of sign(y_j - y_i), bounds included (their
// order is known). `not_increasing` is the fraction of replicates with S <= 0, a one-sided
// bootstrap p-value for "increases with the axis": small means the increase is real.
struct TrendTest {
  double tau = NAN;             // S / pairs of the estimates: -1 (falls) .. 1 (rises)
  double not_increasing = NAN;  // NaN with fewer than two comparable points
  int pairs = 0;
  int replicates = 0;  // replicates with a comparable pair: p is at least 1 / replicates
};
TrendTest MonotoneTrend(const AxisEstimates& e);

// Three models of log y over the fitted points, weighted by the replicates' variance of log y:
// a constant (1 parameter), a power law a x^b (2) and one step between two levels (3: the levels
// and where). BIC = chi^2 + parameters * ln(points); the best is the simplest model whose BIC is
// within 2 of the smallest.
enum class ShapeModel { kNone, kConstant, kPowerLaw, kStep };
const char* ShapeModelName(ShapeModel model);  // "none", "constant", "power_law", "step"

struct ShapeFit {
  ShapeModel best = ShapeModel::kNone;  // kNone below 3 points
  double bic_constant = NAN, bic_power = NAN, bic_step = NAN;
  double power_slope = NAN;
  double step_below = NAN, step_above = NAN;  // last axis value of the low level, first of the high
  double step_ratio = NAN;                    // high level / low level
  int points = 0;
};
ShapeFit CompareShapes(const AxisEstimates& e);

struct Shape {
  TrendTest trend;
  ShapeFit fit;
  Slope overall;
  Slope upper;  // over the upper half of the axis: log x at or above the middle of its range
};
Shape DescribeShape(const AxisEstimates& e, double level);

// One line for a reader: "grows like a step at n/l ≈ 8 (x1.9 after 4); increasing trend p <
// 0.001; slope 0.27 overall, 0.47 [0.39, 0.59] on the upper half". A rising best fit whose trend
// test is not significant (p >= 0.05) reads "no significant increase (trend p = 0.25); closest:
// a step at ...".
std::string ShapeSentence(const Shape& shape, const std::string& axis);

}  // namespace pmoe
