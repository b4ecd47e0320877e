// The realized statistics of MODEL.md §2 as metrics (data models A and B record the same).
#include "pmoe/data/data_source.hpp"

namespace pmoe {

std::vector<MetricInfo> RealizedStatsMetrics() {
  using T = ColumnType;
  return {
      {"realized_delta_d", T::kF64, "realized <o1, o2>"},
      {"realized_delta_r", T::kF64, "realized max |<o_a, q>| over irrelevant patches"},
      {"realized_l_star", T::kI32, "1 + most delta'-closer patches in a sample"},
      {"realized_delta", T::kF64, "1 / (1 - max(delta_d, delta_r))"},
      {"confusers_outrank", T::kU8, "every delta'-closer patch outranks o1/o2"},
      {"realized_l_star_pair", T::kI32, "realized l* of one trained class pair", false,
       PerClass::kPair},
  };
}

void RecordRealizedStats(const RealizedStats& stats, Metrics& metrics) {
  metrics.Set("realized_delta_d", stats.delta_d);
  metrics.Set("realized_delta_r", stats.delta_r);
  metrics.Set("realized_l_star", stats.l_star);
  metrics.Set("realized_delta", stats.delta);
  metrics.Set("confusers_outrank", stats.confusers_outrank);
  if (stats.classes > 2)  // binary files have no per-pair columns (metrics.hpp)
    for (size_t q = 0; q < stats.pair_l_star.size(); ++q)
      metrics.Set(PerClassName("realized_l_star_pair", static_cast<int>(q)), stats.pair_l_star[q]);
}

}  // namespace pmoe
