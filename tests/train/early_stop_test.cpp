// The early stop (MODEL.md §5): training ends at the first epoch after which no training sample
// is misclassified, and the check that decides it finds an error wherever it is.
#include <catch2/catch.hpp>
#include <cmath>
#include <limits>

#include "pmoe/core/rng.hpp"
#include "pmoe/family/builtin.hpp"
#include "pmoe/family/model_factory.hpp"
#include "pmoe/train/sgd_trainer.hpp"
#include "pmoe/trial/trial.hpp"

namespace pmoe {
namespace {

// A model whose f is given, sample by sample; it counts the samples it was asked for.
class GivenOutputs : public Model<double> {
 public:
  explicit GivenOutputs(std::vector<double> f) : f_(std::move(f)) {}
  PatchBlocks<double> Prepare(const RowMat<double>&, int) const override { return {}; }
  void Forward(const PatchBlocks<double>&, int begin, int count, double* f) override {
    for (int i = 0; i < count; ++i) f[i] = f_[begin + i];
    forwarded += count;
  }
  double LossAndGradient(const PatchBlocks<double>&, const int*, int, const int*, Vec<double>&,
                         LossValue) override {
    return 0.0;
  }
  long forwarded = 0;

 private:
  std::vector<double> f_;
};

}  // namespace

TEST_CASE("The early stop's check finds a misclassified sample wherever it is",
          "[train][early_stop]") {
  const int samples = 1000;
  PatchBlocks<double> in;
  in.samples = samples;
  std::vector<int> labels(samples);
  Vec<double> y(samples);  // +1 for class 0, -1 for class 1
  std::vector<double> f(samples);
  for (int i = 0; i < samples; ++i) {
    labels[i] = i % 3 ? 0 : 1;
    y[i] = labels[i] == 0 ? 1.0 : -1.0;
    f[i] = 0.5 * y[i];  // every sample right
  }
  GivenOutputs all_right(f);
  CHECK_FALSE(MisclassifiesAny<double>(all_right, in, labels.data()));
  CHECK(all_right.forwarded == samples);
  for (const int wrong : {0, 31, 32, 500, samples - 1}) {
    for (const double value : {-0.5 * y[wrong], 0.0, std::numeric_limits<double>::quiet_NaN()}) {
      std::vector<double> g = f;
      g[wrong] = value;
      GivenOutputs model(g);
      INFO("sample " << wrong << " has y f = " << y[wrong] * value);
      CHECK(MisclassifiesAny<double>(model, in, labels.data()));
      CHECK(model.forwarded > wrong);
    }
  }
  std::vector<double> g = f;  // an error among the first samples is found without the rest
  g[3] = -g[3];
  GivenOutputs early(g);
  CHECK(MisclassifiesAny<double>(early, in, labels.data()));
  CHECK(early.forwarded < 100);
}

TEST_CASE("Training with the early stop ends at the first epoch with zero training error",
          "[train][early_stop]") {
  // The same trajectory run for fixed epochs: the stopping epoch has no error, the one before has.
  TrialSpec spec;
  spec.model.kind = "cnn";
  SetParamValue(spec, "data.l_star", 1);  // no confusers: a CNN learns this in a few epochs
  spec.N = 200;
  const auto source = PatternFamily().Make(spec, 3);
  Dataset train;
  source->Draw(Split::kTrain, spec.N, train);
  auto run = [&](int epochs, bool early_stop) {
    auto model = MakeModel<float>(ModelSpecOf(spec), train.d, 4);
    const PatchBlocks<float> in = model->Prepare(train.x, train.size());
    SgdOptions options;
    options.budget.epochs = epochs;
    options.budget.early_stop = early_stop;
    Rng rng(5);
    SgdStep<float> step(DoubleParam(spec, "model.lr"));
    const TrainOutcome outcome = TrainSgd(*model, in, train.label.data(), options, step, rng);
    return std::make_pair(outcome, Evaluate(*model, in, train.label.data()));
  };
  const auto [stopped, at_stop] = run(150, true);
  REQUIRE(stopped.stop == StopReason::kZeroTrainError);
  REQUIRE(stopped.epochs >= 2);
  CHECK(at_stop.errors == 0);
  const auto [fixed, before_stop] = run(stopped.epochs - 1, false);
  CHECK(fixed.epochs == stopped.epochs - 1);
  CHECK(fixed.stop == StopReason::kEpochCap);
  CHECK(before_stop.errors > 0);
}

}  // namespace pmoe
