// Issue 28, the Slurm workflow without a cluster (tests/slurm/ runs it on a real one): a task
// requeues only itself and at most a capped number of times; --time has a floor; --setup lines
// are shell lines and --sbatch only options; arrays are split at MaxArraySize and throttled;
// `missing` knows adaptive shards and queued tasks; the merge job retries failed shards (not
// cancelled ones, not bad input) with more memory and time, capped; `watch` shows every task.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "pmoe/core/shell_quote.hpp"
#include "support/run_command.hpp"
#include "support/slurm_stand_ins.hpp"
#include "sweep/sweep_test_support.hpp"

namespace pmoe {
namespace {

using Catch::Matchers::Contains;
using test::RunCommand;
using test::SweepCommand;

}  // namespace

TEST_CASE("The array script requeues only its own task, a capped number of times",
          "[security][slurm]") {
  const std::string dir = test::FreshDirectory("slurm_requeue");
  const std::string path = test::SlurmStandIns(dir);
  test::WriteTinySlurmSweep(dir + "/c.ini");
  const std::string out = dir + "/r.h5";
  REQUIRE(
      RunCommand(SweepCommand("slurm " + dir + "/c.ini --shards 3 --pilot 0 --cpus 1 --out " + out))
          .status == 0);
  std::filesystem::remove(dir + "/scontrol.log");  // `slurm` asked it for MaxArraySize
  const std::string script = test::ReadWholeFile(dir + "/r.slurm/array.sbatch");
  CHECK_THAT(script, Contains("scontrol requeue \"${SLURM_ARRAY_JOB_ID}_${SLURM_ARRAY_TASK_ID}\""));
  CHECK_THAT(script, !Contains("requeue \"$SLURM_JOB_ID\""));
  // The script as the array's last task after USR1, with a pmoe-sweep that saves and exits 130:
  // it asks for its own task id, not the array's (which, for the last task, is its job id).
  std::string fake = script;
  const size_t run = fake.find(" run ");
  fake.replace(fake.rfind('\n', run) + 1, fake.find(" &\n", run) - fake.rfind('\n', run) - 1,
               "(trap 'exit 130' TERM; sleep 5 & wait)");
  std::ofstream(dir + "/fake.sbatch") << fake;
  const std::string task = "SLURM_ARRAY_JOB_ID=50 SLURM_ARRAY_TASK_ID=3 SLURM_JOB_ID=50 ";
  const auto requeued = RunCommand(path + task + "bash -c " +
                                   ShellQuote("bash " + dir +
                                              "/fake.sbatch & p=$!; sleep 1; "
                                              "kill -USR1 $p; wait $p"));
  INFO(requeued.out << requeued.err);
  CHECK(requeued.status == 0);
  CHECK(test::ReadWholeFile(dir + "/scontrol.log") == "requeue 50_3\n");
  // Requeued as often as the cap allows: not again, and the task says why.
  const auto capped = RunCommand(path + task + "SLURM_RESTART_COUNT=5 bash -c " +
                                 ShellQuote("bash " + dir +
                                            "/fake.sbatch & p=$!; sleep 1; "
                                            "kill -USR1 $p; wait $p"));
  CHECK(capped.status == 1);
  CHECK_THAT(capped.out, Contains("not requeued") && Contains("the cap is 5"));
  CHECK(test::ReadWholeFile(dir + "/scontrol.log") == "requeue 50_3\n");
  CHECK(test::ReadWholeFile(dir + "/r.slurm/logs/shard-3.state") == "requeue-cap\n");
}

TEST_CASE("slurm: --time floor, --setup lines, --sbatch options only, chunks and throttle",
          "[security][slurm]") {
  const std::string dir = test::FreshDirectory("slurm_options");
  const std::string path = test::SlurmStandIns(dir);
  test::WriteTinySlurmSweep(dir + "/c.ini");
  const std::string slurm =
      path + SweepCommand("slurm " + dir + "/c.ini --pilot 0 --cpus 1 --out " + dir + "/r.h5 ");
  const auto short_time = RunCommand(slurm + "--shards 2 --time 2");
  CHECK(short_time.status == 2);
  CHECK_THAT(short_time.err, Contains("at least 5 minutes") && Contains("USR1"));
  const auto module = RunCommand(slurm + "--shards 2 --sbatch 'module load gcc'");
  CHECK(module.status == 2);
  CHECK_THAT(module.err, Contains("--setup"));
  const auto setup = RunCommand(slurm + "--shards 2 --setup 'module load gcc' --print");
  REQUIRE(setup.status == 0);
  // Before strict mode (issue 44): a site script may read unset variables.
  CHECK_THAT(setup.out, Contains("\nmodule load gcc\nset -u\ncd ") && !Contains("#SBATCH module"));
  // 5 shards on a cluster whose MaxArraySize is 3 (task ids 0..2): chunks of 2, throttled.
  const auto chunked = RunCommand(slurm + "--shards 5 --array-limit 3 --throttle 2 --submit");
  INFO(chunked.out << chunked.err);
  REQUIRE(chunked.status == 0);
  const std::string log = test::ReadWholeFile(dir + "/sbatch.log");
  CHECK_THAT(log,
             Contains("--parsable --array=1,2%2 ") &&
                 // Issue 44: one throttle for the sweep, so each chunk waits for the one before.
                 Contains("--parsable --array=1,2%2 --dependency=afterany:100 "
                          "--export=ALL,PMOE_SHARD_OFFSET=2 --comment=pmoe-") &&
                 Contains("--parsable --array=1%2 --dependency=afterany:101 "
                          "--export=ALL,PMOE_SHARD_OFFSET=4 ") &&
                 Contains("--dependency=afterany:100:101:102 "));
  CHECK_THAT(test::ReadWholeFile(dir + "/r.slurm/array.sbatch"),
             Contains("#SBATCH --array=1-2%2\n") &&
                 Contains("shard=$((SLURM_ARRAY_TASK_ID + ${PMOE_SHARD_OFFSET:-0}))"));
  // The task of chunk 3 runs shard 5.
  const auto fifth =
      RunCommand(path + "PMOE_SHARD_OFFSET=4 SLURM_ARRAY_TASK_ID=1 SLURM_ARRAY_JOB_ID=102 bash " +
                 dir + "/r.slurm/array.sbatch");
  INFO(fifth.err);
  CHECK(fifth.status == 0);
  CHECK(std::filesystem::exists(dir + "/r.shards/shard-5-of-5.h5"));
}

TEST_CASE("missing: queued tasks are not resubmitted, and the merge job retries failed shards only",
          "[security][slurm]") {
  const std::string dir = test::FreshDirectory("slurm_missing");
  const std::string path = test::SlurmStandIns(dir);
  test::WriteTinySlurmSweep(dir + "/c.ini");
  const std::string out = dir + "/r.h5";
  REQUIRE(RunCommand(path + SweepCommand("slurm " + dir +
                                         "/c.ini --shards 4 --pilot 0 --cpus 1 "
                                         "--mem 1000 --time 10 --out " +
                                         out))
              .status == 0);
  const std::string script = test::ReadWholeFile(dir + "/r.slurm/array.sbatch");
  const size_t at = script.find("#SBATCH --comment=") + 18;
  const std::string tag = script.substr(at, script.find('\n', at) - at);
  REQUIRE(RunCommand(SweepCommand("run " + dir + "/c.ini --shard 1/4 --out " + out)).status == 0);
  // Shard 2 pending, shard 3 running in Slurm, shard 4 nowhere; another sweep's task ignored.
  std::ofstream(dir + "/squeue.txt") << "60_2|PENDING|" << tag << "\n60_3|RUNNING|" << tag
                                     << "\n61_4|PENDING|pmoe-0000000000000000\n";
  const std::string missing =
      path + SweepCommand("missing " + dir + "/c.ini --shards 4 --out " + out);
  const auto queued = RunCommand(missing);
  INFO(queued.out);
  CHECK(queued.status == 1);
  CHECK_THAT(queued.out, Contains("shard 2/4") && Contains("task 60_2 PENDING") &&
                             Contains("task 60_3 RUNNING") && Contains("queued or running") &&
                             Contains("--array=4 "));
  CHECK_THAT(queued.out, !Contains("--array=2") && !Contains("--array=3"));
  const auto watch =
      RunCommand(path + SweepCommand("watch " + dir + "/c.ini --shards 4 --out " + out));
  CHECK(watch.status == 0);
  CHECK_THAT(watch.out, Contains("60_2") && Contains("PENDING") && Contains("1/1") &&
                            Contains("1 of 4 shards complete"));
  // The merge job, after the array: shard 2 died of OOM (exit 137), 3 was cancelled, 4 had bad
  // input: only 2 is resubmitted, with 1.5x the memory and time, and a merge job after it.
  std::filesystem::remove(dir + "/squeue.txt");
  std::ofstream(dir + "/r.slurm/logs/shard-2.state") << "exit 137\n";
  std::ofstream(dir + "/r.slurm/logs/shard-3.state") << "cancelled\n";
  std::ofstream(dir + "/r.slurm/logs/shard-4.state") << "bad-input\n";
  const auto retry = RunCommand(
      path + SweepCommand("missing " + dir + "/c.ini --shards 4 --out " + out + " --retry 0"));
  INFO(retry.out << retry.err);
  CHECK(retry.status == 75);  // resubmitted: the merge job running it ends COMPLETED
  CHECK_THAT(test::ReadWholeFile(dir + "/sbatch.log"),
             Contains("--parsable --array=2 --mem=1500M --time=00:15:00 ") &&
                 Contains("--dependency=afterany:100 --export=ALL,PMOE_RETRY=1 "));
  CHECK_THAT(retry.out, Contains("shard 3: not retried") && Contains("shard 4: not retried") &&
                            Contains("retry 1 of 2"));
  // The cap: at retry 2 nothing more is submitted.
  std::filesystem::remove(dir + "/sbatch.log");
  const auto capped = RunCommand(
      path + SweepCommand("missing " + dir + "/c.ini --shards 4 --out " + out + " --retry 2"));
  CHECK(capped.status == 1);
  CHECK_THAT(capped.out, Contains("not retried again"));
  CHECK_FALSE(std::filesystem::exists(dir + "/sbatch.log"));
}

TEST_CASE("missing counts an adaptive shard's trials", "[security][slurm][adaptive]") {
  const std::string dir = test::FreshDirectory("slurm_adaptive");
  std::ofstream(dir + "/a.ini") << "name = ad\nseed = 5\nN_test = 100\n[model]\nkind = separate\n"
                                   "m = 8\nepochs = 5\n[grid]\nmodel.l = 3:4\n[adaptive]\n"
                                   "N_min = 12\nN_max = 48\nbudget = 8\nround = 4\ntarget = 0.3\n";
  const std::string out = dir + "/r.h5";
  const auto ran = RunCommand(SweepCommand("run " + dir + "/a.ini --shard 1/1 --out " + out));
  INFO(ran.err);
  REQUIRE(ran.status == 0);
  const auto missing =
      RunCommand(SweepCommand("missing " + dir + "/a.ini --shards 1 --out " + out));
  INFO(missing.out << missing.err);
  CHECK(missing.status == 0);
  CHECK_THAT(missing.out, Contains("complete (") && !Contains("complete (0 trials"));
}

}  // namespace pmoe
