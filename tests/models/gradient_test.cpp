// The analytic gradients of all three models against central finite differences, in double.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <numeric>
#include <string>
#include <vector>

#include "pmoe/core/spec.hpp"
#include "pmoe/data/pattern_model.hpp"
#include "pmoe/family/family.hpp"
#include "pmoe/family/model_factory.hpp"
#include "pmoe/models/joint_moe.hpp"
#include "pmoe/models/separate_moe.hpp"

namespace pmoe {
namespace {

struct GradientCheck {
  double max_abs_error = 0.0;  // over every parameter
  double max_abs_gradient = 0.0;
  double gating_gradient_norm = 0.0;  // joint only: the part that flows through the softmax
};

// Small data from model A, in double; batch of 12 samples out of 16.
struct SmallProblem {
  RowMat<double> x;
  std::vector<int> labels;  // class 0 (y = +1) or 1 (y = -1)
  int samples = 16;
  std::vector<int> batch;
  explicit SmallProblem(int n = 6, int d = 12) {
    DataSpec spec;
    spec.n = n;
    spec.d = d;
    spec.p = 4;
    spec.l_star = 2;
    PatternModel source(PlanPatternModel(spec), /*data_seed=*/11);
    Dataset data = source.Draw(Split::kTrain, samples);
    x = data.x.cast<double>();
    labels = data.label;
    batch = {3, 0, 7, 15, 9, 2, 11, 4, 13, 6, 1, 8};
  }
};

GradientCheck CheckGradient(Model<double>& model, const SmallProblem& problem,
                            size_t gating_offset) {
  const PatchBlocks<double> in = model.Prepare(problem.x, problem.samples);
  const int count = static_cast<int>(problem.batch.size());
  Vec<double> grad, unused;
  model.LossAndGradient(in, problem.batch.data(), count, problem.labels.data(), grad);
  GradientCheck check;
  const double h = 1e-6;
  for (Eigen::Index i = 0; i < model.params().size(); ++i) {
    const double saved = model.params()[i];
    model.params()[i] = saved + h;
    const double up =
        model.LossAndGradient(in, problem.batch.data(), count, problem.labels.data(), unused);
    model.params()[i] = saved - h;
    const double down =
        model.LossAndGradient(in, problem.batch.data(), count, problem.labels.data(), unused);
    model.params()[i] = saved;
    const double numeric = (up - down) / (2 * h);
    check.max_abs_error = std::max(check.max_abs_error, std::abs(numeric - grad[i]));
    check.max_abs_gradient = std::max(check.max_abs_gradient, std::abs(grad[i]));
    if (static_cast<size_t>(i) >= gating_offset) check.gating_gradient_norm += grad[i] * grad[i];
  }
  check.gating_gradient_norm = std::sqrt(check.gating_gradient_norm);
  return check;
}

ModelSpec SmallModel(const std::string& kind) {
  ModelSpec spec;
  spec.kind = kind;
  spec.m = 8;
  spec.k = kind == "joint" ? 4 : 2;
  spec.l = 3;
  spec.sigma_w = 0.5;
  spec.sigma_g = 0.5;  // gates far from uniform, so the softmax path carries real gradient
  spec.output_init = "gaussian";
  return spec;
}

}  // namespace

// The gradient tests check the double twins (sim/f64, chosen by kind); the trials run the
// families' own float models. Each twin must be the family's model: the same parameters from the
// same seed and the same outputs, up to float rounding.
TEST_CASE("Every SGD model family's double twin is the model its trials run", "[gradient]") {
  SmallProblem problem;
  const RowMat<float> x = problem.x.cast<float>();
  int families = 0;
  for (const ModelFamily* family : ModelFamilies()) {
    if (dynamic_cast<const SgdModelFamily*>(family) == nullptr) continue;
    ++families;
    INFO(family->name());
    const ModelSpec spec = SmallModel(family->name());
    auto single = MakeModel<float>(spec, 12, /*init_seed=*/5);
    auto twin = MakeModel<double>(spec, 12, /*init_seed=*/5);
    REQUIRE(twin->params().size() == single->params().size());
    CHECK((twin->params() - single->params().cast<double>()).cwiseAbs().maxCoeff() < 1e-6);
    std::vector<float> f_single(problem.samples * twin->loss().outputs());
    std::vector<double> f_twin(f_single.size());
    single->Forward(single->Prepare(x, problem.samples), 0, problem.samples, f_single.data());
    twin->Forward(twin->Prepare(problem.x, problem.samples), 0, problem.samples, f_twin.data());
    for (size_t i = 0; i < f_twin.size(); ++i)
      CHECK(std::abs(f_twin[i] - f_single[i]) < 1e-4 * std::max(1.0, std::abs(f_twin[i])));
  }
  CHECK(families >= 3);  // cnn, separate, joint
}

TEST_CASE("CNN and separate pMoE gradients match central finite differences", "[gradient]") {
  SmallProblem problem;
  for (const char* kind : {"cnn", "separate"}) {
    auto model = MakeModel<double>(SmallModel(kind), 12, /*init_seed=*/5);
    const GradientCheck check = CheckGradient(*model, problem, model->params().size());
    INFO(kind << ": max |analytic - numeric| = " << check.max_abs_error);
    CHECK(check.max_abs_gradient > 1e-3);
    CHECK(check.max_abs_error < 1e-7);
  }
}

TEST_CASE("Joint pMoE gradient with its gating path matches central finite differences",
          "[gradient]") {
  SmallProblem problem;
  const ModelSpec spec = SmallModel("joint");
  for (uint64_t seed : {7, 8, 9}) {
    auto model = MakeModel<double>(spec, 12, seed);
    const size_t gating_offset = static_cast<size_t>(spec.m) * 12;
    const GradientCheck check = CheckGradient(*model, problem, gating_offset);
    INFO("seed " << seed << ": max |analytic - numeric| = " << check.max_abs_error
                 << ", |gating gradient| = " << check.gating_gradient_norm);
    CHECK(check.gating_gradient_norm > 1e-4);
    CHECK(check.max_abs_error < 1e-7);
  }
}

// The float models run the AVX-512 row kernels when built with them; the double models run
// Eigen. Agreement checks the kernels in place, with the models' own layouts and strides.
void CheckFloatMatchesDouble(const SmallProblem& problem, const ModelSpec& spec, int d) {
  auto single = MakeModel<float>(spec, d, 3);
  auto twice = MakeModel<double>(spec, d, 3);
  const RowMat<float> xf = problem.x.cast<float>();
  Vec<float> gf;
  Vec<double> gd;
  const int count = static_cast<int>(problem.batch.size());
  const double lf = single->LossAndGradient(single->Prepare(xf, problem.samples),
                                            problem.batch.data(), count, problem.labels.data(), gf);
  const double ld = twice->LossAndGradient(twice->Prepare(problem.x, problem.samples),
                                           problem.batch.data(), count, problem.labels.data(), gd);
  INFO(spec.kind << " m=" << spec.m << " k=" << spec.k << " l=" << spec.l << " d=" << d);
  CHECK(lf == Approx(ld).epsilon(1e-5));
  const double scale = std::max(1.0, gd.cwiseAbs().maxCoeff());
  CHECK((gf.cast<double>() - gd).cwiseAbs().maxCoeff() < 1e-5 * scale);
  CHECK(gd.cwiseAbs().maxCoeff() > 1e-4);  // a gradient to compare, not zeros
}

TEST_CASE("Float and double models compute the same loss and gradient", "[gradient]") {
  SmallProblem problem;
  for (const char* kind : {"cnn", "separate", "joint"})
    CheckFloatMatchesDouble(problem, SmallModel(kind), 12);
}

TEST_CASE("Float and double models agree at the benchmark's shapes", "[gradient]") {
  // n = 16 patches; d = 64 fills whole vectors, d = 70 leaves a masked tail. Neurons per
  // expert: 40 (CNN), 20 (separate, k = 2), 5 (joint, k = 8): every lane split of the kernels.
  for (int d : {64, 70}) {
    SmallProblem problem(16, d);
    for (const char* kind : {"cnn", "separate", "joint"}) {
      ModelSpec spec = SmallModel(kind);
      spec.m = 40;
      spec.k = std::string(kind) == "joint" ? 8 : 2;
      spec.l = std::string(kind) == "joint" ? 6 : 4;
      CheckFloatMatchesDouble(problem, spec, d);
    }
  }
}

TEST_CASE("Float and double models agree with more neurons than one kernel pass takes",
          "[gradient]") {
  SmallProblem problem(16, 64);
  ModelSpec cnn = SmallModel("cnn");
  cnn.m = 100;  // one expert of 100 neurons: passes of 48 + 48 + 4
  CheckFloatMatchesDouble(problem, cnn, 64);
  ModelSpec joint = SmallModel("joint");
  joint.k = 60;  // 60 gating kernels: the scores take two passes
  joint.m = 60;
  joint.l = 2;
  CheckFloatMatchesDouble(problem, joint, 64);
}

}  // namespace pmoe
