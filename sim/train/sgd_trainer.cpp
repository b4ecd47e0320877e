// The training loop of MODEL.md §5, readable top to bottom: epochs of shuffled mini-batches
// until the budget says stop.
// (The definitions are in sgd_trainer_impl.hpp.)
#include "sgd_trainer_impl.hpp"

namespace pmoe {

template Evaluation Evaluate(Model<float>&, const PatchBlocks<float>&, const int*, int);
template bool MisclassifiesAny(Model<float>&, const PatchBlocks<float>&, const int*);
template TrainOutcome TrainSgd(Model<float>&, const PatchBlocks<float>&, const int*,
                               const SgdOptions&, Optimizer<float>&, Rng&);

}  // namespace pmoe
