#include "pmoe/sweep/adaptive/adaptive_source.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <sstream>

namespace pmoe {

AdaptiveSource::AdaptiveSource(const std::vector<Cell>& cells, const AdaptiveSettings& settings,
                               const ShardSpec& shard)
    : cells_(cells), settings_(settings), search_(cells, settings, shard) {}

std::vector<WorkItem> AdaptiveSource::NextRound(const StoredRows& stored) {
  return search_.Next([&](size_t cell, int trial) -> std::optional<bool> {
    const TrialRow* row = stored.Find(cells_[cell].id, trial);
    if (row == nullptr) return std::nullopt;
    return row->result.success;
  });
}

std::string AdaptiveSource::Describe() const {
  return "adaptive search of N* in " + std::to_string(search_.series()) + " series";
}

WorkSource::Bound AdaptiveSource::MostWork() const {
  std::map<std::string, double> costliest;  // per series: its costliest N
  for (const Cell& c : cells_) {
    double& worst = costliest[SeriesLabel(c)];
    worst = std::max(worst, EstimateTrialSeconds(c.spec));
  }
  Bound bound;
  for (const auto& entry : costliest) {
    bound.trials += static_cast<size_t>(settings_.budget);
    bound.core_seconds += entry.second * settings_.budget;
  }
  char how[300];
  std::snprintf(how, sizeof how,
                "N between %g and %g: rounds of %d trials at one N, each series stopping when "
                "its 95 %% interval is within %g x N*, or after %d trials; the estimate takes "
                "each series' trials at its costliest N",
                double(settings_.N_min), double(settings_.N_max), settings_.round, settings_.target,
                settings_.budget);
  bound.how = how;
  return bound;
}

std::string AdaptiveSource::RoundNote() const {
  size_t searching = 0;
  for (const SeriesOutcome& o : search_.Outcomes()) searching += o.state == SearchState::kRunning;
  if (searching == 0) return "every series has stopped";
  return std::to_string(searching) + " of " + std::to_string(search_.series()) +
         " series still searching";
}

void AdaptiveSource::Annotate(ResultMeta& meta) const {
  meta.adaptive_series = SeriesTable(search_.Outcomes());
}

std::string AdaptiveSource::Summary() const {
  std::ostringstream out;
  PrintSeriesOutcomes(search_.Outcomes(), out);
  return out.str();
}

void AdaptiveSource::WriteJson(JsonWriter& w) const {
  w.Key("series").BeginArray();
  for (const SeriesOutcome& s : search_.Outcomes())
    w.BeginObject()
        .Field("label", s.label)
        .Field("state", SearchStateName(s.state))
        .Field("rounds", s.rounds)
        .Field("trials", s.trials)
        .Field("N_star", s.estimate.median)
        .Field("lo", s.estimate.lo)
        .Field("hi", s.estimate.hi)
        .EndObject();
  w.EndArray();
}

}  // namespace pmoe
