// The switch MoE and the single model of MODEL.md §8: gradients against central finite
// differences in double (routing held fixed), the losses, the normalized step, Adam, dispatch
// entropy, the load-balancing term, test-time noise, and the stopping rule.
#include "pmoe/models/switch_moe.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstring>

#include "pmoe/core/param_table.hpp"
#include "pmoe/data/cluster_model.hpp"
#include "pmoe/models/optimizer.hpp"
#include "pmoe/models/single_conv.hpp"
#include "pmoe/train/loss_rise_rule.hpp"
#include "pmoe/trial/trial.hpp"

namespace pmoe {
namespace {

// A small data-C set in double, scaled down so that cubic outputs stay moderate.
struct Small {
  RowMat<double> x;
  std::vector<int> labels;
  std::vector<int> cluster;
  int N = 24, P = 4, d = 10;
  Small() {
    ClusterSpec s;
    s.K = 3;
    s.P = P;
    s.d = d;
    s.scale = 1.0;
    const Dataset data = ClusterModel(s, 21).Draw(Split::kTrain, N);
    x = data.x.cast<double>();
    labels = data.label;
    cluster = data.cluster;
  }
};

RowMat<double> UniformNoise(int N, int M, uint64_t seed) {
  Rng rng(seed);
  RowMat<double> r(N, M);
  for (Eigen::Index i = 0; i < r.size(); ++i) r.data()[i] = rng.Uniform();
  return r;
}

// Largest |numeric - analytic| over all parameters, relative to the largest gradient entry;
// fails the test if a perturbation changed the routing (the gradient holds it fixed).
double SwitchGradientError(SwitchMoe<double>& model, const Small& p, const Loss<double>& loss) {
  const SwitchInput<double> in = MakeSwitchInput(p.x, p.P);
  const RowMat<double> noise = UniformNoise(p.N, model.shape().M, 5);
  SwitchPass<double> pass, moved;
  model.Forward(in, p.labels.data(), &noise, loss, pass);
  Vec<double> grad;
  model.Backward(in, p.labels.data(), loss, pass, grad);
  const double h = 1e-6;
  double worst = 0, largest = 0;
  for (Eigen::Index i = 0; i < model.params().size(); ++i) {
    const double saved = model.params()[i];
    model.params()[i] = saved + h;
    model.Forward(in, p.labels.data(), &noise, loss, moved);
    REQUIRE(moved.expert == pass.expert);
    const double up = moved.loss;
    model.params()[i] = saved - h;
    model.Forward(in, p.labels.data(), &noise, loss, moved);
    REQUIRE(moved.expert == pass.expert);
    const double down = moved.loss;
    model.params()[i] = saved;
    worst = std::max(worst, std::abs((up - down) / (2 * h) - grad[i]));
    largest = std::max(largest, std::abs(grad[i]));
  }
  REQUIRE(largest > 1e-6);  // a gradient of zero would pass any check
  return worst / largest;
}

// A model with a non-zero router and weights of order 1, so that every gradient path is live.
SwitchMoe<double> LiveModel(const SwitchShape& shape, uint64_t seed) {
  Rng rng(seed);
  SwitchMoe<double> model(shape, 1.0, rng);
  const ParamGroup router = model.RouterGroup();
  for (size_t i = 0; i < router.size; ++i)
    model.params()[static_cast<Eigen::Index>(router.begin + i)] = 0.3 * rng.Normal();
  return model;
}

}  // namespace

TEST_CASE("Switch MoE gradients match finite differences: both variants, cubic and linear",
          "[chen][gradient]") {
  const Small p;
  for (Gate gate : {Gate::kNoisyValue, Gate::kSoftmax})
    for (Activation act : {Activation::kCubic, Activation::kLinear})
      for (double lb : {0.0, 0.01}) {
        SwitchShape shape;
        shape.M = 3;
        shape.J = 4;
        shape.P = p.P;
        shape.d = p.d;
        shape.act = act;
        shape.gate = gate;
        shape.load_balance = lb;
        SwitchMoe<double> model = LiveModel(shape, 8);
        const DoubleSoftmaxCrossEntropy<double> published(2);
        const SoftmaxCrossEntropy<double> logistic(2);
        const Loss<double>& loss =
            gate == Gate::kNoisyValue ? static_cast<const Loss<double>&>(published) : logistic;
        INFO("gate " << static_cast<int>(gate) << " activation " << static_cast<int>(act)
                     << " load balance " << lb);
        CHECK(SwitchGradientError(model, p, loss) < 1e-6);
      }
}

TEST_CASE("Single model gradients match finite differences, cubic and linear", "[chen][gradient]") {
  const Small p;
  for (Activation act : {Activation::kCubic, Activation::kLinear}) {
    Rng rng(4);
    SingleConv<double> model(6, p.P, p.d, act, 1.0, rng);
    const SoftmaxCrossEntropy<double> loss(2);
    SinglePass<double> pass, moved;
    model.Forward(p.x, p.labels.data(), loss, pass);
    Vec<double> grad;
    model.Backward(p.x, p.labels.data(), loss, pass, grad);
    const double h = 1e-6;
    double worst = 0, largest = 0;
    for (Eigen::Index i = 0; i < model.params().size(); ++i) {
      const double saved = model.params()[i];
      model.params()[i] = saved + h;
      model.Forward(p.x, p.labels.data(), loss, moved);
      const double up = moved.loss;
      model.params()[i] = saved - h;
      model.Forward(p.x, p.labels.data(), loss, moved);
      model.params()[i] = saved;
      worst = std::max(worst, std::abs((up - moved.loss) / (2 * h) - grad[i]));
      largest = std::max(largest, std::abs(grad[i]));
    }
    REQUIRE(largest > 1e-6);
    CHECK(worst / largest < 1e-6);
    // The fused training pass gives the same loss and gradient.
    SinglePass<double> fused;
    Vec<double> fused_grad;
    model.ForwardBackward(p.x, p.labels.data(), loss, fused, fused_grad);
    CHECK(fused.loss == Approx(pass.loss).epsilon(1e-12));
    CHECK((fused_grad - grad).cwiseAbs().maxCoeff() <= 1e-12 * grad.cwiseAbs().maxCoeff());
  }
}

TEST_CASE("The published loss is the double softmax, log(1 + exp(1 - 2 p_y))", "[chen][loss]") {
  const DoubleSoftmaxCrossEntropy<double> loss(2);
  for (double a : {-3.0, -0.2, 0.0, 0.7, 5.0}) {
    const double f[2] = {a, -0.5 * a};
    const double p0 = 1 / (1 + std::exp(f[1] - f[0]));
    CHECK(loss.Value(f, 0) == Approx(std::log(1 + std::exp(1 - 2 * p0))).epsilon(1e-12));
    CHECK(loss.Value(f, 1) == Approx(std::log(1 + std::exp(1 - 2 * (1 - p0)))).epsilon(1e-12));
    double slope[2];
    loss.ValueAndSlope(f, 0, slope);
    const double h = 1e-6;
    const double up[2] = {f[0] + h, f[1]}, down[2] = {f[0] - h, f[1]};
    CHECK(slope[0] == Approx((loss.Value(up, 0) - loss.Value(down, 0)) / (2 * h)).margin(1e-8));
    CHECK(slope[0] + slope[1] == Approx(0).margin(1e-12));
  }
  // Its floor: a sample classified with certainty still costs log(1 + 1/e) = 0.3133.
  const double sure[2] = {60.0, -60.0};
  CHECK(loss.Value(sure, 0) == Approx(std::log(1 + std::exp(-1.0))).epsilon(1e-12));
  CHECK(loss.Value(sure, 0) > 0.3132);
}

TEST_CASE("The normalized step divides by the sum of the parts' norms and skips a zero",
          "[chen][optimizer]") {
  Vec<double> params = Vec<double>::Zero(7), grad(7);
  // Group 0: parts [0, 2) and [2, 3); group 1: parts [3, 5) and [5, 6); index 6 in no group.
  grad << 3, 4, 12, 0, 0, 0, 9;
  NormalizedStep<double> step(0.5, {{{"w0", 0, 2}, {"b0", 2, 1}}, {{"w1", 3, 2}, {"b1", 5, 1}}});
  CHECK(NormalizedStep<double>::Divisor(grad, {{"w0", 0, 2}, {"b0", 2, 1}}) == 17.0);  // 5 + 12
  step.Step(params, grad);
  CHECK(params[0] == Approx(-0.5 * 3 / 17));
  CHECK(params[1] == Approx(-0.5 * 4 / 17));
  CHECK(params[2] == Approx(-0.5 * 12 / 17));
  // The second group received no sample (zero gradient): skipped, no NaN from 0 / 0.
  CHECK(params[3] == 0);
  CHECK(params[5] == 0);
  CHECK(params[6] == 0);  // not in any group
  // Its step has length lr / (1 + ||b|| / ||W||)-ish: never more than lr.
  CHECK(params.head(3).norm() <= 0.5 + 1e-12);
}

TEST_CASE("Adam with weight decay follows PyTorch's update", "[chen][optimizer]") {
  AdamOptions o;
  o.lr = 0.01;
  o.weight_decay = 5e-4;
  AdamStep<double> adam(o);
  Vec<double> params(2), grad(2);
  params << 1.0, -2.0;
  double m[2] = {0, 0}, v[2] = {0, 0}, p[2] = {1.0, -2.0};
  const double grads[3][2] = {{0.3, -0.1}, {-0.2, 0.05}, {0.4, 0.4}};
  for (int t = 1; t <= 3; ++t) {
    grad << grads[t - 1][0], grads[t - 1][1];
    adam.Step(params, grad);
    for (int i = 0; i < 2; ++i) {  // torch.optim.Adam, written out
      const double g = grads[t - 1][i] + 5e-4 * p[i];
      m[i] = 0.9 * m[i] + 0.1 * g;
      v[i] = 0.999 * v[i] + 0.001 * g * g;
      const double denom = std::sqrt(v[i]) / std::sqrt(1 - std::pow(0.999, t)) + 1e-8;
      p[i] -= 0.01 / (1 - std::pow(0.9, t)) * m[i] / denom;
      CHECK(params[i] == Approx(p[i]).epsilon(1e-12));
    }
  }
  // The first step moves each coordinate by about lr, whatever the gradient's scale.
  CHECK(std::abs(p[0] - 1.0) > 0.015);
}

TEST_CASE("Dispatch entropy and counts against hand-computed values", "[chen][metrics]") {
  // K = 2 clusters, M = 3 experts. Expert 0: 3 of cluster 0, 1 of cluster 1; expert 1: 2 of
  // cluster 1; expert 2: none.
  const std::vector<int> cluster = {0, 0, 0, 1, 1, 1};
  const std::vector<int> expert = {0, 0, 0, 0, 1, 1};
  const std::vector<double> counts = DispatchCounts(cluster, 2, expert, 3);
  CHECK(counts == std::vector<double>{3, 0, 0, 1, 2, 0});
  const double h0 = -(0.75 * std::log(0.75) + 0.25 * std::log(0.25));
  CHECK(DispatchEntropy(counts, 2, 3) == Approx(4.0 / 6.0 * h0).epsilon(1e-14));
  CHECK(ExpertsInUse(counts, 2, 3) == 2);
  // One cluster per expert: 0. Every expert an even mix of K clusters: log K.
  CHECK(DispatchEntropy({5, 0, 0, 0, 7, 0}, 2, 3) == 0.0);
  CHECK(DispatchEntropy({2, 3, 2, 3}, 2, 2) == Approx(std::log(2.0)).epsilon(1e-14));
}

TEST_CASE("The load-balancing term is coef M^2 mean_m(mean_i u_im frac_m)", "[chen][metrics]") {
  const Small p;
  SwitchShape shape;
  shape.M = 3;
  shape.J = 4;
  shape.P = p.P;
  shape.d = p.d;
  shape.load_balance = 0.01;
  SwitchMoe<double> model = LiveModel(shape, 2);
  const SwitchInput<double> in = MakeSwitchInput(p.x, p.P);
  const RowMat<double> noise = UniformNoise(p.N, shape.M, 9);
  const DoubleSoftmaxCrossEntropy<double> loss(2);
  SwitchPass<double> pass;
  model.Forward(in, p.labels.data(), &noise, loss, pass);
  double expected = 0;
  for (int m = 0; m < shape.M; ++m) {
    double mean_u = 0;
    int sent = 0;
    for (int i = 0; i < p.N; ++i) {
      mean_u += pass.u(i, m) / p.N;
      sent += pass.expert[i] == m;
    }
    expected += mean_u * sent / p.N / shape.M;
  }
  expected *= 0.01 * shape.M * shape.M;
  REQUIRE(expected != 0);
  CHECK(pass.load_balance == Approx(expected).epsilon(1e-12));
  shape.load_balance = 0;
  SwitchMoe<double> off(shape, 1.0, *std::make_unique<Rng>(1));
  off.params() = model.params();
  SwitchPass<double> plain;
  off.Forward(in, p.labels.data(), &noise, loss, plain);
  CHECK(pass.loss == Approx(plain.loss + expected).epsilon(1e-12));
}

TEST_CASE("The published stopping rule on a scripted loss sequence", "[chen][train]") {
  SECTION("a rise of more than 0.02 above the minimum stops, a smaller one does not") {
    LossRiseRule rule(0.02, 0, 0.314);
    const double losses[] = {0.69, 0.60, 0.55, 0.56, 0.569, 0.54, 0.561};
    const RuleStop expect[] = {RuleStop::kNone, RuleStop::kNone, RuleStop::kNone, RuleStop::kNone,
                               RuleStop::kNone, RuleStop::kNone, RuleStop::kRise};
    for (int t = 0; t < 7; ++t) {
      INFO("step " << t << " loss " << losses[t]);
      CHECK(rule.Check(losses[t], t) == expect[t]);
    }
  }
  SECTION("the floor stops only a loss that is not a new minimum") {
    LossRiseRule rule(0.02, 0, 0.314);
    CHECK(rule.Check(0.40, 0) == RuleStop::kNone);
    CHECK(rule.Check(0.3135, 1) == RuleStop::kNone);  // a new minimum below the floor: go on
    CHECK(rule.Check(0.3138, 2) == RuleStop::kFloor);
  }
  SECTION("the single model's rule checks the rise only after step 500") {
    LossRiseRule rule(0.02, 500, -INFINITY);
    CHECK(rule.Check(0.5, 0) == RuleStop::kNone);
    CHECK(rule.Check(0.9, 1) == RuleStop::kNone);
    CHECK(rule.Check(0.9, 500) == RuleStop::kNone);
    CHECK(rule.Check(0.9, 501) == RuleStop::kRise);
  }
}

namespace {

TrialSpec SmallSwitchCell(const std::string& variant) {
  TrialSpec spec;
  spec.data.model = "cluster";
  spec.model.kind = "switch";
  SetParamValue(spec, "data.n", 4);
  SetParamValue(spec, "data.d", 20);
  spec.N = 400;
  spec.N_test = 400;
  SetParam(spec, "model.variant", variant, "test");
  SetParam(spec, "model.max_steps", "40", "test");
  SetParam(spec, "model.curve_every", "10", "test");
  return spec;
}

}  // namespace

TEST_CASE("Router noise is drawn at test time in the published variant only", "[chen][train]") {
  // With the router held at zero (router step 0), routing by argmax h sends every sample to
  // expert 0; only router noise can spread them.
  for (const std::string variant : {"paper", "published"}) {
    TrialSpec spec = SmallSwitchCell(variant);
    SetParam(spec, "model.lr_router", "0", "test");
    const TrialResult r = RunTrial(spec, 0, 3);
    REQUIRE(r.status == TrialStatus::kOk);
    INFO(variant);
    // Training always draws noise: the training dispatch is spread in both variants.
    CHECK(r.metrics.Get("experts_used") == 8);
    if (variant == "paper") {
      CHECK(r.metrics.Get("test_experts_used") == 1);
      CHECK(r.test_acc == r.metrics.Get("test_acc_no_noise"));
    } else {
      CHECK(r.metrics.Get("test_experts_used") == 8);
    }
    const auto& counts = r.metrics.GetList("test_dispatch_counts");
    REQUIRE(counts.size() == 4 * 8);
    double total = 0;
    for (double c : counts) total += c;
    CHECK(total == 400);
  }
}

TEST_CASE("A switch trial records dispatch, curves and stops by the rule", "[chen][train]") {
  const TrialResult r = RunTrial(SmallSwitchCell("published"), 0, 3);
  REQUIRE(r.status == TrialStatus::kOk);
  const auto& counts = r.metrics.GetList("dispatch_counts");
  REQUIRE(counts.size() == 32);
  CHECK(r.metrics.Get("dispatch_entropy") == Approx(DispatchEntropy(counts, 4, 8)).epsilon(1e-15));
  const auto& steps = r.metrics.GetList("curve_step");
  REQUIRE(!steps.empty());
  CHECK(steps.front() == 0);
  // The last forward pass: the one the rule stopped at (no step after it), or the cap's last.
  CHECK(steps.back() == r.steps - (r.stop == StopReason::kEpochCap ? 1 : 0));
  CHECK(r.metrics.GetList("curve_entropy").size() == steps.size());
  CHECK(r.metrics.GetList("curve_loss").size() == steps.size());
  CHECK(r.metrics.GetList("curve_entropy").back() == r.metrics.Get("dispatch_entropy"));
  // The same trial again: the same bits.
  const TrialResult again = RunTrial(SmallSwitchCell("published"), 0, 3);
  CHECK(again.test_acc == r.test_acc);
  CHECK(again.metrics.GetList("curve_loss") == r.metrics.GetList("curve_loss"));
}

}  // namespace pmoe

