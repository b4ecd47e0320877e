// Forward and backward of the jointly trained pMoE, gradient through the softmax gates included.
#include "pmoe/models/joint_moe.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <type_traits>

#include "pmoe/core/errors.hpp"
#include "pmoe/core/fast_exp.hpp"
#include "pmoe/models/expert_kernels.hpp"
#include "pmoe/models/topl.hpp"

namespace pmoe {
namespace {

// v[i] = e^v[i] for v[i] <= 0: in float without a library call (vectorizes); in double, as the
// reference the gradient tests use, std::exp.
template <typename T>
void ExpOfNonPositive(T* v, int count) {
  if constexpr (std::is_same_v<T, float>)
    for (int i = 0; i < count; ++i) v[i] = ExpNonPositive(v[i]);
  else
    for (int i = 0; i < count; ++i) v[i] = std::exp(v[i]);
}

}  // namespace

template <typename T>
JointMoe<T>::JointMoe(int k, int m, int d, int l, Vec<T> output_weights)
    : k_(k), m_(m), d_(d), l_(l), per_expert_(m / k),
      outputs_(static_cast<int>(output_weights.size() / m)), a_(std::move(output_weights)),
      rows_(k), gathered_(k), z_(k), h_(static_cast<size_t>(k) * outputs_), gate_(k),
      sample_slope_(outputs_) {
  PMOE_CHECK(m % k == 0 && a_.size() == static_cast<Eigen::Index>(m) * outputs_ && outputs_ >= 1)
      << "m = " << m << ", k = " << k << ", output weights " << a_.size();
  this->params_ = Vec<T>::Zero(static_cast<Eigen::Index>(m + k) * d);
  if (outputs_ > 1) this->loss_ = std::make_shared<SoftmaxCrossEntropy<T>>(outputs_);
}

template <typename T>
PatchBlocks<T> JointMoe<T>::Prepare(const RowMat<T>& x, int samples) const {
  return AllPatches(x, samples);
}

template <typename T>
std::vector<int> JointMoe<T>::Route(const RowMat<T>& x, int samples) const {
  return RouteAll<T>(x, samples, Gating(), l_);
}

template <typename T>
void JointMoe<T>::ForwardRows(int n, int count, T* f) {
  gating_t_ = Gating().transpose();
  ExpertPreactivations<T>(all_rows_, d_, Eigen::Map<const RowMat<T>>(gating_t_.data(), d_, k_),
                          scores_, gathered_all_);
  std::fill(f, f + static_cast<size_t>(count) * outputs_, T(0));
  routes_.resize(static_cast<size_t>(count) * k_ * l_);
  for (int i = 0; i < count; ++i)
    TopLAllExperts(scores_.data() + static_cast<size_t>(i) * n * k_, n, k_, l_,
                   routes_.data() + static_cast<size_t>(i) * k_ * l_);
  const int routed = count * l_;
  total_.resize(routed);
  for (int s = 0; s < k_; ++s) {
    rows_[s].resize(routed);
    gate_[s].resize(routed);
    T* gate = gate_[s].data();
    for (int i = 0; i < count; ++i) {
      const T* g = scores_.data() + static_cast<size_t>(i) * n * k_ + s;  // stride k_
      const int* route = routes_.data() + (static_cast<size_t>(i) * k_ + s) * l_;
      // Softmax over the selected values; route[0] holds the largest, so exp() <= 1.
      const T top = g[route[0] * k_];
      for (int t = 0; t < l_; ++t) {
        gate[i * l_ + t] = g[route[t] * k_] - top;
        rows_[s][i * l_ + t] = all_rows_[static_cast<size_t>(i) * n + route[t]];
      }
    }
    // The exponentials, sums and divisions each over all routed rows, apart from the gathering
    // above, so that they run as vector instructions.
    ExpOfNonPositive(gate, routed);
    for (int i = 0; i < count; ++i) {
      T total = 0;
      for (int t = 0; t < l_; ++t) total += gate[i * l_ + t];
      for (int t = 0; t < l_; ++t) total_[i * l_ + t] = total;
    }
    for (int r = 0; r < routed; ++r) gate[r] /= total_[r];
    ExpertPreactivations<T>(rows_[s], d_, ExpertWeights(s), z_[s], gathered_[s]);
    for (int o = 0; o < outputs_; ++o) {
      Vec<T>& h = h_[static_cast<size_t>(s) * outputs_ + o];
      ExpertOutputs<T>(z_[s], OutputWeights(s, o), relu_, h);
      for (int i = 0; i < count; ++i)
        f[i * outputs_ + o] += gate_[s].segment(i * l_, l_).dot(h.segment(i * l_, l_)) / T(l_);
    }
  }
}

template <typename T>
void JointMoe<T>::Forward(const PatchBlocks<T>& in, int begin, int count, T* f) {
  in.PointAtBatch(0, nullptr, begin, count, all_rows_);
  ForwardRows(in.rows_per_sample, count, f);
  if (keep_routes_) {
    const size_t per_sample = static_cast<size_t>(k_) * l_;
    kept_routes_.resize(std::max(kept_routes_.size(), (begin + count) * per_sample));
    std::copy(routes_.begin(), routes_.begin() + count * per_sample,
              kept_routes_.begin() + begin * per_sample);
  }
}

template <typename T>
double JointMoe<T>::LossAndGradient(const PatchBlocks<T>& in, const int* idx, int count,
                                    const int* labels, Vec<T>& grad) {
  f_.resize(static_cast<Eigen::Index>(count) * outputs_);
  in.PointAtBatch(0, idx, 0, count, all_rows_);
  ForwardRows(in.rows_per_sample, count, f_.data());
  double loss = 0.0;
  Vec<T>& slope = slope_;  // d(mean loss)/df_{i,o}, at i * outputs + o
  slope.resize(static_cast<Eigen::Index>(count) * outputs_);
  for (int i = 0; i < count; ++i) {
    loss += this->loss_->ValueAndSlope(&f_[i * outputs_], labels[idx[i]], sample_slope_.data());
    for (int o = 0; o < outputs_; ++o)
      slope[i * outputs_ + o] = static_cast<T>(sample_slope_[o] / count);
  }
  grad.resize(this->params_.size());
  Eigen::Map<RowMat<T>> dgate(grad.data() + static_cast<size_t>(m_) * d_, k_, d_);
  const int routed = count * l_;
  coef_.resize(routed);
  gate_coef_.resize(routed);
  slope_routed_.resize(routed);
  mean_h_.resize(routed);
  for (int s = 0; s < k_; ++s) {
    const T* gates = gate_[s].data();
    // f_o = (1/l) sum_t G_t h_{o,t}, and dG_t/dg_u = G_t (1[t = u] - G_u):
    // df_o/dg_t = G_t (h_{o,t} - mean_h_o) / l. The gating coefficient sums this over the
    // outputs weighted by their slopes. Outputs from the last down, so that coef_ ends as
    // output 0's for the pass below that also carries the gating column.
    for (int o = outputs_ - 1; o >= 0; --o) {
      const Vec<T>& h_o = h_[static_cast<size_t>(s) * outputs_ + o];
      const T* h = h_o.data();
      for (int i = 0; i < count; ++i) {
        const T mean_h = gate_[s].segment(i * l_, l_).dot(h_o.segment(i * l_, l_));
        for (int t = 0; t < l_; ++t) {
          mean_h_[i * l_ + t] = mean_h;
          slope_routed_[i * l_ + t] = slope[i * outputs_ + o];
        }
      }
      // Over all routed rows at once, so that the divisions run as vector instructions.
      const bool first = o == outputs_ - 1;
      for (int r = 0; r < routed; ++r) {
        coef_[r] = slope_routed_[r] * gates[r] / T(l_);
        const T gate_term = slope_routed_[r] * gates[r] * (h[r] - mean_h_[r]) / T(l_);
        gate_coef_[r] = first ? gate_term : gate_coef_[r] + gate_term;
      }
      if (o == 0) break;
      // The neuron gradients of outputs 1.. (c outputs only), summed in g_more_.
      ReluBackward<T>(z_[s], OutputWeights(s, o), coef_, nullptr, first ? g_more_ : g_scratch_);
      if (!first) g_more_ += g_scratch_;
    }
    // One pass over the routed rows: the expert's neurons and, as one more column of g, its
    // gating kernel (the sum over rows of d(loss)/d(g) times the row).
    ReluBackward<T>(z_[s], OutputWeights(s, 0), coef_, &gate_coef_, g_);
    if (outputs_ > 1) g_.leftCols(per_expert_) += g_more_;
    RowsWeightGradient<T>(rows_[s], d_, g_, gathered_[s], dw_);
    Eigen::Map<RowMat<T>>(grad.data() + static_cast<size_t>(s) * per_expert_ * d_, d_,
                          per_expert_) = dw_.topRows(per_expert_).transpose();
    dgate.row(s) = dw_.row(per_expert_);
  }
  return loss / count;
}

template class JointMoe<float>;
template class JointMoe<double>;

}  // namespace pmoe
