// `pmoe-sweep look-shard CONFIG --shard I/K [--out F]`: runs shard I's part of the look that the
// merged file leads to, into its own file (LookShardPath), resuming what it holds.
// `pmoe-sweep look-decide CONFIG --shards K [--out F] [--retry N]`: once a look's array has
// ended, merges the shards into the merged file, decides the look and submits the next look's
// array and decide job; or resubmits shards that failed. The scripts of `pmoe-sweep slurm` on a
// [precision] config run them (slurm_scripts.hpp).
#include <cmath>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "commands.hpp"
#include "pmoe/cli/file_check.hpp"
#include "pmoe/cli/tool.hpp"
#include "pmoe/core/errors.hpp"
#include "pmoe/core/param_table.hpp"
#include "pmoe/io/file_kind.hpp"
#include "pmoe/precision/look_shards.hpp"
#include "pmoe/precision/precision_section.hpp"
#include "pmoe/sweep/run/sweep_runner.hpp"
#include "pmoe/sweep/store/result_file.hpp"
#include "slurm_checks.hpp"
#include "slurm_looks.hpp"

namespace pmoe {
namespace {

volatile std::sig_atomic_t g_stop = 0;
void OnStop(int signal) {
  g_stop = 1;
  std::signal(signal, SIG_DFL);  // the second one acts at once
}

// The whole sweep's setup, refused by name unless it has precision targets.
SweepSetup WholeSweep(const std::string& config, const std::string& out) {
  cli::RequireConfigFile(config);
  SweepSetup whole = PrepareSweep(config, out, {});
  if (!PrecisionOf(whole.config))
    throw ConfigError(config +
                      ": has no [precision] section: a look chain runs precision "
                      "targets' looks (`pmoe-sweep run --shard I/K` runs a grid's share)");
  return whole;
}

std::string OutOption(const cli::Parsed& args) {
  return args.Has("out") ? RequireOutPath(*args.Get("out")) : "";
}

// The rows of every shard's file (the h5 alone: a shard that ended saved it, one that did not
// is lacking rows and is run again, resuming from its journal).
void AddShardRows(const SweepSetup& whole, int shards, StoredRows& rows) {
  for (int i = 1; i <= shards; ++i) {
    const std::string path = LookShardPath(whole.merged_path, i, shards);
    if (!std::filesystem::exists(path)) continue;
    const ResultContents contents = ReadResultFile(path);
    const std::string diff = DescribeDifference(IdentityOf(contents), whole.identity, path,
                                                whole.config.path, /*ignore_shard=*/true);
    if (!diff.empty()) throw ConfigError("look-decide: " + path + " holds another sweep: " + diff);
    rows.Insert(contents.rows);
  }
}

void RecordState(const std::string& merged, const std::string& text) {
  std::ofstream(MergeStatePath(merged)) << text << "\n";
}

// Writes the merged file of every row held; returns the next look's pairs.
std::vector<WorkItem> WriteMerged(const SweepSetup& whole, const StoredRows& rows,
                                  const std::string& command_line, std::string* summary) {
  const std::unique_ptr<WorkSource> source = MakeWorkSource(whole);
  std::vector<WorkItem> next;
  for (const WorkItem& item : source->NextRound(rows))
    if (!rows.Has(whole.cells[item.cell].id, item.trial)) next.push_back(item);
  ResultMeta meta = MetaFor(whole, command_line);
  source->Annotate(meta);
  WriteResultFile(whole.merged_path, meta, whole.cells, whole.schema, rows.Values());
  *summary = source->Summary();
  return next;
}

// Shards that failed for reasons worth retrying, resubmitted with more time and memory and a
// decide job after them; false when there are none or the retries are spent.
bool RetryShards(const SlurmJob& job, const std::vector<int>& lacking, int retry) {
  std::vector<int> again;
  for (int i : lacking) {
    const std::string state = ReadOptionalText(ShardStatePath(job.out, i), "the shard's state");
    const std::string first = state.substr(0, state.find('\n'));
    if (RetryableState(first))
      again.push_back(i);
    else
      std::cout << "shard " << i << ": not retried ("
                << (first.empty() ? "its task never started" : "its task ended: " + first) << ")\n";
  }
  if (again.empty() || retry >= job.retries) return false;
  const std::string script = ReadOptionalText(ArrayScriptPath(job.out), "the array script");
  const double factor = std::pow(1.5, retry + 1);
  const int mem = static_cast<int>(std::atoi(ScriptDirective(script, "mem").c_str()) * factor);
  const int minutes = static_cast<int>(SlurmMinutes(ScriptDirective(script, "time")) * factor);
  std::string more;
  if (mem > 0) more += " --mem=" + std::to_string(mem) + "M";
  if (minutes > 0) more += " --time=" + SlurmTime(minutes);
  const std::string ids = SubmitLook(job, again, more, retry + 1);
  std::cout << "retry " << retry + 1 << " of " << job.retries << ": " << ids << "\n";
  return true;
}

}  // namespace

cli::Command LookShardCommand() {
  cli::Command c;
  c.tool = "pmoe-sweep";
  c.name = "look-shard";
  c.operands = "CONFIG.ini";
  c.min_operands = c.max_operands = 1;
  c.summary = "(a look chain's array task) run shard I's part of the current look";
  c.description =
      "The look is the one the merged file F leads to (the first without it); its pairs go to "
      "the K shards cost-balanced, and shard I writes F-without-.h5.shards/look-shard-I-of-K.h5, "
      "resuming what it holds. Ctrl-C or SIGTERM saves and exits 130.";
  c.options = {
      {"shard", "I/K", "the shard (auto/K: I from SLURM_ARRAY_TASK_ID) (required)", {}, ""},
      {"out", "F", "the merged result file (default results/NAME.h5)", {}, ""},
      {"threads", "N", "worker threads, 1..4096 (default: all cores)", {}, ""},
      {"test-cache-mb",
       "M",
       "megabytes of shared test sets kept (default 1000)",
       {"test_cache_mb"},
       ""},
  };
  return c;
}

cli::Command LookDecideCommand() {
  cli::Command c;
  c.tool = "pmoe-sweep";
  c.name = "look-decide";
  c.operands = "CONFIG.ini";
  c.min_operands = c.max_operands = 1;
  c.summary = "(a look chain's decide job) merge the look's shards, decide it, submit the next";
  c.description =
      "Exit 0 once the next look is submitted or every target is decided, 75 when failed shards "
      "were resubmitted with a decide job after them, 1 when shards lack trials and are not "
      "retried (pmoe-sweep missing --resubmit submits them).";
  c.options = ShardSetOptions();
  c.options.push_back({"retry", "N", "the attempt at this look (the decide job's)", {}, ""});
  return c;
}

int RunLookShardCommand(const cli::Parsed& args, const std::string& command_line) {
  const std::string config = args.operands.at(0);
  if (!args.Has("shard"))
    throw ConfigError(
        "command line: look-shard needs --shard I/K (usage: " + LookShardCommand().Usage() + ")");
  const ShardSpec shard = ResolveShard(*args.Get("shard"));
  RunOptions options;
  options.command_line = command_line;
  if (args.Has("threads"))
    options.threads = static_cast<int>(
        ParseIntegerInRange("command line", "--threads", *args.Get("threads"), 1, kMaxThreads));
  if (args.Has("test-cache-mb"))
    options.test_cache_bytes =
        static_cast<size_t>(ParseNumber("--test-cache-mb", *args.Get("test-cache-mb"), 0, true, 1e9,
                                        "a number of megabytes, 0 or more") *
                            1e6);
  SweepSetup mine = WholeSweep(config, OutOption(args));
  const std::vector<WorkItem> look = CurrentLook(mine, MergedLookRows(mine));
  std::vector<WorkItem> share = LookShare(look, shard.index, shard.count);
  mine.out_path = LookShardPath(mine.merged_path, shard.index, shard.count);
  mine.journal_path = mine.out_path + ".journal";
  ShareSource source(share, "look share of shard " + shard.Text() + " (" +
                                std::to_string(share.size()) + " of the look's " +
                                std::to_string(look.size()) + " trials)");
  options.interrupted = [] { return g_stop != 0; };
  for (int s : {SIGINT, SIGTERM, SIGHUP, SIGQUIT}) std::signal(s, OnStop);
  const RunReport report = RunSweep(mine, source, options, std::cerr);
  std::cout << mine.out_path << ": " << report.held + report.ran << "/" << share.size()
            << " trials of this look's share" << (report.interrupted ? " (interrupted)" : "")
            << "\n";
  return report.interrupted ? cli::kInterrupted : cli::kDone;
}

int RunLookDecideCommand(const cli::Parsed& args, const std::string& command_line) {
  const std::string config = args.operands.at(0);
  const int shards = RequiredShards(args, LookDecideCommand());
  const int retry =
      args.Has("retry")
          ? static_cast<int>(ParseNumber("--retry", *args.Get("retry"), 0, true, 100,
                                         "the decide job's attempt number, 0 or more"))
          : 0;
  const SweepSetup whole = WholeSweep(config, OutOption(args));
  const StoredRows base = MergedLookRows(whole);
  const std::vector<WorkItem> look = CurrentLook(whole, base);
  StoredRows rows = base;
  AddShardRows(whole, shards, rows);
  std::vector<int> lacking;
  for (int i = 1; i <= shards; ++i)
    for (const WorkItem& item : LookShare(look, i, shards))
      if (!rows.Has(whole.cells[item.cell].id, item.trial)) {
        lacking.push_back(i);
        break;
      }
  const SlurmJob job = ChainJob(whole.merged_path, shards);
  if (!lacking.empty()) {
    std::cout << lacking.size() << " of " << shards << " shards lack trials of the look\n";
    if (RetryShards(job, lacking, retry)) return kRetrySubmitted;
    RecordState(whole.merged_path, "shards-missing");
    std::cout << "not merged; `pmoe-sweep missing " << config << " --shards " << shards
              << " --resubmit` submits them and a decide job after them\n";
    return 1;
  }
  std::string summary;
  const std::vector<WorkItem> next = WriteMerged(whole, rows, command_line, &summary);
  std::cout << whole.merged_path << ": " << rows.size() << " trials\n" << summary;
  if (next.empty()) {
    RecordState(whole.merged_path, "merged");
    std::cout << "every target is decided or out of budget: the chain has ended\n";
    return cli::kDone;
  }
  std::vector<int> every;
  for (int i = 1; i <= shards; ++i) every.push_back(i);
  const std::string limits = LookLimits(job, next, whole.cells);
  const std::string ids = SubmitLook(job, every, limits, 0);
  RecordState(whole.merged_path, "look of " + std::to_string(next.size()) + " trials submitted");
  std::cout << "next look: " << next.size() << " trials over " << shards << " shards"
            << (limits.empty() ? "" : " (" + limits.substr(1) + ")") << ": " << ids << "\n";
  return cli::kDone;
}

}  // namespace pmoe
