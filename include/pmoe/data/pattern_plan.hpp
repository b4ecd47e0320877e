// Feasibility of data model A (MODEL.md §2): whether the asked delta_d, delta_r, l*, radius, p, n
// and d admit a placement of the pattern sets, and where the confuser centers go if they do.
#pragma once

#include "pmoe/data/data_spec.hpp"

namespace pmoe {

struct PatternPlan {
  DataSpec spec;
  int classes = 2;        // c (MODEL.md §7): patterns o_1..o_c, pairwise at delta_d
  int pairs = 1;          // the trained class pairs (class_pairs.hpp) confusers are placed for
  int K = 0;              // confusers per sample (l* - 1; the bound in uniform mode)
  double L = 0.0;         // ||o_i - o_j|| = sqrt(2 (1 - delta_d)) for every pair
  double dprime = 0.0;    // delta' = (1 - delta_d) / 2
  int n_confuser = 0;     // confuser sets, toward o1 first (ceil half), then toward o2
  int n_confuser_o1 = 0;  // (two classes; with more, each pair's share is split the same way)
  int n_neutral = 0;
  double a = 0.0;     // confuser center offset along u12 = (o1 - o2) / L
  double a_lo = 0.0;  // feasible interval (a_lo, a_hi]
  double a_hi = 0.0;
  double theta_max = 0.0;          // cap half-angle: 2 sin(theta_max / 2) = radius
  bool confusers_outrank = false;  // (a - radius) L > 1 - delta_d: l* is a sharp threshold
};

// Throws InfeasibleError naming the violated inequality and its numbers. Assumes ValidateSpec
// passed (ranges of the individual parameters).
PatternPlan PlanPatternModel(const DataSpec& spec);

// How many of the n_confuser sets belong to trained pair q (an equal share, the first pairs
// taking the remainder), and how many of those point toward the pair's first class.
int ConfuserSetsOfPair(const PatternPlan& plan, int q);
int ConfuserSetsTowardFirst(const PatternPlan& plan, int q);

}  // namespace pmoe
