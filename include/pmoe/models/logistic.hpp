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

}  // namespace pmoe
