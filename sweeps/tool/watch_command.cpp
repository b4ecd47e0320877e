// `pmoe-sweep watch CONFIG.ini --shards K [--out F] [--every S]`: every shard of a sharded
// sweep at a glance: its Slurm task's state (squeue: PENDING, RUNNING, ... or "-" when the
// queue holds none), the trials its file and journal hold of its share, and what its task last
// recorded (logs/shard-I.state). With --every S it prints the table again every S seconds until
// no task of the sweep is queued or running. Also the merge job: its queue state and what it
// last recorded (logs/merge.state). Exit 1 when a shard failed (its task ended with the shard
// unfinished) or the merge failed; --json gives the same as one object. Reads only; no lock.
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <tuple>
#include <vector>

#include "commands.hpp"
#include "pmoe/cli/file_check.hpp"
#include "pmoe/core/errors.hpp"
#include "pmoe/io/file_kind.hpp"
#include "pmoe/io/json_writer.hpp"
#include "pmoe/sweep/run/sweep_runner.hpp"
#include "slurm_cluster.hpp"
#include "slurm_looks.hpp"
#include "slurm_scripts.hpp"
#include "sweep_state.hpp"

namespace pmoe {
namespace {

struct ShardRow {
  int shard = 0;
  std::string task = "-", state = "-", progress = "-", recorded;
  size_t held = 0, share = 0;
  bool complete = false, active = false, queue_known = false;
  // Its task ended without completing it: a recorded end other than success ("exit 0": its
  // file may be merged and removed since), no task queued. "started" with no task queued is a
  // task that died, when the queue could be asked.
  bool Failed() const {
    if (complete || active || recorded.empty() || recorded == "exit 0") return false;
    return recorded != "started" || queue_known;
  }
};

struct Table {
  std::string name, merged, merge_job, merge_state, merge_recorded;
  bool queue_known = false;
  std::vector<ShardRow> rows;
  size_t active = 0, complete = 0, failed = 0, held = 0, share = 0;
};

std::string FirstLine(const std::string& path) {
  const std::string text = ReadOptionalText(path, "the task's state file");
  return text.substr(0, text.find('\n'));
}

Table ReadTable(const std::string& config, const std::string& out, int shards) {
  Table t;
  SlurmQueue queue;
  // Inside a precision look chain a shard's share is its part of the current look.
  const SweepSetup whole = PrepareSweep(config, out, {});
  const bool chain = IsLookChain(whole.merged_path, shards);
  const auto look = chain ? LookProgress(whole, shards) : std::vector<std::pair<size_t, size_t>>{};
  for (int i = 1; i <= shards; ++i) {
    const SweepSetup setup = PrepareSweep(config, out, {i, shards});
    if (i == 1) {
      t.name = setup.config.name;
      t.merged = setup.merged_path;
      queue = QueuedShards(JobTag(std::filesystem::absolute(t.merged).string()));
      t.queue_known = queue.known;
    }
    ShardRow r;
    r.shard = i;
    r.queue_known = queue.known;
    if (queue.state.count(i)) {
      r.state = queue.state[i];
      r.task = queue.job[i];
      r.active = true;
    }
    if (chain) {
      std::tie(r.held, r.share) = look[static_cast<size_t>(i - 1)];
      r.progress = std::to_string(r.held) + "/" + std::to_string(r.share) + " of the look";
      r.complete = r.held == r.share;
    } else if (std::filesystem::exists(setup.out_path) ||
               std::filesystem::exists(setup.journal_path)) {
      try {
        const SweepState s = ReadSweepState(setup.out_path);
        r.share = s.planned ? *s.planned : s.held.size() + s.Missing();
        r.held = s.held.size();
        r.progress = std::to_string(r.held) + "/" + std::to_string(r.share);
        r.complete = s.Missing() == 0;
      } catch (const SchemaError& e) {
        r.progress = "unreadable";
      }
    }
    r.recorded = FirstLine(ShardStatePath(t.merged, i));
    t.active += r.active;
    t.complete += r.complete;
    t.failed += r.Failed();
    t.held += r.held;
    t.share += r.share;
    t.rows.push_back(r);
  }
  t.merge_job = queue.merge_job;
  t.merge_state = queue.merge_state;
  t.merge_recorded = FirstLine(MergeStatePath(t.merged));
  return t;
}

void PrintTable(const Table& t, int shards) {
  std::cout << "sweep " << t.name << ", " << shards << " shards"
            << (t.queue_known ? "" : " (squeue not available: Slurm states unknown)") << "\n"
            << "shard  slurm task           state       trials held   last recorded\n";
  for (const ShardRow& r : t.rows) {
    char line[200];
    std::snprintf(line, sizeof line, "%5d  %-20s %-11s %-13s %s\n", r.shard, r.task.c_str(),
                  r.state.c_str(), r.progress.c_str(),
                  r.recorded.empty() ? "-" : r.recorded.c_str());
    std::cout << line;
  }
  std::cout << t.complete << " of " << shards << " shards complete; " << t.held
            << " trials held of " << t.share << " in the files seen; " << t.active
            << " tasks queued or running" << (t.failed ? "; " : "")
            << (t.failed ? std::to_string(t.failed) + " failed (their tasks ended unfinished)" : "")
            << "\nmerge job: "
            << (t.merge_job.empty() ? "not queued" : t.merge_job + " " + t.merge_state)
            << "; last recorded: " << (t.merge_recorded.empty() ? "-" : t.merge_recorded) << "\n";
}

void PrintJson(const Table& t, int shards) {
  JsonWriter w(std::cout);
  w.BeginObject().Field("sweep", t.name).Field("merged", t.merged).Field("shards", shards);
  w.Field("squeue_known", t.queue_known).Key("shard_list").BeginArray();
  for (const ShardRow& r : t.rows)
    w.BeginObject()
        .Field("shard", r.shard)
        .Field("task", r.task)
        .Field("slurm_state", r.state)
        .Field("held", r.held)
        .Field("share", r.share)
        .Field("complete", r.complete)
        .Field("failed", r.Failed())
        .Field("recorded", r.recorded)
        .EndObject();
  w.EndArray().Field("complete", t.complete).Field("active", t.active).Field("failed", t.failed);
  w.Key("merge").BeginObject().Field("job", t.merge_job).Field("slurm_state", t.merge_state);
  w.Field("recorded", t.merge_recorded).EndObject().EndObject();
  std::cout << "\n";
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
  c.options.insert(
      c.options.end(),
      {
          {"every",
           "S",
           "redraw every S seconds until every shard is complete (default: once)",
           {},
           ""},
          {"json", "", "the shards and the merge job as one JSON object (one per redraw)", {}, ""},
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
  const bool json = args.Has("json");
  for (;;) {
    const Table t = ReadTable(config, out, shards);
    json ? PrintJson(t, shards) : PrintTable(t, shards);
    if (t.active == 0 || every <= 0) {
      // Failed shards, or a merge that failed, make the exit status 1 (scripts and CI see it).
      const bool merge_failed =
          t.merge_recorded == "shards-missing" || t.merge_recorded.rfind("exit ", 0) == 0;
      return t.failed > 0 || merge_failed ? 1 : 0;
    }
    std::cout << std::flush;
    ::sleep(static_cast<unsigned>(every));
    if (!json) std::cout << "\n";
  }
}

}  // namespace pmoe
