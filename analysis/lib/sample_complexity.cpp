// N* estimation, exponents and model ratios, all from one set of bootstrap replicates.
#include "pmoe/analysis/sample_complexity.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>

#include "pmoe/analysis/derived_axis.hpp"
#include "pmoe/analysis/theory_orders.hpp"
#include "pmoe/core/param_table.hpp"
#include "pmoe/core/rng.hpp"
#include "pmoe/stats/logistic_fit.hpp"
#include "pmoe/stats/stats.hpp"

namespace pmoe {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// Which parameters each model kind reads, as the cells' keys say (a key holds exactly the
// parameters its families read: the families' declarations, recorded in the file). A parameter a
// kind does not read neither names its series nor stops it from pairing with another model's.
class KindReads {
 public:
  explicit KindReads(const Results& results) {
    std::vector<std::map<std::string, std::string>> params;
    for (const CellRecord& cell : results.cells) {
      for (const auto& [name, value] : cell.params) reads_[cell.Text("model.kind")].insert(name);
      params.push_back(cell.params);
    }
    per_kind_ = ParamsSetPerKind(params);
  }
  bool Reads(const std::string& kind, const std::string& param) const {
    const auto it = reads_.find(kind);
    return it != reads_.end() && it->second.count(param) > 0;
  }
  // Read by some model kind of the results and not by another: left out when pairing series of
  // different models (the CNN reads neither l, k, routers nor gating).
  bool ModelSpecific(const std::string& param) const {
    size_t readers = 0;
    for (const auto& [kind, params] : reads_) readers += params.count(param);
    return readers > 0 && readers < reads_.size();
  }
  // One value per model kind (a [model.cnn] max_steps = 200000 beside pMoE's 50000): a setting
  // of each model, not a design to pair by, so CNN and pMoE series are paired across it.
  bool SetPerKind(const std::string& param) const { return per_kind_.count(param) > 0; }

