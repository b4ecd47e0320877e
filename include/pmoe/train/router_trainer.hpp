// The router phase of separate training (MODEL.md §5, Algorithm 1 step 1): SGD on the linear loss
// -(1/N_r) sum_i y_i sum_j <w_1 - w_2, x_i^(j)>, which moves w_1 and w_2 by opposite amounts.
#pragma once

#include "pmoe/core/matrix.hpp"
#include "pmoe/core/rng.hpp"
#include "pmoe/data/dataset.hpp"

namespace pmoe {

struct RouterOptions {
  int samples = 0;  // the first `samples` training samples (N_r)
  double lr = 0.2;
  int batch = 20;
  int epochs = 100;
};

// Updates rows 0 (w_1) and 1 (w_2) of router; returns the number of SGD steps taken.
long TrainRouter(const Dataset& train, const RouterOptions& options, Rng& rng,
                 RowMat<float>& router);

}  // namespace pmoe
