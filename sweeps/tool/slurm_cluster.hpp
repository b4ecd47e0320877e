// What pmoe-sweep asks a Slurm cluster, when its commands are there: the largest job array it
// takes (scontrol show config), the CPUs of a partition's nodes (sinfo) and the state of a
// sweep's array tasks (squeue). Every query returns "unknown" (0 or empty) rather than failing
// where Slurm is absent or does not answer: the caller then says what it could not check.
#pragma once

#include <map>
#include <string>

namespace pmoe {

// MaxArraySize from `scontrol show config` (task ids run 0..MaxArraySize-1); 0 when unknown.
int SlurmMaxArraySize();

// The most CPUs any node of `partition` ("" for the default one) has, from sinfo; 0 when unknown.
int SlurmMaxNodeCpus(const std::string& partition);

// The state of each queued or running array task of the jobs tagged `tag` (--comment), by shard
// number (task id + the offset the task was submitted with): "PENDING", "RUNNING", ...
// `known` is false when squeue could not be asked.
struct SlurmQueue {
  bool known = false;
  std::map<int, std::string> state;    // shard -> state
  std::map<int, std::string> job;      // shard -> "ARRAYID_TASKID"
  std::string merge_job, merge_state;  // the merge job (tagged, not an array), while queued
};
SlurmQueue QueuedShards(const std::string& tag);

// Runs `command` (built with ShellQuote) and returns its standard output (and its errors when
// `with_errors`); `ok` false when it could not run or exited non-zero.
std::string RunCommand(const std::string& command, bool* ok, bool with_errors = false);

}  // namespace pmoe
