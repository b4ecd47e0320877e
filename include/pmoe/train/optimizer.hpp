// The optimizer as an object over a model's flat parameter vector, split into named groups (the
// hidden weights, a router, ...), so that one step rule may differ per group: plain SGD today;
// a normalized step per group or Adam are further subclasses (MODEL.md §8).
#pragma once

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
