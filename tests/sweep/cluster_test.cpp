// The cluster side of pmoe-sweep without a cluster: status over several files and from a journal
// alone, `missing` and the command it prints, merge's refusal to overwrite another sweep, the
// numerics build in every identity, the CPU check, and the generated Slurm scripts (their
// requeue on USR1 run by bash with a stand-in scontrol). tests/slurm/ runs them on real Slurm.
#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <regex>
#include <thread>

#include "pmoe/core/build_info.hpp"
#include "pmoe/sweep/run/sweep_runner.hpp"
#include "pmoe/sweep/store/journal.hpp"
#include "support/run_command.hpp"
#include "sweep/sweep_test_support.hpp"

namespace pmoe {
namespace {

using Catch::Matchers::Contains;
using test::RunCommand;
using test::SweepCommand;

std::string ShardFile(const std::string& dir, int i, int k) {
  return dir + "/r.shards/shard-" + std::to_string(i) + "-of-" + std::to_string(k) + ".h5";
}

// Waits until a run's journal holds some rows (it outgrows its identity record).
void WaitForRows(const std::string& journal) {
  for (int waited = 0; waited < 4000; ++waited) {
    if (std::filesystem::exists(journal) && std::filesystem::file_size(journal) > 2000) return;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  FAIL("no rows reached " << journal);
}

// The file as another build would have written it.
void RewriteWithBuild(const std::string& path, const std::string& config,
                      const std::string& build) {
  ResultContents contents = ReadResultFile(path);
  contents.meta.numerics_build = build;
  WriteResultFile(path, contents.meta, ExpandGrid(LoadSweepConfig(config)), *contents.schema,
                  contents.rows);
}

std::string OtherKernels() {
  std::string build = NumericsBuild();
  const size_t at = build.find("kernels=");
  const bool avx = build.compare(at + 8, 6, "avx512") == 0;
  return build.replace(at + 8, avx ? 6 : 5, avx ? "eigen" : "avx512");
}

}  // namespace

TEST_CASE(
    "status reads several files, exits 1 while any is incomplete, and reads a journal "
    "alone",
    "[sweep][cluster]") {
  const std::string dir = test::FreshDirectory("cluster_status");
  const std::string config = test::WriteQuickSweep(dir, "status", 15);  // 120 trials
  const std::string out = dir + "/r.h5";
  for (int i : {1, 2})
    REQUIRE(RunCommand(
                SweepCommand("run " + config + " --shard " + std::to_string(i) + "/3 --out " + out))
                .status == 0);
  const auto two =
      RunCommand(SweepCommand("status " + ShardFile(dir, 1, 3) + " " + ShardFile(dir, 2, 3)));
  CHECK(two.status == 0);
  CHECK_THAT(two.out, Contains("2 of 2 files complete") && Contains("kernels="));
  // Shard 3 killed before its first checkpoint: only its journal exists.
  const std::string third = ShardFile(dir, 3, 3);
  const int pid = test::SpawnCommand(
      SweepCommand("run " + config + " --shard 3/3 --threads 1 --checkpoint-seconds 1000 --out " +
                   out),
      dir + "/log");
  WaitForRows(third + ".journal");
  kill(pid, SIGKILL);
  test::WaitFor(pid);
  REQUIRE_FALSE(std::filesystem::exists(third));
  const auto three = RunCommand(SweepCommand("status " + ShardFile(dir, 1, 3) + " " + third));
  INFO(three.err);
  CHECK(three.status == 1);
  CHECK_THAT(three.out, Contains("no file yet; its journal holds") && Contains("1 of 2 files"));
  // The journal alone gives the same count as the config does (plan: what a run would do).
  const std::smatch held = [&] {
    std::smatch m;
    std::regex_search(three.out, m, std::regex("incomplete: (\\d+) trials missing"));
    return m;
  }();
  REQUIRE(held.size() == 2);
  const auto plan = RunCommand(SweepCommand("plan " + config + " --shard 3/3 --out " + out));
  CHECK_THAT(plan.out, Contains(", " + held[1].str() + " to run"));
  const auto none = RunCommand(SweepCommand("status " + dir + "/nothing.h5"));
  CHECK(none.status == 2);
  CHECK_THAT(none.err, Contains("no such file, and no journal"));
}

TEST_CASE(
    "missing names absent, incomplete, running and foreign shards and prints the command "
    "that finishes them",
    "[sweep][cluster]") {
  const std::string dir = test::FreshDirectory("cluster_missing");
  const std::string config = test::WriteQuickSweep(dir, "missing", 3);
  const std::string out = dir + "/r.h5";
  const std::string missing = SweepCommand("missing " + config + " --shards 4 --out " + out);
  REQUIRE(RunCommand(SweepCommand("run " + config + " --shard 1/4 --out " + out)).status == 0);
  REQUIRE(RunCommand(SweepCommand("run " + config + " --shard 2/4 --out " + out)).status == 0);
  // Shard 4 holds half its trials (the rows of the other half removed).
  REQUIRE(RunCommand(SweepCommand("run " + config + " --shard 4/4 --out " + out)).status == 0);
  ResultContents four = ReadResultFile(ShardFile(dir, 4, 4));
  four.rows.resize(four.rows.size() / 2);
  WriteResultFile(ShardFile(dir, 4, 4), four.meta, ExpandGrid(LoadSweepConfig(config)),
                  *four.schema, four.rows);
  const auto first = RunCommand(missing);
  INFO(first.out << first.err);
  CHECK(first.status == 1);
  CHECK_THAT(first.out, Contains("shard 1/4 " + ShardFile(dir, 1, 4) + ": complete") &&
                            Contains("shard 3/4 " + ShardFile(dir, 3, 4) + ": absent") &&
                            Contains("shard 4/4 " + ShardFile(dir, 4, 4) + ": incomplete: "));
  // No scripts written: the run commands, exactly; running them finishes the sweep.
  const std::string tool = PMOE_SWEEP_PATH;
  const std::string run3 = tool + " run " + config + " --shard 3/4 --out " + out;
  const std::string run4 = tool + " run " + config + " --shard 4/4 --out " + out;
  CHECK_THAT(first.out, Contains("  " + run3 + "\n  " + run4 + "\n"));
  // With the generated array script: one sbatch for just those shards, the merge after it.
  REQUIRE(
      RunCommand(SweepCommand("slurm " + config + " --shards 4 --pilot 0 --out " + out)).status ==
      0);
  const auto scripted = RunCommand(missing);
  CHECK_THAT(scripted.out, Contains("jid=$(sbatch --parsable --array=3,4 " + dir +
                                    "/r.slurm/array.sbatch) && sbatch "
                                    "--dependency=afterany:$jid " +
                                    dir + "/r.slurm/merge.sbatch"));
  // A shard being written now is running, not to resubmit.
  REQUIRE(RunCommand(run4).status == 0);
  {
    const std::string journal = ShardFile(dir, 3, 4) + ".journal";
    const int fd = ::open(journal.c_str(), O_RDWR | O_CREAT, 0644);
    REQUIRE(::flock(fd, LOCK_EX) == 0);
    const auto running = RunCommand(missing);
    ::close(fd);
    CHECK(running.status == 1);
    CHECK_THAT(running.out, Contains("shard 3/4") && Contains("running now") &&
                                Contains("wait for them") && !Contains("sbatch --parsable"));
    std::filesystem::remove(journal);
  }
  REQUIRE(RunCommand(run3).status == 0);
  const auto done = RunCommand(missing);
  CHECK(done.status == 0);
  CHECK_THAT(done.out, Contains("all 4 shards of missing are complete; merge them:"));
  // A shard file of another sweep is named, with what differs, and never resubmitted over.
  std::ofstream(dir + "/other.ini") << "name = other\nseed = 8\ntrials = 3\nN_test = 300\n"
                                       "[model]\nepochs = 20\nm = 20\n[grid]\n"
                                       "model.kind = separate,cnn\nmodel.l = 2:4\nN = 60,120\n";
  std::filesystem::remove(ShardFile(dir, 2, 4));
  REQUIRE(RunCommand(SweepCommand("run " + dir + "/other.ini --shard 2/4 --out " + out)).status ==
          0);
  const auto foreign = RunCommand(missing);
  CHECK(foreign.status == 1);
  CHECK_THAT(foreign.out, Contains("shard 2/4") && Contains("holds another sweep: seed 8") &&
                              Contains("move them away"));
}

TEST_CASE("merge does not overwrite another sweep's file without --force", "[sweep][cluster]") {
  const std::string dir = test::FreshDirectory("cluster_merge");
  const std::string config = test::WriteQuickSweep(dir, "merge", 2);
  const std::string out = dir + "/r.h5";
  std::string parts;
  for (int i : {1, 2}) {
    REQUIRE(RunCommand(
                SweepCommand("run " + config + " --shard " + std::to_string(i) + "/2 --out " + out))
                .status == 0);
    parts += " " + ShardFile(dir, i, 2);
  }
  std::ofstream(dir + "/other.ini") << "name = other\ntrials = 1\n[model]\nepochs = 5\n";
  const std::string other = dir + "/other.h5";
  REQUIRE(RunCommand(SweepCommand("run " + dir + "/other.ini --out " + other)).status == 0);
  const auto refused = RunCommand(SweepCommand("merge " + other + parts));
  CHECK(refused.status == 2);
  CHECK_THAT(refused.err,
             Contains(other + " exists and is not this sweep's file") && Contains("--force"));
  CHECK(ReadResultFile(other).meta.name == "other");
  std::ofstream(dir + "/notes.txt") << "not a result file\n";
  CHECK(RunCommand(SweepCommand("merge " + dir + "/notes.txt" + parts)).status == 2);
  CHECK(RunCommand(SweepCommand("merge " + ShardFile(dir, 1, 2) + parts)).status == 2);
  // The same sweep's file is rewritten; another one only with --force.
  REQUIRE(RunCommand(SweepCommand("merge " + out + parts)).status == 0);
  REQUIRE(RunCommand(SweepCommand("merge " + out + parts)).status == 0);
  const auto forced = RunCommand(SweepCommand("merge " + other + parts + " --force"));
  CHECK(forced.status == 0);
  CHECK(ReadResultFile(other).meta.name == "merge");
}

TEST_CASE("Files, shards and journals of another build are neither resumed nor merged",
          "[sweep][cluster][build]") {
  const std::string dir = test::FreshDirectory("cluster_build");
  const std::string config = test::WriteQuickSweep(dir, "build", 1);
  const std::string out = dir + "/r.h5";
  const std::string build = NumericsBuild();
  CHECK_THAT(build, Contains("compiler=") && Contains("target=") && Contains("isa=") &&
                        Contains("kernels=") && Contains("libm="));
  REQUIRE(RunCommand(SweepCommand("run " + config + " --out " + out)).status == 0);
  CHECK(ReadResultFile(out).meta.numerics_build == build);
  RewriteWithBuild(out, config, OtherKernels());
  const auto resume = RunCommand(SweepCommand("run " + config + " --out " + out));
  CHECK(resume.status == 2);
  CHECK_THAT(resume.err,
             Contains("computed by another build (kernels = ") && Contains(" in the file, "));
  // A shard of another build is not merged with this build's.
  for (int i : {1, 2})
    REQUIRE(RunCommand(
                SweepCommand("run " + config + " --shard " + std::to_string(i) + "/2 --out " + out))
                .status == 0);
  RewriteWithBuild(ShardFile(dir, 2, 2), config, OtherKernels());
  const auto merged = RunCommand(
      SweepCommand("merge " + dir + "/m.h5 " + ShardFile(dir, 1, 2) + " " + ShardFile(dir, 2, 2)));
  CHECK(merged.status == 2);
  CHECK_THAT(merged.err, Contains("not parts of one sweep: computed by another build (kernels"));
  // A journal left by another build is refused too, saying so.
  std::filesystem::remove(out);
  SweepSetup setup = PrepareSweep(config, out, {});
  setup.identity.build = OtherKernels();
  { Journal journal(setup.journal_path, setup.identity.Text(), setup.schema); }
  const auto journal = RunCommand(SweepCommand("run " + config + " --out " + out));
  CHECK(journal.status == 2);
  CHECK_THAT(journal.err, Contains("belongs to another sweep: computed by another build"));
  // Files written before builds were recorded say so.
  CHECK_THAT(DescribeBuildDifference("", build, "the file", "the config"),
             Contains("no numerics build recorded in the file"));
}

TEST_CASE(
    "A CPU without the build's instruction set gets a message, not an illegal "
    "instruction",
    "[sweep][cluster][build]") {
  const auto fields = SplitNumericsBuild(NumericsBuild());
  std::string isa;
  for (const auto& [name, value] : fields)
    if (name == "isa") isa = value;
  if (isa == "baseline") return;  // a build for the baseline runs on every x86-64 CPU
  const std::string last = isa.substr(isa.rfind(' ') + 1);
  const auto r = RunCommand("PMOE_TEST_CPU_LACKS=" + last + " " + SweepCommand("--help"));
  CHECK(r.status == 4);
  CHECK_THAT(r.err, Contains("pmoe-sweep: error: this build was compiled for") &&
                        Contains("uses " + last + ", which this CPU lacks") &&
                        Contains("PMOE_MARCH"));
}

TEST_CASE(
    "The generated Slurm scripts: explicit shards, the allocation's threads, a site's "
    "lines, and a task saved and requeued on USR1",
    "[sweep][cluster][slurm]") {
  const std::string dir = test::FreshDirectory("cluster_scripts");
  const std::string config = test::WriteQuickSweep(dir, "scripts", 15);  // 120 trials
  const std::string out = dir + "/r.h5";
  std::ofstream(dir + "/site.sbatch") << "#!/bin/bash\n#SBATCH --partition=short\n\n"
                                         "#SBATCH --account=lab\n";
  const auto printed = RunCommand(SweepCommand("slurm " + config +
                                               " --shards 3 --cpus 2 "
                                               "--pilot 4 --margin 3 --sbatch --qos=low "
                                               "--sbatch-file " +
                                               dir +
                                               "/site.sbatch --print "
                                               "--out " +
                                               out));
  INFO(printed.err);
  REQUIRE(printed.status == 0);
  CHECK_FALSE(std::filesystem::exists(dir + "/r.slurm"));  // --print writes nothing
  CHECK_THAT(
      printed.out,
      Contains("#SBATCH --array=1-3\n") && Contains("#SBATCH --cpus-per-task=2\n") &&
          Contains("--shard \"$shard/3\"") && Contains("--threads \"${SLURM_CPUS_PER_TASK:-1}\"") &&
          Contains("#SBATCH --signal=B:USR1@90\n") &&
          Contains("#SBATCH --qos=low\n#SBATCH --partition=short\n"
                   "#SBATCH --account=lab\n") &&
          Contains("x margin 3") && Contains("a pilot of 4 trials") &&
          Contains("--dependency=afterany") && Contains(" missing " + config + " --shards 3"));
  std::ofstream(dir + "/bad.sbatch") << "#SBATCH --partition=short\nmodule load gcc\n";
  const auto bad = RunCommand(
      SweepCommand("slurm " + config + " --shards 3 --sbatch-file " + dir + "/bad.sbatch"));
  CHECK(bad.status == 2);
  CHECK_THAT(bad.err, Contains("\"module load gcc\": expected #SBATCH lines only"));
  const auto fixed = RunCommand(SweepCommand("slurm " + config +
                                             " --shards 3 --cpus 1 --time 90 "
                                             "--mem 700 --out " +
                                             out));
  REQUIRE(fixed.status == 0);
  const std::string array = dir + "/r.slurm/array.sbatch";
  CHECK(RunCommand("bash -n " + array + " && bash -n " + dir + "/r.slurm/merge.sbatch").status ==
        0);
  CHECK(RunCommand("grep -q -- '--time=01:30:00' " + array + " && grep -q -- '--mem=700M' " + array)
            .status == 0);

  // The task as Slurm would run it, with an scontrol that records what it is asked.
  std::filesystem::create_directories(dir + "/bin");
  std::ofstream(dir + "/bin/scontrol") << "#!/bin/sh\necho \"$@\" >> " << dir << "/scontrol.log\n";
  std::filesystem::permissions(dir + "/bin/scontrol", std::filesystem::perms::owner_all);
  const std::string task = "env PATH=" + dir +
                           "/bin:$PATH SLURM_ARRAY_TASK_ID=2 "
                           "SLURM_ARRAY_JOB_ID=4240 SLURM_JOB_ID=4242 SLURM_CPUS_PER_TASK=1 bash " +
                           array;
  const int pid = test::SpawnCommand(task, dir + "/task.log");
  WaitForRows(ShardFile(dir, 2, 3) + ".journal");
  kill(pid, SIGUSR1);  // what --signal=B:USR1@90 sends before the time limit
  const int status = test::WaitFor(pid);
  std::ifstream log(dir + "/scontrol.log");
  std::string asked;
  std::getline(log, asked);
  if (status == 0 && asked.empty()) {
    WARN("the shard finished before USR1 reached it");
  } else {
    CHECK(status == 0);
    CHECK(asked == "requeue 4240_2");  // the task itself, never the array (issue 28)
    const auto partial = RunCommand(SweepCommand("status " + ShardFile(dir, 2, 3)));
    CHECK(partial.status == 1);  // saved, not finished
  }
  // The requeued task resumes and finishes its shard.
  CHECK(RunCommand(task).status == 0);
  CHECK(RunCommand(SweepCommand("status " + ShardFile(dir, 2, 3))).status == 0);
}

}  // namespace pmoe

namespace pmoe {

TEST_CASE("pmoe-analyze on an incomplete set of shards warns, naming the N that lack trials",
          "[sweep][cluster][analysis]") {
  const std::string dir = test::FreshDirectory("cluster_analyze");
  const std::string config = test::WriteQuickSweep(dir, "analyze", 3);
  const std::string out = dir + "/r.h5";
  std::string three;
  for (int i : {1, 2, 3}) {
    REQUIRE(RunCommand(
                SweepCommand("run " + config + " --shard " + std::to_string(i) + "/3 --out " + out))
                .status == 0);
    if (i < 3) three += " " + ShardFile(dir, i, 3);
  }
  const std::string analyze = std::string(PMOE_ANALYZE_PATH) + " summary";
  const auto partial = RunCommand(analyze + three);
  INFO(partial.err);
  CHECK(partial.status == 0);
  CHECK_THAT(partial.err, Contains("warning: these files lack ") &&
                              Contains("of their sweep's 24 trials") &&
                              Contains("trials missing at N=") &&
                              Contains("pmoe-sweep missing " + config + " --shards 3"));
  const auto whole = RunCommand(analyze + three + " " + ShardFile(dir, 3, 3));
  CHECK(whole.status == 0);
  CHECK(whole.err.empty());
}

}  // namespace pmoe

namespace pmoe {

TEST_CASE(
    "Shards run on the AVX-512 kernels and on their portable twins merge into one run's "
    "bits",
    "[sweep][cluster][portable]") {
  const std::string dir = test::FreshDirectory("cluster_portable");
  // The three models: CNN (20 neurons: the broadcast forward with an 8-lane tail), separate
  // (10 per expert) and joint (5 per expert: the dot-product forward), with top-l routing.
  std::ofstream(dir + "/mixed.ini") << "name = mixed\nseed = 5\ntrials = 2\nN_test = 300\n"
                                       "[model]\nepochs = 20\nm = 20\n[model.joint]\nk = 4\n"
                                       "l = 4\n[grid]\nmodel.kind = separate,cnn,joint\n"
                                       "N = 60,120\n";
  const std::string config = dir + "/mixed.ini", out = dir + "/r.h5";
  REQUIRE(RunCommand(SweepCommand("run " + config + " --out " + dir + "/one.h5")).status == 0);
  const std::string portable = "PMOE_KERNELS=portable ";
  REQUIRE(RunCommand(portable + SweepCommand("run " + config + " --out " + dir + "/p.h5")).status ==
          0);
  CHECK(test::CompareResults(dir + "/one.h5", dir + "/p.h5").empty());
  REQUIRE(
      RunCommand("PMOE_KERNELS=avx2 " + SweepCommand("run " + config + " --out " + dir + "/a.h5"))
          .status == 0);
  CHECK(test::CompareResults(dir + "/one.h5", dir + "/a.h5").empty());
  // A mixed cluster: shard 1 on an old node (neither AVX-512 nor AVX2), shard 2 on a new one.
  REQUIRE(
      RunCommand(portable + SweepCommand("run " + config + " --shard 1/2 --out " + out)).status ==
      0);
  REQUIRE(RunCommand(SweepCommand("run " + config + " --shard 2/2 --out " + out)).status == 0);
  const auto merged = RunCommand(
      SweepCommand("merge " + out + " " + ShardFile(dir, 1, 2) + " " + ShardFile(dir, 2, 2)));
  INFO(merged.err);
  REQUIRE(merged.status == 0);
  CHECK(test::CompareResults(dir + "/one.h5", out).empty());
}

}  // namespace pmoe
