// plan --pilot: which trials the pilot runs, the ratio estimate it makes from their times, and
// the command as users run it (a measured estimate, nothing written, bad values refused).
#include "pmoe/sweep/run/pilot.hpp"

#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>

#include "support/run_command.hpp"
#include "sweep_test_support.hpp"

namespace pmoe {
namespace {

std::vector<WorkItem> Items(int count) {
  std::vector<WorkItem> items;
  for (int i = 0; i < count; ++i) items.push_back({static_cast<size_t>(i), 0, 100.0 - i});
  return items;
}

}  // namespace

TEST_CASE("The pilot's trials spread over the cost order, ends included", "[sweep][pilot]") {
  const std::vector<WorkItem> items = Items(10);
  auto cells = [](const std::vector<WorkItem>& chosen) {
    std::vector<size_t> c;
    for (const WorkItem& w : chosen) c.push_back(w.cell);
    return c;
  };
  CHECK(cells(PilotItems(items, 2)) == std::vector<size_t>{0, 9});
  CHECK(cells(PilotItems(items, 4)) == std::vector<size_t>{0, 3, 6, 9});
  CHECK(cells(PilotItems(items, 9)) == std::vector<size_t>{0, 1, 2, 3, 4, 5, 6, 7, 9});
  CHECK(cells(PilotItems(items, 1)) == std::vector<size_t>{5});
  CHECK(PilotItems(items, 10).size() == 10);
  CHECK(PilotItems(items, 50).size() == 10);  // no more than there are
  CHECK(PilotItems(items, 0).empty());
}

TEST_CASE("The pilot's ratio and its standard error", "[sweep][pilot]") {
  // Every trial exactly twice the model: ratio 2, no spread.
  PilotEstimate e = EstimateFromTimes({2, 4, 6}, {1, 2, 3});
  CHECK(e.trials == 3);
  CHECK(e.measured_seconds == 12);
  CHECK(e.modeled_seconds == 6);
  CHECK(e.ratio == 2);
  CHECK(e.ratio_error == 0);
  // By hand: R = 6 / 4 = 1.5; residuals 1 - 1.5 = -0.5, 5 - 4.5 = 0.5; sum of squares 0.5;
  // sqrt(0.5 / (2 * 1)) = 0.5, over mean(e) = 2: 0.25.
  e = EstimateFromTimes({1, 5}, {1, 3});
  CHECK(e.ratio == Approx(1.5));
  CHECK(e.ratio_error == Approx(0.25));
  // One trial gives a ratio but no spread.
  e = EstimateFromTimes({3}, {2});
  CHECK(e.ratio == Approx(1.5));
  CHECK(std::isnan(e.ratio_error));
}

TEST_CASE("plan --pilot measures, writes nothing, and refuses bad values", "[cli][sweep][pilot]") {
  using Catch::Matchers::Contains;
  const std::string dir = test::FreshDirectory("sweep_pilot");
  std::ofstream(dir + "/tiny.ini") << "name = tiny\ntrials = 2\n[grid]\nmodel.l = 1:3\nN = 40\n";
  const std::string out = dir + "/tiny.h5";
  const std::string plan = test::SweepCommand("plan " + dir + "/tiny.ini --out " + out);

  const auto piloted = test::RunCommand(plan + " --pilot 3 --threads 1");
  INFO(piloted.err);
  CHECK(piloted.status == 0);
  CHECK_THAT(piloted.out, Contains("pilot: 3 of them run in"));
  CHECK_THAT(piloted.out, Contains("the 6 to run would take"));
  CHECK_THAT(piloted.out, Contains("on 1 cores"));
  CHECK_FALSE(std::filesystem::exists(out));
  CHECK_FALSE(std::filesystem::exists(out + ".journal"));

  const auto json = test::RunCommand(plan + " --pilot 2 --json");
  CHECK(json.status == 0);
  CHECK_THAT(json.out, Contains("\"pilot\":{\"trials\":2,"));

  for (const std::string bad : {"0", "x", "-3", "2.5", "1.5e9"}) {
    const auto refused = test::RunCommand(plan + " --pilot " + bad);
    CHECK(refused.status == 2);
    CHECK_THAT(refused.err, Contains("--pilot"));
    CHECK_THAT(refused.err, Contains("an integer in 1..1000000"));
  }

  // Once the sweep has run there is nothing to pilot.
  const auto ran = test::RunCommand(test::SweepCommand("run " + dir + "/tiny.ini --out " + out));
  REQUIRE(ran.status == 0);
  const auto done = test::RunCommand(plan + " --pilot 3");
  CHECK(done.status == 0);
  CHECK_THAT(done.out, Contains("6 trials already done would be skipped, 0 to run"));
  CHECK_THAT(done.out, Contains("pilot: nothing left to run"));
}

}  // namespace pmoe
