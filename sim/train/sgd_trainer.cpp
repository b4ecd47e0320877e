// The training loop of MODEL.md §5, readable top to bottom: epochs of shuffled mini-batches.
#include "pmoe/train/sgd_trainer.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

#include "pmoe/models/logistic.hpp"

namespace pmoe {
namespace {

constexpr int kEvalChunk = 512;  // samples per forward pass when evaluating
constexpr int kFirstCheckChunk = 32;  // the early stop's first look at the training set

void Shuffle(std::vector<int>& order, Rng& rng) {
  for (int i = static_cast<int>(order.size()) - 1; i > 0; --i)
    std::swap(order[i], order[rng.Below(i + 1)]);
}

}  // namespace

template <typename T>
Evaluation Evaluate(Model<T>& model, const PatchBlocks<T>& in, const Vec<T>& y) {
  Evaluation ev;
  std::vector<T> f(kEvalChunk);
  double loss = 0.0;
  for (int begin = 0; begin < in.samples; begin += kEvalChunk) {
    const int count = std::min(kEvalChunk, in.samples - begin);
    model.Forward(in, begin, count, f.data());
    for (int i = 0; i < count; ++i) {
      const double yi = y[begin + i];
      ev.finite = ev.finite && std::isfinite(static_cast<double>(f[i]));
      ev.errors += !(yi * f[i] > 0);
      loss += LogisticLoss(yi, f[i]);
    }
  }
  ev.accuracy = 1.0 - static_cast<double>(ev.errors) / in.samples;
  ev.loss = loss / in.samples;
  return ev;
}

// Chunks of growing size from the first sample, stopping at the first error: in every epoch but
// the one that stops, while some samples are still wrong, a few dozen usually settle it, where
// Evaluate would run the whole set and its losses. Chunks do not change any f: each sample's
// forward pass is its own.
template <typename T>
bool MisclassifiesAny(Model<T>& model, const PatchBlocks<T>& in, const Vec<T>& y) {
  std::vector<T> f(kEvalChunk);
  int begin = 0, chunk = kFirstCheckChunk;
  while (begin < in.samples) {
    const int count = std::min(chunk, in.samples - begin);
    model.Forward(in, begin, count, f.data());
    for (int i = 0; i < count; ++i)
      if (!(y[begin + i] * f[i] > 0)) return true;
    begin += count;
    chunk = std::min(2 * chunk, kEvalChunk);
  }
  return false;
}

template <typename T>
SgdOutcome TrainSgd(Model<T>& model, const PatchBlocks<T>& train, const Vec<T>& y,
                    const SgdOptions& options, Rng& rng) {
  SgdOutcome out;
  std::vector<int> order(train.samples);
  std::iota(order.begin(), order.end(), 0);
  Vec<T> grad(model.params().size());
  const T lr = static_cast<T>(options.lr);
  while (out.epochs < options.epochs && !out.zero_train_error) {
    Shuffle(order, rng);
    for (int begin = 0; begin < train.samples; begin += options.batch) {
      const int count = std::min(options.batch, train.samples - begin);
      const double loss = model.LossAndGradient(train, order.data() + begin, count, y, grad);
      ++out.steps;
      if (!std::isfinite(loss)) {
        out.diverged = true;
        out.message = "loss not finite at step " + std::to_string(out.steps);
        return out;
      }
      model.params() -= lr * grad;
    }
    ++out.epochs;
    if (!model.params().allFinite()) {
      out.diverged = true;
      out.message = "weights not finite after epoch " + std::to_string(out.epochs);
      return out;
    }
    if (options.early_stop) out.zero_train_error = !MisclassifiesAny(model, train, y);
  }
  return out;
}

template Evaluation Evaluate(Model<float>&, const PatchBlocks<float>&, const Vec<float>&);
template Evaluation Evaluate(Model<double>&, const PatchBlocks<double>&, const Vec<double>&);
template bool MisclassifiesAny(Model<float>&, const PatchBlocks<float>&, const Vec<float>&);
template bool MisclassifiesAny(Model<double>&, const PatchBlocks<double>&, const Vec<double>&);
template SgdOutcome TrainSgd(Model<float>&, const PatchBlocks<float>&, const Vec<float>&,
                             const SgdOptions&, Rng&);
template SgdOutcome TrainSgd(Model<double>&, const PatchBlocks<double>&, const Vec<double>&,
                            const SgdOptions&, Rng&);

}  // namespace pmoe
