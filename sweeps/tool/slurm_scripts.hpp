// The Slurm batch scripts `pmoe-sweep slurm` writes: a job array with one task per shard (the
// task id plus the chunk's offset is the shard number, so any subset can be resubmitted with
// --array=I,J) and a merge job chained after it. Text only: no file is touched here.
//
// Everything from outside (paths, the sweep's name, the command line) is written through
// ShellQuote or CommentText (pmoe/core/shell_quote.hpp): a path holding a newline is refused
// by name, and a quote, a space or $(...) in one stays part of its word (issue 28).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "pmoe/core/shell_quote.hpp"

namespace pmoe {

// `missing --retry`'s exit status when it resubmitted failed shards and a merge job after them
// (EX_TEMPFAIL): the merge job that ran it then ends successfully.
constexpr int kRetrySubmitted = 75;

// Slurm's default MaxArraySize, assumed when no controller answers `scontrol show config`.
constexpr int kDefaultMaxArraySize = 1001;

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
  int signal_seconds = 90;  // USR1 this long before the time limit: save and requeue
  int max_requeues = 5;     // a task requeued this often is not requeued again
  int throttle = 0;         // at most this many tasks at once (--array=...%N); 0: no limit
  int chunk = 0;            // largest array task id the cluster takes (MaxArraySize - 1); 0: any
  int retries = 2;          // automatic resubmissions of failed shards by the merge job
  std::vector<std::string> notes;  // comment lines: how time and memory were chosen
  std::vector<std::string> extra;  // the user's own #SBATCH lines (partition, account, ...)
  std::vector<std::string> setup;  // the user's shell lines run before pmoe-sweep (modules)
  std::string generated_by;        // the command line
  // A precision config's look chain (issue 41): each array runs one look's pairs spread over
  // all K shards (`look-shard`), and decide.sbatch after it merges, decides the look and
  // submits the next look's array and decide job, until every target is decided.
  bool looks = false;
  // What the decide job needs to ask each look's array for what its largest share needs: the
  // pilot's measured/modeled ratio, the margin, the memory besides test sets; a --time or --mem
  // the user gave stays as given.
  double time_ratio = 1, margin = 2;
  int base_mb = 0;
  bool fixed_time = false, fixed_mem = false;
  // " --time=T --mem=M" for the first look's array: what its largest share needs ("" when the
  // script's bound is no more, or for a grid).
  std::string first_limits;
};

// Refuses (ConfigError, naming it) any path or value of the job that cannot be quoted.
void CheckJob(const SlurmJob& job);

// "<out without .h5>.slurm": where the scripts of the sweep whose merged file is `out` go.
std::string SlurmDir(const std::string& out);
std::string ArrayScriptPath(const std::string& out);   // SlurmDir(out) + "/array.sbatch"
std::string MergeScriptPath(const std::string& out);   // SlurmDir(out) + "/merge.sbatch"
std::string DecideScriptPath(const std::string& out);  // SlurmDir(out) + "/decide.sbatch"
// The job chained after the array: decide.sbatch for a look chain, merge.sbatch otherwise.
std::string AfterScriptPath(const SlurmJob& job);
// SlurmDir(out) + "/logs/shard-I.state": one line the array task writes about shard I:
// "started" when it begins, then "exit S" (pmoe-sweep's exit status), "bad-input" (exit 2),
// "wrong-cpu" (exit 4), "cancelled" (scancel) or "requeue-cap" (out of requeues). `missing --retry`
// resubmits only shards that started and then failed otherwise ("started" left: the node or the
// task died).
std::string ShardStatePath(const std::string& out, int shard);
// SlurmDir(out) + "/logs/merge.state": what the merge job last recorded: "started (attempt N)",
// then "merged", "retry-submitted" (failed shards resubmitted, a merge job after them),
// "shards-missing" (nothing merged: shards failed for good) or "exit S" (the merge failed).
std::string MergeStatePath(const std::string& out);
// Whether a shard whose state file holds `state` is worth resubmitting automatically (not bad
// input, not a cancel, not "wrong-cpu": exit 4, the node lacks the build's instruction set).
bool RetryableState(const std::string& state);
// What to do about a shard that ended in `state`, when more time and memory cannot help; "".
std::string StateAdvice(const std::string& state);

std::string ArrayScript(const SlurmJob& job);
std::string MergeScript(const SlurmJob& job);
// The decide job of a look chain: `pmoe-sweep look-decide`, which merges the look's shards,
// decides it and submits the next look (or resubmits failed shards, at most job.retries times).
std::string DecideScript(const SlurmJob& job);

// Runs one sbatch command line and returns the job id it printed (or, for a printed command,
// the shell variable that will hold it).
using Submitter = std::function<std::string(const std::string&)>;

// Submits the array for `shards` (1-based, sorted), one "sbatch --parsable [--array=...]
// [offset options]MORE 'array.sbatch'" per chunk of at most `job.chunk` shards, each given to
// `submit`; returns the ids. With a throttle the chunks are chained (--dependency=afterany on
// the chunk before), so that at most job.throttle tasks of the sweep run at once.
std::vector<std::string> SubmitChunks(const SlurmJob& job, const std::vector<int>& shards,
                                      const std::string& more, const Submitter& submit);

// The same, and the merge job after them, as a shell command to paste:
// "jid1=$(sbatch ...) && jid2=$(sbatch ...) && sbatch --dependency=afterany:$jid1:$jid2 ...".
std::string SubmitCommand(const SlurmJob& job);
// For some shards only, each sbatch given `more` options too (" --mem=2000M").
std::string SubmitCommand(const SlurmJob& job, const std::vector<int>& shards,
                          const std::string& more);

// One chunk of shards to submit: task ids first..last (each + offset is a shard number).
struct ArrayChunk {
  int offset = 0;
  std::vector<int> task_ids;
  std::string ArraySpec(int throttle) const;  // "1-1000%8" or "3,7"
};
// The shards (1-based, sorted) in chunks the cluster accepts; chunk 0 means no limit.
std::vector<ArrayChunk> ChunksOf(const std::vector<int>& shards, int chunk);

// The sbatch options of a chunk submitted with `offset` (its environment and its tag "TAG+N"),
// "" for offset 0.
std::string OffsetOptions(const SlurmJob& job, int offset);

// Slurm's time format: "M" minutes as "HH:MM:00", or "D-HH:MM:00" from a day on.
std::string SlurmTime(int minutes);

// A tag for the sweep's jobs (--comment), from the absolute merged path: `missing` and `watch`
// find the array's tasks in squeue by it.
std::string JobTag(const std::string& absolute_out);

// Reading a generated array script back: the value of `#SBATCH --KEY=VALUE`, "" when absent.
std::string ScriptDirective(const std::string& script, const std::string& key);
// N of the script's "#SBATCH --array=1-K%N" (0: no throttle): resubmissions keep it.
int ScriptThrottle(const std::string& script);

}  // namespace pmoe
