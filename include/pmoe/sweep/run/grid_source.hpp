// The static grid as a work source: every (cell, trial) of its share, one round.
#pragma once

#include <vector>

#include "pmoe/sweep/run/work_source.hpp"

namespace pmoe {

class GridSource : public WorkSource {
 public:
  // `share`: the items this process owns (PlanWork's order, cut to a shard by ShardOf).
  GridSource(const std::vector<Cell>& cells, std::vector<WorkItem> share);

  std::vector<WorkItem> NextRound(const StoredRows& stored) override;  // the share not stored
  std::optional<size_t> Planned() const override { return share_.size(); }
  std::string Describe() const override;
  Bound MostWork() const override;  // the share, exactly

 private:
  const std::vector<Cell>& cells_;
  std::vector<WorkItem> share_;
};

}  // namespace pmoe
