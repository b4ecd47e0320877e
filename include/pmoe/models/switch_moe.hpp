// The top-1 switch-routing MoE of Chen et al. (MODEL.md §8): M experts, each a two-output
// convolution of J filters with bias (conv_expert.hpp); a linear router h_m(x) = sum_p
// <theta_m, x^(p)> with noise r ~ U[0, 1)^M; each sample goes to m* = argmax (h + r). The
// `published` gate multiplies the expert's outputs by the raw noisy logit h_m* + r_m*; the
// `paper` gate by softmax(h)_m*. Parameters live in one flat vector: expert m's filters (d, J)
// row-major and biases (J), m = 0..M-1, then the router theta (d, M) row-major.
#pragma once

#include <vector>

#include "pmoe/core/matrix.hpp"
#include "pmoe/core/rng.hpp"
#include "pmoe/models/conv_expert.hpp"
#include "pmoe/models/loss.hpp"
#include "pmoe/models/optimizer.hpp"

namespace pmoe {

enum class Gate { kNoisyValue, kSoftmax };  // published, paper

struct SwitchShape {
  int M = 8;   // experts
  int J = 16;  // filters per expert, even
  int P = 4;   // patches per sample
  int d = 50;  // patch dimension
  Activation act = Activation::kCubic;
  Gate gate = Gate::kNoisyValue;
  double load_balance = 0;  // coefficient of the load-balancing term (0: off)
};

// The router noise r ~ U[0, 1) of N samples and M experts (numerics version 8): one draw from
// `rng` per call, then element e = i M + m is the 24 top bits of splitmix64's e-th value from it,
// times 2^-24. Integer arithmetic and one exact conversion, so the loop vectorizes with the same
// bits on every CPU; deterministic from the stream, independent of threads.
inline RowMat<float> RouterNoise(int N, int M, Rng& rng) {
  RowMat<float> r(N, M);
  const uint64_t key = rng.Next();
  float* out = r.data();
  const int64_t size = static_cast<int64_t>(N) * M;
  for (int64_t e = 0; e < size; ++e)
    out[e] = static_cast<float>(static_cast<uint32_t>(
                 Mix64(key + static_cast<uint64_t>(e) * 0x9e3779b97f4a7c15ULL) >> 40)) *
             0x1.0p-24f;
  return r;
}

// A data set as the switch MoE reads it: patches (N * P, d) and their per-sample sums (N, d),
// what the router sees, computed once; for training with the batched kernel
// (ConvBatchable(P, J)) also each sample's patches interleaved, (N, d * P): coordinate c of
// patch p at column c P + p.
template <typename T>
struct SwitchInput {
  const RowMat<T>* x = nullptr;
  RowMat<T> sums;
  RowMat<T> interleaved;
  int samples() const { return static_cast<int>(sums.rows()); }
};

template <typename T>
SwitchInput<T> MakeSwitchInput(const RowMat<T>& x, int P, bool interleave = false);

// What one forward pass decided and computed, kept for the backward pass and the metrics.
template <typename T>
struct SwitchPass {
  std::vector<int> expert;  // (N) m* of each sample
  std::vector<int> counts;  // (M) samples per expert
  std::vector<int> order;   // samples grouped by expert, ascending within each
  std::vector<int> first;   // (M + 1) expert m's samples are order[first[m], first[m+1])
  RowMat<T> h;              // (N, M) router logits, without noise
  RowMat<T> u;              // (N, M) with the noise
  std::vector<T> gate;      // (N) the gate value of each sample
  RowMat<T> A;              // (N * P, J) pre-activations, in `order`
  RowMat<T> f;              // (N, 2) expert outputs, in `order`
  RowMat<T> z;              // (N, 2) logits gate * f, in sample order
  double loss = 0;          // mean loss (+ load balancing)
  double load_balance = 0;  // the load-balancing term alone
  int errors = 0;           // misclassified samples
  bool finite = true;
};

template <typename T>
class SwitchMoe {
 public:
  // Experts' filters and biases ~ U(-init_scale/sqrt(d), init_scale/sqrt(d)); router zero.
  SwitchMoe(const SwitchShape& shape, double init_scale, Rng& rng);

  const SwitchShape& shape() const { return shape_; }
  Vec<T>& params() { return params_; }
  const Vec<T>& params() const { return params_; }
  size_t ExpertBegin(int m) const { return static_cast<size_t>(m) * expert_size(); }
  size_t RouterBegin() const { return static_cast<size_t>(shape_.M) * expert_size(); }
  size_t expert_size() const {
    return static_cast<size_t>(shape_.d) * shape_.J + static_cast<size_t>(shape_.J);
  }
  // Per expert: its filters and its biases (the normalized step's parts); the router.
  std::vector<std::vector<ParamGroup>> ExpertGroups() const;
  ParamGroup RouterGroup() const;

  // A forward pass with router noise `noise` (N, M), or none (r = 0) when null; the loss is the
  // mean of `loss` over the samples plus the load-balancing term.
  void Forward(const SwitchInput<T>& in, const int* labels, const RowMat<T>* noise,
               const Loss<T>& loss, SwitchPass<T>& pass) const;
  // The gradient of pass.loss at params, routing as in `pass` (held fixed).
  void Backward(const SwitchInput<T>& in, const int* labels, const Loss<T>& loss,
                SwitchPass<T>& pass, Vec<T>& grad) const;
  // Forward and Backward in one pass over the data (training): the same numbers up to float
  // rounding, but each sample is read once, in sample order: routed, run through its expert
  // forward and backward, its router gradient added; four samples at a time through the experts
  // when `in` is interleaved and the shape allows, every sum still in the order of a
  // sample-by-sample pass. Neither the grouping, f nor the pre-activations are kept
  // (pass.order, first, f and A empty).
  void ForwardBackward(const SwitchInput<T>& in, const int* labels, const RowMat<T>* noise,
                       const Loss<T>& loss, SwitchPass<T>& pass, Vec<T>& grad) const;

 private:
  // Router logits, noise, the expert of each sample, the grouping and the gate.
  void Route(const SwitchInput<T>& in, const RowMat<T>* noise, SwitchPass<T>& pass) const;
  void AddLoadBalance(SwitchPass<T>& pass) const;
  // dL/dtheta = sums^T G, G = dL/dh with the load-balancing term added here.
  void RouterGradient(const SwitchInput<T>& in, const SwitchPass<T>& pass, RowMat<T>& G,
                      Vec<T>& grad) const;

  SwitchShape shape_;
  Vec<T> params_;
  mutable RowMat<T> df_, G_;
  mutable std::vector<T> work_;
  mutable std::vector<double> sample_loss_;
};

// n_{k,m}: samples of cluster k sent to expert m, (K, M) row-major as a flat vector.
std::vector<double> DispatchCounts(const std::vector<int>& cluster, int K,
                                   const std::vector<int>& expert, int M);
// Eq. (6.1) of the paper, natural log: sum over experts in use of (n_m / n) times the entropy of
// the clusters expert m received; 0 when every expert sees one cluster only.
double DispatchEntropy(const std::vector<double>& counts, int K, int M);
// Experts that received at least one sample.
int ExpertsInUse(const std::vector<double>& counts, int K, int M);

}  // namespace pmoe