 private:
  std::map<std::string, std::set<std::string>> reads_;
  std::set<std::string> per_kind_;
};

// `defining`: the parameters a derived axis is made of (n and l of n/l), which then name no
// series either (each series would hold one point otherwise).
std::vector<Series> BuildSeries(const Results& results, const std::string& axis,
                                const std::vector<std::string>& defining) {
  const std::vector<std::string> swept = results.SweptParameters();
  if (std::find(swept.begin(), swept.end(), "N") == swept.end())
    throw std::invalid_argument("the cells do not vary N: sample complexity needs several N");
  // The axis values the cells that read the axis take: a cell whose families do not read it
  // (a CNN in a sweep over l) stands at every one of them, the same trials each time.
  std::vector<std::string> axis_texts;
  for (const CellRecord& cell : results.cells)
    if (!axis.empty() && cell.params.count(axis) &&
        std::find(axis_texts.begin(), axis_texts.end(), cell.Text(axis)) == axis_texts.end())
      axis_texts.push_back(cell.Text(axis));
  if (!axis.empty() && axis_texts.empty())
    throw std::invalid_argument("no parameter \"" + axis + "\" in the results");
  for (const std::string& text : axis_texts) {
    char* end = nullptr;
    std::strtod(text.c_str(), &end);
    if (text.empty() || *end != '\0')
      throw std::invalid_argument(
          axis + " is not a numeric axis (it takes the value \"" + text +
          "\"): sample "
          "complexity runs over a number such as l, k or n; series are formed per " +
          axis + " already, without --over");
  }
  const KindReads reads(results);
  std::vector<Series> series;
  std::map<std::string, size_t> index;
  for (size_t c = 0; c < results.cells.size(); ++c) {
    const CellRecord& cell = results.cells[c];
    std::string label, others;
    const std::string kind = cell.Text("model.kind");
    for (const std::string& p : swept) {
      if (p == "N" || p == axis || !reads.Reads(kind, p) ||
          std::find(defining.begin(), defining.end(), p) != defining.end())
        continue;
      const std::string part = p + "=" + cell.Text(p);
      label += (label.empty() ? "" : ", ") + part;
      if (p != "model.kind" && !reads.ModelSpecific(p) && !reads.SetPerKind(p))
        others += (others.empty() ? "" : ", ") + part;
    }
    if (label.empty()) label = "all";
    auto [it, fresh] = index.emplace(label, series.size());
    if (fresh) series.push_back({label, cell.Text("model.kind"), others, {}});
    Series& s = series[it->second];
    const bool reads_axis = axis.empty() || cell.params.count(axis);
    const std::vector<std::string> texts = axis.empty() ? std::vector<std::string>{""}
                                           : reads_axis ? std::vector<std::string>{cell.Text(axis)}
                                                        : axis_texts;
    for (const std::string& text : texts) {
      auto point = std::find_if(s.points.begin(), s.points.end(),
                                [&](const AxisPoint& p) { return p.text == text; });
      if (point == s.points.end()) {
        char* end = nullptr;
        const double value = axis.empty() ? NAN : std::strtod(text.c_str(), &end);
        s.points.push_back({axis.empty() || *end != '\0' ? NAN : value, text, {}, {}});
        point = s.points.end() - 1;
      }
      // Two cells at one (axis value, N) of a series happen only on a derived axis (n/l = 2 at
      // n = 8, l = 4 and at n = 16, l = 8): pooling them would mix designs, so it is refused.
      for (size_t other : point->cells)
        if (results.cells[other].Number("N") == cell.Number("N"))
          throw std::invalid_argument(
              axis + " = " + text + " at N = " + results.cells[other].Text("N") +
              " holds two cells of series " + label + " (\"" + results.cells[other].label +
              "\" and \"" + cell.label +
              "\"): a derived axis needs one cell per value and N "
              "in a series; link its parameters in the sweep (a zip, or a rule such as "
              "model.l = ${data.n} / 4), or keep a part of the results (--from/--to)");
      point->cells.push_back(c);
      point->N.push_back(cell.Number("N"));
    }
  }
  for (Series& s : series) {
    std::stable_sort(s.points.begin(), s.points.end(),
                     [](const AxisPoint& a, const AxisPoint& b) { return a.value < b.value; });
    for (AxisPoint& p : s.points) {
      std::vector<size_t> order(p.cells.size());
      for (size_t i = 0; i < order.size(); ++i) order[i] = i;
      std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return p.N[a] < p.N[b]; });
      AxisPoint sorted{p.value, p.text, {}, {}};
      for (size_t i : order) {
        sorted.cells.push_back(p.cells[i]);
        sorted.N.push_back(p.N[i]);
      }
      p = sorted;
    }
  }
  return series;
}

// Per cell and trial index: success (1 or 0, -1 when the trial is missing) and test accuracy
// (NaN when missing or not ok: a diverged trial has no accuracy to average).
struct TrialTable {
  int trials = 0;
  std::vector<std::vector<int8_t>> success;
  std::vector<std::vector<double>> accuracy;
};

TrialTable MakeTrialTable(const Results& results) {
  TrialTable table;
  for (const TrialRecord& t : results.trials) table.trials = std::max(table.trials, t.trial + 1);
  table.success.assign(results.cells.size(), std::vector<int8_t>(table.trials, -1));
  table.accuracy.assign(results.cells.size(), std::vector<double>(table.trials, NAN));
  for (const TrialRecord& t : results.trials) {
    table.success[t.cell][t.trial] = t.success ? 1 : 0;
    if (t.status == 0) table.accuracy[t.cell][t.trial] = t.test_acc;
  }
  return table;
}

