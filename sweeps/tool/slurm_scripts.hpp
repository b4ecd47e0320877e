// The Slurm batch scripts `pmoe-sweep slurm` writes: a job array with one task per shard (the
// task id is the shard number, so any subset can be resubmitted with --array=I,J) and a merge
// job chained after it. Text only: no file is touched here.
#pragma once

#include <string>
#include <vector>

namespace pmoe {

struct SlurmJob {
  std::string name;        // the sweep's name
  std::string tool;        // absolute path of pmoe-sweep
  std::string workdir;     // absolute; the scripts cd here, so the paths below may be relative
  std::string config;      // the sweep config
  std::string out;         // the merged result file
  std::string script_dir;  // SlurmDir(out): the scripts, and logs/ under it
  int shards = 1;
  int cpus = 1;  // per task: --cpus-per-task, and pmoe-sweep's --threads from it
  int time_minutes = 10, mem_mb = 1000;              // per array task
  int merge_time_minutes = 10, merge_mem_mb = 1000;  // the merge job
  int test_cache_mb = 1000;
  int signal_seconds = 90;         // USR1 this long before the time limit: save and requeue
  std::vector<std::string> notes;  // comment lines: how time and memory were chosen
  std::vector<std::string> extra;  // the user's own #SBATCH lines (partition, account, ...)
  std::string generated_by;        // the command line
};

// "<out without .h5>.slurm": where the scripts of the sweep whose merged file is `out` go.
std::string SlurmDir(const std::string& out);
std::string ArrayScriptPath(const std::string& out);  // SlurmDir(out) + "/array.sbatch"
std::string MergeScriptPath(const std::string& out);  // SlurmDir(out) + "/merge.sbatch"

std::string ArrayScript(const SlurmJob& job);
std::string MergeScript(const SlurmJob& job);

// Slurm's time format: "M" minutes as "HH:MM:00", or "D-HH:MM:00" from a day on.
std::string SlurmTime(int minutes);

// A word quoted for the shell ('...' with ' escaped).
std::string ShellQuote(const std::string& word);

}  // namespace pmoe
