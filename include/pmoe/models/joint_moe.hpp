// Jointly trained pMoE (MODEL.md §4-5, Algorithm 2): k experts, each routing the top l of n
// patches by its gating kernel, weighted by a softmax over the selected routing values. The
// selection passes no gradient; the gating kernels learn through the softmax weights.
#pragma once

#include <vector>

#include "pmoe/models/expert_layer.hpp"

namespace pmoe {

template <typename T>
class JointMoe : public ExpertLayer<T> {
 public:
  // params(): the experts' hidden weights as ExpertLayer lays them out, then the gating kernels
  // (k, d); the output weights as ExpertLayer's.
  JointMoe(int k, int m, int d, int l, Vec<T> output_weights);

  PatchBlocks<T> Prepare(const RowMat<T>& x, int samples) const override;
  void Forward(const PatchBlocks<T>& in, int begin, int count, T* f) override;
  double LossAndGradient(const PatchBlocks<T>& in, const int* idx, int count, const int* labels,
                         Vec<T>& grad, LossValue value = LossValue::kExact) override;

  // J_s(x_i) for every sample and expert: (samples, k, l), by descending routing value.
  std::vector<int> Route(const RowMat<T>& x, int samples) const;

  // While on, Forward keeps the routes it computes, by sample: after forward passes over
  // samples [0, N), TakeRoutes() returns what Route would for them, without computing it again.
  void KeepRoutes(bool on) {
    keep_routes_ = on;
    kept_routes_.clear();
  }
  std::vector<int> TakeRoutes() { return std::move(kept_routes_); }

  Eigen::Map<RowMat<T>> gating() {
    return {this->params_.data() + static_cast<size_t>(m_) * d_, k_, d_};
  }

 private:
  using ExpertLayer<T>::k_, ExpertLayer<T>::m_, ExpertLayer<T>::d_, ExpertLayer<T>::per_expert_,
      ExpertLayer<T>::outputs_, ExpertLayer<T>::a_, ExpertLayer<T>::rows_,
      ExpertLayer<T>::gathered_, ExpertLayer<T>::z_, ExpertLayer<T>::h_, ExpertLayer<T>::g_,
      ExpertLayer<T>::g_more_, ExpertLayer<T>::relu_, ExpertLayer<T>::f_,
      ExpertLayer<T>::ExpertWeights, ExpertLayer<T>::OutputWeights;
  Eigen::Map<const RowMat<T>> Gating() const {
    return {this->params_.data() + static_cast<size_t>(m_) * d_, k_, d_};
  }
  // f for the samples all_rows_ points at (all n patches of each), keeping routes, gates and
  // activations for backward.
  void ForwardRows(int n, int count, T* f);
  // The gradient with c > 1 outputs, from the slopes in slope_ (LossAndGradient's second half).
  void ClassBackward(int count, Vec<T>& grad);
  void WriteExpertGradient(int s, Vec<T>& grad);  // from g_, after either backward's pass

  int l_;
  std::vector<const T*> all_rows_;  // (count*n) the batch's patches, in the data
  RowMat<T> gating_t_;              // (d, k) the gating kernels transposed, for the row kernels
  RowMat<T> gathered_all_;          // the batch's patches copied, on the Eigen path only
  RowMat<T> scores_;                // (count*n, k): g_{j,s}
  std::vector<int> routes_;         // (count, k, l): J_s of each sample of the batch
  std::vector<Vec<T>> gate_;        // (count*l) per expert: softmax weight G of its routed rows
  RowMat<T> dw_;
  // c outputs only, (outputs) of (count*l): each output's neuron coefficients; its slope / l.
  std::vector<Vec<T>> class_coef_, class_slope_;
  std::vector<const T*> class_a_, class_coef_ptr_;  // per output: weights of one expert, coef
  Vec<T> slope_, coef_, gate_coef_;                 // slope_: (count, outputs)
  Vec<T> total_, slope_routed_, mean_h_;  // (count*l) per-sample values repeated per routed row
  std::vector<double> sample_slope_;      // (outputs) dL/df of one sample
  bool keep_routes_ = false;
  std::vector<int> kept_routes_;  // (samples, k, l) while keep_routes_
};

}  // namespace pmoe
