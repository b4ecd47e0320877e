// What every model is built from: one expert's forward pass over its batch rows and its weight
// gradient. Rows are given by pointers (no copy of the mini-batch); the products run in the
// AVX-512 row kernels for float when the build has them, else in Eigen on a gathered copy.
// Weights are stored transposed, (d, q) per expert. Shapes: R rows, d patch dim, q neurons.
#pragma once

#include <cstring>
#include <type_traits>
#include <vector>

#include "pmoe/core/matrix.hpp"
#include "pmoe/models/row_kernels.hpp"

namespace pmoe {

// The row kernels for float when compiled in and the expert has enough neurons to fill vector
// lanes; Eigen otherwise (e.g. joint pMoE's 5 neurons per expert: 5 of 16 lanes would be busy).
template <typename T>
bool UseRowKernels(int q) {
  return std::is_same_v<T, float> && RowKernelsAvailable() && q >= 8;
}

// z = X wt (R, q) for the rows X; `gathered` receives X when Eigen computes the product (and is
// reused by ExpertWeightGradient).
template <typename T>
void ExpertPreactivations(const std::vector<const T*>& rows, int d,
                          const Eigen::Map<const RowMat<T>>& wt, RowMat<T>& z,
                          RowMat<T>& gathered) {
  const int R = static_cast<int>(rows.size()), q = static_cast<int>(wt.cols());
  z.resize(R, q);
  if constexpr (std::is_same_v<T, float>) {
    if (UseRowKernels<T>(q)) {
      RowsTimesWt(rows.data(), R, d, wt.data(), q, z.data());
      return;
    }
  }
  gathered.resize(R, d);
  for (int r = 0; r < R; ++r) std::memcpy(gathered.row(r).data(), rows[r], sizeof(T) * d);
  z.noalias() = gathered * wt;
}

// relu = max(z, 0); h[r] = sum_q a[q] relu[r, q] (R).
template <typename T>
void ExpertOutputs(const RowMat<T>& z, const Eigen::Ref<const Vec<T>>& a, RowMat<T>& relu,
                   Vec<T>& h) {
  relu.resize(z.rows(), z.cols());
  relu = z.cwiseMax(T(0));
  h.resize(z.rows());
  h.noalias() = relu * a;
}

// dwt = X^T g (d, q) with g[r, k] = coef[r] a[k] 1[z[r, k] > 0]: the gradient of
// sum_r coef[r] h[r] with respect to the expert's (transposed) weights.
template <typename T, typename DWT>
void ExpertWeightGradient(const std::vector<const T*>& rows, int d, const RowMat<T>& z,
                          const Eigen::Ref<const Vec<T>>& a, const Vec<T>& coef, RowMat<T>& g,
                          const RowMat<T>& gathered, DWT&& dwt) {
  const Eigen::Index R = z.rows(), q = z.cols();
  g.resize(R, q);
  const T* zp = z.data();
  const T* ap = a.data();
  T* gp = g.data();
  for (Eigen::Index r = 0; r < R; ++r) {
    const T c = coef[r];
    // A select, not a branch: the inner loop vectorizes.
    for (Eigen::Index k = 0; k < q; ++k) gp[r * q + k] = zp[r * q + k] > T(0) ? c * ap[k] : T(0);
  }
  if constexpr (std::is_same_v<T, float>) {
    if (UseRowKernels<T>(static_cast<int>(q))) {
      RowsTransposedTimesG(rows.data(), static_cast<int>(R), d, g.data(), static_cast<int>(q),
                           dwt.data());
      return;
    }
  }
  dwt.noalias() = gathered.transpose() * g;
}

}  // namespace pmoe
