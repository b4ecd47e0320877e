// k experts of m/k ReLU neurons each with fixed output weights, expert s reading block s of the
// prepared input, averaged over that block's rows (MODEL.md §4 with G = 1). The CNN is the case
// k = 1 over all n patches; separate pMoE is k = 2 over the l routed patches of each expert.
#pragma once

#include <vector>

#include "pmoe/models/model.hpp"

namespace pmoe {

template <typename T>
class ExpertsModel : public Model<T> {
 public:
  // Hidden weights w (m, d) in params(), row block s*(m/k) .. for expert s; a (m) fixed.
  ExpertsModel(int k, int m, int d, Vec<T> output_weights);

  void Forward(const PatchBlocks<T>& in, int begin, int count, T* f) override;
  double LossAndGradient(const PatchBlocks<T>& in, const int* idx, int count, const Vec<T>& y,
                         Vec<T>& grad) override;

  int experts() const { return k_; }
  const Vec<T>& output_weights() const { return a_; }

 protected:
  Eigen::Map<const RowMat<T>> ExpertWeights(int s) const {
    return {this->params_.data() + static_cast<size_t>(s) * per_expert_ * d_, per_expert_, d_};
  }
  // Adds (1/rows) sum over each sample's rows of expert s's h to f; fills z_[s], h_[s].
  void AccumulateExpert(int s, const Eigen::Map<const RowMat<T>>& x, int count, int rows, T* f);

  int k_, m_, d_, per_expert_;
  Vec<T> a_;  // (m) output weights, fixed
  // Per-expert workspaces, reused across steps: gathered rows, pre-activations, outputs.
  std::vector<RowMat<T>> rows_, z_;
  std::vector<Vec<T>> h_;
  RowMat<T> g_;
  Vec<T> f_, coef_;
};

}  // namespace pmoe
