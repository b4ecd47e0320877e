// The two products every model is built from: one expert's forward pass over a block of patch
// rows, and its weight gradient given d(loss)/d(output) per row. Shapes: R rows, d patch dim,
// q neurons of this expert.
#pragma once

#include "pmoe/core/matrix.hpp"

namespace pmoe {

// z = x w^T (R, q); h[r] = sum_q a[q] ReLU(z[r, q]) (R).
template <typename T, typename X, typename W>
void ExpertForward(const X& x, const W& w, const Eigen::Ref<const Vec<T>>& a, RowMat<T>& z,
                   Vec<T>& h) {
  z.resize(x.rows(), w.rows());
  z.noalias() = x * w.transpose();
  h = z.cwiseMax(T(0)) * a;
}

// dw = g^T x (q, d) with g[r, q] = coef[r] a[q] 1[z[r, q] > 0]: the gradient of
// sum_r coef[r] h[r] with respect to this expert's weights.
template <typename T, typename X, typename DW>
void ExpertBackward(const X& x, const RowMat<T>& z, const Eigen::Ref<const Vec<T>>& a,
                    const Vec<T>& coef, RowMat<T>& g, DW&& dw) {
  g.resize(z.rows(), z.cols());
  for (Eigen::Index r = 0; r < z.rows(); ++r)
    for (Eigen::Index q = 0; q < z.cols(); ++q)
      g(r, q) = z(r, q) > T(0) ? coef[r] * a[q] : T(0);
  dw.noalias() = g.transpose() * x;
}

}  // namespace pmoe
