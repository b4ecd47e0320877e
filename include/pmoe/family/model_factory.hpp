// Builds the model a ModelSpec names, initialized from the trial's init seed (MODEL.md §5).
#pragma once

#include <cstdint>
#include <memory>

#include "pmoe/core/rng.hpp"
#include "pmoe/core/spec.hpp"
#include "pmoe/family/family.hpp"
#include "pmoe/family/model_spec.hpp"
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

// What a model family whose model is a Model<T> trained by SGD (cnn, separate, joint) declares,
// so that MakeModel asks it instead of naming kinds: its experts, and its model with the output
// weights given and its router or gating drawn from `router` (the hidden weights, the first m*d
// parameters of every such model, are drawn by MakeModel after).
template <typename T>
struct ModelParts {
  int m = 0, d = 0, experts = 1;
  Vec<T> output_weights;
};

class SgdModelFamily : public ModelFamily {
 public:
  // Sets the fields of `out` this family declares as its own parameters (separate: the router
  // phase's; joint: the gating init), from the cell `spec`.
  virtual void ReadOwn(const TrialSpec& /*spec*/, ModelSpec& /*out*/) const {}
  virtual int Experts(const ModelSpec& spec, int classes) const = 0;
  virtual std::unique_ptr<Model<float>> NewModel(const ModelSpec& spec, ModelParts<float> parts,
                                                 Rng& router) const = 0;
};

// The model `family` makes from its parts: in float, the family's NewModel; in double, the
// finite-difference tests' twin of it, defined in sim/f64 (linked by the tests, not the tools,
// which carry no double-precision model code). A new SGD family adds its twin there.
std::unique_ptr<Model<float>> NewSgdModel(const SgdModelFamily& family, const ModelSpec& spec,
                                          ModelParts<float> parts, Rng& router);
std::unique_ptr<Model<double>> NewSgdModel(const SgdModelFamily& family, const ModelSpec& spec,
                                           ModelParts<double> parts, Rng& router);

// The model and training parameters of the cell `spec`, whose model.kind is an SGD family: the
// SGD families' shared rows and the family's own (ReadOwn), each its value in `spec`.
ModelSpec ModelSpecOf(const TrialSpec& spec);

// The SGD family spec.kind names; ConfigError naming model.kind and the SGD families if none.
const SgdModelFamily& SgdModelFamilyOf(const ModelSpec& spec);

// The experts a model of `classes` classes has, as its family declares (model.k, or one per
// class for separate training when model.k = 0).
int ModelExperts(const ModelSpec& spec, int classes);

// T = float for trials; double for the finite-difference tests (sim/f64). With classes > 2 (or
// model.loss = softmax), c outputs with per-class output weights and the softmax loss.
template <typename T>
std::unique_ptr<Model<T>> MakeModel(const ModelSpec& spec, int d, uint64_t init_seed,
                                    int classes = 2);

}  // namespace pmoe
