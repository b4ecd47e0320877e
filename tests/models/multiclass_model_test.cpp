// The multiclass models of MODEL.md §7 (c outputs, per-class output weights, softmax
// cross-entropy): analytic gradients against central finite differences in double, float against
// double, and the output weights' initializations.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <string>

#include "pmoe/data/pattern_model.hpp"
#include "pmoe/family/model_factory.hpp"
#include "pmoe/family/model_spec.hpp"
#include "pmoe/models/init.hpp"

namespace pmoe {
namespace {

// Small c-class data from model A, in double; a batch of 14 of its 20 samples.
struct Problem {
  RowMat<double> x;
  std::vector<int> labels;
  int samples = 20;
  std::vector<int> batch = {3, 0, 7, 15, 9, 2, 11, 4, 13, 6, 1, 8, 19, 17};
  Problem(int c, int n, int d) {
    DataSpec spec;
    spec.c = c;
    spec.n = n;
    spec.d = d;
    spec.p = 2 * c;
    spec.l_star = 2;
    PatternModel source(PlanPatternModel(spec), /*data_seed=*/21);
    const Dataset data = source.Draw(Split::kTrain, samples);
    x = data.x.cast<double>();
    labels = data.label;
  }
};

ModelSpec Small(const std::string& kind, int c) {
  ModelSpec spec;
  spec.kind = kind;
  spec.k = kind == "joint" ? 3 : kind == "separate" ? 0 : 2;
  spec.m = kind == "joint" ? 9 : 2 * c;
  spec.l = 3;
  spec.sigma_w = 0.5;
  spec.sigma_g = 0.5;  // gates far from uniform: the softmax gating path carries gradient
  spec.loss = "softmax";
  return spec;
}

// Max |analytic - central difference| over every parameter, and the largest analytic entry.
std::pair<double, double> GradientError(Model<double>& model, const Problem& p) {
  const PatchBlocks<double> in = model.Prepare(p.x, p.samples);
  const int count = static_cast<int>(p.batch.size());
  Vec<double> grad, unused;
  model.LossAndGradient(in, p.batch.data(), count, p.labels.data(), grad);
  double error = 0, largest = 0;
  const double h = 1e-6;
  for (Eigen::Index i = 0; i < model.params().size(); ++i) {
    const double saved = model.params()[i];
    model.params()[i] = saved + h;
    const double up = model.LossAndGradient(in, p.batch.data(), count, p.labels.data(), unused);
    model.params()[i] = saved - h;
    const double down = model.LossAndGradient(in, p.batch.data(), count, p.labels.data(), unused);
    model.params()[i] = saved;
    error = std::max(error, std::abs((up - down) / (2 * h) - grad[i]));
    largest = std::max(largest, std::abs(grad[i]));
  }
  return {error, largest};
}

}  // namespace

TEST_CASE("Softmax models' gradients match central finite differences in double",
          "[gradient][multiclass]") {
  for (int c : {2, 3, 5}) {
    const Problem problem(c, 6, 2 * c + 6);
    for (const char* kind : {"cnn", "separate", "joint"}) {
      for (const char* init : {"gaussian", "sign"}) {
        ModelSpec spec = Small(kind, c);
        spec.output_init = init;
        auto model = MakeModel<double>(spec, problem.x.cols(), /*init_seed=*/5, c);
        REQUIRE(model->loss().outputs() == c);
        const auto [error, largest] = GradientError(*model, problem);
        INFO(kind << " c=" << c << " " << init << ": max |analytic - numeric| = " << error);
        CHECK(largest > 1e-3);
        CHECK(error < 1e-7);
      }
    }
  }
}

TEST_CASE("Float softmax models compute the double models' loss and gradient",
          "[gradient][multiclass]") {
  // d = 64 fills whole vectors of the float row kernels, d = 70 leaves a masked tail.
  for (int d : {64, 70}) {
    const Problem problem(4, 16, d);
    const RowMat<float> xf = problem.x.cast<float>();
    for (const char* kind : {"cnn", "separate", "joint"}) {
      ModelSpec spec = Small(kind, 4);
      spec.m = 40;
      spec.k = std::string(kind) == "joint" ? 8 : std::string(kind) == "separate" ? 4 : 1;
      auto single = MakeModel<float>(spec, d, 3, 4);
      auto twice = MakeModel<double>(spec, d, 3, 4);
      Vec<float> gf;
      Vec<double> gd;
      const int count = static_cast<int>(problem.batch.size());
      const double lf =
          single->LossAndGradient(single->Prepare(xf, problem.samples), problem.batch.data(), count,
                                  problem.labels.data(), gf);
      const double ld =
          twice->LossAndGradient(twice->Prepare(problem.x, problem.samples), problem.batch.data(),
                                 count, problem.labels.data(), gd);
      INFO(kind << " d=" << d);
      CHECK(lf == Approx(ld).epsilon(1e-5));
      const double scale = std::max(1.0, gd.cwiseAbs().maxCoeff());
      CHECK((gf.cast<double>() - gd).cwiseAbs().maxCoeff() < 1e-5 * scale);
      CHECK(gd.cwiseAbs().maxCoeff() > 1e-4);
    }
  }
}

TEST_CASE("Per-class sign output weights favour each class's own expert", "[multiclass]") {
  Rng rng(1);
  // Separate pMoE, k = c = 4 experts of 3 neurons: a_{r,s,i} = +1 iff s = i.
  const Vec<float> a = ClassOutputWeights<float>(4, 12, 4, "sign", rng);
  for (int i = 0; i < 4; ++i)
    for (int r = 0; r < 12; ++r) CHECK(a[i * 12 + r] == (r / 3 == i ? 1.0f : -1.0f));
  // A CNN of 8 neurons and 4 classes: runs of two neurons per class.
  const Vec<float> cnn = ClassOutputWeights<float>(1, 8, 4, "sign", rng);
  for (int i = 0; i < 4; ++i)
    for (int r = 0; r < 8; ++r) CHECK(cnn[i * 8 + r] == (r / 2 == i ? 1.0f : -1.0f));
}

TEST_CASE("model.loss picks the outputs: logistic for two classes unless softmax is asked",
          "[multiclass]") {
  ModelSpec spec;
  CHECK(ModelOutputs(spec, 2) == 1);
  CHECK(ModelOutputs(spec, 5) == 5);
  spec.loss = "softmax";
  CHECK(ModelOutputs(spec, 2) == 2);
  spec.kind = "separate";
  spec.k = 0;
  CHECK(ModelExperts(spec, 6) == 6);
  spec.k = 6;
  CHECK(ModelExperts(spec, 6) == 6);
}

}  // namespace pmoe
