// Trend test, shape comparison and slopes of estimates over an axis, all from the paired
// bootstrap replicates the estimates came with (sample_complexity.cpp).
#include "pmoe/analysis/trend.hpp"

#include <algorithm>
#include <cstdio>
#include <limits>

namespace pmoe {
namespace {

// The fitted points: `use` when given, else every finite positive estimate.
std::vector<size_t> Fitted(const AxisEstimates& e) {
  std::vector<size_t> index;
  for (size_t i = 0; i < e.y.size(); ++i)
    if ((e.use.empty() || e.use[i]) && std::isfinite(e.y[i]) && e.y[i] > 0 && e.x[i] > 0)
      index.push_back(i);
  return index;
}

Line LogLogLine(const std::vector<double>& x, const std::vector<double>& y,
                const std::vector<size_t>& index) {
  std::vector<double> lx, ly;
  for (size_t i : index)
    if (x[i] > 0 && std::isfinite(y[i]) && y[i] > 0) {
      lx.push_back(std::log(x[i]));
      ly.push_back(std::log(y[i]));
    }
  return lx.size() >= 2 ? FitLine(lx, ly) : Line{NAN, NAN};
}

// Mann-Kendall S and the number of comparable pairs (NaN left out; equal infinities tie).
std::pair<int, int> KendallS(const std::vector<double>& y) {
  int s = 0, pairs = 0;
  for (size_t i = 0; i < y.size(); ++i)
    for (size_t j = i + 1; j < y.size(); ++j) {
      if (std::isnan(y[i]) || std::isnan(y[j])) continue;
      ++pairs;
      s += (y[j] > y[i]) - (y[j] < y[i]);
    }
  return {s, pairs};
}

// Variance of log y at point i from its finite replicates, times the small-sample factor squared
// (as the intervals are widened), floored: a point whose replicates all agree would otherwise
// get infinite weight and decide the comparison alone.
double LogVariance(const AxisEstimates& e, size_t i) {
  std::vector<double> logs;
  for (double v : e.replicates[i])
    if (std::isfinite(v) && v > 0) logs.push_back(std::log(v));
  const Moments m = MeanSd(logs);
  const double factor = SmallSampleFactor(std::max(e.trials, 2), 0.95);
  const double sd = m.count >= 2 ? m.sd * factor : 0;
  return std::max(sd * sd, 1e-4);
}

struct Weighted {
  std::vector<double> lx, ly, w;  // log x, log y, 1 / variance
};

// Weighted mean and chi^2 of ly over [begin, end).
std::pair<double, double> LevelFit(const Weighted& d, size_t begin, size_t end) {
  double sw = 0, swy = 0;
  for (size_t i = begin; i < end; ++i) {
    sw += d.w[i];
    swy += d.w[i] * d.ly[i];
  }
  const double level = swy / sw;
  double chi2 = 0;
  for (size_t i = begin; i < end; ++i) chi2 += d.w[i] * (d.ly[i] - level) * (d.ly[i] - level);
  return {level, chi2};
}

// Weighted least squares of ly on lx: slope and chi^2.
std::pair<double, double> PowerFit(const Weighted& d) {
  double sw = 0, sx = 0, sy = 0;
  for (size_t i = 0; i < d.w.size(); ++i) {
    sw += d.w[i];
    sx += d.w[i] * d.lx[i];
    sy += d.w[i] * d.ly[i];
  }
  const double mx = sx / sw, my = sy / sw;
  double sxx = 0, sxy = 0;
  for (size_t i = 0; i < d.w.size(); ++i) {
    sxx += d.w[i] * (d.lx[i] - mx) * (d.lx[i] - mx);
    sxy += d.w[i] * (d.lx[i] - mx) * (d.ly[i] - my);
  }
  const double slope = sxx > 0 ? sxy / sxx : 0;
  double chi2 = 0;
  for (size_t i = 0; i < d.w.size(); ++i) {
    const double r = d.ly[i] - my - slope * (d.lx[i] - mx);
    chi2 += d.w[i] * r * r;
  }
  return {slope, chi2};
}

bool Rises(const ShapeFit& f) {
  return f.best == ShapeModel::kStep ? f.step_ratio >= 1 : f.power_slope >= 0;
}

// The best model in words: "a step at n/l ≈ 8 (x1.9 after 4)", "a power law, n/l^0.27".
std::string ModelWords(const ShapeFit& f, const std::string& axis) {
  char text[160];
  if (f.best == ShapeModel::kStep)
    std::snprintf(text, sizeof text, "a step at %s ≈ %.4g (x%.2g after %.4g)", axis.c_str(),
                  f.step_above, f.step_ratio, f.step_below);
  else
    std::snprintf(text, sizeof text, "a power law, %s^%.2g", axis.c_str(), f.power_slope);
  return text;
}

// "p = 0.03"; "p < 0.001" when no replicate of 1000 disagreed; "" without a test.
std::string TrendP(const TrendTest& t) {
  if (std::isnan(t.not_increasing)) return "";
  char text[48];
  if (t.not_increasing == 0 && t.replicates > 0)
    std::snprintf(text, sizeof text, "p < %.2g", 1.0 / t.replicates);
  else
    std::snprintf(text, sizeof text, "p = %.2g", t.not_increasing);
  return text;
}

}  // namespace

Interval BootstrapInterval(double estimate, const std::vector<double>& replicates, double level,
                           int trials, bool log_scale) {
  std::vector<double> known;
  for (double v : replicates)
    if (!std::isnan(v)) known.push_back(v);
  return Widened(estimate, Percentile(known, (1 - level) / 2),
                 Percentile(known, 1 - (1 - level) / 2), SmallSampleFactor(trials, level),
                 log_scale);
}

Slope LogLogSlope(const AxisEstimates& e, const std::vector<size_t>& index, double level) {
  Slope s;
  s.points = static_cast<int>(index.size());
  const Line line = LogLogLine(e.x, e.y, index);
  s.slope = line.slope;
  s.intercept = line.intercept;
  std::vector<double> slopes;
  const size_t replicates = e.replicates.empty() ? 0 : e.replicates[0].size();
  std::vector<double> yr(e.y.size());
  for (size_t r = 0; r < replicates; ++r) {
    for (size_t i = 0; i < e.y.size(); ++i) yr[i] = e.replicates[i][r];
    const double slope = LogLogLine(e.x, yr, index).slope;
    if (std::isfinite(slope)) slopes.push_back(slope);
  }
  const Interval widened = BootstrapInterval(s.slope, slopes, level, e.trials, false);
  s.lo = widened.lo;
  s.hi = widened.hi;
  return s;
}

TrendTest MonotoneTrend(const AxisEstimates& e) {
  TrendTest t;
  const auto [s, pairs] = KendallS(e.y);
  t.pairs = pairs;
  if (pairs == 0) return t;
  t.tau = double(s) / pairs;
  const size_t replicates = e.replicates.empty() ? 0 : e.replicates[0].size();
  int not_increasing = 0, counted = 0;
  std::vector<double> yr(e.y.size());
  for (size_t r = 0; r < replicates; ++r) {
    for (size_t i = 0; i < e.y.size(); ++i) yr[i] = e.replicates[i][r];
    const auto [sr, pr] = KendallS(yr);
    if (pr == 0) continue;
    ++counted;
    not_increasing += sr <= 0;
  }
  t.replicates = counted;
  if (counted > 0) t.not_increasing = double(not_increasing) / counted;
  return t;
}

const char* ShapeModelName(ShapeModel model) {
  static const char* const kNames[] = {"none", "constant", "power_law", "step"};  // enum order
  return kNames[static_cast<int>(model)];
}

ShapeFit CompareShapes(const AxisEstimates& e) {
  ShapeFit f;
  Weighted d;
  for (size_t i : Fitted(e)) {
    d.lx.push_back(std::log(e.x[i]));
    d.ly.push_back(std::log(e.y[i]));
    d.w.push_back(1 / LogVariance(e, i));
  }
  const size_t m = d.w.size();
  f.points = static_cast<int>(m);
  if (m < 3) return f;  // two points fit a power law and a step exactly: nothing to compare
  const double penalty = std::log(double(m));
  f.bic_constant = LevelFit(d, 0, m).second + 1 * penalty;
  const auto [slope, power_chi2] = PowerFit(d);
  f.power_slope = slope;
  f.bic_power = power_chi2 + 2 * penalty;
  // The step: every split between consecutive fitted points, the best one kept.
  double best_chi2 = std::numeric_limits<double>::infinity();
  const std::vector<size_t> fitted = Fitted(e);
  for (size_t k = 1; k < m; ++k) {
    const auto [low, low_chi2] = LevelFit(d, 0, k);
    const auto [high, high_chi2] = LevelFit(d, k, m);
    if (low_chi2 + high_chi2 >= best_chi2) continue;
    best_chi2 = low_chi2 + high_chi2;
    f.step_below = e.x[fitted[k - 1]];
    f.step_above = e.x[fitted[k]];
    f.step_ratio = std::exp(high - low);
  }
  f.bic_step = best_chi2 + 3 * penalty;
  // The simplest model within 2 of the smallest BIC: a smaller difference is "not worth more than
  // a bare mention" (Kass and Raftery 1995), and a constant should not be called a power law on it.
  const double best = std::min({f.bic_constant, f.bic_power, f.bic_step});
  f.best = f.bic_constant <= best + 2 ? ShapeModel::kConstant
           : f.bic_power <= best + 2  ? ShapeModel::kPowerLaw
                                      : ShapeModel::kStep;
  return f;
}

Shape DescribeShape(const AxisEstimates& e, double level) {
  Shape s;
  s.trend = MonotoneTrend(e);
  s.fit = CompareShapes(e);
  const std::vector<size_t> fitted = Fitted(e);
  s.overall = LogLogSlope(e, fitted, level);
  // The upper half of the axis in log x, where a theory's asymptotic order should show.
  std::vector<size_t> upper;
  if (!fitted.empty()) {
    const double middle = (std::log(e.x[fitted.front()]) + std::log(e.x[fitted.back()])) / 2;
    for (size_t i : fitted)
      if (std::log(e.x[i]) >= middle - 1e-12) upper.push_back(i);
  }
  s.upper = LogLogSlope(e, upper, level);
  return s;
}

std::string ShapeSentence(const Shape& s, const std::string& axis) {
  const ShapeFit& f = s.fit;
  if (f.best == ShapeModel::kNone)
    return "too few points inside the grid to tell a shape (" + std::to_string(f.points) + ")";
  std::string out;
  const std::string p = TrendP(s.trend);
  if (f.best == ShapeModel::kConstant) {
    out = "flat: a constant fits best";
  } else if (Rises(f) && !(s.trend.not_increasing < 0.05)) {
    // A best fit that rises while the replicates do not agree that it rises: said as such, so a
    // hump or noise is not read as growth.
    out = "no significant increase (trend " + p + "); closest: " + ModelWords(f, axis);
  } else {
    out = std::string(Rises(f) ? "grows" : "falls") + " like " + ModelWords(f, axis);
  }
  if (out.rfind("no significant", 0) != 0 && !p.empty()) out += "; increasing trend " + p;
  if (std::isfinite(s.upper.slope) && s.upper.points < s.overall.points) {
    char text[128];
    std::snprintf(text, sizeof text, "; slope %.2f overall, %.2f [%.2f, %.2f] on the upper half",
                  s.overall.slope, s.upper.slope, s.upper.lo, s.upper.hi);
    out += text;
  }
  return out;
}

}  // namespace pmoe
