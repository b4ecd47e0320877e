// The job `pmoe-sweep slurm` makes, as a value: its settings, the time and memory it asks (a
// pilot's measurement times a margin), the notes that say why, and the texts of its two scripts.
// The command writes, prints or submits it; tests read it. Nothing is written here.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "slurm_scripts.hpp"

namespace pmoe {

// What `slurm` was asked for on its command line (all but what to do with the job).
struct SlurmRequest {
  std::string config, out;
  int shards = 0, cpus = 4;
  size_t pilot = 16;
  double margin = 2;
  int time_minutes = 0, mem_mb = 0;  // 0: estimated
  std::vector<std::string> extra, setup;
  int throttle = 0, retries = 2, array_limit = -1;  // array_limit -1: ask scontrol
};

struct SlurmJobScripts {
  SlurmJob job;              // the settings, estimates and notes
  std::string array_script;  // the text of ArrayScriptPath(job.out)
  std::string after_script;  // of AfterScriptPath(job): the merge job, or a look chain's decide
  // "--cpus C but the nodes of ... have at most N CPUs: ..." when sinfo says the tasks could
  // never start; "" when they can, or when sinfo does not answer.
  std::string cpu_warning;
};

// Measures (a pilot of request.pilot trials, nothing written), estimates and composes the job;
// `command_line` is recorded in the scripts. Asks scontrol for the largest array (unless
// request.array_limit gives it) and sinfo for the partition's CPUs. ConfigError for a job that
// cannot be quoted or a sweep begun by another build.
SlurmJobScripts MakeSlurmJob(const SlurmRequest& request, const std::string& command_line);

}  // namespace pmoe
