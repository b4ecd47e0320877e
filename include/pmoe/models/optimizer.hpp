// The optimizer as an object over a model's flat parameter vector, split into named groups (the
// hidden weights, a router, ...), so that one step rule may differ per group: plain SGD (§5), a
// normalized step per group, Adam with weight decay, and their combination (§8).
#pragma once

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "pmoe/core/matrix.hpp"

namespace pmoe {

// params[begin, begin + size) of a model, e.g. {"expert 0", 0, q*d}.
struct ParamGroup {
  std::string name;
  size_t begin = 0, size = 0;
};

template <typename T>
class Optimizer {
 public:
  virtual ~Optimizer() = default;
  // One update of params from the gradient of the loss at params.
  virtual void Step(Vec<T>& params, const Vec<T>& grad) = 0;
};

// params -= lr * grad on every group (MODEL.md §5).
template <typename T>
class SgdStep final : public Optimizer<T> {
 public:
  explicit SgdStep(double lr) : lr_(static_cast<T>(lr)) {}
  void Step(Vec<T>& params, const Vec<T>& grad) override { params -= lr_ * grad; }

 private:
  T lr_;
};

}  // namespace pmoe

namespace pmoe {

// Normalized gradient descent per group (MODEL.md §8, the published "NormalizedGD"): a group is
// a list of parts (an expert's filters and its biases), moved by
//   params -= lr * grad / (sum over its parts of ||grad_part||_2)
// and left alone when that divisor is 0 (an expert that received no sample). Parameters in no
// group are not touched.
template <typename T>
class NormalizedStep final : public Optimizer<T> {
 public:
  NormalizedStep(double lr, std::vector<std::vector<ParamGroup>> groups)
      : lr_(lr), groups_(std::move(groups)) {}
  void Step(Vec<T>& params, const Vec<T>& grad) override {
    for (const auto& parts : groups_) {
      const double divisor = Divisor(grad, parts);
      if (divisor == 0) continue;
      const T scale = static_cast<T>(lr_ / divisor);
      for (const ParamGroup& g : parts)
        params.segment(g.begin, g.size) -= scale * grad.segment(g.begin, g.size);
    }
  }
  // The sum of the parts' gradient norms (double accumulation).
  static double Divisor(const Vec<T>& grad, const std::vector<ParamGroup>& parts) {
    double divisor = 0;
    for (const ParamGroup& g : parts)
      divisor += std::sqrt(grad.segment(g.begin, g.size).template cast<double>().squaredNorm());
    return divisor;
  }

 private:
  double lr_;
  std::vector<std::vector<ParamGroup>> groups_;
};

// params -= lr * grad on the listed groups only (the switch MoE's router).
template <typename T>
class GroupSgdStep final : public Optimizer<T> {
 public:
  GroupSgdStep(double lr, std::vector<ParamGroup> groups)
      : lr_(static_cast<T>(lr)), groups_(std::move(groups)) {}
  void Step(Vec<T>& params, const Vec<T>& grad) override {
    for (const ParamGroup& g : groups_)
      params.segment(g.begin, g.size) -= lr_ * grad.segment(g.begin, g.size);
  }

 private:
  T lr_;
  std::vector<ParamGroup> groups_;
};

// Several optimizers over disjoint groups, each applied from the same gradient (one forward and
// backward pass feeds the experts' and the router's steps).
template <typename T>
class CombinedStep final : public Optimizer<T> {
 public:
  void Add(std::unique_ptr<Optimizer<T>> part) { parts_.push_back(std::move(part)); }
  void Step(Vec<T>& params, const Vec<T>& grad) override {
    for (auto& part : parts_) part->Step(params, grad);
  }

 private:
  std::vector<std::unique_ptr<Optimizer<T>>> parts_;
};

// Adam (Kingma & Ba) as PyTorch's torch.optim.Adam with weight_decay, the published single-model
// optimizer (MODEL.md §8): g = grad + wd * params (L2 added to the gradient, not decoupled);
// m = b1 m + (1 - b1) g; v = b2 v + (1 - b2) g^2;
// params -= (lr / (1 - b1^t)) * m / (sqrt(v) / sqrt(1 - b2^t) + eps).
struct AdamOptions {
  double lr = 0.001;
  double beta1 = 0.9, beta2 = 0.999;
  double eps = 1e-8;
  double weight_decay = 0.0;
};

template <typename T>
class AdamStep final : public Optimizer<T> {
 public:
  explicit AdamStep(const AdamOptions& options) : o_(options) {}
  void Step(Vec<T>& params, const Vec<T>& grad) override {
    if (m_.size() != params.size()) {
      m_ = Vec<T>::Zero(params.size());
      v_ = Vec<T>::Zero(params.size());
    }
    ++t_;
    const T b1 = static_cast<T>(o_.beta1), b2 = static_cast<T>(o_.beta2);
    const T wd = static_cast<T>(o_.weight_decay);
    const T step = static_cast<T>(o_.lr / (1.0 - std::pow(o_.beta1, t_)));
    const T root_correction = static_cast<T>(std::sqrt(1.0 - std::pow(o_.beta2, t_)));
    const T eps = static_cast<T>(o_.eps);
    for (Eigen::Index i = 0; i < params.size(); ++i) {
      const T g = grad[i] + wd * params[i];
      m_[i] = b1 * m_[i] + (1 - b1) * g;
      v_[i] = b2 * v_[i] + (1 - b2) * g * g;
      params[i] -= step * m_[i] / (std::sqrt(v_[i]) / root_correction + eps);
    }
  }
  long steps() const { return t_; }

 private:
  AdamOptions o_;
  Vec<T> m_, v_;
  long t_ = 0;
};

}  // namespace pmoe
