// Model construction and initialization: hidden weights, fixed output weights, routers/gates.
#include "pmoe/family/model_factory.hpp"

#include <string>
#include <utility>

#include "model_factory_impl.hpp"
#include "pmoe/core/errors.hpp"
#include "pmoe/core/rng.hpp"
#include "pmoe/models/init.hpp"

namespace pmoe {

uint64_t StreamSeed(uint64_t init_seed, InitStream stream) {
  return CombineSeed(init_seed, static_cast<uint64_t>(stream));
}

int ModelOutputs(const ModelSpec& spec, int classes) {
  if (spec.loss == "softmax") return classes;
  if (spec.loss == "logistic") return 1;
  return classes > 2 ? classes : 1;  // auto
}

const SgdModelFamily& SgdModelFamilyOf(const ModelSpec& spec) {
  std::string choices;
  for (const ModelFamily* f : ModelFamilies()) {
    const auto* sgd = dynamic_cast<const SgdModelFamily*>(f);
    if (sgd == nullptr) continue;
    if (f->name() == spec.kind) return *sgd;
    choices += (choices.empty() ? "" : "|") + f->name();
  }
  throw ConfigError("", "model.kind", "a model family trained by SGD: one of " + choices,
                    spec.kind);
}

int ModelExperts(const ModelSpec& spec, int classes) {
  return SgdModelFamilyOf(spec).Experts(spec, classes);
}

std::unique_ptr<Model<float>> NewSgdModel(const SgdModelFamily& family, const ModelSpec& spec,
                                          ModelParts<float> parts, Rng& router) {
  return family.NewModel(spec, std::move(parts), router);
}

template std::unique_ptr<Model<float>> MakeModel(const ModelSpec&, int, uint64_t, int);

}  // namespace pmoe
