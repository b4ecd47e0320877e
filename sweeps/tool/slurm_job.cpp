// The job of `pmoe-sweep slurm` as a value (slurm_job.hpp).
#include "slurm_job.hpp"

#include <cstring>
#include <filesystem>

#include "pmoe/precision/precision_section.hpp"
#include "pmoe/sweep/run/sweep_setup.hpp"
#include "slurm_checks.hpp"
#include "slurm_cluster.hpp"
#include "slurm_estimate.hpp"

namespace pmoe {
namespace {

// "P" of an #SBATCH --partition=P or -p P line; "" when none names one.
std::string PartitionOf(const std::vector<std::string>& extra) {
  std::string partition;
  for (const std::string& line : extra) {
    for (const char* key : {"--partition=", "-p "}) {
      const size_t at = line.find(key);
      if (at == std::string::npos) continue;
      const size_t start = line.find_first_not_of(' ', at + std::strlen(key));
      if (start != std::string::npos) partition = line.substr(start, line.find(' ', start) - start);
    }
  }
  return partition;
}

// The job's settings from the request and the sweep, before anything is estimated.
SlurmJob JobOf(const SlurmRequest& r, const SweepSetup& setup, const std::string& command_line) {
  SlurmJob job;
  job.name = setup.config.name;
  job.tool = std::filesystem::canonical("/proc/self/exe").string();
  job.workdir = std::filesystem::current_path().string();
  job.config = r.config;
  job.out = setup.merged_path;
  job.script_dir = SlurmDir(job.out);
  job.shards = r.shards;
  job.cpus = r.cpus;
  job.extra = r.extra;
  job.setup = r.setup;
  job.throttle = r.throttle;
  job.retries = r.retries;
  job.generated_by = command_line;
  job.looks = PrecisionOf(setup.config) != nullptr;  // a look chain over the whole array
  return job;
}

// Splits the array into chunks the cluster takes when the shards outnumber its MaxArraySize.
void FitArrayLimit(const SlurmRequest& r, SlurmJob& job) {
  int max_array = r.array_limit > 0 ? r.array_limit : SlurmMaxArraySize();
  if (max_array <= 0) {  // no controller answered: Slurm's default, not "no limit"
    max_array = kDefaultMaxArraySize;
    if (r.shards > max_array - 1)
      job.notes.push_back("array: scontrol did not answer; Slurm's default MaxArraySize " +
                          std::to_string(max_array) + " assumed (--array-limit N says)");
  }
  if (r.shards > max_array - 1) {
    job.chunk = max_array - 1;
    job.notes.push_back("array: " + std::to_string(r.shards) + " shards in chunks of " +
                        std::to_string(job.chunk) + " tasks (the cluster's MaxArraySize is " +
                        std::to_string(max_array) + ")");
  }
}

// Tasks asking more CPUs than any node of the partition has would stay pending forever.
std::string CpuWarning(const SlurmRequest& r) {
  const std::string partition = PartitionOf(r.extra);
  const int node_cpus = SlurmMaxNodeCpus(partition);
  if (node_cpus <= 0 || r.cpus <= node_cpus) return "";
  return "--cpus " + std::to_string(r.cpus) + " but the nodes of " +
         (partition.empty() ? "the default partition" : "partition " + partition) +
         " have at most " + std::to_string(node_cpus) +
         " CPUs: the tasks would stay pending forever (use --cpus " + std::to_string(node_cpus) +
         " or less)";
}

}  // namespace

SlurmJobScripts MakeSlurmJob(const SlurmRequest& r, const std::string& command_line) {
  const SweepSetup setup = PrepareSweep(r.config, r.out, {});
  SlurmJobScripts made;
  SlurmJob& job = made.job;
  job = JobOf(r, setup, command_line);
  CheckJob(job);  // a newline in a path: refused before anything is measured or written
  RefuseAnotherBuild(r.config, r.out, r.shards, job.out);
  FitArrayLimit(r, job);
  EstimateJob(setup, {r.shards, r.cpus, r.pilot, r.margin, r.time_minutes, r.mem_mb}, job);
  made.array_script = ArrayScript(job);
  made.after_script = job.looks ? DecideScript(job) : MergeScript(job);
  made.cpu_warning = CpuWarning(r);
  return made;
}

}  // namespace pmoe
