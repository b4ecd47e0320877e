// `pmoe-sweep plan` and `pmoe-sim` name the setting that made a cell infeasible and its feasible
// bound (the example: delta_r above 0.68 at the defaults) and exit 2.
#include <catch2/catch.hpp>
#include <fstream>

#include "support/run_command.hpp"

namespace pmoe {

TEST_CASE("plan and pmoe-sim state the feasible range of the setting that broke a cell",
          "[data][feasibility][tool]") {
  const std::string dir = test::FreshDirectory("feasible_range");
  std::ofstream(dir + "/wide.ini") << "name = wide\ntrials = 2\n[grid]\n"
                                      "data.delta_r = 0.6,0.69\nN = 20\n";
  const auto plan = test::RunCommand(std::string(PMOE_SWEEP_PATH) + " plan " + dir + "/wide.ini");
  CHECK(plan.status == 2);
  CHECK(plan.err.find("(cell data.delta_r=0.69, N=20)") != std::string::npos);
  CHECK(plan.err.find("data.delta_r must be less than 0.680872") != std::string::npos);
  const auto sim =
      test::RunCommand(std::string(PMOE_SIM_PATH) + " --data.delta_r 0.69 --N 20 --trials 1");
  CHECK(sim.status == 2);
  CHECK(sim.err.find("data.delta_r must be less than 0.680872") != std::string::npos);
  const auto low =
      test::RunCommand(std::string(PMOE_SIM_PATH) + " --data.delta_r 0.25 --N 20 --trials 1");
  CHECK(low.status == 2);
  CHECK(low.err.find("data.delta_r must be more than 0.281623") != std::string::npos);
}

}  // namespace pmoe
