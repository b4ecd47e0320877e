// pmoe-sweep as users run it: plan prints the grid and its cost; bad configs exit 2.
#include <catch2/catch.hpp>
#include <fstream>

#include "support/run_command.hpp"

namespace pmoe {

TEST_CASE("pmoe-sweep plan lists cells and cost and refuses bad configs", "[cli][sweep]") {
  using Catch::Matchers::Contains;
  const std::string dir = test::FreshDirectory("sweep_plan");
  std::ofstream(dir + "/ok.ini") << "name = tiny\ntrials = 3\n[grid]\nmodel.l = 1:4\n"
                                    "N = 100..400 x2\n";
  const auto ok = test::RunCommand(std::string(PMOE_SWEEP_PATH) + " plan " + dir + "/ok.ini");
  INFO(ok.err);
  CHECK(ok.status == 0);
  CHECK_THAT(ok.out, Contains("12 cells x 3 trials = 36 trials"));
  CHECK_THAT(ok.out, Contains("model.l=4, N=400"));

  const auto json =
      test::RunCommand(std::string(PMOE_SWEEP_PATH) + " plan " + dir + "/ok.ini --json");
  CHECK(json.status == 0);
  CHECK_THAT(json.out, Contains("\"cells\":12"));

  std::ofstream(dir + "/bad.ini") << "[grid]\nmodel.l = 0:3\n";
  const auto bad = test::RunCommand(std::string(PMOE_SWEEP_PATH) + " plan " + dir + "/bad.ini");
  CHECK(bad.status == 2);
  CHECK_THAT(bad.err, Contains("bad.ini") && Contains("model.l = \"0\"") && Contains("1..1024"));
  const auto unknown = test::RunCommand(std::string(PMOE_SWEEP_PATH) + " frobnicate x.ini");
  CHECK(unknown.status == 2);
  CHECK_THAT(unknown.err, Contains("unknown command"));
  const auto help = test::RunCommand(std::string(PMOE_SWEEP_PATH) + " run --help");
  CHECK(help.status == 0);
  CHECK_THAT(help.out, Contains("usage: pmoe-sweep"));
}

}  // namespace pmoe
