// Checks a TrialSpec before anything runs: sizes, ranges and combinations (l <= n, m divisible by
// k, ...). Data-model feasibility is the data model's own check (pattern_plan.hpp).
#pragma once

#include <string>

#include "pmoe/core/spec.hpp"

namespace pmoe {

// Throws ConfigError naming `where`, the parameter, the value found and what was expected.
void ValidateSpec(const TrialSpec& spec, const std::string& where);

// The parsed `success` criterion (MODEL.md §6).
struct SuccessCriterion {
  enum class Kind { kTestAccuracy, kRouterHit, kZeroTrainError } kind = Kind::kTestAccuracy;
  double threshold = 0.95;
};

// Throws ConfigError for anything but test_accuracy>=X, router_hit>=X or zero_train_error.
SuccessCriterion ParseSuccess(const std::string& text, const std::string& where);

}  // namespace pmoe
