// Chen et al.'s single-model baseline as a family (MODEL.md §8): one convolution of J filters
// (128 by default) trained full batch by Adam with L2 weight decay, as published, under the
// published stopping rule (the loss-rise test from step 500 on).
#include <cmath>
#include <limits>

#include "full_batch_family.hpp"
#include "pmoe/core/param_table.hpp"
#include "pmoe/core/validate.hpp"
#include "pmoe/family/builtin.hpp"
#include "pmoe/models/optimizer.hpp"
#include "pmoe/models/single_conv.hpp"
#include "pmoe/train/sgd_trainer.hpp"
#include "shared_params.hpp"

namespace pmoe {
namespace {

constexpr FullBatchDefaults kSingleDefaults{128, 1.0, 801, 500};
constexpr uint64_t kSingleInitStream = 0x73696e676c65ULL;

struct SingleSettings {
  FullBatchSettings common;
  bool adam = true;
  double lr = 0.01;
  double weight_decay = 5e-4;
};

SingleSettings ReadSingle(const TrialSpec& spec) {
  SingleSettings s;
  s.common = ReadFullBatch(spec, kSingleDefaults);
  s.adam = TextParam(spec, "model.optimizer") == "adam";
  const double lr = DoubleParam(spec, "model.lr_single");
  s.lr = lr != 0 ? lr : (s.common.act == Activation::kLinear ? 0.003 : 0.01);
  s.weight_decay = DoubleParam(spec, "model.weight_decay");
  return s;
}

// Plain gradient descent with the same L2 term as Adam's (torch.optim.SGD with weight_decay).
class DecayedGdStep final : public Optimizer<float> {
 public:
  DecayedGdStep(double lr, double weight_decay)
      : lr_(static_cast<float>(lr)), wd_(static_cast<float>(weight_decay)) {}
  void Step(Vec<float>& params, const Vec<float>& grad) override {
    params -= lr_ * (grad + wd_ * params);
  }

 private:
  float lr_, wd_;
};

class SingleLearner final : public Learner {
 public:
  SingleLearner(const SingleSettings& s, const DataShape& shape, uint64_t init_seed)
      : s_(s), model_(MakeModel(s, shape, init_seed)) {}

  TrainOutcome Train(const Dataset& train, Metrics& metrics) override {
    train_ = &train;
    std::unique_ptr<Optimizer<float>> step;
    if (s_.adam) {
      AdamOptions o;
      o.lr = s_.lr;
      o.weight_decay = s_.weight_decay;
      step = std::make_unique<AdamStep<float>>(o);
    } else {
      step = std::make_unique<DecayedGdStep>(s_.lr, s_.weight_decay);
    }
    LossRiseRule rule(s_.common.loss_rise, s_.common.rise_after,
                      -std::numeric_limits<double>::infinity());
    CurveRecorder curve(s_.common.curve_every);
    Vec<float> grad;
    TrainOutcome out;
    out.stop = StopReason::kEpochCap;
    const int N = train.size();
    // Four samples at a time through the kernel, the same bits as one by one.
    const RowMat<float> interleaved = InterleavePatches(train.x, model_.P());
    for (int t = 0; t < s_.common.steps; ++t) {
      model_.ForwardBackward(train.x, train.label.data(), loss_, pass_, grad, &interleaved);
      curve.Offer(t, pass_.loss, 1.0 - static_cast<double>(pass_.errors) / N, NAN);
      if (!pass_.finite) {
        out.diverged = true;
        out.stop = StopReason::kDiverged;
        out.message = "single model: loss or output not finite at step " + std::to_string(t);
        break;
      }
      if (s_.common.stop_rule && rule.Check(pass_.loss, t) != RuleStop::kNone) {
        out.stop = StopReason::kRule;
        break;
      }
      step->Step(model_.params(), grad);
      ++out.steps;
    }
    out.epochs = static_cast<int>(out.steps);
    metrics.Set("final_step_loss", pass_.loss);
    curve.Write(metrics, false);
    return out;
  }

