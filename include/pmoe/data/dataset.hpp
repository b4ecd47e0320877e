// A drawn data set: N samples of n patches each, their class labels and where the discriminative
// patch is.
#pragma once

#include <vector>

#include "pmoe/core/matrix.hpp"

namespace pmoe {

// kRouter: a separate router sample (Algorithm 1's router phase on samples of its own, drawn from
// the training distribution in a stream of its own; model.router_samples).
enum class Split { kTrain = 0, kTest = 1, kRouter = 2 };

// N samples, n patches, d patch dimension, c classes.
struct Dataset {
  int n = 0;
  int d = 0;
  int classes = 2;
  RowMatf x;                  // (N*n, d): row i*n + j is patch j of sample i
  std::vector<int> label;     // (N): the class of sample i, 0..c-1 (two classes: 0 is y = +1)
  std::vector<int> disc_pos;  // (N): index j of the discriminative patch of sample i
  std::vector<int> cluster;   // (N), data model C only: the cluster k of sample i (else empty)
  int clusters = 0;           // data model C: K (cluster is in 0..K-1); 0 for other data
  // (N*n, c), optional: <o_a, x> for every class a of every patch, recorded by a generator that
  // has each patch in cache as it writes it, so that measuring the realized statistics needs no
  // second pass over the data. Empty when the generator does not record them.
  RowMatf pattern_scores;

  int size() const { return static_cast<int>(label.size()); }
};

// Statistics a data set actually realized (MODEL.md §2), recorded with every trial.
struct RealizedStats {
  double delta_d = 0.0;  // <o1, o2>
  double delta_r = 0.0;  // max |<o_a, q>| over irrelevant patches q
  int l_star = 1;        // 1 + max over samples of the number of delta'-closer patches
  double delta = 1.0;    // 1 / (1 - max(delta_d, delta_r))
  // The l* of each trained class pair (class_pairs.hpp), MODEL.md §7; the largest is l_star.
  std::vector<int> pair_l_star;
  int classes = 2;
  bool confusers_outrank = false;  // every delta'-closer patch outranks o1/o2 under <o1 - o2, .>
};

}  // namespace pmoe
