// A [precision] sweep through pmoe-sweep: killed and resumed again and again, it ends with the
// same rows and the same decisions as an uninterrupted run, every cell holds a prefix of trial
// indices, and each row is the row a fixed-size grid run of the same cells computes.
#include <signal.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <fstream>
#include <map>
#include <random>
#include <sstream>
#include <thread>

#include "pmoe/precision/looks_table.hpp"
#include "pmoe/sweep/store/result_file.hpp"
#include "support/run_command.hpp"
#include "sweep/sweep_test_support.hpp"

namespace pmoe {
namespace {

const char* kCells =
    "seed = 7\nN_test = 300\n[model]\nepochs = 20\nm = 20\n"
    "[grid]\nmodel.kind = separate,cnn\nmodel.l = 2:4\nN = 30,60,120,240\n";

std::string Sweep(const std::string& args) { return std::string(PMOE_SWEEP_PATH) + " " + args; }

// The lines of a run's output that state the targets' looks and verdicts.
std::string Decisions(const std::string& output) {
  std::istringstream in(output);
  std::string line, out;
  while (std::getline(in, line))
    if (line.rfind("look ", 0) == 0 || line.rfind("target ", 0) == 0) out += line + "\n";
  return out;
}

}  // namespace

TEST_CASE(
    "A precision sweep killed and resumed equals an uninterrupted run and a fixed grid, "
    "row for row",
    "[precision][kill][source]") {
  const std::string dir = test::FreshDirectory("precision_source");
  const std::string config = dir + "/target.ini";
  std::ofstream(config) << "name = target\n"
                        << kCells
                        << "[precision]\ntarget = ratio_exponent\nover = l\nthreshold = 0\n"
                           "budget = 120\nstart = 2\nlooks = 3\nbootstrap = 200\n";
  const auto clean = test::RunCommand(Sweep("run " + config + " --out " + dir + "/clean.h5"));
  INFO(clean.out << clean.err);
  REQUIRE(clean.status == 0);
  const std::string decisions = Decisions(clean.out + clean.err);
  CHECK(decisions.find("target ") != std::string::npos);
  CHECK(decisions.find("look 1:") != std::string::npos);

  const std::string out = dir + "/killed.h5";
  std::mt19937 rng(std::random_device{}());
  int kills = 0;
  for (int runs = 0; runs < 30; ++runs) {
    const int pid = test::SpawnCommand(Sweep("run " + config + " --out " + out), dir + "/log");
    std::this_thread::sleep_for(std::chrono::milliseconds(20 + rng() % 200));
    const bool killed = kill(pid, SIGKILL) == 0;
    const int status = test::WaitFor(pid);
    if (status == 0) break;
    REQUIRE(killed);
    ++kills;
  }
  INFO(kills << " kills");
  const auto last = test::RunCommand(Sweep("run " + config + " --out " + out));
  REQUIRE(last.status == 0);
  CHECK(Decisions(last.out + last.err) == decisions);

  const ResultContents a = ReadResultFile(dir + "/clean.h5"), b = ReadResultFile(out);
  REQUIRE(a.rows.size() == b.rows.size());
  std::map<std::pair<uint64_t, int>, const TrialRow*> grid_rows, killed_rows;
  for (const TrialRow& r : b.rows) killed_rows[{r.cell_id, r.result.trial}] = &r;
  std::map<uint64_t, int> held;  // per cell: trials held
  int most = 0;
  for (const TrialRow& r : a.rows) {
    const auto it = killed_rows.find({r.cell_id, r.result.trial});
    REQUIRE(it != killed_rows.end());
    CHECK(a.schema->SameOutcome(r, *it->second));
    most = std::max(most, ++held[r.cell_id]);
  }
  // Every cell holds trials 0..n-1: the rows of a fixed run of n trials.
  for (const TrialRow& r : a.rows) CHECK(r.result.trial < held[r.cell_id]);

  const std::string grid = dir + "/grid.ini";
  std::ofstream(grid) << "name = grid\ntrials = " << most << "\n" << kCells;
  REQUIRE(test::RunCommand(Sweep("run " + grid + " --out " + dir + "/grid.h5")).status == 0);
  const ResultContents g = ReadResultFile(dir + "/grid.h5");
  for (const TrialRow& r : g.rows) grid_rows[{r.cell_id, r.result.trial}] = &r;
  for (const TrialRow& r : a.rows) {
    const auto it = grid_rows.find({r.cell_id, r.result.trial});
    REQUIRE(it != grid_rows.end());
    CHECK(a.schema->SameOutcome(r, *it->second));
  }
}

}  // namespace pmoe

