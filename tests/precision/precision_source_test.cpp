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

#include "pmoe/sweep/store/result_file.hpp"
#include "support/run_command.hpp"

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