namespace pmoe {

TEST_CASE("The fused training pass equals Forward then Backward", "[chen][gradient]") {
  ClusterSpec c;
  c.d = 20;
  c.P = 5;  // one group of four patches and one alone
  const Dataset data = ClusterModel(c, 4).Draw(Split::kTrain, 300);
  for (Gate gate : {Gate::kNoisyValue, Gate::kSoftmax})
    for (int J : {16, 6, 34}) {  // one block, single filters only, blocks and a remainder
      SwitchShape shape;
      shape.M = 4;
      shape.J = J;
      shape.P = c.P;
      shape.d = c.d;
      shape.gate = gate;
      shape.load_balance = 1e-3;
      Rng rng(3);
      SwitchMoe<float> model(shape, 0.05, rng);
      for (size_t i = 0; i < model.RouterGroup().size; ++i)
        model.params()[static_cast<Eigen::Index>(model.RouterGroup().begin + i)] =
            static_cast<float>(0.01 * rng.Normal());
      const SwitchInput<float> in = MakeSwitchInput(data.x, c.P);
      RowMat<float> noise(300, 4);
      for (Eigen::Index i = 0; i < noise.size(); ++i)
        noise.data()[i] = static_cast<float>(rng.Uniform());
      const DoubleSoftmaxCrossEntropy<float> loss(2);
      SwitchPass<float> a, b;
      Vec<float> ga, gb;
      model.Forward(in, data.label.data(), &noise, loss, a);
      model.Backward(in, data.label.data(), loss, a, ga);
      model.ForwardBackward(in, data.label.data(), &noise, loss, b, gb);
      INFO("gate " << static_cast<int>(gate) << ", J = " << J);
      // Equal up to float rounding (the compiler may contract a product and a sum into one FMA
      // differently in the two code paths).
      CHECK(a.loss == Approx(b.loss).epsilon(1e-6));
      CHECK(a.errors == b.errors);
      CHECK(a.expert == b.expert);
      CHECK((a.z - b.z).cwiseAbs().maxCoeff() <= 1e-5 * a.z.cwiseAbs().maxCoeff());
      REQUIRE(ga.size() == gb.size());
      CHECK((ga - gb).cwiseAbs().maxCoeff() <= 1e-5 * ga.cwiseAbs().maxCoeff());
      const Eigen::Index router = static_cast<Eigen::Index>(model.RouterBegin());
      CHECK((ga - gb).tail(ga.size() - router).cwiseAbs().maxCoeff() <=
            1e-5 * ga.tail(ga.size() - router).cwiseAbs().maxCoeff());
      CHECK(ga.norm() > 0);
    }
}

}  // namespace pmoe

