// Forward and backward of the jointly trained pMoE, gradient through the softmax gates included.
// The template definitions: joint_moe.cpp instantiates them in float for the tools, sim/f64 in
// double for the finite-difference tests (the tools do not carry the double code).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstring>
#include <type_traits>

#include "pmoe/core/errors.hpp"
#include "pmoe/core/fast_exp.hpp"
#include "pmoe/models/expert_kernels.hpp"
#include "pmoe/models/joint_moe.hpp"
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
    : ExpertLayer<T>(k, m, d, std::move(output_weights), /*more_params=*/k * d),
      l_(l),
      gate_(k),
      sample_slope_(outputs_) {}

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
  TopLSamples(scores_.data(), count, n, k_, l_, routes_.data());
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
    Vec<T>* h = &h_[static_cast<size_t>(s) * outputs_];
    ExpertForward<T>(
        rows_[s], d_, ExpertWeights(s), outputs_, [&](int o) { return OutputWeights(s, o); }, z_[s],
        gathered_[s], relu_, h);
    for (int o = 0; o < outputs_; ++o)
      for (int i = 0; i < count; ++i)
        f[i * outputs_ + o] += gate_[s].segment(i * l_, l_).dot(h[o].segment(i * l_, l_)) / T(l_);
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
                                    const int* labels, Vec<T>& grad, LossValue value) {
  f_.resize(static_cast<Eigen::Index>(count) * outputs_);
  in.PointAtBatch(0, idx, 0, count, all_rows_);
  ForwardRows(in.rows_per_sample, count, f_.data());
  double loss = 0.0;
  Vec<T>& slope = slope_;  // d(mean loss)/df_{i,o}, at i * outputs + o
  slope.resize(static_cast<Eigen::Index>(count) * outputs_);
  for (int i = 0; i < count; ++i) {
    loss += SampleLossAndSlope(*this->loss_, value, &f_[i * outputs_], labels[idx[i]],
                               sample_slope_.data());
    for (int o = 0; o < outputs_; ++o)
      slope[i * outputs_ + o] = static_cast<T>(sample_slope_[o] / count);
  }
  grad.resize(this->params_.size());
  if (outputs_ > 1) {
    ClassBackward(count, grad);
    return loss / count;
  }
  const int routed = count * l_;
  coef_.resize(routed);
  gate_coef_.resize(routed);
  slope_routed_.resize(routed);
  mean_h_.resize(routed);
  for (int i = 0; i < count; ++i)
    for (int t = 0; t < l_; ++t) slope_routed_[i * l_ + t] = slope[i];
  for (int s = 0; s < k_; ++s) {
    const T* gates = gate_[s].data();
    const T* h = h_[s].data();
    for (int i = 0; i < count; ++i) {
      const T mean_h = gate_[s].segment(i * l_, l_).dot(h_[s].segment(i * l_, l_));
      for (int t = 0; t < l_; ++t) mean_h_[i * l_ + t] = mean_h;
    }
    // f = (1/l) sum_t G_t h_t, and dG_t/dg_u = G_t (1[t = u] - G_u): df/dg_t = G_t (h_t - mean_h) /
    // l. Over all routed rows at once, so that the divisions run as vector instructions.
    for (int r = 0; r < routed; ++r) {
      coef_[r] = slope_routed_[r] * gates[r] / T(l_);
      gate_coef_[r] = slope_routed_[r] * gates[r] * (h[r] - mean_h_[r]) / T(l_);
    }
    // One pass over the routed rows: the expert's neurons and, as one more column of g, its
    // gating kernel (the sum over rows of d(loss)/d(g) times the row).
    ReluBackward<T>(z_[s], OutputWeights(s, 0), coef_, &gate_coef_, g_);
    WriteExpertGradient(s, grad);
  }
  return loss / count;
}

// From g_ (expert s's neuron columns, then its gating column) to its weight gradient: the
// expert's transposed (d, m/k) block of grad and its gating kernel's row.
template <typename T>
void JointMoe<T>::WriteExpertGradient(int s, Vec<T>& grad) {
  RowsWeightGradient<T>(rows_[s], d_, g_, gathered_[s], dw_);
  Eigen::Map<RowMat<T>>(grad.data() + static_cast<size_t>(s) * per_expert_ * d_, d_, per_expert_) =
      dw_.topRows(per_expert_).transpose();
  Eigen::Map<RowMat<T>>(grad.data() + static_cast<size_t>(m_) * d_, k_, d_).row(s) =
      dw_.row(per_expert_);
}

// The backward pass with c outputs. With u_t = sum_o slope_o h_{o,t} (slope_o = dL/df_o), the
// gating coefficient sum_o slope_o G_t (h_{o,t} - mean_h_o) / l is G_t (u_t - sum_u G_u u_u) / l:
// one pass over the routed rows as for one output. The neurons' coefficients are per output
// (slope_o G_t / l), all in one pass over z with the gating column (ClassReluBackward).
template <typename T>
void JointMoe<T>::ClassBackward(int count, Vec<T>& grad) {
  const int routed = count * l_;
  class_coef_.resize(outputs_);
  class_slope_.resize(outputs_);
  class_a_.resize(outputs_);
  class_coef_ptr_.resize(outputs_);
  for (int o = 0; o < outputs_; ++o) {  // slope_{i,o} / l repeated over sample i's routed rows
    class_coef_[o].resize(routed);
    class_slope_[o].resize(routed);
    for (int i = 0; i < count; ++i)
      for (int t = 0; t < l_; ++t) class_slope_[o][i * l_ + t] = slope_[i * outputs_ + o] / T(l_);
  }
  gate_coef_.resize(routed);
  total_.resize(routed);  // u_t
  for (int s = 0; s < k_; ++s) {
    const T* gates = gate_[s].data();
    T* u = total_.data();
    for (int o = 0; o < outputs_; ++o) {
      const T* h = h_[static_cast<size_t>(s) * outputs_ + o].data();
      const T* slope = class_slope_[o].data();
      T* coef = class_coef_[o].data();
      for (int r = 0; r < routed; ++r) {
        coef[r] = slope[r] * gates[r];
        u[r] = o == 0 ? slope[r] * h[r] : u[r] + slope[r] * h[r];
      }
    }
    for (int i = 0; i < count; ++i) {
      T mean_u = 0;
      for (int t = 0; t < l_; ++t) mean_u += gates[i * l_ + t] * u[i * l_ + t];
      for (int t = 0; t < l_; ++t)
        gate_coef_[i * l_ + t] = gates[i * l_ + t] * (u[i * l_ + t] - mean_u);
    }
    // Every output's neurons and the gating column in one pass over z.
    for (int o = 0; o < outputs_; ++o) {
      class_a_[o] = OutputWeights(s, o).data();
      class_coef_ptr_[o] = class_coef_[o].data();
    }
    ClassReluBackward<T>(z_[s], class_a_, class_coef_ptr_, &gate_coef_, g_, g_more_);
    WriteExpertGradient(s, grad);
  }
}

}  // namespace pmoe
