// The SGD families' shared parameters, checks, cost and learner.
#include "sgd_family.hpp"

#include <algorithm>
#include <cmath>

#include "pmoe/core/errors.hpp"
#include "pmoe/core/rng.hpp"
#include "pmoe/core/validate.hpp"
#include "pmoe/family/model_factory.hpp"
#include "shared_params.hpp"

namespace pmoe {

const FieldParams<ModelSpec>& SgdFields() {
  static const FieldParams<ModelSpec> params = {
      ParamOnField("model.l", "patches routed to each expert (pMoE)", &ModelSpec::l, {}, 1, 1024)
          .Labeled("patches per expert", "l", "patches"),
      ParamOnField("model.k", "experts (separate training: c, or 0 for one per class)",
                   &ModelSpec::k, {}, 0, 4096)
          .Labeled("experts", "k", "experts"),
      ParamOnField("model.m", "hidden neurons in total, m/k per expert", &ModelSpec::m, {}, 1,
                   kMaxCount)
          .Labeled("hidden neurons", "m", "neurons"),
      ParamOnField("model.lr", "SGD step size", &ModelSpec::lr).Labeled("step size", "\\eta"),
      ParamOnField("model.batch", "SGD mini-batch size", &ModelSpec::batch, {}, 1, kMaxSamples)
          .Labeled("batch size", "B", "samples"),
      ParamOnField("model.epochs", "epoch cap (0: none)", &ModelSpec::epochs, {}, 0, kMaxCount)
          .Labeled("epoch cap", "", "epochs"),
      ParamOnField("model.early_stop", "stop at zero training error at the end of an epoch",
                   &ModelSpec::early_stop)
          .Labeled("early stop"),
      ParamOnField("model.sigma_w", "hidden weight init std", &ModelSpec::sigma_w)
          .Labeled("hidden weight init std"),
      ParamOnField("model.output_init",
                   "fixed output weights: gaussian N(0,1), or sign (+1/-1 by expert)",
                   &ModelSpec::output_init, {"gaussian", "sign"})
          .Labeled("output weights"),
      Unkeyed(ParamOnField("model.loss",
                           "auto (logistic for 2 classes, softmax for more), logistic, or "
                           "softmax (c outputs, also for 2 classes)",
                           &ModelSpec::loss, {"auto", "logistic", "softmax"})
                  .Labeled("loss")),
  };
  return params;
}

std::vector<ParamInfo> SgdParams(const std::vector<std::string>& reads) {
  std::vector<ParamInfo> rows = Rows(SgdFields(), &reads);
  for (ParamInfo& row : SharedParams(reads)) rows.push_back(std::move(row));
  return rows;
}

ModelSpec ModelSpecOf(const TrialSpec& spec) {
  ModelSpec model;
  model.kind = spec.model.kind;
  Read(spec, SgdFields(), model);
  Read(spec, SharedModelParams(), model);
  SgdModelFamilyOf(model).ReadOwn(spec, model);
  return model;
}

std::vector<std::string> SgdReads() {
  return {"model.m",       "model.lr",          "model.batch",
          "model.epochs",  "model.max_steps",   "model.early_stop",
          "model.sigma_w", "model.output_init", "model.loss"};
}

std::vector<MetricInfo> SgdMetrics() {
  return {{"accuracy_class", ColumnType::kF64, "test accuracy over the test samples of one class",
           true, PerClass::kClass}};
}

double SgdExpectedEpochs(const TrialSpec& spec) {
  const ModelSpec model = ModelSpecOf(spec);
  double cap = model.epochs > 0 ? model.epochs : 1e300;
  if (model.max_steps > 0) {
    const double steps_per_epoch = std::ceil(static_cast<double>(spec.N) / model.batch);
    cap = std::min(cap, static_cast<double>(model.max_steps) / steps_per_epoch);
  }
  // Early stopping typically ends well before the cap; a third of it is a fair middle.
  return model.early_stop ? std::max(1.0, cap / 3.0) : cap;
}

// The flops-equivalent of one (expert, further output) reduction per sample and pass. Fitted to
// CPU time of fixed-epoch cells on the development machine (pattern data n = 16, d = 64, m = 48,
// c = 2..8 softmax, N = 200 and 800, CNN, separate (k = c) and joint (k = 8) pMoE): without it
// the model said a c = 8 cell costs what a c = 2 cell costs, while separate pMoE's took 2.3x and
// joint's 1.5x the CPU time; with it measured / modeled varies by +-10 % across c
// (docs/ARCHITECTURE.md, "Cost model").
constexpr double kOutputReductionFlops = 600;

OutputWork ExtraOutputWork(const TrialSpec& spec, const DataShape& shape, double experts,
                           double rows) {
  const ModelSpec model = ModelSpecOf(spec);
  const double further = ModelOutputs(model, shape.classes) - 1;
  return {rows * model.m * further, kOutputReductionFlops * experts * further};
}

FlopCount SgdFlops(const TrialSpec& spec, double epochs, double forward, double backward,
                   double eval_forward, double once, double overhead) {
  FlopCount count;
  count.train = 2 * (epochs * spec.N * (forward + backward) + once);
  count.eval = 2 * (static_cast<double>(spec.N) + spec.N_test) * eval_forward;
  count.overhead = 2 * (epochs * spec.N * 2 + static_cast<double>(spec.N) + spec.N_test) * overhead;
  return count;
}

SgdLearner::SgdLearner(std::unique_ptr<Model<float>> model, const TrialSpec& spec,
                       uint64_t init_seed)
    : model_(std::move(model)), spec_(spec), settings_(ModelSpecOf(spec)), init_seed_(init_seed) {}

TrainOutcome SgdLearner::Train(const Dataset& train, Metrics& metrics) {
  BeforeSgd(train, metrics);
  train_ = &train;
  train_in_ = model_->Prepare(train.x, train.size());
  SgdOptions options;
  options.batch = settings_.batch;
  options.budget.epochs = settings_.epochs;
  options.budget.max_steps = settings_.max_steps;
  options.budget.early_stop = settings_.early_stop;
  SgdStep<float> step(settings_.lr);
  Rng rng(StreamSeed(init_seed_, InitStream::kSgd));
  return TrainSgd(*model_, train_in_, train.label.data(), options, step, rng);
}

Evaluation SgdLearner::EvaluateTrain() {
  return Evaluate(*model_, train_in_, train_->label.data());
}

Evaluation SgdLearner::EvaluateTest(const Dataset& test, Metrics& metrics) {
  return EvaluateOn(model_->Prepare(test.x, test.size()), test, metrics);
}

Evaluation SgdLearner::EvaluateOn(const PatchBlocks<float>& in, const Dataset& test,
                                  Metrics& metrics) {
  // Binary cells count no classes: their files have no per-class columns (metrics.hpp).
  const int classes = test.classes > 2 ? test.classes : 0;
  const Evaluation ev = Evaluate(*model_, in, test.label.data(), classes);
  for (int c = 0; c < classes; ++c)
    metrics.Set(PerClassName("accuracy_class", c),
                ev.class_samples[c] > 0
                    ? 1.0 - static_cast<double>(ev.class_errors[c]) / ev.class_samples[c]
                    : NAN);
  return ev;
}

}  // namespace pmoe