namespace pmoe {

TEST_CASE(
    "A precision sweep's file records its settings and every look and merged shards give the "
    "rows and looks of one run",
    "[precision][merge][source]") {
  const std::string dir = test::FreshDirectory("precision_shards");
  const std::string config = dir + "/two.ini";
  // model.m swept: two targets (one per m), so each of two shards owns one.
  std::ofstream(config) << "name = two\nseed = 7\nN_test = 300\n[model]\nepochs = 20\n"
                        << "[grid]\nmodel.m = 20,24\nmodel.kind = separate,cnn\nmodel.l = 2:4\n"
                        << "N = 30,60,120,240\n"
                        << "[precision]\ntarget = ratio_exponent\nover = l\nthreshold = 0\n"
                           "budget = 120\nstart = 2\nlooks = 3\nbootstrap = 200\n";
  const auto clean = test::RunCommand(Sweep("run " + config + " --out " + dir + "/clean.h5"));
  INFO(clean.out << clean.err);
  REQUIRE(clean.status == 0);
  const ResultContents whole = ReadResultFile(dir + "/clean.h5");
  CHECK_THAT(whole.meta.precision,
             Catch::Contains("over=model.l") && Catch::Contains("budget=120"));
  const std::vector<TargetLooks> looks = ParseLooksTable(whole.meta.precision_looks);
  REQUIRE(looks.size() == 2);
  for (const TargetLooks& t : looks) {
    REQUIRE_FALSE(t.looks.empty());
    // The file's last look is the verdict the run printed for that target.
    CHECK_THAT(Decisions(clean.out + clean.err),
               Catch::Contains("target " + t.target + ": " + VerdictName(t.verdict())));
    CHECK(t.verdict() != Verdict::kRunning);
  }

  std::string merge = "merge " + dir + "/merged.h5";
  for (int i = 1; i <= 2; ++i) {
    const std::string shard = std::to_string(i) + "/2";
    const auto part =
        test::RunCommand(Sweep("run " + config + " --out " + dir + "/sharded.h5 --shard " + shard));
    INFO(part.out << part.err);
    REQUIRE(part.status == 0);
    // Before the second shard has run, the merge refuses: its target is unfinished.
    if (i == 1) {
      const auto early =
          test::RunCommand(Sweep(merge + " " + dir + "/sharded.shards/shard-1-of-2.h5"));
      CHECK(early.status != 0);
      CHECK_THAT(early.err, Catch::Contains("precision target") && Catch::Contains("unfinished"));
    }
    merge += " " + dir + "/sharded.shards/shard-" + std::to_string(i) + "-of-2.h5";
  }
  const auto merged = test::RunCommand(Sweep(merge));
  INFO(merged.out << merged.err);
  REQUIRE(merged.status == 0);
  CHECK(test::CompareResults(dir + "/merged.h5", dir + "/clean.h5") == "");
  CHECK(ReadResultFile(dir + "/merged.h5").meta.precision_looks == whole.meta.precision_looks);
}

TEST_CASE("A damaged looks table is refused with the line that is wrong", "[precision]") {
  CHECK_THROWS_WITH(ParseLooksTable("a\t1\t10\t0.01\t0.5\t0.1\tx\tabove\n"),
                    Catch::Contains("\"x\" in line"));
  CHECK_THROWS_WITH(ParseLooksTable("a\t1\t10\t0.01\t0.5\t0.1\t0.9\tmaybe\n"),
                    Catch::Contains("verdict \"maybe\""));
  CHECK_THROWS_WITH(ParseLooksTable("a\t1\t10\n"), Catch::Contains("expected 8"));
  const auto back =
      ParseLooksTable(LooksTable({{"t",
                                   {{0, {}, 40, 0.0125, 0.41, 0.12, 0.70, Verdict::kRunning},
                                    {1, {}, 80, 0.025, 0.5, 0.2, 0.8, Verdict::kAbove}}}}));
  REQUIRE(back.size() == 1);
  CHECK(back[0].looks.size() == 2);
  CHECK(back[0].looks[1].estimate == 0.5);
  CHECK(back[0].verdict() == Verdict::kAbove);
}

}  // namespace pmoe

namespace pmoe {

// Issue 44: a precision file's trials per cell are its budget (120 here), mostly unspent; a fixed
// grid of 10 trials drops none of its rows, so the file grows into it (it was refused as "trials
// 120 in the file, 10 in the config"), and the grown file equals a fresh run of the grid.
TEST_CASE("A precision file grows into a fixed grid when no row would be dropped",
          "[precision][grow][source]") {
  const std::string dir = test::FreshDirectory("precision_grow");
  std::ofstream(dir + "/p.ini") << "name = target\n"
                                << kCells
                                << "[precision]\ntarget = ratio_exponent\nover = l\nthreshold = 0\n"
                                   "budget = 120\nstart = 2\nlooks = 3\nbootstrap = 200\n";
  std::ofstream(dir + "/g.ini") << "name = target\ntrials = 10\n" << kCells;
  REQUIRE(test::RunCommand(Sweep("run " + dir + "/p.ini --out " + dir + "/t.h5")).status == 0);
  const auto grown = test::RunCommand(Sweep("run " + dir + "/g.ini --out " + dir + "/t.h5"));
  INFO(grown.out << grown.err);
  REQUIRE(grown.status == 0);
  REQUIRE(test::RunCommand(Sweep("run " + dir + "/g.ini --out " + dir + "/fresh.h5")).status == 0);
  CHECK(test::CompareResults(dir + "/t.h5", dir + "/fresh.h5").empty());
  // Fewer trials than the file holds are still refused: its rows are never dropped.
  std::ofstream(dir + "/small.ini") << "name = target\ntrials = 3\n" << kCells;
  REQUIRE(test::RunCommand(Sweep("run " + dir + "/p.ini --out " + dir + "/u.h5")).status == 0);
  const auto shrunk = test::RunCommand(Sweep("run " + dir + "/small.ini --out " + dir + "/u.h5"));
  CHECK(shrunk.status == 2);
  CHECK(shrunk.err.find("never shrinks") != std::string::npos);
}

}  // namespace pmoe
