// The time and memory `pmoe-sweep slurm` asks per array task: from the work each shard gets (a
// grid's cost-balanced share; a precision config's largest share of any look, the look chain),
// scaled by a pilot's measured/modeled ratio and the margin.
#pragma once

#include <cstddef>
#include <ostream>
#include <string>

#include "pmoe/io/json_writer.hpp"
#include "pmoe/sweep/run/sweep_setup.hpp"
#include "slurm_scripts.hpp"

namespace pmoe {

struct EstimateInput {
  int shards = 1, cpus = 1;
  size_t pilot = 0;      // trials of the pilot; 0: the static model alone
  double margin = 2;     // on time and memory
  int time_minutes = 0;  // > 0: given, not estimated
  int mem_mb = 0;        // > 0: given, not estimated
};

// Sets job.time_minutes, mem_mb, test_cache_mb, merge_time_minutes, merge_mem_mb and the notes
// that say how they were chosen.
void EstimateJob(const SweepSetup& setup, const EstimateInput& in, SlurmJob& job);

// What each array task of `slurm --shards K`'s look chain gets, for `plan --shard I/K` on a
// [precision] config: the whole sweep's looks (the rows already held in `out` make the current
// look exact), K ways. A JSON object "look_chain" on `w` when given, else a text line on `text`.
struct LookShardEstimate;
void PlanLookChain(const std::string& config, const std::string& out, int shards,
                   std::ostream* text, JsonWriter* w);

}  // namespace pmoe
