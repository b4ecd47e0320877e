// One convolution of J filters of width and stride d, with a bias, over the P patches of each
// sample, and two outputs (MODEL.md §8): output o sums filters [o J/2, (o + 1) J/2) over all
// patches, f_o = sum_{j in half o} sum_p act(<w_j, x^(p)> + b_j), act(z) = z^3 or z. Output o
// is the logit of class label o. The switch MoE's experts and the single-model baselines are it.
#pragma once

#include "pmoe/core/matrix.hpp"

namespace pmoe {

enum class Activation { kCubic, kLinear };

// Forward over `samples` samples whose P patches are the rows of `x` (samples * P, d) from row
// `first_row`: A (samples * P, J) the pre-activations (kept for the backward pass), f (samples, 2)
// written at rows [first_sample, first_sample + samples).
template <typename T>
void ConvForward(const RowMat<T>& x, Eigen::Index first_row, int samples, int P, const T* W,
                 const T* b, int J, Activation act, RowMat<T>& A, RowMat<T>& f,
                 Eigen::Index first_sample);

// Backward: df (rows of f's layout, 2 columns) the loss's slope at f; writes the gradients of the
// filters gW (d, J) and biases gb (J) (overwritten, not accumulated). dA is a workspace.
template <typename T>
void ConvBackward(const RowMat<T>& x, Eigen::Index first_row, int samples, int P,
                  const RowMat<T>& A, const RowMat<T>& df, Eigen::Index first_sample, int J,
                  Activation act, RowMat<T>& dA, T* gW, T* gb);

}  // namespace pmoe
