// The single-model baseline of Chen et al. (MODEL.md §8): one two-output convolution of J filters
// with bias over all patches (conv_expert.hpp), no router. Parameters: filters (d, J) row-major,
// then biases (J).
#pragma once

#include <vector>

#include "pmoe/core/matrix.hpp"
#include "pmoe/core/rng.hpp"
#include "pmoe/models/conv_expert.hpp"
#include "pmoe/models/loss.hpp"

namespace pmoe {

template <typename T>
struct SinglePass {
  RowMat<T> A;  // (N * P, J) pre-activations
  RowMat<T> f;  // (N, 2) outputs
  double loss = 0;
  int errors = 0;
  bool finite = true;
};

template <typename T>
class SingleConv {
 public:
  // Filters and biases ~ U(-init_scale/sqrt(d), init_scale/sqrt(d)) (PyTorch's default at 1).
  SingleConv(int J, int P, int d, Activation act, double init_scale, Rng& rng);

  Vec<T>& params() { return params_; }
  const Vec<T>& params() const { return params_; }
  int J() const { return J_; }
  int P() const { return P_; }

  // x (N * P, d): the mean loss of f over the samples, and the errors.
  void Forward(const RowMat<T>& x, const int* labels, const Loss<T>& loss,
               SinglePass<T>& pass) const;
  void Backward(const RowMat<T>& x, const int* labels, const Loss<T>& loss,
                const SinglePass<T>& pass, Vec<T>& grad) const;
  // Both in one pass (training): each sample read once, no pre-activation matrix kept. Given
  // `interleaved`, InterleavePatches(x, P), and a shape ConvBatchable allows, four samples go
  // through the kernel at once: the same bits (a test checks it), sixteen FMA chains instead of
  // four.
  void ForwardBackward(const RowMat<T>& x, const int* labels, const Loss<T>& loss,
                       SinglePass<T>& pass, Vec<T>& grad,
                       const RowMat<T>* interleaved = nullptr) const;

 private:
  int J_, P_, d_;
  Activation act_;
  Vec<T> params_;
  mutable RowMat<T> df_;
  mutable std::vector<int> ids_;  // 0..N-1: every sample, in order
  mutable std::vector<T> work_;
};

}  // namespace pmoe
