// The logistic loss log(1 + exp(-y f)) (MODEL.md §5), computed without overflow.
#pragma once

#include <cmath>

namespace pmoe {

inline double LogisticLoss(double y, double f) {
  const double z = -y * f;  // softplus(z) = max(z, 0) + log1p(exp(-|z|))
  return (z > 0 ? z : 0.0) + std::log1p(std::exp(-std::abs(z)));
}

// d/df log(1 + exp(-y f)) = -y sigmoid(-y f), with e = exp(-|z|) for z = -y f: sigmoid(z) is
// 1/(1 + e) for z >= 0 and e/(1 + e) below, neither overflowing. Where loss_finite is given, it
// says whether LogisticLoss(y, f) is finite (z neither NaN nor +inf) without its logarithm, the
// costly part, which is never more than log 2 (a training step's divergence check).
inline double LogisticLossSlope(double y, double f, bool* loss_finite = nullptr) {
  const double z = -y * f;
  const double e = std::exp(-std::abs(z));
  if (loss_finite != nullptr) *loss_finite = z < HUGE_VAL;  // false for NaN too
  return -y * (z >= 0 ? 1.0 / (1.0 + e) : e / (1.0 + e));
}

}  // namespace pmoe
