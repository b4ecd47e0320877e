// Realized statistics of data model A (MODEL.md §2), measured on the float data the models see.
#include <algorithm>
#include <cmath>

#include "pmoe/data/pattern_model.hpp"

namespace pmoe {
namespace {

// Cosine of the class means of the discriminative patches: <o1, o2> when there is no noise.
double RealizedDeltaD(const Dataset& a, const Dataset& b, const Vecd& o1, const Vecd& o2) {
  Vecd sum_pos = Vecd::Zero(o1.size()), sum_neg = Vecd::Zero(o1.size());
  for (const Dataset* set : {&a, &b}) {
    for (int i = 0; i < set->size(); ++i) {
      const auto patch = set->x.row(static_cast<Eigen::Index>(i) * set->n + set->disc_pos[i]);
      (set->label[i] == 0 ? sum_pos : sum_neg) += patch.cast<double>().transpose();
    }
  }
  if (sum_pos.isZero() || sum_neg.isZero())  // a class is missing: the patterns themselves
    return o1.cast<float>().cast<double>().normalized().dot(
        o2.cast<float>().cast<double>().normalized());
  return sum_pos.normalized().dot(sum_neg.normalized());
}

}  // namespace

RealizedStats PatternModel::Measure(const Dataset& train, const Dataset& test) const {
  RealizedStats stats;
  stats.delta_d = RealizedDeltaD(train, test, o1_, o2_);
  const double outrank_bar = 1.0 - plan_.spec.delta_d;  // <o1 - o2, o1>: o1's own router score
  double weakest_closer = INFINITY;
  int most_closer = 0;
  for (const Dataset* set : {&train, &test}) {
    // <o1, q> and <o2, q> of every patch: recorded by Draw, or one product (N*n, d) x (d, 2).
    RowMatf computed;
    const bool recorded = set->pattern_scores.rows() == set->x.rows();
    if (!recorded) computed = set->x * patterns_f_;
    const RowMatf& scores = recorded ? set->pattern_scores : computed;
    // Selects instead of branches: whether a patch is closer is a coin flip to the predictor.
    double largest = 0, weakest = INFINITY;
    for (int i = 0; i < set->size(); ++i) {
      const Eigen::Index first = static_cast<Eigen::Index>(i) * set->n;
      int closer = 0;
      for (int j = 0; j < set->n; ++j) {
        if (j == set->disc_pos[i]) continue;
        const double s1 = scores(first + j, 0), s2 = scores(first + j, 1);
        largest = std::max(largest, std::max(std::abs(s1), std::abs(s2)));
        const double score = std::abs(s1 - s2);
        const bool is_closer = score > plan_.dprime;
        closer += is_closer;
        weakest = std::min(weakest, is_closer ? score : INFINITY);
      }
      most_closer = std::max(most_closer, closer);
    }
    stats.delta_r = std::max(stats.delta_r, largest);
    weakest_closer = std::min(weakest_closer, weakest);
  }
  stats.l_star = 1 + most_closer;
  stats.delta = 1.0 / (1.0 - std::max(stats.delta_d, stats.delta_r));
  stats.confusers_outrank = most_closer > 0 && weakest_closer > outrank_bar;
  return stats;
}

}  // namespace pmoe
