// Data model C (MODEL.md §8): the signals from the data seed's geometry stream, then each sample
// from its own stream (data/sample_stream.hpp), so that a smaller draw is a prefix of a larger.
#include "pmoe/data/cluster_model.hpp"

#include <cmath>

#include "pmoe/core/errors.hpp"
#include "pmoe/data/sample_stream.hpp"

namespace pmoe {
namespace {

constexpr uint64_t kSignalStream = 0x636c7573;  // any constant apart from the split streams

// The slots of a sample before its patches are placed in random order.
enum Slot { kFeature = 0, kCenter = 1, kFeatureNoise = 2 };

double UniformIn(const Range& r, Rng& rng) { return r.lo + (r.hi - r.lo) * rng.Uniform(); }

std::string RangeProblem(const char* name, const Range& r) {
  if (!(r.lo <= r.hi))
    return std::string(name) + " range [" + std::to_string(r.lo) + ", " + std::to_string(r.hi) +
           "]: expected lo <= hi";
  if (!std::isfinite(r.lo) || !std::isfinite(r.hi) || r.lo < 0)
    return std::string(name) + " range [" + std::to_string(r.lo) + ", " + std::to_string(r.hi) +
           "]: expected finite non-negative bounds";
  return "";
}

}  // namespace

std::string ClusterInfeasibility(const ClusterSpec& s) {
  if (s.K < 2) return "K >= 2 (k' is drawn from the other clusters): K = " + std::to_string(s.K);
  if (s.P < 3)
    return "P >= 3 (feature signal, cluster center, feature noise): P = " + std::to_string(s.P);
  if (s.d < 2 * s.K)
    return "d >= 2K (2K = " + std::to_string(2 * s.K) +
           " orthonormal feature signals and centers): d = " + std::to_string(s.d);
  for (const auto& [name, r] : {std::pair{"alpha", s.alpha}, {"beta", s.beta}, {"gamma", s.gamma}})
    if (std::string problem = RangeProblem(name, r); !problem.empty()) return problem;
  if (!(s.sigma_p >= 0) || !std::isfinite(s.sigma_p))
    return "sigma_p >= 0: sigma_p = " + std::to_string(s.sigma_p);
  if (!(s.scale > 0) || !std::isfinite(s.scale))
    return "scale > 0: scale = " + std::to_string(s.scale);
  return "";
}

template <typename T>
double OrthonormalityError(const RowMat<T>& signals) {
  double worst = 0;
  for (Eigen::Index i = 0; i < signals.rows(); ++i)
    for (Eigen::Index j = 0; j <= i; ++j) {
      double dot = 0;
      for (Eigen::Index c = 0; c < signals.cols(); ++c)
        dot += static_cast<double>(signals(i, c)) * static_cast<double>(signals(j, c));
      worst = std::max(worst, std::abs(dot - (i == j ? 1.0 : 0.0)));
    }
  return worst;
}
template double OrthonormalityError(const RowMat<float>&);
template double OrthonormalityError(const RowMat<double>&);

ClusterModel::ClusterModel(const ClusterSpec& spec, uint64_t data_seed)
    : spec_(spec), data_seed_(data_seed) {
  if (const std::string problem = ClusterInfeasibility(spec); !problem.empty())
    throw InfeasibleError("data model C: " + problem);
  // A Gaussian (2K, d) matrix made orthonormal by modified Gram-Schmidt, twice so that the
  // inner products are zero to double rounding: a uniformly random orthonormal frame.
  Rng rng(CombineSeed(data_seed, kSignalStream));
  const int rows = 2 * spec.K;
  signals_.resize(rows, spec.d);
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < spec.d; ++j) signals_(i, j) = rng.Normal();
  for (int pass = 0; pass < 2; ++pass)
    for (int i = 0; i < rows; ++i) {
      for (int j = 0; j < i; ++j)
        signals_.row(i) -= signals_.row(i).dot(signals_.row(j)) * signals_.row(j);
      signals_.row(i).normalize();
    }
}

void ClusterModel::Draw(Split split, int count, Dataset& out) const {
  out.n = spec_.P;
  out.d = spec_.d;
  out.classes = 2;
  out.x.resize(static_cast<Eigen::Index>(count) * spec_.P, spec_.d);
  out.label.resize(count);
  out.disc_pos.resize(count);
  out.cluster.resize(count);
  out.clusters = spec_.K;
  out.pattern_scores.resize(0, 0);
  for (int i = 0; i < count; ++i) DrawSample(split, i, out);
}

void ClusterModel::DrawSample(Split split, int index, Dataset& out) const {
  const ClusterSpec& s = spec_;
  Rng rng = SampleStream(data_seed_, split, index);
  const int k = static_cast<int>(rng.Below(static_cast<uint32_t>(s.K)));
  const int k_noise = (k + 1 + static_cast<int>(rng.Below(static_cast<uint32_t>(s.K - 1)))) % s.K;
  // The coin is drawn with balanced labels too, so that everything else is drawn as with iid.
  const bool coin = rng.Coin();
  const bool positive = s.balanced ? index % 2 == 0 : coin;
  const double y = positive ? 1.0 : -1.0;  // label 0 is y = +1 (loss.hpp)
  const double eps = rng.Coin() ? 1.0 : -1.0;
  const double alpha = UniformIn(s.alpha, rng);
  const double beta = UniformIn(s.beta, rng);
  const double gamma = UniformIn(s.gamma, rng);
  int row_of[kMaxPatches];
  PMOE_CHECK(s.P <= kMaxPatches) << "P = " << s.P;
  PlaceSlots(s.P, rng, row_of);

  const Eigen::Index base = static_cast<Eigen::Index>(index) * s.P;
  auto put = [&](int slot, const auto& value) {
    out.x.row(base + row_of[slot]) = (s.scale * value).template cast<float>();
  };
  put(kFeature, alpha * y * signals_.row(k));
  put(kCenter, beta * signals_.row(s.K + k));
  put(kFeatureNoise, gamma * eps * signals_.row(k_noise));
  const double noise_sd = s.sigma_p / std::sqrt(static_cast<double>(s.d));
  for (int slot = 3; slot < s.P; ++slot) {
    float* row = out.x.row(base + row_of[slot]).data();
    for (int j = 0; j < s.d; ++j) row[j] = static_cast<float>(s.scale * noise_sd * rng.Normal());
  }
  out.label[index] = positive ? 0 : 1;
  out.disc_pos[index] = row_of[kFeature];
  out.cluster[index] = k;
}

std::vector<MetricInfo> ClusterDataMetrics() {
  using T = ColumnType;
  return {
      {"signal_orthonormality", T::kF64,
       "max |<s_i, s_j> - [i = j]| over the 2K signals as used (float, scaled back)"},
      {"train_cluster_counts", T::kF64List, "training samples of each cluster k = 0..K-1"},
  };
}

void ClusterModel::Record(const Dataset& train, const Dataset&, Metrics& metrics) const {
  // The signals as the samples hold them: float rows, measured in double.
  const RowMat<float> stored = signals_.cast<float>();
  metrics.Set("signal_orthonormality", OrthonormalityError(stored));
  std::vector<double> counts(spec_.K, 0.0);
  for (int k : train.cluster) counts.at(k) += 1;
  metrics.SetList("train_cluster_counts", std::move(counts));
}

}  // namespace pmoe
