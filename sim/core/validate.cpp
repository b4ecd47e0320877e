// Range and consistency checks of a TrialSpec, each naming the parameter and what it expects.
#include "pmoe/core/validate.hpp"

#include <cstdlib>

#include "pmoe/core/errors.hpp"
#include "pmoe/core/param_table.hpp"

namespace pmoe {
namespace {

// Throws unless `ok`: "where: name = "value": expected <expected>".
void Require(bool ok, const TrialSpec& spec, const std::string& where, const std::string& name,
             const std::string& expected) {
  if (!ok) throw ConfigError(where, name, expected, GetParam(spec, name));
}

// Ranges of data model A's own parameters.
void ValidatePatternSpec(const TrialSpec& spec, const std::string& where) {
  const DataSpec& data = spec.data;
  Require(data.d >= 1, spec, where, "data.d", "a positive integer");
  Require(data.delta_d > -1.0 && data.delta_d < 1.0, spec, where, "data.delta_d",
          "a number in (-1, 1)");
  Require(data.delta_r >= 0.0 && data.delta_r < 1.0, spec, where, "data.delta_r",
          "a number in [0, 1)");
  Require(data.p >= 1, spec, where, "data.p", "a positive integer");
  Require(data.p_confuser >= -1 && data.p_confuser <= data.p, spec, where, "data.p_confuser",
          "-1 (automatic) or an integer in 0..p (p = " + std::to_string(data.p) + ")");
  Require(data.l_star >= 1 && data.l_star <= data.n, spec, where, "data.l_star",
          "an integer in 1..n (n = " + std::to_string(data.n) + ")");
  Require(data.radius >= 0.0 && data.radius < 2.0, spec, where, "data.radius",
          "a number in [0, 2)");
  Require(data.confuser_strength > 0.0 && data.confuser_strength <= 1.0, spec, where,
          "data.confuser_strength",
          "a number in (0, 1] (at 0 confusers would sit on the delta' boundary itself)");
  Require(data.noise >= 0.0, spec, where, "data.noise", "a non-negative number");
}

}  // namespace

void ValidateSpec(const TrialSpec& spec, const std::string& where) {
  const DataSpec& data = spec.data;
  const ModelSpec& model = spec.model;
  Require(spec.N >= 1, spec, where, "N", "a positive integer");
  Require(spec.N_test >= 1, spec, where, "N_test", "a positive integer");
  ParseSuccess(spec.success, where);

  Require(data.n >= 1 && data.n <= 1024, spec, where, "data.n", "an integer in 1..1024");
  if (data.model == "pattern") ValidatePatternSpec(spec, where);
  if (data.model == "image")
    Require(!data.idx_dir.empty(), spec, where, "data.idx_dir",
            "a directory of MNIST-format IDX files");

  const bool routed = model.kind != "cnn";
  Require(model.m >= 1, spec, where, "model.m", "a positive integer");
  Require(model.k >= 1, spec, where, "model.k", "a positive integer");
  if (model.kind == "separate")
    Require(model.k == 2, spec, where, "model.k", "2 for separate training (binary labels)");
  if (routed) {
    Require(model.l >= 1 && model.l <= data.n, spec, where, "model.l",
            "an integer in 1..n (n = " + std::to_string(data.n) + ")");
    Require(model.m % model.k == 0, spec, where, "model.m",
            "a multiple of model.k (k = " + std::to_string(model.k) + ")");
  }
  Require(model.lr > 0.0, spec, where, "model.lr", "a positive number");
  Require(model.batch >= 1, spec, where, "model.batch", "a positive integer");
  Require(model.epochs >= 0, spec, where, "model.epochs", "a non-negative integer");
  Require(model.sigma_w >= 0.0, spec, where, "model.sigma_w", "a non-negative number");
  Require(model.sigma_g >= 0.0, spec, where, "model.sigma_g", "a non-negative number");
  Require(model.sigma_r >= 0.0, spec, where, "model.sigma_r", "a non-negative number");
  Require(model.router_N >= 0 && model.router_N <= spec.N, spec, where, "model.router_N",
          "0 (all N) or an integer in 1..N (N = " + std::to_string(spec.N) + ")");
  Require(model.router_lr > 0.0, spec, where, "model.router_lr", "a positive number");
  Require(model.router_batch >= 1, spec, where, "model.router_batch", "a positive integer");
  Require(model.router_epochs >= 0, spec, where, "model.router_epochs",
          "a non-negative integer");
}

SuccessCriterion ParseSuccess(const std::string& text, const std::string& where) {
  SuccessCriterion c;
  if (text == "zero_train_error") {
    c.kind = SuccessCriterion::Kind::kZeroTrainError;
    return c;
  }
  for (auto [prefix, kind] : {std::pair{"test_accuracy>=", SuccessCriterion::Kind::kTestAccuracy},
                              std::pair{"router_hit>=", SuccessCriterion::Kind::kRouterHit}}) {
    const std::string p = prefix;
    if (text.compare(0, p.size(), p) != 0) continue;
    char* end = nullptr;
    const std::string number = text.substr(p.size());
    c.threshold = std::strtod(number.c_str(), &end);
    if (!number.empty() && *end == '\0' && c.threshold >= 0.0 && c.threshold <= 1.0) {
      c.kind = kind;
      return c;
    }
  }
  throw ConfigError(where, "success",
                    "test_accuracy>=X, router_hit>=X (X in [0, 1]) or zero_train_error", text);
}

}  // namespace pmoe
