// Multiclass separate training end to end (MODEL.md §7, M.1): the pairwise router phase sees only
// its pair's samples with labels +1/-1, routers then find each class's pattern for l >= l*, and
// a trial records its per-class metrics; a binary cell keeps its key and seeds.
#include <catch2/catch.hpp>
#include <cmath>

#include "pmoe/core/errors.hpp"
#include "pmoe/core/param_table.hpp"
#include "pmoe/core/validate.hpp"
#include "pmoe/data/class_pairs.hpp"
#include "pmoe/train/router_trainer.hpp"
#include "pmoe/trial/trial.hpp"

namespace pmoe {

// One step over every sample of a pair (batch >= its size, one epoch) moves w_i by
// lr * mean over the pair's samples of y sum_j x^(j), and w_j by minus that. The expected moves
// are computed here from the data; any sample of another class, or a label other than +1/-1,
// would change them.
TEST_CASE("Pairwise router training sees only its pair's samples, labelled +1 and -1",
          "[multiclass][router]") {
  for (int c : {4, 5}) {
    Dataset data;
    data.n = 3;
    data.d = 6;
    data.classes = c;
    const int samples = 40;
    data.x.resize(samples * data.n, data.d);
    Rng rng(99);
    for (int r = 0; r < data.x.rows(); ++r)
      for (int j = 0; j < data.d; ++j) data.x(r, j) = static_cast<float>(rng.Normal());
    for (int i = 0; i < samples; ++i) data.label.push_back((i * 7) % c);
    data.disc_pos.assign(samples, 0);
    RouterOptions options;
    options.samples = 30;  // the last 10 samples must not count either
    options.lr = 0.5;
    options.batch = 1000;
    options.epochs = 1;
    RowMat<float> router = RowMat<float>::Zero(c, data.d);
    Rng order(3);
    const long steps = TrainPairwiseRouters(data, options, order, router);
    const auto pairs = RouterPairs(c);
    CHECK(steps == static_cast<long>(pairs.size()));
    RowMat<double> expected = RowMat<double>::Zero(c, data.d);
    for (const auto& [first, second] : pairs) {
      Vecd sum = Vecd::Zero(data.d);
      int members = 0;
      for (int i = 0; i < options.samples; ++i) {
        if (data.label[i] != first && data.label[i] != second) continue;
        ++members;
        const double y = data.label[i] == first ? 1.0 : -1.0;
        for (int j = 0; j < data.n; ++j)
          sum += y * data.x.row(i * data.n + j).cast<double>().transpose();
      }
      const Vecd move = options.lr * sum / members;
      expected.row(first) += move.transpose();
      if (second > first) expected.row(second) -= move.transpose();  // (c-1, 0): row 0 stays
    }
    INFO("c = " << c);
    CHECK((router.cast<double>() - expected).cwiseAbs().maxCoeff() < 1e-5);
    CHECK(router.row(0).norm() > 0.1);
  }
}

TEST_CASE("With l >= l*, the separately trained routers hit every class's pattern",
          "[multiclass][router]") {
  for (int c : {3, 4}) {
    TrialSpec spec;
    SetParamValue(spec, "data.c", c);
    SetParamValue(spec, "data.p", 2 * c + 2);
    spec.model.kind = "separate";
    SetParamValue(spec, "model.k", 0);
    SetParamValue(spec, "model.l", IntParam(spec, "data.l_star"));  // 4
    SetParamValue(spec, "model.m", 10 * c);
    SetParamValue(spec, "model.epochs", 30);
    spec.N = 600;
    spec.N_test = 600;
    const TrialResult r = RunTrial(spec, /*trial=*/0, /*master_seed=*/5);
    INFO("c = " << c << ": " << r.message);
    REQUIRE(r.status == TrialStatus::kOk);
    REQUIRE(static_cast<int>(r.class_counts.size()) == c);
    for (int i = 0; i < c; ++i) {
      INFO("class " << i);
      CHECK(r.metrics.Get(PerClassName("router_hit_class", i)) == 1.0);
      CHECK(r.metrics.Has(PerClassName("accuracy_class", i)));
    }
    CHECK(r.metrics.Get("router_hit") == 1.0);
    CHECK(r.metrics.Get("realized_l_star") == IntParam(spec, "data.l_star"));
    // Below l*, with strong confusers, the routers must miss some samples of some class.
    SetParamValue(spec, "model.l", 1);
    const TrialResult low = RunTrial(spec, 0, 5);
    CHECK(low.metrics.Get("router_hit") < 0.9);
  }
}

TEST_CASE("A binary cell keeps its key: data.c = 2 and model.loss = auto are left out",
          "[multiclass]") {
  TrialSpec binary;
  const std::string key = CanonicalKey(binary, "");
  CHECK(key.find("data.c=") == std::string::npos);
  CHECK(key.find("model.loss=") == std::string::npos);
  TrialSpec four = binary;
  SetParamValue(four, "data.c", 4);
  SetParamValue(four, "model.loss", "softmax");
  CHECK(CanonicalKey(four, "").find("data.c=4;") != std::string::npos);
  CHECK(CanonicalKey(four, "").find("model.loss=softmax;") != std::string::npos);
  CHECK(DeriveSeeds(1, binary, 0).data != DeriveSeeds(1, four, 0).data);
  // Analysis reads the default back for the cells whose keys leave it out.
  std::map<std::string, std::string> params;
  for (const auto& [name, value] : SplitCanonicalKey(key)) params[name] = value;
  AddUnkeyedDefaults(params);
  CHECK(params["data.c"] == "2");
  CHECK(params["model.loss"] == "auto");
  CHECK(params.count("data.classes") == 0);  // an image parameter: not read by pattern cells
}

TEST_CASE("Multiclass cells are checked: one separate expert per class, c outputs for c > 2",
          "[multiclass]") {
  auto refusal = [](const TrialSpec& spec) {
    try {
      ValidateSpec(spec, "cell");
    } catch (const ConfigError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  using Catch::Matchers::Contains;
  TrialSpec spec;
  SetParamValue(spec, "data.c", 4);
  SetParamValue(spec, "data.p", 10);
  spec.model.kind = "separate";
  SetParamValue(spec, "model.k", 2);
  CHECK_THAT(refusal(spec), Contains("model.k") && Contains("c = 4"));
  SetParamValue(spec, "model.k", 0);
  CHECK(refusal(spec) == "accepted");
  SetParamValue(spec, "model.loss", "logistic");
  CHECK_THAT(refusal(spec), Contains("model.loss") && Contains("c = 4 classes"));
  SetParamValue(spec, "model.loss", "auto");
  spec.model.kind = "joint";
  SetParamValue(spec, "model.k", 0);
  CHECK_THAT(refusal(spec), Contains("model.k"));
}

}  // namespace pmoe
