// Initialization of MODEL.md §5: hidden weights N(0, sigma_w^2), fixed output weights N(0, 1) or
// signs, router and gating kernels N(0, sigma^2). Each from its own stream of the init seed.
#pragma once

#include <string>

#include "pmoe/core/matrix.hpp"
#include "pmoe/core/rng.hpp"

namespace pmoe {

template <typename T, typename M>
void FillNormal(M&& matrix, double sigma, Rng& rng) {
  for (Eigen::Index i = 0; i < matrix.rows(); ++i)
    for (Eigen::Index j = 0; j < matrix.cols(); ++j)
      matrix(i, j) = static_cast<T>(sigma * rng.Normal());
}

// Output weights of k experts of m/k neurons each: N(0, 1), or with output_init = "sign", +1 for
// the even experts (expert 1 in the paper's counting) and -1 for the odd ones; a single expert
// (CNN) gets +1 for its first half of neurons and -1 for the rest.
template <typename T>
Vec<T> OutputWeights(int k, int m, const std::string& output_init, Rng& rng) {
  Vec<T> a(m);
  const int per_expert = m / k;
  for (int r = 0; r < m; ++r) {
    if (output_init == "sign") {
      const bool positive = k == 1 ? r < m / 2 : (r / per_expert) % 2 == 0;
      a[r] = positive ? T(1) : T(-1);
    } else {
      a[r] = static_cast<T>(rng.Normal());
    }
  }
  return a;
}

// Output weights for `outputs` = c > 1 outputs (MODEL.md §7, eq. 23): a_{r,i} for neuron r and
// class i at [i*m + r]. N(0, 1) drawn class by class, or with "sign", +1 where neuron r's group
// is class i and -1 elsewhere: the group is expert s mod c for k experts, and for a single
// expert (CNN) its neurons split into c equal runs.
template <typename T>
Vec<T> ClassOutputWeights(int k, int m, int outputs, const std::string& output_init, Rng& rng) {
  Vec<T> a(static_cast<Eigen::Index>(m) * outputs);
  const int per_expert = m / k;
  for (int i = 0; i < outputs; ++i)
    for (int r = 0; r < m; ++r) {
      if (output_init == "sign") {
        const int group = k == 1 ? static_cast<int>(static_cast<long long>(r) * outputs / m)
                                 : (r / per_expert) % outputs;
        a[static_cast<Eigen::Index>(i) * m + r] = group == i ? T(1) : T(-1);
      } else {
        a[static_cast<Eigen::Index>(i) * m + r] = static_cast<T>(rng.Normal());
      }
    }
  return a;
}

}  // namespace pmoe
