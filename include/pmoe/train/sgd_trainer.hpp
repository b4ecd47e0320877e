// Mini-batch training of MODEL.md §5: a fresh permutation each epoch, a budget of epochs and
// steps with an optional early stop at zero training error, divergence caught as an outcome,
// never a crash. The loss is the model's (train/loss.hpp), the update the optimizer's.
#pragma once

#include <string>

#include "pmoe/core/rng.hpp"
#include "pmoe/models/model.hpp"
#include "pmoe/models/optimizer.hpp"
#include "pmoe/train/train_outcome.hpp"

namespace pmoe {

// When training stops: at the first of zero training error (when early_stop), `epochs` epochs
// (0: no epoch cap) and `max_steps` steps (0: no step cap). At least one must bound it.
struct TrainBudget {
  int epochs = 150;
  long long max_steps = 0;
  bool early_stop = true;  // checked at the end of each epoch
};

struct SgdOptions {
  int batch = 20;
  TrainBudget budget;
};

template <typename T>
Evaluation Evaluate(Model<T>& model, const PatchBlocks<T>& in, const int* labels, int classes = 0);

// Whether any sample of `in` is misclassified (or has an f that is not a number): the early
// stop's question, the same answer as Evaluate(...).errors > 0, but it stops at the first error.
template <typename T>
bool MisclassifiesAny(Model<T>& model, const PatchBlocks<T>& in, const int* labels);

template <typename T>
TrainOutcome TrainSgd(Model<T>& model, const PatchBlocks<T>& train, const int* labels,
                      const SgdOptions& options, Optimizer<T>& optimizer, Rng& rng);

}  // namespace pmoe
