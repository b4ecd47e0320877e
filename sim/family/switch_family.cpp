// Chen et al.'s top-1 switch MoE as a family (MODEL.md §8): full-batch training with the
// normalized expert step and the plain router step from one forward and backward pass, the
// published stopping rule, and the dispatch metrics by true cluster.
#include <cmath>
#include <limits>

#include "full_batch_family.hpp"
#include "pmoe/core/param_table.hpp"
#include "pmoe/core/validate.hpp"
#include "pmoe/family/builtin.hpp"
#include "pmoe/models/optimizer.hpp"
#include "pmoe/models/switch_moe.hpp"
#include "pmoe/train/sgd_trainer.hpp"
#include "shared_params.hpp"

namespace pmoe {
namespace {

constexpr FullBatchDefaults kSwitchDefaults{16, 0.001, 501, 0};
// The published loss's stop-at-floor value: just above log(1 + 1/e) = 0.3133.
constexpr double kPublishedLossFloor = 0.314;
// Random streams of a switch trial, from its init seed.
constexpr uint64_t kSwitchInitStream = 0x737769746368ULL, kTrainNoise = 1, kTrainEvalNoise = 2,
                   kTestNoise = 3;

struct SwitchSettings {
  FullBatchSettings common;
  SwitchShape shape;
  bool published = true;
  double lr_expert = 0.001, lr_router = 0.1;
};

SwitchSettings ReadSwitch(const TrialSpec& spec, const DataShape& data) {
  SwitchSettings s;
  s.common = ReadFullBatch(spec, kSwitchDefaults);
  s.published = TextParam(spec, "model.variant") == "published";
  s.shape.M = static_cast<int>(IntParam(spec, "model.experts"));
  s.shape.J = s.common.filters;
  s.shape.P = data.n;
  s.shape.d = data.d;
  s.shape.act = s.common.act;
  s.shape.gate = s.published ? Gate::kNoisyValue : Gate::kSoftmax;
  s.shape.load_balance = DoubleParam(spec, "model.load_balance");
  s.lr_expert = DoubleParam(spec, "model.lr_expert");
  s.lr_router = DoubleParam(spec, "model.lr_router");
  return s;
}

class SwitchLearner final : public Learner {
 public:
  SwitchLearner(const SwitchSettings& s, uint64_t init_seed)
      : s_(s), init_seed_(init_seed), model_(MakeModel(s, init_seed)) {
    if (s.published)
      loss_ = std::make_unique<DoubleSoftmaxCrossEntropy<float>>(2);
    else
      loss_ = std::make_unique<SoftmaxCrossEntropy<float>>(2);
  }

  TrainOutcome Train(const Dataset& train, Metrics& metrics) override {
    train_ = &train;
    in_ = MakeSwitchInput(train.x, s_.shape.P, /*interleave=*/true);
    CombinedStep<float> step;
    step.Add(std::make_unique<NormalizedStep<float>>(s_.lr_expert, model_.ExpertGroups()));
    step.Add(
        std::make_unique<GroupSgdStep<float>>(s_.lr_router, std::vector{model_.RouterGroup()}));
    LossRiseRule rule(
        s_.common.loss_rise, s_.common.rise_after,
        s_.published ? kPublishedLossFloor : -std::numeric_limits<double>::infinity());
    CurveRecorder curve(s_.common.curve_every);
    Rng noise_rng(CombineSeed(init_seed_, kTrainNoise));
    Vec<float> grad;
    TrainOutcome out;
    out.stop = StopReason::kEpochCap;
    const int N = train.size();
    for (int t = 0; t < s_.common.steps; ++t) {
      const RowMat<float> noise = RouterNoise(N, s_.shape.M, noise_rng);
      // One pass computes the loss and its gradient; the step is taken only if the rule allows.
      model_.ForwardBackward(in_, train.label.data(), &noise, *loss_, pass_, grad);
      curve.Offer(t, pass_.loss, 1.0 - static_cast<double>(pass_.errors) / N, Entropy(train));
      if (!pass_.finite) {
        out.diverged = true;
        out.stop = StopReason::kDiverged;
        out.message = "switch MoE: loss or output not finite at step " + std::to_string(t);
        break;
      }
      if (s_.common.stop_rule) {
        const RuleStop stop = rule.Check(pass_.loss, t);
        if (stop != RuleStop::kNone) {
          out.stop = StopOf(stop);
          metrics.Set("stop_at_floor", stop == RuleStop::kFloor);
          break;
        }
      }
      step.Step(model_.params(), grad);
      ++out.steps;
    }
    out.epochs = static_cast<int>(out.steps);
    if (out.stop == StopReason::kEpochCap) metrics.Set("stop_at_floor", 0);
    metrics.Set("final_step_loss", pass_.loss);
    RecordDispatch(train, pass_.expert, "", metrics);
    curve.Write(metrics, true);
    return out;
  }