// Where the fitted success curve reaches the threshold; NaN with fewer than two N.
double SuccessCrossing(const AxisPoint& point, const TrialTable& table,
                       const std::vector<int>& weight, double threshold, int* trials) {
  std::vector<SuccessPoint> points;
  int total = 0;
  for (size_t i = 0; i < point.cells.size(); ++i) {
    SuccessPoint sp{point.N[i], 0, 0};
    const auto& row = table.success[point.cells[i]];
    for (size_t t = 0; t < row.size(); ++t) {
      if (row[t] < 0 || weight[t] == 0) continue;
      sp.trials += weight[t];
      sp.successes += weight[t] * row[t];
    }
    total += static_cast<int>(sp.trials);
    if (sp.trials > 0) points.push_back(sp);
  }
  if (trials) *trials = total;
  if (points.size() < 2) return NAN;
  const LogisticCurve curve = FitLogistic(points);
  // A curve that does not rise (all successes, all failures) crosses nowhere: it is at or past
  // the threshold everywhere, or nowhere.
  if (!(curve.b > 0)) return curve.Probability(points.front().N) >= threshold ? -kInf : kInf;
  return curve.Crossing(threshold);
}

// The first N at which the (weighted) mean test accuracy reaches `target`, interpolated linearly
// in log N from the N before it; -inf when already reached at the smallest N, +inf when never.
double AccuracyCrossing(const AxisPoint& point, const TrialTable& table,
                        const std::vector<int>& weight, double target) {
  double previous_N = NAN, previous_mean = NAN;
  for (size_t i = 0; i < point.cells.size(); ++i) {
    double sum = 0, count = 0;
    const auto& row = table.accuracy[point.cells[i]];
    for (size_t t = 0; t < row.size(); ++t)
      if (!std::isnan(row[t]) && weight[t] > 0) {
        sum += weight[t] * row[t];
        count += weight[t];
      }
    if (count == 0) continue;
    const double mean = sum / count;
    if (mean >= target) {
      if (std::isnan(previous_N)) return -kInf;
      const double fraction = (target - previous_mean) / (mean - previous_mean);
      return std::exp(std::log(previous_N) +
                      fraction * (std::log(point.N[i]) - std::log(previous_N)));
    }
    previous_N = point.N[i];
    previous_mean = mean;
  }
  return std::isnan(previous_N) ? NAN : kInf;
}

// Outside the grid a crossing is a bound: +inf above N_max, -inf below N_min (NaN: no curve).
double AsBound(double crossing, const AxisPoint& point) {
  if (std::isnan(crossing)) return NAN;
  if (crossing > point.N.back()) return kInf;
  if (crossing < point.N.front()) return -kInf;
  return crossing;
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

// Line of log y on log x over the indices `use`; NaN slope with fewer than two finite points.
Line LogLogLine(const std::vector<double>& x, const std::vector<double>& y,
                const std::vector<size_t>& use) {
  std::vector<double> lx, ly;
  for (size_t i : use)
    if (x[i] > 0 && std::isfinite(y[i]) && y[i] > 0) {
      lx.push_back(std::log(x[i]));
      ly.push_back(std::log(y[i]));
    }
  return lx.size() >= 2 ? FitLine(lx, ly) : Line{NAN, NAN};
}

// The bootstrap interval of `estimate` at `level` from its replicates (NaN ones left out): the
// percentile interval widened for `trials` resampled trial indices (stats.hpp), on a log scale
// for positive quantities (N*, ratios).
Interval BootstrapInterval(double estimate, const std::vector<double>& replicates, double level,
                           int trials, bool log_scale) {
  std::vector<double> known;
  for (double v : replicates)
    if (!std::isnan(v)) known.push_back(v);
  return Widened(estimate, Percentile(known, (1 - level) / 2),
                 Percentile(known, 1 - (1 - level) / 2), SmallSampleFactor(trials, level),
                 log_scale);
}

// Point slope over `use` and its bootstrap interval from per-replicate y values, widened for
// `trials` resampled trial indices.
Exponent SlopeWithInterval(const std::vector<double>& x, const std::vector<double>& y,
                           const std::vector<std::vector<double>>& y_replicates,
                           const std::vector<size_t>& use, double level, int trials) {
  Exponent e;
  e.points = static_cast<int>(use.size());
  const Line line = LogLogLine(x, y, use);
  e.slope = line.slope;
  e.intercept = line.intercept;
  std::vector<double> slopes;
  const size_t replicates = y_replicates.empty() ? 0 : y_replicates[0].size();
  for (size_t r = 0; r < replicates; ++r) {
    std::vector<double> yr(y.size(), NAN);
    for (size_t i = 0; i < y.size(); ++i) yr[i] = y_replicates[i][r];
    const double slope = LogLogLine(x, yr, use).slope;
    if (std::isfinite(slope)) slopes.push_back(slope);
  }
  const Interval widened = BootstrapInterval(e.slope, slopes, level, trials, false);
  e.lo = widened.lo;
  e.hi = widened.hi;
  return e;
}

}  // namespace

