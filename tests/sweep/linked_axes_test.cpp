// Linked and derived axes of a sweep config (axis.hpp): a zip steps several parameters together,
// a rule derives one in each cell; bad ones are refused naming the key and what is wrong.
#include <catch2/catch.hpp>

#include "pmoe/core/errors.hpp"
#include "pmoe/core/param_table.hpp"
#include "pmoe/sweep/grid/grid.hpp"

namespace pmoe {
namespace {

std::vector<Cell> Cells(const std::string& text) {
  return ExpandGrid(ParseSweepConfig("g.ini", text));
}

std::string Refusal(const std::string& text) {
  try {
    Cells(text);
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "accepted";
}

const char* const kJoint = "trials = 2\n[model]\nkind = joint\n";

}  // namespace

TEST_CASE("A zipped axis steps its parameters together: one cell per tuple, not a product",
          "[sweep][grid][linked]") {
  const std::vector<Cell> cells = Cells(std::string(kJoint) +
                                        "[grid]\nmodel.k, model.m = (2, 10), (4, 20), (8, 40)\n"
                                        "N = 100, 200\n");
  REQUIRE(cells.size() == 3 * 2);
  const int k[] = {2, 2, 4, 4, 8, 8}, m[] = {10, 10, 20, 20, 40, 40}, N[] = {100, 200};
  for (size_t i = 0; i < cells.size(); ++i) {
    CHECK(IntParam(cells[i].spec, "model.k") == k[i]);
    CHECK(IntParam(cells[i].spec, "model.m") == m[i]);
    CHECK(cells[i].spec.N == N[i % 2]);
  }
  CHECK(cells[0].label == "model.k=2, model.m=10, N=100");
  const SweepConfig config = ParseSweepConfig(
      "g.ini", std::string(kJoint) + "[grid]\nmodel.k, model.m = (2, 10), (4, 20)\n");
  REQUIRE(config.axes.size() == 1);
  CHECK(config.axes[0].Names() == std::vector<std::string>{"model.k", "model.m"});
  CHECK(config.axes[0].note == "zipped with model.m: 10, 20");  // what `plan` prints
}

TEST_CASE("A rule derives a parameter in each cell from the others", "[sweep][grid][linked]") {
  std::vector<Cell> cells = Cells(
      "trials = 2\nN_test = 100 * ${data.n}\n[model]\nkind = joint\n[grid]\n"
      "model.k = 2, 4, 8\nmodel.m = 5 * ${k}\ndata.n = 8, 16\n");
  REQUIRE(cells.size() == 3 * 2);
  for (const Cell& c : cells) {
    CHECK(IntParam(c.spec, "model.m") == 5 * IntParam(c.spec, "model.k"));
    CHECK(c.spec.N_test == 100 * IntParam(c.spec, "data.n"));
  }
  CHECK(cells[0].label == "model.k=2, data.n=8");  // a rule's parameter names no cell
  // A double parameter takes the value as it comes; a rule may read an earlier rule's parameter.
  cells = Cells(std::string(kJoint) +
                "[grid]\nmodel.k = 2, 4\nmodel.m = 5 * ${model.k}\nmodel.lr = 1 / ${model.m}\n");
  REQUIRE(cells.size() == 2);
  CHECK(DoubleParam(cells[1].spec, "model.lr") == 0.05);
  // A cell that does not read a parameter of the rule keeps its base value (a CNN has no k).
  cells = Cells(
      "trials = 2\n[model]\nm = 12\n[grid]\nmodel.kind = joint, cnn\n"
      "model.k = 2, 4\nmodel.m = 5 * ${model.k}\n");
  REQUIRE(cells.size() == 3);
  CHECK(IntParam(cells[1].spec, "model.m") == 20);
  CHECK(cells[2].spec.model.kind == "cnn");
  CHECK(IntParam(cells[2].spec, "model.m") == 12);
}

TEST_CASE("Bad linked or derived axes are refused naming what is wrong", "[sweep][grid][linked]") {
  using Catch::Matchers::Contains;
  const std::string joint = kJoint;
  CHECK_THAT(Refusal(joint + "[grid]\nmodel.k, model.m = (2, 10), (4)\n"),
             Contains("g.ini: [grid] model.k, model.m: tuple 2 (4) has 1 value, expected 2 "
                      "(model.k, model.m)"));
  CHECK_THAT(Refusal(joint + "[grid]\nmodel.k, model.m = 2, 10\n"),
             Contains("grid.model.k, model.m = \"2, 10\": expected tuples of 2 values"));
  CHECK_THAT(Refusal(joint + "[grid]\nmodel.k, model.q = (2, 10)\n"),
             Contains("\"model.q\" is not a parameter"));
  CHECK_THAT(Refusal(joint + "[grid]\nmodel.k, model.m = (2, ten)\n"),
             Contains("model.m") && Contains("ten"));
  CHECK_THAT(Refusal(joint + "[grid]\nmodel.k, model.m = (2, 10)\nmodel.m = 20, 40\n"),
             Contains("model.m is set by two axes"));
  CHECK_THAT(Refusal(joint + "[grid]\nmodel.k = 2, 4\nmodel.m = 5 * * ${model.k}\n"),
             Contains("model.m: the rule \"5 * * ${model.k}\": expected a number") &&
                 Contains("character 5"));
  CHECK_THAT(Refusal(joint + "[grid]\nmodel.k = 2, 4\nmodel.m = 5 * ${model.q}\n"),
             Contains("${model.q} is not a parameter"));
  CHECK_THAT(Refusal(joint + "[grid]\nmodel.k = 2, 4\nmodel.m = ${model.k} / 3\n"),
             Contains("model.m = ${model.k} / 3 gives 0.66") && Contains("where model.k=2") &&
                 Contains("takes integers"));
  CHECK_THAT(Refusal(joint + "[grid]\nmodel.lr = 1 / ${model.m}\nmodel.m = 5 * ${model.k}\n"),
             Contains("reads model.m, which a later rule sets"));
  CHECK_THAT(Refusal(joint + "[grid]\nmodel.kind = ${model.k}\n"),
             Contains("a rule sets a numeric parameter"));
  CHECK_THAT(Refusal(joint + "[grid]\nmodel.k = ${model.k} * 2\n"),
             Contains("cannot refer to itself"));
}

}  // namespace pmoe
