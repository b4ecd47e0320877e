// The loss as an object (MODEL.md §5, §7): logistic on one output for two classes, softmax
// cross-entropy on c outputs. A model's LossAndGradient asks it for each sample's loss and its
// slope dL/df; evaluation asks whether the prediction is the label.
#pragma once

#include <algorithm>
#include <cmath>

#include "pmoe/core/errors.hpp"
#include "pmoe/core/exp_log1p.hpp"
#include "pmoe/models/double_softmax_lanes.hpp"
#include "pmoe/models/logistic.hpp"

namespace pmoe {

template <typename T>
class Loss {
 public:
  virtual ~Loss() = default;
  virtual int outputs() const = 0;  // values of f per sample
  // The loss of one sample whose outputs are f[0..outputs()) and whose class is `label`.
  virtual double Value(const T* f, int label) const = 0;
  // The same, and slope[o] = dL/df[o] for every output.
  virtual double ValueAndSlope(const T* f, int label, double* slope) const = 0;
  // ValueAndSlope of `count` samples at once, bit for bit: sample k's outputs are
  // f[k outputs() ..], its slopes go to slope[k outputs() ..] and its loss to value[k].
  virtual void ValuesAndSlopes(const T* f, const int* labels, int count, double* value,
                               double* slope) const {
    const int o = outputs();
    for (int k = 0; k < count; ++k) value[k] = ValueAndSlope(f + k * o, labels[k], slope + k * o);
  }
  // The slopes of ValueAndSlope, bit for bit, and whether the loss is finite, without computing
  // more of it than that needs (the training steps' divergence check; LossValue::kFiniteness).
  virtual bool SlopeAndFiniteness(const T* f, int label, double* slope) const {
    return std::isfinite(ValueAndSlope(f, label, slope));
  }
  // Whether the model predicts `label` (a non-finite output never does).
  virtual bool Correct(const T* f, int label) const = 0;
};

// Two classes, one output: label 0 is y = +1, label 1 is y = -1; L = log(1 + exp(-y f)).
template <typename T>
class BinaryLogisticLoss final : public Loss<T> {
 public:
  static double Sign(int label) { return label == 0 ? 1.0 : -1.0; }
  int outputs() const override { return 1; }
  double Value(const T* f, int label) const override { return LogisticLoss(Sign(label), f[0]); }
  double ValueAndSlope(const T* f, int label, double* slope) const override {
    const double y = Sign(label);
    slope[0] = LogisticLossSlope(y, f[0]);
    return LogisticLoss(y, f[0]);
  }
  bool SlopeAndFiniteness(const T* f, int label, double* slope) const override {
    bool finite;
    slope[0] = LogisticLossSlope(Sign(label), f[0], &finite);
    return finite;
  }
  bool Correct(const T* f, int label) const override { return Sign(label) * f[0] > 0; }
};

// c classes, c outputs: L = -log softmax(f)[label], computed from the largest output down.
template <typename T>
class SoftmaxCrossEntropy final : public Loss<T> {
 public:
  explicit SoftmaxCrossEntropy(int classes) : classes_(classes) {}
  int outputs() const override { return classes_; }
  double Value(const T* f, int label) const override {
    const double top = *std::max_element(f, f + classes_);
    double total = 0;
    for (int o = 0; o < classes_; ++o) total += std::exp(f[o] - top);
    return std::log(total) - (f[label] - top);
  }
  double ValueAndSlope(const T* f, int label, double* slope) const override {
    const double top = *std::max_element(f, f + classes_);
    double total = 0;
    for (int o = 0; o < classes_; ++o) total += slope[o] = std::exp(f[o] - top);
    for (int o = 0; o < classes_; ++o) slope[o] = slope[o] / total - (o == label ? 1.0 : 0.0);
    return std::log(total) - (f[label] - top);
  }
  // Argmax with ties to the lower class; wrong when any output is not finite.
  bool Correct(const T* f, int label) const override {
    int best = 0;
    for (int o = 0; o < classes_; ++o) {
      if (!std::isfinite(static_cast<double>(f[o]))) return false;
      if (f[o] > f[best]) best = o;
    }
    return best == label;
  }

