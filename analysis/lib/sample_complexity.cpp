// N* estimation and exponents for every reading, all from one set of bootstrap replicates. The
// series come from series.cpp, the ratios between models from model_ratios.cpp.
#include "pmoe/analysis/sample_complexity.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <limits>
#include <optional>
#include <stdexcept>

#include "pmoe/analysis/derived_axis.hpp"
#include "pmoe/analysis/theory_orders.hpp"
#include "pmoe/core/rng.hpp"
#include "pmoe/stats/logistic_fit.hpp"
#include "pmoe/stats/stats.hpp"

namespace pmoe {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// Per cell and trial index: success (1 or 0, -1 when the trial is missing) under each success
// criterion ([0] the recorded one, [1 + e] test accuracy >= 1 - epsilons[e]), and test accuracy
// (NaN when missing or not ok: a diverged trial has no accuracy to average).
struct TrialTable {
  int trials = 0;
  std::vector<std::vector<std::vector<int8_t>>> success;  // [criterion][cell][trial]
  std::vector<std::vector<double>> accuracy;              // [cell][trial]
};

TrialTable MakeTrialTable(const Results& results, const std::vector<double>& epsilons) {
  TrialTable table;
  for (const TrialRecord& t : results.trials) table.trials = std::max(table.trials, t.trial + 1);
  table.success.assign(1 + epsilons.size(),
                       std::vector<std::vector<int8_t>>(results.cells.size(),
                                                        std::vector<int8_t>(table.trials, -1)));
  table.accuracy.assign(results.cells.size(), std::vector<double>(table.trials, NAN));
  for (const TrialRecord& t : results.trials) {
    table.success[0][t.cell][t.trial] = t.success ? 1 : 0;
    // A trial that is not ok has no accuracy: it failed every criterion, as it failed `success`.
    for (size_t e = 0; e < epsilons.size(); ++e)
      table.success[1 + e][t.cell][t.trial] = t.status == 0 && t.test_acc >= 1 - epsilons[e];
    if (t.status == 0) table.accuracy[t.cell][t.trial] = t.test_acc;
  }
  return table;
}

// The logistic success curve of a point under one criterion; nullopt with fewer than two N.
struct SuccessFit {
  LogisticCurve curve;
  double first_N = 0;
};

std::optional<SuccessFit> FitSuccess(const AxisPoint& point,
                                     const std::vector<std::vector<int8_t>>& success,
                                     const std::vector<int>& weight) {
  std::vector<SuccessPoint> points;
  for (size_t i = 0; i < point.cells.size(); ++i) {
    SuccessPoint sp{point.N[i], 0, 0};
    const auto& row = success[point.cells[i]];
    for (size_t t = 0; t < row.size(); ++t) {
      if (row[t] < 0 || weight[t] == 0) continue;
      sp.trials += weight[t];
      sp.successes += weight[t] * row[t];
    }
    if (sp.trials > 0) points.push_back(sp);
  }
  if (points.size() < 2) return std::nullopt;
  return SuccessFit{FitLogistic(points), points.front().N};
}

// Where the fitted success curve reaches `probability`. A curve that does not rise (all
// successes, all failures) crosses nowhere: it is at or past the threshold everywhere, or nowhere.
double SuccessCrossing(const std::optional<SuccessFit>& fit, double probability) {
  if (!fit) return NAN;
  if (!(fit->curve.b > 0))
    return fit->curve.Probability(fit->first_N) >= probability ? -kInf : kInf;
  return fit->curve.Crossing(probability);
}

// Where the mean test accuracy reaches `target`, read off its monotone (isotonic) fit in N and
// interpolated linearly in log N: a curve that dips after a first crossing (0.98 at N = 48, 0.87
// at N = 96) has not reached the target for good, and the fit pools the dip until it has.
// -inf when already reached at the smallest N, +inf when never, NaN without data.
double AccuracyCrossing(const AxisPoint& point, const TrialTable& table,
                        const std::vector<int>& weight, double target) {
  std::vector<double> N, mean, count;
  for (size_t i = 0; i < point.cells.size(); ++i) {
    double sum = 0, n = 0;
    const auto& row = table.accuracy[point.cells[i]];
    for (size_t t = 0; t < row.size(); ++t)
      if (!std::isnan(row[t]) && weight[t] > 0) {
        sum += weight[t] * row[t];
        n += weight[t];
      }
    if (n == 0) continue;
    N.push_back(point.N[i]);
    mean.push_back(sum / n);
    count.push_back(n);
  }
  if (N.empty()) return NAN;
  const std::vector<double> fit = IsotonicIncreasing(mean, count);
  for (size_t i = 0; i < fit.size(); ++i) {
    if (fit[i] < target) continue;
    if (i == 0) return -kInf;
    const double fraction = (target - fit[i - 1]) / (fit[i] - fit[i - 1]);
    return std::exp(std::log(N[i - 1]) + fraction * (std::log(N[i]) - std::log(N[i - 1])));
  }
  return kInf;
}

// Outside the grid a crossing is a bound: +inf above N_max, -inf below N_min (NaN: no curve).
double AsBound(double crossing, const AxisPoint& point) {
  if (std::isnan(crossing)) return NAN;
  if (crossing > point.N.back()) return kInf;
  if (crossing < point.N.front()) return -kInf;
  return crossing;
}

// Every reading at one point for one weighting of the trial indices; one logistic fit per
// success criterion serves all its probabilities.
std::vector<double> Crossings(const std::vector<ReadingSpec>& readings,
                              const std::vector<double>& epsilons, const AxisPoint& point,
                              const TrialTable& table, const std::vector<int>& weight) {
  std::vector<std::optional<std::optional<SuccessFit>>> fits(table.success.size());
  std::vector<double> out;
  for (const ReadingSpec& r : readings) {
    if (r.kind == Reading::kMeanAccuracy) {
      out.push_back(AsBound(AccuracyCrossing(point, table, weight, r.target), point));
      continue;
    }
    size_t criterion = 0;
    for (size_t e = 0; e < epsilons.size(); ++e)
      if (epsilons[e] == r.epsilon) criterion = 1 + e;
    if (!fits[criterion]) fits[criterion] = FitSuccess(point, table.success[criterion], weight);
    out.push_back(AsBound(SuccessCrossing(*fits[criterion], r.probability), point));
  }
  return out;
}

// The fraction of the trials in the cells around `estimate` that reached zero training error.
double ConvergedNear(const AxisPoint& point, double estimate,
                     const std::vector<std::pair<int, int>>& converged_of_cell) {
  std::vector<size_t> near;
  if (estimate == kInf || std::isnan(estimate)) {
    near.push_back(point.cells.size() - 1);
  } else if (estimate == -kInf) {
    near.push_back(0);
  } else {
    for (size_t i = 0; i < point.cells.size(); ++i) {
      const bool below =
          point.N[i] <= estimate && (i + 1 == point.cells.size() || point.N[i + 1] > estimate);
      const bool above = point.N[i] >= estimate && (i == 0 || point.N[i - 1] < estimate);
      if (below || above) near.push_back(i);
    }
  }
  int converged = 0, trials = 0;
  for (size_t i : near) {
    converged += converged_of_cell[point.cells[i]].first;
    trials += converged_of_cell[point.cells[i]].second;
  }
  return trials ? double(converged) / trials : NAN;
}

// The trials of a point and how many distinct trial indices they use: the bootstrap resamples
// indices, so a point whose cells hold 40 trials is a 40-trial estimate however many trials
// other cells of the file hold, and its interval widens as one.
std::pair<int, int> PointTrials(const AxisPoint& point, const TrialTable& table) {
  int trials = 0, indices = 0;
  for (int t = 0; t < table.trials; ++t) {
    bool seen = false;
    for (size_t c : point.cells)
      if (table.success[0][c][t] >= 0) {
        ++trials;
        seen = true;
      }
    indices += seen;
  }
  return {trials, indices};
}

// Every reading at one point for one weighting of the trial indices.
using PointCrossings =
    std::function<std::vector<double>(const AxisPoint&, const std::vector<int>& weight)>;

// An estimate at a point: the bound it is outside the grid, the convergence near it.
NStar AtPoint(double estimate, const AxisPoint& p,
              const std::vector<std::pair<int, int>>& converged, const SampleComplexityOptions& o) {
  NStar n;
  n.estimate = estimate;
  n.N_min = p.N.front();
  n.N_max = p.N.back();
  n.below_grid = n.estimate == -kInf;
  n.above_grid = n.estimate == kInf;
  n.converged_near = ConvergedNear(p, n.estimate, converged);
  n.low_convergence = n.converged_near < o.min_converged;
  return n;
}

// sc.replicates: one draw of the `trials` trial indices per replicate, shared by every cell and
// reading (a paired bootstrap); the seed's stream is the one every earlier version drew.
void DrawReplicates(SampleComplexity& sc, const PointCrossings& crossings, int trials,
                    const SampleComplexityOptions& o) {
  sc.replicates.assign(sc.readings.size(),
                       std::vector<std::vector<std::vector<double>>>(sc.series.size()));
  for (auto& reading : sc.replicates)
    for (size_t s = 0; s < sc.series.size(); ++s) reading[s].resize(sc.series[s].points.size());
  Rng rng(CombineSeed(o.seed, 0x626f6f74));
  std::vector<int> weight(trials);
  for (int b = 0; b < o.bootstrap; ++b) {
    std::fill(weight.begin(), weight.end(), 0);
    for (int t = 0; t < trials; ++t) ++weight[rng.Below(trials)];
    for (size_t s = 0; s < sc.series.size(); ++s)
      for (size_t i = 0; i < sc.series[s].points.size(); ++i) {
        const std::vector<double> values = crossings(sc.series[s].points[i], weight);
        for (size_t r = 0; r < values.size(); ++r) sc.replicates[r][s][i].push_back(values[r]);
      }
  }
}

std::string ReadingLabel(double probability, double epsilon) {
  char text[64];
  if (std::isnan(epsilon))
    std::snprintf(text, sizeof text, "success@%g", probability);
  else
    std::snprintf(text, sizeof text, "success@%g,eps=%g", probability, epsilon);
  return text;
}

}  // namespace

