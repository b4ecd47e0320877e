// `pmoe-sweep watch CONFIG.ini --shards K [--out F] [--every S]`: every shard of a sharded
// sweep at a glance: its Slurm task's state (squeue: PENDING, RUNNING, ... or "-" when the
// queue holds none), the trials its file and journal hold of its share, and what its task last
// recorded (logs/shard-I.state). With --every S it prints the table again every S seconds until
// no task of the sweep is queued or running. Reads only; takes no lock.
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "commands.hpp"
#include "pmoe/cli/file_check.hpp"
#include "pmoe/core/errors.hpp"
#include "pmoe/sweep/run/sweep_runner.hpp"
#include "slurm_cluster.hpp"
#include "slurm_scripts.hpp"
#include "sweep_state.hpp"

namespace pmoe {
namespace {

// Prints the table once; returns how many tasks are still queued or running.
size_t PrintTable(const std::string& config, const std::string& out, int shards) {
  std::string merged;
  size_t active = 0, held_total = 0, share_total = 0, complete = 0;
  SlurmQueue queue;
  for (int i = 1; i <= shards; ++i) {
    const SweepSetup setup = PrepareSweep(config, out, {i, shards});
    if (i == 1) {
      merged = setup.merged_path;
      queue = QueuedShards(JobTag(std::filesystem::absolute(merged).string()));
      std::cout << "sweep " << setup.config.name << ", " << shards << " shards"
                << (queue.known ? "" : " (squeue not available: Slurm states unknown)") << "\n"
                << "shard  slurm task           state       trials held   last recorded\n";
    }
    std::string progress = "-", state = "-", task = "-";
    if (queue.state.count(i)) {
      state = queue.state[i];
      task = queue.job[i];
      ++active;
    }
    if (std::filesystem::exists(setup.out_path) || std::filesystem::exists(setup.journal_path)) {
      try {
        const SweepState s = ReadSweepState(setup.out_path);
        const size_t share = s.planned ? *s.planned : s.held.size() + s.Missing();
        progress = std::to_string(s.held.size()) + "/" + std::to_string(share);
        held_total += s.held.size();
        share_total += share;
        complete += s.Missing() == 0;
      } catch (const SchemaError& e) {
        progress = "unreadable";
      }
    }
    std::string recorded;
    std::ifstream state_file(ShardStatePath(merged, i));
    std::getline(state_file, recorded);
    char line[200];
    std::snprintf(line, sizeof line, "%5d  %-20s %-11s %-13s %s\n", i, task.c_str(), state.c_str(),
                  progress.c_str(), recorded.empty() ? "-" : recorded.c_str());
    std::cout << line;
  }
  std::cout << complete << " of " << shards << " shards complete; " << held_total
            << " trials held of " << share_total << " in the files seen; " << active
            << " tasks queued or running\n";
  return active;
}

}  // namespace

cli::Command WatchCommand() {
  cli::Command c;
  c.tool = "pmoe-sweep";
  c.name = "watch";
  c.operands = "CONFIG.ini";
  c.min_operands = c.max_operands = 1;
  c.summary = "every shard's Slurm task state and trials held, at a glance";
  c.options = ShardSetOptions();
  c.options.insert(c.options.end(),
                   {
                       {"every",
                        "S",
                        "redraw every S seconds until every shard is complete (default: once)",
                        {},
                        ""},
                   });
  return c;
}

int RunWatchCommand(const cli::Parsed& args, const std::string& command_line) {
  const std::string config = args.operands.at(0);
  const std::string out = args.Get("out").value_or("");
  const int shards = RequiredShards(args, WatchCommand());
  const double every = args.Has("every") ? ParseNumber("--every", *args.Get("every"), 1, true,
                                                       86400, "seconds, 1 or more")
                                         : 0;
  cli::RequireConfigFile(config);
  while (PrintTable(config, out, shards) > 0 && every > 0) {
    std::cout << std::flush;
    ::sleep(static_cast<unsigned>(every));
    std::cout << "\n";
  }
  return 0;
}

}  // namespace pmoe
