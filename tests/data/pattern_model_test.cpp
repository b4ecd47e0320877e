// Data model A delivers what was asked: delta_d exactly, delta_r, cap radius and l* as bounds
// (l* exactly with K = l* - 1), label-free irrelevant patches, prefixes and determinism.
#include <catch2/catch.hpp>

#include <cmath>

#include "pmoe/data/pattern_model.hpp"

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
  sets[3].l_star = 1;      // no confusers at all
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
      INFO("n=" << spec.n << " d=" << spec.d << " delta_d=" << spec.delta_d << " delta_r="
                << spec.delta_r << " l*=" << spec.l_star << " seed=" << seed);
      REQUIRE(model.o1().dot(model.o2()) == Approx(spec.delta_d).margin(1e-12));
      REQUIRE(stats.delta_d == Approx(spec.delta_d).margin(tol));
      REQUIRE(stats.delta_r <= spec.delta_r + tol);
      if (spec.confusers == "fixed") REQUIRE(stats.l_star == spec.l_star);
      else REQUIRE(stats.l_star <= spec.l_star);
      REQUIRE(stats.confusers_outrank == (plan.confusers_outrank && spec.l_star > 1));
      for (int i = 0; i < train.size(); ++i) {
        for (int j = 0; j < train.n; ++j) {
          const Vecd q = train.x.row(i * train.n + j).cast<double>();
          REQUIRE(q.norm() == Approx(1.0).margin(tol));
          if (j == train.disc_pos[i]) {
            REQUIRE((q - (train.y[i] > 0 ? model.o1() : model.o2())).norm() < tol);
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
    const int c = data.y[i] > 0;
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
  CHECK(small.y == large.y.head(30));
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
  CHECK(a.y == b.y);
  CHECK(a.x != c.x);
}

}  // namespace pmoe
