// The SGD families' models from their parts (MODEL.md §5): in float for the families' NewModel,
// in double for the finite-difference tests' twins (sim/f64/training_f64.cpp).
#pragma once

#include <memory>
#include <utility>

#include "pmoe/core/rng.hpp"
#include "pmoe/family/model_factory.hpp"
#include "pmoe/family/model_spec.hpp"
#include "pmoe/models/cnn.hpp"
#include "pmoe/models/init.hpp"
#include "pmoe/models/joint_moe.hpp"
#include "pmoe/models/separate_moe.hpp"

namespace pmoe {

template <typename T>
std::unique_ptr<Model<T>> NewCnn(ModelParts<T> parts) {
  return std::make_unique<Cnn<T>>(parts.m, parts.d, std::move(parts.output_weights));
}

// The routers' kernels (one per expert, N(0, sigma_r^2)) from the init seed's router stream.
template <typename T>
std::unique_ptr<Model<T>> NewSeparateMoe(const ModelSpec& spec, ModelParts<T> parts, Rng& router) {
  RowMat<T> kernels(parts.experts, parts.d);
  FillNormal<T>(kernels, spec.sigma_r, router);
  return std::make_unique<SeparateMoe<T>>(parts.experts, parts.m, parts.d, spec.l,
                                          std::move(parts.output_weights), kernels);
}

// The gating kernels (N(0, sigma_g^2)) from the init seed's router stream.
template <typename T>
std::unique_ptr<Model<T>> NewJointMoe(const ModelSpec& spec, ModelParts<T> parts, Rng& router) {
  auto joint = std::make_unique<JointMoe<T>>(parts.experts, parts.m, parts.d, spec.l,
                                             std::move(parts.output_weights));
  FillNormal<T>(joint->gating(), spec.sigma_g, router);
  return joint;
}

}  // namespace pmoe