namespace pmoe {

TEST_CASE("The double softmax's two-class closed form agrees with the general one",
          "[chen][loss]") {
  // Three classes take the general path; two classes, one very unlikely, approach it.
  const DoubleSoftmaxCrossEntropy<double> two(2), three(3);
  for (double a : {-8.0, -1.0, 0.3, 4.0})
    for (int label : {0, 1}) {
      const double f2[2] = {a, 0.5};
      const double f3[3] = {a, 0.5, -1e4};  // softmax gives the third output p = 0
      // With p_3 = 0 the third term adds exp(0) = 1 to the sum: L3 = log(e^p1 + e^p2 + 1) - p_y.
      const double p0 = 1 / (1 + std::exp(0.5 - a));
      const double py = label == 0 ? p0 : 1 - p0;
      CHECK(two.Value(f2, label) ==
            Approx(std::log(std::exp(p0) + std::exp(1 - p0)) - py).epsilon(1e-13));
      CHECK(three.Value(f3, label) ==
            Approx(std::log(std::exp(p0) + std::exp(1 - p0) + 1) - py).epsilon(1e-13));
      double s2[2], s3[3];
      CHECK(two.ValueAndSlope(f2, label, s2) == Approx(two.Value(f2, label)).epsilon(1e-14));
      three.ValueAndSlope(f3, label, s3);
      const double h = 1e-6;
      double up[2] = {f2[0] + h, f2[1]}, down[2] = {f2[0] - h, f2[1]};
      CHECK(s2[0] ==
            Approx((two.Value(up, label) - two.Value(down, label)) / (2 * h)).margin(1e-9));
      double up3[3] = {f3[0] + h, f3[1], f3[2]}, down3[3] = {f3[0] - h, f3[1], f3[2]};
      CHECK(s3[0] ==
            Approx((three.Value(up3, label) - three.Value(down3, label)) / (2 * h)).margin(1e-9));
    }
}

}  // namespace pmoe

