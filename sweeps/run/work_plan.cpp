// Work ordering and sharding.
#include "pmoe/sweep/work_plan.hpp"

#include <algorithm>
#include <cstdlib>

#include "pmoe/core/errors.hpp"
#include "pmoe/core/param_table.hpp"

namespace pmoe {

std::vector<WorkItem> PlanWork(const std::vector<Cell>& cells, int trials) {
  std::vector<WorkItem> items;
  items.reserve(cells.size() * static_cast<size_t>(trials));
  for (size_t c = 0; c < cells.size(); ++c) {
    const double cost = EstimateTrialSeconds(cells[c].spec);
    for (int t = 0; t < trials; ++t) items.push_back({c, t, cost});
  }
  std::stable_sort(items.begin(), items.end(),
                   [](const WorkItem& a, const WorkItem& b) { return a.cost > b.cost; });
  return items;
}

std::vector<WorkItem> ShardOf(const std::vector<WorkItem>& all, int index, int count) {
  if (count <= 1) return all;
  std::vector<double> load(count, 0.0);
  std::vector<WorkItem> mine;
  for (const WorkItem& item : all) {
    const int target = static_cast<int>(std::min_element(load.begin(), load.end()) - load.begin());
    load[target] += item.cost;
    if (target == index - 1) mine.push_back(item);
  }
  return mine;
}

std::string ShardSpec::Text() const {
  return count > 0 ? std::to_string(index) + "/" + std::to_string(count) : "";
}

ShardSpec ParseShard(const std::string& text) {
  ShardSpec shard;
  const size_t slash = text.find('/');
  if (slash != std::string::npos) {
    // The checked integer parser: "4294967297/4294967298" must not wrap into "1/2".
    long long index = 0, count = 0;
    try {
      index = ParseIntegerInRange("", "", text.substr(0, slash), 1, 1000000);
      count = ParseIntegerInRange("", "", text.substr(slash + 1), 1, 1000000);
    } catch (const ConfigError&) {
      index = count = 0;
    }
    shard.index = static_cast<int>(index);
    shard.count = static_cast<int>(count);
    if (count >= 1 && index >= 1 && index <= count) return shard;
  }
  throw ConfigError("command line", "--shard", "I/K with 1 <= I <= K, e.g. 2/3", text);
}

ShardSpec ShardFromEnvironment() {
  const char* id = std::getenv("SLURM_ARRAY_TASK_ID");
  const char* count = std::getenv("SLURM_ARRAY_TASK_COUNT");
  if (id == nullptr || count == nullptr) return {};
  const char* min = std::getenv("SLURM_ARRAY_TASK_MIN");
  const long first = min ? std::atol(min) : 0;
  return ParseShard(std::to_string(std::atol(id) - first + 1) + "/" + count);
}

}  // namespace pmoe
