// What `missing` finds and advises, as values (SurveyShards, AdviseMissing: shard_survey.hpp):
// a shard set of three small real shards, one complete, one incomplete, one absent; the queue
// and the merge job's retry through stand-ins, its sbatch lines through a fake runner.
#include "../../sweeps/tool/shard_survey.hpp"

#include <stdlib.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

#include "../../sweeps/tool/slurm_job.hpp"
#include "../../sweeps/tool/slurm_scripts.hpp"
#include "pmoe/core/errors.hpp"
#include "pmoe/sweep/grid/grid.hpp"
#include "pmoe/sweep/grid/sweep_config.hpp"
#include "pmoe/sweep/run/sweep_runner.hpp"
#include "pmoe/sweep/store/result_file.hpp"
#include "support/run_command.hpp"
#include "support/slurm_stand_ins.hpp"

namespace pmoe {
namespace {

using Catch::Matchers::Contains;
using Catch::Matchers::EndsWith;
using Catch::Matchers::StartsWith;

// Three shards of a six-trial sweep in `dir`: shard 1 run, shard 2 run and then cut to half its
// rows, shard 3 never run.
struct ShardSet {
  std::string dir, config, out;
  std::string File(int i) const {
    return dir + "/r.shards/shard-" + std::to_string(i) + "-of-3.h5";
  }
};

ShardSet MakeShardSet(const std::string& name) {
  ShardSet set;
  set.dir = test::FreshDirectory(name);
  set.config = set.dir + "/c.ini";
  set.out = set.dir + "/r.h5";
  std::ofstream(set.config) << "name = survey\nseed = 3\ntrials = 3\nN_test = 100\n[model]\n"
                               "epochs = 5\nm = 8\n[grid]\nmodel.kind = separate,cnn\nN = 40,60\n";
  for (int i : {1, 2}) {
    RunOptions options;
    options.threads = 1;
    options.progress = false;
    std::ostringstream log;
    RunSweep(PrepareSweep(set.config, set.out, {i, 3}), options, log);
  }
  ResultContents two = ReadResultFile(set.File(2));
  two.rows.resize(two.rows.size() / 2);
  WriteResultFile(set.File(2), two.meta, ExpandGrid(LoadSweepConfig(set.config)), *two.schema,
                  two.rows);
  return set;
}

// Slurm's commands are the stand-ins of `dir` (slurm_stand_ins.hpp) while it lives.
class StandInPath {
 public:
  explicit StandInPath(const std::string& dir) : old_(getenv("PATH") ? getenv("PATH") : "") {
    test::SlurmStandIns(dir);
    setenv("PATH", (dir + "/bin:" + old_).c_str(), 1);
  }
  ~StandInPath() { setenv("PATH", old_.c_str(), 1); }

