// The single convolution baseline (MODEL.md §8): the conv expert on every sample, no gate.
// The template definitions: single_conv.cpp instantiates them in float for the tools, sim/f64 in
// double for the finite-difference tests (the tools do not carry the double code).
#pragma once

#include <cmath>
#include <numeric>

#include "pmoe/core/errors.hpp"
#include "pmoe/models/single_conv.hpp"

namespace pmoe {

template <typename T>
SingleConv<T>::SingleConv(int J, int P, int d, Activation act, double init_scale, Rng& rng)
    : J_(J), P_(P), d_(d), act_(act) {
  PMOE_CHECK(J >= 2 && J % 2 == 0 && P >= 1 && d >= 1) << "J = " << J;
  params_.resize(static_cast<Eigen::Index>(d) * J + J);
  const double bound = init_scale / std::sqrt(static_cast<double>(d));
  for (Eigen::Index i = 0; i < params_.size(); ++i)
    params_[i] = static_cast<T>((2 * rng.Uniform() - 1) * bound);
}

template <typename T>
void SingleConv<T>::Forward(const RowMat<T>& x, const int* labels, const Loss<T>& loss,
                            SinglePass<T>& pass) const {
  PMOE_CHECK(x.cols() == d_ && x.rows() % P_ == 0)
      << "input (" << x.rows() << ", " << x.cols() << ")";
  const int N = static_cast<int>(x.rows() / P_);
  pass.A.resize(x.rows(), J_);
  pass.f.resize(N, 2);
  if (static_cast<int>(ids_.size()) != N) {
    ids_.resize(N);
    std::iota(ids_.begin(), ids_.end(), 0);
  }
  ConvForward(x, P_, ids_.data(), N, params_.data(), params_.data() + static_cast<size_t>(d_) * J_,
              J_, act_, pass.A.data(), pass.f.data());
  double total = 0;
  pass.errors = 0;
  pass.finite = true;
  for (int i = 0; i < N; ++i) {
    const T* f = pass.f.row(i).data();
    total += loss.Value(f, labels[i]);
    pass.errors += !loss.Correct(f, labels[i]);
    pass.finite = pass.finite && std::isfinite(static_cast<double>(f[0])) &&
                  std::isfinite(static_cast<double>(f[1]));
  }
  pass.loss = total / N;
  pass.finite = pass.finite && std::isfinite(pass.loss);
}

template <typename T>
void SingleConv<T>::Backward(const RowMat<T>& x, const int* labels, const Loss<T>& loss,
                             const SinglePass<T>& pass, Vec<T>& grad) const {
  const int N = static_cast<int>(pass.f.rows());
  grad.resize(params_.size());
  df_.resize(N, 2);
  for (int i = 0; i < N; ++i) {
    double slope[2];
    loss.ValueAndSlope(pass.f.row(i).data(), labels[i], slope);
    df_(i, 0) = static_cast<T>(slope[0] / N);
    df_(i, 1) = static_cast<T>(slope[1] / N);
  }
  if (static_cast<int>(ids_.size()) != N) {
    ids_.resize(N);
    std::iota(ids_.begin(), ids_.end(), 0);
  }
  ConvBackward(x, P_, ids_.data(), N, pass.A.data(), df_.data(), J_, act_, grad.data(),
               grad.data() + static_cast<size_t>(d_) * J_);
}

namespace {

// The loss's slope at each sample, its outputs kept in `f` (N, 2), summed loss and errors (the
// fused pass). The kernel's k counts from `first`.
template <typename T>
class SingleSlope final : public ConvSlope<T> {
 public:
  SingleSlope(const int* labels, const Loss<T>& loss, int N, T* f)
      : labels_(labels), loss_(loss), N_(N), f_(f) {}
  void operator()(int k, T f0, T f1, T& df0, T& df1) override {
    const int i = first + k;
    const T f[2] = {f0, f1};
    f_[2 * i] = f0;
    f_[2 * i + 1] = f1;
    double slope[2];
    total += loss_.ValueAndSlope(f, labels_[i], slope);
    errors += !loss_.Correct(f, labels_[i]);
    finite =
        finite && std::isfinite(static_cast<double>(f0)) && std::isfinite(static_cast<double>(f1));
    df0 = static_cast<T>(slope[0] / N_);
    df1 = static_cast<T>(slope[1] / N_);
  }
  int first = 0;
  double total = 0;
  int errors = 0;
  bool finite = true;

 private:
  const int* labels_;
  const Loss<T>& loss_;
  int N_;
  T* f_;
};

}  // namespace

template <typename T>
void SingleConv<T>::ForwardBackward(const RowMat<T>& x, const int* labels, const Loss<T>& loss,
                                    SinglePass<T>& pass, Vec<T>& grad,
                                    const RowMat<T>* interleaved) const {
  PMOE_CHECK(x.cols() == d_ && x.rows() % P_ == 0)
      << "input (" << x.rows() << ", " << x.cols() << ")";
  const int N = static_cast<int>(x.rows() / P_);
  if (static_cast<int>(ids_.size()) != N) {
    ids_.resize(N);
    std::iota(ids_.begin(), ids_.end(), 0);
  }
  grad.setZero(params_.size());
  pass.A.resize(0, J_);
  pass.f.resize(N, 2);
  SingleSlope<T> slope(labels, loss, N, pass.f.data());
  const size_t filters = static_cast<size_t>(d_) * J_;
  const T* W = params_.data();
  T* gW = grad.data();
  int i = 0;
  if (interleaved != nullptr && ConvBatchable(P_, J_)) {
    PMOE_CHECK(interleaved->rows() == N &&
               interleaved->cols() == static_cast<Eigen::Index>(d_) * P_)
        << "interleaved input (" << interleaved->rows() << ", " << interleaved->cols() << ")";
    // Every sample shares the one filter bank; the kernel adds their gradients in sample order.
    ConvBatch<T> batch;
    for (int s = 0; s < kBatchSamples; ++s) {
      batch.W[s] = W;
      batch.b[s] = W + filters;
      batch.gW[s] = gW;
      batch.gb[s] = gW + filters;
    }
    work_.resize(static_cast<size_t>(kBatchSamples) * P_ * J_);
    for (; i + kBatchSamples <= N; i += kBatchSamples) {
      for (int s = 0; s < kBatchSamples; ++s) batch.x[s] = interleaved->row(i + s).data();
      ConvForwardBackward4(batch, d_, J_, act_, slope, i, work_.data());
    }
  }
  // The rest (or all) sample by sample.
  slope.first = i;
  if (i < N)
    ConvForwardBackward(x, P_, ids_.data() + i, N - i, W, W + filters, J_, act_,
                        pass.f.data() + 2 * static_cast<size_t>(i), slope, gW, gW + filters, work_,
                        /*accumulate=*/true);
  pass.loss = slope.total / N;
  pass.errors = slope.errors;
  pass.finite = slope.finite && std::isfinite(pass.loss);
}

}  // namespace pmoe
