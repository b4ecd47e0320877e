// pmoe-sim as users run it: bad input gets exit status 2 and a message naming the option, value
// and expectation; --config works; results do not depend on the thread count.
#include <catch2/catch.hpp>
#include <fstream>
#include <regex>

#include "support/run_command.hpp"

namespace pmoe {
namespace {

using Catch::Matchers::Contains;
using test::RunCommand;

test::CommandResult Sim(const std::string& args) {
  return RunCommand(std::string(PMOE_SIM_PATH) + " " + args);
}

// The JSON output without its timing fields, which are the only ones allowed to differ.
std::string WithoutTimings(const std::string& json) {
  return std::regex_replace(json,
                            std::regex("\"(data|train|eval|wall)_ms(_mean|_sd)?\":[^,}]*"
                                       "|\"elapsed_s\":[^,}]*"),
                            "");
}

}  // namespace

TEST_CASE("pmoe-sim refuses bad values with exit status 2 and names option value and expectation",
          "[cli]") {
  struct Case {
    std::string args;
    std::vector<std::string> expected;
  };
  const std::vector<Case> cases = {
      {"--l 17", {"model.l = \"17\"", "an integer in 1..n (n = 16)"}},
      {"--data.delta_d 1.5", {"data.delta_d = \"1.5\"", "(-1, 1)"}},
      {"--n 0", {"data.n = \"0\"", "an integer in 1..1024"}},
      {"--m -4", {"model.m = \"-4\"", "an integer in 1.."}},
      {"--model perceptron", {"model.kind = \"perceptron\"", "separate|joint|cnn"}},
      {"--data.delta_r 0.25", {"infeasible data model", "delta_r > (1 - delta_d)/4"}},
      {"--model.lr abc", {"model.lr = \"abc\"", "a finite number"}},
      {"--trials 0", {"trials = \"0\"", "an integer in 1.."}},
      {"--config /nonexistent/x.ini", {"/nonexistent/x.ini", "cannot read"}},
      {"--no-such-option 3", {"unrecognised option", "no-such-option"}},
      {"--model joint --k 3 --m 40", {"model.m = \"40\"", "multiple of model.k"}},
      {"--n 8 --model.l 4 --data.l_star 9", {"data.l_star = \"9\"", "1..n (n = 8)"}},
  };
  for (const Case& c : cases) {
    const bool sets_trials = c.args.find("--trials") != std::string::npos;
    const auto r = Sim(c.args + (sets_trials ? "" : " --trials 1"));
    INFO("pmoe-sim " << c.args << "\nstderr: " << r.err);
    CHECK(r.status == 2);
    CHECK(r.out.empty());
    for (const auto& e : c.expected) CHECK_THAT(r.err, Contains(e));
  }
}

TEST_CASE(
    "pmoe-sim reads the data and model sections of a config and the command line overrides them",
    "[cli]") {
  const std::string dir = test::FreshDirectory("sim_config");
  std::ofstream(dir + "/cell.ini") << "name = example   # comment\nseed = 3\ntrials = 2\nN = 60\n"
                                      "[data]\nmodel = pattern\nn = 8\nl_star = 2\n"
                                      "[model]\nkind = cnn\nm = 10\nepochs = 3\n"
                                      "[grid]\nmodel.m = 10,20\n";
  const auto r = Sim("--config " + dir + "/cell.ini --N_test 50 --m 12 --json");
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK_THAT(r.out, Contains("\"data.n\":\"8\""));
  CHECK_THAT(r.out, Contains("\"model.kind\":\"cnn\""));
  CHECK_THAT(r.out, Contains("\"model.m\":\"12\""));
  CHECK_THAT(r.out, Contains("\"seed\":3"));
  CHECK_THAT(r.out, Contains("\"trials\":2"));
  CHECK_THAT(r.err, Contains("[grid] ignored"));

  std::ofstream(dir + "/bad.ini") << "[model]\nkind = cnn\nlearning_rate = 0.1\n";
  const auto bad = Sim("--config " + dir + "/bad.ini");
  CHECK(bad.status == 2);
  CHECK_THAT(bad.err, Contains("bad.ini"));
  CHECK_THAT(bad.err, Contains("model.learning_rate"));
}

TEST_CASE("pmoe-sim gives the same trials on 1 and 2 threads", "[cli][determinism]") {
  const std::string args =
      "--model joint --k 4 --l 4 --m 20 --N 100 --N_test 200 --trials 6 "
      "--epochs 10 --json --threads ";
  const auto one = Sim(args + "1");
  const auto two = Sim(args + "2");
  REQUIRE(one.status == 0);
  REQUIRE(two.status == 0);
  CHECK(WithoutTimings(one.out) == WithoutTimings(two.out));
  CHECK(WithoutTimings(one.out).size() > 1000);
}

TEST_CASE("pmoe-sim --help lists every parameter with its default", "[cli]") {
  const auto r = Sim("--help");
  CHECK(r.status == 0);
  for (const char* s : {"--data.delta_r", "default: 0.6", "--model.lr", "default: 0.2",
                        "--model.router_epochs", "--N ", "--trials", "--threads", "--json"})
    CHECK_THAT(r.out, Contains(s));
}

}  // namespace pmoe
