// Target statistics: pure functions of the cells' weighted samples. The precision targets
// (precision/precision_target.hpp) decide on them look by look, and pmoe-analyze statistic (the
// // claim pages) on one fixed sample: one implementation, in the layer both may include.
// The sample-complexity exponent follows analysis/lib/sample_complexity.cpp
// (N* from a logistic fit of success on log N, or N_acc where the monotone fit of the mean test
// accuracy reaches its target, interpolated in log N), with one difference that a decision needs:
// an N* outside its cell's N grid makes the statistic NaN (no number, so no decision on it), where
// the report drops that axis value from the fit.
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace pmoe {

// One cell's held trials 0..n-1: a per-trial value (1/0 for a success, an accuracy, any per-trial
// statistic; NaN where the trial has none) and how often each trial counts in this evaluation
// (1 for the point estimate; bootstrap multiplicities otherwise).
struct CellSample {
  std::vector<double> values;
  std::vector<int> weights;
};

// The target quantity from every cell's sample; NaN when it cannot be computed (too few points,
// an N* outside its grid). Must be a pure function of its argument.
using TargetStatistic = std::function<double(const std::vector<CellSample>& cells)>;

// The slope of log(mean of cell c) against log x[c]: an exponent of a per-trial quantity over an
// axis. NaN when a mean is not positive or fewer than two cells have data.
TargetStatistic LogMeanSlope(std::vector<double> x);

// mean(cell a) - mean(cell b).
TargetStatistic MeanDifference(size_t a, size_t b);

// mean(cell c): an accuracy or a rate at one cell.
TargetStatistic CellMean(size_t c);

// The slope of mean(cell c) against log x[c] (an accuracy's slope over an axis). NaN when fewer
// than two cells have data.
TargetStatistic MeanSlope(std::vector<double> x);

enum class CurveReading { kSuccess, kMeanAccuracy };

// A cell of a sample-complexity curve: its side (0: the numerator's model, e.g. the CNN; 1: the
// denominator's, e.g. separate pMoE), its axis value (e.g. n/l) and its N.
struct CurveCell {
  int side = 0;
  double axis = 0;
  double N = 0;
};
// The statistic's argument holds one sample per CurveCell, in the same order.

struct CurveSettings {
  CurveReading reading = CurveReading::kSuccess;
  double threshold = 0.5;         // success probability defining N* (success reading)
  double target_accuracy = 0.95;  // mean test accuracy defining N_acc (accuracy reading)
};

// The exponent over the axis of N*(side 0) / N*(side 1) when both sides have cells, of N*(side 0)
// alone otherwise: the slope of log N* (or of the log ratio) against log axis. Per-trial values:
// success as 1/0 (success reading) or the test accuracy (accuracy reading). Throws
// std::invalid_argument when a side has fewer than two axis values, an (side, axis) curve fewer
// than two N, or the two sides different axis values.
TargetStatistic NStarExponent(const std::vector<CurveCell>& cells, const CurveSettings& settings);

// The sample share N*(side 1) / N*(side 0) (N_acc under the accuracy reading): how many samples
// the model needs against its baseline, on one curve over N per side. Throws
// std::invalid_argument when a side has no curve, several axis values or fewer than two N.
TargetStatistic NStarShare(const std::vector<CurveCell>& cells, const CurveSettings& settings);

}  // namespace pmoe
