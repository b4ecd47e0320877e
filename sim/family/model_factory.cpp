// Model construction and initialization: hidden weights, fixed output weights, routers/gates.
#include "pmoe/family/model_factory.hpp"

#include <string>
#include <utility>

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

template <typename T>
std::unique_ptr<Model<T>> MakeModel(const ModelSpec& spec, int d, uint64_t init_seed, int classes) {
  const SgdModelFamily& family = SgdModelFamilyOf(spec);
  Rng hidden(StreamSeed(init_seed, InitStream::kHidden));
  Rng output(StreamSeed(init_seed, InitStream::kOutput));
  Rng router(StreamSeed(init_seed, InitStream::kRouter));
  const int m = spec.m, k = family.Experts(spec, classes), outputs = ModelOutputs(spec, classes);
  ModelParts<T> parts;
  parts.m = m;
  parts.d = d;
  parts.experts = k;
  parts.output_weights = outputs == 1
                             ? OutputWeights<T>(k, m, spec.output_init, output)
                             : ClassOutputWeights<T>(k, m, outputs, spec.output_init, output);
  std::unique_ptr<Model<T>> model = family.NewModel(spec, std::move(parts), router);
  // The hidden weights are the first m*d parameters of every model (i.i.d., so their layout,
  // transposed per expert, does not matter here).
  FillNormal<T>(Eigen::Map<RowMat<T>>(model->params().data(), m, d), spec.sigma_w, hidden);
  return model;
}

template std::unique_ptr<Model<float>> MakeModel(const ModelSpec&, int, uint64_t, int);
template std::unique_ptr<Model<double>> MakeModel(const ModelSpec&, int, uint64_t, int);

}  // namespace pmoe
