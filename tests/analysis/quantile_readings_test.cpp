// The quantile readings of sample complexity (issue 39): the N where the success probability
// reaches 1 - delta, checked on success curves whose quantiles are known, at the recorded success
// and at success recomputed for another epsilon.
#include <catch2/catch.hpp>
#include <cmath>

#include "pmoe/analysis/sample_complexity.hpp"
#include "pmoe/core/rng.hpp"
#include "pmoe/stats/stats.hpp"
#include "support/synthetic_results.hpp"

namespace pmoe {
namespace {

// The reading of `sc` named `name`; fails the test when there is none.
size_t ReadingIndex(const SampleComplexity& sc, const std::string& name) {
  for (size_t r = 0; r < sc.readings.size(); ++r)
    if (sc.readings[r].name == name) return r;
  FAIL("no reading " << name);
  return 0;
}

// P(success | N) = sigmoid(slope log(N / N50)) reaches 1 - delta at N50 exp(logit(1 - delta) /
// slope).
double TrueQuantile(double n50, double slope, double delta) {
  return n50 * std::exp(std::log((1 - delta) / delta) / slope);
}

// Cells over N = 25..6400 (x2) whose trials reach test accuracy 0.99 with probability
// sigmoid(3 log(N / 400)), else 0.92 up to sigmoid(3 log(N / 100)), else 0.85: success at
// epsilon = 0.05 (recorded) has its median at N = 400, at epsilon = 0.1 at N = 100.
Results TwoEpsilonResults(uint64_t seed) {
  Results r;
  Rng rng(seed);
  auto sigmoid = [](double N, double n50) { return 1 / (1 + std::pow(n50 / N, 3.0)); };
  for (double N = 25; N <= 6400; N *= 2) {
    CellRecord cell;
    cell.params = {{"N", std::to_string(static_cast<int>(N))}, {"model.kind", "separate"}};
    for (int t = 0; t < 40; ++t) {
      TrialRecord trial;
      trial.cell = r.cells.size();
      trial.trial = t;
      const double u = rng.Uniform();
      trial.test_acc = u < sigmoid(N, 400) ? 0.99 : u < sigmoid(N, 100) ? 0.92 : 0.85;
      trial.success = trial.test_acc >= 0.95;
      r.trials.push_back(trial);
    }
    r.cells.push_back(cell);
  }
  return r;
}

}  // namespace

TEST_CASE("Each quantile reading recovers its point of a known logistic success curve",
          "[analysis][readings][quantiles]") {
  SampleComplexityOptions options;
  options.bootstrap = 200;
  const double n50 = 200, slope = 2.5;
  const int repeats = 20;
  int covered_90 = 0;
  std::vector<double> log_errors_90, log_errors_95;
  for (int rep = 0; rep < repeats; ++rep) {
    Results r;
    Rng rng(700 + rep);
    test::AddLogisticCells(r, {{"model.kind", "separate"}}, "", n50, slope, 60, rng);
    options.seed = rep;
    const SampleComplexity sc = EstimateSampleComplexity(r, "", options);
    // The default readings: the threshold's (delta = 0.5), N_acc, then delta = 0.2, 0.1, 0.05.
    REQUIRE(sc.readings.size() == 5);
    CHECK(sc.readings[0].name == "success");
    const NStar& median = sc.estimates[0][0][0];
    CHECK(median.estimate == Approx(n50).epsilon(0.25));
    const NStar& at90 = sc.estimates[ReadingIndex(sc, "success@0.9")][0][0];
    const double truth_90 = TrueQuantile(n50, slope, 0.1);  // 482
    CHECK_FALSE(at90.Censored());
    log_errors_90.push_back(std::log(at90.estimate / truth_90));
    covered_90 += at90.lo <= truth_90 && truth_90 <= at90.hi;
    const NStar& at95 = sc.estimates[ReadingIndex(sc, "success@0.95")][0][0];
    log_errors_95.push_back(std::log(at95.estimate / TrueQuantile(n50, slope, 0.05)));
    // The readings are ordered as their probabilities: a higher one needs more data.
    CHECK(median.estimate < sc.estimates[ReadingIndex(sc, "success@0.8")][0][0].estimate);
    CHECK(at90.estimate < at95.estimate);
  }
  const Moments m90 = MeanSd(log_errors_90), m95 = MeanSd(log_errors_95);
  INFO("log(N_0.9/truth) mean " << m90.mean << " sd " << m90.sd << ", covered " << covered_90 << "/"
                                << repeats << "; log(N_0.95/truth) mean " << m95.mean);
  CHECK(std::abs(m90.mean) < 0.1);
  CHECK(std::abs(m95.mean) < 0.15);
  CHECK(covered_90 >= 0.85 * repeats);  // nominal 95 %
}

TEST_CASE("A quantile beyond the N grid is a bound, and --delta chooses the readings",
          "[analysis][readings][quantiles]") {
  // N50 = 2000, slope 1.5: the 0.95 point is 2000 * 19^(1/1.5) = 14200, past the grid's 6400.
  Results r;
  Rng rng(3);
  test::AddLogisticCells(r, {{"model.kind", "separate"}}, "", 2000, 1.5, 40, rng);
  SampleComplexityOptions options;
  options.bootstrap = 100;
  options.deltas = {0.05, 0.5};
  const SampleComplexity sc = EstimateSampleComplexity(r, "", options);
  REQUIRE(sc.readings.size() == 3);  // success (delta 0.5 is the threshold's), N_acc, 0.95
  CHECK(sc.readings[2].name == "success@0.95");
  CHECK(sc.readings[2].delta == Approx(0.05));
  const NStar& at95 = sc.estimates[2][0][0];
  CHECK(at95.above_grid);
  CHECK(at95.estimate == INFINITY);
  CHECK_FALSE(sc.estimates[0][0][0].Censored());
  // A threshold other than 0.5 makes delta = 0.5 a reading of its own.
  options.threshold = 0.6;
  CHECK(MakeReadings(options).size() == 4);
}

TEST_CASE("Success read at another epsilon is recomputed from test accuracy",
          "[analysis][readings][quantiles]") {
  SampleComplexityOptions options;
  options.bootstrap = 100;
  options.deltas = {0.5};
  options.epsilons = {0.1};
  const SampleComplexity sc = EstimateSampleComplexity(TwoEpsilonResults(11), "", options);
  const size_t loose = ReadingIndex(sc, "success@0.5,eps=0.1");
  CHECK(sc.readings[loose].epsilon == 0.1);
  // The recorded success (accuracy >= 0.95) has its median at 400; >= 0.9 at 100.
  CHECK(sc.estimates[0][0][0].estimate == Approx(400).epsilon(0.3));
  CHECK(sc.estimates[loose][0][0].estimate == Approx(100).epsilon(0.3));
}

}  // namespace pmoe
