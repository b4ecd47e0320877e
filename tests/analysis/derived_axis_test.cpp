// Exponents over a derived axis (pmoe-analyze exponent --over n/l): on synthetic success data
// whose N* is a known power of n/l, with n and l both varying, the slope over n/l is recovered
// with the same bootstrap intervals as over one parameter; bad axes are refused by name.
#include "pmoe/analysis/derived_axis.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>

#include "pmoe/analysis/sample_complexity.hpp"
#include "pmoe/core/rng.hpp"
#include "pmoe/stats/stats.hpp"
#include "support/synthetic_results.hpp"

namespace pmoe {
namespace {

struct Design {
  int n, l;
};

// Cells over N = 25..6400 (x2) for each (n, l), with N* = scale * (n/l)^exponent and
// P(success | N) = sigmoid(3 log(N / N*)); `trials` Bernoulli draws per cell.
Results NOverLResults(const std::vector<Design>& designs, double scale, double exponent, int trials,
                      uint64_t seed) {
  Results r;
  Rng rng(seed);
  for (const Design& design : designs) {
    test::AddLogisticCells(
        r,
        {{"data.n", std::to_string(design.n)},
         {"model.l", std::to_string(design.l)},
         {"model.kind", "separate"}},
        "data.n=" + std::to_string(design.n) + ", model.l=" + std::to_string(design.l),
        scale * std::pow(static_cast<double>(design.n) / design.l, exponent), 3.0, trials, rng);
  }
  return r;
}

// n/l = 2, 4, 8, 16 with both n and l moving (a zip in the sweep).
const std::vector<Design> kZipped = {{4, 2}, {16, 4}, {32, 4}, {128, 8}};

}  // namespace

TEST_CASE("The exponent over n/l is recovered with a covering interval", "[analysis][exponent]") {
  SampleComplexityOptions options;
  options.bootstrap = 200;
  const double truth = 1.5;
  const int repeats = 20;
  int covered = 0;
  std::vector<double> slopes;
  for (int rep = 0; rep < repeats; ++rep) {
    const Results r = NOverLResults(kZipped, 20, truth, 25, 900 + rep);
    options.seed = rep;
    const SampleComplexity sc = EstimateSampleComplexity(r, "n/l", options);
    CHECK(sc.axis == "data.n/model.l");
    REQUIRE(sc.series.size() == 1);  // n and l define the axis: they name no series
    REQUIRE(sc.series[0].points.size() == 4);
    CHECK(sc.series[0].points[0].value == 2);
    CHECK(sc.series[0].points[3].value == 16);
    const std::vector<Exponent> e = FitExponents(sc, options);
    REQUIRE(e.size() == 1);
    CHECK(e[0].points == 4);
    CHECK(std::isnan(e[0].theory));  // the theory's orders are per parameter
    slopes.push_back(e[0].slope);
    covered += e[0].lo <= truth && truth <= e[0].hi;
  }
  const Moments m = MeanSd(slopes);
  INFO("slope mean " << m.mean << " sd " << m.sd << "; covered " << covered << "/" << repeats);
  CHECK(std::abs(m.mean - truth) < 0.06);
  CHECK(covered >= 0.8 * repeats);
}

TEST_CASE("Derived axes take full names, short names and products", "[analysis][exponent]") {
  const Results r = NOverLResults(kZipped, 20, 1.0, 4, 3);
  DerivedAxis axis;
  Results with = WithDerivedAxis(r, "data.n / model.l", &axis);
  CHECK(axis.name == "data.n/model.l");
  CHECK(axis.params == std::vector<std::string>{"data.n", "model.l"});
  CHECK(with.cells[0].Text("data.n/model.l") == "2");
  with = WithDerivedAxis(r, "n*l", &axis);
  CHECK(axis.name == "data.n*model.l");
  CHECK(with.cells.back().Number("data.n*model.l") == 1024);
  with = WithDerivedAxis(r, "(n - l) / 2", &axis);
  CHECK(with.cells[0].Number(axis.name) == 1);
  CHECK(with.trials.size() == r.trials.size());
  // A cell that lacks a parameter of the axis (a CNN has no l) stands at the value the others
  // show at its n (l = 2 at n = 4 here), with its trials; one that reads none is left out.
  Results mixed = r;
  mixed.cells[0].params.erase("model.l");
  with = WithDerivedAxis(mixed, "n/l", &axis);
  CHECK(with.cells.size() == r.cells.size());
  CHECK(with.cells[0].Number(axis.name) == 2);
  CHECK(with.trials.size() == r.trials.size());
  mixed.cells[0].params.erase("data.n");
  with = WithDerivedAxis(mixed, "n/l", &axis);
  CHECK(with.cells.size() == r.cells.size() - 1);
  CHECK(with.trials.size() == r.trials.size() - 4);
}

TEST_CASE(
    "Over n/l at fixed n the CNN pairs with every l for the ratio, across a step cap set per "
    "model",
    "[analysis][exponent]") {
  // n = 64; separate pMoE's N* = 10 l, the CNN's 640: the ratio is n/l exactly (exponent 1).
  // The CNN has its own step cap ([model.cnn] max_steps), which names no design to pair by.
  Results r;
  Rng rng(5);
  auto add = [&](const std::string& kind, int l, double nstar) {
    std::map<std::string, std::string> params = {
        {"data.n", "64"},
        {"model.kind", kind},
        {"model.max_steps", kind == "cnn" ? "200000" : "50000"}};
    if (l > 0) params["model.l"] = std::to_string(l);
    test::AddLogisticCells(r, params, "", nstar, 3.0, 40, rng);
  };
  for (int l : {4, 8, 16, 32, 64}) add("separate", l, 10.0 * l);
  add("cnn", 0, 640);
  SampleComplexityOptions options;
  options.bootstrap = 200;
  const SampleComplexity sc = EstimateSampleComplexity(r, "n/l", options);
  REQUIRE(sc.series.size() == 2);
  for (const auto& series : sc.series) CHECK(series.points.size() == 5);  // n/l = 1..16
  const std::vector<Exponent> ratio = RatioExponents(sc, options, Reading::kSuccess);
  REQUIRE(ratio.size() == 1);
  CHECK(ratio[0].label == "cnn/separate");
  INFO("ratio exponent " << ratio[0].slope << " [" << ratio[0].lo << ", " << ratio[0].hi << "]");
  CHECK(ratio[0].lo < 1);
  CHECK(ratio[0].hi > 1);
  CHECK(std::abs(ratio[0].slope - 1) < 0.15);
}

TEST_CASE("Bad derived axes are refused naming what is wrong", "[analysis][exponent]") {
  using Catch::Matchers::Contains;
  const Results r = NOverLResults(kZipped, 20, 1.0, 4, 3);
  SampleComplexityOptions options;
  options.bootstrap = 10;
  CHECK_THROWS_WITH(EstimateSampleComplexity(r, "n/q", options),
                    Contains("q is not a parameter of these results") && Contains("data.n"));
  CHECK_THROWS_WITH(
      EstimateSampleComplexity(r, "n/", options),
      Contains("\"n/\": expected a number, a parameter name or \"(\" at character 3"));
  CHECK_THROWS_WITH(EstimateSampleComplexity(r, "n/kind", options),
                    Contains("model.kind is not a number"));
  // n/l = 4 twice in one series (16/4 and 32/8) would pool two designs: refused.
  const Results product = NOverLResults({{16, 4}, {32, 8}, {32, 4}}, 20, 1.0, 4, 3);
  CHECK_THROWS_WITH(EstimateSampleComplexity(product, "n/l", options),
                    Contains("holds two cells") && Contains("data.n=16, model.l=4") &&
                        Contains("data.n=32, model.l=8"));
}

}  // namespace pmoe

