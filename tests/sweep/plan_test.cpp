// The plan as a value (MakePlan, plan.hpp): what `pmoe-sweep plan` renders, without parsing
// its output.
#include "pmoe/sweep/run/plan.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <sstream>

#include "pmoe/sweep/run/sweep_runner.hpp"
#include "support/run_command.hpp"
#include "sweep_test_support.hpp"

namespace pmoe {

TEST_CASE("A plan counts cells, trials, held work and test sets, costliest first",
          "[sweep][plan]") {
  const std::string dir = test::FreshDirectory("plan_value");
  const std::string config = test::WriteQuickSweep(dir, "quick", 2);
  const SweepSetup setup = PrepareSweep(config, dir + "/quick.h5", ShardSpec{});
  Plan plan = MakePlan(setup, 0, 1);
  // separate: l = 2, 3, 4 by N = 60, 120; cnn reads no l: N = 60, 120.
  CHECK(plan.cells == 8);
  CHECK(plan.trials == 16);
  CHECK_FALSE(plan.by_rounds);
  CHECK(plan.shard_trials == 16);
  CHECK(plan.held == 0);
  CHECK(plan.skipped == 0);
  CHECK(plan.to_run == 16);
  CHECK(plan.test_sets == 2);  // one data key and N_test, two trials
  CHECK(plan.test_set_bytes > 0);
  CHECK(plan.growth.empty());
  CHECK(plan.cores == 1);
  REQUIRE(plan.by_cost.size() == 8);
  CHECK(std::is_sorted(plan.by_cost.begin(), plan.by_cost.end(),
                       [](const PlannedCell& a, const PlannedCell& b) {
                         return a.trial_seconds > b.trial_seconds;
                       }));
  double seconds = 0;
  for (const PlannedCell& c : plan.by_cost) seconds += 2 * c.trial_seconds;
  CHECK(plan.core_seconds == Approx(seconds));
  CHECK_FALSE(plan.pilot_asked);
  CHECK_FALSE(plan.pilot.has_value());

  // After a run everything is held: a pilot has nothing to run.
  RunOptions options;
  options.threads = 1;
  options.progress = false;
  std::ostringstream log;
  RunSweep(setup, options, log);
  plan = MakePlan(setup, 3, 1);
  CHECK(plan.held == 16);
  CHECK(plan.skipped == 16);
  CHECK(plan.to_run == 0);
  CHECK(plan.to_run_seconds == 0);
  CHECK(plan.pilot_asked);
  CHECK_FALSE(plan.pilot.has_value());
}

}  // namespace pmoe
