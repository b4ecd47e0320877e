// The switch MoE's full-batch forward and backward passes (MODEL.md §8). The samples are grouped
// by their expert (a stable counting sort) and each expert runs over its own samples, read in
// place (conv_expert.cpp).
#include "pmoe/models/switch_moe.hpp"

#include <cmath>

#include "pmoe/core/errors.hpp"

namespace pmoe {
namespace {

// softmax(h)_j of a row of h, in double.
template <typename T>
void SoftmaxRow(const T* h, int M, double* pi) {
  double top = h[0];
  for (int m = 1; m < M; ++m) top = std::max(top, static_cast<double>(h[m]));
  double total = 0;
  for (int m = 0; m < M; ++m) total += pi[m] = std::exp(h[m] - top);
  for (int m = 0; m < M; ++m) pi[m] /= total;
}

constexpr int kMaxExperts = 4096;

}  // namespace

template <typename T>
SwitchInput<T> MakeSwitchInput(const RowMat<T>& x, int P) {
  PMOE_CHECK(P > 0 && x.rows() % P == 0) << x.rows() << " rows, P = " << P;
  SwitchInput<T> in;
  in.x = &x;
  const Eigen::Index N = x.rows() / P;
  in.sums = RowMat<T>::Zero(N, x.cols());
  for (Eigen::Index i = 0; i < N; ++i)
    for (int p = 0; p < P; ++p) in.sums.row(i) += x.row(i * P + p);
  return in;
}

template <typename T>
SwitchMoe<T>::SwitchMoe(const SwitchShape& shape, double init_scale, Rng& rng) : shape_(shape) {
  PMOE_CHECK(shape.M >= 1 && shape.M <= kMaxExperts && shape.J >= 2 && shape.J % 2 == 0)
      << "M = " << shape.M << ", J = " << shape.J;
  params_ = Vec<T>::Zero(static_cast<Eigen::Index>(RouterBegin()) +
                         static_cast<Eigen::Index>(shape.d) * shape.M);
  const double bound = init_scale / std::sqrt(static_cast<double>(shape.d));
  for (size_t i = 0; i < RouterBegin(); ++i)
    params_[static_cast<Eigen::Index>(i)] = static_cast<T>((2 * rng.Uniform() - 1) * bound);
}

template <typename T>
std::vector<std::vector<ParamGroup>> SwitchMoe<T>::ExpertGroups() const {
  std::vector<std::vector<ParamGroup>> groups;
  const size_t filters = static_cast<size_t>(shape_.d) * shape_.J;
  for (int m = 0; m < shape_.M; ++m)
    groups.push_back({{"expert " + std::to_string(m) + " filters", ExpertBegin(m), filters},
                      {"expert " + std::to_string(m) + " biases", ExpertBegin(m) + filters,
                       static_cast<size_t>(shape_.J)}});
  return groups;
}

template <typename T>
ParamGroup SwitchMoe<T>::RouterGroup() const {
  return {"router", RouterBegin(), static_cast<size_t>(shape_.d) * shape_.M};
}

template <typename T>
void SwitchMoe<T>::Forward(const SwitchInput<T>& in, const int* labels, const RowMat<T>* noise,
                           const Loss<T>& loss, SwitchPass<T>& pass) const {
  const SwitchShape& s = shape_;
  const int N = in.samples();
  const RowMat<T>& x = *in.x;
  PMOE_CHECK(x.rows() == static_cast<Eigen::Index>(N) * s.P && x.cols() == s.d)
      << "input (" << x.rows() << ", " << x.cols() << ") for N = " << N;
  const Eigen::Map<const RowMat<T>> theta(params_.data() + RouterBegin(), s.d, s.M);
  pass.h.noalias() = in.sums * theta;
  pass.u = pass.h;
  if (noise != nullptr) pass.u += *noise;

  // Route: m* = argmax (h + r), the first of ties; then group the samples by expert.
  pass.expert.resize(N);
  pass.counts.assign(s.M, 0);
  for (int i = 0; i < N; ++i) {
    const T* u = pass.u.row(i).data();
    int best = 0;
    for (int m = 1; m < s.M; ++m)
      if (u[m] > u[best]) best = m;
    pass.expert[i] = best;
    ++pass.counts[best];
  }
  pass.first.assign(s.M + 1, 0);
  for (int m = 0; m < s.M; ++m) pass.first[m + 1] = pass.first[m] + pass.counts[m];
  pass.order.resize(N);
  {
    std::vector<int> next(pass.first.begin(), pass.first.end() - 1);
    for (int i = 0; i < N; ++i) pass.order[next[pass.expert[i]]++] = i;
  }
  pass.gate.resize(N);
  double pi[kMaxExperts];
  for (int i = 0; i < N; ++i) {
    if (s.gate == Gate::kNoisyValue) {
      pass.gate[i] = pass.u(i, pass.expert[i]);
    } else {
      SoftmaxRow(pass.h.row(i).data(), s.M, pi);
      pass.gate[i] = static_cast<T>(pi[pass.expert[i]]);
    }
  }

  // The experts, each on its own samples' patches (read in place).
  pass.A.resize(x.rows(), s.J);
  pass.f.resize(N, 2);
  for (int m = 0; m < s.M; ++m) {
    if (pass.counts[m] == 0) continue;
    const T* W = params_.data() + ExpertBegin(m);
    const size_t at = static_cast<size_t>(pass.first[m]);
    ConvForward(x, s.P, pass.order.data() + at, pass.counts[m], W,
                W + static_cast<size_t>(s.d) * s.J, s.J, s.act,
                pass.A.data() + at * s.P * s.J, pass.f.data() + 2 * at);
  }

  // Logits, loss and errors.
  pass.z.resize(N, 2);
  double total = 0;
  pass.errors = 0;
  pass.finite = true;
  for (int idx = 0; idx < N; ++idx) {
    const int i = pass.order[idx];
    pass.z.row(i) = pass.gate[i] * pass.f.row(idx);
    const T* z = pass.z.row(i).data();
    total += loss.Value(z, labels[i]);
    pass.errors += !loss.Correct(z, labels[i]);
    pass.finite = pass.finite && std::isfinite(static_cast<double>(z[0])) &&
                  std::isfinite(static_cast<double>(z[1]));
  }
  pass.loss = total / N;
  pass.load_balance = 0;
  if (s.load_balance != 0) {
    // coef * M^2 * mean_m(mean_i u_{i,m} * frac_m), frac_m not differentiated.
    double sum = 0;
    for (int m = 0; m < s.M; ++m) {
      const double mean_u = pass.u.col(m).template cast<double>().mean();
      sum += mean_u * pass.counts[m] / N;
    }
    pass.load_balance = s.load_balance * s.M * s.M * (sum / s.M);
    pass.loss += pass.load_balance;
  }
  pass.finite = pass.finite && std::isfinite(pass.loss);
}

template <typename T>
void SwitchMoe<T>::Backward(const SwitchInput<T>& in, const int* labels, const Loss<T>& loss,
                            SwitchPass<T>& pass, Vec<T>& grad) const {
  const SwitchShape& s = shape_;
  const int N = in.samples();
  grad.setZero(params_.size());
  df_.resize(N, 2);
  RowMat<T> G = RowMat<T>::Zero(N, s.M);  // dL/dh
  double pi[kMaxExperts];
  for (int idx = 0; idx < N; ++idx) {
    const int i = pass.order[idx];
    double slope[2];
    loss.ValueAndSlope(pass.z.row(i).data(), labels[i], slope);
    const double g = pass.gate[i];
    df_(idx, 0) = static_cast<T>(slope[0] * g / N);
    df_(idx, 1) = static_cast<T>(slope[1] * g / N);
    const double dgate = (slope[0] * pass.f(idx, 0) + slope[1] * pass.f(idx, 1)) / N;
    const int chosen = pass.expert[i];
    if (s.gate == Gate::kNoisyValue) {
      G(i, chosen) = static_cast<T>(dgate);
    } else {
      SoftmaxRow(pass.h.row(i).data(), s.M, pi);
      for (int m = 0; m < s.M; ++m)
        G(i, m) = static_cast<T>(dgate * pi[chosen] * ((m == chosen ? 1.0 : 0.0) - pi[m]));
    }
  }
  if (s.load_balance != 0)
    for (int m = 0; m < s.M; ++m)
      G.col(m).array() += static_cast<T>(s.load_balance * s.M * pass.counts[m] / N / N);
  for (int m = 0; m < s.M; ++m) {
    if (pass.counts[m] == 0) continue;
    T* gW = grad.data() + ExpertBegin(m);
    const size_t at = static_cast<size_t>(pass.first[m]);
    ConvBackward(*in.x, s.P, pass.order.data() + at, pass.counts[m],
                 pass.A.data() + at * s.P * s.J, df_.data() + 2 * at, s.J, s.act, gW,
                 gW + static_cast<size_t>(s.d) * s.J);
  }
  Eigen::Map<RowMat<T>> gtheta(grad.data() + RouterBegin(), s.d, s.M);
  gtheta.noalias() = in.sums.transpose() * G;
}

std::vector<double> DispatchCounts(const std::vector<int>& cluster, int K,
                                   const std::vector<int>& expert, int M) {
  PMOE_CHECK(cluster.size() == expert.size()) << cluster.size() << " vs " << expert.size();
  std::vector<double> counts(static_cast<size_t>(K) * M, 0.0);
  for (size_t i = 0; i < cluster.size(); ++i)
    counts.at(static_cast<size_t>(cluster[i]) * M + expert[i]) += 1;
  return counts;
}

double DispatchEntropy(const std::vector<double>& counts, int K, int M) {
  double n = 0;
  for (double c : counts) n += c;
  if (n == 0) return NAN;
  double entropy = 0;
  for (int m = 0; m < M; ++m) {
    double n_m = 0;
    for (int k = 0; k < K; ++k) n_m += counts[static_cast<size_t>(k) * M + m];
    if (n_m == 0) continue;
    double h = 0;
    for (int k = 0; k < K; ++k) {
      const double share = counts[static_cast<size_t>(k) * M + m] / n_m;
      if (share > 0) h -= share * std::log(share);
    }
    entropy += n_m / n * h;
  }
  return entropy;
}

int ExpertsInUse(const std::vector<double>& counts, int K, int M) {
  int used = 0;
  for (int m = 0; m < M; ++m) {
    double n_m = 0;
    for (int k = 0; k < K; ++k) n_m += counts[static_cast<size_t>(k) * M + m];
    used += n_m > 0;
  }
  return used;
}

template SwitchInput<float> MakeSwitchInput(const RowMat<float>&, int);
template SwitchInput<double> MakeSwitchInput(const RowMat<double>&, int);
template class SwitchMoe<float>;
template class SwitchMoe<double>;

}  // namespace pmoe
