// What a training run reports (MODEL.md §5): how it ended, and the accuracy and loss of the
// trained model on a data set. The trainer returns them; a family's Learner passes them on.
#pragma once

#include <string>
#include <vector>

namespace pmoe {

// How a model's training ended (MODEL.md §5).
enum class StopReason : int {
  kNone = 0,
  kZeroTrainError = 1,
  kEpochCap = 2,
  kStepCap = 3,
  kDiverged = 4,
  kRule = 5
};
const char* StopReasonName(StopReason reason);  // "zero_train_error", "epoch_cap", ...

struct TrainOutcome {
  int epochs = 0;
  long steps = 0;
  StopReason stop = StopReason::kNone;
  bool diverged = false;
  std::string message;  // why it diverged
};

// Accuracy and mean loss of a model on prepared inputs; `finite` is false if any f was not.
struct Evaluation {
  double accuracy = 0.0;
  double loss = 0.0;
  bool finite = true;
  int errors = 0;
  // Per class, when Evaluate was asked for `classes` > 0: samples and errors of each class.
  std::vector<int> class_samples, class_errors;
};

}  // namespace pmoe
