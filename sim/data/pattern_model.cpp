// Data model A (MODEL.md §2): geometry from one random orthonormal frame, then per-sample streams
// so that sample i of a split never depends on how many samples are drawn.
#include "pmoe/data/pattern_model.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "pmoe/core/errors.hpp"
#include "pmoe/core/fast_normal.hpp"
#include "pmoe/data/class_pairs.hpp"
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
  const int c = plan.classes;
  Rng rng(CombineSeed(data_seed, kGeometryStream));
  const RowMat<double> frame = RandomOrthonormalRows(s.p + c, s.d, rng);
  // o_i = sum_{j <= i} L(i, j) e_j with L the Cholesky factor of the Gram matrix (1 on the
  // diagonal, delta_d off it): every <o_i, o_j> = delta_d (MODEL.md §7). Row 1 is written as
  // the binary model always wrote o2, so that two classes keep its bits.
  o_.resize(c);
  o_[0] = frame.row(0).transpose();
  o_[1] = s.delta_d * frame.row(0).transpose() +
          std::sqrt(1.0 - s.delta_d * s.delta_d) * frame.row(1).transpose();
  RowMat<double> chol = RowMat<double>::Zero(c, c);
  for (int i = 0; i < c; ++i) {
    double diagonal = 1.0;
    for (int j = 0; j < i; ++j) {
      double dot = s.delta_d;
      for (int k = 0; k < j; ++k) dot -= chol(i, k) * chol(j, k);
      chol(i, j) = dot / chol(j, j);
      diagonal -= chol(i, j) * chol(i, j);
    }
    chol(i, i) = std::sqrt(std::max(0.0, diagonal));  // 0 only at delta_d = -1/(c - 1)
  }
  for (int i = 2; i < c; ++i) {
    o_[i] = Vecd::Zero(s.d);
    for (int j = 0; j <= i; ++j) o_[i] += chol(i, j) * frame.row(j).transpose();
  }

  // Confuser sets of pair (i, j): c = ±a u_ij + sqrt(1 - a^2) v with u_ij = (o_i - o_j) / L, so
  // <o_i - o_j, c> = ±a L, |<o_i, c>| = |<o_j, c>| = a L / 2 and <o_k, c> = 0 for the others.
  const auto pairs = RouterPairs(c);
  centers_.resize(s.p, s.d);
  direction_.assign(s.p, 0);
  pair_of_.assign(s.p, -1);
  toward_first_.assign(plan.pairs, {});
  toward_second_.assign(plan.pairs, {});
  int set = 0;
  for (int q = 0; q < plan.pairs; ++q) {
    const Vecd u = (o_[pairs[q].first] - o_[pairs[q].second]) / plan.L;
    const int sets = ConfuserSetsOfPair(plan, q), first = ConfuserSetsTowardFirst(plan, q);
    for (int t = 0; t < sets; ++t, ++set) {
      const auto v = frame.row(c + set);
      direction_[set] = t < first ? +1 : -1;
      pair_of_[set] = q;
      centers_.row(set) =
          direction_[set] * plan.a * u.transpose() + std::sqrt(1.0 - plan.a * plan.a) * v;
      (direction_[set] > 0 ? toward_first_ : toward_second_)[q].push_back(set);
    }
  }
  for (; set < s.p; ++set) {
    centers_.row(set) = frame.row(c + set);  // orthogonal to every o: neutral
    neutral_.push_back(set);
  }
  centers_f_ = centers_.cast<float>();
  patterns_f_.resize(s.d, c);
  o_f_.resize(c);
  for (int a = 0; a < c; ++a) {
    patterns_f_.col(a) = o_[a].cast<float>();
    o_f_[a] = o_[a].cast<float>();
  }
}

void PatternModel::Draw(Split split, int count, Dataset& out) const {
  const DataSpec& s = plan_.spec;
  out.n = s.n;
  out.d = s.d;
  out.x.resize(static_cast<Eigen::Index>(count) * s.n, s.d);
  out.classes = plan_.classes;
  out.label.resize(count);
  out.disc_pos.resize(count);
  out.pattern_scores.resize(out.x.rows(), plan_.classes);
  for (int i = 0; i < count; ++i) DrawSample(split, i, out);
}

