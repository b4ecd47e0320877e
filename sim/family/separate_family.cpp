// The separately trained pMoE as a family (MODEL.md §4-5, Algorithm 1): the router phase on the
// first router_N samples, then SGD on the experts over their routed patches; Lemma 4.1's router
// hit rate on the test set.
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "pmoe/core/errors.hpp"
#include "pmoe/core/param_table.hpp"
#include "pmoe/core/rng.hpp"
#include "pmoe/core/validate.hpp"
#include "pmoe/data/class_pairs.hpp"
#include "pmoe/family/builtin.hpp"
#include "pmoe/family/model_factory.hpp"
#include "pmoe/family/router_metrics.hpp"
#include "pmoe/models/init.hpp"
#include "pmoe/models/separate_moe.hpp"
#include "pmoe/train/router_trainer.hpp"
#include "sgd_family.hpp"
#include "sgd_models.hpp"

namespace pmoe {

std::vector<MetricInfo> RouterHitMetrics() {
  using T = ColumnType;
  return {
      {"router_hit", T::kF64, "separate: Lemma 4.1 hit rate; joint: Assumption 4.4 rate (test set)",
       true},
      {"router_hit_pos", T::kF64, "router_hit over class 0 (y = +1) test samples", true},
      {"router_hit_neg", T::kF64, "router_hit over class 1 (y = -1) test samples", true},
      {"router_hit_class", T::kF64, "router_hit over the test samples of one class", true,
       PerClass::kClass},
  };
}

void RecordRouterHits(const RouterHits& hits, Metrics& metrics) {
  metrics.Set("router_hit", hits.all);
  metrics.Set("router_hit_pos", hits.pos);
  metrics.Set("router_hit_neg", hits.neg);
  if (hits.per_class.size() > 2)  // binary files have no per-class columns (metrics.hpp)
    for (size_t c = 0; c < hits.per_class.size(); ++c)
      metrics.Set(PerClassName("router_hit_class", static_cast<int>(c)), hits.per_class[c]);
}

void ValidateRouting(const TrialSpec& spec, const DataShape& shape, const std::string& where) {
  const ModelSpec model = ModelSpecOf(spec);
  const int k = ModelExperts(model, shape.classes);
  Require(model.l <= shape.n, spec, where, "model.l",
          "an integer in 1..n (n = " + std::to_string(shape.n) + ")");
  Require(k >= 1, spec, where, "model.k",
          "an integer >= 1 (0 means one expert per class for "
          "separate training only)");
  Require(model.m % k == 0, spec, where, "model.m",
          "a multiple of model.k (k = " + std::to_string(k) + " experts)");
}

namespace {

// "" when no routing value <w_s, x^(j)> of `router` on the patches of `x` overflows float (the
// type routing computes in); else what overflowed. Checked by a bound first (|<w, x>| <=
// ||w||_1 max|x|, in double), so a trial whose routers are far from overflow pays one pass over
// its data; only near the bound is each value computed. Reads, never changes, anything: a trial
// that does not overflow records the same numbers as before this check (issue 28).
std::string RoutingOverflow(const RowMat<float>& router, const RowMat<float>& x) {
  if (!router.allFinite()) return "router weights not finite";
  const double largest_x = x.size() > 0 ? static_cast<double>(x.cwiseAbs().maxCoeff()) : 0.0;
  if (!std::isfinite(largest_x)) return "";  // the data's own overflow is not the router's
  const double limit = std::numeric_limits<float>::max();
  double bound = 0;
  for (Eigen::Index s = 0; s < router.rows(); ++s)
    bound = std::max(bound, router.row(s).cast<double>().cwiseAbs().sum() * largest_x);
  if (bound < limit / 2) return "";
  const RowMat<double> values = x.cast<double>() * router.cast<double>().transpose();
  if (values.cwiseAbs().maxCoeff() < limit / 2) return "";
  return "routing values overflow (|<w_s, x>| up to " +
         std::to_string(values.cwiseAbs().maxCoeff()) + ")";
}

class SeparateLearner final : public SgdLearner {
 public:
  using SgdLearner::SgdLearner;

