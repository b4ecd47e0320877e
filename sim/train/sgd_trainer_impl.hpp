// The training loop of MODEL.md §5, readable top to bottom: epochs of shuffled mini-batches
// until the budget says stop.
// The template definitions: sgd_trainer.cpp instantiates them in float for the tools, sim/f64 in
// double for the finite-difference tests (the tools do not carry the double code).
#pragma once

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

#include "pmoe/train/sgd_trainer.hpp"

namespace pmoe {
namespace {

constexpr int kEvalChunk = 512;       // samples per forward pass when evaluating
constexpr int kFirstCheckChunk = 32;  // the early stop's first look at the training set

void Shuffle(std::vector<int>& order, Rng& rng) {
  for (int i = static_cast<int>(order.size()) - 1; i > 0; --i)
    std::swap(order[i], order[rng.Below(i + 1)]);
}

}  // namespace

template <typename T>
Evaluation Evaluate(Model<T>& model, const PatchBlocks<T>& in, const int* labels, int classes) {
  Evaluation ev;
  ev.class_samples.assign(classes, 0);
  ev.class_errors.assign(classes, 0);
  const Loss<T>& loss_fn = model.loss();
  const int outputs = loss_fn.outputs();
  std::vector<T> f(static_cast<size_t>(kEvalChunk) * outputs);
  double loss = 0.0;
  for (int begin = 0; begin < in.samples; begin += kEvalChunk) {
    const int count = std::min(kEvalChunk, in.samples - begin);
    model.Forward(in, begin, count, f.data());
    for (int i = 0; i < count; ++i) {
      const T* fi = f.data() + static_cast<size_t>(i) * outputs;
      for (int o = 0; o < outputs; ++o)
        ev.finite = ev.finite && std::isfinite(static_cast<double>(fi[o]));
      const bool wrong = !loss_fn.Correct(fi, labels[begin + i]);
      ev.errors += wrong;
      if (classes > 0) {
        ++ev.class_samples.at(labels[begin + i]);
        ev.class_errors[labels[begin + i]] += wrong;
      }
      loss += loss_fn.Value(fi, labels[begin + i]);
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
bool MisclassifiesAny(Model<T>& model, const PatchBlocks<T>& in, const int* labels) {
  const Loss<T>& loss_fn = model.loss();
  const int outputs = loss_fn.outputs();
  std::vector<T> f(static_cast<size_t>(kEvalChunk) * outputs);
  int begin = 0, chunk = kFirstCheckChunk;
  while (begin < in.samples) {
    const int count = std::min(chunk, in.samples - begin);
    model.Forward(in, begin, count, f.data());
    for (int i = 0; i < count; ++i)
      if (!loss_fn.Correct(f.data() + static_cast<size_t>(i) * outputs, labels[begin + i]))
        return true;
    begin += count;
    chunk = std::min(2 * chunk, kEvalChunk);
  }
  return false;
}

template <typename T>
TrainOutcome TrainSgd(Model<T>& model, const PatchBlocks<T>& train, const int* labels,
                      const SgdOptions& options, Optimizer<T>& optimizer, Rng& rng) {
  TrainOutcome out;
  const TrainBudget& budget = options.budget;
  std::vector<int> order(train.samples);
  std::iota(order.begin(), order.end(), 0);
  Vec<T> grad(model.params().size());
  while (out.stop == StopReason::kNone) {
    if (budget.epochs > 0 && out.epochs >= budget.epochs) {
      out.stop = StopReason::kEpochCap;
      break;
    }
    Shuffle(order, rng);
    for (int begin = 0; begin < train.samples; begin += options.batch) {
      if (budget.max_steps > 0 && out.steps >= budget.max_steps) {
        out.stop = StopReason::kStepCap;  // mid-epoch: the epoch is not counted
        return out;
      }
      const int count = std::min(options.batch, train.samples - begin);
      // Only the loss's finiteness is looked at: the step need not compute the loss itself.
      const double loss = model.LossAndGradient(train, order.data() + begin, count, labels, grad,
                                                LossValue::kFiniteness);
      ++out.steps;
      if (!std::isfinite(loss)) {
        out.diverged = true;
        out.stop = StopReason::kDiverged;
        out.message = "loss not finite at step " + std::to_string(out.steps);
        return out;
      }
      optimizer.Step(model.params(), grad);
    }
    ++out.epochs;
    if (!model.params().allFinite()) {
      out.diverged = true;
      out.stop = StopReason::kDiverged;
      out.message = "weights not finite after epoch " + std::to_string(out.epochs);
      return out;
    }
    if (budget.early_stop && !MisclassifiesAny(model, train, labels))
      out.stop = StopReason::kZeroTrainError;
  }
  return out;
}

}  // namespace pmoe
