// The same rules as SuccessCrossing, AsBound and the bootstrap loop of
// EstimateSampleComplexity, for one series alone.
#include "pmoe/sweep/adaptive/series_interval.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "pmoe/core/rng.hpp"
#include "pmoe/stats/logistic_fit.hpp"
#include "pmoe/stats/stats.hpp"

namespace pmoe {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

double Crossing(const std::vector<SeriesCell>& cells, const std::vector<int>& weight,
                double threshold) {
  std::vector<SuccessPoint> points;
  for (const SeriesCell& cell : cells) {
    SuccessPoint p{cell.N, 0, 0};
    for (const SeriesTrial& t : cell.trials) {
      p.trials += weight[t.index];
      p.successes += weight[t.index] * t.success;
    }
    if (p.trials > 0) points.push_back(p);
  }
  if (points.size() < 2) return NAN;
  const LogisticCurve curve = FitLogistic(points);
  double crossing = 0;
  if (!(curve.b > 0))
    crossing = curve.Probability(points.front().N) >= threshold ? -kInf : kInf;
  else
    crossing = curve.Crossing(threshold);
  if (crossing > cells.back().N) return kInf;
  if (crossing < cells.front().N) return -kInf;
  return crossing;
}

}  // namespace

SeriesInterval BootstrapInterval(const std::vector<SeriesCell>& cells, double threshold,
                                 int bootstrap, uint64_t seed, double level) {
  SeriesInterval out;
  size_t trials = 0;
  for (const SeriesCell& cell : cells)
    for (const SeriesTrial& t : cell.trials) trials = std::max(trials, size_t(t.index) + 1);
  std::vector<int> weight(trials, 1);
  out.estimate = Crossing(cells, weight, threshold);
  Rng rng(CombineSeed(seed, 0x626f6f74));
  std::vector<double> replicates;
  for (int r = 0; r < bootstrap && trials > 0; ++r) {
    std::fill(weight.begin(), weight.end(), 0);
    for (size_t t = 0; t < trials; ++t) ++weight[rng.Below(static_cast<uint32_t>(trials))];
    const double c = Crossing(cells, weight, threshold);
    if (!std::isnan(c)) replicates.push_back(c);
  }
  out.lo = Percentile(replicates, (1 - level) / 2);
  out.hi = Percentile(replicates, 1 - (1 - level) / 2);
  return out;
}

}  // namespace pmoe
