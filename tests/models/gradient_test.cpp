// The analytic gradients of all three models against central finite differences, in double.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>
#include <string>
#include <vector>

#include "pmoe/data/pattern_model.hpp"
#include "pmoe/family/family.hpp"
#include "pmoe/family/model_factory.hpp"
#include "pmoe/family/model_spec.hpp"
#include "pmoe/models/joint_moe.hpp"
#include "pmoe/models/logistic.hpp"
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

// The training steps ask only whether the loss is finite (LossValue::kFiniteness), which skips
// the logistic loss's logarithms: the slope, now from one exp(-|z|), must be the sigmoid's of
// the separate exp(-z) and exp(z) the trials always used, bit for bit, and the finiteness
// LogisticLoss's, at every f, the overflowing and undefined ones included.
TEST_CASE("The logistic slope-and-finiteness is the slope bit for bit and the loss's finiteness",
          "[gradient][loss]") {
  const auto two_exp_slope = [](double y, double f) {
    const double z = -y * f;
    return -y * (z >= 0 ? 1.0 / (1.0 + std::exp(-z)) : std::exp(z) / (1.0 + std::exp(z)));
  };
  const double big = std::numeric_limits<float>::max(), inf = HUGE_VAL;
  for (double y : {1.0, -1.0}) {
    for (double f :
         {0.0,    -0.0,  1e-30,  -1e-30, 0.5,   -0.5, 3.0,  -3.0, 40.0, -40.0,       700.0,
          -700.0, 800.0, -800.0, 1e30,   -1e30, big,  -big, inf,  -inf, std::nan("")}) {
      INFO("y = " << y << ", f = " << f);
      bool finite = false;
      const double slope = LogisticLossSlope(y, f, &finite);
      const double reference = two_exp_slope(y, f);
      CHECK((std::memcmp(&slope, &reference, sizeof slope) == 0 ||
             (std::isnan(slope) && std::isnan(reference))));
      CHECK(finite == std::isfinite(LogisticLoss(y, f)));
    }
  }
  bool finite = true;
  LogisticLossSlope(-1.0, inf, &finite);  // z = +inf: the loss is infinite
  CHECK_FALSE(finite);
  LogisticLossSlope(1.0, inf, &finite);  // z = -inf: the loss is 0
  CHECK(finite);

  // What the models sum per sample: 0 or infinity, and the loss's slopes either way.
  const BinaryLogisticLoss<float> logistic;
  const SoftmaxCrossEntropy<float> softmax(3);
  const float finf = std::numeric_limits<float>::infinity(), fnan = std::nanf("");
  for (const int label : {0, 1}) {
    for (const float f : {0.0f, 2.0f, -2.0f, 1e30f, -1e30f, finf, -finf, fnan}) {
      INFO("label " << label << ", f = " << f);
      const float fs[3] = {f, 0.5f, -f};
      for (const Loss<float>* loss : {static_cast<const Loss<float>*>(&logistic),
                                      static_cast<const Loss<float>*>(&softmax)}) {
        double slope_exact[3], slope_only[3];
        const double value = SampleLossAndSlope(*loss, LossValue::kExact, fs, label, slope_exact);
        const double only =
            SampleLossAndSlope(*loss, LossValue::kFiniteness, fs, label, slope_only);
        CHECK((value == loss->Value(fs, label) ||
               (std::isnan(value) && std::isnan(loss->Value(fs, label)))));
        CHECK(only == (std::isfinite(value) ? 0.0 : HUGE_VAL));
        for (int o = 0; o < loss->outputs(); ++o)
          CHECK((std::memcmp(&slope_exact[o], &slope_only[o], sizeof(double)) == 0 ||
                 (std::isnan(slope_exact[o]) && std::isnan(slope_only[o]))));
      }
    }
  }
}

// The models' kFiniteness steps: the same gradient bits as kExact, 0 for a finite loss, and not
// finite exactly when the loss is not (then the trainer reports divergence as before).
TEST_CASE("A training step that skips the loss value computes the same gradient", "[gradient]") {
  SmallProblem problem(16, 64);
  const RowMat<float> x = problem.x.cast<float>();
  const int count = static_cast<int>(problem.batch.size());
  for (const char* kind : {"cnn", "separate", "joint"}) {
    for (const bool multiclass : {false, true}) {
      INFO(kind << (multiclass ? ", softmax over 2 outputs" : ", logistic"));
      ModelSpec spec = SmallModel(kind);
      if (multiclass) spec.loss = "softmax";
      auto model = MakeModel<float>(spec, 64, /*init_seed=*/4);
      const PatchBlocks<float> in = model->Prepare(x, problem.samples);
      Vec<float> exact, skipped;
      const double loss = model->LossAndGradient(in, problem.batch.data(), count,
                                                 problem.labels.data(), exact, LossValue::kExact);
      const double finiteness = model->LossAndGradient(
          in, problem.batch.data(), count, problem.labels.data(), skipped, LossValue::kFiniteness);
      CHECK(loss > 0.1);
      CHECK(finiteness == 0.0);
      REQUIRE(skipped.size() == exact.size());
      CHECK(std::memcmp(skipped.data(), exact.data(), sizeof(float) * exact.size()) == 0);
      CHECK(exact.cwiseAbs().maxCoeff() > 1e-5f);
      // Weights scaled towards overflow: both agree on finiteness at every scale.
      const Vec<float> weights = model->params();
      for (const float scale : {1e10f, 1e30f, 1e37f, 1e38f}) {
        INFO("weights x " << scale);
        model->params() = weights * scale;
        const double exact_loss =
            model->LossAndGradient(in, problem.batch.data(), count, problem.labels.data(), exact);
        const double only =
            model->LossAndGradient(in, problem.batch.data(), count, problem.labels.data(), skipped,
                                   LossValue::kFiniteness);
        CHECK(std::isfinite(only) == std::isfinite(exact_loss));
      }
    }
  }
}

}  // namespace pmoe
