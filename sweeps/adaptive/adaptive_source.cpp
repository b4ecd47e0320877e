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

}  // namespace pmoe
