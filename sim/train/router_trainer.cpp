// Router phase of Algorithm 1, and its pairwise form for c classes (MODEL.md §7). The loss is
// linear in the routers, so each step only adds lr * mean_batch(y sum_j x^(j)) to w_i and
// subtracts it from w_j (y = +1 for class i, -1 for class j).
#include "pmoe/train/router_trainer.hpp"

#include <algorithm>
#include <numeric>
#include <vector>

#include "pmoe/data/class_pairs.hpp"

namespace pmoe {

namespace {

// SGD on -(1/|S|) sum_{i in S} y_i sum_j <w_first - w_second, x_i^(j)> over the samples S of
// classes `first` (y = +1) and `second` (y = -1) among the first `options.samples`.
long TrainPair(const Dataset& train, const RouterOptions& options, Rng& rng, int first, int second,
               bool move_second, RowMat<float>& router) {
  const int n = train.n;
  std::vector<int> members;
  for (int i = 0; i < options.samples; ++i)
    if (train.label[i] == first || train.label[i] == second) members.push_back(i);
  const int samples = static_cast<int>(members.size());
  // s_i = y_i sum_j x_i^(j), computed once in double: (|S|, d).
  RowMat<double> signed_sums = RowMat<double>::Zero(samples, train.d);
  for (int m = 0; m < samples; ++m) {
    const int i = members[m];
    for (int j = 0; j < n; ++j)
      signed_sums.row(m) += (train.label[i] == first ? 1.0 : -1.0) *
                            train.x.row(static_cast<Eigen::Index>(i) * n + j).cast<double>();
  }
  std::vector<int> order(samples);
  std::iota(order.begin(), order.end(), 0);
  Vecd step(train.d);
  long steps = 0;
  for (int epoch = 0; epoch < options.epochs; ++epoch) {
    for (int i = samples - 1; i > 0; --i) std::swap(order[i], order[rng.Below(i + 1)]);
    for (int begin = 0; begin < samples; begin += options.batch) {
      const int count = std::min(options.batch, samples - begin);
      step.setZero();
      for (int b = 0; b < count; ++b) step += signed_sums.row(order[begin + b]).transpose();
      step *= options.lr / count;
      router.row(first) += step.cast<float>().transpose();
      if (move_second) router.row(second) -= step.cast<float>().transpose();
      ++steps;
    }
  }
  return steps;
}

}  // namespace

long TrainRouter(const Dataset& train, const RouterOptions& options, Rng& rng,
                 RowMat<float>& router) {
  return TrainPair(train, options, rng, 0, 1, true, router);
}

long TrainPairwiseRouters(const Dataset& train, const RouterOptions& options, Rng& rng,
                          RowMat<float>& router) {
  long steps = 0;
  for (const auto& [first, second] : RouterPairs(train.classes))
    steps += TrainPair(train, options, rng, first, second, second > first, router);
  return steps;
}

}  // namespace pmoe
