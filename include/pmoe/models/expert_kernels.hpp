// What every model is built from: one expert's forward pass over its batch rows and its weight
// gradient. Rows are given by pointers (no copy of the mini-batch); the products run in the
// row kernels for float (AVX-512, or their portable twins: the same bits), in Eigen on a
// gathered copy for double.
// Weights are stored transposed, (d, q) per expert; their gradient comes out (q, d), the layout
// in which its kernel fills vector lanes whatever q. Shapes: R rows, d patch dim, q neurons.
#pragma once

#include <cstring>
#include <type_traits>
#include <vector>

#include "pmoe/core/matrix.hpp"
#include "pmoe/models/row_kernels.hpp"

namespace pmoe {

// The row kernels for float; Eigen for double (the gradient tests).
template <typename T>
bool UseRowKernels() {
  return std::is_same_v<T, float> && RowKernelsAvailable();
}

// z = X wt (R, q) for the rows X; `gathered` receives X when Eigen computes the product (and is
// reused by RowsWeightGradient).
template <typename T>
void ExpertPreactivations(const std::vector<const T*>& rows, int d,
                          const Eigen::Map<const RowMat<T>>& wt, RowMat<T>& z,
                          RowMat<T>& gathered) {
  const int R = static_cast<int>(rows.size()), q = static_cast<int>(wt.cols());
  z.resize(R, q);
  if constexpr (std::is_same_v<T, float>) {
    if (UseRowKernels<T>()) {
      RowsTimesWt(rows.data(), R, d, wt.data(), q, z.data());
      return;
    }
  }
  gathered.resize(R, d);
  for (int r = 0; r < R; ++r) std::memcpy(gathered.row(r).data(), rows[r], sizeof(T) * d);
  z.noalias() = gathered * wt;
}

// h[r] = sum_q a[q] max(z[r, q], 0) (R).
template <typename T>
void ExpertOutputs(const RowMat<T>& z, const Eigen::Ref<const Vec<T>>& a, RowMat<T>& relu,
                   Vec<T>& h) {
  h.resize(z.rows());
  if constexpr (std::is_same_v<T, float>) {
    if (UseRowKernels<T>()) {
      ReluOutputs(z.data(), static_cast<int>(z.rows()), static_cast<int>(z.cols()), a.data(),
                  h.data());
      return;
    }
  }
  relu.resize(z.rows(), z.cols());
  relu = z.cwiseMax(T(0));
  h.noalias() = relu * a;
}

// ExpertPreactivations then ExpertOutputs, in one pass where the row kernels allow it.
template <typename T>
void ExpertPreactivationsAndOutputs(const std::vector<const T*>& rows, int d,
                                    const Eigen::Map<const RowMat<T>>& wt,
                                    const Eigen::Ref<const Vec<T>>& a, RowMat<T>& z,
                                    RowMat<T>& gathered, RowMat<T>& relu, Vec<T>& h) {
  if constexpr (std::is_same_v<T, float>) {
    if (UseRowKernels<T>()) {
      const int R = static_cast<int>(rows.size()), q = static_cast<int>(wt.cols());
      z.resize(R, q);
      h.resize(R);
      RowsTimesWtReluOutputs(rows.data(), R, d, wt.data(), q, a.data(), z.data(), h.data());
      return;
    }
  }
  ExpertPreactivations<T>(rows, d, wt, z, gathered);
  ExpertOutputs<T>(z, a, relu, h);
}

// An expert's forward pass: z for its rows and h[o] for each of its `outputs` outputs, whose
// neuron weights are output_weights(o); with one output in one pass over the rows
// (ExpertPreactivationsAndOutputs).
template <typename T, typename OutputWeightsOf>
void ExpertForward(const std::vector<const T*>& rows, int d, const Eigen::Map<const RowMat<T>>& wt,
                   int outputs, const OutputWeightsOf& output_weights, RowMat<T>& z,
                   RowMat<T>& gathered, RowMat<T>& relu, Vec<T>* h) {
  if (outputs == 1) {
    ExpertPreactivationsAndOutputs<T>(rows, d, wt, output_weights(0), z, gathered, relu, h[0]);
    return;
  }
  ExpertPreactivations<T>(rows, d, wt, z, gathered);
  for (int o = 0; o < outputs; ++o) ExpertOutputs<T>(z, output_weights(o), relu, h[o]);
}

// g[r, k] = coef[r] a[k] 1[z[r, k] > 0] for k < q: the derivative of sum_r coef[r] h[r] with
// respect to z. With `extra`, g has one more column holding extra[r] (joint pMoE's gating
// coefficients, so that one pass over the rows yields both gradients).
template <typename T>
void ReluBackward(const RowMat<T>& z, const Eigen::Ref<const Vec<T>>& a, const Vec<T>& coef,
                  const Vec<T>* extra, RowMat<T>& g) {
  const Eigen::Index R = z.rows(), q = z.cols(), cols = q + (extra ? 1 : 0);
  g.resize(R, cols);
  if constexpr (std::is_same_v<T, float>) {
    if (UseRowKernels<T>()) {
      ReluGradient(z.data(), static_cast<int>(R), static_cast<int>(q), a.data(), coef.data(),
                   extra ? extra->data() : nullptr, g.data());
      return;
    }
  }
  for (Eigen::Index r = 0; r < R; ++r)
    for (Eigen::Index k = 0; k < q; ++k) g(r, k) = z(r, k) > T(0) ? coef[r] * a[k] : T(0);
  if (extra) g.col(q) = *extra;
}

// The same for c outputs (MODEL.md §7): g[r, k] = 1[z[r, k] > 0] sum_o coef[o][r] a[o][k],
// with `extra` as above; a[o] points at output o's weights of the q neurons. One pass over z in
// the row kernel (float), one ReluBackward per output summed otherwise.
template <typename T>
void ClassReluBackward(const RowMat<T>& z, const std::vector<const T*>& a,
                       const std::vector<const T*>& coef, const Vec<T>* extra, RowMat<T>& g,
                       RowMat<T>& scratch) {
  const Eigen::Index R = z.rows(), q = z.cols();
  const int outputs = static_cast<int>(a.size());
  if constexpr (std::is_same_v<T, float>) {
    if (UseRowKernels<T>() && outputs <= kMaxClassOutputs) {
      g.resize(R, q + (extra ? 1 : 0));
      ClassReluGradient(z.data(), static_cast<int>(R), static_cast<int>(q), outputs, a.data(),
                        coef.data(), extra ? extra->data() : nullptr, g.data());
      return;
    }
  }
  auto weights = [&](int o) { return Eigen::Map<const Vec<T>>(a[o], q); };
  auto coefficients = [&](int o) { return Vec<T>(Eigen::Map<const Vec<T>>(coef[o], R)); };
  ReluBackward<T>(z, weights(0), coefficients(0), extra, g);
  for (int o = 1; o < outputs; ++o) {
    ReluBackward<T>(z, weights(o), coefficients(o), nullptr, scratch);
    g.leftCols(q) += scratch;
  }
}

// dw = g^T X, (columns of g, d): the weight gradient for the rows X, a neuron per row.
template <typename T>
void RowsWeightGradient(const std::vector<const T*>& rows, int d, const RowMat<T>& g,
                        const RowMat<T>& gathered, RowMat<T>& dw) {
  const int R = static_cast<int>(g.rows()), q = static_cast<int>(g.cols());
  dw.resize(q, d);
  if constexpr (std::is_same_v<T, float>) {
    if (UseRowKernels<T>()) {
      GTransposedTimesRows(rows.data(), R, d, g.data(), q, dw.data());
      return;
    }
  }
  dw.noalias() = g.transpose() * gathered;
}

// The same gradient laid out like the weights, (d, columns of g): written in place, no
// transposing pass.
template <typename T, typename DWT>
void RowsWeightGradientTransposed(const std::vector<const T*>& rows, int d, const RowMat<T>& g,
                                  const RowMat<T>& gathered, DWT&& dwt) {
  const int R = static_cast<int>(g.rows()), q = static_cast<int>(g.cols());
  if constexpr (std::is_same_v<T, float>) {
    if (UseRowKernels<T>()) {
      RowsTransposedTimesG(rows.data(), R, d, g.data(), q, dwt.data());
      return;
    }
  }
  dwt.noalias() = gathered.transpose() * g;
}

}  // namespace pmoe
