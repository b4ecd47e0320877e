// pmoe-sweep run as users run it: results independent of thread count and shard split, a sweep
// killed with SIGKILL again and again and resumed ends identical to an uninterrupted one, Ctrl-C
// stops cleanly, and a different config is refused.
#include <signal.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <random>
#include <thread>

#include "pmoe/core/errors.hpp"
#include "support/run_command.hpp"
#include "sweep/sweep_test_support.hpp"

namespace pmoe {
namespace {

using Catch::Matchers::Contains;
using test::CompareResults;
using test::RunCommand;
using test::SweepCommand;

}  // namespace

TEST_CASE("A sweep on 1 thread and on 2 threads writes identical trials", "[sweep][run]") {
  const std::string dir = test::FreshDirectory("sweep_threads");
  const std::string config = test::WriteQuickSweep(dir, "threads", 3);
  const auto one =
      RunCommand(SweepCommand("run " + config + " --threads 1 --out " + dir + "/1.h5"));
  const auto two =
      RunCommand(SweepCommand("run " + config + " --threads 2 --out " + dir + "/2.h5"));
  // Without the test-set cache every trial draws its own test set: the same bits.
  const auto uncached = RunCommand(
      SweepCommand("run " + config + " --test-cache-mb 0 --out " + dir + "/uncached.h5"));
  INFO(one.err << two.err << uncached.err);
  REQUIRE(one.status == 0);
  REQUIRE(two.status == 0);
  REQUIRE(uncached.status == 0);
  CHECK_THAT(one.out, Contains("reused by"));
  CHECK_THAT(uncached.out, !Contains("reused by"));
  CHECK(CompareResults(dir + "/1.h5", dir + "/2.h5").empty());
  CHECK(CompareResults(dir + "/1.h5", dir + "/uncached.h5").empty());
  // Separate at 3 values of l and the CNN once, at 2 N, 3 trials each.
  CHECK(ReadResultFile(dir + "/1.h5").rows.size() == (3 + 1) * 2 * 3);
  CHECK_FALSE(std::filesystem::exists(dir + "/1.h5.journal"));  // removed once complete
}

TEST_CASE("Three shards merged equal one run", "[sweep][shards]") {
  const std::string dir = test::FreshDirectory("sweep_shards");
  const std::string config = test::WriteQuickSweep(dir, "shards", 3);
  REQUIRE(RunCommand(SweepCommand("run " + config + " --out " + dir + "/all.h5")).status == 0);
  std::string parts;
  for (int i = 1; i <= 3; ++i) {
    // Every shard of one --out gets its own file beside it.
    REQUIRE(RunCommand(SweepCommand("run " + config + " --shard " + std::to_string(i) +
                                    "/3 --out " + dir + "/merged.h5"))
                .status == 0);
    const std::string out = dir + "/merged.shards/shard-" + std::to_string(i) + "-of-3.h5";
    const size_t rows = ReadResultFile(out).rows.size();
    CHECK(rows >= 4);  // cost-balanced: 24 trials over 3 shards
    CHECK(rows <= 14);
    parts += " " + out;
  }
  CHECK_FALSE(std::filesystem::exists(dir + "/merged.h5"));
  const auto merged = RunCommand(SweepCommand("merge " + dir + "/merged.h5" + parts));
  INFO(merged.err);
  REQUIRE(merged.status == 0);
  CHECK(CompareResults(dir + "/all.h5", dir + "/merged.h5").empty());

  const std::string part1 = dir + "/merged.shards/shard-1-of-3.h5";
  const auto missing = RunCommand(SweepCommand("merge " + dir + "/m2.h5 " + part1 + " " + dir +
                                               "/merged.shards/shard-3-of-3.h5"));
  CHECK(missing.status == 2);
  CHECK_THAT(missing.err, Contains("in none of the files") && Contains("(shard 2/3)") &&
                              Contains("pmoe-sweep missing " + config + " --shards 3 --out " + dir +
                                       "/merged.h5`"));
  CHECK_FALSE(std::filesystem::exists(dir + "/m2.h5"));
  const auto twice = RunCommand(SweepCommand("merge " + dir + "/m3.h5 " + part1 + " " + part1));
  CHECK(twice.status == 2);
  CHECK_THAT(twice.err, Contains("is in both"));
}

TEST_CASE("A Slurm array task takes its shard number, never the shard count, from Slurm",
          "[sweep][shards]") {
  const std::string dir = test::FreshDirectory("sweep_slurm");
  const std::string config = test::WriteQuickSweep(dir, "slurm", 1);
  // A resubmitted single task (--array=3: a task count of 1) runs shard 3 of the K given.
  const std::string env = "SLURM_ARRAY_TASK_ID=3 SLURM_ARRAY_TASK_COUNT=1 SLURM_ARRAY_TASK_MIN=3 ";
  const auto r =
      RunCommand(env + SweepCommand("run " + config + " --shard auto/4 --out " + dir + "/s.h5"));
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(ReadResultFile(dir + "/s.shards/shard-3-of-4.h5").meta.shard == "3/4");
  // A task id outside 1..K, or auto outside an array, is refused naming the variable.
  const auto outside =
      RunCommand("SLURM_ARRAY_TASK_ID=5 " +
                 SweepCommand("run " + config + " --shard auto/4 --out " + dir + "/s.h5"));
  CHECK(outside.status == 2);
  CHECK_THAT(outside.err, Contains("SLURM_ARRAY_TASK_ID = \"5\"") && Contains("1..4"));
  const auto no_array =
      RunCommand("unset SLURM_ARRAY_TASK_ID; " + SweepCommand("run " + config + " --shard auto/4"));
  CHECK(no_array.status == 2);
  CHECK_THAT(no_array.err, Contains("SLURM_ARRAY_TASK_ID, which is not set"));
  // Without --shard an array task runs the whole sweep into the unsharded file, and says so.
  const auto whole = RunCommand(env + SweepCommand("run " + config + " --out " + dir + "/w.h5"));
  REQUIRE(whole.status == 0);
  CHECK_THAT(whole.err, Contains("without --shard: running the whole sweep"));
  CHECK(ReadResultFile(dir + "/w.h5").meta.shard.empty());
  CHECK(ReadResultFile(dir + "/w.h5").rows.size() == 8);
}

TEST_CASE("A sweep killed with SIGKILL many times and resumed equals an uninterrupted one",
          "[sweep][kill]") {
  const std::string dir = test::FreshDirectory("sweep_kill");
  const std::string config = test::WriteQuickSweep(dir, "kill", 40);  // 480 trials
  REQUIRE(RunCommand(SweepCommand("run " + config + " --out " + dir + "/clean.h5")).status == 0);

  const std::string out = dir + "/killed.h5";
  // Checkpoints every 50 ms, so kills land during HDF5 rebuilds as well as during trials.
  const std::string run =
      SweepCommand("run " + config + " --out " + out + " --checkpoint-seconds 0.05");
  const unsigned seed = std::random_device{}();
  INFO("kill schedule seed " << seed);
  std::mt19937 rng(seed);
  int kills = 0, runs = 0;
  size_t last_rows = 0;
  for (; runs < 60; ++runs) {
    const int pid = test::SpawnCommand(run, dir + "/log");
    std::this_thread::sleep_for(std::chrono::milliseconds(10 + rng() % 90));
    const bool killed = kill(pid, SIGKILL) == 0;
    const int status = test::WaitFor(pid);
    if (status == 0) break;  // it finished before the kill arrived
    REQUIRE(killed);
    REQUIRE(status == 128 + SIGKILL);
    ++kills;
    if (std::filesystem::exists(out)) {
      // Never a file that cannot be opened, and never fewer rows than before.
      const size_t rows = ReadResultFile(out).rows.size();
      CHECK(rows >= last_rows);
      last_rows = rows;
    }
  }
  INFO(kills << " kills in " << runs << " runs");
  CHECK(kills >= 10);
  REQUIRE(RunCommand(run).status == 0);
  CHECK(CompareResults(dir + "/clean.h5", out).empty());
  CHECK_FALSE(std::filesystem::exists(out + ".journal"));
}

TEST_CASE("Ctrl-C stops a sweep cleanly and a second run finishes it", "[sweep][run]") {
  const std::string dir = test::FreshDirectory("sweep_interrupt");
  const std::string config = test::WriteQuickSweep(dir, "interrupt", 15);
  const std::string out = dir + "/i.h5";
  const int pid = test::SpawnCommand(SweepCommand("run " + config + " --out " + out), dir + "/log");
  // Ctrl-C once some trials are journaled (the journal outgrows its identity record), however
  // slow the machine is today.
  const std::string journal = out + ".journal";
  for (int waited = 0; waited < 2000; ++waited) {
    if (std::filesystem::exists(journal) && std::filesystem::file_size(journal) > 2000) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  kill(pid, SIGINT);
  const int status = test::WaitFor(pid);
  if (status == 0)
    WARN("the sweep finished before Ctrl-C reached it");
  else
    CHECK(status == 130);
  const size_t saved = ReadResultFile(out).rows.size();
  CHECK(saved > 0);
  REQUIRE(RunCommand(SweepCommand("run " + config + " --out " + out)).status == 0);
  CHECK(ReadResultFile(out).rows.size() == (3 + 1) * 2 * 15);  // separate at 3 l, CNN once
  REQUIRE(RunCommand(SweepCommand("run " + config + " --out " + dir + "/clean.h5")).status == 0);
  CHECK(CompareResults(dir + "/clean.h5", out).empty());
}

TEST_CASE("A different config onto an existing file is refused saying what differs",
          "[sweep][run]") {
  const std::string dir = test::FreshDirectory("sweep_mismatch");
  const std::string config = test::WriteQuickSweep(dir, "first", 2);
  const std::string out = dir + "/r.h5";
  REQUIRE(RunCommand(SweepCommand("run " + config + " --out " + out)).status == 0);
  const auto before = std::filesystem::last_write_time(out);
  std::ofstream(dir + "/second.ini") << "name = second\nseed = 7\ntrials = 2\nN_test = 300\n"
                                        "[data]\ndelta_r = 0.55\n[model]\nepochs = 20\nm = 20\n"
                                        "[grid]\nmodel.kind = separate,cnn\nmodel.l = 2:4\n"
                                        "N = 60,120\n";
  const auto refused = RunCommand(SweepCommand("run " + dir + "/second.ini --out " + out));
  CHECK(refused.status == 2);
  CHECK_THAT(refused.err, Contains("holds another sweep") &&
                              Contains("data.delta_r = {0.6} in the file, {0.55} in the config"));
  CHECK(std::filesystem::last_write_time(out) == before);
  const auto forced =
      RunCommand(SweepCommand("run " + dir + "/second.ini --out " + out + " --force"));
  CHECK(forced.status == 0);
  CHECK(ReadResultFile(out).meta.name == "second");
}

TEST_CASE("Config errors exit 2 and leave no file behind", "[sweep][errors]") {
  const std::string dir = test::FreshDirectory("sweep_errors");
  struct Case {
    std::string body, expected;
  };
  const std::vector<Case> cases = {
      {"[model]\nwidth = 3\n", "unknown key \"model.width\""},
      {"[grid]\nN = 100:10\n", "grid.N = \"100:10\""},
      {"[grid]\nmodel.l = 10:17\n", "(cell model.l=17): model.l = \"17\""},
      {"[grid]\ndata.delta_r = 0.2,0.6\n", "infeasible data model"},
      {"trials = many\n", "trials = \"many\""},
      {"[data\nn = 3\n", "bad.ini"},
  };
  for (const Case& c : cases) {
    std::ofstream(dir + "/bad.ini") << c.body;
    const auto r = RunCommand("cd " + dir + " && " + SweepCommand("run bad.ini"));
    INFO(c.body << "\n" << r.err);
    CHECK(r.status == 2);
    CHECK_THAT(r.err, Contains(c.expected));
    CHECK_FALSE(std::filesystem::exists(dir + "/results"));
  }
  const auto unreadable = RunCommand(SweepCommand("run " + dir + "/none.ini"));
  CHECK(unreadable.status == 2);
  CHECK_THAT(unreadable.err, Contains("none.ini: cannot read"));
  std::ofstream(dir + "/ok.ini") << "trials = 1\n";
  const auto shard = RunCommand("cd " + dir + " && " + SweepCommand("run ok.ini --shard 4/3"));
  CHECK(shard.status == 2);
  CHECK_THAT(shard.err, Contains("--shard"));
  const auto cache =
      RunCommand("cd " + dir + " && " + SweepCommand("run ok.ini --test-cache-mb -1"));
  CHECK(cache.status == 2);
  CHECK_THAT(cache.err, Contains("--test-cache-mb"));
  CHECK_FALSE(std::filesystem::exists(dir + "/results"));
}

TEST_CASE("Result files read back in Python with h5py into pandas", "[sweep][python]") {
  const std::string dir = test::FreshDirectory("sweep_python");
  const std::string config = test::WriteQuickSweep(dir, "py", 2);
  REQUIRE(RunCommand(SweepCommand("run " + config + " --out " + dir + "/py.h5")).status == 0);
  const auto r = RunCommand(std::string("/usr/bin/python3 ") + PMOE_SOURCE_DIR +
                            "/analysis/examples/read_results.py " + dir + "/py.h5");
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK_THAT(r.out, Contains("8 cells, 16 trials"));  // the CNN reads no l: once per N
  CHECK_THAT(r.out, Contains("model.kind=cnn, N=120"));
}

}  // namespace pmoe

namespace pmoe {

TEST_CASE("A file computed by another numerics version is not resumed", "[sweep][run]") {
  const std::string dir = test::FreshDirectory("sweep_numerics");
  const std::string config = test::WriteQuickSweep(dir, "numerics", 1);
  const std::string out = dir + "/r.h5";
  REQUIRE(test::RunCommand(test::SweepCommand("run " + config + " --out " + out)).status == 0);
  // The same file as an older tool would have written it.
  ResultContents old = ReadResultFile(out);
  old.meta.numerics_version -= 1;
  std::vector<Cell> cells = ExpandGrid(LoadSweepConfig(config));
  WriteResultFile(out, old.meta, cells, *old.schema, old.rows);
  const auto refused = test::RunCommand(test::SweepCommand("run " + config + " --out " + out));
  CHECK(refused.status == 2);
  CHECK_THAT(refused.err, Catch::Matchers::Contains("numerics version"));
}

}  // namespace pmoe
