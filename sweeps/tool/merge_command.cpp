// `pmoe-sweep merge OUT.h5 SHARD.h5...`: one result file from the shards of one sweep, identical
// in /cells and /trials to the file a single machine would have written. Refuses files of other
// sweeps, overlapping trials and missing ones, saying which.
#include <cstdint>
#include <filesystem>
#include <iostream>
#include <map>

#include "commands.hpp"
#include "pmoe/cli/file_check.hpp"
#include "pmoe/cli/tool.hpp"
#include "pmoe/core/errors.hpp"
#include "pmoe/core/shell_quote.hpp"
#include "pmoe/io/file_kind.hpp"
#include "pmoe/io/json_writer.hpp"
#include "pmoe/sweep/adaptive/adaptive_config.hpp"
#include "pmoe/sweep/run/sweep_runner.hpp"
#include "pmoe/sweep/run/sweep_setup.hpp"
#include "pmoe/sweep/run/work_plan.hpp"
#include "pmoe/sweep/store/result_file.hpp"
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

}  // namespace

cli::Command MergeCommand() {
  cli::Command c;
  c.tool = "pmoe-sweep";
  c.name = "merge";
  c.operands = "OUT.h5 SHARD.h5...";
  c.min_operands = 2;
  c.max_operands = SIZE_MAX;
  c.summary = "one file from the shards of one sweep, identical to a single-machine run's";
  c.description =
      "Refuses files of other sweeps, overlapping trials and missing ones, saying which; an "
      "existing OUT.h5 of another sweep is only overwritten with --force.";
  c.options = {
      {"force", "", "overwrite an OUT.h5 of another sweep", {}, ""},
      {"json", "", "print {output, trials, cells, files} as JSON", {}, ""},
  };
  return c;
}

int RunMergeCommand(const cli::Parsed& args, const std::string& command_line) {
  const std::vector<std::string>& files = args.operands;
  const bool force = args.Has("force");
  for (size_t i = 1; i < files.size(); ++i) cli::RequireResultFile(files[i]);
  const std::string out = files[0];
  for (const std::string& path : {out, out + ".tmp"})
    if (const std::string problem = OutputFileProblem(path); !problem.empty())
      throw ConfigError(path + ": " + problem + " (merge's OUT.h5 names the merged file)");
  for (size_t i = 1; i < files.size(); ++i)
    if (std::filesystem::exists(out) && std::filesystem::exists(files[i]) &&
        std::filesystem::equivalent(out, files[i]))
      throw ConfigError("merge: the output " + out + " is also one of the files to merge");
  std::vector<ResultContents> shards;
  for (size_t i = 1; i < files.size(); ++i) shards.push_back(ReadResultFile(files[i]));

  const SweepIdentity base = IdentityOf(shards[0]);
  std::map<uint64_t, std::string> label_of;
  for (const StoredCell& c : shards[0].cells) label_of[c.id] = c.label;
  std::map<std::string, std::string> shard_file;  // "I/K" -> the file that is that shard
  std::map<RowKey, std::pair<std::string, const TrialRow*>> source;
  std::vector<TrialRow> rows;
  for (size_t i = 0; i < shards.size(); ++i) {
    const std::string& file = files[i + 1];
    const std::string diff = DescribeDifference(base, IdentityOf(shards[i]), files[1], file,
                                                /*ignore_shard=*/true);
    if (!diff.empty())
      throw ConfigError("merge: " + files[1] + " and " + file +
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
        rows.push_back(r);
        continue;
      }
      // A grown sweep's shards may both hold a row of the sweep it grew from (the share of a
      // (cell, trial) moves with the cell count): one row, computed twice, kept once.
      if (!shards[0].schema->SameOutcome(*it->second.second, r))
        throw ConfigError("merge: " + label_of[r.cell_id] + " trial " +
                          std::to_string(r.result.trial) + " is in both " + it->second.first +
                          " and " + file + " with other results: the files cannot be merged");
    }
  }

  const ResultMeta& first = shards[0].meta;
  const SweepConfig config = ParseSweepConfig(first.config_path, first.config);
  const std::vector<Cell> cells = ExpandGrid(config);
  std::vector<std::string> gaps;
  size_t missing = 0;
  int count = 0;
  if (!first.shard.empty()) count = ParseShard(first.shard).count;
  // The whole sweep's work source replayed over the merged rows: what one machine would have
  // run. A source that decides its work round by round (the adaptive search, precision targets)
  // and still lacks rows of its current round means a shard has not finished; its record of the
  // rounds (series outcomes, looks) is rebuilt for the merged file.
  SweepSetup whole;
  whole.config = config;
  whole.cells = cells;
  // Shards searched by another version of the algorithm are refused (ConfigError from the
  // identity's method), never replayed by this one.
  if (config.adaptive) ParseAdaptiveIdentity(base.adaptive);
  const std::unique_ptr<WorkSource> replay = MakeWorkSource(whole);
  const bool by_rounds = !replay->Planned().has_value();
  if (by_rounds) {
    StoredRows stored;
    stored.Insert(rows);
    std::vector<WorkItem> lacking;
    for (const WorkItem& item : replay->NextRound(stored))
      if (!stored.Has(cells[item.cell].id, item.trial)) lacking.push_back(item);
    if (!lacking.empty())
      throw ConfigError("merge: the " + replay->Describe() +
                        " is unfinished: " + std::to_string(lacking.size()) +
                        " trials of its current round are in none of the files (e.g. " +
                        cells[lacking[0].cell].label + " trial " +
                        std::to_string(lacking[0].trial) + "); run the unfinished shards again");
  }
  const auto owner =
      count > 0 && !by_rounds ? Owners(cells, config.trials, count) : std::map<RowKey, int>{};
  for (const Cell& c : by_rounds ? std::vector<Cell>{} : cells)
    for (int t = 0; t < config.trials; ++t)
      if (!source.count({c.id, t})) {
        ++missing;
        if (gaps.size() < 5) {
          const auto it = owner.find({c.id, t});
          gaps.push_back(c.label + " trial " + std::to_string(t) +
                         (it != owner.end() ? " (shard " + std::to_string(it->second) + "/" +
                                                  std::to_string(count) + ")"
                                            : ""));
        }
      }
  if (missing > 0) {
    std::string list;
    for (const auto& g : gaps) list += "\n  " + g;
    throw ConfigError("merge: " + std::to_string(missing) +
                      " trials of the sweep are in none "
                      "of the files (an unfinished or missing shard?), e.g.:" +
                      list +
                      (count > 0 ? "\n`" + MissingHint(first.config_path, count, files[1]) +
                                       "` says which shards lack trials and how to finish them"
                                 : std::string()));
  }
  RefuseOtherSweep(out, base, force);
  ResultMeta meta = first;
  meta.shard.clear();
  replay->Annotate(meta);
  meta.command_line = command_line;
  meta.created_utc = UtcNow();
  WriteResultFile(out, meta, cells, *shards[0].schema, rows);
  if (args.Has("json")) {
    JsonWriter(std::cout)
        .BeginObject()
        .Field("output", out)
        .Field("trials", rows.size())
        .Field("cells", cells.size())
        .Field("files", shards.size())
        .EndObject();
    std::cout << "\n";
    return cli::kDone;
  }
  std::cout << out << ": " << rows.size() << " trials of " << cells.size() << " cells from "
            << shards.size() << " files\n";
  return cli::kDone;
}

}  // namespace pmoe
