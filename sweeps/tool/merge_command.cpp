// `pmoe-sweep merge OUT.h5 SHARD.h5...`: one result file from the shards of one sweep, identical
// in /cells and /trials to the file a single machine would have written. Refuses files of other
// sweeps, overlapping trials and missing ones, saying which.
#include <iostream>
#include <map>

#include "commands.hpp"
#include "pmoe/core/errors.hpp"
#include "pmoe/io/file_kind.hpp"
#include "pmoe/sweep/result_file.hpp"
#include "pmoe/sweep/sweep_identity.hpp"
#include "pmoe/sweep/sweep_runner.hpp"
#include "pmoe/sweep/work_plan.hpp"

namespace pmoe {
namespace {

using RowKey = std::pair<uint64_t, int>;

// Which shard of `count` each (cell, trial) belongs to, to say which shard left a gap.
std::map<RowKey, int> Owners(const std::vector<Cell>& cells, int trials, int count) {
  std::map<RowKey, int> owner;
  const std::vector<WorkItem> all = PlanWork(cells, trials);
  for (int s = 1; s <= count; ++s)
    for (const WorkItem& item : ShardOf(all, s, count))
      owner[{cells[item.cell].id, item.trial}] = s;
  return owner;
}

}  // namespace

int RunMergeCommand(const std::vector<std::string>& args, const std::string& command_line) {
  const std::string usage = "pmoe-sweep merge OUT.h5 SHARD.h5...";
  for (const auto& a : args)
    if (a.rfind("--", 0) == 0) UnexpectedArgument(a, usage);
  if (args.size() < 2) throw ConfigError("merge: expected " + usage);
  const std::string out = args[0];
  for (const std::string& path : {out, out + ".tmp"})
    if (const std::string problem = OutputFileProblem(path); !problem.empty())
      throw ConfigError(path + ": " + problem + " (merge's OUT.h5 names the merged file)");
  std::vector<ResultContents> shards;
  for (size_t i = 1; i < args.size(); ++i) shards.push_back(ReadResultFile(args[i]));

  const SweepIdentity base = IdentityOf(shards[0]);
  std::map<uint64_t, std::string> label_of;
  for (const StoredCell& c : shards[0].cells) label_of[c.id] = c.label;
  std::map<RowKey, std::string> source;
  std::vector<TrialRow> rows;
  for (size_t i = 0; i < shards.size(); ++i) {
    const std::string& file = args[i + 1];
    const std::string diff = DescribeDifference(base, IdentityOf(shards[i]), args[1], file,
                                                /*ignore_shard=*/true);
    if (!diff.empty())
      throw ConfigError("merge: " + args[1] + " and " + file + " are not parts of one sweep: " +
                        diff);
    for (const TrialRow& r : shards[i].rows) {
      auto [it, fresh] = source.emplace(RowKey{r.cell_id, r.result.trial}, file);
      if (!fresh)
        throw ConfigError("merge: " + label_of[r.cell_id] + " trial " +
                          std::to_string(r.result.trial) + " is in both " + it->second + " and " +
                          file + " (the same shard given twice?)");
      rows.push_back(r);
    }
  }

  const ResultMeta& first = shards[0].meta;
  const SweepConfig config = ParseSweepConfig(first.config_path, first.config);
  const std::vector<Cell> cells = ExpandGrid(config);
  std::vector<std::string> gaps;
  size_t missing = 0;
  int count = 0;
  if (!first.shard.empty()) count = ParseShard(first.shard).count;
  const auto owner = count > 0 ? Owners(cells, config.trials, count) : std::map<RowKey, int>{};
  for (const Cell& c : cells)
    for (int t = 0; t < config.trials; ++t)
      if (!source.count({c.id, t})) {
        ++missing;
        if (gaps.size() < 5) {
          const auto it = owner.find({c.id, t});
          gaps.push_back(c.label + " trial " + std::to_string(t) +
                         (it != owner.end() ? " (shard " + std::to_string(it->second) + "/" +
                                                  std::to_string(count) + ")" : ""));
        }
      }
  if (missing > 0) {
    std::string list;
    for (const auto& g : gaps) list += "\n  " + g;
    throw ConfigError("merge: " + std::to_string(missing) + " trials of the sweep are in none "
                      "of the files (an unfinished or missing shard?), e.g.:" + list);
  }
  ResultMeta meta = first;
  meta.shard.clear();
  meta.command_line = command_line;
  meta.created_utc = UtcNow();
  WriteResultFile(out, meta, cells, *shards[0].schema, rows);
  std::cout << out << ": " << rows.size() << " trials of " << cells.size() << " cells from "
            << shards.size() << " files\n";
  return 0;
}

}  // namespace pmoe
