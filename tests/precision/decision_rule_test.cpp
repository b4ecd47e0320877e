// The one decision rule: every case of tests/support/decision_cases.tsv (which the Python rule of
// the claim pages must also pass, tests/analysis/decision_test.py), and the precision target's
// verdict read through it.
#include "pmoe/stats/decision_rule.hpp"

#include <catch2/catch.hpp>
#include <cmath>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>

#include "pmoe/precision/precision_target.hpp"

namespace pmoe {
namespace {

double ParseNumber(const std::string& text) {
  if (text == "inf") return std::numeric_limits<double>::infinity();
  if (text == "-inf") return -std::numeric_limits<double>::infinity();
  if (text == "nan") return std::nan("");
  return std::stod(text);
}

TEST_CASE("every shared decision case gives its decision", "[decision]") {
  std::ifstream in(PMOE_SOURCE_DIR "/tests/support/decision_cases.tsv");
  REQUIRE(in);
  int cases = 0;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    std::string estimate, lo, hi, threshold, side, half_width, expected;
    REQUIRE(fields >> estimate >> lo >> hi >> threshold >> side >> half_width >> expected);
    INFO(line);
    const Decision d =
        Decide(ParseNumber(estimate), ParseNumber(lo), ParseNumber(hi), ParseNumber(threshold),
               side == "below" ? Side::kBelow : Side::kAbove, ParseNumber(half_width));
    CHECK(std::string(DecisionName(d)) == expected);
    ++cases;
  }
  CHECK(cases >= 20);
}

TEST_CASE("a precision look's verdict is the decision rule's", "[decision]") {
  // The README's former contradiction: 0.32 [0.11, 0.75] against 0.2 decides nothing.
  CHECK(VerdictOf(0.32, 0.11, 0.75, 0.2, 0, false) == Verdict::kRunning);
  CHECK(VerdictOf(0.32, 0.11, 0.75, 0.2, 0, true) == Verdict::kUndecided);
  CHECK(VerdictOf(0.009, -0.105, 0.108, 0.2, 0.15, true) == Verdict::kBelow);
  CHECK(VerdictOf(0.30, 0.21, 0.40, 0.2, 0, false) == Verdict::kAbove);
  CHECK(VerdictOf(0.21, 0.15, 0.27, 0.2, 0.1, false) == Verdict::kWithin);
  CHECK(VerdictOf(std::nan(""), 0.1, 0.3, 0.2, 0, true) == Verdict::kUndecided);
}

}  // namespace
}  // namespace pmoe