const char* ReadingName(Reading reading) {
  return reading == Reading::kSuccess ? "success" : "mean_accuracy";
}

std::vector<ReadingSpec> MakeReadings(const SampleComplexityOptions& o) {
  std::vector<ReadingSpec> readings = {
      {Reading::kSuccess, o.threshold, 1 - o.threshold, NAN, NAN, "success"},
      {Reading::kMeanAccuracy, NAN, NAN, NAN, o.target_accuracy, "mean_accuracy"}};
  std::vector<double> epsilons = {NAN};
  epsilons.insert(epsilons.end(), o.epsilons.begin(), o.epsilons.end());
  for (double epsilon : epsilons)
    for (double delta : o.deltas) {
      const double probability = 1 - delta;
      if (std::isnan(epsilon) && std::abs(probability - o.threshold) < 1e-12) continue;
      readings.push_back({Reading::kSuccess, probability, delta, epsilon, NAN,
                          ReadingLabel(probability, epsilon)});
    }
  return readings;
}

SampleComplexity EstimateSampleComplexity(const Results& given, const std::string& requested,
                                          const SampleComplexityOptions& o) {
  // A derived axis (n/l): the cells that read its parameters, each with its value.
  DerivedAxis derived;
  std::optional<Results> with_axis;
  if (IsDerivedAxis(requested)) with_axis = WithDerivedAxis(given, requested, &derived);
  const Results& results = with_axis ? *with_axis : given;
  SampleComplexity sc;
  sc.axis = with_axis ? derived.name : requested;
  sc.series = BuildSeries(results, sc.axis, derived.params);
  sc.theory = results.theory;
  sc.readings = MakeReadings(o);
  const TrialTable table = MakeTrialTable(results, o.epsilons);
  std::vector<std::pair<int, int>> converged(results.cells.size());  // (converged, trials)
  for (const TrialRecord& t : results.trials) {
    converged[t.cell].first += t.zero_train_error;
    ++converged[t.cell].second;
  }
  const PointCrossings crossings = [&](const AxisPoint& p, const std::vector<int>& weight) {
    return Crossings(sc.readings, o.epsilons, p, table, weight);
  };
  sc.estimates.assign(sc.readings.size(), std::vector<std::vector<NStar>>(sc.series.size()));
  const std::vector<int> all(table.trials, 1);
  for (size_t s = 0; s < sc.series.size(); ++s)
    for (const AxisPoint& p : sc.series[s].points) {
      const std::vector<double> values = crossings(p, all);
      const auto [trials, indices] = PointTrials(p, table);
      for (size_t r = 0; r < sc.readings.size(); ++r) {
        NStar n = AtPoint(values[r], p, converged, o);
        n.trials = trials;
        n.trial_indices = indices;
        sc.estimates[r][s].push_back(n);
      }
    }
  DrawReplicates(sc, crossings, table.trials, o);
  for (size_t r = 0; r < sc.readings.size(); ++r)
    for (size_t s = 0; s < sc.series.size(); ++s)
      for (size_t i = 0; i < sc.series[s].points.size(); ++i) {
        NStar& n = sc.estimates[r][s][i];
        const Interval widened =
            BootstrapInterval(n.estimate, sc.replicates[r][s][i], o.level, n.trial_indices, true);
        n.lo = widened.lo;
        n.hi = widened.hi;
      }
  return sc;
}

