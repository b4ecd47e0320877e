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
  // Hidden weights in params(): expert s's (d, m/k) block, transposed, at s*(m/k)*d; a (m) fixed.
  ExpertsModel(int k, int m, int d, Vec<T> output_weights);

  void Forward(const PatchBlocks<T>& in, int begin, int count, T* f) override;
  double LossAndGradient(const PatchBlocks<T>& in, const int* idx, int count, const int* labels,
                         Vec<T>& grad) override;

  int experts() const { return k_; }
  const Vec<T>& output_weights() const { return a_; }

 protected:
  Eigen::Map<const RowMat<T>> ExpertWeights(int s) const {  // (d, q)
    return {this->params_.data() + static_cast<size_t>(s) * per_expert_ * d_, d_, per_expert_};
  }
  // Adds (1/rows) sum over each sample's rows of expert s's h to f; fills z_[s], h_[s].
  void AccumulateExpert(int s, int count, int rows, T* f);

  int k_, m_, d_, per_expert_;
  Vec<T> a_;  // (m) output weights, fixed
  // Per-expert workspaces, reused across steps: row pointers, gathered rows (Eigen path only),
  // pre-activations, outputs.
  std::vector<std::vector<const T*>> rows_;
  std::vector<RowMat<T>> gathered_, z_;
  std::vector<Vec<T>> h_;
  RowMat<T> g_, relu_;
  Vec<T> f_, coef_;
};

}  // namespace pmoe
