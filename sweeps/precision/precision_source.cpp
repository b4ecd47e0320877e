// The precision targets of a sweep, handing out each target's next look as a round.
#include "pmoe/precision/precision_source.hpp"

#include <algorithm>
#include <cmath>
#include <set>
#include <sstream>

#include "pmoe/core/errors.hpp"
#include "pmoe/core/rng.hpp"
#include "pmoe/precision/looks_table.hpp"
#include "pmoe/stats/sequential_interval.hpp"
#include "pmoe/stats/target_kind.hpp"

namespace pmoe {

int BudgetFromHours(const std::vector<Cell>& cells, const PrecisionConfig& config,
                    const std::string& path) {
  std::vector<CellParams> params;
  for (const Cell& c : cells) params.push_back(ParseCanonicalKey(c.key));
  std::set<size_t> read;
  for (const PrecisionGroup& g : LayoutTargets(params, config, path))
    read.insert(g.cells.begin(), g.cells.end());
  double seconds = 0;
  for (size_t c : read) seconds += EstimateTrialSeconds(cells[c].spec) / read.size();
  const double trials = std::ceil(config.budget_hours * 3600 / seconds);
  return static_cast<int>(std::min(trials, 10000000.0));
}

PrecisionSource::PrecisionSource(const std::vector<Cell>& cells, const PrecisionConfig& config,
                                 const ShardSpec& shard, const std::string& path)
    : cells_(cells), config_(config) {
  std::vector<CellParams> params;
  for (const Cell& c : cells) params.push_back(ParseCanonicalKey(c.key));
  const std::vector<PrecisionGroup> groups = LayoutTargets(params, config, path);
  for (size_t i = 0; i < groups.size(); ++i) {
    // Every target's settings are checked on every shard (a budget below the first look is a
    // config error, exit 2 naming the file), not only on the shard that runs it.
    try {
      CheckPrecisionSettings(
          config.settings, std::set<size_t>(groups[i].cells.begin(), groups[i].cells.end()).size());
    } catch (const std::invalid_argument& e) {
      throw ConfigError(path + ": [precision] target " + groups[i].label + ": " + e.what());
    }
    if (shard.count > 0 && int(i % shard.count) + 1 != shard.index) continue;
    PrecisionSettings s = config.settings;
    // The bootstrap's stream: the target's own (its label), so shards and orders do not matter.
    s.seed = CombineSeed(config.settings.seed, HashString(groups[i].label));
    // The cost model's seconds per trial (nominal FLOPs and data per trial): a pure function of
    // the cell's spec, so resumed, threaded and sharded runs plan the same looks. A measured
    // wall_ms differs between runs and machines; `steps` is reproducible but not comparable across
    // model kinds (a CNN step is not a pMoE step) and unknown before a cell's first look.
    if (s.cost_aware)
      for (size_t c : groups[i].cells) s.cost.push_back(EstimateTrialSeconds(cells[c].spec));
    targets_.push_back(
        {groups[i], PrecisionTarget(groups[i].cells.size(), StatisticOf(groups[i].curve, config), s,
                                    groups[i].cells)});
  }
}

// A row's per-trial value for the target: the metric of a rate, the test accuracy of the
// accuracy targets and of the accuracy reading (NaN for a failed trial), success as 1/0 else.
double PrecisionSource::ValueOf(const TrialRow& row) const {
  const TrialReading reading = TrialReadingOf(config_.target, config_.curve.reading);
  return TrialValue(
      reading, row.result.status == TrialStatus::kOk, row.result.success, row.result.test_acc,
      reading == TrialReading::kMetric ? row.result.metrics.Get(config_.metric) : NAN);
}

std::vector<WorkItem> PrecisionSource::NextRound(const StoredRows& stored) {
  std::set<std::pair<size_t, int>> asked;  // a CNN cell on several curves is asked once
  for (Target& t : targets_) {
    const std::vector<size_t>& place = t.group.cells;
    auto held = [&](size_t j, int trial) -> std::optional<double> {
      const TrialRow* row = stored.Find(cells_[place[j]].id, trial);
      if (row == nullptr) return std::nullopt;
      return ValueOf(*row);
    };
    for (const WorkPair& w : t.target.Next(held)) asked.insert({place[w.cell], w.trial});
  }
  std::vector<WorkItem> items;
  for (const auto& [cell, trial] : asked)
    items.push_back({cell, trial, EstimateTrialSeconds(cells_[cell].spec)});
  std::stable_sort(items.begin(), items.end(),
                   [](const WorkItem& a, const WorkItem& b) { return a.cost > b.cost; });
  return items;
}

WorkSource::Bound PrecisionSource::MostWork() const {
  Bound bound;
  const double budget = config_.settings.budget;
  for (const Target& t : targets_) {
    const std::set<size_t> units(t.group.cells.begin(), t.group.cells.end());  // rows read once
    double worst = 0, sum = 0, cheapest = kInf;
    for (size_t c : units) {
      worst = std::max(worst, EstimateTrialSeconds(cells_[c].spec));
      cheapest = std::min(cheapest, EstimateTrialSeconds(cells_[c].spec));
      sum += EstimateTrialSeconds(cells_[c].spec);
    }
    // allocation = cost spends the budget's CPU at the mean cost: cheap trials may outnumber it.
    const double most =
        config_.settings.cost_aware ? std::ceil(budget * sum / units.size() / cheapest) : budget;
    bound.trials += static_cast<size_t>(most);
    bound.core_seconds += worst * budget;
    bound.expected_core_seconds += sum / units.size() * budget;
    bound.trials_per_cell = std::max(bound.trials_per_cell, budget / units.size());
  }
  bound.how = "a budget of " + std::to_string(config_.settings.budget) +
              " trials in all per target, " + std::to_string(config_.settings.start) +
              " per cell at the first look, then up to " + std::to_string(config_.settings.looks) +
              " looks until its interval excludes " + FormatDouble(config_.settings.threshold) +
              " or the budget is spent; time by the cost model with the budget spread evenly "
              "over the cells (at most every trial at the costliest cell)";
  return bound;
}

// What a target measures: "exponent of N*(cnn)/N*(other) over data.n/model.l" and the like.
std::string PrecisionSource::What() const {
  const PrecisionConfig& c = config_;
  const std::string n = c.curve.reading == CurveReading::kSuccess ? "N*" : "N_acc";  // analyze's
  const std::string over = " over " + OverText(c);
  if (c.target == "exponent") return "exponent of " + n + over;
  if (c.target == "ratio_exponent")
    return "exponent of " + n + "(" + c.baseline + ")/" + n + "(other)" + over;
  if (c.target == "share") return "sample share " + n + "(model)/" + n + "(" + c.baseline + ")";
  if (c.target == "accuracy") return "mean test accuracy";
  if (c.target == "accuracy_slope")
    return "slope of the mean test accuracy over log " + OverText(c);
  if (c.target == "rate") return "mean " + c.metric;
  return "mean test accuracy of the model minus " + c.baseline + "'s";
}

std::string PrecisionSource::Describe() const {
  return std::string("precision target") + (targets_.size() == 1 ? "" : "s") + " (" +
         std::to_string(targets_.size()) + "): " + What() +
         (config_.side == Side::kBelow ? ", claimed below" : "") + ", threshold " +
         FormatDouble(config_.settings.threshold) + ", alpha " +
         FormatDouble(config_.settings.alpha) + ", budget " +
         std::to_string(config_.settings.budget) + " trials" +
         (config_.budget_hours > 0
              ? " (" + FormatDouble(config_.budget_hours) + " CPU-hours by the cost model)"
              : "") +
         (config_.settings.cost_aware ? ", allocation by cost" : "") +
         (config_.where.empty() ? "" : ", cells where " + WhereText(config_)) +
         (config_.settings.half_width > 0
              ? ", or until its interval is within " + FormatDouble(config_.settings.half_width) +
                    " either side"
              : "");
}

std::string PrecisionSource::RoundNote() const {
  size_t running = 0;
  for (const Target& t : targets_) running += t.target.verdict() == Verdict::kRunning;
  return std::to_string(running) + " of " + std::to_string(targets_.size()) +
         " targets still running";
}

void PrecisionSource::Annotate(ResultMeta& meta) const {
  std::vector<TargetLooks> looks;
  for (const Target& t : targets_) looks.push_back({t.group.label, t.target.looks()});
  meta.precision_looks = LooksTable(looks);
}

std::string PrecisionSource::Summary() const {
  std::ostringstream out;
  for (const Target& t : targets_) {
    out << "target " << t.group.label << ": " << VerdictName(t.target.verdict());
    // What the verdict means for the claim on its side (the one rule's names).
    const Verdict v = t.target.verdict();
    if (v == Verdict::kAbove || v == Verdict::kBelow)
      out << " (claim "
          << ((v == Verdict::kAbove) == (config_.side == Side::kAbove) ? "shown" : "excluded")
          << ")";
    if (t.target.verdict() == Verdict::kUndecided) out << " at budget " << config_.settings.budget;
    if (t.target.verdict() == Verdict::kWithin)
      out << " " << FormatDouble(config_.settings.half_width) << " either side of the threshold";
    if (!t.target.looks().empty()) {
      const Look& l = t.target.looks().back();
      out << " (threshold " << FormatDouble(config_.settings.threshold) << ", " << l.total
          << " trials)";
    }
    out << "\n" << DescribeLooks(t.target.looks());
  }
  return out.str();
}

}  // namespace pmoe
