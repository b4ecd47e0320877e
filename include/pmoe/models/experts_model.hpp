// k experts of m/k ReLU neurons each with fixed output weights, expert s reading block s of the
// prepared input, averaged over that block's rows (MODEL.md §4 with G = 1). The CNN is the case
// k = 1 over all n patches; separate pMoE is k = 2 over the l routed patches of each expert.
#pragma once

#include <vector>

#include "pmoe/models/expert_layer.hpp"

namespace pmoe {

template <typename T>
class ExpertsModel : public ExpertLayer<T> {
 public:
  // Hidden weights in params() and the output weights as ExpertLayer lays them out.
  ExpertsModel(int k, int m, int d, Vec<T> output_weights)
      : ExpertLayer<T>(k, m, d, std::move(output_weights), /*more_params=*/0),
        coef_(outputs_),
        class_a_(outputs_),
        class_coef_(outputs_),
        slope_(outputs_) {}

  void Forward(const PatchBlocks<T>& in, int begin, int count, T* f) override;
  double LossAndGradient(const PatchBlocks<T>& in, const int* idx, int count, const int* labels,
                         Vec<T>& grad, LossValue value = LossValue::kExact) override;

  int experts() const { return k_; }
  const Vec<T>& output_weights() const { return a_; }

 protected:
  using ExpertLayer<T>::k_, ExpertLayer<T>::m_, ExpertLayer<T>::d_, ExpertLayer<T>::per_expert_,
      ExpertLayer<T>::outputs_, ExpertLayer<T>::a_, ExpertLayer<T>::rows_,
      ExpertLayer<T>::gathered_, ExpertLayer<T>::z_, ExpertLayer<T>::h_, ExpertLayer<T>::g_,
      ExpertLayer<T>::g_more_, ExpertLayer<T>::relu_, ExpertLayer<T>::f_,
      ExpertLayer<T>::ExpertWeights, ExpertLayer<T>::OutputWeights;
  // Adds (1/rows) sum over each sample's rows of expert s's h to f (count, outputs); fills z_[s]
  // and h_[s * outputs + o] for each output o.
  void AccumulateExpert(int s, int count, int rows, T* f);
  std::vector<Vec<T>> coef_;                    // (outputs) of (count*rows)
  std::vector<const T*> class_a_, class_coef_;  // (outputs): c outputs only
  std::vector<double> slope_;                   // (outputs) dL/df of one sample
};

}  // namespace pmoe
