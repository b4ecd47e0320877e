// Feasibility of data model A (MODEL.md §2): whether the asked delta_d, delta_r, l*, radius, p, n
// and d admit a placement of the pattern sets, and where the confuser centers go if they do.
#pragma once

#include "pmoe/core/spec.hpp"

namespace pmoe {

struct PatternPlan {
  DataSpec spec;
  int K = 0;               // confusers per sample (l* - 1; the bound in uniform mode)
  double L = 0.0;          // ||o1 - o2|| = sqrt(2 (1 - delta_d))
  double dprime = 0.0;     // delta' = (1 - delta_d) / 2
  int n_confuser = 0;      // confuser sets, toward o1 first (ceil half), then toward o2
  int n_confuser_o1 = 0;
  int n_neutral = 0;
  double a = 0.0;          // confuser center offset along u12 = (o1 - o2) / L
  double a_lo = 0.0;       // feasible interval (a_lo, a_hi]
  double a_hi = 0.0;
  double theta_max = 0.0;  // cap half-angle: 2 sin(theta_max / 2) = radius
  bool confusers_outrank = false;  // (a - radius) L > 1 - delta_d: l* is a sharp threshold
};

// Throws InfeasibleError naming the violated inequality and its numbers. Assumes ValidateSpec
// passed (ranges of the individual parameters).
PatternPlan PlanPatternModel(const DataSpec& spec);

}  // namespace pmoe
