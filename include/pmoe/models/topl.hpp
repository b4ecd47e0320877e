// J_s(x): the l largest routing values of one expert over n patches (MODEL.md §4).
#pragma once

#include <vector>

#include "pmoe/core/matrix.hpp"

namespace pmoe {

// Indices of the l largest of v[0], v[stride], ..., v[(n-1) stride], by descending value, ties
// broken by lower index; out[0] is the arg-max. O(n l), fast for the small n of patches.
template <typename T>
void TopL(const T* v, int stride, int n, int l, int* out) {
  int filled = 0;
  for (int j = 0; j < n; ++j) {
    const T value = v[j * stride];
    if (filled == l && !(value > v[out[l - 1] * stride])) continue;
    int pos = filled < l ? filled++ : l - 1;
    // Strict comparison: an equal value already held has a lower index and stays ahead.
    while (pos > 0 && value > v[out[pos - 1] * stride]) {
      out[pos] = out[pos - 1];
      --pos;
    }
    out[pos] = j;
  }
}

// J_s(x_i) of every sample i and expert s under routing kernels (k, d): (samples, k, l) indices,
// each expert's by descending routing value g_{j,s} = <kernel_s, x_i^(j)>.
template <typename T, typename Kernels>
std::vector<int> RouteAll(const RowMat<T>& x, int samples, const Kernels& kernels, int l) {
  const int k = static_cast<int>(kernels.rows());
  const int n = static_cast<int>(x.rows() / samples);
  const RowMat<T> scores = x * kernels.transpose();  // (samples*n, k)
  std::vector<int> routes(static_cast<size_t>(samples) * k * l);
  for (int i = 0; i < samples; ++i)
    for (int s = 0; s < k; ++s)
      TopL(scores.data() + static_cast<size_t>(i) * n * k + s, k, n, l,
           routes.data() + (static_cast<size_t>(i) * k + s) * l);
  return routes;
}

}  // namespace pmoe
