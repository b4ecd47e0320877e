// One convolution of J filters of width and stride d, with a bias, over the P patches of each
// sample, and two outputs (MODEL.md §8): output o sums filters [o J/2, (o + 1) J/2) over all
// patches, f_o = sum_{j in half o} sum_p act(<w_j, x^(p)> + b_j), act(z) = z^3 or z. Output o
// is the logit of class label o. The switch MoE's experts and the single-model baselines are it.
#pragma once

#include "pmoe/core/matrix.hpp"

namespace pmoe {

enum class Activation { kCubic, kLinear };

// Forward over the samples ids[0..count), sample s being rows [s P, s P + P) of x (read in
// place): A (count * P, J) row-major gets the pre-activations (kept for the backward pass) and
// f (count, 2) row-major the outputs, both in the order of ids.
template <typename T>
void ConvForward(const RowMat<T>& x, int P, const int* ids, int count, const T* W, const T* b,
                 int J, Activation act, T* A, T* f);

// Backward from df (count, 2), the loss's slope at f: the gradients of the filters gW (d, J)
// row-major and of the biases gb (J), overwritten.
template <typename T>
void ConvBackward(const RowMat<T>& x, int P, const int* ids, int count, const T* A, const T* df,
                  int J, Activation act, T* gW, T* gb);

}  // namespace pmoe
