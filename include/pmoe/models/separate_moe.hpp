// Separately trained pMoE (MODEL.md §4-5, Algorithm 1): routers trained first by their linear
// loss and then frozen, so each expert's l routed patches are found once per data set.
#pragma once

#include <vector>

#include "pmoe/models/experts_model.hpp"

namespace pmoe {

template <typename T>
class SeparateMoe : public ExpertsModel<T> {
 public:
  // k experts of m/k neurons, routing l of n patches; router kernels (k, d) start at `router`.
  SeparateMoe(int k, int m, int d, int l, Vec<T> output_weights, RowMat<T> router);

  // Each expert's block reads its l routed patches per sample, in routing order; the view's
  // routes are Route(x, samples).
  PatchBlocks<T> Prepare(const RowMat<T>& x, int samples) const override;

  // J_s(x_i) for every sample i and expert s: (samples, k, l), each by descending routing value.
  std::vector<int> Route(const RowMat<T>& x, int samples) const;

  RowMat<T>& router() { return router_; }  // (k, d): w_s of expert s
  int l() const { return l_; }

 private:
  int l_;
  RowMat<T> router_;
};

}  // namespace pmoe
