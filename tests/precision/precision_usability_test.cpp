// Issue 41's usability holes, one test each: `over` takes pmoe-analyze's short names, a target
// over several model kinds names its model, `plan` states a total budget and what a run holds,
// config errors exit 2 naming the file, and a `where` that empties a side of a ratio says so.
#include <catch2/catch.hpp>
#include <fstream>

#include "pmoe/core/axis_name.hpp"
#include "pmoe/core/errors.hpp"
#include "pmoe/precision/precision_layout.hpp"
#include "support/run_command.hpp"

namespace pmoe {
namespace {

std::vector<CellParams> KindsCells() {
  std::vector<CellParams> cells;
  for (const char* kind : {"separate", "joint", "cnn"})
    for (int n : {8, 16})
      for (int N : {25, 50}) {
        CellParams p = {
            {"data.n", std::to_string(n)}, {"model.kind", kind}, {"N", std::to_string(N)}};
        if (std::string(kind) != "cnn") p["model.l"] = "4";
        cells.push_back(p);
      }
  return cells;
}

PrecisionConfig Config(const std::string& target, const std::string& over) {
  PrecisionConfig c;
  SetPrecisionKey("f.ini", "target", target, c);
  SetPrecisionKey("f.ini", "over", over, c);
  SetPrecisionKey("f.ini", "budget", "1000", c);
  return c;
}

std::string Sweep(const std::string& args) { return std::string(PMOE_SWEEP_PATH) + " " + args; }

const char* kGrid =
    "seed = 7\nN_test = 300\n[model]\nepochs = 20\nm = 20\n"
    "[grid]\nmodel.kind = separate,cnn\ndata.n = 8,16,32\nN = 30,60,120,240\n";

}  // namespace

TEST_CASE("over and where take every short name pmoe-analyze --over takes",
          "[precision][usability]") {
  for (const std::string name : {"n", "l", "k", "m", "d", "p"}) {
    PrecisionConfig c;
    SetPrecisionKey("f.ini", "over", name, c);  // the one table: AxisName
    CHECK(OverText(c) == AxisName(name));
    SetPrecisionKey("f.ini", "where", name + "=2", c);
    CHECK(WhereText(c) == AxisName(name) + "=2");
  }
  PrecisionConfig c;
  SetPrecisionKey("f.ini", "over", "p/l", c);
  CHECK(OverText(c) == "data.p/model.l");
}

TEST_CASE("A target over several model kinds names its model or is refused with the list",
          "[precision][usability]") {
  const auto cells = KindsCells();
  CHECK_THROWS_WITH(LayoutTargets(cells, Config("exponent", "n"), "f.ini"),
                    Catch::Contains("f.ini") &&
                        Catch::Contains("3 model kinds (cnn, joint, separate)") &&
                        Catch::Contains("model = KIND"));
  CHECK_THROWS_WITH(LayoutTargets(cells, Config("ratio_exponent", "n"), "f.ini"),
                    Catch::Contains("2 model kinds (joint, separate)"));
  PrecisionConfig joint = Config("exponent", "n");
  SetPrecisionKey("f.ini", "model", "joint", joint);
  auto groups = LayoutTargets(cells, joint, "f.ini");
  REQUIRE(groups.size() == 1);
  CHECK(groups[0].cells.size() == 4);
  for (size_t i : groups[0].cells) CHECK(cells[i].at("model.kind") == "joint");
  PrecisionConfig ratio = Config("ratio_exponent", "n");
  SetPrecisionKey("f.ini", "model", "separate", ratio);
  groups = LayoutTargets(cells, ratio, "f.ini");
  REQUIRE(groups.size() == 1);
  CHECK(groups[0].cells.size() == 8);  // separate and the CNN
  CHECK(PrecisionIdentity(ratio).find(";model=separate") != std::string::npos);
  CHECK(PrecisionIdentity(Config("ratio_exponent", "n")).find("model=") == std::string::npos);
  SetPrecisionKey("f.ini", "model", "moe", ratio);
  CHECK_THROWS_WITH(LayoutTargets(cells, ratio, "f.ini"), Catch::Contains("of model.kind = moe"));
}

TEST_CASE("A where that empties a side of a ratio says so", "[precision][usability]") {
  PrecisionConfig c = Config("ratio_exponent", "n");
  SetPrecisionKey("f.ini", "model", "separate", c);
  SetPrecisionKey("f.ini", "where", "kind=cnn", c);
  CHECK_THROWS_WITH(
      LayoutTargets(KindsCells(), c, "f.ini"),
      Catch::Contains("where = model.kind=cnn") && Catch::Contains("of the model compared"));
  SetPrecisionKey("f.ini", "where", "kind=separate", c);
  CHECK_THROWS_WITH(LayoutTargets(KindsCells(), c, "f.ini"),
                    Catch::Contains("where = model.kind=separate") &&
                        Catch::Contains("leaves no cnn cell: the baseline's side is empty"));
}

TEST_CASE(
    "plan states the budget as a total, the test sets held and the cost model's time, and "
    "a budget below the first look exits 2 naming the file",
    "[precision][usability][cli]") {
  const std::string dir = test::FreshDirectory("precision_usability");
  std::ofstream(dir + "/p.ini") << "name = p\n"
                                << kGrid
                                << "[precision]\ntarget = exponent\nmodel = separate\nover = n\n"
                                   "threshold = 0\nbudget = 400\nstart = 2\nlooks = 3\n";
  const auto plan = test::RunCommand(Sweep("plan " + dir + "/p.ini --threads 2"));
  REQUIRE(plan.status == 0);
  CHECK_THAT(plan.out, Catch::Contains("400 trials in all"));
  // 3 data (n = 8, 16, 32) x 400 / 12 cells = 34 trial indices each, not one set per trial.
  CHECK_THAT(plan.out, Catch::Contains("102 distinct test sets"));
  std::ofstream(dir + "/small.ini") << "name = small\n"
                                    << kGrid
                                    << "[precision]\ntarget = exponent\nmodel = separate\n"
                                       "over = n\nbudget = 10\nstart = 2\n";
  for (const char* command : {"plan", "run"}) {
    const auto r = test::RunCommand(
        Sweep(std::string(command) + " " + dir + "/small.ini --out " + dir + "/small.h5"));
    CHECK(r.status == 2);
    CHECK_THAT(r.err, Catch::Contains(dir + "/small.ini") &&
                          Catch::Contains("must be at least start * cells = 24"));
  }
  std::ofstream(dir + "/pooled.ini")
      << "name = pooled\n"
      << kGrid << "[precision]\ntarget = exponent\nover = n\nbudget = 400\n";
  const auto pooled = test::RunCommand(Sweep("plan " + dir + "/pooled.ini"));
  CHECK(pooled.status == 2);
  CHECK_THAT(pooled.err, Catch::Contains("2 model kinds (cnn, separate)"));
}

TEST_CASE("budget = 2.5h is converted to trials by the cost model and recorded",
          "[precision][usability][cost][cli]") {
  const std::string dir = test::FreshDirectory("precision_hours");
  std::ofstream(dir + "/h.ini") << "name = h\n"
                                << kGrid
                                << "[precision]\ntarget = exponent\nmodel = separate\nover = n\n"
                                   "threshold = 0\nbudget = 0.001h\nstart = 2\nlooks = 3\n";
  const auto plan = test::RunCommand(Sweep("plan " + dir + "/h.ini --json"));
  INFO(plan.out << plan.err);
  REQUIRE(plan.status == 0);
  // 3.6 s at the separate cells' mean cost (0.004 to 0.03 s a trial by the model): hundreds.
  const auto text = test::RunCommand(Sweep("plan " + dir + "/h.ini"));
  CHECK_THAT(text.out, Catch::Contains("(0.001 CPU-hours by the cost model)"));
  PrecisionConfig c;
  SetPrecisionKey("f.ini", "budget", "2.5h", c);
  CHECK(c.budget_hours == 2.5);
  CHECK(PrecisionIdentity(c).find(";budget_hours=2.5") != std::string::npos);
  CHECK_THROWS_WITH(SetPrecisionKey("f.ini", "budget", "xh", c),
                    Catch::Contains("CPU-hours (2.5h)"));
}

}  // namespace pmoe
