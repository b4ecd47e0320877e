// The CNN as a family (MODEL.md §4): m ReLU neurons on every patch, trained by SGD.
#include "pmoe/family/builtin.hpp"
#include "pmoe/family/model_factory.hpp"
#include "pmoe/models/cnn.hpp"
#include "sgd_family.hpp"
#include "sgd_models.hpp"

namespace pmoe {
namespace {

class CnnKind final : public SgdModelFamily {
 public:
  std::string name() const override { return "cnn"; }
  std::string label() const override { return "CNN"; }
  std::string help() const override { return "a CNN of m neurons over all n patches (§4)"; }
  std::vector<std::string> reads() const override { return SgdReads(); }
  std::vector<ParamInfo> shared_params() const override { return SgdParams(reads()); }
  bool RatioBaseline() const override { return true; }  // N*(CNN) / N*(pMoE): the papers' ratio
  std::vector<MetricInfo> metrics() const override { return SgdMetrics(); }

  // Nothing of its own: its parameters are the SGD families' shared ones (shared_params.cpp).
  void Validate(const TrialSpec&, const DataShape&, const std::string&) const override {}

  FlopCount NominalFlops(const TrialSpec& spec, const DataShape& shape,
                         double epochs) const override {
    const double n = shape.n;
    const OutputWork outputs = ExtraOutputWork(spec, shape, 1, n);  // c outputs (MODEL.md §7)
    const double per_sample = n * ModelSpecOf(spec).m * shape.d + outputs.flops;
    return SgdFlops(spec, epochs, per_sample, per_sample, per_sample, 0, outputs.overhead);
  }

  double ExpectedEpochs(const TrialSpec& spec) const override { return SgdExpectedEpochs(spec); }
  // MODEL.md §9, samples row; appendix M extends only the two pMoE theorems to c classes.
  SampleBound Bound() const override {
    return {"n^8 p^12 delta^6 / eps^16", "none (appendix M bounds pMoE only)"};
  }

  int Experts(const ModelSpec&, int) const override { return 1; }
  std::unique_ptr<Model<float>> NewModel(const ModelSpec&, ModelParts<float> parts,
                                         Rng&) const override {
    return NewCnn(std::move(parts));
  }

  std::unique_ptr<Learner> Make(const TrialSpec& spec, const DataShape& shape,
                                uint64_t init_seed) const override {
    return std::make_unique<SgdLearner>(
        MakeModel<float>(ModelSpecOf(spec), shape.d, init_seed, shape.classes), spec, init_seed);
  }
};

}  // namespace

const ModelFamily& CnnFamily() {
  static const CnnKind family;
  return family;
}

}  // namespace pmoe
