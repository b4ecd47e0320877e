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

template <typename T>
std::unique_ptr<Model<T>> MakeModel(const ModelSpec& spec, int d, uint64_t init_seed) {
  Rng hidden(StreamSeed(init_seed, InitStream::kHidden));
  Rng output(StreamSeed(init_seed, InitStream::kOutput));
  Rng router(StreamSeed(init_seed, InitStream::kRouter));
  const int m = spec.m;
  std::unique_ptr<Model<T>> model;
  if (spec.kind == "cnn") {
    model = std::make_unique<Cnn<T>>(m, d, OutputWeights<T>(1, m, spec.output_init, output));
  } else if (spec.kind == "separate") {
    RowMat<T> kernels(spec.k, d);
    FillNormal<T>(kernels, spec.sigma_r, router);
    model = std::make_unique<SeparateMoe<T>>(
        spec.k, m, d, spec.l, OutputWeights<T>(spec.k, m, spec.output_init, output), kernels);
  } else if (spec.kind == "joint") {
    auto joint = std::make_unique<JointMoe<T>>(
        spec.k, m, d, spec.l, OutputWeights<T>(spec.k, m, spec.output_init, output));
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

template std::unique_ptr<Model<float>> MakeModel(const ModelSpec&, int, uint64_t);
template std::unique_ptr<Model<double>> MakeModel(const ModelSpec&, int, uint64_t);

}  // namespace pmoe
