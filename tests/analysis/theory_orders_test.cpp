// The theory printed beside a fitted exponent is the bound for the axis it is fitted over:
// MODEL.md §9's binary bounds over n, l, k, p; §7's multiclass bounds (appendix M) over c.
#include "pmoe/analysis/theory_orders.hpp"

#include <catch2/catch.hpp>
#include <cmath>

namespace pmoe {

TEST_CASE("Over c the theory is appendix M's multiclass bound, its order the power of c",
          "[analysis][theory]") {
  CHECK(TheoryOrder("separate", "data.c") == 12);
  CHECK(TheoryOrder("joint", "data.c") == 8);
  CHECK(std::isnan(TheoryOrder("cnn", "data.c")));
  CHECK(TheoryFormula("separate", "data.c") == "c^12 l^8 p^12 delta^6 / eps^16");
  CHECK(TheoryFormula("joint", "data.c") == "c^8 k^4 l^6 p^12 delta^6 / eps^16");
  // The CNN has no multiclass bound: not its binary formula, which says nothing about c.
  CHECK(TheoryFormula("cnn", "data.c") == "none (appendix M bounds pMoE only)");
  CHECK(TheoryRatioFormula("cnn", "separate", "data.c") == "none (appendix M bounds pMoE only)");
}

TEST_CASE("Over the binary axes the theory is MODEL.md §9's samples row", "[analysis][theory]") {
  for (const char* axis : {"data.n", "model.l", "model.k", "data.p", "model.m"}) {
    INFO(axis);
    CHECK(TheoryFormula("cnn", axis) == "n^8 p^12 delta^6 / eps^16");
    CHECK(TheoryFormula("separate", axis) == "l^8 p^12 delta^6 / eps^16");
    CHECK(TheoryFormula("joint", axis) == "k^4 l^6 p^12 delta^6 / eps^16");
    CHECK(TheoryRatioFormula("cnn", "joint", axis) ==
          "(n^8 p^12 delta^6 / eps^16) / (k^4 l^6 p^12 delta^6 / eps^16)");
  }
  // The orders are the formula's exponents of the axis's letter (0 where it is absent).
  CHECK(TheoryOrder("cnn", "data.n") == 8);
  CHECK(TheoryOrder("separate", "data.n") == 0);
  CHECK(TheoryOrder("separate", "model.l") == 8);
  CHECK(TheoryOrder("joint", "model.k") == 4);
  CHECK(TheoryOrder("joint", "model.l") == 6);
  CHECK(TheoryOrder("cnn", "data.p") == 12);
  // Families the §9 table does not cover (Chen's) have no formula and no order.
  CHECK(TheoryFormula("switch", "data.n").empty());
  CHECK(TheoryRatioFormula("cnn", "switch", "data.n").empty());
  CHECK(std::isnan(TheoryOrder("switch", "data.n")));
}

}  // namespace pmoe