std::vector<Exponent> FitExponents(const SampleComplexity& sc, const SampleComplexityOptions& o,
                                   Reading reading) {
  return FitExponents(sc, o, size_t(reading));
}

std::vector<Exponent> FitExponents(const SampleComplexity& sc, const SampleComplexityOptions& o,
                                   size_t reading) {
  std::vector<Exponent> out;
  for (size_t s = 0; s < sc.series.size(); ++s) {
    AxisEstimates e;
    e.replicates = sc.replicates[reading][s];
    std::vector<size_t> use;
    e.trials = std::numeric_limits<int>::max();
    for (size_t i = 0; i < sc.series[s].points.size(); ++i) {
      const NStar& n = sc.estimates[reading][s][i];
      e.x.push_back(sc.series[s].points[i].value);
      e.y.push_back(n.estimate);
      e.use.push_back(!n.Censored());
      if (n.Censored()) continue;
      use.push_back(i);
      e.trials = std::min(e.trials, n.trial_indices);
    }
    if (use.empty()) e.trials = 0;
    Exponent x = ExponentOf(e, use, o.level);
    x.label = sc.series[s].label;
    x.theory = TheoryOrder(sc.theory, sc.series[s].model_kind, sc.axis);
    x.theory_formula = TheoryFormula(sc.theory, sc.series[s].model_kind, sc.axis);
    out.push_back(x);
  }
  return out;
}

Exponent ExponentOf(const AxisEstimates& e, const std::vector<size_t>& use, double level) {
  Exponent x;
  const Slope slope = LogLogSlope(e, use, level);
  x.slope = slope.slope;
  x.lo = slope.lo;
  x.hi = slope.hi;
  x.intercept = slope.intercept;
  x.points = slope.points;
  x.trials = e.trials;
  x.shape = DescribeShape(e, level);
  return x;
}

}  // namespace pmoe
