// The adaptive N* search ([adaptive] in the config) as a work source: one round of every
// series still searching at a time (AdaptiveWork), replayed from the stored rows on resume.
#pragma once

#include <vector>

#include "pmoe/sweep/adaptive/adaptive_work.hpp"
#include "pmoe/sweep/run/work_source.hpp"

namespace pmoe {

class AdaptiveSource : public WorkSource {
 public:
  AdaptiveSource(const std::vector<Cell>& cells, const AdaptiveSettings& settings,
                 const ShardSpec& shard);

  std::vector<WorkItem> NextRound(const StoredRows& stored) override;
  std::string Describe() const override;
  Bound MostWork() const override;  // the budget of every series, at its costliest N
  // "3 of 10 series still searching", "every series has stopped"
  std::string RoundNote() const override;
  void Annotate(ResultMeta& meta) const override;  // the series table
  std::string Summary() const override;            // PrintSeriesOutcomes
  // "series": [{label, state, rounds, trials, N_star, lo, hi}, ...]
  void WriteJson(JsonWriter& w) const override;

 private:
  const std::vector<Cell>& cells_;
  AdaptiveSettings settings_;
  AdaptiveWork search_;
};

}  // namespace pmoe