 private:
  int classes_;
};

// The published switch MoE's loss (MODEL.md §8): cross-entropy applied to softmax(f), a double
// softmax. With p = softmax(f): L = log sum_o exp(p_o) - p_label; for two classes
// L = log(1 + exp(1 - 2 p_label)), whose floor is log(1 + 1/e) = 0.3133.
template <typename T>
class DoubleSoftmaxCrossEntropy final : public Loss<T> {
 public:
  explicit DoubleSoftmaxCrossEntropy(int classes) : classes_(classes), argmax_(classes) {
    PMOE_CHECK(classes >= 2 && classes <= kMaxClasses) << "classes = " << classes;
  }
  int outputs() const override { return classes_; }
  double Value(const T* f, int label) const override {
    if (classes_ == 2) {
      double slope[2];
      return TwoClasses(f[label], f[1 - label], slope[0]);
    }
    double p[kMaxClasses];
    Softmax(f, p);
    double total = 0;
    for (int o = 0; o < classes_; ++o) total += std::exp(p[o]);  // p in [0, 1]: no overflow
    return std::log(total) - p[label];
  }
  // dL/df_j = p_j (q_j - sum_k q_k p_k), q = softmax(p) - e_label. Two classes (the switch
  // MoE's, once per sample and step) in closed form (TwoClasses).
  double ValueAndSlope(const T* f, int label, double* slope) const override {
    if (classes_ == 2) {
      double g;
      const double value = TwoClasses(f[label], f[1 - label], g);
      slope[label] = g;
      slope[1 - label] = -g;
      return value;
    }
    double p[kMaxClasses], q[kMaxClasses];
    Softmax(f, p);
    double total = 0;
    for (int o = 0; o < classes_; ++o) total += q[o] = std::exp(p[o]);
    double mean = 0;
    for (int o = 0; o < classes_; ++o) {
      q[o] = q[o] / total - (o == label ? 1.0 : 0.0);
      mean += q[o] * p[o];
    }
    for (int o = 0; o < classes_; ++o) slope[o] = p[o] * (q[o] - mean);
    return std::log(total) - p[label];
  }
  // Two classes: four samples at a time through DoubleSoftmaxTwo4 (vectors on the AVX-512 and
  // AVX2 paths), the same bits as ValueAndSlope sample by sample.
  void ValuesAndSlopes(const T* f, const int* labels, int count, double* value,
                       double* slope) const override {
    if (classes_ != 2) return Loss<T>::ValuesAndSlopes(f, labels, count, value, slope);
    for (int k0 = 0; k0 < count; k0 += 4) {
      double mine[4] = {0, 0, 0, 0}, other[4] = {0, 0, 0, 0}, v[4], g[4];
      const int n = std::min(4, count - k0);
      for (int k = 0; k < n; ++k) {
        const T* fk = f + 2 * (k0 + k);
        const int label = labels[k0 + k];
        mine[k] = static_cast<double>(fk[label]);
        other[k] = static_cast<double>(fk[1 - label]);
      }
      DoubleSoftmaxTwo4(mine, other, v, g);
      for (int k = 0; k < n; ++k) {
        const int label = labels[k0 + k];
        double* sk = slope + 2 * (k0 + k);
        value[k0 + k] = v[k];
        sk[label] = g[k];
        sk[1 - label] = -g[k];
      }
    }
  }
  bool Correct(const T* f, int label) const override { return argmax_.Correct(f, label); }

 private:
  static constexpr int kMaxClasses = 64;
  // The two-class loss (numerics version 8: ExpD and Log1pD, not libm; DoubleSoftmaxTwoLanes):
  // with p = p_label = sigmoid(f_label - f_other) and e = exp(1 - 2p), L = log(1 + e) and
  // dL/df_label = -2 p (1 - p) e / (1 + e), into g.
  static double TwoClasses(T mine, T other, double& g) {
    return DoubleSoftmaxTwoLanes<ScalarLanes>(static_cast<double>(mine), static_cast<double>(other),
                                              g);
  }
  void Softmax(const T* f, double* p) const {
    const double top = *std::max_element(f, f + classes_);
    double total = 0;
    for (int o = 0; o < classes_; ++o) total += p[o] = std::exp(f[o] - top);
    for (int o = 0; o < classes_; ++o) p[o] /= total;
  }
  int classes_;
  SoftmaxCrossEntropy<T> argmax_;  // the same prediction: argmax of f
};

}  // namespace pmoe
