// The paired bootstrap interval of a target statistic over one fixed sample.
#include "pmoe/stats/paired_bootstrap.hpp"

#include <algorithm>

#include "pmoe/core/rng.hpp"

namespace pmoe {

DecisionInterval PairedBootstrapInterval(const TargetStatistic& statistic,
                                         const std::vector<CellSample>& samples,
                                         const BootstrapSettings& settings) {
  size_t indices = 0, fewest = samples.empty() ? 0 : samples.front().values.size();
  for (const CellSample& s : samples) {
    indices = std::max(indices, s.values.size());
    fewest = std::min(fewest, s.values.size());
  }
  std::vector<CellSample> sample = samples;
  for (CellSample& s : sample) s.weights.assign(s.values.size(), 1);
  const double estimate = statistic(sample);
  Rng rng(CombineSeed(settings.stream, 0));
  std::vector<int> count(indices);
  std::vector<double> replicates;
  for (int r = 0; r < settings.replicates; ++r) {
    std::fill(count.begin(), count.end(), 0);
    for (size_t t = 0; t < indices; ++t) ++count[rng.Below(static_cast<uint32_t>(indices))];
    for (CellSample& s : sample)
      std::copy(count.begin(), count.begin() + s.values.size(), s.weights.begin());
    replicates.push_back(statistic(sample));
  }
  const double df = settings.widen ? static_cast<double>(fewest) - 1 : 0;
  return RobustInterval(estimate, replicates, settings.alpha, df);
}

}  // namespace pmoe
