// Infeasible parameters are refused with a message that names the inequality and its numbers.
#include <catch2/catch.hpp>

#include "pmoe/core/errors.hpp"
#include "pmoe/data/pattern_plan.hpp"

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

}  // namespace

TEST_CASE("Infeasible data models are refused with the violated inequality named", "[data][feasibility]") {
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
  SECTION("the default set is feasible") {
    CHECK(RefusalOf(spec).empty());
  }
}

}  // namespace pmoe