  // An overflowed router routes by arbitrary infinities: the trial is diverged, as the same
  // overflow in the experts makes it (before, it was recorded ok).
  TrainOutcome Train(const Dataset& train, Metrics& metrics) override {
    TrainOutcome out = SgdLearner::Train(train, metrics);
    auto& model = static_cast<SeparateMoe<float>&>(*model_);
    if (const std::string why = RoutingOverflow(model.router(), train.x); !why.empty()) {
      out.diverged = true;
      out.stop = StopReason::kDiverged;
      out.message = "separate pMoE: " + why + " on the training set";
    }
    return out;
  }

  void UseRouterSamples(const Dataset& router) override { router_set_ = &router; }

  Evaluation EvaluateTest(const Dataset& test, Metrics& metrics) override {
    const PatchBlocks<float> routed = model_->Prepare(test.x, test.size());
    Evaluation on_test = EvaluateOn(routed, test, metrics);
    auto& model = static_cast<SeparateMoe<float>&>(*model_);
    if (!RoutingOverflow(model.router(), test.x).empty()) on_test.finite = false;
    RecordRouterHits(SeparateRouterHits(routed.routes, routed.blocks, settings_.l, test), metrics);
    return on_test;
  }

 private:
  // The router sample of its own (model.router_samples), or null: the training set's first
  // router_N samples.
  const Dataset* router_set_ = nullptr;

  void BeforeSgd(const Dataset& train, Metrics& metrics) override {
    RouterOptions options;
    const Dataset& routed = router_set_ != nullptr ? *router_set_ : train;
    options.samples = router_set_ != nullptr   ? routed.size()
                      : settings_.router_N > 0 ? settings_.router_N
                                               : spec_.N;
    options.lr = settings_.router_lr;
    options.batch = settings_.router_batch;
    options.epochs = settings_.router_epochs;
    Rng rng(StreamSeed(init_seed_, InitStream::kRouterSgd));
    auto& model = static_cast<SeparateMoe<float>&>(*model_);  // made by Separate::Make
    PMOE_CHECK(model.router().rows() == train.classes)
        << "separate pMoE with " << model.router().rows() << " experts on " << train.classes
        << " classes (Validate asks k = c)";
    // Two classes: the binary router phase (one pair); more: pairwise (MODEL.md §7, M.1).
    metrics.Set("router_steps",
                static_cast<double>(TrainPairwiseRouters(routed, options, rng, model.router())));
  }
};

// The router phase's parameters (Algorithm 1), separate pMoE's own.
const FieldParams<ModelSpec>& RouterFields() {
  static const FieldParams<ModelSpec> params = {
      ParamOnField("model.sigma_r", "separate pMoE router init std", &ModelSpec::sigma_r)
          .Labeled("router init std"),
      ParamOnField("model.router_N",
                   "separate pMoE: router trained on the first router_N samples (0: N)",
                   &ModelSpec::router_N, {}, 0, kMaxSamples)
          .Labeled("router training samples", "", "samples"),
      ParamOnField("model.router_lr", "separate pMoE router step size", &ModelSpec::router_lr)
          .Labeled("router step size"),
      ParamOnField("model.router_batch", "separate pMoE router batch size",
                   &ModelSpec::router_batch, {}, 1, kMaxSamples)
          .Labeled("router batch size", "", "samples"),
      ParamOnField("model.router_epochs", "separate pMoE router epochs", &ModelSpec::router_epochs,
                   {}, 0, kMaxCount)
          .Labeled("router epochs", "", "epochs"),
  };
  return params;
}

class Separate final : public SgdModelFamily {
 public:
  std::string name() const override { return "separate"; }
  std::string label() const override { return "separate pMoE"; }
  std::string help() const override {
    return "pMoE, routers trained first and frozen (Algorithm 1)";
  }
  std::vector<std::string> reads() const override {
    std::vector<std::string> r = SgdReads();
    r.insert(r.end(), {"model.l", "model.k"});
    return r;
  }
  std::vector<ParamInfo> shared_params() const override { return SgdParams(reads()); }
  std::vector<ParamInfo> params() const override {
    std::vector<ParamInfo> rows = Rows(RouterFields());
    // Unkeyed at its default, so that every cell run before it existed keeps its key and seeds.
    rows.push_back(Unkeyed(IntRow("model.router_samples", 0, 0, 100000000,
                                  "separate pMoE: train the router on this many fresh samples of "
                                  "its own (Algorithm 1's router sample; Lemma 4.1 asks for "
                                  "about n^2/(1 - delta_d)^2), not on the training set (0: the "
                                  "training set's first router_N)"))
                       .Labeled("router sample", "", "samples"));
    return rows;
  }
  void ReadOwn(const TrialSpec& spec, ModelSpec& out) const override {
    Read(spec, RouterFields(), out);
  }
  int RouterSamples(const TrialSpec& spec) const override {
    return static_cast<int>(IntParam(spec, "model.router_samples"));
  }
  std::vector<MetricInfo> metrics() const override {
    std::vector<MetricInfo> m = RouterHitMetrics();
    m.push_back({"router_steps", ColumnType::kI64, "SGD steps of the router phase"});
    for (const MetricInfo& more : SgdMetrics()) m.push_back(more);
    return m;
  }

