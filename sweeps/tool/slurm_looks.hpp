// A precision config's look chain on Slurm (issue 41): what a look's array task runs
// (`look-shard`), what the decide job after it runs (`look-decide`), and `missing` inside the
// chain. The merged file is the chain's state: a look's pairs are those its rows lead to.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "pmoe/cli/command.hpp"
#include "pmoe/sweep/run/sweep_setup.hpp"
#include "pmoe/sweep/run/work_source.hpp"
#include "slurm_scripts.hpp"

namespace pmoe {

cli::Command LookShardCommand();
cli::Command LookDecideCommand();
int RunLookShardCommand(const cli::Parsed& args, const std::string& command_line);
int RunLookDecideCommand(const cli::Parsed& args, const std::string& command_line);

// The rows of the merged file when it holds this sweep (none when there is no file); a file of
// another sweep is a ConfigError naming it.
StoredRows MergedLookRows(const SweepSetup& whole);

// Per shard: the trials its file and journal hold of its part of the current look, and that
// part's size (what `watch` and `missing` show inside the chain).
std::vector<std::pair<size_t, size_t>> LookProgress(const SweepSetup& whole, int shards);

// Whether `pmoe-sweep slurm` wrote a look chain for this merged file and K (decide.sbatch of K).
bool IsLookChain(const std::string& merged, int shards);

// `missing` inside a look chain: each shard's part of the current look, and the command that
// finishes it (with `resubmit`, submitted: the lacking shards and a decide job after them).
// 0 when every target is decided and the merged file holds it all, 1 otherwise.
int LookMissing(const std::string& config, const std::string& out, int shards, bool resubmit,
                const std::string& tool);

// The SlurmJob that submitted the chain, read back from its array script (shards, chunk,
// retries, throttle) for resubmissions from the decide job or `missing`.
SlurmJob ChainJob(const std::string& merged, int shards);

// " --time=T --mem=M" for the array of `look`: what its largest share needs by the static model
// times the pilot's ratio and the margin (as `slurm` computes it), when less than the script's
// bound; "" for what the user fixed with --time or --mem.
std::string LookLimits(const SlurmJob& job, const std::vector<WorkItem>& look,
                       const std::vector<Cell>& cells);

// Submits the array of `shards` (with `more` sbatch options) and a decide job after it whose
// PMOE_RETRY is `retry`; returns "array IDS, decide job ID".
std::string SubmitLook(const SlurmJob& job, const std::vector<int>& shards, const std::string& more,
                       int retry);

}  // namespace pmoe
