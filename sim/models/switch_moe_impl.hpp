// The switch MoE's full-batch forward and backward passes (MODEL.md §8). The samples are grouped
// by their expert (a stable counting sort) and each expert runs over its own samples, read in
// place (conv_expert.cpp).
// The template definitions: switch_moe.cpp instantiates them in float for the tools, sim/f64 in
// double for the finite-difference tests (the tools do not carry the double code).
#pragma once

#include <immintrin.h>

#include <algorithm>
#include <cmath>
#include <type_traits>

#include "pmoe/core/errors.hpp"
#include "pmoe/models/switch_moe.hpp"

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

// Eight lanes of T and fma(x, w[0..8), acc) on them: one 256-bit FMA with AVX2 and FMA in
// float, std::fma lane by lane otherwise (double, or a build without FMA): the same bits.
template <typename T>
struct RouterLanes {
  T v[8] = {};
};
template <typename T>
RouterLanes<T> RouterFma(T x, const T* w, const RouterLanes<T>& acc) {
  RouterLanes<T> out;
  for (int m = 0; m < 8; ++m) out.v[m] = std::fma(x, w[m], acc.v[m]);
  return out;
}
template <typename T>
RouterLanes<T> RouterAdd(const RouterLanes<T>& a, const RouterLanes<T>& b) {
  RouterLanes<T> out;
  for (int m = 0; m < 8; ++m) out.v[m] = a.v[m] + b.v[m];
  return out;
}
template <typename T>
void RouterStore(const RouterLanes<T>& a, T* out) {
  std::copy(a.v, a.v + 8, out);
}
#if defined(__AVX2__) && defined(__FMA__)
template <>
struct RouterLanes<float> {
  __m256 v = _mm256_setzero_ps();
};
template <>
inline RouterLanes<float> RouterFma(float x, const float* w, const RouterLanes<float>& acc) {
  return {_mm256_fmadd_ps(_mm256_set1_ps(x), _mm256_loadu_ps(w), acc.v)};
}
template <>
inline RouterLanes<float> RouterAdd(const RouterLanes<float>& a, const RouterLanes<float>& b) {
  return {_mm256_add_ps(a.v, b.v)};
}
template <>
inline void RouterStore(const RouterLanes<float>& a, float* out) {
  _mm256_storeu_ps(out, a.v);
}
#endif

// The first m with the largest u[m], as scanning up with `u[m] > u[best]` picks it (a NaN never
// wins, except at 0 where nothing beats it). Written as selects, not branches: the winner is
// random (router noise), so a branch would be mispredicted often.
template <typename T>
int FirstArgmax(const T* u, int M) {
  int best = 0;
  T top = u[0];
  for (int m = 1; m < M; ++m) {
    const bool wins = u[m] > top;
    best = wins ? m : best;
    top = wins ? u[m] : top;
  }
  return best;
}

// pass.first and pass.order from pass.expert and pass.counts: the samples grouped by expert
// (a stable counting sort, ascending within each expert).
template <typename T>
void GroupByExpert(SwitchPass<T>& pass) {
  const int M = static_cast<int>(pass.counts.size());
  const int N = static_cast<int>(pass.expert.size());
  pass.first.assign(M + 1, 0);
  for (int m = 0; m < M; ++m) pass.first[m + 1] = pass.first[m] + pass.counts[m];
  pass.order.resize(N);
  std::vector<int> next(pass.first.begin(), pass.first.end() - 1);
  for (int i = 0; i < N; ++i) pass.order[next[pass.expert[i]]++] = i;
}

}  // namespace

