// Router metrics of MODEL.md §6 from the routes J (samples, k, l) a model chose on test data.
#pragma once

#include <vector>

#include "pmoe/data/dataset.hpp"

namespace pmoe {

struct RouterHits {
  double all = 0.0;               // over every sample
  double pos = 0.0;               // over the y = +1 samples (class 0)
  double neg = 0.0;               // over the y = -1 samples (every other class)
  std::vector<double> per_class;  // over each class's samples (NaN for a class without any)
};

// Separate training (Lemma 4.1): the discriminative patch is in J_1 when y = +1, in J_2 when -1;
// with c classes (MODEL.md §7) the patch of class i in J_i.
RouterHits SeparateRouterHits(const std::vector<int>& routes, int k, int l, const Dataset& data);

// Joint training (Assumption 4.4): some expert's top-ranked selected patch is the discriminative
// one (routes list each expert's patches by descending gating value).
RouterHits JointGatingHits(const std::vector<int>& routes, int k, int l, const Dataset& data);

}  // namespace pmoe
