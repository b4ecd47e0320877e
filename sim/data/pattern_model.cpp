// Data model A (MODEL.md §2): geometry from one random orthonormal frame, then per-sample streams
// so that sample i of a split never depends on how many samples are drawn.
#include "pmoe/data/pattern_model.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "pmoe/core/errors.hpp"
#include "pmoe/data/sample_stream.hpp"

namespace pmoe {
namespace {

constexpr uint64_t kGeometryStream = 0x6e6f6d65;  // any constant apart from the split streams

// Rows of a (rows, d) Gaussian matrix made orthonormal by modified Gram-Schmidt, run twice so
// that the inner products are zero to double rounding.
RowMat<double> RandomOrthonormalRows(int rows, int d, Rng& rng) {
  RowMat<double> frame(rows, d);
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < d; ++j) frame(i, j) = rng.Normal();
  for (int pass = 0; pass < 2; ++pass) {
    for (int i = 0; i < rows; ++i) {
      for (int j = 0; j < i; ++j) frame.row(i) -= frame.row(i).dot(frame.row(j)) * frame.row(j);
      frame.row(i).normalize();
    }
  }
  return frame;
}

}  // namespace

PatternModel::PatternModel(const PatternPlan& plan, uint64_t data_seed)
    : plan_(plan), data_seed_(data_seed) {
  const DataSpec& s = plan.spec;
  Rng rng(CombineSeed(data_seed, kGeometryStream));
  const RowMat<double> frame = RandomOrthonormalRows(s.p + 2, s.d, rng);
  o1_ = frame.row(0).transpose();
  o2_ = s.delta_d * frame.row(0).transpose() +
        std::sqrt(1.0 - s.delta_d * s.delta_d) * frame.row(1).transpose();
  const Vecd u12 = (o1_ - o2_) / plan.L;

  centers_.resize(s.p, s.d);
  direction_.assign(s.p, 0);
  for (int i = 0; i < s.p; ++i) {
    const auto v = frame.row(2 + i);
    if (i < plan.n_confuser) {
      // c = ±a u12 + sqrt(1 - a^2) v: <o1 - o2, c> = ±a L and |<o_b, c>| = a L / 2.
      direction_[i] = i < plan.n_confuser_o1 ? +1 : -1;
      centers_.row(i) = direction_[i] * plan.a * u12.transpose() +
                        std::sqrt(1.0 - plan.a * plan.a) * v;
      (direction_[i] > 0 ? toward_o1_ : toward_o2_).push_back(i);
    } else {
      centers_.row(i) = v;  // orthogonal to span{o1, o2}: neutral
      neutral_.push_back(i);
    }
  }
}

Dataset PatternModel::Draw(Split split, int count) const {
  const DataSpec& s = plan_.spec;
  Dataset out;
  out.n = s.n;
  out.d = s.d;
  out.x.resize(static_cast<Eigen::Index>(count) * s.n, s.d);
  out.y.resize(count);
  out.disc_pos.resize(count);
  std::vector<double> scratch(2 * static_cast<size_t>(s.d));
  for (int i = 0; i < count; ++i) DrawSample(split, i, out, scratch);
  return out;
}

void PatternModel::DrawSample(Split split, int index, Dataset& out,
                              std::vector<double>& scratch) const {
  const DataSpec& s = plan_.spec;
  Rng rng = SampleStream(data_seed_, split, index);
  const bool positive = rng.Coin();
  const int confusers = s.confusers == "uniform" ? static_cast<int>(rng.Below(plan_.K + 1))
                                                 : plan_.K;
  // Slot 0 is the discriminative patch, slots 1..confusers the confusers, the rest neutral;
  // row_of[slot] is a uniform random permutation placing slots at patch positions.
  int row_of[kMaxPatches];
  PMOE_CHECK(s.n <= kMaxPatches) << "n = " << s.n;
  PlaceSlots(s.n, rng, row_of);

  const Eigen::Index base = static_cast<Eigen::Index>(index) * s.n;
  out.y[index] = positive ? 1.0f : -1.0f;
  out.disc_pos[index] = row_of[0];
  out.x.row(base + row_of[0]) = (positive ? o1_ : o2_).cast<float>().transpose();
  double* q = scratch.data();
  double* gaussian = scratch.data() + s.d;
  for (int slot = 1; slot < s.n; ++slot) {
    int set;
    if (slot <= confusers) {
      // Toward o1 or o2 with probability 1/2, independently of y: no label information.
      const auto& pool = rng.Coin() ? toward_o1_ : toward_o2_;
      set = pool[rng.Below(static_cast<uint32_t>(pool.size()))];
    } else {
      set = neutral_[rng.Below(static_cast<uint32_t>(neutral_.size()))];
    }
    DrawFromCap(set, rng, q, gaussian);
    auto row = out.x.row(base + row_of[slot]);
    for (int j = 0; j < s.d; ++j) row[j] = static_cast<float>(q[j]);
  }
  if (s.noise > 0.0) {
    const double scale = s.noise / std::sqrt(static_cast<double>(s.d));
    for (int j = 0; j < s.n; ++j)
      for (int c = 0; c < s.d; ++c)
        out.x(base + j, c) += static_cast<float>(scale * rng.Normal());
  }
}

void PatternModel::DrawFromCap(int set, Rng& rng, double* q, double* gaussian) const {
  // theta ~ U[0, theta_max] with 2 sin(theta_max / 2) = radius puts q exactly on the cap
  // ||q - c|| <= radius; u is uniform on the unit sphere orthogonal to c (MODEL.md §2).
  const int d = plan_.spec.d;
  const double* c = centers_.row(set).data();
  double along = 0.0;
  for (int j = 0; j < d; ++j) {
    gaussian[j] = rng.Normal();
    along += gaussian[j] * c[j];
  }
  double norm2 = 0.0;
  for (int j = 0; j < d; ++j) {
    gaussian[j] -= along * c[j];
    norm2 += gaussian[j] * gaussian[j];
  }
  const double theta = rng.Uniform() * plan_.theta_max;
  const double cos_t = std::cos(theta);
  const double sin_t = norm2 > 0.0 ? std::sin(theta) / std::sqrt(norm2) : 0.0;
  for (int j = 0; j < d; ++j) q[j] = cos_t * c[j] + sin_t * gaussian[j];
}

}  // namespace pmoe
