// The runner's seam: a work source the config does not name (a fixed list of (cell, trial)
// pairs handed out a few per round) run through the runner, killed again and again and
// resumed, ends identical to an uninterrupted run, and its rows are the grid's rows.
#include <signal.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <thread>

#include "support/run_command.hpp"
#include "sweep/sweep_test_support.hpp"

namespace pmoe {

TEST_CASE("A listed work source killed and resumed equals an uninterrupted run, row for row",
          "[sweep][kill][source]") {
  const std::string dir = test::FreshDirectory("work_source");
  const std::string config = test::WriteQuickSweep(dir, "listed", 12);  // 8 cells
  // An irregular list: cells out of order, gaps in the trial indices, a pair given twice.
  std::ofstream pairs(dir + "/pairs");
  int listed = 0;
  for (int cell : {5, 0, 7, 2, 3, 6, 1, 4})
    for (int trial = 11; trial >= 0; trial -= 1 + cell % 3, ++listed)
      pairs << cell << " " << trial << "\n";
  pairs << "0 11\n";
  pairs.close();
  const std::string fixed = PMOE_SWEEP_FIXED_PATH;
  auto command = [&](const std::string& out) {
    return fixed + " " + config + " " + out + " " + dir + "/pairs 5 0.05";
  };
  const auto clean_start = std::chrono::steady_clock::now();
  const auto clean = test::RunCommand(command(dir + "/clean.h5"));
  // Kills land within the first third of a clean run's time, so that a fast machine (the whole
  // run under 100 ms on a 2-core Xeon) still sees several kills before the list is done.
  const long long clean_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                                 std::chrono::steady_clock::now() - clean_start)
                                 .count();
  const unsigned window = static_cast<unsigned>(std::max(4LL, clean_ms / 3));
  INFO(clean.err);
  REQUIRE(clean.status == 0);
  CHECK(ReadResultFile(dir + "/clean.h5").rows.size() == static_cast<size_t>(listed));
  CHECK_FALSE(std::filesystem::exists(dir + "/clean.h5.journal"));  // the source is done

  const std::string out = dir + "/killed.h5";
  const unsigned seed = std::random_device{}();
  INFO("kill schedule seed " << seed);
  std::mt19937 rng(seed);
  int kills = 0, runs = 0;
  for (; runs < 40; ++runs) {
    const int pid = test::SpawnCommand(command(out), dir + "/log");
    std::this_thread::sleep_for(std::chrono::milliseconds(2 + rng() % window));
    const bool killed = kill(pid, SIGKILL) == 0;
    const int status = test::WaitFor(pid);
    if (status == 0) break;
    REQUIRE(killed);
    REQUIRE(status == 128 + SIGKILL);
    ++kills;
  }
  INFO(kills << " kills in " << runs << " runs");
  CHECK(kills >= 3);
  REQUIRE(test::RunCommand(command(out)).status == 0);
  CHECK(test::CompareResults(dir + "/clean.h5", out).empty());

  // Each listed row is the grid's row of the same (cell, trial): rows depend on nothing else.
  REQUIRE(
      test::RunCommand(test::SweepCommand("run " + config + " --out " + dir + "/grid.h5")).status ==
      0);
  const ResultContents grid = ReadResultFile(dir + "/grid.h5"), listed_rows = ReadResultFile(out);
  std::map<std::pair<uint64_t, int>, const TrialRow*> by_key;
  for (const TrialRow& r : grid.rows) by_key[{r.cell_id, r.result.trial}] = &r;
  for (const TrialRow& r : listed_rows.rows) {
    const auto it = by_key.find({r.cell_id, r.result.trial});
    REQUIRE(it != by_key.end());
    CHECK(grid.schema->SameOutcome(*it->second, r));
  }
}

}  // namespace pmoe

namespace pmoe {

TEST_CASE("status asks the sweep's work source: a finished precision target is complete",
          "[sweep][source][status]") {
  // A precision target decides its trials look by look: its budget is not a grid of trials per
  // cell, so status counts what the source asks for, not cells x budget.
  const std::string dir = test::FreshDirectory("status_precision");
  std::ofstream(dir + "/p.ini") << "name = p\nseed = 7\nN_test = 100\n[model]\nepochs = 5\n"
                                   "m = 8\n[grid]\nmodel.kind = separate,cnn\nmodel.l = 2:3\n"
                                   "N = 30,60\n[precision]\ntarget = ratio_exponent\nover = l\n"
                                   "threshold = 0\nbudget = 24\nstart = 2\nlooks = 2\n"
                                   "bootstrap = 100\n";
  const std::string out = dir + "/p.h5";
  const auto run = test::RunCommand(test::SweepCommand("run " + dir + "/p.ini --out " + out));
  INFO(run.out << run.err);
  REQUIRE(run.status == 0);
  const auto status = test::RunCommand(test::SweepCommand("status " + out));
  INFO(status.out << status.err);
  CHECK(status.status == 0);
  CHECK_THAT(status.out, Catch::Matchers::Contains("precision target") &&
                             Catch::Matchers::Contains("complete: 0 of 1 targets still running"));
  CHECK_THAT(status.out, !Catch::Matchers::Contains("missing"));
  const auto json = test::RunCommand(test::SweepCommand("status " + out + " --json"));
  CHECK_THAT(json.out, Catch::Matchers::Contains("\"missing\":0") &&
                           Catch::Matchers::Contains("\"complete\":true"));
}

}  // namespace pmoe
