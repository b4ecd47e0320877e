// Forward and backward of k independent experts on their row blocks (CNN and separate pMoE).
// The template definitions: experts_model.cpp instantiates them in float for the tools, sim/f64 in
// double for the finite-difference tests (the tools do not carry the double code).
#pragma once

#include "pmoe/core/errors.hpp"
#include "pmoe/models/expert_kernels.hpp"
#include "pmoe/models/experts_model.hpp"

namespace pmoe {

template <typename T>
void ExpertsModel<T>::AccumulateExpert(int s, int count, int rows, T* f) {
  Vec<T>* h = &h_[static_cast<size_t>(s) * outputs_];
  ExpertForward<T>(
      rows_[s], d_, ExpertWeights(s), outputs_, [&](int o) { return OutputWeights(s, o); }, z_[s],
      gathered_[s], relu_, h);
  const T scale = T(1) / rows;
  for (int o = 0; o < outputs_; ++o)
    for (int i = 0; i < count; ++i)
      f[i * outputs_ + o] += scale * h[o].segment(i * rows, rows).sum();
}

template <typename T>
void ExpertsModel<T>::Forward(const PatchBlocks<T>& in, int begin, int count, T* f) {
  std::fill(f, f + static_cast<size_t>(count) * outputs_, T(0));
  for (int s = 0; s < k_; ++s) {
    in.PointAtBatch(s, nullptr, begin, count, rows_[s]);
    AccumulateExpert(s, count, in.rows_per_sample, f);
  }
}

template <typename T>
double ExpertsModel<T>::LossAndGradient(const PatchBlocks<T>& in, const int* idx, int count,
                                        const int* labels, Vec<T>& grad, LossValue value) {
  PMOE_CHECK(idx != nullptr) << "training batches are index lists";
  const int rows = in.rows_per_sample;
  f_.setZero(static_cast<Eigen::Index>(count) * outputs_);
  for (int s = 0; s < k_; ++s) {
    in.PointAtBatch(s, idx, 0, count, rows_[s]);
    AccumulateExpert(s, count, rows, f_.data());
  }

  // d(mean loss)/d(h_o of row r of sample i) = slope_{i,o} / (count * rows).
  double loss = 0.0;
  for (Vec<T>& coef : coef_) coef.resize(static_cast<Eigen::Index>(count) * rows);
  for (int i = 0; i < count; ++i) {
    loss +=
        SampleLossAndSlope(*this->loss_, value, &f_[i * outputs_], labels[idx[i]], slope_.data());
    for (int o = 0; o < outputs_; ++o)
      coef_[o]
          .segment(i * rows, rows)
          .setConstant(static_cast<T>(slope_[o] / (static_cast<double>(count) * rows)));
  }
  grad.resize(this->params_.size());
  for (int s = 0; s < k_; ++s) {
    if (outputs_ == 1) {
      ReluBackward<T>(z_[s], OutputWeights(s, 0), coef_[0], nullptr, g_);
    } else {  // dL/dz = sum over outputs o of coef_o a_o 1[z > 0], in one pass
      for (int o = 0; o < outputs_; ++o) {
        class_a_[o] = OutputWeights(s, o).data();
        class_coef_[o] = coef_[o].data();
      }
      ClassReluBackward<T>(z_[s], class_a_, class_coef_, nullptr, g_, g_more_);
    }
    RowsWeightGradientTransposed<T>(
        rows_[s], d_, g_, gathered_[s],
        Eigen::Map<RowMat<T>>(grad.data() + static_cast<size_t>(s) * per_expert_ * d_, d_,
                              per_expert_));
  }
  return loss / count;
}

}  // namespace pmoe