  Evaluation EvaluateTrain() override {
    Rng rng(CombineSeed(init_seed_, kTrainEvalNoise));
    return Score(in_, *train_, rng, s_.published);
  }

  Evaluation EvaluateTest(const Dataset& test, Metrics& metrics) override {
    const SwitchInput<float> in = MakeSwitchInput(test.x, s_.shape.P);
    Rng rng(CombineSeed(init_seed_, kTestNoise));
    // The published model is evaluated as trained: fresh router noise (never in eval mode).
    const Evaluation result = Score(in, test, rng, s_.published);
    RecordDispatch(test, pass_.expert, "test_", metrics);
    const Evaluation no_noise = Score(in, test, rng, false);
    metrics.Set("test_acc_no_noise", no_noise.accuracy);
    return result;
  }

 private:
  static SwitchMoe<float> MakeModel(const SwitchSettings& s, uint64_t init_seed) {
    Rng rng(CombineSeed(init_seed, kSwitchInitStream));
    return SwitchMoe<float>(s.shape, s.common.init_scale, rng);
  }

  Evaluation Score(const SwitchInput<float>& in, const Dataset& data, Rng& rng, bool noisy) {
    const RowMat<float> noise = noisy ? RouterNoise(data.size(), s_.shape.M, rng) : RowMat<float>();
    model_.Forward(in, data.label.data(), noisy ? &noise : nullptr, *loss_, pass_);
    Evaluation ev;
    ev.errors = pass_.errors;
    ev.accuracy = 1.0 - static_cast<double>(pass_.errors) / data.size();
    ev.loss = pass_.loss - pass_.load_balance;
    ev.finite = pass_.finite;
    return ev;
  }

  double Entropy(const Dataset& data) const {
    if (data.cluster.empty()) return NAN;
    const auto counts = DispatchCounts(data.cluster, data.clusters, pass_.expert, s_.shape.M);
    return DispatchEntropy(counts, data.clusters, s_.shape.M);
  }

  // Dispatch counts by true cluster (data model C only), their entropy and the experts in use.
  void RecordDispatch(const Dataset& data, const std::vector<int>& expert,
                      const std::string& prefix, Metrics& metrics) const {
    if (data.cluster.empty() || expert.size() != data.cluster.size()) return;
    const int K = data.clusters, M = s_.shape.M;
    auto counts = DispatchCounts(data.cluster, K, expert, M);
    metrics.Set(prefix + "dispatch_entropy", DispatchEntropy(counts, K, M));
    metrics.Set(prefix + "experts_used", ExpertsInUse(counts, K, M));
    metrics.SetList(prefix + "dispatch_counts", std::move(counts));
  }

