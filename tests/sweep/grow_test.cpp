// Growing sweeps (issue 26): a config that asks for more trials per cell or more axis values
// resumes into the file, keeps the rows held bit for bit (their timings too: they were not
// run again), runs only the new (cell, trial) pairs, and ends equal row for row to the sweep
// run at its final size from scratch; plain runs, shards and merge, adaptive searches. Any
// other change is refused by name. Pooled files of other seeds are combined, never dropped.
#include <signal.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <thread>

#include "pmoe/analysis/results.hpp"
#include "pmoe/core/errors.hpp"
#include "pmoe/sweep/grid/sweep_config.hpp"
#include "pmoe/sweep/store/sweep_identity.hpp"
#include "support/run_command.hpp"
#include "sweep/sweep_test_support.hpp"

namespace pmoe {
namespace {

using Catch::Matchers::Contains;
using test::CompareResults;
using test::RunCommand;
using test::SweepCommand;

// The quick sweep with its trials, N values and l values given.
std::string WriteSweep(const std::string& dir, const std::string& name, int trials,
                       const std::string& N, const std::string& l, int seed = 7,
                       const std::string& delta_r = "0.6") {
  const std::string path = dir + "/" + name + ".ini";
  std::ofstream(path) << "name = grow\nseed = " << seed << "\ntrials = " << trials
                      << "\nN_test = 300\n[data]\ndelta_r = " << delta_r
                      << "\n[model]\nepochs = 20\nm = 20\n"
                         "[grid]\nmodel.kind = separate,cnn\nmodel.l = "
                      << l << "\nN = " << N << "\n";
  return path;
}

using Rows = std::map<std::pair<uint64_t, int>, TrialRow>;
Rows RowsOf(const std::string& path) {
  Rows rows;
  for (const TrialRow& r : ReadResultFile(path).rows) rows[{r.cell_id, r.result.trial}] = r;
  return rows;
}

// Every row of `before` is in `after` with every column equal, its timing included: kept, not
// recomputed (a recomputed trial would have taken another number of microseconds).
void CheckKept(const Rows& before, const Rows& after) {
  for (const auto& [key, row] : before) {
    const auto it = after.find(key);
    REQUIRE(it != after.end());
    CHECK(it->second.result.wall_ms == row.result.wall_ms);
  }
}

}  // namespace

TEST_CASE("A sweep grown in trials and in its axes equals the sweep run at its final size",
          "[sweep][grow]") {
  const std::string dir = test::FreshDirectory("grow");
  const std::string out = dir + "/g.h5";
  const std::string small = WriteSweep(dir, "small", 2, "60,120", "2:3");
  REQUIRE(RunCommand(SweepCommand("run " + small + " --out " + out)).status == 0);
  const Rows first = RowsOf(out);
  CHECK(first.size() == 3 * 2 * 2);  // separate at l = 2, 3 and the CNN, at 2 N

  // More trials per cell: plan says what is reused and what is new; run does just that.
  const std::string more_trials = WriteSweep(dir, "trials", 5, "60,120", "2:3");
  const auto plan = RunCommand(SweepCommand("plan " + more_trials + " --out " + out));
  INFO(plan.err);
  REQUIRE(plan.status == 0);
  CHECK_THAT(plan.out, Contains("grows the sweep") && Contains("trials per cell 2 -> 5") &&
                           Contains("12 trials already done would be skipped, 18 to run"));
  const auto grown = RunCommand(SweepCommand("run " + more_trials + " --out " + out));
  INFO(grown.err);
  REQUIRE(grown.status == 0);
  CHECK_THAT(grown.err, Contains("12 already done, 18 to run"));
  const Rows second = RowsOf(out);
  CHECK(second.size() == 3 * 2 * 5);
  CheckKept(first, second);

  // More values on two axes (l = 4 is new cells of separate only; N = 240 of every model).
  const std::string more_values = WriteSweep(dir, "values", 5, "60,120,240", "2:4");
  const auto wider = RunCommand(SweepCommand("plan " + more_values + " --out " + out));
  CHECK_THAT(wider.out,
             Contains("new cells") && Contains("N += {240}") && Contains("model.l += {4}"));
  REQUIRE(RunCommand(SweepCommand("run " + more_values + " --out " + out)).status == 0);
  CheckKept(second, RowsOf(out));
  CHECK_FALSE(std::filesystem::exists(out + ".journal"));

  // The same sweep at its final size from scratch: the same file, row for row.
  REQUIRE(RunCommand(SweepCommand("run " + more_values + " --out " + dir + "/scratch.h5")).status ==
          0);
  CHECK(CompareResults(dir + "/scratch.h5", out).empty());
  CHECK(ReadResultFile(out).meta.trials_per_cell == 5);

  // A sweep killed mid-way and then grown: the journal's rows are taken over too.
  const std::string killed = dir + "/k.h5";
  const int pid = test::SpawnCommand(
      SweepCommand("run " + WriteSweep(dir, "big", 12, "60,120", "2:3") + " --out " + killed),
      dir + "/log");
  for (int waited = 0; waited < 2000; ++waited) {
    if (std::filesystem::exists(killed + ".journal") &&
        std::filesystem::file_size(killed + ".journal") > 2000)
      break;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  kill(pid, SIGKILL);
  test::WaitFor(pid);
  const std::string bigger = WriteSweep(dir, "bigger", 12, "60,120,240", "2:4");
  const auto resumed = RunCommand(SweepCommand("run " + bigger + " --out " + killed));
  INFO(resumed.err);
  REQUIRE(resumed.status == 0);
  REQUIRE(RunCommand(SweepCommand("run " + bigger + " --out " + dir + "/bigger.h5")).status == 0);
  CHECK(CompareResults(dir + "/bigger.h5", killed).empty());
}

TEST_CASE("A change to a sweep other than growth is refused by name, the file untouched",
          "[sweep][grow]") {
  const std::string dir = test::FreshDirectory("grow_refused");
  const std::string out = dir + "/r.h5";
  REQUIRE(RunCommand(
              SweepCommand("run " + WriteSweep(dir, "base", 3, "60,120", "2:3") + " --out " + out))
              .status == 0);
  const auto before = std::filesystem::last_write_time(out);
  const std::vector<std::pair<std::string, std::string>> changes = {
      {WriteSweep(dir, "seed", 3, "60,120", "2:3", 8), "seed 7 in the file, 8 in the config"},
      {WriteSweep(dir, "fewer", 2, "60,120", "2:3"),
       "trials 3 in the file, 2 in the config (a sweep grows, never shrinks"},
      {WriteSweep(dir, "lost", 3, "60,240", "2:3"), "N = {120,60} in the file, {240,60}"},
      {WriteSweep(dir, "fixed", 3, "60,120", "2:3", 7, "0.55"),
       "data.delta_r = {0.6} in the file, {0.55} in the config"},
  };
  for (const auto& [config, reason] : changes) {
    for (const std::string command : {"run", "plan"}) {
      const auto refused = RunCommand(SweepCommand(command + " " + config + " --out " + out));
      INFO(command << " " << config << ": " << refused.err);
      CHECK(refused.status == 2);
      CHECK_THAT(refused.err, Contains("holds another sweep") && Contains(reason));
    }
  }
  CHECK(std::filesystem::last_write_time(out) == before);
  CHECK_FALSE(std::filesystem::exists(out + ".journal"));
}

TEST_CASE("A sharded sweep grows: its shards take their share of the merged file, merge agrees",
          "[sweep][grow][shards]") {
  const std::string dir = test::FreshDirectory("grow_shards");
  const std::string merged = dir + "/m.h5";
  auto run_shards = [&](const std::string& config) {
    std::string parts;
    for (int i = 1; i <= 3; ++i) {
      const auto r = RunCommand(
          SweepCommand("run " + config + " --shard " + std::to_string(i) + "/3 --out " + merged));
      INFO(r.err);
      REQUIRE(r.status == 0);
      parts += " " + dir + "/m.shards/shard-" + std::to_string(i) + "-of-3.h5";
    }
    const auto m = RunCommand(SweepCommand("merge " + merged + parts));
    INFO(m.err);
    REQUIRE(m.status == 0);
  };
  run_shards(WriteSweep(dir, "small", 2, "60,120", "2:3"));
  const Rows first = RowsOf(merged);
  // Shard files of the first run removed: the grown shards start from the merged file alone.
  std::filesystem::remove_all(dir + "/m.shards");
  const std::string grown = WriteSweep(dir, "grown", 4, "60,120,240", "2:4");
  run_shards(grown);
  CheckKept(first, RowsOf(merged));
  REQUIRE(RunCommand(SweepCommand("run " + grown + " --out " + dir + "/scratch.h5")).status == 0);
  CHECK(CompareResults(dir + "/scratch.h5", merged).empty());
  // And grown again with the grown shard files still there: a row two shards hold (its share
  // moved) is one row, kept once.
  const std::string again = WriteSweep(dir, "again", 6, "60,120,240", "2:4");
  run_shards(again);
  REQUIRE(RunCommand(SweepCommand("run " + again + " --out " + dir + "/again.h5")).status == 0);
  CHECK(CompareResults(dir + "/again.h5", merged).empty());
}

TEST_CASE("An adaptive sweep grows by series: the held series are replayed, the new ones run",
          "[sweep][grow][adaptive]") {
  const std::string dir = test::FreshDirectory("grow_adaptive");
  auto write = [&](const std::string& name, const std::string& l) {
    const std::string path = dir + "/" + name + ".ini";
    std::ofstream(path) << "name = adapt\nseed = 5\nN_test = 300\n"
                        << "[model]\nkind = separate\nm = 20\nepochs = 30\n"
                        << "[grid]\nmodel.l = " << l << "\n"
                        << "[adaptive]\nN_min = 12\nN_max = 384\nbudget = 24\nround = 4\n"
                           "target = 0.3\n";
    return path;
  };
  const std::string out = dir + "/a.h5";
  REQUIRE(RunCommand(SweepCommand("run " + write("one", "3") + " --out " + out)).status == 0);
  const Rows first = RowsOf(out);
  const std::string two = write("two", "3:4");
  const auto grown = RunCommand(SweepCommand("run " + two + " --out " + out));
  INFO(grown.err);
  REQUIRE(grown.status == 0);
  CHECK_THAT(grown.err, Contains("grows the sweep"));
  CheckKept(first, RowsOf(out));
  REQUIRE(RunCommand(SweepCommand("run " + two + " --out " + dir + "/scratch.h5")).status == 0);
  CHECK(CompareResults(dir + "/scratch.h5", out).empty());
  CHECK(ReadResultFile(out).meta.adaptive_series ==
        ReadResultFile(dir + "/scratch.h5").meta.adaptive_series);
  // Another search (budget) is not growth.
  std::ofstream(dir + "/budget.ini") << "name = adapt\nseed = 5\nN_test = 300\n"
                                     << "[model]\nkind = separate\nm = 20\nepochs = 30\n"
                                     << "[grid]\nmodel.l = 3:4\n"
                                     << "[adaptive]\nN_min = 12\nN_max = 384\nbudget = 32\n"
                                        "round = 4\ntarget = 0.3\n";
  const auto refused = RunCommand(SweepCommand("run " + dir + "/budget.ini --out " + out));
  CHECK(refused.status == 2);
  CHECK_THAT(refused.err, Contains("adaptive search"));
}

TEST_CASE("Growth of a sweep whose source decides its trials says up to how many",
          "[sweep][grow]") {
  SweepIdentity held, grown;
  held.cells = grown.cells = {"N=10;model.kind=cnn;"};
  held.trials = 40;
  grown.trials = 8400;  // a precision target's budget: the most one cell could get
  CHECK(DescribeGrowth(held, grown) == "trials per cell 40 -> 8400");
  CHECK(DescribeGrowth(held, grown, true) ==
        "trials decided round by round: a budget of 8400 trials in all (40 per cell held)");
}

TEST_CASE("Pooled files of other seeds are combined, copies of one row counted once",
          "[sweep][grow][analysis]") {
  const std::string dir = test::FreshDirectory("grow_pool");
  REQUIRE(RunCommand(SweepCommand("run " + WriteSweep(dir, "a", 3, "60,120", "2:3", 7) + " --out " +
                                  dir + "/a.h5"))
              .status == 0);
  REQUIRE(RunCommand(SweepCommand("run " + WriteSweep(dir, "b", 3, "60,120", "2:3", 8) + " --out " +
                                  dir + "/b.h5"))
              .status == 0);
  const size_t rows = ReadResultFile(dir + "/a.h5").rows.size();
  // Other seeds: every trial of both, those of the second numbered after the first's.
  const Results pooled = LoadResults({dir + "/a.h5", dir + "/b.h5"});
  CHECK(pooled.trials.size() == 2 * rows);
  int top = 0;
  for (const TrialRecord& t : pooled.trials) top = std::max(top, t.trial);
  CHECK(top == 5);
  // One seed twice (a file and its copy): one set of rows.
  std::filesystem::copy_file(dir + "/a.h5", dir + "/copy.h5");
  CHECK(LoadResults({dir + "/a.h5", dir + "/copy.h5"}).trials.size() == rows);
  // One seed, other numbers for one (cell, trial): refused by name, never one of them dropped.
  ResultContents changed = ReadResultFile(dir + "/a.h5");
  changed.rows[0].result.test_acc += 0.125;
  const SweepConfig config = ParseSweepConfig(changed.meta.config_path, changed.meta.config);
  WriteResultFile(dir + "/changed.h5", changed.meta, ExpandGrid(config), *changed.schema,
                  changed.rows);
  CHECK_THROWS_WITH(LoadResults({dir + "/a.h5", dir + "/changed.h5"}),
                    Contains("both hold trial") && Contains("cannot be pooled"));
}

}  // namespace pmoe
