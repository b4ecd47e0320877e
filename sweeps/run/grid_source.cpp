#include "pmoe/sweep/run/grid_source.hpp"

namespace pmoe {

GridSource::GridSource(const std::vector<Cell>& cells, std::vector<WorkItem> share)
    : cells_(cells), share_(std::move(share)) {}

std::vector<WorkItem> GridSource::NextRound(const StoredRows& stored) {
  std::vector<WorkItem> todo;
  for (const WorkItem& item : share_)
    if (!stored.Has(cells_[item.cell].id, item.trial)) todo.push_back(item);
  return todo;
}

WorkSource::Bound GridSource::MostWork() const {
  Bound bound;
  bound.trials = share_.size();
  for (const WorkItem& item : share_) bound.core_seconds += item.cost;
  return bound;
}

std::string GridSource::Describe() const { return std::to_string(share_.size()) + " trials"; }

}  // namespace pmoe
