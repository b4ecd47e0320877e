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
#include "pmoe/core/errors.hpp"
#include "pmoe/core/param_table.hpp"
#include "pmoe/sweep/sweep_runner.hpp"

namespace pmoe {
namespace {

volatile std::sig_atomic_t g_interrupted = 0;

void OnSignal(int signal) {
  g_interrupted = 1;
  std::signal(signal, SIG_DFL);  // the second one acts at once
}

}  // namespace

int RunRunCommand(const std::vector<std::string>& args, const std::string& command_line) {
  std::string config, out;
  RunOptions options;
  options.command_line = command_line;
  ShardSpec shard;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto value = [&]() -> const std::string& { return OptionValue(args, &i); };
    if (a == "--out")
      out = RequireOutPath(value());
    else if (a == "--threads")
      options.threads =
          static_cast<int>(ParseIntegerInRange("command line", a, value(), 1, kMaxThreads));
    else if (a == "--shard")
      shard = ResolveShard(value());
    else if (a == "--force")
      options.force = true;
    else if (a == "--checkpoint-seconds")
      options.checkpoint_seconds = ParsePositive(a, value());
    else if (a == "--test-cache-mb")
      options.test_cache_bytes = static_cast<size_t>(
          ParseNumber(a, value(), 0, true, 1e9, "a number of megabytes, 0 or more") * 1e6);
    else if (config.empty() && a.rfind("--", 0) != 0)
      config = a;
    else
      UnexpectedArgument(a,
                         "pmoe-sweep run CONFIG.ini [--out F] [--threads N] [--shard I/K] "
                         "[--force] [--checkpoint-seconds S] [--test-cache-mb M]");
  }
  if (config.empty()) throw ConfigError("command line: run needs a CONFIG.ini (pmoe-sweep --help)");
  const SweepSetup setup =
      PrepareSweep(config, out, shard);  // validates before any file is touched
  // The array's size is never taken for a shard count (a resubmitted task would compute the
  // wrong part); without --shard an array task runs the whole sweep, and says so.
  if (shard.count == 0 && std::getenv("SLURM_ARRAY_TASK_ID") != nullptr)
    std::cerr << "pmoe-sweep: note: Slurm array task " << std::getenv("SLURM_ARRAY_TASK_ID")
              << " without --shard: running the whole sweep (--shard auto/K runs shard "
                 "SLURM_ARRAY_TASK_ID of K)\n";
  options.terminal = ::isatty(STDERR_FILENO);
  options.interrupted = [] { return g_interrupted != 0; };
  std::signal(SIGINT, OnSignal);
  std::signal(SIGTERM, OnSignal);
  std::signal(SIGHUP, OnSignal);  // a closed terminal or ssh session: save, as for SIGTERM
  std::signal(SIGQUIT, OnSignal);
  const RunReport report = RunSweep(setup, options, std::cerr);
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
  if (!report.interrupted && setup.out_path.find(".shards/") == std::string::npos)  // what next
    std::cout << "  report page: build/analysis/pmoe-analyze report " << setup.out_path << "\n";
  if (!report.adaptive.empty()) PrintSeriesOutcomes(report.adaptive, std::cout);
  return report.interrupted ? 130 : 0;
}

}  // namespace pmoe
