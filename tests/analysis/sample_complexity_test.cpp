// The sample-complexity estimator on synthetic success data drawn from known logistic curves:
// it recovers N* and the exponent, and its intervals cover the truth in most repeats.
#include "pmoe/analysis/sample_complexity.hpp"

#include <catch2/catch.hpp>
#include <cmath>
#include <tuple>

#include "pmoe/core/rng.hpp"
#include "pmoe/stats/stats.hpp"
#include "support/synthetic_results.hpp"

namespace pmoe {
namespace {

// Cells over N = 25..6400 (x2) for each axis value x, with N*(x) = scale * x^exponent and
// P(success | N) = sigmoid(slope * log(N / N*)); `trials` Bernoulli draws per cell.
Results SyntheticResults(const std::vector<double>& axis, double scale, double exponent,
                         double slope, int trials, uint64_t seed) {
  Results r;
  Rng rng(seed);
  for (double x : axis) {
    test::AddLogisticCells(
        r, {{"model.l", std::to_string(static_cast<int>(x))}, {"model.kind", "separate"}}, "",
        scale * std::pow(x, exponent), slope, trials, rng);
  }
  return r;
}

}  // namespace

TEST_CASE("N* of a known logistic curve is recovered and covered by its interval",
          "[analysis][sample-complexity]") {
  SampleComplexityOptions options;
  options.bootstrap = 300;
  const double truth = 300;
  const int repeats = 40;
  int covered = 0;
  std::vector<double> log_errors;
  for (int rep = 0; rep < repeats; ++rep) {
    const Results r = SyntheticResults({1}, truth, 0, 2.5, 30, 100 + rep);
    options.seed = rep;
    const SampleComplexity sc = EstimateSampleComplexity(r, "", options);
    REQUIRE(sc.Of(Reading::kSuccess).size() == 1);
    const NStar& n = sc.Of(Reading::kSuccess)[0][0];
    CHECK_FALSE(n.Censored());
    log_errors.push_back(std::log(n.estimate / truth));
    covered += n.lo <= truth && truth <= n.hi;
  }
  const Moments m = MeanSd(log_errors);
  INFO("log(N*/truth): mean " << m.mean << " sd " << m.sd << "; covered " << covered << "/"
                              << repeats);
  CHECK(std::abs(m.mean) < 0.05);
  CHECK(m.sd < 0.15);
  CHECK(covered >= 0.85 * repeats);  // nominal 95 %
}

TEST_CASE("The exponent of N* against the axis is recovered with a covering interval",
          "[analysis][exponent]") {
  SampleComplexityOptions options;
  options.bootstrap = 200;
  const double truth = 1.5;
  const int repeats = 20;
  int covered = 0;
  std::vector<double> slopes;
  for (int rep = 0; rep < repeats; ++rep) {
    const Results r = SyntheticResults({1, 2, 3, 4, 6, 8}, 60, truth, 3.0, 25, 500 + rep);
    options.seed = rep;
    const SampleComplexity sc = EstimateSampleComplexity(r, "model.l", options);
    const std::vector<Exponent> e = FitExponents(sc, options);
    REQUIRE(e.size() == 1);
    CHECK(e[0].points == 6);
    CHECK(e[0].theory == 8);  // separate pMoE: l^8 (MODEL.md §9)
    slopes.push_back(e[0].slope);
    covered += e[0].lo <= truth && truth <= e[0].hi;
  }
  const Moments m = MeanSd(slopes);
  INFO("slope mean " << m.mean << " sd " << m.sd << "; covered " << covered << "/" << repeats);
  CHECK(std::abs(m.mean - truth) < 0.05);
  CHECK(covered >= 0.8 * repeats);
}

TEST_CASE("N* outside the N grid is flagged and left out of the exponent", "[analysis]") {
  SampleComplexityOptions options;
  options.bootstrap = 50;
  // N* = 5 (below the grid's 25) at x = 1, and 1e5 (above 6400) at x = 8.
  Results r = SyntheticResults({1, 2, 4, 8}, 5, 4.4, 3.0, 20, 7);
  const SampleComplexity sc = EstimateSampleComplexity(r, "model.l", options);
  CHECK(sc.Of(Reading::kSuccess)[0][0].below_grid);
  CHECK(sc.Of(Reading::kSuccess)[0][3].above_grid);
  CHECK_FALSE(sc.Of(Reading::kSuccess)[0][1].Censored());
  CHECK(FitExponents(sc, options)[0].points == 2);
}

TEST_CASE("Wilson intervals match hand-computed values", "[analysis][stats]") {
  const Interval half = WilsonInterval(10, 20);
  CHECK(half.lo == Approx(0.2993).margin(1e-4));
  CHECK(half.hi == Approx(0.7007).margin(1e-4));
  const Interval none = WilsonInterval(0, 20);
  CHECK(none.lo == 0);
  CHECK(none.hi == Approx(0.1611).margin(1e-4));
}

}  // namespace pmoe

