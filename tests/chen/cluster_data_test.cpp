// Data model C (MODEL.md §8): orthonormal signals, one feature, one center and one feature-noise
// patch per sample with the sample's cluster and label, labels independent of clusters, prefix
// draws, feasibility messages, the shared-draw option.
#include <catch2/catch.hpp>
#include <cmath>

#include "pmoe/core/errors.hpp"
#include "pmoe/core/param_table.hpp"
#include "pmoe/core/validate.hpp"
#include "pmoe/data/cluster_model.hpp"
#include "pmoe/family/builtin.hpp"
#include "pmoe/trial/trial.hpp"

namespace pmoe {
namespace {

ClusterSpec Setting1() {
  ClusterSpec s;  // K = 4, P = 4, d = 50, the published ranges, sigma_p = 1, scale 10
  return s;
}

// <x, s> / scale for a patch row x and a signal row s.
double Coefficient(const Dataset& data, Eigen::Index row, const RowMat<double>& signals, int s,
                   double scale) {
  return data.x.row(row).cast<double>().dot(signals.row(s)) / scale;
}

}  // namespace

TEST_CASE("Data C: the 2K signals are orthonormal to float precision", "[chen][data]") {
  for (int K : {2, 4, 9}) {
    ClusterSpec s = Setting1();
    s.K = K;
    s.d = 2 * K + 1;
    const ClusterModel model(s, 77);
    CHECK(OrthonormalityError(model.signals()) < 1e-13);
    const RowMat<float> stored = model.signals().cast<float>();
    CHECK(OrthonormalityError(stored) < 5e-7);
    Metrics metrics;
    const Dataset train = model.Draw(Split::kTrain, 50);
    model.Record(train, train, metrics);
    CHECK(metrics.Get("signal_orthonormality") < 5e-7);
    REQUIRE(metrics.GetList("train_cluster_counts").size() == static_cast<size_t>(K));
  }
}

TEST_CASE("Data C: each sample holds its feature signal, its center and one feature noise",
          "[chen][data]") {
  ClusterSpec s = Setting1();
  s.P = 5;  // two noise patches
  const ClusterModel model(s, 3);
  const Dataset data = model.Draw(Split::kTrain, 400);
  REQUIRE(data.n == 5);
  REQUIRE(data.clusters == 4);
  const RowMat<double>& sig = model.signals();
  for (int i = 0; i < data.size(); ++i) {
    const int k = data.cluster[i];
    const double y = data.label[i] == 0 ? 1.0 : -1.0;
    int features = 0, centers = 0, feature_noise = 0, noise = 0;
    for (int p = 0; p < data.n; ++p) {
      const Eigen::Index row = static_cast<Eigen::Index>(i) * data.n + p;
      // Decompose the patch on the 2K signals; the rest is noise.
      double on_span = 0;
      int strongest = -1;
      double strongest_c = 0;
      for (int j = 0; j < 2 * s.K; ++j) {
        const double c = Coefficient(data, row, sig, j, s.scale);
        on_span += c * c;
        if (std::abs(c) > std::abs(strongest_c)) strongest_c = c, strongest = j;
      }
      const double norm2 = data.x.row(row).cast<double>().squaredNorm() / (s.scale * s.scale);
      if (norm2 - on_span > 1e-8) {  // off the span: a Gaussian noise patch
        ++noise;
        continue;
      }
      // On the span: exactly one signal, the others ~0.
      REQUIRE(std::abs(norm2 - strongest_c * strongest_c) < 1e-5);
      if (strongest == k) {
        ++features;
        CHECK(data.disc_pos[i] == p);
        CHECK(strongest_c * y >= s.alpha.lo - 1e-5);  // alpha y v_k, alpha in [0.5, 2]
        CHECK(strongest_c * y <= s.alpha.hi + 1e-5);
      } else if (strongest == s.K + k) {
        ++centers;
        CHECK(strongest_c >= s.beta.lo - 1e-5);
        CHECK(strongest_c <= s.beta.hi + 1e-5);
      } else {
        REQUIRE(strongest < s.K);  // v_k' with k' != k, |gamma| in range
        ++feature_noise;
        CHECK(std::abs(strongest_c) >= s.gamma.lo - 1e-5);
        CHECK(std::abs(strongest_c) <= s.gamma.hi + 1e-5);
      }
    }
    REQUIRE(features == 1);
    REQUIRE(centers == 1);
    REQUIRE(feature_noise == 1);
    REQUIRE(noise == 2);
  }
}

TEST_CASE("Data C: labels are independent of clusters, and patches uniformly placed",
          "[chen][data]") {
  const ClusterModel model(Setting1(), 12);
  const int N = 40000;
  const Dataset data = model.Draw(Split::kTest, N);
  // Counts per (cluster, label): each cell expects N / 8 = 5000, sd about 66.
  int counts[4][2] = {};
  int position[4] = {};
  for (int i = 0; i < N; ++i) {
    ++counts[data.cluster[i]][data.label[i]];
    ++position[data.disc_pos[i]];
  }
  double chi2 = 0;
  for (auto& row : counts)
    for (int c : row) chi2 += (c - N / 8.0) * (c - N / 8.0) / (N / 8.0);
  CHECK(chi2 < 24.3);  // chi-square, 7 degrees of freedom, p = 0.001
  double chi2_pos = 0;
  for (int c : position) chi2_pos += (c - N / 4.0) * (c - N / 4.0) / (N / 4.0);
  CHECK(chi2_pos < 16.3);  // 3 degrees of freedom, p = 0.001
}

TEST_CASE("Data C: a smaller draw is a prefix of a larger one, and the seed decides everything",
          "[chen][data]") {
  const ClusterModel model(Setting1(), 5);
  const Dataset small = model.Draw(Split::kTrain, 30), large = model.Draw(Split::kTrain, 90);
  CHECK(small.x == large.x.topRows(small.x.rows()));
  CHECK(std::equal(small.cluster.begin(), small.cluster.end(), large.cluster.begin()));
  const ClusterModel again(Setting1(), 5), other(Setting1(), 6);
  CHECK(again.Draw(Split::kTrain, 30).x == small.x);
  CHECK(other.Draw(Split::kTrain, 30).x != small.x);
  CHECK(model.Draw(Split::kTest, 30).x != small.x);
}

TEST_CASE("Data C: infeasible parameters are refused, naming what is wrong", "[chen][data]") {
  auto refused = [](auto change, const std::string& needle) {
    ClusterSpec s = Setting1();
    change(s);
    INFO(needle);
    CHECK_THAT(ClusterInfeasibility(s), Catch::Contains(needle));
    CHECK_THROWS_AS(ClusterModel(s, 1), InfeasibleError);
  };
  refused([](ClusterSpec& s) { s.d = 7; }, "d >= 2K");
  refused([](ClusterSpec& s) { s.P = 2; }, "P >= 3");
  refused([](ClusterSpec& s) { s.K = 1; }, "K >= 2");
  refused([](ClusterSpec& s) { s.gamma = {3, 0.5}; }, "gamma range");
  refused([](ClusterSpec& s) { s.alpha = {-1, 2}; }, "alpha range");
  CHECK(ClusterInfeasibility(Setting1()).empty());

  // Through the family: the config is refused before anything runs, naming the key.
  TrialSpec spec;
  spec.data.model = "cluster";
  spec.model.kind = "switch";
  SetParamValue(spec, "data.n", 4);
  SetParamValue(spec, "data.d", 6);
  CHECK_THROWS_WITH(ValidateSpec(spec, "cfg"),
                    Catch::Contains("data.d") && Catch::Contains("at least 2K = 8"));
  SetParamValue(spec, "data.d", 50);
  SetParam(spec, "data.gamma_lo", "4", "cfg");
  CHECK_THROWS_WITH(ValidateSpec(spec, "cfg"), Catch::Contains("data.gamma_hi"));
  SetParam(spec, "data.gamma_lo", "0.5", "cfg");
  SetParamValue(spec, "data.n", 2);
  CHECK_THROWS_WITH(ValidateSpec(spec, "cfg"), Catch::Contains("data.n"));
}

TEST_CASE("Data C: a cell may share one data draw among its trials", "[chen][data]") {
  TrialSpec spec;
  spec.data.model = "cluster";
  spec.model.kind = "single";
  SetParamValue(spec, "data.n", 4);
  SetParamValue(spec, "data.d", 20);
  spec.N = 60;
  spec.N_test = 40;
  SetParam(spec, "model.max_steps", "2", "test");
  SetParam(spec, "model.filters", "8", "test");
  auto counts = [](const TrialResult& r) { return r.metrics.GetList("train_cluster_counts"); };
  const TrialResult a = RunTrial(spec, 0, 1), b = RunTrial(spec, 1, 1);
  REQUIRE(a.status == TrialStatus::kOk);
  CHECK(counts(a) != counts(b));  // fresh data per trial (the default)
  SetParam(spec, "data.draw", "shared", "test");
  const TrialResult c = RunTrial(spec, 0, 1), d = RunTrial(spec, 1, 1);
  CHECK(counts(c) == counts(d));
  CHECK(c.class_counts == d.class_counts);
  CHECK(c.seeds.init != d.seeds.init);  // initialization and noise still vary per trial
  CHECK(c.train_loss != d.train_loss);
  SetParam(spec, "data.draw_seed", "1", "test");
  CHECK(counts(RunTrial(spec, 0, 1)) != counts(c));
}

}  // namespace pmoe
