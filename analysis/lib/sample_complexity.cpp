// N* estimation, exponents and model ratios, all from one set of bootstrap replicates.
#include "pmoe/analysis/sample_complexity.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <cstdlib>
#include <map>
#include <stdexcept>

#include "pmoe/analysis/logistic_fit.hpp"
#include "pmoe/analysis/stats.hpp"
#include "pmoe/core/rng.hpp"

namespace pmoe {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// Parameters a model kind does not read (MODEL.md §4-5): they neither name its series nor stop
// it from pairing with another model's series. Only the CNN reads neither routing nor gating.
bool AppliesTo(const std::string& param, const std::string& kind) {
  const bool routing = param == "model.l" || param == "model.k";
  const bool router = param == "model.sigma_r" || param.rfind("model.router_", 0) == 0;
  const bool gating = param == "model.sigma_g";
  if (kind == "cnn") return !routing && !router && !gating;
  if (kind == "separate") return !gating;
  if (kind == "joint") return !router;
  return true;
}

// Parameters specific to some model kind: left out when pairing series of different models.
bool ModelSpecific(const std::string& param) {
  return !AppliesTo(param, "cnn") || !AppliesTo(param, "separate") || !AppliesTo(param, "joint");
}

std::vector<Series> BuildSeries(const Results& results, const std::string& axis) {
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
  std::vector<Series> series;
  std::map<std::string, size_t> index;
  for (size_t c = 0; c < results.cells.size(); ++c) {
    const CellRecord& cell = results.cells[c];
    std::string label, others;
    const std::string kind = cell.Text("model.kind");
    for (const std::string& p : swept) {
      if (p == "N" || p == axis || !AppliesTo(p, kind)) continue;
      const std::string part = p + "=" + cell.Text(p);
      label += (label.empty() ? "" : ", ") + part;
      if (p != "model.kind" && !ModelSpecific(p)) others += (others.empty() ? "" : ", ") + part;
    }
    if (label.empty()) label = "all";
    auto [it, fresh] = index.emplace(label, series.size());
    if (fresh) series.push_back({label, cell.Text("model.kind"), others, {}});
    Series& s = series[it->second];
    const bool reads_axis = axis.empty() || cell.params.count(axis);
    const std::vector<std::string> texts =
        axis.empty() ? std::vector<std::string>{""}
                     : reads_axis ? std::vector<std::string>{cell.Text(axis)} : axis_texts;
    for (const std::string& text : texts) {
      auto point = std::find_if(s.points.begin(), s.points.end(),
                                [&](const AxisPoint& p) { return p.text == text; });
      if (point == s.points.end()) {
        char* end = nullptr;
        const double value = axis.empty() ? NAN : std::strtod(text.c_str(), &end);
        s.points.push_back({axis.empty() || *end != '\0' ? NAN : value, text, {}, {}});
        point = s.points.end() - 1;
      }
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

// success[cell][trial index]: 1 or 0, -1 when the trial is missing.
std::vector<std::vector<int8_t>> SuccessTable(const Results& results, int* trial_count) {
  int count = 0;
  for (const TrialRecord& t : results.trials) count = std::max(count, t.trial + 1);
  std::vector<std::vector<int8_t>> table(results.cells.size(), std::vector<int8_t>(count, -1));
  for (const TrialRecord& t : results.trials) table[t.cell][t.trial] = t.success ? 1 : 0;
  *trial_count = count;
  return table;
}

double Crossing(const AxisPoint& point, const std::vector<std::vector<int8_t>>& success,
                const std::vector<int>& weight, double threshold, int* trials) {
  std::vector<SuccessPoint> points;
  int total = 0;
  for (size_t i = 0; i < point.cells.size(); ++i) {
    SuccessPoint sp{point.N[i], 0, 0};
    const auto& row = success[point.cells[i]];
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
  return FitLogistic(points).Crossing(threshold);
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

// Point slope over `use` and its bootstrap interval from per-replicate y values.
Exponent SlopeWithInterval(const std::vector<double>& x, const std::vector<double>& y,
                           const std::vector<std::vector<double>>& y_replicates,
                           const std::vector<size_t>& use, double level) {
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
  e.lo = Percentile(slopes, (1 - level) / 2);
  e.hi = Percentile(slopes, 1 - (1 - level) / 2);
  return e;
}

}  // namespace

SampleComplexity EstimateSampleComplexity(const Results& results, const std::string& axis,
                                          const SampleComplexityOptions& o) {
  SampleComplexity sc;
  sc.axis = axis;
  sc.series = BuildSeries(results, axis);
  int trial_count = 0;
  const auto success = SuccessTable(results, &trial_count);
  sc.nstar.resize(sc.series.size());
  sc.replicates.resize(sc.series.size());
  const std::vector<int> all(trial_count, 1);
  for (size_t s = 0; s < sc.series.size(); ++s) {
    for (const AxisPoint& p : sc.series[s].points) {
      NStar n;
      n.estimate = Crossing(p, success, all, o.threshold, &n.trials);
      n.N_min = p.N.front();
      n.N_max = p.N.back();
      n.below_grid = n.estimate < n.N_min;
      n.above_grid = !(n.estimate <= n.N_max);
      sc.nstar[s].push_back(n);
      sc.replicates[s].emplace_back();
    }
  }
  // One draw of trial indices per replicate, shared by every cell: a paired bootstrap.
  Rng rng(CombineSeed(o.seed, 0x626f6f74));
  std::vector<int> weight(trial_count);
  for (int r = 0; r < o.bootstrap; ++r) {
    std::fill(weight.begin(), weight.end(), 0);
    for (int t = 0; t < trial_count; ++t) ++weight[rng.Below(trial_count)];
    for (size_t s = 0; s < sc.series.size(); ++s)
      for (size_t i = 0; i < sc.series[s].points.size(); ++i) {
        const double c = Crossing(sc.series[s].points[i], success, weight, o.threshold, nullptr);
        sc.replicates[s][i].push_back(std::isnan(c) ? kInf : c);
      }
  }
  for (size_t s = 0; s < sc.series.size(); ++s)
    for (size_t i = 0; i < sc.nstar[s].size(); ++i) {
      sc.nstar[s][i].lo = Percentile(sc.replicates[s][i], (1 - o.level) / 2);
      sc.nstar[s][i].hi = Percentile(sc.replicates[s][i], 1 - (1 - o.level) / 2);
    }
  return sc;
}

std::vector<Exponent> FitExponents(const SampleComplexity& sc, const SampleComplexityOptions& o) {
  std::vector<Exponent> out;
  for (size_t s = 0; s < sc.series.size(); ++s) {
    std::vector<double> x, y;
    std::vector<size_t> use;
    for (size_t i = 0; i < sc.series[s].points.size(); ++i) {
      x.push_back(sc.series[s].points[i].value);
      y.push_back(sc.nstar[s][i].estimate);
      if (!sc.nstar[s][i].Censored()) use.push_back(i);
    }
    Exponent e = SlopeWithInterval(x, y, sc.replicates[s], use, o.level);
    e.label = sc.series[s].label;
    e.theory = TheoryOrder(sc.series[s].model_kind, sc.axis);
    e.theory_formula = TheoryFormula(sc.series[s].model_kind);
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
      if (b != a && sc.series[b].model_kind != "cnn" &&
          sc.series[b].others == sc.series[a].others)
        pairs.push_back({a, b});
  }
  return pairs;
}

// Ratio of N* between two series at their common axis values, with replicates.
struct RatioData {
  std::vector<double> x, y;
  std::vector<std::vector<double>> replicates;
  std::vector<bool> censored;
};

RatioData RatioOf(const SampleComplexity& sc, size_t a, size_t b) {
  RatioData d;
  for (size_t i = 0; i < sc.series[a].points.size(); ++i)
    for (size_t j = 0; j < sc.series[b].points.size(); ++j) {
      if (sc.series[a].points[i].text != sc.series[b].points[j].text) continue;
      d.x.push_back(sc.series[a].points[i].value);
      d.y.push_back(sc.nstar[a][i].estimate / sc.nstar[b][j].estimate);
      d.censored.push_back(sc.nstar[a][i].Censored() || sc.nstar[b][j].Censored());
      std::vector<double> reps;
      for (size_t r = 0; r < sc.replicates[a][i].size(); ++r)
        reps.push_back(sc.replicates[a][i][r] / sc.replicates[b][j][r]);
      d.replicates.push_back(reps);
    }
  return d;
}

std::string RatioLabel(const SampleComplexity& sc, size_t a, size_t b) {
  const std::string& others = sc.series[a].others;
  return "cnn/" + sc.series[b].model_kind + (others.empty() ? "" : " (" + others + ")");
}

}  // namespace

std::vector<Ratio> ModelRatios(const SampleComplexity& sc, const SampleComplexityOptions& o) {
  std::vector<Ratio> out;
  for (const auto& [a, b] : ModelPairs(sc)) {
    const RatioData d = RatioOf(sc, a, b);
    Ratio ratio;
    ratio.label = RatioLabel(sc, a, b);
    ratio.axis_values = d.x;
    ratio.estimate = d.y;
    ratio.censored = d.censored;
    for (const auto& reps : d.replicates) {
      std::vector<double> finite;
      for (double v : reps)
        if (!std::isnan(v)) finite.push_back(v);
      ratio.lo.push_back(Percentile(finite, (1 - o.level) / 2));
      ratio.hi.push_back(Percentile(finite, 1 - (1 - o.level) / 2));
    }
    out.push_back(ratio);
  }
  return out;
}

std::vector<Exponent> RatioExponents(const SampleComplexity& sc, const SampleComplexityOptions& o) {
  std::vector<Exponent> out;
  for (const auto& [a, b] : ModelPairs(sc)) {
    const RatioData d = RatioOf(sc, a, b);
    std::vector<size_t> use;
    for (size_t i = 0; i < d.x.size(); ++i)
      if (!d.censored[i]) use.push_back(i);
    Exponent e = SlopeWithInterval(d.x, d.y, d.replicates, use, o.level);
    e.label = RatioLabel(sc, a, b);
    e.theory = TheoryOrder("cnn", sc.axis) - TheoryOrder(sc.series[b].model_kind, sc.axis);
    e.theory_formula = "(" + TheoryFormula("cnn") + ") / (" +
                       TheoryFormula(sc.series[b].model_kind) + ")";
    out.push_back(e);
  }
  return out;
}

double TheoryOrder(const std::string& kind, const std::string& axis) {
  // MODEL.md §9, samples row: CNN n^8 p^12, separate l^8 p^12, joint k^4 l^6 p^12.
  static const std::map<std::pair<std::string, std::string>, double> order = {
      {{"cnn", "data.n"}, 8},        {{"cnn", "model.l"}, 0},     {{"cnn", "model.k"}, 0},
      {{"cnn", "data.p"}, 12},       {{"separate", "model.l"}, 8}, {{"separate", "data.n"}, 0},
      {{"separate", "data.p"}, 12},  {{"joint", "model.k"}, 4},    {{"joint", "model.l"}, 6},
      {{"joint", "data.n"}, 0},      {{"joint", "data.p"}, 12},
      // MODEL.md §7 (appendix M): the number of classes, separate c^12, joint c^8.
      {{"separate", "data.c"}, 12},  {{"joint", "data.c"}, 8}};
  const auto it = order.find({kind, axis});
  return it == order.end() ? NAN : it->second;
}

std::string TheoryFormula(const std::string& kind) {
  if (kind == "cnn") return "n^8 p^12 delta^6 / eps^16";
  if (kind == "separate") return "l^8 p^12 delta^6 / eps^16";
  if (kind == "joint") return "k^4 l^6 p^12 delta^6 / eps^16";
  return "";
}

}  // namespace pmoe