const char* ReadingName(Reading reading) {
  return reading == Reading::kSuccess ? "success" : "mean_accuracy";
}

SampleComplexity EstimateSampleComplexity(const Results& given, const std::string& requested,
                                          const SampleComplexityOptions& o) {
  // A derived axis (n/l): the cells that read its parameters, each with its value.
  DerivedAxis derived;
  std::optional<Results> with_axis;
  if (IsDerivedAxis(requested)) with_axis = WithDerivedAxis(given, requested, &derived);
  const Results& results = with_axis ? *with_axis : given;
  const std::string axis = with_axis ? derived.name : requested;
  SampleComplexity sc;
  sc.axis = axis;
  sc.series = BuildSeries(results, axis, derived.params);
  sc.theory = results.theory;
  const TrialTable table = MakeTrialTable(results);
  std::vector<std::pair<int, int>> converged(results.cells.size());  // (converged, trials)
  for (const TrialRecord& t : results.trials) {
    converged[t.cell].first += t.zero_train_error;
    ++converged[t.cell].second;
  }
  auto crossing = [&](int reading, const AxisPoint& p, const std::vector<int>& weight,
                      int* trials) {
    const double c = reading == 0 ? SuccessCrossing(p, table, weight, o.threshold, trials)
                                  : AccuracyCrossing(p, table, weight, o.target_accuracy);
    return AsBound(c, p);
  };
  const std::vector<int> all(table.trials, 1);
  for (int reading = 0; reading < 2; ++reading) {
    sc.estimates[reading].resize(sc.series.size());
    sc.replicates[reading].resize(sc.series.size());
    for (size_t s = 0; s < sc.series.size(); ++s)
      for (const AxisPoint& p : sc.series[s].points) {
        NStar n;
        int trials = 0;
        n.estimate = crossing(reading, p, all, &trials);
        if (reading == 1) trials = sc.estimates[0][s][sc.estimates[1][s].size()].trials;
        n.trials = trials;
        n.N_min = p.N.front();
        n.N_max = p.N.back();
        n.below_grid = n.estimate == -kInf;
        n.above_grid = n.estimate == kInf;
        n.converged_near = ConvergedNear(p, n.estimate, converged);
        n.low_convergence = n.converged_near < o.min_converged;
        sc.estimates[reading][s].push_back(n);
        sc.replicates[reading][s].emplace_back();
      }
  }
  // One draw of trial indices per replicate, shared by every cell and both readings: a paired
  // bootstrap.
  sc.trial_indices = table.trials;
  Rng rng(CombineSeed(o.seed, 0x626f6f74));
  std::vector<int> weight(table.trials);
  for (int r = 0; r < o.bootstrap; ++r) {
    std::fill(weight.begin(), weight.end(), 0);
    for (int t = 0; t < table.trials; ++t) ++weight[rng.Below(table.trials)];
    for (int reading = 0; reading < 2; ++reading)
      for (size_t s = 0; s < sc.series.size(); ++s)
        for (size_t i = 0; i < sc.series[s].points.size(); ++i)
          sc.replicates[reading][s][i].push_back(
              crossing(reading, sc.series[s].points[i], weight, nullptr));
  }
  for (int reading = 0; reading < 2; ++reading)
    for (size_t s = 0; s < sc.series.size(); ++s)
      for (size_t i = 0; i < sc.series[s].points.size(); ++i) {
        NStar& n = sc.estimates[reading][s][i];
        const Interval widened = BootstrapInterval(n.estimate, sc.replicates[reading][s][i],
                                                   o.level, table.trials, true);
        n.lo = widened.lo;
        n.hi = widened.hi;
      }
  return sc;
}

