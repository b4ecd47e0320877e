// Router phase of Algorithm 1. The loss is linear in the routers, so each step only adds
// lr * mean_batch(y sum_j x^(j)) to w_1 and subtracts it from w_2 (y = +1 for class 0, -1 for 1).
#include "pmoe/train/router_trainer.hpp"

#include <algorithm>
#include <numeric>
#include <vector>

namespace pmoe {

long TrainRouter(const Dataset& train, const RouterOptions& options, Rng& rng,
                 RowMat<float>& router) {
  const int samples = options.samples;
  const int n = train.n;
  // s_i = y_i sum_j x_i^(j), computed once in double: (N_r, d).
  RowMat<double> signed_sums = RowMat<double>::Zero(samples, train.d);
  for (int i = 0; i < samples; ++i)
    for (int j = 0; j < n; ++j)
      signed_sums.row(i) += (train.label[i] == 0 ? 1.0 : -1.0) * train.x.row(static_cast<Eigen::Index>(i) * n + j)
                                             .cast<double>();
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
      router.row(0) += step.cast<float>().transpose();
      router.row(1) -= step.cast<float>().transpose();
      ++steps;
    }
  }
  return steps;
}

}  // namespace pmoe
