// Data model A as a family (MODEL.md §2, and §7 with data.c classes): the pattern model's
// parameters, checks and cost.
#include "pmoe/core/errors.hpp"
#include "pmoe/core/validate.hpp"
#include "pmoe/data/pattern_model.hpp"
#include "pmoe/data/pattern_plan.hpp"
#include "pmoe/family/builtin.hpp"
#include "shared_params.hpp"

namespace pmoe {
namespace {

// Per generated coordinate, with the patterns' placement: the cost model's figure (it orders
// work and sizes `plan`'s static estimate, no more).
constexpr double kPatternSecondsPerValue = 25e-9;

DataSpec PatternSpecOf(const TrialSpec& spec);  // below: it reads the rows declared here

// Data model A's own parameters, on DataSpec's fields.
const FieldParams<DataSpec>& PatternFields() {
  static const FieldParams<DataSpec> params = {
      ParamOnField("data.delta_d", "<o1, o2>, in (-1, 1)", &DataSpec::delta_d)
          .Labeled("class-pattern product", "\\delta_d"),
      ParamOnField("data.delta_r", "bound on |<o_a, q>| over irrelevant patterns q, in [0, 1)",
                   &DataSpec::delta_r)
          .Labeled("irrelevant-pattern bound", "\\delta_r"),
      ParamOnField("data.p", "number of class-irrelevant pattern sets", &DataSpec::p, {}, 1,
                   1000000)
          .Labeled("pattern sets", "p", "sets"),
      ParamOnField("data.p_confuser",
                   "how many of the p sets are confusers (-1: half, >= 2 if l* > 1)",
                   &DataSpec::p_confuser, {}, -1, 1000000)
          .Labeled("confuser sets", "", "sets")
          .Resolved("-1: half of p, at least 2 per trained pair when l* > 1",
                    [](const TrialSpec& spec) {
                      return std::to_string(PlanPatternModel(PatternSpecOf(spec)).n_confuser);
                    }),
      ParamOnField("data.l_star",
                   "l*: every sample has at most l*-1 delta'-closer irrelevant patches",
                   &DataSpec::l_star, {}, 1, 1024)
          .Labeled("threshold", "l^*", "patches"),
      ParamOnField("data.radius", "radius of each pattern set (spherical cap)", &DataSpec::radius)
          .Labeled("pattern-set radius", "r"),
      ParamOnField("data.confuser_strength",
                   "confuser centers' place in their feasible interval, (0, 1]",
                   &DataSpec::confuser_strength)
          .Labeled("confuser strength"),
      ParamOnField("data.confusers",
                   "confusers per sample: fixed K = l*-1, or uniform K ~ U{0..l*-1}",
                   &DataSpec::confusers, {"fixed", "uniform"})
          .Labeled("confusers per sample"),
      ParamOnField("data.noise", "additive Gaussian noise, N(0, noise^2/d) per coordinate",
                   &DataSpec::noise)
          .Labeled("noise level", "\\sigma"),
      Unkeyed(ParamOnField("data.c", "classes (MODEL.md §7; 2: the binary model)", &DataSpec::c, {},
                           2, 64)
                  .Labeled("classes", "c", "classes")),
  };
  return params;
}

// The pattern model's parameters in the cell `spec`.
DataSpec PatternSpecOf(const TrialSpec& spec) {
  DataSpec data;
  Read(spec, SharedDataParams(), data);
  Read(spec, PatternFields(), data);
  return data;
}

class Pattern final : public DataFamily {
 public:
  std::string name() const override { return "pattern"; }
  std::string label() const override { return "pattern data"; }
  std::string help() const override { return "data model A, the pattern model (MODEL.md §2)"; }
  std::vector<std::string> reads() const override { return {"data.labels", "data.n", "data.d"}; }
  std::vector<ParamInfo> shared_params() const override { return SharedParams(reads()); }
  std::vector<ParamInfo> params() const override { return Rows(PatternFields()); }
  std::vector<MetricInfo> metrics() const override { return RealizedStatsMetrics(); }

  void Validate(const TrialSpec& spec, const std::string& where) const override {
    const DataSpec data = PatternSpecOf(spec);
    Require(data.delta_d > -1.0 && data.delta_d < 1.0, spec, where, "data.delta_d",
            "a number in (-1, 1)");
    Require(data.delta_r >= 0.0 && data.delta_r < 1.0, spec, where, "data.delta_r",
            "a number in [0, 1)");
    Require(data.p_confuser <= data.p, spec, where, "data.p_confuser",
            "-1 (automatic) or an integer in 0..p (p = " + std::to_string(data.p) + ")");
    Require(data.l_star <= data.n, spec, where, "data.l_star",
            "an integer in 1..n (n = " + std::to_string(data.n) + ")");
    Require(data.radius >= 0.0 && data.radius < 2.0, spec, where, "data.radius",
            "a number in [0, 2)");
    Require(data.confuser_strength > 0.0 && data.confuser_strength <= 1.0, spec, where,
            "data.confuser_strength",
            "a number in (0, 1] (at 0 confusers would sit on the delta' boundary itself)");
    Require(data.noise >= 0.0, spec, where, "data.noise", "a non-negative number");
  }

  DataShape Shape(const TrialSpec& spec) const override {
    const DataSpec data = PatternSpecOf(spec);
    return {data.n, data.d, data.c};
  }

  std::unique_ptr<DataSource> Make(const TrialSpec& spec, uint64_t data_seed) const override {
    return std::make_unique<PatternModel>(PlanPatternModel(PatternSpecOf(spec)), data_seed);
  }

  double SecondsPerSample(const TrialSpec&, const DataShape& shape) const override {
    return kPatternSecondsPerValue * shape.n * shape.d;
  }
};

}  // namespace

const DataFamily& PatternFamily() {
  static const Pattern family;
  return family;
}

}  // namespace pmoe