namespace pmoe {

TEST_CASE("The switch MoE's forward pass is the spec's formula, written out", "[chen][model]") {
  const Small p;
  for (Gate gate : {Gate::kNoisyValue, Gate::kSoftmax})
    for (Activation act : {Activation::kCubic, Activation::kLinear}) {
      SwitchShape shape;
      shape.M = 3;
      shape.J = 4;
      shape.P = p.P;
      shape.d = p.d;
      shape.act = act;
      shape.gate = gate;
      SwitchMoe<double> model = LiveModel(shape, 12);
      const SwitchInput<double> in = MakeSwitchInput(p.x, p.P);
      const RowMat<double> noise = UniformNoise(p.N, shape.M, 13);
      const DoubleSoftmaxCrossEntropy<double> published(2);
      SwitchPass<double> pass;
      model.Forward(in, p.labels.data(), &noise, published, pass);
      const double* w = model.params().data();
      auto W = [&](int m, int c, int j) { return w[model.ExpertBegin(m) + c * shape.J + j]; };
      auto B = [&](int m, int j) { return w[model.ExpertBegin(m) + shape.d * shape.J + j]; };
      auto Theta = [&](int c, int m) { return w[model.RouterBegin() + c * shape.M + m]; };
      double total = 0;
      for (int i = 0; i < p.N; ++i) {
        double h[3] = {0, 0, 0}, u[3];
        for (int m = 0; m < 3; ++m) {
          for (int q = 0; q < p.P; ++q)
            for (int c = 0; c < p.d; ++c) h[m] += Theta(c, m) * p.x(i * p.P + q, c);
          u[m] = h[m] + noise(i, m);
        }
        const int best = static_cast<int>(std::max_element(u, u + 3) - u);
        REQUIRE(pass.expert[i] == best);
        double g = u[best];
        if (gate == Gate::kSoftmax) {
          const double top = *std::max_element(h, h + 3);
          g = std::exp(h[best] - top) /
              (std::exp(h[0] - top) + std::exp(h[1] - top) + std::exp(h[2] - top));
        }
        double f[2] = {0, 0};
        for (int j = 0; j < shape.J; ++j)
          for (int q = 0; q < p.P; ++q) {
            double a = B(best, j);
            for (int c = 0; c < p.d; ++c) a += W(best, c, j) * p.x(i * p.P + q, c);
            f[j < shape.J / 2 ? 0 : 1] += act == Activation::kCubic ? a * a * a : a;
          }
        CHECK(pass.z(i, 0) == Approx(g * f[0]).epsilon(1e-12));
        CHECK(pass.z(i, 1) == Approx(g * f[1]).epsilon(1e-12));
        const int y = p.labels[i];
        const double p_y = 1 / (1 + std::exp(g * (f[1 - y] - f[y])));
        total += std::log(1 + std::exp(1 - 2 * p_y));
      }
      CHECK(pass.loss == Approx(total / p.N).epsilon(1e-12));
    }
}

}  // namespace pmoe