namespace pmoe {

TEST_CASE("Small-sample intervals widen by t over z and keep the error rate at 3 trials",
          "[analysis][stats]") {
  // t(0.975, 2) = 4.302653, z = 1.959964: 2.195 times sqrt(3/2).
  CHECK(SmallSampleFactor(3, 0.95) == Approx(4.302653 / 1.959964 * std::sqrt(1.5)).epsilon(1e-6));
  CHECK(SmallSampleFactor(20, 0.95) == Approx(2.093024 / 1.959964 * std::sqrt(20.0 / 19)));
  CHECK(std::isinf(SmallSampleFactor(1, 0.95)));
  const Interval lin = Widened(1.0, 0.5, 2.0, 2.0, false);
  CHECK(lin.lo == 0.0);
  CHECK(lin.hi == 3.0);
  const Interval log = Widened(100, 50, 200, 2.0, true);  // x2 and /2 become x4 and /4
  CHECK(log.lo == Approx(25));
  CHECK(log.hi == Approx(400));
  CHECK(std::isinf(Widened(100, 50, INFINITY, 2.0, true).hi));  // a bound stays a bound
  // Under no effect, 3 paired trials: the percentile interval of the mean excludes 0 about a
  // quarter of the time, the widened one near 5 %.
  Rng rng(17);
  int plain = 0, widened = 0;
  const int runs = 2000;
  for (int r = 0; r < runs; ++r) {
    const double x[3] = {rng.Normal(), rng.Normal(), rng.Normal()};
    const double mean = (x[0] + x[1] + x[2]) / 3;
    std::vector<double> reps;
    for (int b = 0; b < 200; ++b) {
      double sum = 0;
      for (int t = 0; t < 3; ++t) sum += x[rng.Below(3)];
      reps.push_back(sum / 3);
    }
    const double lo = Percentile(reps, 0.025), hi = Percentile(reps, 0.975);
    plain += lo > 0 || hi < 0;
    const Interval w = Widened(mean, lo, hi, SmallSampleFactor(3, 0.95), false);
    widened += w.lo > 0 || w.hi < 0;
  }
  INFO("plain " << plain << ", widened " << widened << " of " << runs);
  CHECK(plain > 0.18 * runs);
  CHECK(widened < 0.08 * runs);
}

TEST_CASE("CNN pairs with every pMoE of the same design whatever their own parameters",
          "[analysis][ratios]") {
  // Three models on one data design; separate and joint differ in k and l, which the CNN does
  // not read: both ratios must be found, and the CNN's series must not be named by k or l.
  Results r;
  Rng rng(3);
  const std::vector<std::tuple<std::string, std::string, std::string, double>> models = {
      {"separate", "2", "4", 50}, {"joint", "8", "6", 80}, {"cnn", "2", "4", 200}};
  for (const auto& [kind, k, l, nstar] : models)
    for (double N = 25; N <= 1600; N *= 2) {
      CellRecord cell;
      // As a result file's keys hold them: a cell has the parameters its families read, so
      // the CNN's cells have no k or l (the analysis learns what each kind reads from them).
      cell.params = {{"N", std::to_string(static_cast<int>(N))}, {"model.kind", kind}};
      if (kind != "cnn") cell.params.insert({{"model.k", k}, {"model.l", l}});
      for (int t = 0; t < 20; ++t) {
        TrialRecord trial;
        trial.cell = r.cells.size();
        trial.trial = t;
        trial.success = rng.Uniform() < 1 / (1 + std::pow(nstar / N, 3.0));
        r.trials.push_back(trial);
      }
      r.cells.push_back(cell);
    }
  SampleComplexityOptions options;
  options.bootstrap = 100;
  const SampleComplexity sc = EstimateSampleComplexity(r, "", options);
  CHECK(sc.series[2].label == "model.kind=cnn");
  const std::vector<Ratio> ratios = ModelRatios(sc, options);
  REQUIRE(ratios.size() == 2);
  CHECK(ratios[0].label == "cnn/separate");
  CHECK(ratios[1].label == "cnn/joint");
  CHECK(ratios[0].estimate[0] == Approx(4.0).epsilon(0.35));
  CHECK(ratios[1].estimate[0] == Approx(2.5).epsilon(0.35));
}

}  // namespace pmoe
