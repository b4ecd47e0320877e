// Estimators that hold up (issue 39): N_acc from a monotone fit of mean accuracy, not its first
// crossing; bootstrap intervals widened for each estimate's own trial count, not the file's
// largest; and the l = n control, where the CNN/pMoE ratio must include 1.
#include <catch2/catch.hpp>
#include <cmath>

#include "pmoe/analysis/sample_complexity.hpp"
#include "pmoe/core/rng.hpp"
#include "pmoe/stats/stats.hpp"
#include "support/synthetic_results.hpp"

namespace pmoe {
namespace {

// One cell per (N, mean accuracy) with `trials` trials all at that accuracy (no noise: the
// crossing is then exact), none a success.
Results AccuracyCurve(const std::vector<std::pair<double, double>>& curve, int trials) {
  Results r;
  for (const auto& [N, accuracy] : curve) {
    CellRecord cell;
    cell.params = {{"N", std::to_string(static_cast<int>(N))}, {"model.kind", "separate"}};
    for (int t = 0; t < trials; ++t) {
      TrialRecord trial;
      trial.cell = r.cells.size();
      trial.trial = t;
      trial.test_acc = accuracy;
      r.trials.push_back(trial);
    }
    r.cells.push_back(cell);
  }
  return r;
}

double LogInterpolate(double N0, double a0, double N1, double a1, double target) {
  return std::exp(std::log(N0) + (target - a0) / (a1 - a0) * (std::log(N1) - std::log(N0)));
}

}  // namespace

TEST_CASE("N_acc comes from a monotone fit: a dip after the first crossing moves it",
          "[analysis][readings][estimators]") {
  SampleComplexityOptions options;
  options.bootstrap = 20;
  // Separate pMoE at n = 32 in the decade runs: 0.96 at N = 48, 0.87 at N = 96. The first
  // crossing of 0.95 would be between 24 and 48; the isotonic fit pools 48 and 96 at 0.915, so the
  // curve reaches 0.95 for good between 96 and 192.
  const Results dip =
      AccuracyCurve({{24, 0.90}, {48, 0.96}, {96, 0.87}, {192, 0.97}, {384, 0.98}}, 10);
  const NStar n = EstimateSampleComplexity(dip, "", options).Of(Reading::kMeanAccuracy)[0][0];
  CHECK(n.estimate == Approx(LogInterpolate(96, 0.915, 192, 0.97, 0.95)));
  CHECK(n.estimate > 96);
  // A monotone curve is read as before: interpolated in log N between the grid points.
  const Results rising =
      AccuracyCurve({{24, 0.90}, {48, 0.93}, {96, 0.96}, {192, 0.97}, {384, 0.98}}, 10);
  const NStar m = EstimateSampleComplexity(rising, "", options).Of(Reading::kMeanAccuracy)[0][0];
  CHECK(m.estimate == Approx(LogInterpolate(48, 0.93, 96, 0.96, 0.95)));
  // A curve that ends below the target after touching it never reached it for good.
  const Results falls = AccuracyCurve({{24, 0.90}, {48, 0.96}, {96, 0.90}}, 10);
  CHECK(EstimateSampleComplexity(falls, "", options).Of(Reading::kMeanAccuracy)[0][0].above_grid);
}

TEST_CASE("The isotonic fit pools adjacent violators, weighted", "[analysis][stats]") {
  using V = std::vector<double>;
  CHECK(IsotonicIncreasing(V{1, 3, 2, 4}, V{1, 1, 1, 1}) == V{1, 2.5, 2.5, 4});
  CHECK(IsotonicIncreasing(V{3, 1}, V{1, 3}) == V{1.5, 1.5});
  CHECK(IsotonicIncreasing(V{3, 2, 1}, V{1, 1, 1}) == V{2, 2, 2});  // pooled twice
  CHECK(IsotonicIncreasing(V{0.9, 0.96, 0.87, 0.97}, V{1, 1, 1, 1})[2] == Approx(0.915));
  CHECK(IsotonicIncreasing(V{}, V{}).empty());
}

TEST_CASE("Each estimate's interval widens for its own trials, not the file's largest index",
          "[analysis][estimators]") {
  // The decade runs: 40 trials of each CNN cell beside 1400 of a pMoE's.
  Results r;
  Rng rng(21);
  test::AddLogisticCells(r, {{"model.kind", "cnn"}}, "", 300, 2.5, 40, rng);
  test::AddLogisticCells(r, {{"model.kind", "separate"}}, "", 300, 2.5, 1400, rng);
  SampleComplexityOptions options;
  options.bootstrap = 100;
  options.deltas = {0.5};
  const SampleComplexity sc = EstimateSampleComplexity(r, "", options);
  const NStar& cnn = sc.Of(Reading::kSuccess)[0][0];
  const NStar& separate = sc.Of(Reading::kSuccess)[1][0];
  CHECK(cnn.trial_indices == 40);
  CHECK(separate.trial_indices == 1400);
  // The CNN's interval is its percentile interval widened as 40 trials' (a factor 1.04), which is
  // not what 1400 trials' widening (1.001) gives.
  const auto& replicates = sc.replicates[0][0][0];
  const Interval as40 = BootstrapInterval(cnn.estimate, replicates, 0.95, 40, true);
  const Interval as1400 = BootstrapInterval(cnn.estimate, replicates, 0.95, 1400, true);
  CHECK(cnn.lo == Approx(as40.lo).epsilon(1e-12));
  CHECK(cnn.hi == Approx(as40.hi).epsilon(1e-12));
  CHECK(as40.hi - as40.lo > 1.02 * (as1400.hi - as1400.lo));
  const Interval own =
      BootstrapInterval(separate.estimate, sc.replicates[0][1][0], 0.95, 1400, true);
  CHECK(separate.hi == Approx(own.hi).epsilon(1e-12));
  // The ratio is limited by its 40-trial side, and so is the widening of its interval.
  const Ratio ratio = ModelRatios(sc, options)[0];
  std::vector<double> ratio_replicates;
  for (size_t b = 0; b < replicates.size(); ++b)
    ratio_replicates.push_back(replicates[b] / sc.replicates[0][1][0][b]);
  CHECK(ratio.hi[0] ==
        Approx(BootstrapInterval(ratio.estimate[0], ratio_replicates, 0.95, 40, true).hi));
}

TEST_CASE("At l = n the CNN/pMoE ratio is checked to include 1", "[analysis][estimators]") {
  // n = 8: separate pMoE with l = 8 routes every patch, the CNN's architecture (same N*); with
  // l = 2 and 4 it needs less data.
  auto results = [](double n50_at_l8) {
    Results r;
    Rng rng(5);
    test::AddLogisticCells(r, {{"model.kind", "cnn"}, {"data.n", "8"}}, "", 300, 2.5, 60, rng);
    for (const auto& [l, n50] : {std::pair{2, 80.0}, {4, 150.0}, {8, n50_at_l8}})
      test::AddLogisticCells(
          r, {{"model.kind", "separate"}, {"data.n", "8"}, {"model.l", std::to_string(l)}}, "", n50,
          2.5, 60, rng);
    return r;
  };
  SampleComplexityOptions options;
  options.bootstrap = 200;
  const SampleComplexity same = EstimateSampleComplexity(results(300), "model.l", options);
  const std::vector<ControlCheck> controls = EqualPatchControls(same, options, 0);
  REQUIRE(controls.size() == 1);
  CHECK(controls[0].label == "cnn/separate");
  CHECK(controls[0].axis_value == 8);
  CHECK(controls[0].includes_one);
  // A pMoE that needs twice the CNN's data at l = n fails the control.
  const SampleComplexity off = EstimateSampleComplexity(results(600), "model.l", options);
  CHECK_FALSE(EqualPatchControls(off, options, 0)[0].includes_one);
}

}  // namespace pmoe
