// Synthetic null scenarios and the loop that runs a precision target on them many times.
#include "pmoe/precision/precision_simulation.hpp"

#include <cmath>
#include <functional>
#include <map>
#include <optional>
#include <stdexcept>

#include "pmoe/core/rng.hpp"
#include "pmoe/stats/target_statistics.hpp"

namespace pmoe {
namespace {

struct Scenario {
  size_t cells = 0;
  TargetStatistic statistic;
  // The per-trial value of (run seed, cell, trial index).
  std::function<double(uint64_t, size_t, int)> outcome;
  std::vector<double> cost;  // per cell, per trial (empty: 1 each)
  double truth = 0;          // the statistic's true value: the threshold of the simulation
};

double Normal(uint64_t seed, size_t c, int t) {
  return Rng(CombineSeed(CombineSeed(seed, c), t)).Normal();
}

// Two models with the same mean accuracy curve over N (0.55 at the smallest N to 0.99), a
// trial's accuracy that plus 0.03 normal noise of its own: N_acc(model) / N_acc(baseline) = 1.
Scenario Share() {
  Scenario s;
  const std::vector<double> N = {25, 50, 100, 200, 400, 800};
  std::vector<CurveCell> cells;
  std::vector<double> mean;
  for (int side = 0; side < 2; ++side)
    for (double n : N) {
      cells.push_back({side, 1, n});
      mean.push_back(0.55 + 0.44 / (1 + std::exp(-2 * (std::log(n) - std::log(100)))));
    }
  s.cells = cells.size();
  s.statistic = NStarShare(cells, {CurveReading::kMeanAccuracy, 0.5, 0.9});
  s.truth = 1;
  s.outcome = [mean](uint64_t seed, size_t c, int t) {
    return mean[c] + 0.03 * Normal(seed, c, t);
  };
  return s;
}

double Uniform(uint64_t seed, uint64_t a, uint64_t b) {
  return Rng(CombineSeed(CombineSeed(seed, a), b)).Uniform();
}

// The x of the slope scenarios' cells.
const std::vector<double> kSlopeX = {1, 2, 4, 8, 16};

// A null: log-normal trials, the same in every cell, so the slope of log mean over log x is 0.
Scenario LogNormalSlope() {
  Scenario s;
  s.cells = kSlopeX.size();
  s.statistic = LogMeanSlope(kSlopeX);
  s.outcome = [](uint64_t seed, size_t c, int t) {
    return std::exp(Rng(CombineSeed(CombineSeed(seed, c), t)).Normal());
  };
  return s;
}

// A null: two cells of the same mean accuracy.
Scenario AccuracyDifference() {
  Scenario s;
  s.cells = 2;
  s.statistic = MeanDifference(1, 0);
  s.outcome = [](uint64_t seed, size_t c, int t) { return 0.8 + 0.05 * Normal(seed, c, t); };
  return s;
}

// A null: four cells of the same mean accuracy, the slope over their x 0.
Scenario AccuracySlope() {
  Scenario s;
  s.cells = 4;
  s.statistic = MeanSlope({1, 2, 4, 8});
  s.outcome = [](uint64_t seed, size_t c, int t) { return 0.8 + 0.05 * Normal(seed, c, t); };
  return s;
}

// Not a null: the log mean rises by 0.3 per unit of log x (true slope 0.3, so "above" is
// right); cells at x = 1 and 4 cost 50 times the others, uncorrelated with their leverage.
Scenario CostlySlope() {
  Scenario s;
  s.cells = kSlopeX.size();
  s.statistic = LogMeanSlope(kSlopeX);
  s.cost = {50, 1, 50, 1, 1};
  s.outcome = [x = kSlopeX](uint64_t seed, size_t c, int t) {
    return std::exp(0.3 * std::log(x[c]) + Rng(CombineSeed(CombineSeed(seed, c), t)).Normal());
  };
  return s;
}

// A null: Bernoulli(0.3) trials in every cell.
Scenario BernoulliSlope() {
  Scenario s;
  s.cells = kSlopeX.size();
  s.statistic = LogMeanSlope(kSlopeX);
  s.outcome = [](uint64_t seed, size_t c, int t) { return Uniform(seed, c, t) < 0.3 ? 1.0 : 0.0; };
  return s;
}

// Side a (CNN-like) has N* = 3 * 40 * axis^0.5, side b N* = 40 * axis^0.5; slope 4 in log N.
// Trial t of both sides at one (axis, N) shares its uniform: paired data, as in a sweep.
Scenario NStarRatio() {
  Scenario s;
  const std::vector<double> axis = {2, 4, 8}, N = {25, 50, 100, 200, 400, 800, 1600};
  std::vector<CurveCell> cells;
  std::vector<double> p;
  std::vector<size_t> pair;  // the (axis, N) index that pairs the two sides
  for (int side = 0; side < 2; ++side)
    for (size_t a = 0; a < axis.size(); ++a)
      for (size_t i = 0; i < N.size(); ++i) {
        cells.push_back({side, axis[a], N[i]});
        const double n_star = (side == 0 ? 3.0 : 1.0) * 40 * std::sqrt(axis[a]);
        p.push_back(1 / (1 + std::exp(-4 * (std::log(N[i]) - std::log(n_star)))));
        pair.push_back(a * N.size() + i);
      }
  s.cells = cells.size();
  s.statistic = NStarExponent(cells, {});
  s.outcome = [p, pair](uint64_t seed, size_t c, int t) {
    return Uniform(seed, pair[c], t) < p[c] ? 1.0 : 0.0;
  };
  return s;
}

Scenario Make(NullScenario scenario) {
  switch (scenario) {
    case NullScenario::kLogNormalSlope:
      return LogNormalSlope();
    case NullScenario::kAccuracyDifference:
      return AccuracyDifference();
    case NullScenario::kAccuracySlope:
      return AccuracySlope();
    case NullScenario::kShare:
      return Share();
    case NullScenario::kCostlySlope:
      return CostlySlope();
    case NullScenario::kBernoulliSlope:
      return BernoulliSlope();
    case NullScenario::kNStarRatio:
      return NStarRatio();
  }
  return {};
}

}  // namespace

const char* ScenarioName(NullScenario scenario) {
  switch (scenario) {
    case NullScenario::kLogNormalSlope:
      return "lognormal-slope";
    case NullScenario::kBernoulliSlope:
      return "bernoulli-slope";
    case NullScenario::kNStarRatio:
      return "nstar-ratio";
    case NullScenario::kAccuracyDifference:
      return "accuracy-difference";
    case NullScenario::kAccuracySlope:
      return "accuracy-slope";
    case NullScenario::kShare:
      return "share";
    case NullScenario::kCostlySlope:
      return "costly-slope";
  }
  return "?";
}

NullScenario ParseScenario(const std::string& name) {
  for (NullScenario s :
       {NullScenario::kLogNormalSlope, NullScenario::kBernoulliSlope, NullScenario::kNStarRatio,
        NullScenario::kAccuracyDifference, NullScenario::kAccuracySlope, NullScenario::kShare,
        NullScenario::kCostlySlope})
    if (name == ScenarioName(s)) return s;
  throw std::invalid_argument("unknown scenario \"" + name +
                              "\": expected lognormal-slope, bernoulli-slope, nstar-ratio, "
                              "accuracy-difference, accuracy-slope, share or costly-slope");
}

SimulationTally SimulateAtThreshold(NullScenario scenario, PrecisionSettings settings, int runs,
                                    uint64_t seed) {
  const Scenario s = Make(scenario);
  SimulationTally tally;
  settings.threshold = s.truth;
  const std::vector<double> cost = s.cost.empty() ? std::vector<double>(s.cells, 1.0) : s.cost;
  settings.cost = cost;
  for (int run = 0; run < runs; ++run) {
    const uint64_t run_seed = CombineSeed(seed, run);
    settings.seed = CombineSeed(run_seed, 0x626f6f74);
    PrecisionTarget target(s.cells, s.statistic, settings);
    // Every asked row is computed at once, as a sweep would before the next look.
    std::map<std::pair<size_t, int>, double> rows;
    auto held = [&](size_t c, int t) -> std::optional<double> {
      auto it = rows.find({c, t});
      if (it == rows.end()) return std::nullopt;
      return it->second;
    };
    for (auto work = target.Next(held); !work.empty(); work = target.Next(held))
      for (const WorkPair& w : work) rows[{w.cell, w.trial}] = s.outcome(run_seed, w.cell, w.trial);
    ++tally.runs;
    tally.above += target.verdict() == Verdict::kAbove;
    tally.below += target.verdict() == Verdict::kBelow;
    tally.undecided += target.verdict() == Verdict::kUndecided;
    tally.mean_trials += double(rows.size()) / runs;
    for (const auto& row : rows) tally.mean_cost += cost[row.first.first] / runs;
    if (target.verdict() == Verdict::kAbove || target.verdict() == Verdict::kBelow) {
      const size_t look = target.looks().size() - 1;
      if (tally.wrong_at.size() <= look) tally.wrong_at.resize(look + 1);
      ++tally.wrong_at[look];
    }
  }
  return tally;
}

}  // namespace pmoe
