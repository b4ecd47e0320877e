// allocation = cost (issue 41 item 3): each look's CPU goes where it narrows the interval most,
// weighing the cells' cost per trial. Its plans are a pure function of the stored rows (a replay
// or a resume plans the same, at any thread count), and on cells 50 times apart in cost it
// reaches the same verdict as the even allocation for less CPU.
#include <catch2/catch.hpp>
#include <fstream>
#include <map>

#include "pmoe/core/rng.hpp"
#include "pmoe/core/version.hpp"
#include "pmoe/precision/looks_table.hpp"
#include "pmoe/precision/precision_section.hpp"
#include "pmoe/precision/precision_simulation.hpp"
#include "pmoe/precision/precision_source.hpp"
#include "pmoe/stats/target_statistics.hpp"
#include "pmoe/sweep/grid/grid.hpp"
#include "pmoe/sweep/grid/sweep_config.hpp"
#include "pmoe/sweep/store/result_file.hpp"
#include "support/run_command.hpp"
#include "sweep/sweep_test_support.hpp"

namespace pmoe {
namespace {

using Rows = std::map<std::pair<size_t, int>, double>;

PrecisionTarget::Lookup LookupOf(const Rows& rows) {
  return [&rows](size_t c, int t) -> std::optional<double> {
    auto it = rows.find({c, t});
    if (it == rows.end()) return std::nullopt;
    return it->second;
  };
}

// Lognormal rows with a true slope of 0.4 of the log mean over log x.
double Row(size_t c, int t) {
  const double x[] = {1, 2, 4, 8};
  return std::exp(0.4 * std::log(x[c]) + Rng(CombineSeed(CombineSeed(5, c), t)).Normal());
}

PrecisionSettings CostSettings() {
  PrecisionSettings s;
  s.budget = 600;
  s.start = 4;
  s.looks = 5;
  s.bootstrap = 300;
  s.allocation_bootstrap = 60;
  s.threshold = 1;  // above the truth: runs several looks
  s.cost_aware = true;
  s.cost = {50, 1, 1, 50};
  return s;
}

std::string Sweep(const std::string& args) { return std::string(PMOE_SWEEP_PATH) + " " + args; }

}  // namespace

TEST_CASE("Cost-aware plans replay identically from the stored rows, whole or resumed",
          "[precision][cost]") {
  const TargetStatistic slope = LogMeanSlope({1, 2, 4, 8});
  PrecisionTarget first(4, slope, CostSettings());
  Rows held;
  for (auto work = first.Next(LookupOf(held)); !work.empty(); work = first.Next(LookupOf(held)))
    for (const WorkPair& w : work) held[{w.cell, w.trial}] = Row(w.cell, w.trial);
  REQUIRE(first.looks().size() >= 3);
  // The cheap cells got more trials than the costly ones at the same leverage.
  const Look& last = first.looks().back();
  CHECK(last.trials[1] > last.trials[0]);
  CHECK(last.trials[2] > last.trials[3]);
  PrecisionTarget replay(4, slope, CostSettings());
  CHECK(replay.Next(LookupOf(held)).empty());
  // A run stopped after its second look: a fresh target asks for exactly the third look's rows.
  Rows partial;
  for (const auto& [key, value] : held)
    if (key.second < first.looks()[1].trials[key.first]) partial[key] = value;
  PrecisionTarget resumed(4, slope, CostSettings());
  for (auto work = resumed.Next(LookupOf(partial)); !work.empty();
       work = resumed.Next(LookupOf(partial)))
    for (const WorkPair& w : work) partial[{w.cell, w.trial}] = Row(w.cell, w.trial);
  CHECK(partial == held);
  for (const PrecisionTarget* t : {&replay, &resumed}) {
    REQUIRE(t->looks().size() == first.looks().size());
    for (size_t k = 0; k < first.looks().size(); ++k) {
      CHECK(t->looks()[k].trials == first.looks()[k].trials);
      CHECK(t->looks()[k].estimate == first.looks()[k].estimate);
      CHECK(t->looks()[k].verdict == first.looks()[k].verdict);
    }
  }
}

TEST_CASE(
    "On cells 50 times apart in cost, allocation = cost reaches the even allocation's "
    "verdict for less CPU",
    "[precision][cost][simulation]") {
  PrecisionSettings s;
  s.budget = 400;
  s.looks = 5;
  s.bootstrap = 200;
  s.allocation_bootstrap = 50;
  const SimulationTally even = SimulateAtThreshold(NullScenario::kCostlySlope, s, 60, 3);
  s.cost_aware = true;
  const SimulationTally cost = SimulateAtThreshold(NullScenario::kCostlySlope, s, 60, 3);
  CHECK(even.above >= 57);  // the truth (slope 0.3) lies above the threshold 0
  CHECK(cost.above >= 57);
  CHECK(even.below + cost.below == 0);
  CHECK(cost.mean_cost < 0.8 * even.mean_cost);
}

TEST_CASE("A sweep with allocation = cost gives the same rows and looks at 1 and 2 threads",
          "[precision][cost][source]") {
  const std::string dir = test::FreshDirectory("precision_cost");
  const std::string config = dir + "/cost.ini";
  std::ofstream(config) << "name = cost\nseed = 7\nN_test = 300\n[model]\nepochs = 20\nm = 20\n"
                        << "[grid]\nmodel.kind = separate,cnn\nmodel.l = 2:4\nN = 30,60,120,240\n"
                        << "[precision]\ntarget = ratio_exponent\nover = l\nthreshold = 0\n"
                           "budget = 120\nstart = 2\nlooks = 3\nbootstrap = 200\n"
                           "allocation = cost\n";
  std::string looks;
  for (const char* threads : {"1", "2"}) {
    const std::string out = dir + "/t" + threads + ".h5";
    const auto r =
        test::RunCommand(Sweep("run " + config + " --threads " + threads + " --out " + out));
    INFO(r.out << r.err);
    REQUIRE(r.status == 0);
    const ResultContents file = ReadResultFile(out);
    CHECK_THAT(file.meta.precision, Catch::EndsWith(";allocation=cost"));
    if (looks.empty()) looks = file.meta.precision_looks;
    CHECK(file.meta.precision_looks == looks);
  }
  CHECK(test::CompareResults(dir + "/t1.h5", dir + "/t2.h5") == "");
  // A second run over the finished file replays its looks and runs nothing.
  const auto again = test::RunCommand(Sweep("run " + config + " --out " + dir + "/t1.h5"));
  REQUIRE(again.status == 0);
  CHECK(ReadResultFile(dir + "/t1.h5").meta.precision_looks == looks);
}

TEST_CASE("The reference precision files read, keep their identity and replay every look",
          "[precision][cost][reference]") {
  // Written before allocation, model and the new statistics: their identity comes back unchanged
  // and the default allocation plans as before. Every recorded look of a file of this build's
  // numerics version replays bit for bit; a file of an earlier version (numerics 7 read N_acc at
  // the raw first crossing, 8 off the monotone fit) is never grown by this build, so only its
  // identity is held.
  for (const char* name : {"b_separate_l", "f_ratio_decade"}) {
    INFO(name);
    const ResultContents file =
        ReadResultFile(std::string(PMOE_SOURCE_DIR) + "/results/reference/paper/" + name + ".h5");
    const SweepConfig config = ParseSweepConfig(file.meta.config_path, file.meta.config);
    REQUIRE(PrecisionOf(config));
    CHECK(PrecisionIdentity(*PrecisionOf(config)) == file.meta.precision);
    if (file.meta.numerics_version != kNumericsVersion) {
      WARN(name << ": numerics version " << file.meta.numerics_version
                << ", not replayed until the reference answers are regenerated");
      continue;
    }
    const std::vector<Cell> cells = ExpandGrid(config);
    PrecisionSource source(cells, *PrecisionOf(config), ShardSpec{}, file.meta.config_path);
    StoredRows stored;
    stored.Insert(file.rows);
    source.NextRound(stored);
    const std::vector<TargetLooks> recorded = ParseLooksTable(file.meta.precision_looks);
    REQUIRE(recorded.size() == source.targets().size());
    for (size_t i = 0; i < recorded.size(); ++i) {
      const std::vector<Look>& replayed = source.targets()[i].target.looks();
      REQUIRE(replayed.size() == recorded[i].looks.size());
      for (size_t k = 0; k < replayed.size(); ++k) {
        INFO("look " << k);
        CHECK(replayed[k].total == recorded[i].looks[k].total);
        CHECK(replayed[k].estimate == recorded[i].looks[k].estimate);
        CHECK(replayed[k].lo == recorded[i].looks[k].lo);
        CHECK(replayed[k].hi == recorded[i].looks[k].hi);
        CHECK(replayed[k].verdict == recorded[i].looks[k].verdict);
      }
    }
  }
}

}  // namespace pmoe
