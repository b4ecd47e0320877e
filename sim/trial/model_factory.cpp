// Model construction and initialization: hidden weights, fixed output weights, routers/gates.
#include "pmoe/trial/model_factory.hpp"

#include "pmoe/core/errors.hpp"
#include "pmoe/core/rng.hpp"
#include "pmoe/models/cnn.hpp"
#include "pmoe/models/init.hpp"
#include "pmoe/models/joint_moe.hpp"
#include "pmoe/models/separate_moe.hpp"

namespace pmoe {

uint64_t StreamSeed(uint64_t init_seed, InitStream stream) {
  return CombineSeed(init_seed, static_cast<uint64_t>(stream));
}

int ModelOutputs(const ModelSpec& spec, int classes) {
  if (spec.loss == "softmax") return classes;
  if (spec.loss == "logistic") return 1;
  return classes > 2 ? classes : 1;  // auto
}

int ModelExperts(const ModelSpec& spec, int classes) {
  return spec.kind == "separate" && spec.k == 0 ? classes : spec.kind == "cnn" ? 1 : spec.k;
}

template <typename T>
std::unique_ptr<Model<T>> MakeModel(const ModelSpec& spec, int d, uint64_t init_seed, int classes) {
  Rng hidden(StreamSeed(init_seed, InitStream::kHidden));
  Rng output(StreamSeed(init_seed, InitStream::kOutput));
  Rng router(StreamSeed(init_seed, InitStream::kRouter));
  const int m = spec.m, k = ModelExperts(spec, classes), outputs = ModelOutputs(spec, classes);
  auto output_weights = [&](int experts) {
    return outputs == 1 ? OutputWeights<T>(experts, m, spec.output_init, output)
                        : ClassOutputWeights<T>(experts, m, outputs, spec.output_init, output);
  };
  std::unique_ptr<Model<T>> model;
  if (spec.kind == "cnn") {
    model = std::make_unique<Cnn<T>>(m, d, output_weights(1));
  } else if (spec.kind == "separate") {
    RowMat<T> kernels(k, d);
    FillNormal<T>(kernels, spec.sigma_r, router);
    model = std::make_unique<SeparateMoe<T>>(k, m, d, spec.l, output_weights(k), kernels);
  } else if (spec.kind == "joint") {
    auto joint = std::make_unique<JointMoe<T>>(k, m, d, spec.l, output_weights(k));
    FillNormal<T>(joint->gating(), spec.sigma_g, router);
    model = std::move(joint);
  } else {
    throw ConfigError("", "model.kind", "separate, joint or cnn", spec.kind);
  }
  // The hidden weights are the first m*d parameters of every model (i.i.d., so their layout,
  // transposed per expert, does not matter here).
  FillNormal<T>(Eigen::Map<RowMat<T>>(model->params().data(), m, d), spec.sigma_w, hidden);
  return model;
}

template std::unique_ptr<Model<float>> MakeModel(const ModelSpec&, int, uint64_t, int);
template std::unique_ptr<Model<double>> MakeModel(const ModelSpec&, int, uint64_t, int);

}  // namespace pmoe
