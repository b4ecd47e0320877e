// Nominal FLOPs of a trial, counted analytically from the shapes (2 per multiply-add of the
// matrix products; elementwise work ignored; the backward pass counts the weight gradients,
// not input gradients, which no model needs). Work skipped by exploiting ReLU sparsity still
// counts: that is the point of skipping it. The same convention as ../shared/peer, so that
// GFLOP/s compare directly.
#pragma once

#include "pmoe/core/spec.hpp"

namespace pmoe {

struct FlopCount {
  double train = 0;  // SGD steps (and the separate router phase)
  double eval = 0;   // the final forward passes over the training and test sets, routing
  double total() const { return train + eval; }
};

FlopCount NominalFlops(const TrialSpec& spec, int epochs);

}  // namespace pmoe