template <typename T>
SwitchInput<T> MakeSwitchInput(const RowMat<T>& x, int P, bool interleave) {
  PMOE_CHECK(P > 0 && x.rows() % P == 0) << x.rows() << " rows, P = " << P;
  SwitchInput<T> in;
  in.x = &x;
  const Eigen::Index N = x.rows() / P, d = x.cols();
  in.sums = RowMat<T>::Zero(N, d);
  for (Eigen::Index i = 0; i < N; ++i)
    for (int p = 0; p < P; ++p) in.sums.row(i) += x.row(i * P + p);
  if (interleave) in.interleaved = InterleavePatches(x, P);
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
void SwitchMoe<T>::Route(const SwitchInput<T>& in, const RowMat<T>* noise,
                         SwitchPass<T>& pass) const {
  const SwitchShape& s = shape_;
  const int N = in.samples();
  PMOE_CHECK(in.x->rows() == static_cast<Eigen::Index>(N) * s.P && in.x->cols() == s.d)
      << "input (" << in.x->rows() << ", " << in.x->cols() << ") for N = " << N;
  const Eigen::Map<const RowMat<T>> theta(params_.data() + RouterBegin(), s.d, s.M);
  pass.h.noalias() = in.sums * theta;
  pass.u = pass.h;
  if (noise != nullptr) pass.u += *noise;

  // Route: m* = argmax (h + r), the first of ties; then group the samples by expert.
  pass.expert.resize(N);
  pass.counts.assign(s.M, 0);
  for (int i = 0; i < N; ++i) {
    const int best = FirstArgmax(pass.u.row(i).data(), s.M);
    pass.expert[i] = best;
    ++pass.counts[best];
  }
  GroupByExpert(pass);
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
}

template <typename T>
void SwitchMoe<T>::Forward(const SwitchInput<T>& in, const int* labels, const RowMat<T>* noise,
                           const Loss<T>& loss, SwitchPass<T>& pass) const {
  const SwitchShape& s = shape_;
  const int N = in.samples();
  const RowMat<T>& x = *in.x;
  Route(in, noise, pass);
  // The experts, each on its own samples' patches (read in place).
  pass.A.resize(x.rows(), s.J);
  pass.f.resize(N, 2);
  for (int m = 0; m < s.M; ++m) {
    if (pass.counts[m] == 0) continue;
    const T* W = params_.data() + ExpertBegin(m);
    const size_t at = static_cast<size_t>(pass.first[m]);
    ConvForward(x, s.P, pass.order.data() + at, pass.counts[m], W,
                W + static_cast<size_t>(s.d) * s.J, s.J, s.act, pass.A.data() + at * s.P * s.J,
                pass.f.data() + 2 * at);
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
  AddLoadBalance(pass);
}

template <typename T>
void SwitchMoe<T>::AddLoadBalance(SwitchPass<T>& pass) const {
  const SwitchShape& s = shape_;
  const int N = static_cast<int>(pass.expert.size());
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
  for (int m = 0; m < s.M; ++m) {
    if (pass.counts[m] == 0) continue;
    T* gW = grad.data() + ExpertBegin(m);
    const size_t at = static_cast<size_t>(pass.first[m]);
    ConvBackward(*in.x, s.P, pass.order.data() + at, pass.counts[m], pass.A.data() + at * s.P * s.J,
                 df_.data() + 2 * at, s.J, s.act, gW, gW + static_cast<size_t>(s.d) * s.J);
  }
  RouterGradient(in, pass, G, grad);
}

template <typename T>
void SwitchMoe<T>::RouterGradient(const SwitchInput<T>& in, const SwitchPass<T>& pass, RowMat<T>& G,
                                  Vec<T>& grad) const {
  const SwitchShape& s = shape_;
  const int N = in.samples();
  if (s.load_balance != 0)
    for (int m = 0; m < s.M; ++m)
      G.col(m).array() += static_cast<T>(s.load_balance * s.M * pass.counts[m] / N / N);
  Eigen::Map<RowMat<T>> gtheta(grad.data() + RouterBegin(), s.d, s.M);
  gtheta.noalias() = in.sums.transpose() * G;
}

namespace {

// The switch MoE's slope at a sample (fused pass): the loss and its slope at z = gate * f, the
// expert's share (df) and the router's (dL/dgate, into G). Sample k of the pass is ids[k].
// Batch takes up to four samples at once (the loss's exp and log1p vectorized over them).
template <typename T>
class SwitchSlope final : public ConvSlope<T> {
 public:
  SwitchSlope(SwitchPass<T>& pass, const int* labels, const Loss<T>& loss, RowMat<T>& G,
              const Gate gate, int N)
      : pass_(pass), labels_(labels), loss_(loss), G_(G), gate_(gate), N_(N) {}
  void operator()(int k, T f0, T f1, T& df0, T& df1) override {
    const T f[2] = {f0, f1};
    T df[2];
    Batch(k, 1, f, df);
    df0 = df[0];
    df1 = df[1];
  }
  // Up to kBatchSamples samples: their logits, then the loss and slopes of all of them in one
  // call (ValuesAndSlopes: a vectorized loop for the published loss), then each one's shares.
  void Batch(int k0, int count, const T* f, T* df) override {
    PMOE_CHECK(count <= kBatchSamples) << count;
    T z[2 * kBatchSamples];
    int label[kBatchSamples];
    double value[kBatchSamples], slope[2 * kBatchSamples];
    for (int k = 0; k < count; ++k) {
      const int i = ids[k0 + k];
      const T g = pass_.gate[i];
      z[2 * k] = g * f[2 * k];
      z[2 * k + 1] = g * f[2 * k + 1];
      pass_.z(i, 0) = z[2 * k];
      pass_.z(i, 1) = z[2 * k + 1];
      label[k] = labels_[i];
    }
    loss_.ValuesAndSlopes(z, label, count, value, slope);
    for (int k = 0; k < count; ++k) {
      const int i = ids[k0 + k];
      const T g = pass_.gate[i];
      const T* zk = z + 2 * k;
      const double* sk = slope + 2 * k;
      sample_loss[i] = value[k];
      errors += !loss_.Correct(zk, label[k]);
      finite = finite && std::isfinite(static_cast<double>(zk[0])) &&
               std::isfinite(static_cast<double>(zk[1]));
      df[2 * k] = static_cast<T>(sk[0] * static_cast<double>(g) / N_);
      df[2 * k + 1] = static_cast<T>(sk[1] * static_cast<double>(g) / N_);
      const double dgate = (sk[0] * f[2 * k] + sk[1] * f[2 * k + 1]) / N_;
      const int chosen = pass_.expert[i];
      if (gate_ == Gate::kNoisyValue) {
        G_(i, chosen) = static_cast<T>(dgate);
      } else {
        const int M = static_cast<int>(G_.cols());
        SoftmaxRow(pass_.h.row(i).data(), M, pi_);
        for (int m = 0; m < M; ++m)
          G_(i, m) = static_cast<T>(dgate * pi_[chosen] * ((m == chosen ? 1.0 : 0.0) - pi_[m]));
      }
    }
  }
  const int* ids = nullptr;
  double* sample_loss = nullptr;  // (N) the loss of each sample, by sample index
  int errors = 0;
  bool finite = true;

 private:
  SwitchPass<T>& pass_;
  const int* labels_;
  const Loss<T>& loss_;
  RowMat<T>& G_;
  Gate gate_;
  int N_;
  double pi_[kMaxExperts];
};

}  // namespace

template <typename T>
void SwitchMoe<T>::ForwardBackward(const SwitchInput<T>& in, const int* labels,
                                   const RowMat<T>* noise, const Loss<T>& loss, SwitchPass<T>& pass,
                                   Vec<T>& grad) const {
  const SwitchShape& s = shape_;
  const int N = in.samples();
  const int M = s.M, d = s.d;
  PMOE_CHECK(in.x->rows() == static_cast<Eigen::Index>(N) * s.P && in.x->cols() == d)
      << "input (" << in.x->rows() << ", " << in.x->cols() << ") for N = " << N;
  grad.setZero(params_.size());
  // Not zeroed (512 KB a step at C-switch's size): the slope writes every entry the router's
  // gradient reads, row i's all M with the softmax gate, (i, m*) alone with the noisy one.
  G_.resize(N, M);
  pass.h.resize(N, M);
  pass.u.resize(N, M);
  pass.z.resize(N, 2);
  pass.gate.resize(N);
  pass.expert.resize(N);
  pass.counts.assign(M, 0);
  pass.order.clear();  // not kept: samples are taken in their own order
  pass.first.clear();
  pass.f.resize(0, 2);  // nor f and the pre-activations
  pass.A.resize(0, s.J);
  const T* theta = params_.data() + RouterBegin();
  T* gtheta = grad.data() + RouterBegin();
  std::vector<double> pi(static_cast<size_t>(M));
  std::vector<double> sums_total(s.load_balance != 0 ? d : 0, 0.0);
  // With M <= 16 the router and its gradient are held padded to 16 columns: one vector each.
  using Lane16 = Eigen::Array<T, 16, 1>;
  const bool narrow = M <= 16;
  Eigen::Array<T, Eigen::Dynamic, 16, Eigen::RowMajor> theta_pad, gtheta_pad;
  if (narrow) {
    theta_pad.setZero(d, 16);
    gtheta_pad.setZero(d, 16);
    for (int c = 0; c < d; ++c)
      for (int m = 0; m < M; ++m) theta_pad(c, m) = theta[static_cast<size_t>(c) * M + m];
  }
  // The published gate's router gradient, transposed: row m sums dL/dh_m * S_i over its samples.
  Eigen::Array<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> by_expert;
  if (s.gate == Gate::kNoisyValue) by_expert.setZero(M, d);

  // The router logits of samples [i, i + S) (rows: their patch sums) into pass.h, each summed in
  // four chains (the samples interleaved, so that 4 S chains are independent), or plainly when M
  // > 16.
  auto logits16 = [&](int i, const T* const* rows, auto samples) {
    constexpr int S = decltype(samples)::value;
    Lane16 acc[S][4];
    for (int k = 0; k < S; ++k)
      for (int r = 0; r < 4; ++r) acc[k][r].setZero();
    int c = 0;
    for (; c + 4 <= d; c += 4)
      for (int k = 0; k < S; ++k)
        for (int r = 0; r < 4; ++r) acc[k][r] += rows[k][c + r] * theta_pad.row(c + r).transpose();
    for (; c < d; ++c)
      for (int k = 0; k < S; ++k) acc[k][0] += rows[k][c] * theta_pad.row(c).transpose();
    for (int k = 0; k < S; ++k) {
      const Lane16 sum = (acc[k][0] + acc[k][1]) + (acc[k][2] + acc[k][3]);
      for (int m = 0; m < M; ++m) pass.h(i + k, m) = sum[m];
    }
  };
  // M <= 8 (numerics version 8): the same chains 8 lanes wide (two 256-bit FMAs issue where one
  // 512-bit one does), each product an explicit fma (RouterFma), so that their bits rest on no
  // compiler contraction.
  auto logits8 = [&](int i, const T* const* rows, auto samples) {
    constexpr int S = decltype(samples)::value;
    RouterLanes<T> acc[S][4];
    int c = 0;
    for (; c + 4 <= d; c += 4)
      for (int k = 0; k < S; ++k)
        for (int r = 0; r < 4; ++r)
          acc[k][r] = RouterFma(rows[k][c + r], theta_pad.row(c + r).data(), acc[k][r]);
    for (; c < d; ++c)
      for (int k = 0; k < S; ++k)
        acc[k][0] = RouterFma(rows[k][c], theta_pad.row(c).data(), acc[k][0]);
    for (int k = 0; k < S; ++k) {
      T sum[8];
      RouterStore(RouterAdd(RouterAdd(acc[k][0], acc[k][1]), RouterAdd(acc[k][2], acc[k][3])), sum);
      for (int m = 0; m < M; ++m) pass.h(i + k, m) = sum[m];
    }
  };
  auto logits = [&](int i, const T* const* rows, auto samples) {
    constexpr int S = decltype(samples)::value;
    if (M <= 8) {
      logits8(i, rows, samples);
    } else if (narrow) {
      logits16(i, rows, samples);
    } else {
      for (int k = 0; k < S; ++k) {
        const T* si = rows[k];
        T* h = pass.h.row(i + k).data();
        std::fill(h, h + M, T(0));
        for (int c = 0; c < d; ++c)
          for (int m = 0; m < M; ++m) h[m] += si[c] * theta[static_cast<size_t>(c) * M + m];
      }
    }
  };
  // Sample i's noise, expert and gate, from its logits.
  auto route = [&](int i) {
    const T* h = pass.h.row(i).data();
    T* u = pass.u.row(i).data();
    for (int m = 0; m < M; ++m) u[m] = noise != nullptr ? h[m] + (*noise)(i, m) : h[m];
    const int best = FirstArgmax(u, M);
    pass.expert[i] = best;
    ++pass.counts[best];
    if (s.gate == Gate::kNoisyValue) {
      pass.gate[i] = u[best];
    } else {
      SoftmaxRow(h, M, pi.data());
      pass.gate[i] = static_cast<T>(pi[best]);
    }
  };
  // Sample i's share of the router's gradient (its slope is in G_; sums: its patch sums).
  auto router_gradient = [&](int i, const T* sums) {
    const T* si = sums;
    const T* g = G_.row(i).data();
    const int best = pass.expert[i];
    if (s.gate == Gate::kNoisyValue) {  // one non-zero entry: column `best` += dL/dh * S_i
      by_expert.row(best) += g[best] * Eigen::Map<const Eigen::Array<T, 1, Eigen::Dynamic>>(si, d);
    } else if (narrow) {
      Lane16 g16 = Lane16::Zero();
      for (int m = 0; m < M; ++m) g16[m] = g[m];
      for (int c = 0; c < d; ++c) gtheta_pad.row(c) += si[c] * g16.transpose();
    } else {
      for (int c = 0; c < d; ++c)
        for (int m = 0; m < M; ++m) gtheta[static_cast<size_t>(c) * M + m] += si[c] * g[m];
    }
    for (size_t c = 0; c < sums_total.size(); ++c) sums_total[c] += si[c];
  };

  // One pass over the samples in their order, four at a time when the shape allows (each with
  // its own expert): route them, run each through its expert forward and backward, add their
  // shares of the router's gradient. Every sum runs as in a sample-by-sample pass.
  sample_loss_.assign(N, 0.0);
  SwitchSlope<T> slope(pass, labels, loss, G_, s.gate, N);
  slope.sample_loss = sample_loss_.data();
  const bool batched = in.interleaved.rows() == N && ConvBatchable(s.P, s.J);
  std::vector<T> batch_sums(batched ? static_cast<size_t>(kBatchSamples) * d : 0);
  work_.resize(static_cast<size_t>(kBatchSamples) * s.P * s.J);
  const size_t filters = static_cast<size_t>(d) * s.J;
  T f[2];
  int i = 0;
  if (batched)
    for (; i + kBatchSamples <= N; i += kBatchSamples) {
      int ids[kBatchSamples];
      ConvBatch<T> batch;
      // The batch's patch sums from its interleaved rows (the same additions as MakeSwitchInput's,
      // so the same bits): the pass then streams only the interleaved patches, not in.sums too
      // (3.2 MB a step at C-switch's size), and the rows are in cache for the experts next.
      const T* rows[kBatchSamples];
      for (int k = 0; k < kBatchSamples; ++k) {
        const T* xi = in.interleaved.row(i + k).data();
        T* out = batch_sums.data() + static_cast<size_t>(k) * d;
        for (int c = 0; c < d; ++c) {
          T sum = 0;
          for (int p = 0; p < kBatchPatches; ++p) sum += xi[c * kBatchPatches + p];
          out[c] = sum;
        }
        rows[k] = out;
      }
      logits(i, rows, std::integral_constant<int, kBatchSamples>());
      for (int k = 0; k < kBatchSamples; ++k) {
        ids[k] = i + k;
        route(i + k);
        const size_t at = ExpertBegin(pass.expert[i + k]);
        batch.x[k] = in.interleaved.row(i + k).data();
        batch.W[k] = params_.data() + at;
        batch.b[k] = params_.data() + at + filters;
        batch.gW[k] = grad.data() + at;
        batch.gb[k] = grad.data() + at + filters;
      }
      slope.ids = ids;
      ConvForwardBackward4(batch, d, s.J, s.act, slope, 0, work_.data());
      for (int k = 0; k < kBatchSamples; ++k) router_gradient(i + k, rows[k]);
    }
  for (; i < N; ++i) {
    const T* row = in.sums.row(i).data();
    logits(i, &row, std::integral_constant<int, 1>());
    route(i);
    const size_t at = ExpertBegin(pass.expert[i]);
    slope.ids = &i;
    ConvForwardBackward(*in.x, s.P, &i, 1, params_.data() + at, params_.data() + at + filters, s.J,
                        s.act, f, slope, grad.data() + at, grad.data() + at + filters, work_, true);
    router_gradient(i, row);
  }
  if (s.gate == Gate::kNoisyValue) {
    for (int c = 0; c < d; ++c)
      for (int m = 0; m < M; ++m) gtheta[static_cast<size_t>(c) * M + m] = by_expert(m, c);
  } else if (narrow) {
    for (int c = 0; c < d; ++c)
      for (int m = 0; m < M; ++m) gtheta[static_cast<size_t>(c) * M + m] = gtheta_pad(c, m);
  }
  double total = 0;
  for (int j = 0; j < N; ++j) total += sample_loss_[j];
  pass.loss = total / N;
  pass.errors = slope.errors;
  pass.finite = slope.finite;
  AddLoadBalance(pass);
  // The load-balancing term's gradient, coef M frac_m / N for every sample's h_m, summed:
  // (sum_i S_i) times it.
  if (s.load_balance != 0)
    for (int m = 0; m < M; ++m) {
      const double per_sample = s.load_balance * M * pass.counts[m] / N / N;
      for (int c = 0; c < d; ++c)
        gtheta[static_cast<size_t>(c) * M + m] += static_cast<T>(sums_total[c] * per_sample);
    }
}

}  // namespace pmoe
