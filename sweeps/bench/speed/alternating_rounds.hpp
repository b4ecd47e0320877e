// Timings that survive a noisy machine: every round times each cell once, in turn, so that a
// slow minute (another job, a lower clock) falls on all cells alike rather than on one; rounds
// repeat until the medians are stable or the budget is spent. Header-only, so that the rule is
// tested without the benchmark (tests/bench/alternating_rounds_test.cpp).
#pragma once

#include <algorithm>
#include <cmath>
#include <vector>

namespace pmoe {

inline double MedianOf(std::vector<double> v) {
  if (v.empty()) return NAN;
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

// The rule: the median of the even rounds and the median of the odd rounds (two interleaved
// halves, each as exposed to the machine's moods as the other) differ by at most `tolerance` of
// the median of all, with at least `min_rounds` rounds (and never fewer than 4: two per half).
// Two halves that disagree say that the figure would move if measured again.
struct StabilityRule {
  int min_rounds = 5;
  double tolerance = 0.03;
};

inline double HalvesDisagreement(const std::vector<double>& samples) {
  std::vector<double> even, odd;
  for (size_t r = 0; r < samples.size(); ++r) (r % 2 ? odd : even).push_back(samples[r]);
  const double all = MedianOf(samples);
  if (even.empty() || odd.empty() || !(all > 0)) return INFINITY;
  return std::fabs(MedianOf(even) - MedianOf(odd)) / all;
}

inline bool IsStable(const std::vector<double>& samples, const StabilityRule& rule) {
  return static_cast<int>(samples.size()) >= std::max(rule.min_rounds, 4) &&
         HalvesDisagreement(samples) <= rule.tolerance;
}

// The spread of a cell's rounds: (max - min) / median.
inline double RelativeRange(const std::vector<double>& samples) {
  if (samples.empty()) return NAN;
  const auto [lo, hi] = std::minmax_element(samples.begin(), samples.end());
  return (*hi - *lo) / MedianOf(samples);
}

}  // namespace pmoe
