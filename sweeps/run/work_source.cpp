#include "pmoe/sweep/run/work_source.hpp"

namespace pmoe {

void StoredRows::Insert(const std::vector<TrialRow>& rows) {
  for (const TrialRow& r : rows) rows_.emplace(RowKey{r.cell_id, r.result.trial}, r);
}

const TrialRow* StoredRows::Find(uint64_t cell_id, int trial) const {
  const auto it = rows_.find({cell_id, trial});
  return it == rows_.end() ? nullptr : &it->second;
}

std::vector<TrialRow> StoredRows::Values() const {
  std::vector<TrialRow> out;
  out.reserve(rows_.size());
  for (const auto& [key, row] : rows_) out.push_back(row);
  return out;
}

}  // namespace pmoe
