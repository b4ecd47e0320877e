// One convolution of J filters of width and stride d, with a bias, over the P patches of each
// sample, and two outputs (MODEL.md §8): output o sums filters [o J/2, (o + 1) J/2) over all
// patches, f_o = sum_{j in half o} sum_p act(<w_j, x^(p)> + b_j), act(z) = z^3 or z. Output o
// is the logit of class label o. The switch MoE's experts and the single-model baselines are it.
#pragma once

#include <vector>

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

// The loss's slope (df0, df1) at the outputs (f0, f1) of the k-th sample of a fused pass.
template <typename T>
class ConvSlope {
 public:
  virtual ~ConvSlope() = default;
  virtual void operator()(int k, T f0, T f1, T& df0, T& df1) = 0;
  // Samples k0 .. k0 + count - 1 at once (ConvForwardBackward4): f and df hold (f0, f1) and
  // (df0, df1) of each in turn. By default one call of operator() each, in order.
  virtual void Batch(int k0, int count, const T* f, T* df) {
    for (int k = 0; k < count; ++k)
      (*this)(k0 + k, f[2 * k], f[2 * k + 1], df[2 * k], df[2 * k + 1]);
  }
};

// ConvForward and ConvBackward in one pass over the samples: each sample's outputs, then its
// slope from `slope`, then its share of the gradient while its patches are still in cache. The
// same sums in the same order as ConvForward, the slopes, then ConvBackward (equal up to how the
// compiler contracts products and sums into FMAs); no (count * P, J) matrix is written. `work`
// is a workspace (P * J values). With `accumulate` the gradients are added to gW and gb instead
// of overwriting them.
template <typename T>
void ConvForwardBackward(const RowMat<T>& x, int P, const int* ids, int count, const T* W,
                         const T* b, int J, Activation act, T* f, ConvSlope<T>& slope, T* gW, T* gb,
                         std::vector<T>& work, bool accumulate = false);

// ConvForwardBackward for four samples of P = 4 patches at once, when J is a multiple of kLanes,
// each sample with its own parameters (the switch MoE's samples go to different experts):
// sixteen independent accumulator chains instead of four keep the FMA units busy. Every sum is
// the one ConvForwardBackward forms, in the same order, samples in the order given (bit for
// bit: a test checks it). x[s] is sample s with its patches interleaved, (d, P) row-major; the
// slope is asked for samples k0 .. k0 + 3; gW and gb accumulate; `a` is a workspace of 4 P J
// values.
constexpr int kLanes = 16, kBatchSamples = 4, kBatchPatches = 4;
inline bool ConvBatchable(int P, int J) { return P == kBatchPatches && J % kLanes == 0; }
template <typename T>
struct ConvBatch {
  const T* x[kBatchSamples];
  const T* W[kBatchSamples];
  const T* b[kBatchSamples];
  T* gW[kBatchSamples];
  T* gb[kBatchSamples];
};
template <typename T>
void ConvForwardBackward4(const ConvBatch<T>& batch, int d, int J, Activation act,
                          ConvSlope<T>& slope, int k0, T* a);

// x (N * P, d), sample i's patches in rows [i P, i P + P), as ConvForwardBackward4 reads it:
// (N, d * P), coordinate c of patch p at column c P + p.
template <typename T>
RowMat<T> InterleavePatches(const RowMat<T>& x, int P);

}  // namespace pmoe
