// The full-batch families' shared parameters, defaults, checks and training curve.
#include "full_batch_family.hpp"

#include <cmath>

#include "pmoe/core/param_table.hpp"
#include "pmoe/core/validate.hpp"

namespace pmoe {
namespace {

// The most full-batch steps a trial may ask for (each is a pass over all N samples).
constexpr long long kMaxFullSteps = 100000000;

}  // namespace

std::vector<ParamInfo> FullBatchParams() {
  return {
      ChoiceRow("model.activation", {"cubic", "linear"},
                "switch/single: filter activation z^3 (nonlinear) or z (linear)")
          .Labeled("filter activation"),
      IntRow("model.filters", 0, 0, 1000000,
             "switch/single: filters J (even, half per class); 0: 16 per expert, 128 single")
          .Labeled("filters", "J", "filters"),
      DoubleRow("model.init_scale", 0.0,
                "switch/single: filters and biases ~ s U(-1/sqrt(d), 1/sqrt(d)); 0: 0.001 "
                "switch, 1 single")
          .Labeled("init scale"),
      ChoiceRow("model.stop_rule", {"published", "none"},
                "switch/single: the published loss-rise rule, or always the full cap")
          .Labeled("stopping rule"),
      DoubleRow("model.loss_rise", 0.02,
                "switch/single: stop when the loss exceeds its minimum by more than this")
          .Labeled("loss rise"),
      IntRow("model.curve_every", 0, 0, 100000000,
             "switch/single: record loss, accuracy (and entropy) every this many steps "
             "(0: no curve)")
          .Labeled("curve interval", "", "steps"),
  };
}

std::vector<std::string> FullBatchParamNames() {
  std::vector<std::string> names;
  for (const ParamInfo& p : FullBatchParams()) names.push_back(p.name);
  names.push_back("model.max_steps");  // the one step cap (shared_params.cpp)
  return names;
}

FullBatchSettings ReadFullBatch(const TrialSpec& spec, const FullBatchDefaults& defaults) {
  FullBatchSettings s;
  s.act =
      TextParam(spec, "model.activation") == "linear" ? Activation::kLinear : Activation::kCubic;
  const long long filters = IntParam(spec, "model.filters");
  s.filters = filters == 0 ? defaults.filters : static_cast<int>(filters);
  const double init_scale = DoubleParam(spec, "model.init_scale");
  s.init_scale = init_scale == 0 ? defaults.init_scale : init_scale;
  const long long steps = IntParam(spec, "model.max_steps");
  s.steps = steps == 0 ? defaults.steps : static_cast<int>(steps);  // at most kMaxFullSteps
  s.stop_rule = TextParam(spec, "model.stop_rule") == "published";
  s.loss_rise = DoubleParam(spec, "model.loss_rise");
  s.rise_after = defaults.rise_after;
  s.curve_every = static_cast<int>(IntParam(spec, "model.curve_every"));
  return s;
}

void ValidateFullBatch(const TrialSpec& spec, const DataShape& shape, const std::string& where) {
  Require(IntParam(spec, "model.max_steps") <= kMaxFullSteps, spec, where, "model.max_steps",
          "at most " + std::to_string(kMaxFullSteps) +
              " full-batch steps (0: the family's "
              "default)");
  const long long filters = IntParam(spec, "model.filters");
  Require(filters == 0 || (filters >= 2 && filters % 2 == 0), spec, where, "model.filters",
          "0 (the family's default) or an even number >= 2 (half the filters per class)");
  const double init_scale = DoubleParam(spec, "model.init_scale");
  Require(std::isfinite(init_scale) && init_scale >= 0, spec, where, "model.init_scale",
          "a finite number >= 0 (0: the family's default)");
  const double rise = DoubleParam(spec, "model.loss_rise");
  Require(std::isfinite(rise) && rise >= 0, spec, where, "model.loss_rise", "a finite number >= 0");
  Require(shape.classes == 2, spec, where, "data.model",
          "data with two classes: the " + spec.model.kind +
              " model has two outputs (classes = " + std::to_string(shape.classes) + ")");
}

std::vector<MetricInfo> CurveMetrics(bool entropy) {
  using T = ColumnType;
  std::vector<MetricInfo> m = {
      {"curve_step", T::kF64List, "training curve: the steps recorded (model.curve_every)"},
      {"curve_loss", T::kF64List, "training curve: the loss of that step's forward pass"},
      {"curve_train_acc", T::kF64List, "training curve: accuracy of that step's forward pass"},
  };
  if (entropy)
    m.push_back({"curve_entropy", T::kF64List,
                 "training curve: dispatch entropy of that step's forward pass"});
  return m;
}

void CurveRecorder::Offer(int step, double loss, double train_acc, double entropy) {
  if (!on()) return;
  if (step % every_ == 0) {
    step_.push_back(step);
    loss_.push_back(loss);
    acc_.push_back(train_acc);
    entropy_.push_back(entropy);
  }
  last_step_ = step;
  last_loss_ = loss;
  last_acc_ = train_acc;
  last_entropy_ = entropy;
}

void CurveRecorder::Write(Metrics& metrics, bool entropy) const {
  if (!on()) return;
  std::vector<double> step = step_, loss = loss_, acc = acc_, ent = entropy_;
  if (last_step_ >= 0 && (step.empty() || step.back() != last_step_)) {
    step.push_back(last_step_);
    loss.push_back(last_loss_);
    acc.push_back(last_acc_);
    ent.push_back(last_entropy_);
  }
  metrics.SetList("curve_step", std::move(step));
  metrics.SetList("curve_loss", std::move(loss));
  metrics.SetList("curve_train_acc", std::move(acc));
  if (entropy) metrics.SetList("curve_entropy", std::move(ent));
}

StopReason StopOf(RuleStop stop) {
  return stop == RuleStop::kNone ? StopReason::kNone : StopReason::kRule;
}

}  // namespace pmoe
