// The CNN as a family (MODEL.md §4): m ReLU neurons on every patch, trained by SGD.
#include "pmoe/family/builtin.hpp"
#include "pmoe/trial/model_factory.hpp"
#include "sgd_family.hpp"

namespace pmoe {
namespace {

class Cnn final : public ModelFamily {
 public:
  std::string name() const override { return "cnn"; }
  std::string help() const override { return "a CNN of m neurons over all n patches (§4)"; }
  std::vector<std::string> reads() const override { return SgdReads(); }
  std::vector<MetricInfo> metrics() const override { return SgdMetrics(); }

  void Validate(const TrialSpec& spec, const DataShape&, const std::string& where) const override {
    ValidateSgd(spec, where);
  }

  FlopCount NominalFlops(const TrialSpec& spec, const DataShape& shape,
                         double epochs) const override {
    const double n = shape.n;
    const OutputWork outputs = ExtraOutputWork(spec, shape, 1, n);  // c outputs (MODEL.md §7)
    const double per_sample = n * spec.model.m * shape.d + outputs.flops;
    return SgdFlops(spec, epochs, per_sample, per_sample, per_sample, 0, outputs.overhead);
  }

  double ExpectedEpochs(const TrialSpec& spec) const override { return SgdExpectedEpochs(spec); }

  std::unique_ptr<Learner> Make(const TrialSpec& spec, const DataShape& shape,
                                uint64_t init_seed) const override {
    return std::make_unique<SgdLearner>(
        MakeModel<float>(spec.model, shape.d, init_seed, shape.classes), spec, init_seed);
  }
};

}  // namespace

const ModelFamily& CnnFamily() {
  static const Cnn family;
  return family;
}

}  // namespace pmoe
