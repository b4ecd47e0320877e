// A toy model family: predicts class 0 when coordinate 0 of patch 0 exceeds model.toy_threshold;
// nothing to train. It records the share of test samples beyond the threshold's margin, and
// throws from Train when model.toy_fail = true, to show that a failing trial is a row.
#include <cmath>
#include <stdexcept>

#include "pmoe/core/param_table.hpp"
#include "pmoe/train/sgd_trainer.hpp"
#include "toy_families.hpp"

namespace pmoe::test {
namespace {

class ToyLearner final : public Learner {
 public:
  ToyLearner(double threshold, bool fail) : threshold_(threshold), fail_(fail) {}
  TrainOutcome Train(const Dataset& train, Metrics&) override {
    if (fail_) throw std::runtime_error("toy model asked to fail");
    train_ = &train;
    TrainOutcome out;
    out.stop = StopReason::kRule;
    return out;
  }
  Evaluation EvaluateTrain() override { return Score(*train_); }
  Evaluation EvaluateTest(const Dataset& test, Metrics& metrics) override {
    int beyond = 0;
    for (int i = 0; i < test.size(); ++i)
      beyond += std::abs(test.x(static_cast<Eigen::Index>(i) * test.n, 0) - threshold_) > 1;
    metrics.Set("toy_margin_rate", static_cast<double>(beyond) / test.size());
    return Score(test);
  }

 private:
  Evaluation Score(const Dataset& data) const {
    Evaluation ev;
    for (int i = 0; i < data.size(); ++i)
      ev.errors +=
          (data.x(static_cast<Eigen::Index>(i) * data.n, 0) > threshold_ ? 0 : 1) != data.label[i];
    ev.accuracy = 1.0 - static_cast<double>(ev.errors) / data.size();
    return ev;
  }
  double threshold_;
  bool fail_;
  const Dataset* train_ = nullptr;
};

class ToyModel final : public ModelFamily {
 public:
  std::string name() const override { return "toy_model"; }
  std::string help() const override { return "toy threshold model (tests only)"; }
  std::vector<std::string> reads() const override { return {}; }
  std::vector<ParamInfo> params() const override {
    return {DoubleRow("model.toy_threshold", 0.0, "class 0 above this value"),
            ChoiceRow("model.toy_fail", {"false", "true"}, "throw from training")};
  }
  std::vector<MetricInfo> metrics() const override {
    return {{"toy_margin_rate", ColumnType::kF64, "test samples beyond the margin", true}};
  }
  // A bound of its own, in a parameter of the toy data (data.toy_signal): pmoe-analyze prints
  // its order from the result file without knowing the toy.
  SampleBound Bound() const override { return {"n / toy_signal^2", ""}; }
  void Validate(const TrialSpec&, const DataShape&, const std::string&) const override {}
  FlopCount NominalFlops(const TrialSpec& spec, const DataShape&, double) const override {
    return {0, static_cast<double>(spec.N + spec.N_test)};
  }
  double ExpectedEpochs(const TrialSpec&) const override { return 0; }
  std::unique_ptr<Learner> Make(const TrialSpec& spec, const DataShape&, uint64_t) const override {
    return std::make_unique<ToyLearner>(DoubleParam(spec, "model.toy_threshold"),
                                        TextParam(spec, "model.toy_fail") == "true");
  }
};

}  // namespace

const ModelFamily& ToyModelFamily() {
  static const ToyModel family;
  return family;
}

}  // namespace pmoe::test
