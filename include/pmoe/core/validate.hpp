// The core's checks of a TrialSpec: the success criterion, the helper the families' checks
// throw with, the machine's memory. ValidateSpec (family.hpp) runs them with the families' own.
#pragma once

#include <string>

#include "pmoe/core/spec.hpp"

namespace pmoe {

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

// This machine's physical memory in bytes (0 when unknown).
double PhysicalMemoryBytes();

}  // namespace pmoe