std::vector<Exponent> FitExponents(const SampleComplexity& sc, const SampleComplexityOptions& o,
                                   Reading reading) {
  std::vector<Exponent> out;
  const auto& estimates = sc.Of(reading);
  for (size_t s = 0; s < sc.series.size(); ++s) {
    std::vector<double> x, y;
    std::vector<size_t> use;
    for (size_t i = 0; i < sc.series[s].points.size(); ++i) {
      x.push_back(sc.series[s].points[i].value);
      y.push_back(estimates[s][i].estimate);
      if (!estimates[s][i].Censored()) use.push_back(i);
    }
    Exponent e =
        SlopeWithInterval(x, y, sc.replicates[int(reading)][s], use, o.level, sc.trial_indices);
    e.label = sc.series[s].label;
    e.theory = TheoryOrder(sc.theory, sc.series[s].model_kind, sc.axis);
    e.theory_formula = TheoryFormula(sc.theory, sc.series[s].model_kind, sc.axis);
    out.push_back(e);
  }
  return out;
}

namespace {

// Pairs (cnn series, pMoE series) of one design: same parameters but model.kind.
std::vector<std::pair<size_t, size_t>> ModelPairs(const SampleComplexity& sc) {
  std::vector<std::pair<size_t, size_t>> pairs;
  for (size_t a = 0; a < sc.series.size(); ++a) {
    if (sc.series[a].model_kind != "cnn") continue;
    for (size_t b = 0; b < sc.series.size(); ++b)
      if (b != a && sc.series[b].model_kind != "cnn" && sc.series[b].others == sc.series[a].others)
        pairs.push_back({a, b});
  }
  return pairs;
}

// Ratio of N* between two series at their common axis values, with replicates.
struct RatioData {
  std::vector<double> x, y;
  std::vector<std::vector<double>> replicates;
  std::vector<bool> censored, low_convergence;
  std::vector<std::string> bound;
};

// a / b where either may be a bound (+inf: above its grid, -inf: below it): +inf or -inf when
// the ratio is only known to be huge or tiny, NaN when nothing is known (both beyond like edges).
double BoundedRatio(double a, double b) {
  if (std::isfinite(a) && std::isfinite(b)) return a / b;
  if (a == b || std::isnan(a) || std::isnan(b)) return NAN;
  if (a == kInf || b == -kInf) return kInf;
  return -kInf;
}

// The bound a censored ratio still gives: the edge of the grid stands in for the censored side.
std::string RatioBound(const NStar& a, const NStar& b) {
  const bool a_up = a.above_grid, a_down = a.below_grid, b_up = b.above_grid, b_down = b.below_grid;
  if ((a_up && b_up) || (a_down && b_down)) return "n/a";
  const double a_edge = a_up ? a.N_max : a_down ? a.N_min : a.estimate;
  const double b_edge = b_up ? b.N_max : b_down ? b.N_min : b.estimate;
  char text[48];
  std::snprintf(text, sizeof text, "%s %.3g", (a_up || b_down) ? ">" : "<", a_edge / b_edge);
  return text;
}

RatioData RatioOf(const SampleComplexity& sc, Reading reading, size_t a, size_t b) {
  RatioData d;
  const auto& est = sc.Of(reading);
  const auto& reps = sc.replicates[int(reading)];
  for (size_t i = 0; i < sc.series[a].points.size(); ++i)
    for (size_t j = 0; j < sc.series[b].points.size(); ++j) {
      if (sc.series[a].points[i].text != sc.series[b].points[j].text) continue;
      const NStar &na = est[a][i], &nb = est[b][j];
      d.x.push_back(sc.series[a].points[i].value);
      const bool censored = na.Censored() || nb.Censored();
      d.censored.push_back(censored);
      d.y.push_back(censored ? NAN : na.estimate / nb.estimate);
      d.bound.push_back(censored ? RatioBound(na, nb) : "");
      d.low_convergence.push_back(na.low_convergence || nb.low_convergence);
      std::vector<double> ratio_reps;
      for (size_t r = 0; r < reps[a][i].size(); ++r)
        ratio_reps.push_back(BoundedRatio(reps[a][i][r], reps[b][j][r]));
      d.replicates.push_back(ratio_reps);
    }
  return d;
}

// "cnn/separate", with the pMoE's own parameters where several series of its kind pair with the
// same CNN ("cnn/separate (model.l=4)" in a sweep over l and n), and the shared design.
std::string RatioLabel(const SampleComplexity& sc, size_t a, size_t b) {
  const std::string& others = sc.series[a].others;
  std::string own;
  int same_kind = 0;
  for (const Series& s : sc.series)
    same_kind += s.model_kind == sc.series[b].model_kind && s.others == others;
  if (same_kind > 1) {
    // The series label's parts that are not in `others` and not the kind itself.
    const std::string& label = sc.series[b].label;
    size_t start = 0;
    while (start < label.size()) {
      const size_t end = std::min(label.find(", ", start), label.size());
      const std::string part = label.substr(start, end - start);
      if (part.rfind("model.kind=", 0) != 0 && others.find(part) == std::string::npos)
        own += (own.empty() ? "" : ", ") + part;
      start = end + 2;
    }
  }
  std::string design = own;
  if (!others.empty()) design += (design.empty() ? "" : "; ") + others;
  return "cnn/" + sc.series[b].model_kind + (design.empty() ? "" : " (" + design + ")");
}

}  // namespace

