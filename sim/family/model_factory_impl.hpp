// MakeModel's template definition: model_factory.cpp instantiates it in float for the tools,
// sim/f64 in double for the finite-difference tests.
#pragma once

#include <memory>
#include <utility>

#include "pmoe/core/rng.hpp"
#include "pmoe/family/model_factory.hpp"
#include "pmoe/models/init.hpp"

namespace pmoe {

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
  std::unique_ptr<Model<T>> model = NewSgdModel(family, spec, std::move(parts), router);
  // The hidden weights are the first m*d parameters of every model (i.i.d., so their layout,
  // transposed per expert, does not matter here).
  FillNormal<T>(Eigen::Map<RowMat<T>>(model->params().data(), m, d), spec.sigma_w, hidden);
  return model;
}

}  // namespace pmoe
