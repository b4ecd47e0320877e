// What the two expert models share (ExpertsModel: CNN and separate pMoE; JointMoe): k experts of
// m/k ReLU neurons each, fixed output weights, and each expert's workspaces, reused across steps.
#pragma once

#include <memory>
#include <utility>
#include <vector>

#include "pmoe/core/errors.hpp"
#include "pmoe/models/model.hpp"

namespace pmoe {

template <typename T>
class ExpertLayer : public Model<T> {
 protected:
  // params(): expert s's hidden weights as a transposed (d, m/k) block at s*(m/k)*d, then
  // `more_params` zeros (the joint model's gating kernels). Output weights fixed: (m) for one
  // output (logistic loss), or (m * c) for c outputs, class i's at [i*m, (i+1)*m), with the
  // softmax cross-entropy (MODEL.md §7).
  ExpertLayer(int k, int m, int d, Vec<T> output_weights, int more_params)
      : k_(k),
        m_(m),
        d_(d),
        per_expert_(m / k),
        outputs_(static_cast<int>(output_weights.size() / m)),
        a_(std::move(output_weights)),
        rows_(k),
        gathered_(k),
        z_(k),
        h_(static_cast<size_t>(k) * outputs_) {
    PMOE_CHECK(m % k == 0 && a_.size() == static_cast<Eigen::Index>(m) * outputs_ && outputs_ >= 1)
        << "m = " << m << ", k = " << k << ", output weights " << a_.size();
    this->params_ = Vec<T>::Zero(static_cast<Eigen::Index>(m) * d + more_params);
    if (outputs_ > 1) this->loss_ = std::make_shared<SoftmaxCrossEntropy<T>>(outputs_);
  }

  Eigen::Map<const RowMat<T>> ExpertWeights(int s) const {  // (d, q)
    return {this->params_.data() + static_cast<size_t>(s) * per_expert_ * d_, d_, per_expert_};
  }
  auto OutputWeights(int s, int o) const {  // output o's weights of expert s's neurons
    return a_.segment(static_cast<Eigen::Index>(o) * m_ + s * per_expert_, per_expert_);
  }

  int k_, m_, d_, per_expert_, outputs_;
  Vec<T> a_;  // (m * outputs) output weights, fixed
  // Per expert: row pointers of the batch, rows copied (Eigen path only), pre-activations.
  std::vector<std::vector<const T*>> rows_;
  std::vector<RowMat<T>> gathered_, z_;
  std::vector<Vec<T>> h_;        // (k * outputs): expert s's output o at [s * outputs + o]
  RowMat<T> g_, g_more_, relu_;  // backward and forward scratch of the expert kernels
  Vec<T> f_;                     // the batch's outputs
};

}  // namespace pmoe