std::vector<Ratio> ModelRatios(const SampleComplexity& sc, const SampleComplexityOptions& o,
                               Reading reading) {
  std::vector<Ratio> out;
  for (const auto& [a, b] : ModelPairs(sc)) {
    const RatioData d = RatioOf(sc, reading, a, b);
    Ratio ratio;
    ratio.label = RatioLabel(sc, a, b);
    ratio.axis_values = d.x;
    ratio.estimate = d.y;
    ratio.censored = d.censored;
    ratio.bound = d.bound;
    ratio.low_convergence = d.low_convergence;
    for (size_t i = 0; i < d.replicates.size(); ++i) {
      // A censored ratio has its bound and no interval.
      const Interval widened =
          BootstrapInterval(d.y[i], d.replicates[i], o.level, sc.trial_indices, true);
      ratio.lo.push_back(d.censored[i] ? NAN : widened.lo);
      ratio.hi.push_back(d.censored[i] ? NAN : widened.hi);
    }
    out.push_back(ratio);
  }
  return out;
}

std::vector<Exponent> RatioExponents(const SampleComplexity& sc, const SampleComplexityOptions& o,
                                     Reading reading) {
  std::vector<Exponent> out;
  for (const auto& [a, b] : ModelPairs(sc)) {
    const RatioData d = RatioOf(sc, reading, a, b);
    std::vector<size_t> use;
    for (size_t i = 0; i < d.x.size(); ++i)
      if (!d.censored[i]) use.push_back(i);
    Exponent e = SlopeWithInterval(d.x, d.y, d.replicates, use, o.level, sc.trial_indices);
    e.label = RatioLabel(sc, a, b);
    e.theory = TheoryOrder(sc.theory, sc.series[a].model_kind, sc.axis) -
               TheoryOrder(sc.theory, sc.series[b].model_kind, sc.axis);
    e.theory_formula =
        TheoryRatioFormula(sc.theory, sc.series[a].model_kind, sc.series[b].model_kind, sc.axis);
    out.push_back(e);
  }
  return out;
}

}  // namespace pmoe
