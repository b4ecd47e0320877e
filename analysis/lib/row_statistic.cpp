// A target statistic of a result file's rows: placing the cells, reading the trials, the interval.
#include "pmoe/analysis/row_statistic.hpp"

#include <algorithm>
#include <cmath>
#include <set>
#include <stdexcept>

#include "pmoe/analysis/derived_axis.hpp"
#include "pmoe/core/errors.hpp"
#include "pmoe/core/param_table.hpp"
#include "pmoe/core/rng.hpp"
#include "pmoe/stats/paired_bootstrap.hpp"
#include "pmoe/stats/target_kind.hpp"

namespace pmoe {
namespace {

const std::set<std::string> kKinds = {"exponent",           "ratio_exponent", "share",
                                      "accuracy",           "accuracy_slope", "rate",
                                      "accuracy_difference"};

std::string Listed(const std::set<std::string>& names) {
  std::string text;
  for (const std::string& n : names) text += (text.empty() ? "" : ", ") + n;
  return text;
}

using Selector = std::vector<std::pair<std::string, std::string>>;  // parameter, value

// "separate" -> model.kind = separate; "model.kind=switch,model.activation=cubic" -> both.
Selector ParseSelector(const std::string& option, const std::string& text) {
  Selector selector = ModelSelector(text);
  if (selector.empty())
    throw ConfigError("command line", option, "a model kind, or P=V,... naming its cells", text);
  return selector;
}

bool Matches(const CellRecord& cell, const Selector& selector) {
  for (const auto& [param, value] : selector)
    if (!cell.params.count(param) || cell.Text(param) != value) return false;
  return true;
}

// The side of each cell (-1: not read), as a precision target places it: the baseline's cells on
// side 0 and the model's on side 1 when paired, the model's on side 0 otherwise. A side of
// several model kinds is refused (a pooled curve matches no model). Beyond a kind, --model and
// --baseline may name cells by parameters (Chen's cubic MoE against the linear one, both
// model.kind = switch); a target's baseline is a kind, the special case.
std::vector<int> Sides(const Results& results, const RowStatisticSpec& spec) {
  const bool paired = TargetIsPaired(spec.target);
  const Selector model = spec.model.empty() ? Selector() : ParseSelector("--model", spec.model);
  const Selector baseline = ParseSelector("--baseline", spec.baseline);
  std::vector<int> side(results.cells.size(), -1);
  std::set<std::string> kinds[2];
  for (size_t c = 0; c < results.cells.size(); ++c) {
    const CellRecord& cell = results.cells[c];
    if (paired && Matches(cell, baseline))
      side[c] = 0;
    else if (Matches(cell, model))
      side[c] = paired ? 1 : 0;
    if (side[c] >= 0) kinds[side[c]].insert(cell.Text("model.kind"));
  }
  const int own = paired ? 1 : 0;
  if (kinds[own].size() > 1)
    throw ConfigError("command line: the cells are of " + std::to_string(kinds[own].size()) +
                      " model kinds (" + Listed(kinds[own]) +
                      "): name the one the statistic is about with --model KIND");
  if (kinds[own].empty())
    throw ConfigError("command line: no cell" +
                      (spec.model.empty() ? std::string() : " of --model " + spec.model) +
                      (paired ? " other than the baseline's (" + spec.baseline + ")" : ""));
  if (paired && kinds[0].empty())
    throw ConfigError("command line: no cell of --baseline " + spec.baseline +
                      ": the baseline's side is empty");
  return side;
}

// The spec's checks before any cell is read; returns the --metric's column (-1: none).
int CheckedMetric(const Results& results, const RowStatisticSpec& spec) {
  if (!kKinds.count(spec.target))
    throw ConfigError("command line", "--target", Listed(kKinds), spec.target);
  if (TargetReadsAxis(spec.target) != !spec.axis.empty())
    throw ConfigError("command line: --target " + spec.target +
                      (spec.axis.empty() ? " needs --over AXIS (the slope's axis)"
                                         : " reads no axis: drop --over (select with --where)"));
  if ((spec.target == "rate") != !spec.metric.empty())
    throw ConfigError("command line: --metric goes with --target rate, and rate needs it");
  if (spec.metric.empty()) return -1;
  const int metric = results.MetricIndex(spec.metric);
  if (metric < 0) {
    std::set<std::string> declared;
    for (const MetricColumnInfo& m : results.metrics) declared.insert(m.name);
    throw ConfigError("command line", "--metric",
                      "a metric the files declare (" + Listed(declared) + ")", spec.metric);
  }
  return metric;
}

// Each place's trials by index, valued as a target values them (stats/target_kind.hpp).
std::vector<CellSample> PlaceSamples(const Results& results,
                                     const std::vector<size_t>& cell_of_place, TrialReading reading,
                                     int metric) {
  // Per cell first: a cell may stand in several places (a CNN at every axis value of a curve),
  // each with the same trials.
  std::vector<CellSample> of_cell(results.cells.size());
  std::vector<bool> read(results.cells.size(), false);
  for (const size_t c : cell_of_place) read[c] = true;
  for (const TrialRecord& t : results.trials) {
    if (!read[t.cell] || t.trial < 0) continue;
    std::vector<double>& values = of_cell[t.cell].values;
    if (values.size() <= size_t(t.trial)) values.resize(t.trial + 1, NAN);
    values[t.trial] = TrialValue(reading, t.status == 0, t.success, t.test_acc,
                                 metric >= 0 ? t.metrics[metric] : NAN);
  }
  std::vector<CellSample> samples;
  for (const size_t c : cell_of_place) samples.push_back(of_cell[c]);
  return samples;
}

// The trial counts the page reads: per place, the fewest, and the indices paired in every place.
void CountTrials(const std::vector<CellSample>& samples, RowStatistic* out) {
  size_t indices = 0;
  out->fewest_trials = samples.empty() ? 0 : int(samples.front().values.size());
  for (size_t p = 0; p < samples.size(); ++p) {
    const std::vector<double>& v = samples[p].values;
    out->places[p].trials = int(v.size());
    out->places[p].values =
        int(std::count_if(v.begin(), v.end(), [](double x) { return std::isfinite(x); }));
    out->fewest_trials = std::min(out->fewest_trials, int(v.size()));
    indices = std::max(indices, v.size());
  }
  for (size_t t = 0; t < indices; ++t)
    out->paired_trials += std::all_of(samples.begin(), samples.end(), [&](const CellSample& s) {
      return t < s.values.size() && std::isfinite(s.values[t]);
    });
}

// The axis values a cell stands at: its own; or, for a baseline cell that does not read the axis
// (a CNN over l), every axis value of the model's cells it pairs with (CellsPair, as a precision
// target's layout places it), so both see the same curves.
std::vector<double> AxisValuesOf(const Results& results, const std::vector<int>& side, size_t c,
                                 const std::string& axis, bool paired,
                                 const std::set<std::string>& per_kind) {
  const CellRecord& cell = results.cells[c];
  if (axis.empty()) return {1};
  const double own = cell.Number(axis);
  if (std::isfinite(own) || !paired || side[c] != 0) return {own};
  std::set<double> values;
  for (size_t m = 0; m < results.cells.size(); ++m) {
    if (side[m] != 1) continue;
    const CellRecord& model = results.cells[m];
    if (CellsPair(cell.params, model.params, per_kind)) values.insert(model.Number(axis));
  }
  return values.empty() ? std::vector<double>{own}
                        : std::vector<double>(values.begin(), values.end());
}

// The statistic over cells that hold the axis as a parameter.
RowStatistic Evaluate(const Results& results, const RowStatisticSpec& spec) {
  const int metric = CheckedMetric(results, spec);
  const std::vector<int> side = Sides(results, spec);
  RowStatistic out;
  std::vector<size_t> cell_of_place;
  std::vector<CurveCell> curve;
  std::vector<std::map<std::string, std::string>> params;
  for (const CellRecord& cell : results.cells) params.push_back(cell.params);
  const std::set<std::string> per_kind = ParamsSetPerKind(params);
  for (size_t c = 0; c < results.cells.size(); ++c) {
    if (side[c] < 0) continue;
    const CellRecord& cell = results.cells[c];
    const double N = cell.Number("N");
    for (const double x :
         AxisValuesOf(results, side, c, spec.axis, TargetIsPaired(spec.target), per_kind)) {
      if (!(N > 0) || !(x > 0))
        throw ConfigError("command line: cell " + cell.label + " has no positive N" +
                          (spec.axis.empty() ? "" : " or " + spec.axis));
      cell_of_place.push_back(c);
      curve.push_back({side[c], x, N});
      out.places.push_back({cell.label, cell.Text("model.kind"), side[c], x, N, 0, 0});
    }
  }
  TargetStatistic statistic;
  try {
    statistic = TargetStatisticOf(spec.target, curve, spec.curve);
  } catch (const std::invalid_argument& e) {
    throw ConfigError("command line: --target " + spec.target + ": " + e.what());
  }
  const std::vector<CellSample> samples =
      PlaceSamples(results, cell_of_place, TrialReadingOf(spec.target, spec.curve.reading), metric);
  CountTrials(samples, &out);
  BootstrapSettings bootstrap;
  bootstrap.alpha = 1 - spec.level;
  bootstrap.replicates = spec.bootstrap;
  bootstrap.stream = CombineSeed(spec.seed, 0);  // a one-look target's first look
  const DecisionInterval d = PairedBootstrapInterval(statistic, samples, bootstrap);
  out.estimate = d.estimate;
  out.lo = d.lo;
  out.hi = d.hi;
  return out;
}

}  // namespace

RowStatistic EvaluateRowStatistic(const Results& results, const RowStatisticSpec& spec) {
  if (!IsDerivedAxis(spec.axis)) return Evaluate(results, spec);
  // A derived axis (n/l): the cells that read it, a CNN standing at every n/l of its n, as
  // pmoe-analyze exponent reads it (derived_axis.hpp).
  DerivedAxis axis;
  Results with_axis;
  try {
    with_axis = WithDerivedAxis(results, spec.axis, &axis);
  } catch (const std::invalid_argument& e) {
    throw ConfigError(std::string("command line: --over: ") + e.what());
  }
  RowStatisticSpec on_axis = spec;
  on_axis.axis = axis.name;
  return Evaluate(with_axis, on_axis);
}

}  // namespace pmoe
