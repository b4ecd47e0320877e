// Exponents and differences as precision-target statistics over weighted samples.
#include "pmoe/stats/target_statistics.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>
#include <utility>

#include "pmoe/stats/logistic_fit.hpp"
#include "pmoe/stats/stats.hpp"

namespace pmoe {
namespace {

// The weighted mean of a cell's finite values; NaN when none counts.
double WeightedMean(const CellSample& s) {
  double sum = 0, count = 0;
  for (size_t t = 0; t < s.values.size(); ++t)
    if (s.weights[t] > 0 && std::isfinite(s.values[t])) {
      sum += s.weights[t] * s.values[t];
      count += s.weights[t];
    }
  return count > 0 ? sum / count : NAN;
}

// Slope of y on log x over every point; NaN when any y is not finite or fewer than two points.
double LogSlope(const std::vector<double>& x, const std::vector<double>& y) {
  std::vector<double> lx;
  for (size_t i = 0; i < x.size(); ++i) {
    if (!std::isfinite(y[i])) return NAN;
    lx.push_back(std::log(x[i]));
  }
  return lx.size() >= 2 ? FitLine(lx, y).slope : NAN;
}

// One (side, axis) curve: its cells sorted by N.
struct Curve {
  std::vector<size_t> cells;
  std::vector<double> N;
};

// N* where the fitted success curve reaches the threshold; NaN outside [N_min, N_max].
double SuccessNStar(const Curve& curve, const std::vector<CellSample>& s, double threshold) {
  std::vector<SuccessPoint> points;
  for (size_t i = 0; i < curve.cells.size(); ++i) {
    SuccessPoint p{curve.N[i], 0, 0};
    const CellSample& c = s[curve.cells[i]];
    for (size_t t = 0; t < c.values.size(); ++t)
      if (c.weights[t] > 0 && std::isfinite(c.values[t])) {
        p.trials += c.weights[t];
        p.successes += c.weights[t] * c.values[t];
      }
    if (p.trials > 0) points.push_back(p);
  }
  if (points.size() < 2) return NAN;
  const LogisticCurve fit = FitLogistic(points);
  if (!(fit.b > 0)) return NAN;
  const double n = fit.Crossing(threshold);
  return n >= curve.N.front() && n <= curve.N.back() ? n : NAN;
}

// N_acc as pmoe-analyze reads it: where the weighted mean accuracy's monotone (isotonic) fit in N
// first reaches the target, interpolated in log N from the N before it; NaN when reached at the
// smallest N or never. A curve that dips after a first crossing has not reached the target for
// good: the fit pools the dip until it has. (Numerics version 7 read the raw first crossing; its
// precision files are not grown by this build, so their looks need not replay.)
double AccuracyNStar(const Curve& curve, const std::vector<CellSample>& s, double target) {
  std::vector<double> N, mean, count;
  for (size_t i = 0; i < curve.cells.size(); ++i) {
    const CellSample& c = s[curve.cells[i]];
    const double m = WeightedMean(c);
    if (std::isnan(m)) continue;
    double weight = 0;
    for (size_t t = 0; t < c.values.size(); ++t)
      if (c.weights[t] > 0 && std::isfinite(c.values[t])) weight += c.weights[t];
    N.push_back(curve.N[i]);
    mean.push_back(m);
    count.push_back(weight);
  }
  const std::vector<double> fit = IsotonicIncreasing(mean, count);
  for (size_t i = 0; i < fit.size(); ++i) {
    if (fit[i] < target) continue;
    if (i == 0) return NAN;
    const double f = (target - fit[i - 1]) / (fit[i] - fit[i - 1]);
    return std::exp(std::log(N[i - 1]) + f * (std::log(N[i]) - std::log(N[i - 1])));
  }
  return NAN;
}

}  // namespace

TargetStatistic LogMeanSlope(std::vector<double> x) {
  return [x = std::move(x)](const std::vector<CellSample>& cells) -> double {
    std::vector<double> lx, ly;
    for (size_t c = 0; c < cells.size(); ++c) {
      const double mean = WeightedMean(cells[c]);
      if (std::isnan(mean)) continue;
      if (!(mean > 0)) return NAN;
      lx.push_back(x[c]);
      ly.push_back(std::log(mean));
    }
    return LogSlope(lx, ly);
  };
}

TargetStatistic MeanDifference(size_t a, size_t b) {
  return [a, b](const std::vector<CellSample>& cells) {
    return WeightedMean(cells[a]) - WeightedMean(cells[b]);
  };
}

TargetStatistic CellMean(size_t c) {
  return [c](const std::vector<CellSample>& cells) { return WeightedMean(cells[c]); };
}

TargetStatistic MeanSlope(std::vector<double> x) {
  return [x = std::move(x)](const std::vector<CellSample>& cells) -> double {
    std::vector<double> lx, y;
    for (size_t c = 0; c < cells.size(); ++c) {
      const double mean = WeightedMean(cells[c]);
      if (std::isnan(mean)) continue;
      lx.push_back(x[c]);
      y.push_back(mean);
    }
    return LogSlope(lx, y);
  };
}

TargetStatistic NStarShare(const std::vector<CurveCell>& cells, const CurveSettings& settings) {
  Curve sides[2];
  std::vector<size_t> order(cells.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return cells[a].N < cells[b].N; });
  for (size_t i : order) {
    if (cells[i].axis != cells[order.front()].axis)
      throw std::invalid_argument("NStarShare: the cells span several axis values");
    sides[cells[i].side == 0 ? 0 : 1].cells.push_back(i);
    sides[cells[i].side == 0 ? 0 : 1].N.push_back(cells[i].N);
  }
  for (const Curve& c : sides)
    if (c.N.size() < 2 || c.N.front() == c.N.back())
      throw std::invalid_argument("NStarShare: each model needs a curve of at least two N");
  return
      [sides0 = sides[0], sides1 = sides[1], settings](const std::vector<CellSample>& s) -> double {
        auto n_star = [&](const Curve& c) {
          return settings.reading == CurveReading::kSuccess
                     ? SuccessNStar(c, s, settings.threshold)
                     : AccuracyNStar(c, s, settings.target_accuracy);
        };
        return n_star(sides1) / n_star(sides0);
      };
}

