// Issue 44, hostile input and cluster faults round 4, without a cluster (stand-ins for sbatch,
// scontrol and squeue; tests/slurm/ runs the same on a real one): one throttle for a chunked
// submission and its resubmissions; --setup before strict mode; exit 4 refused with advice, not
// retried; --time floor through --sbatch lines; Slurm's default MaxArraySize when scontrol is
// silent; another build's files refused before submitting; special files as --sbatch-file;
// `watch` failing when shards failed (and --json with the merge job); `missing` reading a
// complete merged file; deep nesting in rules and --over; zips over the axis limit; and the
// printed report-page command quoted.
#include <sys/stat.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "pmoe/core/shell_quote.hpp"
#include "pmoe/sweep/grid/grid.hpp"
#include "pmoe/sweep/grid/sweep_config.hpp"
#include "support/run_command.hpp"
#include "support/slurm_stand_ins.hpp"
#include "sweep/sweep_test_support.hpp"

namespace pmoe {
namespace {

using Catch::Matchers::Contains;
using test::RunCommand;
using test::SweepCommand;

std::string SlurmCommand(const std::string& path, const std::string& dir, const std::string& more) {
  return path +
         SweepCommand("slurm " + dir + "/c.ini --pilot 0 --cpus 1 --out " + dir + "/r.h5 " + more);
}

}  // namespace

TEST_CASE("One throttle across chunks, kept by the merge job's resubmission",
          "[security][slurm][issue44]") {
  const std::string dir = test::FreshDirectory("faults_throttle");
  const std::string path = test::SlurmStandIns(dir);
  test::WriteTinySlurmSweep(dir + "/c.ini");
  const auto submitted = RunCommand(SlurmCommand(path, dir,
                                                 "--shards 5 --array-limit 3 --throttle 2 --submit "
                                                 "--mem 1000 --time 10"));
  INFO(submitted.out << submitted.err);
  REQUIRE(submitted.status == 0);
  std::string log = test::ReadWholeFile(dir + "/sbatch.log");
  // Chunks 2 and 3 wait for the chunk before: never more than 2 tasks of the sweep at once.
  CHECK_THAT(log, Contains("--array=1,2%2 --dependency=afterany:100 ") &&
                      Contains("--array=1%2 --dependency=afterany:101 "));
  // The printed command chains them the same way.
  const auto printed =
      RunCommand(SlurmCommand(path, dir, "--shards 5 --array-limit 3 --throttle 2"));
  CHECK_THAT(printed.out, Contains("jid2=$(sbatch --parsable --array=1,2%2 "
                                   "--dependency=afterany:$jid1 "));
  // The merge job's retry of shards 1 and 4 (one in each chunk) keeps the throttle and the chain.
  std::filesystem::remove(dir + "/sbatch.log");
  std::ofstream(dir + "/r.slurm/logs/shard-1.state") << "exit 137\n";
  std::ofstream(dir + "/r.slurm/logs/shard-4.state") << "exit 137\n";
  const auto retry = RunCommand(
      path + SweepCommand("missing " + dir + "/c.ini --shards 5 --out " + dir + "/r.h5 --retry 0"));
  INFO(retry.out << retry.err);
  CHECK(retry.status == 75);
  log = test::ReadWholeFile(dir + "/sbatch.log");
  CHECK_THAT(
      log, Contains("--array=1%2 --mem=") &&
               Contains("--array=2%2 --dependency=afterany:100 --export=ALL,PMOE_SHARD_OFFSET=2"));
  // missing's printed resubmission keeps it too.
  const auto advice = RunCommand(
      path + SweepCommand("missing " + dir + "/c.ini --shards 5 --out " + dir + "/r.h5"));
  CHECK_THAT(advice.out, Contains("--array=1,2%2 ") && Contains("--dependency=afterany:$jid1 "));
}

TEST_CASE("Setup lines run before set -u, and exit 4 is refused with advice and not retried",
          "[security][slurm][issue44]") {
  const std::string dir = test::FreshDirectory("faults_setup");
  const std::string path = test::SlurmStandIns(dir);
  test::WriteTinySlurmSweep(dir + "/c.ini");
  // A site activate script reading an unset variable.
  REQUIRE(RunCommand(
              SlurmCommand(path, dir, "--shards 2 --setup 'echo \"site ${PMOE_UNSET_SITE_VAR}\"'"))
              .status == 0);
  const std::string script = test::ReadWholeFile(dir + "/r.slurm/array.sbatch");
  CHECK(script.find("PMOE_UNSET_SITE_VAR") < script.find("\nset -u\n"));
  const std::string task = path + "SLURM_ARRAY_TASK_ID=1 SLURM_ARRAY_JOB_ID=9 SLURM_JOB_ID=9 ";
  const auto ran = RunCommand(task + "bash " + dir + "/r.slurm/array.sbatch");
  INFO(ran.out << ran.err);
  CHECK(ran.status == 0);
  CHECK(test::ReadWholeFile(dir + "/r.slurm/logs/shard-1.state") == "exit 0\n");
  // The same task on a node without the build's instruction set: pmoe-sweep exits 4.
  std::string fake = script;
  const size_t run = fake.find(" run ");
  const size_t line = fake.rfind('\n', run) + 1;
  fake.replace(line, fake.find(" &\n", run) - line, "(exit 4)");
  std::ofstream(dir + "/fake.sbatch") << fake;
  const auto wrong =
      RunCommand(path + "SLURM_ARRAY_TASK_ID=2 SLURM_ARRAY_JOB_ID=9 bash " + dir + "/fake.sbatch");
  CHECK(wrong.status == 4);
  CHECK_THAT(wrong.out, Contains("--constraint") && Contains("PMOE_MARCH"));
  CHECK(test::ReadWholeFile(dir + "/r.slurm/logs/shard-2.state") == "wrong-cpu\n");
  const auto retry = RunCommand(
      path + SweepCommand("missing " + dir + "/c.ini --shards 2 --out " + dir + "/r.h5 --retry 0"));
  INFO(retry.out);
  CHECK(retry.status == 1);
  CHECK_THAT(retry.out, Contains("shard 2: not retried") && Contains("--constraint"));
  CHECK_FALSE(std::filesystem::exists(dir + "/sbatch.log"));
}

TEST_CASE("The merge job ends COMPLETED when it resubmitted shards, and records its state",
          "[security][slurm][issue44]") {
  const std::string dir = test::FreshDirectory("faults_merge");
  const std::string path = test::SlurmStandIns(dir);
  test::WriteTinySlurmSweep(dir + "/c.ini");
  REQUIRE(RunCommand(SlurmCommand(path, dir, "--shards 2 --mem 1000 --time 10")).status == 0);
  std::ofstream(dir + "/r.slurm/logs/shard-2.state") << "exit 137\n";
  REQUIRE(
      RunCommand(SweepCommand("run " + dir + "/c.ini --shard 1/2 --out " + dir + "/r.h5")).status ==
      0);
  const auto merge = RunCommand(path + "SLURM_JOB_ID=12 bash " + dir + "/r.slurm/merge.sbatch");
  INFO(merge.out << merge.err);
  CHECK(merge.status == 0);  // a retry was submitted: not FAILED in the accounting
  CHECK(test::ReadWholeFile(dir + "/r.slurm/logs/merge.state") == "retry-submitted\n");
  CHECK_THAT(test::ReadWholeFile(dir + "/sbatch.log"), Contains("PMOE_RETRY=1"));
  // watch: shard 2 failed; exit 1, and --json carries the merge job's record.
  const std::string watch =
      path + SweepCommand("watch " + dir + "/c.ini --shards 2 --out " + dir + "/r.h5");
  std::ofstream(dir + "/squeue.txt") << "";
  const auto text = RunCommand(watch);
  CHECK(text.status == 1);
  CHECK_THAT(text.out, Contains("1 failed") && Contains("merge job: not queued; last recorded: "
                                                        "retry-submitted"));
  const auto json = RunCommand(watch + " --json");
  CHECK(json.status == 1);
  std::ofstream(dir + "/watch.json") << json.out;
  const auto parsed = RunCommand(
      "/usr/bin/python3 -c 'import json,sys; d=json.load(open(sys.argv[1]));"
      " print(d[\"failed\"], d[\"merge\"][\"recorded\"])' " +
      dir + "/watch.json");
  CHECK(parsed.out == "1 retry-submitted\n");
}

TEST_CASE("The time floor holds through --sbatch lines, and MaxArraySize defaults to Slurm's 1001",
          "[security][slurm][issue44]") {
  const std::string dir = test::FreshDirectory("faults_time");
  const std::string path = test::SlurmStandIns(dir);
  test::WriteTinySlurmSweep(dir + "/c.ini");
  for (const char* line : {"--time=00:02:00", "-t 3", "--time 4:00", "-t0-0:4"}) {
    const auto refused =
        RunCommand(SlurmCommand(path, dir, "--shards 2 --sbatch " + ShellQuote(line)));
    INFO(line << ": " << refused.err);
    CHECK(refused.status == 2);
    CHECK_THAT(refused.err, Contains("at least 5 minutes"));
  }
  std::ofstream(dir + "/site.sbatch") << "#SBATCH --account=a\n#SBATCH --time=00:01:00\n";
  CHECK(RunCommand(SlurmCommand(path, dir, "--shards 2 --sbatch-file " + dir + "/site.sbatch"))
            .status == 2);
  CHECK(RunCommand(SlurmCommand(path, dir, "--shards 2 --sbatch --time=1-00:00:00")).status == 0);
  // No controller answers scontrol: 1500 shards are chunked by Slurm's default limit.
  const auto chunked = RunCommand(SlurmCommand(path, dir, "--shards 1500 --print"));
  INFO(chunked.err);
  REQUIRE(chunked.status == 0);
  CHECK_THAT(chunked.out, Contains("#SBATCH --array=1-1000\n") && Contains("default MaxArraySize"));
}

TEST_CASE("A FIFO or a directory as --sbatch-file is refused by name at once",
          "[security][slurm][issue44]") {
  const std::string dir = test::FreshDirectory("faults_fifo");
  const std::string path = test::SlurmStandIns(dir);
  test::WriteTinySlurmSweep(dir + "/c.ini");
  REQUIRE(::mkfifo((dir + "/fifo").c_str(), 0600) == 0);
  // `timeout`: before the fix the tool blocked on the FIFO forever.
  const auto fifo = RunCommand(
      SlurmCommand(path + "timeout 20 ", dir, "--shards 2 --sbatch-file " + dir + "/fifo"));
  CHECK(fifo.status == 2);
  CHECK_THAT(fifo.err, Contains("--sbatch-file") && Contains("FIFO"));
  const auto folder =
      RunCommand(SlurmCommand(path, dir, "--shards 2 --sbatch-file " + dir + "/bin"));
  CHECK(folder.status == 2);
  CHECK_THAT(folder.err, Contains("a directory, not a regular file"));
}

TEST_CASE("slurm refuses the files of a sweep another build began", "[security][slurm][issue44]") {
  const std::string dir = test::FreshDirectory("faults_build");
  const std::string path = test::SlurmStandIns(dir);
  test::WriteTinySlurmSweep(dir + "/c.ini");
  const std::string out = dir + "/r.h5";
  REQUIRE(RunCommand(SweepCommand("run " + dir + "/c.ini --shard 2/2 --out " + out)).status == 0);
  const std::string shard = dir + "/r.shards/shard-2-of-2.h5";
  ResultContents contents = ReadResultFile(shard);
  contents.meta.numerics_build = "compiler=other; target=other";
  const SweepConfig config = LoadSweepConfig(dir + "/c.ini");
  WriteResultFile(shard, contents.meta, ExpandGrid(config), *contents.schema, contents.rows);
  const auto plan = RunCommand(SweepCommand("plan " + dir + "/c.ini --shard 2/2 --out " + out));
  CHECK(plan.status == 2);
  const auto submit = RunCommand(SlurmCommand(path, dir, "--shards 2 --submit"));
  INFO(submit.out << submit.err);
  CHECK(submit.status == 2);
  CHECK_THAT(submit.err, Contains("another build"));
  CHECK_FALSE(std::filesystem::exists(dir + "/sbatch.log"));
  CHECK_FALSE(std::filesystem::exists(dir + "/r.slurm/array.sbatch"));
}

TEST_CASE("missing reads a complete merged file: removed shard files are not absent",
          "[security][slurm][issue44]") {
  const std::string dir = test::FreshDirectory("faults_merged");
  test::WriteTinySlurmSweep(dir + "/c.ini");
  const std::string out = dir + "/r.h5";
  for (const char* shard : {"1/2", "2/2"})
    REQUIRE(RunCommand(SweepCommand("run " + dir + "/c.ini --shard " + shard + " --out " + out))
                .status == 0);
  REQUIRE(RunCommand(SweepCommand("merge " + out + " " + dir + "/r.shards/shard-1-of-2.h5 " + dir +
                                  "/r.shards/shard-2-of-2.h5"))
              .status == 0);
  std::filesystem::remove_all(dir + "/r.shards");
  const auto missing =
      RunCommand(SweepCommand("missing " + dir + "/c.ini --shards 2 --out " + out));
  INFO(missing.out << missing.err);
  CHECK(missing.status == 0);
  CHECK_THAT(missing.out, Contains("complete in the merged file") && !Contains("absent") &&
                              Contains("nothing to run or merge"));
}

TEST_CASE("Deep nesting in a rule or --over, and a zip over the axis limit, are refused (exit 2)",
          "[security][config][issue44]") {
  const std::string dir = test::FreshDirectory("faults_deep");
  const std::string deep = std::string(100000, '(') + "${N}" + std::string(100000, ')');
  std::ofstream(dir + "/deep.ini") << "name = deep\nseed = 1\ntrials = 1\n[model]\nm = 8\n[grid]\n"
                                      "N = 20,40\nN_test = "
                                   << deep << "\n";
  const auto plan = RunCommand(SweepCommand("plan " + dir + "/deep.ini"));
  CHECK(plan.status == 2);
  CHECK_THAT(plan.err, Contains("nested deeper than 200 levels"));
  std::ofstream zip(dir + "/zip.ini");
  zip << "name = zip\nseed = 1\ntrials = 1\n[grid]\nN, N_test = ";
  for (int i = 0; i < 100001; ++i) zip << (i ? ", " : "") << "(" << 20 + i << ", 100)";
  zip << "\n";
  zip.close();
  const auto zipped = RunCommand(SweepCommand("plan " + dir + "/zip.ini"));
  CHECK(zipped.status == 2);
  CHECK_THAT(zipped.err, Contains("at most 100000 values on one axis"));
  // --over in pmoe-analyze, on a small result file.
  test::WriteTinySlurmSweep(dir + "/c.ini");
  REQUIRE(RunCommand(SweepCommand("run " + dir + "/c.ini --out " + dir + "/r.h5")).status == 0);
  // 60 000 levels: as deep as one argument may be (128 KiB), and enough to overflow the stack.
  std::ofstream(dir + "/over.txt") << std::string(60000, '(') << "N" << std::string(60000, ')');
  const auto over = RunCommand(std::string(PMOE_ANALYZE_PATH) + " exponent " + dir +
                               "/r.h5 --over \"$(cat " + dir + "/over.txt)\"");
  CHECK(over.status == 2);
  CHECK_THAT(over.err, Contains("nested deeper than 200 levels"));
}

TEST_CASE("The printed report-page command is quoted", "[security][shell][issue44]") {
  const std::string root = test::FreshDirectory("faults_report_hint");
  const std::string dir = root + "/$(touch PWNED) it's";
  std::filesystem::create_directories(dir);
  test::WriteTinySlurmSweep(dir + "/c.ini");
  const auto ran = RunCommand(
      "cd " + ShellQuote(root) + " && " +
      SweepCommand("run " + ShellQuote(dir + "/c.ini") + " --out " + ShellQuote(dir + "/r.h5")));
  INFO(ran.out << ran.err);
  REQUIRE(ran.status == 0);
  const size_t at = ran.out.find("report page: ");
  REQUIRE(at != std::string::npos);
  const std::string command = ran.out.substr(at + 13, ran.out.find('\n', at) - at - 13);
  // Pasted with `printf '%s\n'` in front: one word per line, the path intact, nothing run.
  const auto words = RunCommand("cd " + ShellQuote(root) + " && printf '%s\\n' " + command);
  CHECK(words.out == "build/analysis/pmoe-analyze\nreport\n" + dir + "/r.h5\n");
  CHECK_FALSE(std::filesystem::exists(root + "/PWNED"));
}

}  // namespace pmoe
