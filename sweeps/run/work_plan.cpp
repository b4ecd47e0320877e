// Work ordering and sharding.
#include "pmoe/sweep/run/work_plan.hpp"

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
  throw ConfigError("command line", "--shard",
                    "I/K with 1 <= I <= K (e.g. 2/3), or auto/K in a Slurm job array", text);
}

ShardSpec ResolveShard(const std::string& text) {
  if (text.rfind("auto/", 0) != 0) return ParseShard(text);
  const std::string count = text.substr(5);
  const ShardSpec shape = ParseShard("1/" + count);  // checks K
  const char* id = std::getenv("SLURM_ARRAY_TASK_ID");
  if (id == nullptr)
    throw ConfigError("command line: --shard " + text +
                      " takes the shard number from "
                      "SLURM_ARRAY_TASK_ID, which is not set (not a Slurm array task; give "
                      "--shard I/" +
                      count + " instead)");
  char* end = nullptr;
  const long index = std::strtol(id, &end, 10);
  if (*id == '\0' || *end != '\0' || index < 1 || index > shape.count)
    throw ConfigError("command line: --shard " + text + ": SLURM_ARRAY_TASK_ID = \"" + id +
                      "\" is not a shard number in 1.." + count +
                      " (submit the array as "
                      "--array=1-" +
                      count + ", or a subset of it)");
  return {static_cast<int>(index), shape.count};
}

std::string ShardPath(const std::string& merged_out, const ShardSpec& shard) {
  std::string stem = merged_out;
  if (stem.size() > 3 && stem.compare(stem.size() - 3, 3, ".h5") == 0) stem.resize(stem.size() - 3);
  return stem + ".shards/shard-" + std::to_string(shard.index) + "-of-" +
         std::to_string(shard.count) + ".h5";
}

}  // namespace pmoe
