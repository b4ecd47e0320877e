// The shared parameters' checks (shared_params.hpp), each naming the parameter and what it expects.
#include "shared_params.hpp"

#include <functional>
#include <vector>

#include "pmoe/core/errors.hpp"
#include "pmoe/core/param_table.hpp"
#include "pmoe/core/validate.hpp"

namespace pmoe {
namespace {

using Check = std::function<void(const TrialSpec&, const DataShape&, const std::string&)>;

Check Positive(const std::string& name, double ModelSpec::*field) {
  return [name, field](const TrialSpec& spec, const DataShape&, const std::string& where) {
    Require(spec.model.*field > 0.0, spec, where, name, "a positive number");
  };
}

Check NonNegative(const std::string& name, double ModelSpec::*field) {
  return [name, field](const TrialSpec& spec, const DataShape&, const std::string& where) {
    Require(spec.model.*field >= 0.0, spec, where, name, "a non-negative number");
  };
}

// In the order they run (the order the SGD families checked them in before).
const std::vector<std::pair<std::string, Check>>& SharedChecks() {
  static const std::vector<std::pair<std::string, Check>> checks = {
      {"model.lr", Positive("model.lr", &ModelSpec::lr)},
      {"model.sigma_w", NonNegative("model.sigma_w", &ModelSpec::sigma_w)},
      {"model.loss",
       [](const TrialSpec& spec, const DataShape& shape, const std::string& where) {
         Require(spec.model.loss != "logistic" || shape.classes == 2, spec, where, "model.loss",
                 "auto or softmax: c = " + std::to_string(shape.classes) +
                     " classes need c outputs (the logistic loss has one, for two classes)");
       }},
      {"model.epochs",
       [](const TrialSpec& spec, const DataShape&, const std::string& where) {
         Require(spec.model.epochs > 0 || spec.model.max_steps > 0, spec, where, "model.epochs",
                 "a positive epoch cap, or a positive model.max_steps (with both at 0 nothing "
                 "would stop a training run that never reaches zero training error)");
       }},
      {"model.m",
       [](const TrialSpec& spec, const DataShape& shape, const std::string& where) {
         // The hidden weights and their gradient and workspaces must fit as well as the data.
         const double bytes = 4.0 * 4 * static_cast<double>(spec.model.m) * shape.d;
         const double have = PhysicalMemoryBytes();
         if (have > 0 && bytes > 0.5 * have)
           throw ConfigError(where, "model.m",
                             "fewer neurons: m * d weights need about " +
                                 std::to_string(static_cast<long long>(bytes / 1e9)) +
                                 " GB with their gradient, more than half of this machine's "
                                 "memory",
                             std::to_string(spec.model.m));
       }},
      {"model.sigma_g", NonNegative("model.sigma_g", &ModelSpec::sigma_g)},
      {"model.sigma_r", NonNegative("model.sigma_r", &ModelSpec::sigma_r)},
      {"model.router_lr", Positive("model.router_lr", &ModelSpec::router_lr)},
  };
  return checks;
}

}  // namespace

void ValidateSharedParams(const TrialSpec& spec, const DataShape& shape, const std::string& where) {
  for (const auto& [name, check] : SharedChecks()) {
    const ParamInfo* param = FindParam(name);
    PMOE_CHECK(param != nullptr) << "a check of an undeclared parameter " << name;
    if (param->ReadBy(spec)) check(spec, shape, where);
  }
}

}  // namespace pmoe
