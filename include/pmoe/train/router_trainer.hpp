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

// The pairwise router phase of multiclass separate training (MODEL.md §7, M.1): for each class
// pair (i, j) of RouterPairs(c), in order, the same linear-loss SGD on the pair's samples among
// the first options.samples, with label +1 for class i and -1 for class j, moving rows i and j
// of router. With c odd the last pair (c-1, 0) moves row c-1 only: row 0 was trained with its
// own pair and is not moved again. Two classes: exactly TrainRouter. Returns the steps taken.
long TrainPairwiseRouters(const Dataset& train, const RouterOptions& options, Rng& rng,
                          RowMat<float>& router);

}  // namespace pmoe
