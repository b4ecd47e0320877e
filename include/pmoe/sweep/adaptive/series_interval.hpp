// N* of one series and its 95 % interval as pmoe-analyze computes them (analysis/lib/
// sample_complexity.cpp, the success reading): a logistic fit of success on log N, and a
// bootstrap that resamples trial indices (the same draw for every N). Used by the adaptive search
// to stop on the interval the analysis will report, rather than on its own posterior.
#pragma once

#include <cstdint>
#include <vector>

namespace pmoe {

struct SeriesTrial {
  int index = 0;  // the trial index (its data stream): one bootstrap weight per index
  bool success = false;
};

struct SeriesCell {
  double N = 0;
  std::vector<SeriesTrial> trials;
};

struct SeriesInterval {
  // As the analysis gives them: +inf above the cells' largest N, -inf below the smallest, NaN
  // with fewer than two N tried.
  double estimate = 0, lo = 0, hi = 0;
  double RelativeWidth() const { return (hi - lo) / estimate; }  // inf or NaN when censored
};

// `cells` sorted by N, every candidate N (tried or not: their range bounds the estimate).
SeriesInterval BootstrapInterval(const std::vector<SeriesCell>& cells, double threshold,
                                 int bootstrap, uint64_t seed, double level = 0.95);

}  // namespace pmoe
