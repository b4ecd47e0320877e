// The [precision] settings and the grouping of a sweep's cells into targets.
#include <catch2/catch.hpp>

#include "pmoe/core/errors.hpp"
#include "pmoe/precision/precision_layout.hpp"

namespace pmoe {
namespace {

// CNN and separate cells over data.n x N, separate at l = 4 (the CNN reads no l).
std::vector<CellParams> Cells(const std::vector<int>& ns, const std::vector<int>& Ns) {
  std::vector<CellParams> cells;
  for (const char* kind : {"separate", "cnn"})
    for (int n : ns)
      for (int N : Ns) {
        CellParams p = {
            {"data.n", std::to_string(n)}, {"model.kind", kind}, {"N", std::to_string(N)}};
        if (std::string(kind) == "separate") p["model.l"] = "4";
        cells.push_back(p);
      }
  return cells;
}

PrecisionConfig Config(const std::string& over) {
  PrecisionConfig c;
  SetPrecisionKey("f.ini", "over", over, c);
  SetPrecisionKey("f.ini", "budget", "1000", c);
  return c;
}

}  // namespace

TEST_CASE("[precision] keys are read, and bad values refused by name", "[precision]") {
  PrecisionConfig c = Config("n/l");
  CHECK(OverText(c) == "data.n/model.l");
  SetPrecisionKey("f.ini", "reading", "mean_accuracy", c);
  SetPrecisionKey("f.ini", "alpha", "0.01", c);
  CHECK(c.curve.reading == CurveReading::kMeanAccuracy);
  CHECK(c.settings.alpha == 0.01);
  CHECK(PrecisionIdentity(c).find("over=data.n/model.l;reading=mean_accuracy") !=
        std::string::npos);
  // The quantile reading at delta = 0.1: success probability 0.9, as success_threshold says.
  PrecisionConfig quantile = Config("n/l");
  SetPrecisionKey("f.ini", "delta", "0.1", quantile);
  CHECK(quantile.curve.threshold == Approx(0.9));
  CHECK(PrecisionIdentity(quantile).find(";success_threshold=0.9;") != std::string::npos);
  CHECK_THROWS_WITH(SetPrecisionKey("f.ini", "delta", "0.99", quantile),
                    Catch::Contains("precision.delta"));
  CHECK_THROWS_WITH(SetPrecisionKey("f.ini", "over", "n/bogus", c),
                    Catch::Contains("precision.over = \"n/bogus\""));
  CHECK_THROWS_WITH(SetPrecisionKey("f.ini", "alpha", "0.9", c), Catch::Contains("[1e-6, 0.5]"));
  CHECK_THROWS_WITH(SetPrecisionKey("f.ini", "reading", "N*", c),
                    Catch::Contains("success or mean_accuracy"));
  CHECK_THROWS_WITH(SetPrecisionKey("f.ini", "alhpa", "0.1", c),
                    Catch::Contains("unknown key \"precision.alhpa\""));
  CHECK_THROWS_AS(FinishPrecision("f.ini", PrecisionConfig{}), ConfigError);
}

TEST_CASE("Cells are laid out on the ratio's curves, the CNN taking the pMoE's n/l",
          "[precision]") {
  const auto cells = Cells({8, 16, 32}, {25, 50, 100});
  const auto groups = LayoutTargets(cells, Config("n/l"), "f.ini");
  REQUIRE(groups.size() == 1);
  const PrecisionGroup& g = groups[0];
  REQUIRE(g.cells.size() == 18);
  for (size_t j = 0; j < g.cells.size(); ++j) {
    const CellParams& p = cells[g.cells[j]];
    CHECK(g.curve[j].side == (p.at("model.kind") == "cnn" ? 0 : 1));
    CHECK(g.curve[j].axis == std::stod(p.at("data.n")) / 4);
    CHECK(g.curve[j].N == std::stod(p.at("N")));
  }
}

TEST_CASE("Cells varying l at fixed n: one CNN curve stands on every l's curve", "[precision]") {
  std::vector<CellParams> cells;
  for (int l : {2, 4, 8})
    for (int N : {25, 50})
      cells.push_back({{"data.n", "16"},
                       {"model.kind", "separate"},
                       {"model.l", std::to_string(l)},
                       {"N", std::to_string(N)}});
  for (int N : {25, 50})
    cells.push_back({{"data.n", "16"}, {"model.kind", "cnn"}, {"N", std::to_string(N)}});
  const auto groups = LayoutTargets(cells, Config("n/l"), "f.ini");
  REQUIRE(groups.size() == 1);
  CHECK(groups[0].cells.size() == 12);  // 6 separate places, the 2 CNN cells on 3 curves each
}

TEST_CASE("A step cap set per model kind neither splits a target nor stops the CNN pairing",
          "[precision]") {
  auto cells = Cells({8, 16, 32}, {25, 50, 100});
  for (CellParams& p : cells) p["model.max_steps"] = p["model.kind"] == "cnn" ? "200000" : "50000";
  const auto groups = LayoutTargets(cells, Config("n/l"), "f.ini");
  REQUIRE(groups.size() == 1);
  CHECK(groups[0].label == "all");
  CHECK(groups[0].cells.size() == 18);
  // A cap that differs within one kind is a design: it names targets (and the CNN, with one cap,
  // pairs with neither of separate's).
  cells.push_back({{"data.n", "8"},
                   {"model.kind", "separate"},
                   {"model.l", "4"},
                   {"N", "25"},
                   {"model.max_steps", "1000"}});
  CHECK_THROWS(LayoutTargets(cells, Config("n/l"), "f.ini"));
}

TEST_CASE("where keeps the cells asked for (and the CNN, which reads no l)", "[precision]") {
  PrecisionConfig c = Config("n/l");
  SetPrecisionKey("f.ini", "where", "l=4", c);
  SetPrecisionKey("f.ini", "half_width", "0.15", c);
  SetPrecisionKey("f.ini", "uniform_share", "0", c);
  CHECK(c.settings.half_width == 0.15);
  CHECK(c.settings.uniform_share == 0);
  CHECK(WhereText(c) == "model.l=4");
  CHECK(PrecisionIdentity(c).find("half_width=0.15;where=model.l=4;") != std::string::npos);
  auto cells = Cells({8, 16, 32}, {25, 50, 100});
  for (int N : {25, 50, 100})  // separate at l = 8, which `where` leaves out
    cells.push_back(
        {{"data.n", "16"}, {"model.kind", "separate"}, {"model.l", "8"}, {"N", std::to_string(N)}});
  const auto groups = LayoutTargets(cells, c, "f.ini");
  REQUIRE(groups.size() == 1);
  CHECK(groups[0].cells.size() == 18);  // 9 separate at l = 4, the 9 CNN cells
  for (size_t i : groups[0].cells)
    CHECK((cells[i].count("model.l") == 0 || cells[i].at("model.l") == "4"));
  SetPrecisionKey("f.ini", "where", "data.n=64", c);
  CHECK_THROWS_WITH(LayoutTargets(cells, c, "f.ini"), Catch::Contains("selects no cell"));
  // Issue 44: a parameter no cell reads would pass every cell (as pmoe-analyze refuses it).
  SetPrecisionKey("f.ini", "where", "model.k=2", c);
  CHECK_THROWS_WITH(LayoutTargets(cells, c, "f.ini"), Catch::Contains("no cell reads model.k"));
  CHECK_THROWS_WITH(SetPrecisionKey("f.ini", "where", "bogus=1", c),
                    Catch::Contains("P=V[, P=V ...]"));
  CHECK_THROWS_WITH(SetPrecisionKey("f.ini", "where", "l", c), Catch::Contains("P=V[, P=V ...]"));
  CHECK_THROWS_WITH(SetPrecisionKey("f.ini", "half_width", "0", c),
                    Catch::Contains("a positive number"));
  CHECK_THROWS_WITH(SetPrecisionKey("f.ini", "uniform_share", "2", c), Catch::Contains("[0, 1]"));
}

TEST_CASE("Layouts that cannot give an exponent are refused", "[precision]") {
  CHECK_THROWS_WITH(LayoutTargets(Cells({8}, {25, 50}), Config("n/l"), "f.ini"),
                    Catch::Contains("at least two axis values"));
  auto separate_only = Cells({8, 16}, {25, 50});
  separate_only.resize(4);
  CHECK_THROWS_WITH(LayoutTargets(separate_only, Config("n/l"), "f.ini"),
                    Catch::Contains("leaves no cnn cell"));
  PrecisionConfig plain = Config("n/l");
  SetPrecisionKey("f.ini", "target", "exponent", plain);
  CHECK(LayoutTargets(separate_only, plain, "f.ini").size() == 1);
}

}  // namespace pmoe
