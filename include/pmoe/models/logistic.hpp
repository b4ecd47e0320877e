// The logistic loss log(1 + exp(-y f)) (MODEL.md §5), computed without overflow.
#pragma once

#include <cmath>

namespace pmoe {

inline double LogisticLoss(double y, double f) {
  const double z = -y * f;  // softplus(z) = max(z, 0) + log1p(exp(-|z|))
  return (z > 0 ? z : 0.0) + std::log1p(std::exp(-std::abs(z)));
}

// d/df log(1 + exp(-y f)) = -y sigmoid(-y f).
inline double LogisticLossSlope(double y, double f) {
  const double z = -y * f;
  const double sigmoid = z >= 0 ? 1.0 / (1.0 + std::exp(-z)) : std::exp(z) / (1.0 + std::exp(z));
  return -y * sigmoid;
}

// The slope LogisticLossSlope(y, f) bit for bit, from one exp(-|z|) (the same number as its
// exp(-z) or exp(z)); *finite = whether LogisticLoss(y, f) is finite, i.e. z neither NaN nor
// +inf (its logarithm, the costly part, is never more than log 2).
inline double LogisticLossSlopeAndFiniteness(double y, double f, bool* finite) {
  const double z = -y * f;
  const double e = std::exp(-std::abs(z));
  *finite = z < HUGE_VAL;  // false for NaN too
  return -y * (z >= 0 ? 1.0 / (1.0 + e) : e / (1.0 + e));
}

}  // namespace pmoe
