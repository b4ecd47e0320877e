// The single convolution baseline (MODEL.md §8): the conv expert on every sample, no gate.
#include "pmoe/models/single_conv.hpp"

#include <cmath>
#include <numeric>

#include "pmoe/core/errors.hpp"

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
  PMOE_CHECK(x.cols() == d_ && x.rows() % P_ == 0) << "input (" << x.rows() << ", " << x.cols()
                                                   << ")";
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

template class SingleConv<float>;
template class SingleConv<double>;

}  // namespace pmoe
