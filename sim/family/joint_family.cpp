// The jointly trained pMoE as a family (MODEL.md §4-5, Algorithm 2): gating kernels and experts
// trained together by SGD; Assumption 4.4's gating rate on the test set, from the routes the
// test evaluation computed.
#include "pmoe/core/validate.hpp"
#include "pmoe/family/builtin.hpp"
#include "pmoe/family/model_factory.hpp"
#include "pmoe/family/router_metrics.hpp"
#include "pmoe/models/init.hpp"
#include "pmoe/models/joint_moe.hpp"
#include "sgd_family.hpp"
#include "sgd_models.hpp"

namespace pmoe {

std::vector<MetricInfo> RouterHitMetrics();  // separate_family.cpp
void RecordRouterHits(const RouterHits& hits, Metrics& metrics);
void ValidateRouting(const TrialSpec& spec, const DataShape& shape, const std::string& where);

namespace {

class JointLearner final : public SgdLearner {
 public:
  using SgdLearner::SgdLearner;

  Evaluation EvaluateTest(const Dataset& test, Metrics& metrics) override {
    auto& joint = static_cast<JointMoe<float>&>(*model_);  // made by Joint::Make
    joint.KeepRoutes(true);  // the evaluation's routes serve the metrics
    const Evaluation on_test = EvaluateOn(model_->Prepare(test.x, test.size()), test, metrics);
    RecordRouterHits(JointGatingHits(joint.TakeRoutes(), settings_.k, settings_.l, test), metrics);
    joint.KeepRoutes(false);
    return on_test;
  }
};

// The gating kernels' init (Algorithm 2), joint pMoE's own.
const FieldParams<ModelSpec>& GatingFields() {
  static const FieldParams<ModelSpec> params = {
      ParamOnField("model.sigma_g", "joint pMoE gating kernel init std", &ModelSpec::sigma_g)
          .Labeled("gating kernel init std"),
  };
  return params;
}

class Joint final : public SgdModelFamily {
 public:
  std::string name() const override { return "joint"; }
  std::string label() const override { return "joint pMoE"; }
  std::string help() const override {
    return "pMoE, gating kernels and experts trained together (Algorithm 2)";
  }
  std::vector<std::string> reads() const override {
    std::vector<std::string> r = SgdReads();
    r.insert(r.end(), {"model.l", "model.k"});
    return r;
  }
  std::vector<ParamInfo> shared_params() const override { return SgdParams(reads()); }
  std::vector<ParamInfo> params() const override { return Rows(GatingFields()); }
  void ReadOwn(const TrialSpec& spec, ModelSpec& out) const override {
    Read(spec, GatingFields(), out);
  }
  std::vector<MetricInfo> metrics() const override {
    std::vector<MetricInfo> m = RouterHitMetrics();
    for (const MetricInfo& more : SgdMetrics()) m.push_back(more);
    return m;
  }

  void Validate(const TrialSpec& spec, const DataShape& shape,
                const std::string& where) const override {
    ValidateRouting(spec, shape, where);
  }

  FlopCount NominalFlops(const TrialSpec& spec, const DataShape& shape,
                         double epochs) const override {
    const ModelSpec model = ModelSpecOf(spec);
    const double n = shape.n, d = shape.d, m = model.m, k = model.k, l = model.l;
    const OutputWork outputs = ExtraOutputWork(spec, shape, k, l);  // c outputs (MODEL.md §7)
    // Gating on all patches, experts on the routed ones; the gating gradient on those only.
    const double forward = n * k * d + l * m * d + outputs.flops;
    const double backward = l * k * d + l * m * d + outputs.flops;
    return SgdFlops(spec, epochs, forward, backward, forward, 0, outputs.overhead);
  }

  double ExpectedEpochs(const TrialSpec& spec) const override { return SgdExpectedEpochs(spec); }
  // MODEL.md §9, samples row, and §7 (appendix M): c^8 over the number of classes.
  SampleBound Bound() const override { return {"k^4 l^6 p^12 delta^6 / eps^16", "c^8"}; }

  int Experts(const ModelSpec& spec, int) const override { return spec.k; }
  std::unique_ptr<Model<float>> NewModel(const ModelSpec& spec, ModelParts<float> parts,
                                         Rng& router) const override {
    return NewJointMoe(spec, std::move(parts), router);
  }

  std::unique_ptr<Learner> Make(const TrialSpec& spec, const DataShape& shape,
                                uint64_t init_seed) const override {
    return std::make_unique<JointLearner>(
        MakeModel<float>(ModelSpecOf(spec), shape.d, init_seed, shape.classes), spec, init_seed);
  }
};

}  // namespace

const ModelFamily& JointFamily() {
  static const Joint family;
  return family;
}

}  // namespace pmoe