TargetStatistic NStarExponent(const std::vector<CurveCell>& cells, const CurveSettings& settings) {
  std::map<std::pair<int, double>, Curve> curves;  // by (side, axis)
  std::vector<size_t> order(cells.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return cells[a].N < cells[b].N; });
  for (size_t i : order) {
    if (cells[i].side != 0 && cells[i].side != 1)
      throw std::invalid_argument("NStarExponent: a cell's side must be 0 or 1");
    Curve& curve = curves[{cells[i].side, cells[i].axis}];
    curve.cells.push_back(i);
    curve.N.push_back(cells[i].N);
  }
  std::vector<double> axis[2];
  std::vector<Curve> by_side[2];
  for (const auto& [key, curve] : curves) {
    if (curve.cells.size() < 2)
      throw std::invalid_argument(
          "NStarExponent: a curve (one side, one axis value) needs at "
          "least two N values");
    axis[key.first].push_back(key.second);
    by_side[key.first].push_back(curve);
  }
  const bool ratio = !by_side[1].empty();
  if (axis[0].size() < 2)
    throw std::invalid_argument("NStarExponent: at least two axis values are needed");
  if (ratio && axis[0] != axis[1])
    throw std::invalid_argument("NStarExponent: both sides must have the same axis values");
  return [axis = axis[0], by_side0 = by_side[0], by_side1 = by_side[1], ratio,
          settings](const std::vector<CellSample>& s) -> double {
    auto n_star = [&](const Curve& c) {
      return settings.reading == CurveReading::kSuccess
                 ? SuccessNStar(c, s, settings.threshold)
                 : AccuracyNStar(c, s, settings.target_accuracy);
    };
    std::vector<double> y;
    for (size_t i = 0; i < axis.size(); ++i) {
      double v = std::log(n_star(by_side0[i]));
      if (ratio) v -= std::log(n_star(by_side1[i]));
      y.push_back(v);
    }
    return LogSlope(axis, y);
  };
}

}  // namespace pmoe