 private:
  std::string old_;
};

// A runner that records each command and answers with job ids 100, 101, ... (as sbatch
// --parsable prints them), or fails with sbatch's words when `fail`.
struct FakeSbatch {
  std::vector<std::string> commands;
  bool fail = false;
  CommandRunner Runner() {
    return [this](const std::string& command, bool* ok) {
      commands.push_back(command);
      *ok = !fail;
      return fail ? std::string("sbatch: error: QOSMaxSubmitJobPerUserLimit\n")
                  : std::to_string(99 + commands.size()) + "\n";
    };
  }
};

}  // namespace

TEST_CASE("missing as values: a survey of three shards, complete, incomplete, absent, then queued",
          "[sweep][missing]") {
  const ShardSet set = MakeShardSet("shard_survey");
  const StandInPath slurm(set.dir);
  std::vector<int> called;
  const ShardSurvey survey =
      SurveyShards(set.config, set.out, 3, [&](const ShardLine& l) { called.push_back(l.index); });
  CHECK(called == std::vector<int>{1, 2, 3});
  CHECK(survey.shards == 3);
  CHECK(survey.merged == set.out);
  CHECK(survey.name == "survey");
  CHECK_FALSE(survey.merged_complete);
  REQUIRE(survey.lines.size() == 3);
  CHECK(survey.lines[0].condition == ShardCondition::kComplete);
  CHECK_THAT(survey.lines[0].detail, StartsWith("complete ("));
  CHECK(survey.lines[1].condition == ShardCondition::kIncomplete);
  CHECK_THAT(survey.lines[1].detail, StartsWith("incomplete: ") && Contains(" trials missing"));
  CHECK(survey.lines[2].condition == ShardCondition::kAbsent);
  CHECK(std::string(ConditionName(survey.lines[2].condition)) == "absent");
  CHECK(survey.shard_files == std::vector<std::string>{set.File(1), set.File(2), set.File(3)});
  CHECK(survey.lines[2].file == set.File(3));
  CHECK(survey.to_submit == std::vector<int>{2, 3});
  CHECK(survey.running.empty());
  CHECK(survey.others.empty());
  CHECK_FALSE(survey.Done());

  // No array script: each shard's run command, then the merge; nothing is submitted.
  FakeSbatch sbatch;
  const MissingAdvice advice =
      AdviseMissing(survey, {set.config, set.out, "pmoe-sweep", -1}, sbatch.Runner());
  REQUIRE_FALSE(advice.stopped_by);
  CHECK(advice.status == 1);
  CHECK(sbatch.commands.empty());
  const std::string run = "pmoe-sweep run " + set.config + " --shard ";
  CHECK(advice.text ==
        "\nto finish, run again the shards that lack trials (2,3); each resumes "
        "from what its file holds:\n  " +
            run + "2/3 --out " + set.out + "\n  " + run + "3/3 --out " + set.out +
            "\nthen merge: pmoe-sweep merge " + set.out + " " + set.File(1) + " " + set.File(2) +
            " " + set.File(3) + "\n");

  // Shard 3's task pending in Slurm: waited for, not run again.
  const std::string tag = JobTag(std::filesystem::absolute(set.out).string());
  std::ofstream(set.dir + "/squeue.txt") << "60_3|PENDING|" << tag << "\n";
  const ShardSurvey queued = SurveyShards(set.config, set.out, 3);
  CHECK(queued.lines[2].condition == ShardCondition::kQueued);
  CHECK_THAT(queued.lines[2].detail, StartsWith("in Slurm: task 60_3 PENDING; absent"));
  CHECK(queued.to_submit == std::vector<int>{2});
  CHECK(queued.running == std::vector<int>{3});
  const MissingAdvice wait = AdviseMissing(queued, {set.config, set.out, "pmoe-sweep", -1});
  CHECK_THAT(wait.text, StartsWith("\nshards 3 are queued or running; wait for them") &&
                            Contains("(2); each resumes") && Contains(run + "2/3 --out"));
}

TEST_CASE("missing --retry as a value: failed shards resubmitted through the runner it is given",
          "[sweep][missing][slurm]") {
  const ShardSet set = MakeShardSet("shard_survey_retry");
  const StandInPath slurm(set.dir);
  // The array script `slurm` would write: 10 minutes and 1000 MB a task, 2 retries.
  SlurmRequest request;
  request.config = set.config;
  request.out = set.out;
  request.shards = 3;
  request.pilot = 0;
  request.time_minutes = 10;
  request.mem_mb = 1000;
  request.array_limit = 1001;
  const SlurmJobScripts made = MakeSlurmJob(request, "pmoe-sweep slurm");
  std::filesystem::create_directories(made.job.script_dir + "/logs");
  std::ofstream(ArrayScriptPath(set.out)) << made.array_script;
  std::ofstream(ShardStatePath(set.out, 2)) << "exit 137\n";   // out of memory: retried
  std::ofstream(ShardStatePath(set.out, 3)) << "cancelled\n";  // scancel: not retried
  const ShardSurvey survey = SurveyShards(set.config, set.out, 3);
  REQUIRE(survey.to_submit == std::vector<int>{2, 3});

  FakeSbatch sbatch;
  const MissingAdvice retried =
      AdviseMissing(survey, {set.config, set.out, "pmoe-sweep", 0}, sbatch.Runner());
  REQUIRE_FALSE(retried.stopped_by);
  CHECK(retried.status == kRetrySubmitted);
  REQUIRE(sbatch.commands.size() == 2);
  CHECK_THAT(sbatch.commands[0],
             StartsWith("sbatch --parsable --array=2 --mem=1500M --time=00:15:00 "));
  CHECK_THAT(sbatch.commands[1],
             StartsWith("sbatch --parsable --dependency=afterany:100 --export=ALL,PMOE_RETRY=1 ") &&
                 EndsWith("merge.sbatch"));
  // The merge job's id as sbatch printed it.
  CHECK_THAT(retried.text, StartsWith("shard 3: not retried (its task ended: cancelled)") &&
                               EndsWith("resubmitted shards 2 with --mem=1500M --time=00:15:00 "
                                        "(x1.5), and a merge job after them: 101\n"));

  // An sbatch that fails: what was said before it is kept, the failure is handed back.
  FakeSbatch refusing;
  refusing.fail = true;
  const MissingAdvice failed =
      AdviseMissing(survey, {set.config, set.out, "pmoe-sweep", 0}, refusing.Runner());
  REQUIRE(failed.stopped_by);
  CHECK(refusing.commands.size() == 1);
  CHECK_THAT(failed.text, StartsWith("shard 3: not retried") && !Contains("retry 1"));
  CHECK_THROWS_AS(std::rethrow_exception(failed.stopped_by), ConfigError);
  CHECK_THROWS_WITH(
      std::rethrow_exception(failed.stopped_by),
      Contains("retry: \"sbatch --parsable --array=2 ") && Contains("QOSMaxSubmitJobPerUserLimit"));

  // At the cap nothing is submitted; the advice is the array's own resubmission of both.
  FakeSbatch unused;
  const MissingAdvice capped =
      AdviseMissing(survey, {set.config, set.out, "pmoe-sweep", 2}, unused.Runner());
  CHECK(capped.status == 1);
  CHECK(unused.commands.empty());
  CHECK_THAT(capped.text, Contains("shards 2 failed; not retried again: 2 retries made") &&
                              Contains("jid=$(sbatch --parsable --array=2,3 "));
}

}  // namespace pmoe
