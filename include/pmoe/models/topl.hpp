// J_s(x): the l largest routing values of one expert over n patches (MODEL.md §4).
#pragma once

#include <algorithm>
#include <type_traits>
#include <vector>

#include "pmoe/core/matrix.hpp"
#include "pmoe/models/expert_kernels.hpp"

namespace pmoe {

// Indices of the l largest of v[0], v[stride], ..., v[(n-1) stride], by descending value, ties
// broken by lower index; out[0] is the arg-max. Each value's rank is counted against all others
// (O(n^2) comparisons, but without branches: they vectorize, and for the n <= 64 patches of a
// sample that beats any sort's mispredicted branches).
template <typename T>
void TopL(const T* v, int stride, int n, int l, int* out) {
  constexpr int kMax = 64;
  if (n > kMax) {  // rare: many patches; a stable partial sort
    std::vector<int> order(n);
    for (int j = 0; j < n; ++j) order[j] = j;
    std::partial_sort(order.begin(), order.begin() + l, order.end(), [&](int a, int b) {
      return v[a * stride] > v[b * stride] || (v[a * stride] == v[b * stride] && a < b);
    });
    std::copy(order.begin(), order.begin() + l, out);
    return;
  }
  T value[kMax];
  for (int j = 0; j < n; ++j) value[j] = v[j * stride];
  for (int j = 0; j < n; ++j) {
    const T x = value[j];
    int rank = 0;  // how many come before j: larger, or equal with a lower index
    for (int i = 0; i < n; ++i) rank += (value[i] > x) | ((value[i] == x) & (i < j));
    if (rank < l) out[rank] = j;
  }
}

// TopLAllExperts below for float and n <= 16 in AVX-512, or in AVX2 for 3-8 experts
// (topl_simd.cpp); false when it cannot (more patches, other expert counts on AVX2, no AVX2: the
// scalar rule gives the same routes) and nothing was written.
bool TopLAllExpertsSimd(const float* scores, int n, int k, int l, int* out);

// TopLAllExpertsSimd for two samples at once (a and b, each (n, k)), where that fills more lanes
// (AVX-512, 3-8 experts); false, nothing written, elsewhere.
bool TopLTwoSamplesSimd(const float* a, const float* b, int n, int k, int l, int* out_a,
                        int* out_b);

// TopL for every expert of one sample at once: scores is (n, k) row-major (scores[j*k + s] =
// g_{j,s}); out[s*l .. s*l + l) receives J_s. The comparisons run across the k experts, which
// are contiguous, so one vector instruction compares patch j with patch i for every expert.
template <typename T>
void TopLAllExperts(const T* scores, int n, int k, int l, int* out) {
  if constexpr (std::is_same_v<T, float>) {
    if (TopLAllExpertsSimd(scores, n, k, l, out)) return;
  }
  constexpr int kMaxExperts = 64;
  // Few experts leave the vector lanes empty: then rank each expert's column on its own.
  if (k < 8 || k > kMaxExperts || n > 64) {
    for (int s = 0; s < k; ++s) TopL(scores + s, k, n, l, out + s * l);
    return;
  }
  int rank[kMaxExperts];
  for (int j = 0; j < n; ++j) {
    const T* row_j = scores + j * k;
    for (int s = 0; s < k; ++s) rank[s] = 0;
    for (int i = 0; i < n; ++i) {
      const T* row_i = scores + i * k;
      const int before = i < j;  // an equal value at a lower index ranks first
      for (int s = 0; s < k; ++s)
        rank[s] += (row_i[s] > row_j[s]) | ((row_i[s] == row_j[s]) & before);
    }
    for (int s = 0; s < k; ++s)
      if (rank[s] < l) out[s * l + rank[s]] = j;
  }
}

// TopLAllExperts for `samples` samples: scores (samples * n, k), out (samples, k, l); two samples
// at a time where the kernels allow (the same routes).
template <typename T>
void TopLSamples(const T* scores, int samples, int n, int k, int l, int* out) {
  const size_t in_step = static_cast<size_t>(n) * k, out_step = static_cast<size_t>(k) * l;
  int i = 0;
  if constexpr (std::is_same_v<T, float>)
    for (; i + 2 <= samples; i += 2)
      if (!TopLTwoSamplesSimd(scores + i * in_step, scores + (i + 1) * in_step, n, k, l,
                              out + i * out_step, out + (i + 1) * out_step))
        break;
  for (; i < samples; ++i) TopLAllExperts(scores + i * in_step, n, k, l, out + i * out_step);
}

// J_s(x_i) of every sample i and expert s under routing kernels (k, d): (samples, k, l) indices,
// each expert's by descending routing value g_{j,s} = <kernel_s, x_i^(j)>.
template <typename T, typename Kernels>
std::vector<int> RouteAll(const RowMat<T>& x, int samples, const Kernels& kernels, int l) {
  const int k = static_cast<int>(kernels.rows());
  const int n = static_cast<int>(x.rows() / samples);
  std::vector<const T*> rows(x.rows());
  for (Eigen::Index r = 0; r < x.rows(); ++r) rows[r] = x.row(r).data();
  const RowMat<T> kernels_t = kernels.transpose();  // (d, k), laid out like expert weights
  RowMat<T> scores, gathered;                       // (samples*n, k); Eigen's copy of x
  ExpertPreactivations<T>(rows, static_cast<int>(x.cols()),
                          Eigen::Map<const RowMat<T>>(kernels_t.data(), x.cols(), k), scores,
                          gathered);
  std::vector<int> routes(static_cast<size_t>(samples) * k * l);
  TopLSamples(scores.data(), samples, n, k, l, routes.data());
  return routes;
}

}  // namespace pmoe
