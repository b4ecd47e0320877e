// The answers a theorist reads: the mean-accuracy reading of sample complexity recovered where the
// crossing is known, bounds (never extrapolated numbers) outside the grid and for censored ratios,
// and the flag on estimates whose nearby trials did not reach zero training error.
#include <catch2/catch.hpp>
#include <cmath>
#include <functional>

#include "pmoe/analysis/sample_complexity.hpp"
#include "pmoe/core/rng.hpp"

namespace pmoe {
namespace {

constexpr double kInf = INFINITY;

struct SyntheticModel {
  std::string kind;
  std::function<double(double)> mean_accuracy;  // of N
  std::function<double(double)> success_probability;
  std::function<double(double)> converged_probability;
};

// Cells over N = 25..3200 (x2), 30 trials each; a trial's accuracy is the model's mean plus
// uniform noise of half-width 0.02, clipped to [0, 1].
Results Synthetic(const std::vector<SyntheticModel>& models, uint64_t seed) {
  Results r;
  Rng rng(seed);
  for (const SyntheticModel& m : models)
    for (double N = 25; N <= 3200; N *= 2) {
      CellRecord cell;
      cell.params = {{"N", std::to_string(static_cast<int>(N))}, {"model.kind", m.kind}};
      for (int t = 0; t < 30; ++t) {
        TrialRecord trial;
        trial.cell = r.cells.size();
        trial.trial = t;
        trial.test_acc = std::clamp(m.mean_accuracy(N) + 0.04 * (rng.Uniform() - 0.5), 0.0, 1.0);
        trial.success = rng.Uniform() < m.success_probability(N);
        trial.zero_train_error = rng.Uniform() < m.converged_probability(N);
        r.trials.push_back(trial);
      }
      r.cells.push_back(cell);
    }
  return r;
}

double Logistic(double N, double nstar) { return 1 / (1 + std::pow(nstar / N, 3.0)); }

}  // namespace

TEST_CASE("The N where mean accuracy reaches 1 - epsilon is recovered with a covering interval",
          "[analysis][readings]") {
  // Mean accuracy linear in log2 N: 0.72 at N = 25, +0.05 per doubling, so 0.95 at
  // N = 25 * 2^4.6 = 606, between the grid's 400 and 800 (where no trial is clipped at 1):
  // interpolation in log N is exact there.
  const double truth = 25 * std::pow(2.0, 4.6);
  SyntheticModel m{"separate", [](double N) { return 0.72 + 0.05 * std::log2(N / 25); },
                   [](double N) { return Logistic(N, 150); }, [](double) { return 1.0; }};
  SampleComplexityOptions options;
  options.bootstrap = 300;
  int covered = 0;
  for (int rep = 0; rep < 20; ++rep) {
    options.seed = rep;
    const SampleComplexity sc = EstimateSampleComplexity(Synthetic({m}, 40 + rep), "", options);
    const NStar& n = sc.Of(Reading::kMeanAccuracy)[0][0];
    CHECK_FALSE(n.Censored());
    CHECK(n.estimate == Approx(truth).epsilon(0.08));
    covered += n.lo <= truth && truth <= n.hi;
    // The other reading from the same trials: the success curve's own N*.
    CHECK(sc.Of(Reading::kSuccess)[0][0].estimate == Approx(150).epsilon(0.25));
  }
  CHECK(covered >= 16);
}

TEST_CASE("Estimates outside the N grid are bounds, and so are ratios with a censored side",
          "[analysis][readings]") {
  // The CNN never reaches the target within N <= 3200; separate pMoE does inside the grid; joint
  // pMoE is past it already at N = 25.
  const std::vector<SyntheticModel> models = {
      {"cnn", [](double) { return 0.8; }, [](double) { return 0.0; }, [](double) { return 1.0; }},
      {"separate", [](double N) { return 0.6 + 0.1 * std::log2(N / 25); },
       [](double N) { return Logistic(N, 150); }, [](double) { return 1.0; }},
      {"joint", [](double) { return 0.99; }, [](double) { return 1.0; },
       [](double) { return 1.0; }}};
  SampleComplexityOptions options;
  options.bootstrap = 100;
  const SampleComplexity sc = EstimateSampleComplexity(Synthetic(models, 5), "", options);
  for (Reading reading : {Reading::kSuccess, Reading::kMeanAccuracy}) {
    INFO(ReadingName(reading));
    const auto& e = sc.Of(reading);
    REQUIRE(e.size() == 3);
    CHECK(e[0][0].above_grid);
    CHECK(e[0][0].estimate == kInf);  // a bound: no number past the grid
    CHECK(e[0][0].hi == kInf);
    CHECK(e[2][0].below_grid);
    CHECK(e[2][0].estimate == -kInf);
    const std::vector<Ratio> ratios = ModelRatios(sc, options, reading);
    REQUIRE(ratios.size() == 2);
    // CNN above its grid, separate inside: the ratio is at least 3200 / N*(separate).
    CHECK(ratios[0].label == "cnn/separate");
    CHECK(ratios[0].censored[0]);
    CHECK(std::isnan(ratios[0].estimate[0]));
    CHECK(std::isnan(ratios[0].lo[0]));
    const double separate = e[1][0].estimate;
    char expected[32];
    std::snprintf(expected, sizeof expected, "> %.3g", 3200 / separate);
    CHECK(ratios[0].bound[0] == expected);
    // CNN above, joint below: the ratio exceeds 3200 / 25.
    CHECK(ratios[1].bound[0] == "> 128");
    CHECK(RatioExponents(sc, options, reading)[0].points == 0);
  }
  // Both sides above their grids: nothing is known.
  const std::vector<SyntheticModel> both_above = {
      models[0],
      {"separate", models[0].mean_accuracy, models[0].success_probability,
       models[0].converged_probability}};
  const SampleComplexity none = EstimateSampleComplexity(Synthetic(both_above, 6), "", options);
  CHECK(ModelRatios(none, options)[0].bound[0] == "n/a");
}

TEST_CASE("Estimates whose nearby trials did not converge are flagged", "[analysis][readings]") {
  // Trials below N = 300 rarely reach zero training error; N* = 150 sits among them. A second
  // model with N* = 1000 has converged trials around its estimate.
  const std::vector<SyntheticModel> models = {
      {"separate", [](double N) { return 0.6 + 0.1 * std::log2(N / 25); },
       [](double N) { return Logistic(N, 150); }, [](double N) { return N < 300 ? 0.2 : 1.0; }},
      {"joint", [](double N) { return N >= 800 ? 0.97 : 0.9; },
       [](double N) { return Logistic(N, 1000); }, [](double N) { return N < 300 ? 0.2 : 1.0; }}};
  SampleComplexityOptions options;
  options.bootstrap = 50;
  const SampleComplexity sc = EstimateSampleComplexity(Synthetic(models, 9), "", options);
  const NStar& low = sc.Of(Reading::kSuccess)[0][0];
  CHECK(low.converged_near < 0.4);
  CHECK(low.low_convergence);
  const NStar& high = sc.Of(Reading::kSuccess)[1][0];
  CHECK(high.converged_near == 1.0);
  CHECK_FALSE(high.low_convergence);
  CHECK_FALSE(sc.Of(Reading::kMeanAccuracy)[1][0].low_convergence);
  // A ratio carries the flag of either side.
  options.min_converged = 0.1;
  const SampleComplexity lenient = EstimateSampleComplexity(Synthetic(models, 9), "", options);
  CHECK_FALSE(lenient.Of(Reading::kSuccess)[0][0].low_convergence);
}

TEST_CASE("A non-numeric axis is refused by name", "[analysis][readings]") {
  const std::vector<SyntheticModel> models = {
      {"cnn", [](double) { return 0.8; }, [](double N) { return Logistic(N, 300); },
       [](double) { return 1.0; }},
      {"separate", [](double) { return 0.8; }, [](double N) { return Logistic(N, 100); },
       [](double) { return 1.0; }}};
  SampleComplexityOptions options;
  options.bootstrap = 10;
  CHECK_THROWS_WITH(EstimateSampleComplexity(Synthetic(models, 1), "model.kind", options),
                    Catch::Matchers::Contains("model.kind is not a numeric axis") &&
                        Catch::Matchers::Contains("\"cnn\""));
}

}  // namespace pmoe
