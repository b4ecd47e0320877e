// Builds the model a ModelSpec names, initialized from the trial's init seed (MODEL.md §5).
#pragma once

#include <cstdint>
#include <memory>

#include "pmoe/core/spec.hpp"
#include "pmoe/models/model.hpp"

namespace pmoe {

// Independent streams of the init seed, so adding a draw to one never shifts another.
enum class InitStream : uint64_t {
  kHidden = 1,
  kOutput = 2,
  kRouter = 3,
  kSgd = 4,
  kRouterSgd = 5
};

uint64_t StreamSeed(uint64_t init_seed, InitStream stream);

// Values of f per sample for `classes` classes under spec.loss (MODEL.md §7): 1 (logistic, two
// classes) or c (softmax cross-entropy).
int ModelOutputs(const ModelSpec& spec, int classes);

// The experts a model of `classes` classes has: model.k, or one per class for separate training
// when model.k = 0.
int ModelExperts(const ModelSpec& spec, int classes);

// T = float for trials; double for the finite-difference tests. With classes > 2 (or
// model.loss = softmax), c outputs with per-class output weights and the softmax loss.
template <typename T>
std::unique_ptr<Model<T>> MakeModel(const ModelSpec& spec, int d, uint64_t init_seed,
                                    int classes = 2);

}  // namespace pmoe
