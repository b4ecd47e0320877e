// Merging the shards of one sweep (merge.hpp): identity, de-duplication, the work source's
// replay over the merged rows, gaps, and the write.
#include "pmoe/sweep/run/merge.hpp"

#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <set>
#include <utility>

#include "pmoe/core/errors.hpp"
#include "pmoe/core/shell_quote.hpp"
#include "pmoe/sweep/adaptive/adaptive_config.hpp"
#include "pmoe/sweep/run/sweep_runner.hpp"
#include "pmoe/sweep/run/sweep_setup.hpp"
#include "pmoe/sweep/run/work_plan.hpp"
#include "pmoe/sweep/store/sweep_identity.hpp"

namespace pmoe {
namespace {

// Which shard of `count` each (cell, trial) belongs to, to say which shard left a gap.
std::map<RowKey, int> Owners(const std::vector<Cell>& cells, int trials, int count) {
  std::map<RowKey, int> owner;
  const std::vector<WorkItem> all = PlanWork(cells, trials);
  for (int s = 1; s <= count; ++s)
    for (const WorkItem& item : ShardOf(all, s, count))
      owner[{cells[item.cell].id, item.trial}] = s;
  return owner;
}

// " --out X.h5" for a shard file X.shards/shard-I-of-K.h5 (where `run --out X.h5` puts it).
std::vector<std::string> MergedOutOption(const std::string& shard_file) {
  const std::string dir = std::filesystem::path(shard_file).parent_path().string();
  const std::string suffix = ".shards";
  if (dir.size() <= suffix.size() || dir.compare(dir.size() - suffix.size(), suffix.size(), suffix))
    return {};
  return {"--out", dir.substr(0, dir.size() - suffix.size()) + ".h5"};
}

// `pmoe-sweep missing CONFIG --shards K [--out F]`, quoted for pasting (issue 28).
std::string MissingHint(const std::string& config, int count, const std::string& shard_file) {
  std::vector<std::string> words = {"pmoe-sweep", "missing", config, "--shards",
                                    std::to_string(count)};
  for (const std::string& w : MergedOutOption(shard_file)) words.push_back(w);
  return HintCommand(words);
}

// Like `run`, merge does not overwrite a file of another sweep (or no result file at all) unless
// told to: a mistyped output name must not destroy a finished sweep. A file of the sweep the
// shards grow is replaced: run takes its rows into the shards.
void RefuseOtherSweep(const std::string& out, SweepIdentity merged, bool force) {
  if (force || !std::filesystem::exists(out)) return;
  merged.shard.clear();
  std::string diff;
  try {
    // The file of a sweep that the shards grow is theirs to replace: they hold its rows.
    diff = DescribeGrowthProblem(IdentityOf(ReadResultFile(out)), merged, out, "the shards");
  } catch (const SchemaError& e) {
    diff = e.what();
  }
  if (!diff.empty())
    throw ConfigError("merge: " + out + " exists and is not this sweep's file: " + diff +
                      " (--force overwrites it; or merge into another OUT.h5)");
}

// The rows of all shards, each (cell, trial) once; refuses files of another sweep, a shard
// given twice and one row with two outcomes.
void CollectRows(const std::vector<std::string>& files, const std::vector<ResultContents>& shards,
                 MergeResult& merged) {
  const SweepIdentity base = IdentityOf(shards[0]);
  std::map<uint64_t, std::string> label_of;
  for (const StoredCell& c : shards[0].cells) label_of[c.id] = c.label;
  std::map<std::string, std::string> shard_file;  // "I/K" -> the file that is that shard
  std::map<RowKey, std::pair<std::string, const TrialRow*>> source;
  for (size_t i = 0; i < shards.size(); ++i) {
    const std::string& file = files[i];
    const std::string diff = DescribeDifference(base, IdentityOf(shards[i]), files[0], file,
                                                /*ignore_shard=*/true);
    if (!diff.empty())
      throw ConfigError("merge: " + files[0] + " and " + file +
                        " are not parts of one sweep: " + diff);
    const std::string& shard = shards[i].meta.shard;
    if (!shard.empty()) {
      auto [it, fresh] = shard_file.emplace(shard, file);
      if (!fresh)
        throw ConfigError("merge: shard " + shard + " is in both " + it->second + " and " + file +
                          " (the same shard given twice?)");
    }
    for (const TrialRow& r : shards[i].rows) {
      auto [it, fresh] =
          source.emplace(RowKey{r.cell_id, r.result.trial}, std::make_pair(file, &r));
      if (fresh) {
        merged.rows.push_back(r);
        continue;
      }
      // A grown sweep's shards may both hold a row of the sweep it grew from (the share of a
      // (cell, trial) moves with the cell count): one row, computed twice, kept once.
      if (!shards[0].schema->SameOutcome(*it->second.second, r))
        throw ConfigError("merge: " + label_of[r.cell_id] + " trial " +
                          std::to_string(r.result.trial) + " is in both " + it->second.first +
                          " and " + file + " with other results: the files cannot be merged");
      ++merged.duplicates;
    }
  }
}

// A source that decides its work round by round and still lacks rows of its current round means
// a shard has not finished.
void RefuseUnfinishedRound(WorkSource& replay, const MergeResult& merged) {
  StoredRows stored;
  stored.Insert(merged.rows);
  std::vector<WorkItem> lacking;
  for (const WorkItem& item : replay.NextRound(stored))
    if (!stored.Has(merged.cells[item.cell].id, item.trial)) lacking.push_back(item);
  if (!lacking.empty())
    throw ConfigError("merge: the " + replay.Describe() +
                      " is unfinished: " + std::to_string(lacking.size()) +
                      " trials of its current round are in none of the files (e.g. " +
                      merged.cells[lacking[0].cell].label + " trial " +
                      std::to_string(lacking[0].trial) + "); run the unfinished shards again");
}

// A grid's trials in none of the files, the first five named with the shard that lacks them.
void RefuseGaps(const MergeResult& merged, int trials, int count, const std::string& config,
                const std::string& a_shard_file) {
  std::set<RowKey> held;
  for (const TrialRow& r : merged.rows) held.insert({r.cell_id, r.result.trial});
  const auto owner = count > 0 ? Owners(merged.cells, trials, count) : std::map<RowKey, int>{};
  std::vector<std::string> gaps;
  size_t missing = 0;
  for (const Cell& c : merged.cells)
    for (int t = 0; t < trials; ++t)
      if (!held.count({c.id, t}) && ++missing <= 5) {
        const auto it = owner.find({c.id, t});
        gaps.push_back(c.label + " trial " + std::to_string(t) +
                       (it != owner.end() ? " (shard " + std::to_string(it->second) + "/" +
                                                std::to_string(count) + ")"
                                          : ""));
      }
  if (missing == 0) return;
  std::string list;
  for (const auto& g : gaps) list += "\n  " + g;
  throw ConfigError("merge: " + std::to_string(missing) +
                    " trials of the sweep are in none "
                    "of the files (an unfinished or missing shard?), e.g.:" +
                    list +
                    (count > 0 ? "\n`" + MissingHint(config, count, a_shard_file) +
                                     "` says which shards lack trials and how to finish them"
                               : std::string()));
}

}  // namespace

MergeResult MergeShards(const std::vector<std::string>& files) {
  PMOE_CHECK(!files.empty()) << "nothing to merge";
  std::vector<ResultContents> shards;
  for (const std::string& f : files) shards.push_back(ReadResultFile(f));
  MergeResult merged;
  merged.files = files.size();
  merged.identity = IdentityOf(shards[0]);
  CollectRows(files, shards, merged);
  const ResultMeta& first = shards[0].meta;
  const SweepConfig config = ParseSweepConfig(first.config_path, first.config);
  merged.cells = ExpandGrid(config);
  merged.schema = shards[0].schema;
  // The whole sweep's work source replayed over the merged rows: what one machine would have
  // run; its record of the rounds (series outcomes, looks) is rebuilt for the merged file.
  SweepSetup whole;
  whole.config = config;
  whole.cells = merged.cells;
  // Shards searched by another version of the algorithm are refused (ConfigError from the
  // identity's method), never replayed by this one.
  if (config.adaptive) ParseAdaptiveIdentity(merged.identity.adaptive);
  const std::unique_ptr<WorkSource> replay = MakeWorkSource(whole);
  if (!replay->Planned().has_value())
    RefuseUnfinishedRound(*replay, merged);
  else
    RefuseGaps(merged, config.trials, first.shard.empty() ? 0 : ParseShard(first.shard).count,
               first.config_path, files[0]);
  merged.meta = first;
  merged.meta.shard.clear();
  replay->Annotate(merged.meta);
  return merged;
}

void WriteMerged(const std::string& out, MergeResult merged, bool force,
                 const std::string& command_line) {
  RefuseOtherSweep(out, merged.identity, force);
  merged.meta.command_line = command_line;
  merged.meta.created_utc = UtcNow();
  WriteResultFile(out, merged.meta, merged.cells, *merged.schema, std::move(merged.rows));
}

}  // namespace pmoe
