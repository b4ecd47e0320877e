// The interface the trainer sees: a model with a flat trainable parameter vector, a loss with its
// gradient on a mini-batch, and f(x) on a range of samples. T is float in trials, double in the
// finite-difference tests.
#pragma once

#include <cstring>
#include <vector>

#include "pmoe/core/matrix.hpp"

namespace pmoe {

// What a model reads per sample: `blocks` row blocks of rows_per_sample rows each (d columns).
// CNN and joint pMoE: one block, all n patches. Separate pMoE: one block per expert holding its
// l routed patches, gathered once because the routers are frozen.
template <typename T>
struct PatchBlocks {
  std::vector<const T*> blocks;  // row 0 of each block, (samples*rows_per_sample, d) row-major
  std::vector<RowMat<T>> owned;  // storage of the blocks when the model built them
  int rows_per_sample = 0;
  int samples = 0;
  int d = 0;
};

template <typename T>
class Model {
 public:
  virtual ~Model() = default;

  // The model's view of a data set x (samples*n, d); may point into x, which must outlive it.
  virtual PatchBlocks<T> Prepare(const RowMat<T>& x, int samples) const = 0;

  // f for samples [begin, begin + count) of `in`, into f[0..count).
  virtual void Forward(const PatchBlocks<T>& in, int begin, int count, T* f) = 0;

  // Mean logistic loss over the samples idx[0..count) and its gradient with respect to
  // params(), written into grad (same size as params()).
  virtual double LossAndGradient(const PatchBlocks<T>& in, const int* idx, int count,
                                 const Vec<T>& y, Vec<T>& grad) = 0;

  Vec<T>& params() { return params_; }
  const Vec<T>& params() const { return params_; }

 protected:
  Vec<T> params_;  // every trained weight, flat; subclasses map their matrices onto it
};

// The view of x (samples*n, d) that reads every patch of each sample in place (CNN, joint pMoE).
template <typename T>
PatchBlocks<T> AllPatches(const RowMat<T>& x, int samples) {
  PatchBlocks<T> in;
  in.blocks = {x.data()};
  in.samples = samples;
  in.rows_per_sample = static_cast<int>(x.rows() / samples);
  in.d = static_cast<int>(x.cols());
  return in;
}

// Rows of `block` for a batch: a view into the data when the samples are the contiguous range
// [begin, begin + count) (idx == nullptr), else the rows of samples idx[] gathered into scratch.
template <typename T>
Eigen::Map<const RowMat<T>> BatchRows(const PatchBlocks<T>& in, int block, const int* idx,
                                      int begin, int count, RowMat<T>& scratch) {
  const int rps = in.rows_per_sample;
  const size_t sample_values = static_cast<size_t>(rps) * in.d;
  const T* base = in.blocks[block];
  if (idx == nullptr)
    return {base + static_cast<size_t>(begin) * sample_values, count * rps, in.d};
  if (scratch.rows() != count * rps || scratch.cols() != in.d) scratch.resize(count * rps, in.d);
  for (int i = 0; i < count; ++i)
    std::memcpy(scratch.data() + i * sample_values, base + idx[i] * sample_values,
                sample_values * sizeof(T));
  return {scratch.data(), count * rps, in.d};
}

}  // namespace pmoe
