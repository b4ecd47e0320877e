// Realized statistics of data model A (MODEL.md §2), measured on the float data the models see.
#include <algorithm>
#include <cmath>

#include "pmoe/data/class_pairs.hpp"
#include "pmoe/data/pattern_model.hpp"

namespace pmoe {
namespace {

// Cosine of the class means of the discriminative patches, the largest over class pairs:
// delta_d when there is no noise. A class that is missing from the data counts by its pattern.
double RealizedDeltaD(const Dataset& a, const Dataset& b, const std::vector<Vecd>& o) {
  const int c = static_cast<int>(o.size());
  std::vector<Vecd> sums(c, Vecd::Zero(o[0].size()));
  for (const Dataset* set : {&a, &b}) {
    for (int i = 0; i < set->size(); ++i) {
      const auto patch = set->x.row(static_cast<Eigen::Index>(i) * set->n + set->disc_pos[i]);
      sums[set->label[i]] += patch.cast<double>().transpose();
    }
  }
  double largest = -INFINITY;
  for (int i = 0; i < c; ++i)
    for (int j = i + 1; j < c; ++j) {
      if (sums[i].isZero() || sums[j].isZero())  // a class is missing: the patterns themselves
        largest = std::max(largest, o[i].cast<float>().cast<double>().normalized().dot(
                                        o[j].cast<float>().cast<double>().normalized()));
      else
        largest = std::max(largest, sums[i].normalized().dot(sums[j].normalized()));
    }
  return largest;
}

}  // namespace

RealizedStats PatternModel::Measure(const Dataset& train, const Dataset& test) const {
  RealizedStats stats;
  const int c = plan_.classes;
  stats.classes = c;
  const auto pairs = RouterPairs(c);
  stats.delta_d = RealizedDeltaD(train, test, o_);
  const double outrank_bar = 1.0 - plan_.spec.delta_d;  // <o_i - o_j, o_i>: o_i's own score
  double weakest_closer = INFINITY;
  int most_closer = 0;
  std::vector<int> most_per_pair(pairs.size(), 0);
  for (const Dataset* set : {&train, &test}) {
    // <o_a, q> of every patch: recorded by Draw, or one product (N*n, d) x (d, c).
    RowMatf computed;
    const bool recorded =
        set->pattern_scores.rows() == set->x.rows() && set->pattern_scores.cols() == c;
    if (!recorded) computed = set->x * patterns_f_;
    const RowMatf& scores = recorded ? set->pattern_scores : computed;
    // Selects instead of branches: whether a patch is closer is a coin flip to the predictor.
    double largest = 0, weakest = INFINITY;
    for (int i = 0; i < set->size(); ++i) {
      const Eigen::Index first = static_cast<Eigen::Index>(i) * set->n;
      for (size_t q = 0; q < pairs.size(); ++q) {
        int closer = 0;
        for (int j = 0; j < set->n; ++j) {
          if (j == set->disc_pos[i]) continue;
          const double s1 = scores(first + j, pairs[q].first),
                       s2 = scores(first + j, pairs[q].second);
          largest = std::max(largest, std::max(std::abs(s1), std::abs(s2)));
          const double score = std::abs(s1 - s2);
          const bool is_closer = score > plan_.dprime;
          closer += is_closer;
          weakest = std::min(weakest, is_closer ? score : INFINITY);
        }
        most_per_pair[q] = std::max(most_per_pair[q], closer);
        most_closer = std::max(most_closer, closer);
      }
    }
    stats.delta_r = std::max(stats.delta_r, largest);
    weakest_closer = std::min(weakest_closer, weakest);
  }
  stats.l_star = 1 + most_closer;
  stats.delta = 1.0 / (1.0 - std::max(stats.delta_d, stats.delta_r));
  stats.confusers_outrank = most_closer > 0 && weakest_closer > outrank_bar;
  for (int most : most_per_pair) stats.pair_l_star.push_back(1 + most);
  return stats;
}

}  // namespace pmoe
