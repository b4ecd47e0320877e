// The names of the stop reasons, as recorded (stop_reason) and printed.
#include "pmoe/train/train_outcome.hpp"

namespace pmoe {

const char* StopReasonName(StopReason reason) {
  switch (reason) {
    case StopReason::kNone:
      return "none";
    case StopReason::kZeroTrainError:
      return "zero_train_error";
    case StopReason::kEpochCap:
      return "epoch_cap";
    case StopReason::kStepCap:
      return "step_cap";
    case StopReason::kDiverged:
      return "diverged";
    case StopReason::kRule:
      return "stopping_rule";
  }
  return "?";
}

}  // namespace pmoe
