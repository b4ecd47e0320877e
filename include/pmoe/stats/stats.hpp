// Small statistics: Wilson score intervals, moments, percentiles, a least-squares slope.
#pragma once

#include <vector>

namespace pmoe {

struct Interval {
  double lo = 0, hi = 0;
};

// 95 % Wilson score interval of a binomial proportion (z = 1.96); [0, 1] when trials = 0.
Interval WilsonInterval(int successes, int trials, double z = 1.959963984540054);

struct Moments {
  double mean = 0, sd = 0;
  int count = 0;
};
Moments MeanSd(const std::vector<double>& values);  // finite values only

// The q-quantile (0..1) by linear interpolation; values need not be sorted; inf allowed.
double Percentile(std::vector<double> values, double q);

// How much wider than a percentile bootstrap's interval over `trials` resampled trial indices a
// reported interval is drawn: Student's t over the normal quantile at the level (a t interval's
// small-sample widening) times sqrt(trials / (trials - 1)) (the bootstrap's variance is the
// plug-in one). A bootstrap over n indices never leaves the n values seen: simulated under no
// effect, its 95 % interval excluded 0 in 27 % of cases with 3 trials, 10.5 % with 10 and 6 %
// with 20; widened, 5-7 % at every n. Infinite below 2 trials.
double SmallSampleFactor(int trials, double level);

// The interval [lo, hi] around `estimate` with both half-widths times `factor`; on a log scale
// (N*, ratios: positive values) when `log_scale`. Infinite ends (bounds) stay as they are.
Interval Widened(double estimate, double lo, double hi, double factor, bool log_scale);

// Pool-adjacent-violators: the nondecreasing sequence closest to `y` in least squares weighted by
// `w` (each value the weighted mean of its pooled block). N_acc reads mean accuracy off it, so a
// curve that dips after touching its target has not reached it for good.
std::vector<double> IsotonicIncreasing(const std::vector<double>& y, const std::vector<double>& w);

// Ordinary least-squares slope and intercept of y on x.
struct Line {
  double slope = 0, intercept = 0;
};
Line FitLine(const std::vector<double>& x, const std::vector<double>& y);

}  // namespace pmoe
