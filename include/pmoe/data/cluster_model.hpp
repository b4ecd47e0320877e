// Data model C (MODEL.md §8; Chen, Deng, Wu, Gu, Li, NeurIPS 2022, Definition 3.1): K clusters,
// each with a feature signal v_k and a center c_k, 2K orthonormal vectors drawn once per data
// set. A sample of cluster k holds alpha*y*v_k, beta*c_k, gamma*eps*v_k' (k' != k) and P - 3
// Gaussian noise patches, in a uniform random order, all multiplied by `scale`. Its cluster is
// kept in Dataset::cluster: the switch MoE's dispatch metrics count by it.
#pragma once

#include <cstdint>
#include <string>

#include "pmoe/core/matrix.hpp"
#include "pmoe/data/data_source.hpp"

namespace pmoe {

struct Range {
  double lo = 0, hi = 0;
};

struct ClusterSpec {
  int K = 4;              // clusters
  int P = 4;              // patches per sample, >= 3
  int d = 50;             // patch dimension, >= 2K
  Range alpha{0.5, 2.0};  // feature-signal strength
  Range beta{1.0, 2.0};   // cluster-center strength
  Range gamma{0.5, 3.0};  // feature-noise strength
  double sigma_p = 1.0;   // noise patches ~ N(0, sigma_p^2 / d I)
  double scale = 10.0;    // every patch multiplied by this
  bool balanced = false;  // labels: sample i gets class i mod 2 instead of a fair coin
};

// The first violated condition of a ClusterSpec ("d >= 2K: 2K = 8 orthonormal signals need ...")
// or "" when it can be built.
std::string ClusterInfeasibility(const ClusterSpec& spec);

class ClusterModel final : public DataSource {
 public:
  // Throws InfeasibleError naming the violated condition.
  ClusterModel(const ClusterSpec& spec, uint64_t data_seed);

  void Draw(Split split, int count, Dataset& out) const override;
  using DataSource::Draw;
  // Realized statistics: the signals' worst deviation from orthonormality (in double and as
  // stored in float), and the training set's samples per cluster.
  void Record(const Dataset& train, const Dataset& test, Metrics& metrics) const override;

  const ClusterSpec& spec() const { return spec_; }
  // Rows 0..K-1 the feature signals v_k, rows K..2K-1 the centers c_k (double, unit length).
  const RowMat<double>& signals() const { return signals_; }

 private:
  void DrawSample(Split split, int index, Dataset& out) const;

  ClusterSpec spec_;
  uint64_t data_seed_;
  RowMat<double> signals_;  // (2K, d)
};

std::vector<MetricInfo> ClusterDataMetrics();

// max |<s_i, s_j> - [i == j]| over the rows of `signals` (orthonormality to this precision).
template <typename T>
double OrthonormalityError(const RowMat<T>& signals);

}  // namespace pmoe
