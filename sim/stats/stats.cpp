// Textbook formulas; the Wilson interval follows Wilson (1927), "Probable inference".
#include "pmoe/stats/stats.hpp"

#include <algorithm>
#include <boost/math/distributions/normal.hpp>
#include <boost/math/distributions/students_t.hpp>
#include <cmath>
#include <limits>

namespace pmoe {

Interval WilsonInterval(int successes, int trials, double z) {
  if (trials <= 0) return {0, 1};
  const double n = trials, p = successes / n, z2 = z * z;
  const double center = (p + z2 / (2 * n)) / (1 + z2 / n);
  const double half = z * std::sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n);
  return {std::max(0.0, center - half), std::min(1.0, center + half)};
}

Moments MeanSd(const std::vector<double>& values) {
  Moments m;
  double sum = 0, sum2 = 0;
  for (double v : values) {
    if (!std::isfinite(v)) continue;
    sum += v;
    ++m.count;
  }
  if (m.count == 0) return {NAN, NAN, 0};
  m.mean = sum / m.count;
  for (double v : values)
    if (std::isfinite(v)) sum2 += (v - m.mean) * (v - m.mean);
  m.sd = m.count > 1 ? std::sqrt(sum2 / (m.count - 1)) : 0.0;
  return m;
}

double Percentile(std::vector<double> values, double q) {
  if (values.empty()) return NAN;
  std::sort(values.begin(), values.end());
  const double at = q * (values.size() - 1);
  const size_t below = static_cast<size_t>(std::floor(at));
  const size_t above = std::min(below + 1, values.size() - 1);
  if (!std::isfinite(values[below]) || !std::isfinite(values[above]))
    return at - below < 0.5 ? values[below] : values[above];
  return values[below] + (at - below) * (values[above] - values[below]);
}

// Pool-adjacent-violators (Ayer et al. 1955): a block lower than the one before it is merged into
// it, until the levels rise; one pass, each point merged at most once.
std::vector<double> IsotonicIncreasing(const std::vector<double>& y, const std::vector<double>& w) {
  std::vector<double> level, weight;
  std::vector<size_t> size;
  for (size_t i = 0; i < y.size(); ++i) {
    level.push_back(y[i]);
    weight.push_back(w[i]);
    size.push_back(1);
    while (level.size() > 1 && level[level.size() - 2] > level.back()) {
      const size_t b = level.size() - 1;
      level[b - 1] =
          (weight[b - 1] * level[b - 1] + weight[b] * level[b]) / (weight[b - 1] + weight[b]);
      weight[b - 1] += weight[b];
      size[b - 1] += size[b];
      level.pop_back();
      weight.pop_back();
      size.pop_back();
    }
  }
  std::vector<double> fitted;
  for (size_t b = 0; b < level.size(); ++b) fitted.insert(fitted.end(), size[b], level[b]);
  return fitted;
}

Line FitLine(const std::vector<double>& x, const std::vector<double>& y) {
  const double n = static_cast<double>(x.size());
  double sx = 0, sy = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    sx += x[i];
    sy += y[i];
  }
  const double mx = sx / n, my = sy / n;
  double sxy = 0, sxx = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    sxy += (x[i] - mx) * (y[i] - my);
    sxx += (x[i] - mx) * (x[i] - mx);
  }
  Line line;
  line.slope = sxx > 0 ? sxy / sxx : NAN;
  line.intercept = my - line.slope * mx;
  return line;
}

double SmallSampleFactor(int trials, double level) {
  if (trials < 2) return std::numeric_limits<double>::infinity();
  const double p = (1 + level) / 2;
  const double t =
      boost::math::quantile(boost::math::students_t_distribution<double>(trials - 1), p);
  const double z = boost::math::quantile(boost::math::normal_distribution<double>(), p);
  return t / z * std::sqrt(static_cast<double>(trials) / (trials - 1));
}

Interval Widened(double estimate, double lo, double hi, double factor, bool log_scale) {
  if (!std::isfinite(estimate) || (log_scale && estimate <= 0)) return {lo, hi};
  auto widen = [&](double end) {
    if (!std::isfinite(end) || (log_scale && end <= 0)) return end;
    if (!log_scale) return estimate + factor * (end - estimate);
    return estimate * std::exp(factor * std::log(end / estimate));
  };
  // An end on the wrong side of the estimate (a skewed bootstrap) is not pulled across it.
  return {lo <= estimate ? widen(lo) : lo, hi >= estimate ? widen(hi) : hi};
}

}  // namespace pmoe