namespace pmoe {

TEST_CASE("A parameter that follows the axis names no series, and the CNN/pMoE ratio pairs",
          "[analysis][exponent]") {
  // f_ratio_n.ini: Lemma 4.1's router sample, 1.5625 n^2, moves with n. Naming separate pMoE's
  // series by it would leave one n per series, and no exponent or ratio over n.
  Results r;
  Rng rng(77);
  for (int n : {8, 16, 32, 64}) {
    const std::string samples = std::to_string(static_cast<int>(1.5625 * n * n));
    test::AddLogisticCells(r,
                           {{"data.n", std::to_string(n)},
                            {"model.kind", "separate"},
                            {"model.router_samples", samples}},
                           "data.n=" + std::to_string(n) + ", separate", 40, 3.0, 30, rng);
    test::AddLogisticCells(r, {{"data.n", std::to_string(n)}, {"model.kind", "cnn"}},
                           "data.n=" + std::to_string(n) + ", cnn", 40.0 * n / 8, 3.0, 30, rng);
  }
  SampleComplexityOptions options;
  options.bootstrap = 100;
  const SampleComplexity sc = EstimateSampleComplexity(r, "data.n", options);
  REQUIRE(sc.series.size() == 2);
  for (const Series& s : sc.series) {
    INFO(s.label);
    CHECK(s.label.find("router_samples") == std::string::npos);
    CHECK(s.points.size() == 4);
  }
  const std::vector<Exponent> e = RatioExponents(sc, options);
  REQUIRE(e.size() == 1);
  const auto ratio = e.begin();
  CHECK(ratio->label.rfind("cnn/separate", 0) == 0);
  CHECK(ratio->points == 4);
  CHECK(ratio->lo < 1.0);  // N*(CNN)/N*(separate) = n / 8: exponent 1
  CHECK(ratio->hi > 1.0);
}

}  // namespace pmoe
