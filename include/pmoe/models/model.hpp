// The interface the trainer sees: a model with a flat trainable parameter vector, a loss object
// (train/loss.hpp) with the gradient of its mean on a mini-batch, and f(x) on a range of samples.
// T is float in trials, double in the finite-difference tests.
#pragma once

#include <cmath>
#include <memory>
#include <vector>

#include "pmoe/core/matrix.hpp"
#include "pmoe/models/loss.hpp"

namespace pmoe {

// What a model reads per sample: `blocks` row blocks of rows_per_sample patches each, all rows
// of the data set x (samples*n, d) itself. CNN and joint pMoE: one block, all n patches.
// Separate pMoE: one block per expert, its l routed patches, the routes computed once because
// the routers are frozen; nothing is copied.
template <typename T>
struct PatchBlocks {
  const T* x = nullptr;  // row 0 of the data set, (samples*n, d) row-major
  int n = 0;             // patches per sample
  int blocks = 1;
  int rows_per_sample = 0;  // rows of each block per sample: n, or l when routed
  std::vector<int> routes;  // (samples, blocks, rows_per_sample) patch indices; empty: all n
  int samples = 0;
  int d = 0;

  // Row t of block `block` of sample `sample`.
  const T* Row(size_t sample, int block, int t) const {
    const int patch = routes.empty() ? t : routes[(sample * blocks + block) * rows_per_sample + t];
    return x + (sample * n + patch) * d;
  }

  // rows = block `block`'s rows of samples idx[0..count), or of [begin, begin + count) when
  // idx is null: the mini-batch as pointers into the data, never copied.
  void PointAtBatch(int block, const int* idx, int begin, int count,
                    std::vector<const T*>& rows) const {
    rows.resize(static_cast<size_t>(count) * rows_per_sample);
    for (int i = 0; i < count; ++i) {
      const size_t sample = idx ? idx[i] : static_cast<size_t>(begin + i);
      for (int t = 0; t < rows_per_sample; ++t)
        rows[static_cast<size_t>(i) * rows_per_sample + t] = Row(sample, block, t);
    }
  }
};

// What LossAndGradient returns: the mean loss, or only whether it is finite.
enum class LossValue { kExact, kFiniteness };

// The loss of one sample and its slopes, as much of the loss as `value` asks: the loss, or 0
// where it is finite and infinity where not (the models' LossAndGradient sum these).
template <typename T>
double SampleLossAndSlope(const Loss<T>& loss, LossValue value, const T* f, int label,
                          double* slope) {
  if (value == LossValue::kExact) return loss.ValueAndSlope(f, label, slope);
  return loss.SlopeAndFiniteness(f, label, slope) ? 0.0 : HUGE_VAL;
}

template <typename T>
class Model {
 public:
  virtual ~Model() = default;

  // The model's view of a data set x (samples*n, d); may point into x, which must outlive it.
  virtual PatchBlocks<T> Prepare(const RowMat<T>& x, int samples) const = 0;

  // f for samples [begin, begin + count) of `in`: loss().outputs() values per sample, into
  // f[0..count * outputs).
  virtual void Forward(const PatchBlocks<T>& in, int begin, int count, T* f) = 0;

  // Mean loss over the samples idx[0..count), whose classes are labels[idx[i]], and its gradient
  // with respect to params(), written into grad (same size as params()). With
  // LossValue::kFiniteness the number returned is 0 where that loss is finite and infinite where
  // it is not (all a training step needs; the logistic loss then skips its logarithms); grad is
  // the same bit for bit.
  virtual double LossAndGradient(const PatchBlocks<T>& in, const int* idx, int count,
                                 const int* labels, Vec<T>& grad,
                                 LossValue value = LossValue::kExact) = 0;

  Vec<T>& params() { return params_; }
  const Vec<T>& params() const { return params_; }
  const Loss<T>& loss() const { return *loss_; }

 protected:
  Vec<T> params_;  // every trained weight, flat; subclasses map their matrices onto it
  // Two classes on one output unless a multiclass model sets another.
  std::shared_ptr<const Loss<T>> loss_ = std::make_shared<BinaryLogisticLoss<T>>();
};

// The view of x (samples*n, d) that reads every patch of each sample in place (CNN, joint pMoE).
template <typename T>
PatchBlocks<T> AllPatches(const RowMat<T>& x, int samples) {
  PatchBlocks<T> in;
  in.x = x.data();
  in.samples = samples;
  in.n = in.rows_per_sample = static_cast<int>(x.rows() / samples);
  in.d = static_cast<int>(x.cols());
  return in;
}

}  // namespace pmoe
