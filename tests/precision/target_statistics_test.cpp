// The precision targets' sample-complexity exponent agrees with pmoe-analyze's on the same rows
// (both readings, a mean-accuracy curve with a dip too), and gives no number when an N* leaves its
// grid.
#include "pmoe/stats/target_statistics.hpp"

#include <catch2/catch.hpp>
#include <cmath>

#include "pmoe/analysis/sample_complexity.hpp"
#include "pmoe/core/rng.hpp"

namespace pmoe {
namespace {

// CNN and separate cells over data.n = 2, 4, 8 and N = 25..3200, N*(cnn) = 30 n, N*(sep) = 20 n^0.5
// (ratio exponent 0.5); success and test accuracy drawn per trial. Also the same rows as samples.
struct Synthetic {
  Results results;
  std::vector<CurveCell> cells;
  std::vector<CellSample> success, accuracy;
};

Synthetic Make(int trials, uint64_t seed) {
  Synthetic s;
  Rng rng(seed);
  for (const char* kind : {"cnn", "separate"})
    for (int n : {2, 4, 8})
      for (double N = 25; N <= 3200; N *= 2) {
        const bool cnn = std::string(kind) == "cnn";
        const double n_star = cnn ? 30.0 * n : 20.0 * std::sqrt(n);
        const double p = 1 / (1 + std::exp(-3 * std::log(N / n_star)));
        CellRecord cell;
        cell.params = {
            {"N", std::to_string(int(N))}, {"data.n", std::to_string(n)}, {"model.kind", kind}};
        CellSample ok, acc;
        for (int t = 0; t < trials; ++t) {
          TrialRecord row;
          row.cell = s.results.cells.size();
          row.trial = t;
          row.success = rng.Uniform() < p;
          row.test_acc = 0.5 + 0.5 * p + 0.02 * rng.Normal();
          s.results.trials.push_back(row);
          ok.values.push_back(row.success);
          acc.values.push_back(row.test_acc);
        }
        ok.weights.assign(trials, 1);
        acc.weights.assign(trials, 1);
        s.results.cells.push_back(cell);
        s.cells.push_back({cnn ? 0 : 1, double(n), N});
        s.success.push_back(ok);
        s.accuracy.push_back(acc);
      }
  return s;
}

}  // namespace

TEST_CASE("The N* ratio exponent equals pmoe-analyze's on the same rows, both readings",
          "[precision]") {
  const Synthetic s = Make(30, 4);
  SampleComplexityOptions o;
  o.bootstrap = 20;
  const SampleComplexity sc = EstimateSampleComplexity(s.results, "data.n", o);
  const auto success = RatioExponents(sc, o, Reading::kSuccess);
  const auto accuracy = RatioExponents(sc, o, Reading::kMeanAccuracy);
  REQUIRE(success.size() == 1);
  REQUIRE(success[0].points == 3);
  REQUIRE(accuracy[0].points == 3);
  CurveSettings cs;
  CHECK(NStarExponent(s.cells, cs)(s.success) == Approx(success[0].slope).epsilon(1e-9));
  CHECK(success[0].slope == Approx(0.5).margin(0.25));
  cs.reading = CurveReading::kMeanAccuracy;
  CHECK(NStarExponent(s.cells, cs)(s.accuracy) == Approx(accuracy[0].slope).epsilon(1e-9));

  // A dip after the first crossing (separate pMoE at n = 8 falls to 0.85 at N = 400, cell 44):
  // pmoe-analyze's monotone fit pools the dip, and so does the precision target (one N_acc for
  // both since numerics version 8): both exponents move, and by the same amount.
  Synthetic dip = Make(30, 4);
  for (TrialRecord& row : dip.results.trials)
    if (row.cell == 44) row.test_acc = 0.85;
  std::fill(dip.accuracy[44].values.begin(), dip.accuracy[44].values.end(), 0.85);
  const SampleComplexity dipped = EstimateSampleComplexity(dip.results, "data.n", o);
  const double dip_slope = RatioExponents(dipped, o, Reading::kMeanAccuracy)[0].slope;
  CHECK(std::abs(dip_slope - accuracy[0].slope) > 0.05);
  CHECK(NStarExponent(dip.cells, cs)(dip.accuracy) == Approx(dip_slope).epsilon(1e-9));

  // One side alone: the exponent of the CNN's N* (about 1).
  std::vector<CurveCell> cnn(s.cells.begin(), s.cells.begin() + 24);
  std::vector<CellSample> cnn_rows(s.success.begin(), s.success.begin() + 24);
  CHECK(NStarExponent(cnn, {})(cnn_rows) == Approx(1.0).margin(0.2));
}

TEST_CASE("An N* outside its grid gives no exponent, and bad layouts are refused", "[precision]") {
  Synthetic s = Make(20, 5);
  // Every trial of the CNN at n = 8 fails: its N* lies above the grid.
  for (size_t c = 16; c < 24; ++c)
    std::fill(s.success[c].values.begin(), s.success[c].values.end(), 0);
  CHECK(std::isnan(NStarExponent(s.cells, {})(s.success)));
  CHECK_THROWS_WITH(NStarExponent({{0, 2, 25}, {0, 2, 50}}, {}),
                    Catch::Contains("at least two axis values"));
  CHECK_THROWS_WITH(NStarExponent({{0, 2, 25}, {0, 4, 50}}, {}), Catch::Contains("two N values"));
}

}  // namespace pmoe
