// Routing of the separately trained pMoE: top-l patches per expert under frozen router kernels.
// The template definitions: separate_moe.cpp instantiates them in float for the tools, sim/f64 in
// double for the finite-difference tests (the tools do not carry the double code).
#pragma once

#include "pmoe/models/separate_moe.hpp"
#include "pmoe/models/topl.hpp"

namespace pmoe {

template <typename T>
SeparateMoe<T>::SeparateMoe(int k, int m, int d, int l, Vec<T> output_weights, RowMat<T> router)
    : ExpertsModel<T>(k, m, d, std::move(output_weights)), l_(l), router_(std::move(router)) {}

template <typename T>
std::vector<int> SeparateMoe<T>::Route(const RowMat<T>& x, int samples) const {
  return RouteAll<T>(x, samples, router_, l_);
}

template <typename T>
PatchBlocks<T> SeparateMoe<T>::Prepare(const RowMat<T>& x, int samples) const {
  PatchBlocks<T> in = AllPatches(x, samples);
  in.blocks = this->k_;
  in.rows_per_sample = l_;
  in.routes = Route(x, samples);
  return in;
}

}  // namespace pmoe