void PatternModel::DrawSample(Split split, int index, Dataset& out) const {
  const DataSpec& s = plan_.spec;
  const int c = plan_.classes;
  Rng rng = SampleStream(data_seed_, split, index);
  // The label is drawn with balanced labels too, so that everything else is drawn as with iid;
  // two classes draw the binary model's coin (true: class 0, y = +1).
  const int drawn = c == 2 ? (rng.Coin() ? 0 : 1) : static_cast<int>(rng.Below(c));
  const int label = s.labels == "balanced" ? index % c : drawn;
  const int confusers =
      s.confusers == "uniform" ? static_cast<int>(rng.Below(plan_.K + 1)) : plan_.K;
  // The sample's confusers all belong to one trained pair, chosen independently of its label
  // (no label information); with one pair nothing is drawn, as in the binary model.
  const int pair = plan_.pairs > 1 ? static_cast<int>(rng.Below(plan_.pairs)) : 0;
  // Slot 0 is the discriminative patch, slots 1..confusers the confusers, the rest neutral;
  // row_of[slot] is a uniform random permutation placing slots at patch positions.
  int row_of[kMaxPatches];
  PMOE_CHECK(s.n <= kMaxPatches) << "n = " << s.n;
  PlaceSlots(s.n, rng, row_of);
  // The Gaussian vectors come from a counter-based stream of this key: patch position j uses
  // numbers [j * stride, j * stride + d). With d even the positions' ranges meet, and one call
  // fills all the positions before the discriminative patch, one all those after it.
  const uint64_t normals = rng.Next();
  const uint64_t stride = static_cast<uint64_t>(s.d + (s.d & 1));
  const Eigen::Index base = static_cast<Eigen::Index>(index) * s.n;
  float* sample = out.x.row(base).data();
  auto fill_positions = [&](int begin, int end) {  // [begin, end)
    if (stride == static_cast<uint64_t>(s.d))
      FillNormals(normals, begin * stride, (end - begin) * s.d, sample + begin * s.d);
    else
      for (int j = begin; j < end; ++j) FillNormals(normals, j * stride, s.d, sample + j * s.d);
  };
  fill_positions(0, row_of[0]);
  fill_positions(row_of[0] + 1, s.n);
  out.label[index] = label;
  out.disc_pos[index] = row_of[0];
  out.x.row(base + row_of[0]) = o_f_[label].transpose();
  int set_of[kMaxPatches];
  float turn_of[kMaxPatches];  // theta / (2 pi)
  float* pattern_of[kMaxPatches];
  float* scores_of[kMaxPatches];
  for (int slot = 1; slot < s.n; ++slot) {
    if (slot <= confusers) {
      // Toward either class of the pair with probability 1/2, independently of y.
      const auto& pool = rng.Coin() ? toward_first_[pair] : toward_second_[pair];
      set_of[slot] = pool[rng.Below(static_cast<uint32_t>(pool.size()))];
    } else {
      set_of[slot] = neutral_[rng.Below(static_cast<uint32_t>(neutral_.size()))];
    }
    turn_of[slot] = static_cast<float>(rng.Uniform() * plan_.theta_max / (2 * M_PI));
    pattern_of[slot] = out.x.row(base + row_of[slot]).data();
    scores_of[slot] = out.pattern_scores.row(base + row_of[slot]).data();
  }
  DrawFromCaps(s.n - 1, set_of + 1, turn_of + 1, pattern_of + 1, scores_of + 1);
  const Eigen::Index disc = base + row_of[0];
  for (int a = 0; a < c; ++a)
    out.pattern_scores(disc, a) = out.x.row(disc).dot(o_f_[a].transpose());
  if (s.noise > 0.0) {
    const float scale = static_cast<float>(s.noise / std::sqrt(static_cast<double>(s.d)));
    std::vector<float> noise(s.d);
    for (int j = 0; j < s.n; ++j) {
      FillNormals(normals, (s.n + j) * stride, s.d, noise.data());
      float* row = out.x.row(base + j).data();
      for (int c = 0; c < s.d; ++c) row[c] += scale * noise[c];
    }
  }
  if (s.noise > 0.0)  // the scores above are of the patterns before the noise: redo them
    for (int j = 0; j < s.n; ++j)
      for (int a = 0; a < c; ++a)
        out.pattern_scores(base + j, a) = out.x.row(base + j).dot(o_f_[a].transpose());
}

void PatternModel::DrawFromCaps(int count, const int* set, const float* turn, float* const* q,
                                float* const* scores) const {
  // theta ~ U[0, theta_max] with 2 sin(theta_max / 2) = radius puts q exactly on the cap
  // ||q - c|| <= radius; u is uniform on the unit sphere orthogonal to c (MODEL.md §2): one
  // Gaussian vector g, one projection, one normalization. Since |g - <g,c> c|^2 =
  // |g|^2 - <g,c>^2, one pass gives both sums and a second writes q = cos_t c + scale (g -
  // <g,c> c) with its scores. Each phase runs over all the sample's patches before the next:
  // the patches' sums, sines and square roots then overlap instead of waiting on each other.
  // Plain loops: with reassociation allowed for this file (CMakeLists.txt) GCC vectorizes their
  // sums, in an order fixed at compile time.
  const int d = plan_.spec.d;
  float along[kMaxPatches], g2[kMaxPatches];
  for (int i = 0; i < count; ++i) {
    const float* c = centers_f_.row(set[i]).data();
    const float* g = q[i];
    float sum_c = 0, sum_g = 0;
    for (int j = 0; j < d; ++j) {
      sum_c += g[j] * c[j];
      sum_g += g[j] * g[j];
    }
    along[i] = sum_c;
    g2[i] = sum_g;
  }
  float scale[kMaxPatches], along_c[kMaxPatches];
  for (int i = 0; i < count; ++i) {
    float sin_t, cos_t;  // theta <= theta_max < pi: the float sincos is within 1.2e-7
    fast_normal_detail::SinCos2Pi(turn[i], &sin_t, &cos_t);
    const float norm2 = g2[i] - along[i] * along[i];
    scale[i] = norm2 > 0 ? sin_t / std::sqrt(norm2) : 0.0f;
    along_c[i] = cos_t - scale[i] * along[i];
  }
  // The scores of the first two patterns in the same pass as q; more classes' after it.
  const float* o1 = o_f_[0].data();
  const float* o2 = o_f_[1].data();
  for (int i = 0; i < count; ++i) {
    const float* c = centers_f_.row(set[i]).data();
    float* p = q[i];
    float s1 = 0, s2 = 0;
    for (int j = 0; j < d; ++j) {
      p[j] = along_c[i] * c[j] + scale[i] * p[j];
      s1 += p[j] * o1[j];
      s2 += p[j] * o2[j];
    }
    scores[i][0] = s1;
    scores[i][1] = s2;
  }
  for (int a = 2; a < plan_.classes; ++a) {
    const float* o = o_f_[a].data();
    for (int i = 0; i < count; ++i) {
      const float* p = q[i];
      float sum = 0;
      for (int j = 0; j < d; ++j) sum += p[j] * o[j];
      scores[i][a] = sum;
    }
  }
}

}  // namespace pmoe