  void Validate(const TrialSpec& spec, const DataShape& shape,
                const std::string& where) const override {
    ValidateRouting(spec, shape, where);
    const ModelSpec model = ModelSpecOf(spec);
    Require(model.k == 0 || model.k == shape.classes, spec, where, "model.k",
            "c = " + std::to_string(shape.classes) +
                " for separate training (one expert per "
                "class, MODEL.md §7), or 0 for one per class whatever c");
    Require(model.router_N <= spec.N, spec, where, "model.router_N",
            "0 (all N) or an integer in 1..N (N = " + std::to_string(spec.N) + ")");
    Require(RouterSamples(spec) == 0 || model.router_N == 0, spec, where, "model.router_N",
            "0 when model.router_samples gives the router a sample of its own");
  }

  FlopCount NominalFlops(const TrialSpec& spec, const DataShape& shape,
                         double epochs) const override {
    const ModelSpec model = ModelSpecOf(spec);
    const double n = shape.n, d = shape.d, m = model.m, l = model.l;
    const double k = ModelExperts(model, shape.classes);
    const double N = spec.N;
    const OutputWork outputs = ExtraOutputWork(spec, shape, k, l);  // c outputs (MODEL.md §7)
    const double experts = l * m * d + outputs.flops;  // each expert's neurons on its l patches
    const double route = k * n * d;  // routing values, once per sample (routers frozen)
    // The router phase, pair by pair (MODEL.md §7; two classes: the one pair): each pair's
    // samples, so every sample once, and class 0's twice when c is odd.
    const double pairs = static_cast<double>(RouterPairs(shape.classes).size());
    const double router_N = RouterSamples(spec) > 0 ? RouterSamples(spec) : N;
    const double routed_samples = router_N * 2 * pairs / shape.classes;
    // y_i sum_j x_i^(j) once per sample, then one add per coordinate per sample per epoch.
    const double router = (routed_samples * n * d + model.router_epochs * routed_samples * d) / 2;
    return SgdFlops(spec, epochs, experts, experts, experts + route, router, outputs.overhead);
  }

  double ExpectedEpochs(const TrialSpec& spec) const override { return SgdExpectedEpochs(spec); }
  // MODEL.md §9, samples row, and §7 (appendix M): c^12 over the number of classes.
  SampleBound Bound() const override { return {"l^8 p^12 delta^6 / eps^16", "c^12"}; }

  // model.k = 0: one expert per class (MODEL.md §7).
  int Experts(const ModelSpec& spec, int classes) const override {
    return spec.k == 0 ? classes : spec.k;
  }
  std::unique_ptr<Model<float>> NewModel(const ModelSpec& spec, ModelParts<float> parts,
                                         Rng& router) const override {
    return NewSeparateMoe(spec, std::move(parts), router);
  }

  std::unique_ptr<Learner> Make(const TrialSpec& spec, const DataShape& shape,
                                uint64_t init_seed) const override {
    return std::make_unique<SeparateLearner>(
        MakeModel<float>(ModelSpecOf(spec), shape.d, init_seed, shape.classes), spec, init_seed);
  }
};

}  // namespace

const ModelFamily& SeparateFamily() {
  static const Separate family;
  return family;
}

}  // namespace pmoe