  Evaluation EvaluateTrain() override { return Score(*train_); }
  Evaluation EvaluateTest(const Dataset& test, Metrics&) override { return Score(test); }

 private:
  static SingleConv<float> MakeModel(const SingleSettings& s, const DataShape& shape,
                                     uint64_t init_seed) {
    Rng rng(CombineSeed(init_seed, kSingleInitStream));
    return SingleConv<float>(s.common.filters, shape.n, shape.d, s.common.act, s.common.init_scale,
                             rng);
  }

  Evaluation Score(const Dataset& data) {
    model_.Forward(data.x, data.label.data(), loss_, pass_);
    Evaluation ev;
    ev.errors = pass_.errors;
    ev.accuracy = 1.0 - static_cast<double>(pass_.errors) / data.size();
    ev.loss = pass_.loss;
    ev.finite = pass_.finite;
    return ev;
  }

  SingleSettings s_;
  SingleConv<float> model_;
  SoftmaxCrossEntropy<float> loss_{2};  // the logistic loss on f_label - f_other
  const Dataset* train_ = nullptr;
  SinglePass<float> pass_;
};

class Single final : public ModelFamily {
 public:
  std::string name() const override { return "single"; }
  std::string label() const override { return "single model"; }
  std::string help() const override {
    return "Chen et al.'s single convolution baseline, Adam, full batch (MODEL.md §8)";
  }
  std::vector<std::string> reads() const override { return FullBatchParamNames(); }
  std::vector<ParamInfo> shared_params() const override { return SharedParams(reads()); }
  std::vector<ParamInfo> params() const override {
    return {
        ChoiceRow("model.optimizer", {"adam", "gd"},
                  "single: Adam (published) or plain gradient descent"),
        DoubleRow("model.lr_single", 0.0,
                  "single: step size; 0: 0.003 linear, 0.01 cubic (published)"),
        DoubleRow("model.weight_decay", 5e-4, "single: L2 weight decay added to the gradient"),
    };
  }
  std::vector<MetricInfo> metrics() const override {
    std::vector<MetricInfo> m = {
        {"final_step_loss", ColumnType::kF64,
         "loss of the last training forward pass (load balancing included)"}};
    for (MetricInfo& c : CurveMetrics(false)) m.push_back(c);
    return m;
  }

  void Validate(const TrialSpec& spec, const DataShape& shape,
                const std::string& where) const override {
    ValidateFullBatch(spec, shape, where);
    const double lr = DoubleParam(spec, "model.lr_single");
    Require(std::isfinite(lr) && lr >= 0, spec, where, "model.lr_single",
            "a finite number >= 0 (0: the published step size)");
    const double wd = DoubleParam(spec, "model.weight_decay");
    Require(std::isfinite(wd) && wd >= 0, spec, where, "model.weight_decay",
            "a finite number >= 0");
  }

  FlopCount NominalFlops(const TrialSpec& spec, const DataShape& shape,
                         double epochs) const override {
    const SingleSettings s = ReadSingle(spec);
    const double forward = static_cast<double>(shape.n) * shape.d * s.common.filters;
    FlopCount count;
    count.train = 2 * epochs * spec.N * 2 * forward;
    count.eval = 2 * (static_cast<double>(spec.N) + spec.N_test) * forward;
    return count;
  }

  double ExpectedEpochs(const TrialSpec& spec) const override {
    const FullBatchSettings s = ReadFullBatch(spec, kSingleDefaults);
    // The rise test starts at step 500: a run rarely stops much before.
    return s.stop_rule ? std::min<double>(s.steps, 650.0) : s.steps;
  }

  std::unique_ptr<Learner> Make(const TrialSpec& spec, const DataShape& shape,
                                uint64_t init_seed) const override {
    return std::make_unique<SingleLearner>(ReadSingle(spec), shape, init_seed);
  }
};

}  // namespace

const ModelFamily& SingleFamily() {
  static const Single family;
  return family;
}

}  // namespace pmoe
