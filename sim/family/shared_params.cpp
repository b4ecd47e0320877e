// The shared parameters' declarations and checks (shared_params.hpp), each check naming the
// parameter and what it expects.
#include "shared_params.hpp"

#include <functional>
#include <utility>
#include <vector>

#include "pmoe/core/errors.hpp"
#include "pmoe/core/param_table.hpp"
#include "pmoe/core/validate.hpp"

namespace pmoe {
namespace {

using Check = std::function<void(const TrialSpec&, const DataShape&, const std::string&)>;

Check Positive(const std::string& name) {
  return [name](const TrialSpec& spec, const DataShape&, const std::string& where) {
    Require(DoubleParam(spec, name) > 0.0, spec, where, name, "a positive number");
  };
}

Check NonNegative(const std::string& name) {
  return [name](const TrialSpec& spec, const DataShape&, const std::string& where) {
    Require(DoubleParam(spec, name) >= 0.0, spec, where, name, "a non-negative number");
  };
}

// In the order they run (the order the SGD families checked them in before).
const std::vector<std::pair<std::string, Check>>& SharedChecks() {
  static const std::vector<std::pair<std::string, Check>> checks = {
      {"model.lr", Positive("model.lr")},
      {"model.sigma_w", NonNegative("model.sigma_w")},
      {"model.loss",
       [](const TrialSpec& spec, const DataShape& shape, const std::string& where) {
         Require(TextParam(spec, "model.loss") != "logistic" || shape.classes == 2, spec, where,
                 "model.loss",
                 "auto or softmax: c = " + std::to_string(shape.classes) +
                     " classes need c outputs (the logistic loss has one, for two classes)");
       }},
      {"model.epochs",
       [](const TrialSpec& spec, const DataShape&, const std::string& where) {
         Require(IntParam(spec, "model.epochs") > 0 || IntParam(spec, "model.max_steps") > 0, spec,
                 where, "model.epochs",
                 "a positive epoch cap, or a positive model.max_steps (with both at 0 nothing "
                 "would stop a training run that never reaches zero training error)");
       }},
      {"model.m",
       [](const TrialSpec& spec, const DataShape& shape, const std::string& where) {
         // The hidden weights and their gradient and workspaces must fit as well as the data.
         const long long m = IntParam(spec, "model.m");
         const double bytes = 4.0 * 4 * static_cast<double>(m) * shape.d;
         const double have = PhysicalMemoryBytes();
         if (have > 0 && bytes > 0.5 * have)
           throw ConfigError(where, "model.m",
                             "fewer neurons: m * d weights need about " +
                                 std::to_string(static_cast<long long>(bytes / 1e9)) +
                                 " GB with their gradient, more than half of this machine's "
                                 "memory",
                             std::to_string(m));
       }},
      {"model.sigma_g", NonNegative("model.sigma_g")},
      {"model.sigma_r", NonNegative("model.sigma_r")},
      {"model.router_lr", Positive("model.router_lr")},
  };
  return checks;
}

}  // namespace

const FieldParams<DataSpec>& SharedDataParams() {
  static const FieldParams<DataSpec> params = {
      ParamOnField("data.labels",
                   "labels: iid (fair, independent) or balanced (sample i gets class i mod c)",
                   &DataSpec::labels, {"iid", "balanced"})
          .Labeled("labels"),
      ParamOnField("data.n", "patches per sample", &DataSpec::n, {}, 1, 1024)
          .Labeled("patches per sample", "n", "patches"),
      ParamOnField("data.d", "patch dimension", &DataSpec::d, {}, 1, 10000000)
          .Labeled("patch dimension", "d"),
  };
  return params;
}

const FieldParams<ModelSpec>& SharedModelParams() {
  static const FieldParams<ModelSpec> params = {
      // One step cap for every model family (numerics version 8; before it the full-batch
      // families had model.full_steps): what a step is and what 0 means is the family's.
      ParamOnField("model.max_steps",
                   "step cap: SGD steps, or full-batch steps (0: the family's default: no cap for "
                   "SGD training, 501 full-batch steps for switch, 801 for single)",
                   &ModelSpec::max_steps, {}, 0, 1000000000000000LL)
          .Labeled("step cap", "", "steps"),
  };
  return params;
}

std::vector<ParamInfo> SharedParams(const std::vector<std::string>& reads) {
  std::vector<ParamInfo> rows = Rows(SharedDataParams(), &reads);
  for (ParamInfo& row : Rows(SharedModelParams(), &reads)) rows.push_back(std::move(row));
  return rows;
}

void ValidateSharedParams(const TrialSpec& spec, const DataShape& shape, const std::string& where) {
  for (const auto& [name, check] : SharedChecks()) {
    const ParamInfo* param = FindParam(name);
    PMOE_CHECK(param != nullptr) << "a check of an undeclared parameter " << name;
    if (param->ReadBy(spec)) check(spec, shape, where);
  }
}

}  // namespace pmoe
