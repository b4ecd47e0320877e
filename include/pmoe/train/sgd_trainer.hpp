// Mini-batch SGD on the logistic loss (MODEL.md §5): a fresh permutation each epoch, an optional
// early stop at zero training error, and divergence caught as an outcome, never a crash.
#pragma once

#include <string>

#include "pmoe/core/rng.hpp"
#include "pmoe/models/model.hpp"

namespace pmoe {

struct SgdOptions {
  double lr = 0.2;
  int batch = 20;
  int epochs = 150;
  bool early_stop = true;  // stop once the training error is zero at the end of an epoch
};

struct SgdOutcome {
  int epochs = 0;
  long steps = 0;
  bool zero_train_error = false;  // as checked by the early stop (false if it was off)
  bool diverged = false;
  std::string message;  // why it diverged
};

// Accuracy and mean loss of a model on prepared inputs; `finite` is false if any f was not.
struct Evaluation {
  double accuracy = 0.0;
  double loss = 0.0;
  bool finite = true;
  int errors = 0;
};

template <typename T>
Evaluation Evaluate(Model<T>& model, const PatchBlocks<T>& in, const Vec<T>& y);

// Whether any sample of `in` has y f <= 0 (or f not a number): the early stop's question, the
// same answer as Evaluate(...).errors > 0, but it stops looking at the first error.
template <typename T>
bool MisclassifiesAny(Model<T>& model, const PatchBlocks<T>& in, const Vec<T>& y);

template <typename T>
SgdOutcome TrainSgd(Model<T>& model, const PatchBlocks<T>& train, const Vec<T>& y,
                    const SgdOptions& options, Rng& rng);

}  // namespace pmoe
