// What `pmoe-sweep missing` finds of a sharded sweep and what it advises, as values: the command
// renders them, tests read them. The survey reads each shard's file and journal, the merged
// file and the Slurm queue; the advice reads the generated array script and, for the merge
// job's retry, the tasks' state files, and submits through a runner a test can replace.
#pragma once

#include <exception>
#include <functional>
#include <string>
#include <vector>

namespace pmoe {

enum class ShardCondition { kComplete, kIncomplete, kAbsent, kRunning, kQueued, kOther };

// "complete", "incomplete", "absent", "running", "queued", "other_sweep" (missing --json).
const char* ConditionName(ShardCondition condition);

struct ShardLine {
  int index = 0;  // 1..K
  std::string file;
  ShardCondition condition = ShardCondition::kAbsent;
  std::string detail;  // what `missing` prints after the file's name
};

struct ShardSurvey {
  int shards = 0;
  std::string merged, name;              // the merged file, the sweep's name
  bool merged_complete = false;          // the merged file holds every trial of this very sweep
  std::vector<ShardLine> lines;          // shard 1..K
  std::vector<std::string> shard_files;  // every shard's file, 1..K: what merge reads
  std::vector<std::string> others;       // shard files that hold another sweep
  std::vector<int> to_submit;            // incomplete or absent, and not in Slurm: to run again
  std::vector<int> running;  // queued or running (in Slurm, or a process holds the journal)

  // Nothing to run, wait for, move away or merge: the merged file is complete.
  bool Done() const;
};

// Surveys the K shards of `config`'s sweep whose merged file is `out` ("" the default).
// `on_line`, when given, is called with each shard's line as soon as it is read: the command
// prints it then, so that a survey of many shards shows its progress, and the lines before a
// shard that stops it (a damaged file) are still printed.
ShardSurvey SurveyShards(const std::string& config, const std::string& out, int shards,
                         const std::function<void(const ShardLine&)>& on_line = {});

// Runs one command line and returns its output, errors included; `ok` false when it failed.
// RunCommand (slurm_cluster.hpp) in the tool, a stand-in that records the sbatch lines in tests.
using CommandRunner = std::function<std::string(const std::string& command, bool* ok)>;
std::string RunWithErrors(const std::string& command, bool* ok);

struct MissingInput {
  std::string config, out;  // as given to `missing` (out "" the default)
  std::string tool;         // the command that printed commands start with
  int retry = -1;           // the merge job's attempt number (--retry N); -1 not given
};

struct MissingAdvice {
  // 0 every shard complete, 1 not yet, kRetrySubmitted (slurm_scripts.hpp) when failed shards
  // were resubmitted and a merge job after them.
  int status = 1;
  std::string text;  // what `missing` prints after the shard lines ("advice" in its JSON)
  // What stopped the advice (an unreadable script or state file, an sbatch that failed), when
  // something did: `text` is what it said before; the command prints that and rethrows this.
  std::exception_ptr stopped_by;
};

// What to do next about `survey`: move other sweeps' files away, wait, merge, or run again the
// shards that lack trials (with --retry, resubmit those that failed for reasons worth retrying,
// through `run`).
MissingAdvice AdviseMissing(const ShardSurvey& survey, const MissingInput& input,
                            const CommandRunner& run = RunWithErrors);

}  // namespace pmoe
