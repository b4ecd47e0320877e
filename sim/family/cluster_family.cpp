// Data model C as a family (MODEL.md §8): its parameters, checks, cost and the shared-draw
// option of the published protocol.
#include <cmath>

#include "pmoe/core/errors.hpp"
#include "pmoe/core/param_table.hpp"
#include "pmoe/core/rng.hpp"
#include "pmoe/core/validate.hpp"
#include "pmoe/data/cluster_model.hpp"
#include "pmoe/family/builtin.hpp"
#include "shared_params.hpp"

namespace pmoe {
namespace {

// Per generated coordinate (a normal or a scaled signal copy): the cost model's figure.
constexpr double kClusterSecondsPerValue = 6e-9;

class Cluster final : public DataFamily {
 public:
  std::string name() const override { return "cluster"; }
  std::string label() const override { return "cluster data"; }
  std::string help() const override {
    return "data model C, Chen et al.'s clusters (MODEL.md §8): data.n = P patches";
  }
  std::vector<std::string> reads() const override { return {"data.labels", "data.n", "data.d"}; }
  std::vector<ParamInfo> shared_params() const override { return SharedParams(reads()); }
  std::vector<ParamInfo> params() const override {
    return {
        IntRow("data.clusters", 4, 2, 1000000, "data model C: clusters K (d >= 2K)")
            .Labeled("clusters", "K", "clusters"),
        DoubleRow("data.alpha_lo", 0.5, "data model C: feature signal strength ~ U[lo, hi]")
            .Labeled("feature signal strength, low end"),
        DoubleRow("data.alpha_hi", 2.0, "data model C: upper end of the alpha range")
            .Labeled("feature signal strength, high end"),
        DoubleRow("data.beta_lo", 1.0, "data model C: cluster center strength ~ U[lo, hi]")
            .Labeled("cluster center strength, low end"),
        DoubleRow("data.beta_hi", 2.0, "data model C: upper end of the beta range")
            .Labeled("cluster center strength, high end"),
        DoubleRow("data.gamma_lo", 0.5, "data model C: feature noise strength ~ U[lo, hi]")
            .Labeled("feature noise strength, low end"),
        DoubleRow("data.gamma_hi", 3.0, "data model C: upper end of the gamma range")
            .Labeled("feature noise strength, high end"),
        DoubleRow("data.sigma_p", 1.0, "data model C: noise patches ~ N(0, sigma_p^2/d I)")
            .Labeled("noise-patch scale", "\\sigma_p"),
        DoubleRow("data.scale", 10.0, "data model C: every patch multiplied by this")
            .Labeled("patch scale"),
        ChoiceRow("data.draw", {"per_trial", "shared"},
                  "data model C: a fresh data set per trial, or one for all trials of a cell "
                  "(the published protocol; drawn from data.draw_seed and the data parameters)")
            .Labeled("data draw"),
        IntRow("data.draw_seed", 0, 0, (1LL << 62), "data model C: the shared draw's seed")
            .Labeled("shared draw's seed"),
    };
  }
  std::vector<MetricInfo> metrics() const override { return ClusterDataMetrics(); }

  void Validate(const TrialSpec& spec, const std::string& where) const override {
    const ClusterSpec c = SpecOf(spec);
    auto range = [&](const char* name, const Range& r) {
      const std::string lo = std::string("data.") + name + "_lo";
      const std::string hi = std::string("data.") + name + "_hi";
      Require(std::isfinite(r.lo) && r.lo >= 0, spec, where, lo, "a finite number >= 0");
      Require(std::isfinite(r.hi) && r.hi >= r.lo, spec, where, hi,
              "a finite number >= " + lo + " (" + FormatDouble(r.lo) + ")");
    };
    Require(c.P >= 3, spec, where, "data.n",
            "at least 3 patches for data model C (feature signal, cluster center, feature noise)");
    Require(c.d >= 2 * c.K, spec, where, "data.d",
            "at least 2K = " + std::to_string(2 * c.K) +
                " for data model C (K orthonormal feature signals and K centers; data.clusters = " +
                std::to_string(c.K) + ")");
    range("alpha", c.alpha);
    range("beta", c.beta);
    range("gamma", c.gamma);
    Require(std::isfinite(c.sigma_p) && c.sigma_p >= 0, spec, where, "data.sigma_p",
            "a finite number >= 0");
    Require(std::isfinite(c.scale) && c.scale > 0, spec, where, "data.scale",
            "a finite positive number");
  }

  DataShape Shape(const TrialSpec& spec) const override {
    return {static_cast<int>(IntParam(spec, "data.n")), static_cast<int>(IntParam(spec, "data.d")),
            2};
  }

  std::unique_ptr<DataSource> Make(const TrialSpec& spec, uint64_t data_seed) const override {
    // Shared: every trial of the cell draws the same data set, from the data parameters alone
    // (draw_seed among them), as the published runs fixed one numpy seed per setting.
    const uint64_t seed = TextParam(spec, "data.draw") == "shared"
                              ? CombineSeed(HashString("data model C, shared draw"),
                                            HashString(CanonicalKey(spec, "data.")))
                              : data_seed;
    return std::make_unique<ClusterModel>(SpecOf(spec), seed);
  }

  double SecondsPerSample(const TrialSpec&, const DataShape& shape) const override {
    return kClusterSecondsPerValue * shape.n * shape.d;
  }

 private:
  static ClusterSpec SpecOf(const TrialSpec& spec) {
    ClusterSpec c;
    c.K = static_cast<int>(IntParam(spec, "data.clusters"));
    c.P = static_cast<int>(IntParam(spec, "data.n"));
    c.d = static_cast<int>(IntParam(spec, "data.d"));
    c.alpha = {DoubleParam(spec, "data.alpha_lo"), DoubleParam(spec, "data.alpha_hi")};
    c.beta = {DoubleParam(spec, "data.beta_lo"), DoubleParam(spec, "data.beta_hi")};
    c.gamma = {DoubleParam(spec, "data.gamma_lo"), DoubleParam(spec, "data.gamma_hi")};
    c.sigma_p = DoubleParam(spec, "data.sigma_p");
    c.scale = DoubleParam(spec, "data.scale");
    c.balanced = TextParam(spec, "data.labels") == "balanced";
    return c;
  }
};

}  // namespace

const DataFamily& ClusterFamily() {
  static const Cluster family;
  return family;
}

}  // namespace pmoe
