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

// Ordinary least-squares slope and intercept of y on x.
struct Line {
  double slope = 0, intercept = 0;
};
Line FitLine(const std::vector<double>& x, const std::vector<double>& y);

}  // namespace pmoe
