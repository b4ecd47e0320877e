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
  // Hidden weights in params(): expert s's (d, m/k) block, transposed, at s*(m/k)*d. Output
  // weights fixed: (m) for one output (logistic loss), or (m * c) for c outputs, class i's at
  // [i*m, (i+1)*m), with the softmax cross-entropy (MODEL.md §7).
  ExpertsModel(int k, int m, int d, Vec<T> output_weights);

  void Forward(const PatchBlocks<T>& in, int begin, int count, T* f) override;
  double LossAndGradient(const PatchBlocks<T>& in, const int* idx, int count, const int* labels,
                         Vec<T>& grad, LossValue value = LossValue::kExact) override;

  int experts() const { return k_; }
  const Vec<T>& output_weights() const { return a_; }

 protected:
  Eigen::Map<const RowMat<T>> ExpertWeights(int s) const {  // (d, q)
    return {this->params_.data() + static_cast<size_t>(s) * per_expert_ * d_, d_, per_expert_};
  }
  // Adds (1/rows) sum over each sample's rows of expert s's h to f (count, outputs); fills z_[s]
  // and h_[s * outputs + o] for each output o.
  void AccumulateExpert(int s, int count, int rows, T* f);
  auto OutputWeights(int s, int o) const {  // output o's weights of expert s's neurons
    return a_.segment(static_cast<Eigen::Index>(o) * m_ + s * per_expert_, per_expert_);
  }

  int k_, m_, d_, per_expert_, outputs_;
  Vec<T> a_;  // (m * outputs) output weights, fixed
  // Per-expert workspaces, reused across steps: row pointers, gathered rows (Eigen path only),
  // pre-activations, outputs.
  std::vector<std::vector<const T*>> rows_;
  std::vector<RowMat<T>> gathered_, z_;
  std::vector<Vec<T>> h_, coef_;                // h_: (k * outputs); coef_: (outputs)
  std::vector<const T*> class_a_, class_coef_;  // (outputs): c outputs only
  RowMat<T> g_, g_more_, relu_;
  Vec<T> f_;
  std::vector<double> slope_;  // (outputs) dL/df of one sample
};

}  // namespace pmoe
