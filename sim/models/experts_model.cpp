// Forward and backward of k independent experts on their row blocks (CNN and separate pMoE).
#include "pmoe/models/experts_model.hpp"

#include "pmoe/core/errors.hpp"
#include "pmoe/models/expert_kernels.hpp"

namespace pmoe {

template <typename T>
ExpertsModel<T>::ExpertsModel(int k, int m, int d, Vec<T> output_weights)
    : k_(k), m_(m), d_(d), per_expert_(m / k), a_(std::move(output_weights)),
      rows_(k), gathered_(k), z_(k), h_(k) {
  PMOE_CHECK(m % k == 0 && a_.size() == m) << "m = " << m << ", k = " << k;
  this->params_ = Vec<T>::Zero(static_cast<Eigen::Index>(m) * d);
}

template <typename T>
void ExpertsModel<T>::AccumulateExpert(int s, int count, int rows, T* f) {
  ExpertPreactivations<T>(rows_[s], d_, ExpertWeights(s), z_[s], gathered_[s]);
  ExpertOutputs<T>(z_[s], a_.segment(s * per_expert_, per_expert_), relu_, h_[s]);
  const T scale = T(1) / rows;
  for (int i = 0; i < count; ++i) f[i] += scale * h_[s].segment(i * rows, rows).sum();
}

template <typename T>
void ExpertsModel<T>::Forward(const PatchBlocks<T>& in, int begin, int count, T* f) {
  std::fill(f, f + count, T(0));
  for (int s = 0; s < k_; ++s) {
    in.PointAtBatch(s, nullptr, begin, count, rows_[s]);
    AccumulateExpert(s, count, in.rows_per_sample, f);
  }
}

template <typename T>
double ExpertsModel<T>::LossAndGradient(const PatchBlocks<T>& in, const int* idx, int count,
                                        const int* labels, Vec<T>& grad) {
  PMOE_CHECK(idx != nullptr) << "training batches are index lists";
  const int rows = in.rows_per_sample;
  f_.setZero(count);
  for (int s = 0; s < k_; ++s) {
    in.PointAtBatch(s, idx, 0, count, rows_[s]);
    AccumulateExpert(s, count, rows, f_.data());
  }

  // d(mean loss)/d(h of row r of sample i) = slope_i / (count * rows).
  double loss = 0.0;
  coef_.resize(static_cast<Eigen::Index>(count) * rows);
  for (int i = 0; i < count; ++i) {
    double slope = 0;
    loss += this->loss_->ValueAndSlope(&f_[i], labels[idx[i]], &slope);
    coef_.segment(i * rows, rows).setConstant(
        static_cast<T>(slope / (static_cast<double>(count) * rows)));
  }
  grad.resize(this->params_.size());
  for (int s = 0; s < k_; ++s) {
    ReluBackward<T>(z_[s], a_.segment(s * per_expert_, per_expert_), coef_, nullptr, g_);
    RowsWeightGradientTransposed<T>(
        rows_[s], d_, g_, gathered_[s],
        Eigen::Map<RowMat<T>>(grad.data() + static_cast<size_t>(s) * per_expert_ * d_, d_,
                              per_expert_));
  }
  return loss / count;
}

template class ExpertsModel<float>;
template class ExpertsModel<double>;

}  // namespace pmoe