  SwitchSettings s_;
  uint64_t init_seed_;
  SwitchMoe<float> model_;
  std::unique_ptr<Loss<float>> loss_;
  const Dataset* train_ = nullptr;
  SwitchInput<float> in_;
  SwitchPass<float> pass_;
};

class Switch final : public ModelFamily {
 public:
  std::string name() const override { return "switch"; }
  std::string label() const override { return "switch MoE"; }
  std::string help() const override {
    return "Chen et al.'s top-1 switch MoE of M convolution experts, full batch (MODEL.md §8)";
  }
  std::vector<std::string> reads() const override { return FullBatchParamNames(); }
  std::vector<ParamInfo> shared_params() const override {
    std::vector<ParamInfo> rows = FullBatchParams();
    for (ParamInfo& row : SharedParams(reads())) rows.push_back(std::move(row));
    return rows;
  }
  std::vector<ParamInfo> params() const override {
    std::vector<ParamInfo> rows;
    rows.push_back(IntRow("model.experts", 8, 1, 4096, "switch: experts M"));
    rows.push_back(ChoiceRow("model.variant", {"published", "paper"},
                             "switch: published (the authors' code: noisy-value gate, double "
                             "softmax loss, noise at test) or paper (softmax gate, logistic "
                             "loss, no noise at test)"));
    rows.push_back(DoubleRow("model.lr_expert", 0.001, "switch: normalized expert step size"));
    rows.push_back(DoubleRow("model.lr_router", 0.1, "switch: router step size"));
    rows.push_back(DoubleRow("model.load_balance", 0.0,
                             "switch: load-balancing coefficient (0: off; published 1e-4)"));
    return rows;
  }
  std::vector<MetricInfo> metrics() const override {
    using T = ColumnType;
    std::vector<MetricInfo> m = {
        {"dispatch_entropy", T::kF64,
         "dispatch entropy by true cluster, training set, last training forward pass"},
        {"experts_used", T::kI32, "experts receiving a sample in the last training pass"},
        {"dispatch_counts", T::kF64List,
         "samples of cluster k sent to expert m in the last training pass, (K, M) row-major"},
        {"test_dispatch_entropy", T::kF64, "dispatch entropy on the test set's evaluation pass"},
        {"test_experts_used", T::kI32, "experts receiving a test sample"},
        {"test_dispatch_counts", T::kF64List, "test samples of cluster k sent to expert m"},
        {"test_acc_no_noise", T::kF64, "test accuracy routing by argmax h (r = 0)", true},
        {"final_step_loss", T::kF64,
         "loss of the last training forward pass (load balancing "
         "included)"},
        {"stop_at_floor", T::kI32, "1 when the loss floor (0.314) stopped training"},
    };
    for (MetricInfo& c : CurveMetrics(true)) m.push_back(c);
    return m;
  }

  void Validate(const TrialSpec& spec, const DataShape& shape,
                const std::string& where) const override {
    ValidateFullBatch(spec, shape, where);
    for (const char* lr : {"model.lr_expert", "model.lr_router"}) {
      const double v = DoubleParam(spec, lr);
      Require(std::isfinite(v) && v >= 0, spec, where, lr, "a finite number >= 0");
    }
    const double lb = DoubleParam(spec, "model.load_balance");
    Require(std::isfinite(lb) && lb >= 0, spec, where, "model.load_balance",
            "a finite number >= 0 (0: off)");
  }

  FlopCount NominalFlops(const TrialSpec& spec, const DataShape& shape,
                         double epochs) const override {
    const SwitchSettings s = ReadSwitch(spec, shape);
    // Per sample: its expert's P x d x J product and the router's d x M (forward), the same
    // again for the weight gradients (backward). Evaluation: train, test and test without noise.
    const double forward = static_cast<double>(shape.n) * shape.d * s.shape.J +
                           static_cast<double>(shape.d) * s.shape.M;
    FlopCount count;
    count.train = 2 * epochs * spec.N * 2 * forward;
    count.eval = 2 * (static_cast<double>(spec.N) + 2.0 * spec.N_test) * forward;
    return count;
  }

  double ExpectedEpochs(const TrialSpec& spec) const override {
    const FullBatchSettings s = ReadFullBatch(spec, kSwitchDefaults);
    return s.stop_rule ? std::max(1.0, s.steps / 2.0) : s.steps;
  }

  std::unique_ptr<Learner> Make(const TrialSpec& spec, const DataShape& shape,
                                uint64_t init_seed) const override {
    return std::make_unique<SwitchLearner>(ReadSwitch(spec, shape), init_seed);
  }
};

}  // namespace

const ModelFamily& SwitchFamily() {
  static const Switch family;
  return family;
}

}  // namespace pmoe
