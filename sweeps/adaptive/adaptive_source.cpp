#include "pmoe/sweep/adaptive/adaptive_source.hpp"

#include <sstream>

namespace pmoe {

AdaptiveSource::AdaptiveSource(const std::vector<Cell>& cells, const AdaptiveSettings& settings,
                               const ShardSpec& shard)
    : cells_(cells), search_(cells, settings, shard) {}

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
