// Data model A delivers what was asked: delta_d exactly, delta_r, cap radius and l* as bounds
// (l* exactly with K = l* - 1), label-free irrelevant patches, prefixes and determinism.
#include "pmoe/data/pattern_model.hpp"

#include <catch2/catch.hpp>
#include <cmath>

namespace pmoe {
namespace {

// Several parameter sets, all feasible, with strong and weak confusers, d near its minimum.
std::vector<DataSpec> ParameterSets() {
  std::vector<DataSpec> sets(5);
  sets[1].delta_d = -0.3;
  sets[1].delta_r = 0.7;
  sets[1].l_star = 6;
  sets[1].p = 12;
  sets[2].n = 9;
  sets[2].d = 10;
  sets[2].delta_r = 0.45;  // feasible confusers that do not outrank o1
  sets[2].radius = 0.1;
  sets[3].l_star = 1;  // no confusers at all
  sets[3].delta_r = 0.1;
  sets[4].confusers = "uniform";
  sets[4].confuser_strength = 0.3;
  return sets;
}

// Distance from q to the nearest pattern-set center.
double DistanceToNearestCenter(const PatternModel& model, const Vecd& q) {
  return (model.centers().rowwise() - q.transpose()).rowwise().norm().minCoeff();
}

}  // namespace

TEST_CASE("Realized statistics meet what was asked over many seeds", "[data]") {
  const double tol = 1e-6;  // float storage of unit vectors
  for (const DataSpec& spec : ParameterSets()) {
    const PatternPlan plan = PlanPatternModel(spec);
    for (uint64_t seed = 0; seed < 40; ++seed) {
      PatternModel model(plan, seed);
      const Dataset train = model.Draw(Split::kTrain, 150);
      const Dataset test = model.Draw(Split::kTest, 50);
      const RealizedStats stats = model.Measure(train, test);
      INFO("n=" << spec.n << " d=" << spec.d << " delta_d=" << spec.delta_d
                << " delta_r=" << spec.delta_r << " l*=" << spec.l_star << " seed=" << seed);
      REQUIRE(model.o1().dot(model.o2()) == Approx(spec.delta_d).margin(1e-12));
      REQUIRE(stats.delta_d == Approx(spec.delta_d).margin(tol));
      REQUIRE(stats.delta_r <= spec.delta_r + tol);
      if (spec.confusers == "fixed")
        REQUIRE(stats.l_star == spec.l_star);
      else
        REQUIRE(stats.l_star <= spec.l_star);
      REQUIRE(stats.confusers_outrank == (plan.confusers_outrank && spec.l_star > 1));
      for (int i = 0; i < train.size(); ++i) {
        for (int j = 0; j < train.n; ++j) {
          const Vecd q = train.x.row(i * train.n + j).cast<double>();
          REQUIRE(q.norm() == Approx(1.0).margin(tol));
          if (j == train.disc_pos[i]) {
            REQUIRE((q - (train.label[i] == 0 ? model.o1() : model.o2())).norm() < tol);
          } else {
            REQUIRE(DistanceToNearestCenter(model, q) <= spec.radius + tol);
          }
        }
      }
    }
  }
}

TEST_CASE("The default data set has strong confusers and the planned geometry", "[data]") {
  const PatternPlan plan = PlanPatternModel(DataSpec{});
  CHECK(plan.confusers_outrank);
  CHECK(plan.K == 3);
  CHECK(plan.n_confuser == 4);
  CHECK(plan.n_neutral == 4);
  // a at the top of (L/4 + radius, 2 (delta_r - radius) / L]: confusers touch delta_r.
  CHECK(plan.a * plan.L / 2 + 0.05 == Approx(0.6));
}

TEST_CASE("Irrelevant patches carry no label information", "[data]") {
  PatternModel model(PlanPatternModel(DataSpec{}), 3);
  const Dataset data = model.Draw(Split::kTrain, 4000);
  const Vecd diff = model.o1() - model.o2();
  double score[2] = {0, 0};
  int count[2] = {0, 0};
  for (int i = 0; i < data.size(); ++i) {
    const int c = data.label[i] == 0;
    ++count[c];
    for (int j = 0; j < data.n; ++j)
      if (j != data.disc_pos[i]) score[c] += diff.dot(data.x.row(i * data.n + j).cast<double>());
  }
  // Mean router score of the irrelevant patches: about 0 for both classes (sd per sample ~1.2).
  CHECK(std::abs(score[1] / count[1]) < 0.1);
  CHECK(std::abs(score[0] / count[0]) < 0.1);
  CHECK(count[1] == Approx(2000).margin(150));
}

TEST_CASE("Discriminative positions are uniform over the patches", "[data]") {
  PatternModel model(PlanPatternModel(DataSpec{}), 4);
  const Dataset data = model.Draw(Split::kTest, 8000);
  std::vector<int> hist(16, 0);
  for (int pos : data.disc_pos) ++hist[pos];
  for (int h : hist) CHECK(h == Approx(500).margin(100));
}

TEST_CASE("A smaller draw is a prefix of a larger one and splits differ", "[data]") {
  PatternModel model(PlanPatternModel(DataSpec{}), 21);
  const Dataset small = model.Draw(Split::kTrain, 30);
  const Dataset large = model.Draw(Split::kTrain, 300);
  CHECK(small.x == large.x.topRows(small.x.rows()));
  CHECK(std::equal(small.label.begin(), small.label.end(), large.label.begin()));
  CHECK(std::equal(small.disc_pos.begin(), small.disc_pos.end(), large.disc_pos.begin()));
  const Dataset test = model.Draw(Split::kTest, 30);
  CHECK(test.x != small.x);
}

TEST_CASE("The same seed gives bit-identical data and another seed other data", "[data]") {
  DataSpec spec;
  spec.noise = 0.1;
  const PatternPlan plan = PlanPatternModel(spec);
  const Dataset a = PatternModel(plan, 5).Draw(Split::kTrain, 100);
  const Dataset b = PatternModel(plan, 5).Draw(Split::kTrain, 100);
  const Dataset c = PatternModel(plan, 6).Draw(Split::kTrain, 100);
  CHECK(a.x == b.x);
  CHECK(a.label == b.label);
  CHECK(a.x != c.x);
}

TEST_CASE("Cap draws follow MODEL.md: theta uniform, direction uniform orthogonal to the center",
          "[data]") {
  const PatternPlan plan = PlanPatternModel(DataSpec{});
  PatternModel model(plan, 8);
  const Dataset data = model.Draw(Split::kTrain, 2000);
  const int d = data.d;
  // A fixed direction; each draw's u is compared with its part orthogonal to the draw's center.
  Vecd w = Vecd::LinSpaced(d, 1.0, 2.0);
  double sum_t = 0, sum_t2 = 0, sum_uw = 0, sum_uw2 = 0, worst_orthogonality = 0;
  int draws = 0, directions = 0, below_quarter = 0;
  Vecd coordinate_sq = Vecd::Zero(d), coordinate_expected = Vecd::Zero(d);
  for (int i = 0; i < data.size(); ++i)
    for (int j = 0; j < data.n; ++j) {
      if (j == data.disc_pos[i]) continue;
      const Vecd q = data.x.row(i * data.n + j).cast<double>();
      Eigen::Index set;
      (model.centers().rowwise() - q.transpose()).rowwise().norm().minCoeff(&set);
      const Vecd c = model.centers().row(set).transpose();
      const double theta = std::acos(std::min(1.0, q.dot(c)));
      const double t = theta / plan.theta_max;
      sum_t += t;
      sum_t2 += t * t;
      below_quarter += t < 0.25;
      ++draws;
      // u is independent of theta: measured where float storage of q leaves it well defined.
      if (t < 0.1) continue;
      const Vecd u = (q - std::cos(theta) * c) / std::sin(theta);
      const Vecd w_perp = (w - w.dot(c) * c).normalized();
      sum_uw += u.dot(w_perp);
      sum_uw2 += u.dot(w_perp) * u.dot(w_perp);
      // Per coordinate: E[u_k^2] = (1 - c_k^2) / (d - 1).
      coordinate_sq += u.cwiseAbs2();
      coordinate_expected += (Vecd::Ones(d) - c.cwiseAbs2()) / (d - 1);
      worst_orthogonality = std::max(worst_orthogonality, std::abs(u.dot(c)));
      ++directions;
    }
  REQUIRE(draws == 2000 * 15);
  REQUIRE(directions > 0.85 * draws);
  // theta / theta_max ~ U[0, 1]: mean 1/2, second moment 1/3, P(< 1/4) = 1/4 (about 6 standard
  // errors of margin).
  CHECK(sum_t / draws == Approx(0.5).margin(0.01));
  CHECK(sum_t2 / draws == Approx(1.0 / 3).margin(0.01));
  CHECK(below_quarter / double(draws) == Approx(0.25).margin(0.015));
  // u uniform on the unit sphere of the complement of c: <u, w_perp> has mean 0 and variance
  // 1 / (d - 1) (standard error of the variance about 1.3e-4 here).
  CHECK(worst_orthogonality < 1e-3);  // float rounding of q, amplified by 1 / sin(theta)
  CHECK(std::abs(sum_uw / directions) < 6 * std::sqrt(1.0 / (d - 1) / directions));
  CHECK(sum_uw2 / directions == Approx(1.0 / (d - 1)).margin(8e-4));
  // No preferred axis: each coordinate's second moment within 5% (about 6 standard errors).
  CHECK((coordinate_sq.array() / coordinate_expected.array() - 1).abs().maxCoeff() < 0.05);
}

}  // namespace pmoe
