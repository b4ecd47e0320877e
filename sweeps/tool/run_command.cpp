// `pmoe-sweep run CONFIG.ini [--out F] [--threads N] [--shard I/K|auto/K] [--force]
// [--checkpoint-seconds S] [--test-cache-mb M]`: runs or resumes a sweep. Ctrl-C (or SIGTERM)
// stops taking new trials, saves what finished and exits 130; a second Ctrl-C kills at once
// (nothing finished is lost: the journal has it).
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <iostream>

#include "commands.hpp"
#include "pmoe/cli/file_check.hpp"
#include "pmoe/cli/tool.hpp"
#include "pmoe/core/errors.hpp"
#include "pmoe/core/param_table.hpp"
#include "pmoe/core/shell_quote.hpp"
#include "pmoe/io/json_writer.hpp"
#include "pmoe/sweep/run/sweep_runner.hpp"

namespace pmoe {
namespace {

volatile std::sig_atomic_t g_interrupted = 0;

void OnSignal(int signal) {
  g_interrupted = 1;
  std::signal(signal, SIG_DFL);  // the second one acts at once
}

}  // namespace

cli::Command RunCommand() {
  cli::Command c;
  c.tool = "pmoe-sweep";
  c.name = "run";
  c.operands = "CONFIG.ini";
  c.min_operands = c.max_operands = 1;
  c.summary = "run a sweep, or resume it: trials already in the output are skipped";
  c.description =
      "Writes F (default results/NAME.h5) with a journal beside it; Ctrl-C saves what finished "
      "and exits 130, and running again resumes. --shard I/K runs the I-th of K cost-balanced "
      "parts into F-without-.h5.shards/shard-I-of-K.h5; auto/K takes I from "
      "SLURM_ARRAY_TASK_ID (K is never taken from the array's size). Trials with the same data "
      "parameters and trial index share their test set.";
  c.options = {
      {"out", "F", "the result file (default results/NAME.h5)", {}, ""},
      {"threads", "N", "worker threads, 1..4096 (default: all cores)", {}, ""},
      {"shard",
       "I/K",
       "run the I-th of K cost-balanced parts (auto/K: I from "
       "SLURM_ARRAY_TASK_ID)",
       {},
       ""},
      {"force", "", "overwrite an output file of another sweep", {}, ""},
      {"checkpoint-seconds",
       "S",
       "seconds between rebuilds of the HDF5 file while running "
       "(default 30)",
       {"checkpoint_seconds"},
       ""},
      {"test-cache-mb",
       "M",
       "megabytes of shared test sets kept (default 1000; 0: draw each "
       "anew)",
       {"test_cache_mb"},
       ""},
      {"json", "", "print the outcome as one JSON object on stdout", {}, ""},
  };
  return c;
}

namespace {

struct RunArguments {
  std::string config;
  std::string out;
  RunOptions options;
  ShardSpec shard;
  bool json = false;
};

RunArguments ParseRun(const cli::Parsed& args, const std::string& command_line) {
  RunArguments r;
  r.config = args.operands.at(0);
  r.options.command_line = command_line;
  for (const auto& [name, value] : args.options) {
    const std::string a = "--" + name;
    if (name == "out")
      r.out = RequireOutPath(value);
    else if (name == "threads")
      r.options.threads =
          static_cast<int>(ParseIntegerInRange("command line", a, value, 1, kMaxThreads));
    else if (name == "shard")
      r.shard = ResolveShard(value);
    else if (name == "force")
      r.options.force = true;
    else if (name == "json")
      r.json = true;
    else if (name == "checkpoint-seconds")
      r.options.checkpoint_seconds = ParsePositive(a, value);
    else if (name == "test-cache-mb")
      r.options.test_cache_bytes = static_cast<size_t>(
          ParseNumber(a, value, 0, true, 1e9, "a number of megabytes, 0 or more") * 1e6);
  }
  cli::RequireConfigFile(r.config);
  return r;
}

// The array's size is never taken for a shard count (a resubmitted task would compute the
// wrong part); without --shard an array task runs the whole sweep, and says so.
void NoteArrayTaskWithoutShard(const ShardSpec& shard) {
  if (shard.count == 0 && std::getenv("SLURM_ARRAY_TASK_ID") != nullptr)
    std::cerr << "pmoe-sweep: note: Slurm array task " << std::getenv("SLURM_ARRAY_TASK_ID")
              << " without --shard: running the whole sweep (--shard auto/K runs shard "
                 "SLURM_ARRAY_TASK_ID of K)\n";
}

// Ctrl-C and the signals of a job's end stop the run between trials, which then saves.
void StopOnSignals(RunOptions& options) {
  options.terminal = ::isatty(STDERR_FILENO);
  options.interrupted = [] { return g_interrupted != 0; };
  std::signal(SIGINT, OnSignal);
  std::signal(SIGTERM, OnSignal);
  std::signal(SIGHUP, OnSignal);  // a closed terminal or ssh session: save, as for SIGTERM
  std::signal(SIGQUIT, OnSignal);
}

void PrintRunJson(const SweepSetup& setup, const ShardSpec& shard, const RunReport& report) {
  JsonWriter w(std::cout);
  w.BeginObject()
      .Field("output", setup.out_path)
      .Field("shard", shard.Text())
      .Field("shard_trials", report.shard_trials)
      .Field("held_before", report.held)
      .Field("ran", report.ran)
      .Field("interrupted", report.interrupted)
      .Field("wall_seconds", report.wall_seconds)
      .Field("store_seconds", report.store_seconds)
      .Field("test_sets_kept", report.test_sets_kept)
      .Field("test_set_reuses", report.test_set_reuses)
      .Field("test_cache_peak_bytes", report.test_cache_peak_bytes);
  if (!report.summary.empty()) w.Field("source_summary", report.summary);
  w.EndObject();
  std::cout << "\n";
}

void PrintRunText(const SweepSetup& setup, const RunReport& report) {
  std::cout << setup.out_path << ": " << report.held + report.ran << "/" << report.shard_trials
            << " trials" << (report.interrupted ? " (interrupted; run again to resume)" : "")
            << "\n";
  char line[160];
  std::snprintf(line, sizeof line,
                "  %zu trials in %.2f s (%.1f trials/s); the store took %.3f s"
                " of it\n",
                report.ran, report.wall_seconds,
                report.wall_seconds > 0 ? report.ran / report.wall_seconds : 0.0,
                report.store_seconds);
  std::cout << line;
  if (report.test_set_reuses > 0 || report.test_sets_kept > 0) {
    std::snprintf(line, sizeof line,
                  "  test sets: %zu kept (at most %.0f MB at once), reused by %zu trials\n",
                  report.test_sets_kept, report.test_cache_peak_bytes / 1e6,
                  report.test_set_reuses);
    std::cout << line;
  }
  std::cout << report.summary;
  if (!report.interrupted && setup.out_path.find(".shards/") == std::string::npos)  // what next
    std::cout << "  report page: "
              << HintCommand({"build/analysis/pmoe-analyze", "report", setup.out_path}) << "\n";
}

}  // namespace

int RunRunCommand(const cli::Parsed& args, const std::string& command_line) {
  RunArguments r = ParseRun(args, command_line);
  const SweepSetup setup = PrepareSweep(r.config, r.out, r.shard);  // checks before any write
  NoteArrayTaskWithoutShard(r.shard);
  StopOnSignals(r.options);
  const RunReport report = RunSweep(setup, r.options, std::cerr);
  if (r.json)
    PrintRunJson(setup, r.shard, report);
  else
    PrintRunText(setup, report);
  return report.interrupted ? cli::kInterrupted : cli::kDone;
}

}  // namespace pmoe
