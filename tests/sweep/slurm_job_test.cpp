// The job `slurm` makes, as a value (MakeSlurmJob: slurm_job.hpp): its scripts' texts ask the
// array of its shards and the time and memory it chose, and nothing is written.
#include "../../sweeps/tool/slurm_job.hpp"

#include <catch2/catch.hpp>
#include <filesystem>

#include "../../sweeps/tool/slurm_checks.hpp"
#include "../../sweeps/tool/slurm_scripts.hpp"
#include "support/run_command.hpp"
#include "support/slurm_stand_ins.hpp"

namespace pmoe {
namespace {

using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;

// A request for the tiny two-trial sweep of slurm_stand_ins.hpp in a fresh `name` directory;
// the array limit given, so that scontrol is not asked.
SlurmRequest TinyRequest(const std::string& name, int shards) {
  const std::string dir = test::FreshDirectory(name);
  test::WriteTinySlurmSweep(dir + "/c.ini");
  SlurmRequest r;
  r.config = dir + "/c.ini";
  r.out = dir + "/r.h5";
  r.shards = shards;
  r.cpus = 1;
  r.pilot = 0;
  r.array_limit = 1001;
  return r;
}

}  // namespace

TEST_CASE("slurm job as a value: its array script asks the array and the time chosen",
          "[sweep][slurm]") {
  SlurmRequest r = TinyRequest("slurm_job_value", 3);
  r.time_minutes = 30;
  r.mem_mb = 1200;
  const SlurmJobScripts made = MakeSlurmJob(r, "pmoe-sweep slurm c.ini --shards 3");
  const SlurmJob& job = made.job;
  CHECK(job.name == "tiny");
  CHECK(job.out == r.out);
  CHECK(job.shards == 3);
  CHECK(job.chunk == 0);
  CHECK_FALSE(job.looks);
  CHECK(job.time_minutes == 30);
  CHECK(job.mem_mb == 1200);
  CHECK_THAT(made.array_script,
             StartsWith("#!/bin/bash\n# Sweep ") && Contains("\n#SBATCH --array=1-3\n") &&
                 Contains("\n#SBATCH --time=00:30:00\n") && Contains("\n#SBATCH --mem=1200M\n") &&
                 Contains("\n# pmoe-sweep array: shards=3 chunk=0 retries=2\n") &&
                 Contains("pmoe-sweep slurm c.ini --shards 3"));
  CHECK_THAT(made.after_script,
             StartsWith("#!/bin/bash\n# Merges the ") &&
                 Contains("#SBATCH --time=" + SlurmTime(job.merge_time_minutes)));
  CHECK(made.cpu_warning.empty());  // one CPU a task: any node has it
  // Nothing is written: the command writes, prints or submits the value.
  CHECK_FALSE(std::filesystem::exists(job.script_dir));
}

TEST_CASE("slurm job as a value: the estimate, the throttle and chunks of a small MaxArraySize",
          "[sweep][slurm]") {
  SlurmRequest r = TinyRequest("slurm_job_chunks", 5);
  r.array_limit = 3;
  r.throttle = 2;
  const SlurmJobScripts made = MakeSlurmJob(r, "pmoe-sweep slurm");
  const SlurmJob& job = made.job;
  // The static model's estimate times the margin, never under the floor a task needs to save.
  CHECK(job.time_minutes >= kMinTaskMinutes);
  CHECK(job.mem_mb > 0);
  CHECK_THAT(made.array_script,
             Contains("\n#SBATCH --time=" + SlurmTime(job.time_minutes) + "\n") &&
                 Contains("\n#SBATCH --array=1-2%2\n") && Contains("shards=5 chunk=2 "));
  CHECK(job.chunk == 2);
  std::string notes;
  for (const std::string& note : job.notes) notes += note + "\n";
  CHECK_THAT(notes, Contains("array: 5 shards in chunks of 2 tasks (the cluster's MaxArraySize "
                             "is 3)") &&
                        Contains("time: ") && Contains("memory: "));
  // The chunks are chained by the throttle in the command to paste.
  CHECK_THAT(SubmitCommand(job), Contains("jid2=$(sbatch --parsable --array=1,2%2 "
                                          "--dependency=afterany:$jid1 "));
}

}  // namespace pmoe
