// Checks a TrialSpec before anything runs: the core parameters, then the data family's and the
// model family's own checks (ranges and combinations such as l <= n), then the memory a trial
// would need against the machine's. Data-model feasibility is the data family's Make().
#pragma once

#include <string>

#include "pmoe/core/spec.hpp"

namespace pmoe {

// Throws ConfigError naming `where`, the parameter, the value found and what was expected.
void ValidateSpec(const TrialSpec& spec, const std::string& where);

// Throws unless `ok`: "where: name = "value": expected <expected>" (for the families' checks).
void Require(bool ok, const TrialSpec& spec, const std::string& where, const std::string& name,
             const std::string& expected);

// The parsed `success` criterion (MODEL.md §6).
struct SuccessCriterion {
  enum class Kind { kTestAccuracy, kRouterHit, kZeroTrainError } kind = Kind::kTestAccuracy;
  double threshold = 0.95;
};

// Throws ConfigError for anything but test_accuracy>=X, router_hit>=X or zero_train_error.
SuccessCriterion ParseSuccess(const std::string& text, const std::string& where);

// Peak bytes one trial holds: its training and test sets (and their labels), stored as float.
double EstimateTrialBytes(const TrialSpec& spec);

// This machine's physical memory in bytes (0 when unknown).
double PhysicalMemoryBytes();

}  // namespace pmoe