namespace pmoe {

namespace {

// Data C as the four-sample kernel takes it (P = 4 patches of d = 50), N = 203: fifty batches of
// four and three samples alone.
struct BatchableData {
  ClusterSpec c;
  int N = 203;
  Dataset data;
  BatchableData() {
    c.d = 50;
    c.P = 4;
    data = ClusterModel(c, 4).Draw(Split::kTrain, N);
  }
};

}  // namespace

TEST_CASE("Four samples at a time through the experts change no bit of the training pass",
          "[chen][gradient]") {
  const BatchableData batchable;
  const ClusterSpec& c = batchable.c;
  const int N = batchable.N;
  const Dataset& data = batchable.data;
  const SwitchInput<float> plain = MakeSwitchInput(data.x, c.P);
  const SwitchInput<float> interleaved = MakeSwitchInput(data.x, c.P, /*interleave=*/true);
  REQUIRE(interleaved.interleaved(7, 3 * c.P + 2) == data.x(7 * c.P + 2, 3));
  for (Gate gate : {Gate::kNoisyValue, Gate::kSoftmax})
    for (Activation act : {Activation::kCubic, Activation::kLinear})
      for (int J : {16, 32}) {
        SwitchShape shape;
        shape.M = 8;
        shape.J = J;
        shape.P = c.P;
        shape.d = c.d;
        shape.act = act;
        shape.gate = gate;
        shape.load_balance = 1e-3;
        REQUIRE(ConvBatchable(shape.P, shape.J));
        Rng rng(5);
        SwitchMoe<float> model(shape, 0.05, rng);
        for (size_t i = 0; i < model.RouterGroup().size; ++i)
          model.params()[static_cast<Eigen::Index>(model.RouterGroup().begin + i)] =
              static_cast<float>(0.01 * rng.Normal());
        RowMat<float> noise(N, shape.M);
        for (Eigen::Index i = 0; i < noise.size(); ++i)
          noise.data()[i] = static_cast<float>(rng.Uniform());
        const DoubleSoftmaxCrossEntropy<float> loss(2);
        SwitchPass<float> one, four;
        Vec<float> g_one, g_four;
        model.ForwardBackward(plain, data.label.data(), &noise, loss, one, g_one);
        model.ForwardBackward(interleaved, data.label.data(), &noise, loss, four, g_four);
        INFO("gate " << static_cast<int>(gate) << ", cubic " << (act == Activation::kCubic)
                     << ", J = " << J);
        CHECK(four.loss == one.loss);  // exactly: the same sums in the same order
        CHECK(four.errors == one.errors);
        CHECK(four.expert == one.expert);
        CHECK(four.gate == one.gate);
        CHECK(four.z == one.z);
        CHECK(g_four == g_one);
        CHECK(g_one.norm() > 0);
      }
}

TEST_CASE("The single model's four-at-a-time pass changes no bit of training", "[chen][gradient]") {
  const BatchableData batchable;
  const ClusterSpec& c = batchable.c;
  const Dataset& data = batchable.data;
  const RowMat<float> interleaved = InterleavePatches(data.x, c.P);
  REQUIRE(interleaved(7, 3 * c.P + 2) == data.x(7 * c.P + 2, 3));
  for (Activation act : {Activation::kCubic, Activation::kLinear})
    for (int J : {16, 128}) {
      REQUIRE(ConvBatchable(c.P, J));
      Rng rng(6);
      SingleConv<float> model(J, c.P, c.d, act, 1.0, rng);
      const SoftmaxCrossEntropy<float> loss(2);
      SinglePass<float> one, four, plain;
      Vec<float> g_one, g_four(3);  // a stale size and stale values are overwritten
      g_four.setConstant(7);
      model.ForwardBackward(data.x, data.label.data(), loss, one, g_one);
      model.ForwardBackward(data.x, data.label.data(), loss, four, g_four, &interleaved);
      INFO("cubic " << (act == Activation::kCubic) << ", J = " << J);
      CHECK(four.loss == one.loss);  // exactly: the same sums in the same order
      CHECK(four.errors == one.errors);
      CHECK(four.finite == one.finite);
      CHECK(four.f == one.f);
      CHECK(g_four == g_one);
      CHECK(g_one.norm() > 0);
      // And both are the forward pass's outputs and loss.
      model.Forward(data.x, data.label.data(), loss, plain);
      CHECK(four.loss == Approx(plain.loss).epsilon(1e-6));
      CHECK((four.f - plain.f).cwiseAbs().maxCoeff() <= 1e-5 * plain.f.cwiseAbs().maxCoeff());
      CHECK(four.errors == plain.errors);
    }
}

}  // namespace pmoe
