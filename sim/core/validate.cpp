// The core checks of a TrialSpec, each naming the parameter and what it expects; ValidateSpec
// (family.cpp) adds the families' own.
#include "pmoe/core/validate.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "pmoe/core/errors.hpp"
#include "pmoe/core/param_table.hpp"

namespace pmoe {

void Require(bool ok, const TrialSpec& spec, const std::string& where, const std::string& name,
             const std::string& expected) {
  if (!ok) throw ConfigError(where, name, expected, GetParam(spec, name));
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
