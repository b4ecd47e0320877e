// Infeasible parameters are refused with a message that names the inequality and its numbers.
#include "pmoe/data/pattern_plan.hpp"

#include <catch2/catch.hpp>
#include <cmath>
#include <regex>
#include <string>

#include "pmoe/core/errors.hpp"

namespace pmoe {
namespace {

std::string RefusalOf(const DataSpec& spec) {
  try {
    PlanPatternModel(spec);
  } catch (const InfeasibleError& e) {
    return e.what();
  }
  return "";
}

// The number after `phrase` in a refusal ("data.delta_r must be less than 0.680872"): NaN if
// absent.
double BoundIn(const std::string& message, const std::string& phrase) {
  std::smatch m;
  if (!std::regex_search(message, m, std::regex(phrase + " (-?[0-9.]+(e-?[0-9]+)?)")))
    return std::nan("");
  return std::stod(m[1]);
}

}  // namespace

TEST_CASE("Infeasible data models are refused with the violated inequality named",
          "[data][feasibility]") {
  using Catch::Matchers::Contains;
  DataSpec spec;

  SECTION("no room for confusers when delta_r is too small") {
    spec.delta_r = 0.25;
    const std::string msg = RefusalOf(spec);
    CHECK_THAT(msg, Contains("delta_r > (1 - delta_d)/4 + radius*(1 + ||o1-o2||/2)"));
    CHECK_THAT(msg, Contains("delta_r = 0.25 <= 0.2 + 0.05*1.63246 = 0.281623"));
  }
  SECTION("neutral sets too wide to stay delta'-neutral") {
    spec.radius = 0.4;
    spec.l_star = 1;
    CHECK_THAT(RefusalOf(spec), Contains("radius*||o1-o2|| <= delta'"));
  }
  SECTION("d too small for the centers") {
    spec.d = 9;
    CHECK_THAT(RefusalOf(spec), Contains("d >= p + 2"));
    CHECK_THAT(RefusalOf(spec), Contains("d = 9, p = 8"));
  }
  SECTION("one confuser set cannot point both ways") {
    spec.p_confuser = 1;
    CHECK_THAT(RefusalOf(spec), Contains("p_confuser >= 2"));
  }
  SECTION("no neutral set left") {
    spec.p_confuser = 8;
    CHECK_THAT(RefusalOf(spec), Contains("p - p_confuser >= 1"));
  }
  SECTION("l* beyond the number of patches") {
    spec.l_star = 17;
    CHECK_THAT(RefusalOf(spec), Contains("l_star <= n"));
  }
  SECTION("overlapping pattern sets") {
    spec.delta_r = 0.95;  // confuser centers at a = 1: both sets of a direction coincide
    CHECK_THAT(RefusalOf(spec), Contains("disjoint pattern sets"));
  }
  SECTION("the default set is feasible") { CHECK(RefusalOf(spec).empty()); }
}

// The refusal names the setting to change and its feasible bound with the other settings as they
// are, and the bound is the edge: a hair inside it is feasible, a hair outside refused.
TEST_CASE("Infeasible data models name the setting and its feasible bound", "[data][feasibility]") {
  using Catch::Matchers::Contains;
  SECTION("delta_r too large at the defaults: the confuser sets of a direction overlap") {
    DataSpec spec;
    spec.delta_r = 0.69;
    const std::string msg = RefusalOf(spec);
    CHECK_THAT(msg, Contains("data.delta_r must be less than 0.680872 with these data.delta_d, "
                             "data.radius and data.confuser_strength"));
    const double bound = BoundIn(msg, "data.delta_r must be less than");
    spec.delta_r = bound - 1e-5;
    CHECK(RefusalOf(spec).empty());
    spec.delta_r = bound + 1e-5;
    CHECK_THAT(RefusalOf(spec), Contains("disjoint pattern sets"));
    // The other way out the message offers: a weaker confuser offset at the same delta_r.
    spec.delta_r = 0.69;
    const double strength = BoundIn(msg, "data.confuser_strength below");
    REQUIRE(strength > 0.0);
    REQUIRE(strength < 1.0);
    spec.confuser_strength = strength - 1e-4;
    CHECK(RefusalOf(spec).empty());
    spec.confuser_strength = strength + 1e-4;
    CHECK_FALSE(RefusalOf(spec).empty());
  }
  SECTION("delta_r too small: no room for a confuser set") {
    DataSpec spec;
    spec.delta_r = 0.25;
    const std::string msg = RefusalOf(spec);
    CHECK_THAT(msg, Contains("data.delta_r must be more than 0.281623"));
    spec.delta_r = BoundIn(msg, "data.delta_r must be more than") + 1e-5;
    CHECK(RefusalOf(spec).empty());
  }
  SECTION("a wider radius moves the delta_r bound, and the message follows it") {
    DataSpec spec;
    spec.radius = 0.1;
    spec.delta_r = 0.75;
    const std::string msg = RefusalOf(spec);
    const double bound = BoundIn(msg, "data.delta_r must be less than");
    REQUIRE(bound == bound);
    CHECK(bound < 0.75);
    spec.delta_r = bound - 1e-5;
    CHECK(RefusalOf(spec).empty());
  }
  SECTION("every other inequality names its setting") {
    DataSpec spec;
    spec.d = 9;
    CHECK_THAT(RefusalOf(spec), Contains("data.d must be at least data.p + 2 = 10"));
    spec = DataSpec();
    spec.l_star = 17;
    CHECK_THAT(RefusalOf(spec), Contains("data.l_star must be at most data.n = 16"));
    spec = DataSpec();
    spec.p_confuser = 8;
    CHECK_THAT(RefusalOf(spec), Contains("data.p must be at least 9 with p_confuser = 8"));
    spec = DataSpec();
    spec.radius = 0.4;
    spec.l_star = 1;
    const std::string msg = RefusalOf(spec);
    CHECK_THAT(msg, Contains("data.radius must be at most 0.316228 with data.delta_d = 0.2"));
    spec.radius = BoundIn(msg, "data.radius must be at most") - 1e-6;
    CHECK(RefusalOf(spec).empty());
  }
}

}  // namespace pmoe
